"""Budgets for a worker's whole process tree: a control group of its own (parent side).

``RLIMIT_AS`` and ``RLIMIT_CPU`` bound one process each; a worker that forks 30 children would
multiply them.  When the grader can create a control group (as root, on cgroup v2 with the
memory and pids controllers delegated to it, or on the v1 ``memory``, ``pids`` and ``cpuacct``
hierarchies), every worker gets one of its own before it runs anything:

* memory: ``memory.max`` (v2; swap 0) / ``memory.limit_in_bytes`` (v1; with swap when the
  kernel accounts it) = ``memory_mb`` for the whole tree, its tmpfs ``/work`` included;
* processes: ``pids.max`` = ``processes`` (threads count) for the whole tree;
* CPU: the tree's CPU time (``cpu.stat`` usage_usec / ``cpuacct.usage``), read by the grader while
  it waits for an answer; past ``cpu_seconds`` the worker is killed.  The same figure is what the
  linear-time test measures: nothing the submission sets, every thread and child included.

The worker is moved into it by the grader before the worker reads its configuration, so nothing
it starts escapes it.  Where no control group can be had, :func:`create` says why and the worker
runs as ONE process (the seccomp filter refuses fork, vfork and clone without CLONE_THREAD): its
RLIMIT_AS and RLIMIT_CPU then bound everything it does -- at least as strict.
"""
from __future__ import annotations

import os
import signal
import time

__all__ = ["Group", "create", "cpu_of_pid", "tasks_of_pid", "running", "tids_of_pid"]

_BASE = "/sys/fs/cgroup"


def _read(path: str) -> str:
    with open(path) as fh:
        return fh.read()


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _mounts() -> dict:
    """{controller or "": mount point} of the cgroup file systems ("" is cgroup2), and their roots."""
    out = {}
    try:
        lines = _read("/proc/self/mountinfo").splitlines()
    except OSError:
        return out
    for ln in lines:
        left, _, right = ln.partition(" - ")
        f, r = left.split(), right.split()
        if len(f) < 5 or len(r) < 3:
            continue
        root, point, fstype = f[3], f[4], r[0]
        if fstype == "cgroup2":
            out.setdefault("", (point, root))
        elif fstype == "cgroup":
            for opt in r[2].split(","):
                if opt in ("memory", "pids", "cpuacct"):
                    out.setdefault(opt, (point, root))
    return out


def _own_paths() -> dict:
    """{controller or "": this process's cgroup path} from /proc/self/cgroup."""
    out = {}
    try:
        lines = _read("/proc/self/cgroup").splitlines()
    except OSError:
        return out
    for ln in lines:
        parts = ln.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":
            out[""] = parts[2]
        for c in parts[1].split(","):
            if c in ("memory", "pids", "cpuacct"):
                out[c] = parts[2]
    return out


def _dir(mounts, own, key):
    if key not in mounts or key not in own:
        return None
    point, root = mounts[key]
    path = own[key]
    if root != "/" and path.startswith(root):
        path = path[len(root):]
    d = os.path.join(point, path.lstrip("/"))
    return d if os.path.isdir(d) else None


class Group:
    """One worker's control group(s).  ``kind``: "v2" or "v1"."""

    def __init__(self, kind: str, dirs: dict):
        self.kind = kind
        self.dirs = dirs          # v2: {"all": d}; v1: {"memory": d, "pids": d, "cpuacct": d}

    def add(self, pid: int) -> None:
        for d in set(self.dirs.values()):
            _write(os.path.join(d, "cgroup.procs"), str(pid))

    def cpu_seconds(self) -> float | None:
        try:
            if self.kind == "v2":
                for ln in _read(os.path.join(self.dirs["all"], "cpu.stat")).splitlines():
                    k, _, v = ln.partition(" ")
                    if k == "usage_usec":
                        return int(v) / 1e6
                return None
            return int(_read(os.path.join(self.dirs["cpuacct"], "cpuacct.usage"))) / 1e9
        except (OSError, ValueError):
            return None

    def tasks(self) -> int | None:
        """How many threads (of every process) the group holds now."""
        try:
            if self.kind == "v2":
                return len(_read(os.path.join(self.dirs["all"], "cgroup.threads")).split())
            return len(_read(os.path.join(self.dirs["cpuacct"], "tasks")).split())
        except OSError:
            return None

    def tids(self) -> list[str] | None:
        """The thread ids (of every process) the group holds now."""
        try:
            if self.kind == "v2":
                return _read(os.path.join(self.dirs["all"], "cgroup.threads")).split()
            return _read(os.path.join(self.dirs["cpuacct"], "tasks")).split()
        except OSError:
            return None

    def memory_hit(self) -> bool:
        """Did the tree reach its memory limit (an allocation refused or a process killed)?"""
        try:
            if self.kind == "v2":
                ev = dict(ln.split() for ln in _read(os.path.join(self.dirs["all"], "memory.events")).splitlines())
                return int(ev.get("oom_kill", 0)) > 0 or int(ev.get("max", 0)) > 0
            return int(_read(os.path.join(self.dirs["memory"], "memory.failcnt"))) > 0
        except (OSError, ValueError):
            return False


    def kill(self) -> None:
        """Every process of the group killed: v2's cgroup.kill; v1 has none, so its processes
        are killed one by one, again until none is left (a fork on the way joins the group)."""
        if self.kind == "v2":
            try:
                _write(os.path.join(self.dirs["all"], "cgroup.kill"), "1")
            except OSError:
                pass
            return
        for _ in range(20):
            pids = set()
            for d in set(self.dirs.values()):
                try:
                    pids.update(int(p) for p in _read(os.path.join(d, "cgroup.procs")).split())
                except (OSError, ValueError):
                    pass
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.005)

    def remove(self) -> None:
        self.kill()
        for d in set(self.dirs.values()):
            for _ in range(50):
                try:
                    os.rmdir(d)
                    break
                except FileNotFoundError:
                    break
                except OSError:          # processes still dying: a moment
                    time.sleep(0.02)


def _try_v2(mounts, own, name, memory, pids):
    base = _dir(mounts, own, "")
    if base is None:
        return None, "no cgroup2 hierarchy"
    try:
        have = _read(os.path.join(base, "cgroup.subtree_control")).split()
    except OSError as e:
        return None, f"cgroup2: {e.strerror}"
    if not {"memory", "pids"} <= set(have):
        return None, "cgroup2: the memory and pids controllers are not delegated to the grader's group"
    d = os.path.join(base, name)
    try:
        os.mkdir(d, 0o700)
        _write(os.path.join(d, "memory.max"), str(memory))
        if os.path.exists(os.path.join(d, "memory.swap.max")):
            _write(os.path.join(d, "memory.swap.max"), "0")
        _write(os.path.join(d, "pids.max"), str(pids))
    except OSError as e:
        Group("v2", {"all": d}).remove()
        return None, f"cgroup2: {e.strerror}"
    return Group("v2", {"all": d}), ""


def _try_v1(mounts, own, name, memory, pids):
    dirs = {}
    for c in ("memory", "pids", "cpuacct"):
        base = _dir(mounts, own, c)
        if base is None:
            return None, f"no cgroup v1 {c} hierarchy"
        dirs[c] = os.path.join(base, name)
    g = Group("v1", {})
    try:
        for c, d in dirs.items():
            os.mkdir(d, 0o700)
            g.dirs[c] = d
        m = dirs["memory"]
        _write(os.path.join(m, "memory.limit_in_bytes"), str(memory))
        if os.path.exists(os.path.join(m, "memory.memsw.limit_in_bytes")):
            _write(os.path.join(m, "memory.memsw.limit_in_bytes"), str(memory))
        _write(os.path.join(dirs["pids"], "pids.max"), str(pids))
    except OSError as e:
        g.remove()
        return None, f"cgroup v1: {e.strerror}"
    return g, ""


def create(memory_bytes: int, processes: int) -> tuple[Group | None, str]:
    """A fresh group bounding memory and processes, or (None, why not)."""
    mounts, own = _mounts(), _own_paths()
    name = f"mb-worker-{os.getpid()}-{time.monotonic_ns()}"
    g, why2 = _try_v2(mounts, own, name, memory_bytes, processes)
    if g is not None:
        return g, ""
    g, why1 = _try_v1(mounts, own, name, memory_bytes, processes)
    if g is not None:
        return g, ""
    return None, f"{why2}; {why1}"


def cpu_of_pid(pid: int | None) -> float | None:
    """CPU seconds of process ``pid`` and every thread it ever had, the fallback when no control
    group is had: the kernel's CPU clock of the process (``clock_getcpuclockid``: nanoseconds,
    live and ended threads alone), or else /proc/PID/stat's utime + stime and the children it reaped
    (clock ticks).  One source only, never the larger of two: the difference of two readings
    taken from different sources would be off by up to a tick (10 ms), a pass's whole cost at
    the smaller sizes."""
    if pid is None:
        return None
    try:
        return time.clock_gettime((~pid << 3) | 2)     # CPUCLOCK_SCHED of the whole thread group
    except (OSError, OverflowError, ValueError):
        pass
    try:
        raw = _read(f"/proc/{pid}/stat")
        f = raw[raw.rindex(")") + 2:].split()
        hz = os.sysconf("SC_CLK_TCK")
        return (int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])) / hz
    except (OSError, ValueError, IndexError):
        return None


def tasks_of_pid(pid: int | None) -> int | None:
    """How many threads process ``pid`` has now (the fallback's one process)."""
    if pid is None:
        return None
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return None


def tids_of_pid(pid: int | None) -> list[str] | None:
    """The thread ids of process ``pid`` now (the fallback's one process)."""
    if pid is None:
        return None
    try:
        return [f"{pid}/task/{t}" for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return None


def running(tids) -> int | None:
    """How many of these threads are on a CPU or waiting for one (state R) or in an
    uninterruptible wait (D) -- working, whether or not the machine's load lets them run just now.
    ``tids``: ids under /proc ("123" or "45/task/123").  None when none can be read."""
    if tids is None:
        return None
    busy, seen = 0, 0
    for t in tids:
        try:
            raw = _read(f"/proc/{t}/stat")
        except OSError:
            continue            # ended meanwhile: not working
        seen += 1
        if raw[raw.rindex(")") + 2:raw.rindex(")") + 3] in ("R", "D"):
            busy += 1
    return busy if seen or not tids else None
