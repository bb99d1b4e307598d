"""The parent side of the sandbox: one isolated worker process per submission.

A :class:`Worker` starts ``python -I -S -B grading/_child.py`` in its own session (process
group), with a scrubbed environment, stdin from /dev/null, stdout+stderr into a size-capped file
the parent owns, and two pipes: requests go down one, answers come back up the other.  The child
never receives expected outputs; the parent compares.

Every call has a wall-clock limit; when it passes, or when the worker dies, the whole process
group is killed with SIGKILL (SIGTERM cannot be ignored into survival) and, when the worker ran
under its own uid, every process of that uid too (a child that called setsid() escapes the group
but not its uid).  The next call starts a fresh worker.
"""
from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass, field

__all__ = ["Limits", "Worker", "CallResult", "isolation_capabilities", "project_root"]

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_child.py")
UID_BASE = 3_000_000          # per-worker uids: UID_BASE + pid of the worker (never a real user)
MAX_ANSWER = 32 << 20         # bytes; a longer answer is an error


def project_root() -> str:
    """Directory holding the grader's packages (learners, proofs, adversary, grading)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass
class Limits:
    cpu_seconds: int = 30          # RLIMIT_CPU for the whole worker
    memory_mb: int = 1024          # RLIMIT_AS
    processes: int = 32            # RLIMIT_NPROC (counts threads; per uid)
    file_size_mb: float = 2        # RLIMIT_FSIZE: output file and files it writes
    open_files: int = 64           # RLIMIT_NOFILE
    network: bool = False          # False: new network namespace (root) -> no network
    separate_user: bool = True     # root only: run as an unprivileged per-worker uid
    namespaces: bool = True        # root only: mount + network namespaces
    extra_hide: list = field(default_factory=list)   # more directories to hide from the child

    def rlimits(self) -> dict:
        return {"cpu": self.cpu_seconds, "as": int(self.memory_mb) << 20, "nproc": self.processes,
                "fsize": int(self.file_size_mb * (1 << 20)), "nofile": self.open_files, "core": 0}


@dataclass
class CallResult:
    ok: dict | None = None          # the answer (plain numbers) when the call succeeded
    error: str | None = None        # "timeout", "crash", "exception", "bad-return", "memory", ...
    message: str = ""
    modified: bool = False
    seconds: float = 0.0


def _site_paths() -> list[str]:
    """Where the student's code may import third-party packages from (numpy...)."""
    out = []
    for key in ("purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p and p not in out and os.path.isdir(p):
            out.append(p)
    return out


def _keep_paths() -> list[str]:
    keep = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix)}
    keep.update(os.path.realpath(p) for p in _site_paths())
    exe = os.path.realpath(sys.executable)
    keep.add(os.path.dirname(os.path.dirname(exe)))
    return sorted(keep)


def _hide_paths(extra) -> list[str]:
    # /tmp, /var/tmp, /dev/shm: private and read-only, so nothing can be left there for a later run
    # (the worker's own directory and the Python installation are bound back in)
    # The grader's own packages are hidden one by one, *last*, so that they stay hidden even where
    # they are installed inside a site-packages directory that is bound back in (a plain
    # `pip install .`); the whole source tree is hidden too unless it *is* that site-packages.
    root = os.path.realpath(project_root())
    kept = {os.path.realpath(p) for p in _site_paths()}
    hide = ([] if root in kept else [root]) + ["/root", "/home", "/srv", "/mnt", "/media", "/autograder", "/tmp",
                                             "/var/tmp", "/dev/shm"]
    for p in extra:
        if p:
            hide.append(os.path.realpath(p))
    hide.extend(_own_package_dirs())
    return hide


def _own_package_dirs() -> list[str]:
    """The suite's packages (learners ... mistakebound): where this process imported them from,
    and every copy in the site-packages directories the child may import from."""
    import importlib.util
    names = ("learners", "proofs", "adversary", "grading", "mistakebound")
    out = []
    for name in names:
        spec = importlib.util.find_spec(name)
        locs = list(spec.submodule_search_locations or []) if spec else []
        locs += [os.path.join(site, name) for site in _site_paths()]
        for loc in locs:
            rp = os.path.realpath(loc)
            if os.path.isdir(rp) and rp not in out:
                out.append(rp)
    return out


def isolation_capabilities() -> dict:
    """What this platform offers (reported in docs and in every results.json)."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    return {
        "platform": sys.platform, "root": root,
        "rlimits": True,
        "namespaces": bool(root and sys.platform.startswith("linux")),
        "separate_user": bool(root),
    }


_SIGNALS = {getattr(signal, n): n for n in dir(signal) if n.startswith("SIG") and not n.startswith("SIG_")}


def _describe_exit(rc: int | None, limits: Limits) -> str:
    if rc is None:
        return "the worker stopped answering"
    if rc >= 0:
        return f"your code ended the process (exit status {rc}) instead of returning"
    sig = -rc
    name = _SIGNALS.get(sig, f"signal {sig}")
    if sig == signal.SIGXCPU:
        return f"CPU time limit exceeded ({limits.cpu_seconds} s)"
    if sig == signal.SIGXFSZ:
        return f"output limit exceeded ({limits.file_size_mb:g} MB of printing or file writes)"
    if sig == signal.SIGKILL:
        return "killed (SIGKILL): a resource limit was reached"
    if sig == signal.SIGSEGV:
        return "the process crashed (segmentation fault)"
    return f"the process was killed by {name}"


class Worker:
    """One sandboxed process running one submission's module.  Not thread-safe."""

    def __init__(self, files: dict[str, bytes], module: str, limits: Limits | None = None,
                 base_dir: str | None = None):
        self.files = files
        self.module = module
        self.limits = limits or Limits()
        self.base_dir = base_dir
        self.proc = None
        self.box = None
        self.isolation: dict = {}
        self.start_error: CallResult | None = None
        self.starts = 0
        self._buf = b""
        self._uid = None

    # --- life cycle ---------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> CallResult | None:
        """Start the worker; returns None when ready, else a CallResult describing the failure."""
        self.close()
        self.starts += 1
        self.box = tempfile.mkdtemp(prefix="mb-grade-", dir=self.base_dir)
        os.chmod(self.box, 0o711)
        work = os.path.join(self.box, "work")
        os.mkdir(work, 0o700)
        for name, data in self.files.items():
            dest = os.path.join(work, name)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as fh:
                fh.write(data)
        self.out_path = os.path.join(self.box, "output.txt")
        out = open(self.out_path, "wb")
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": work, "TMPDIR": work,
               "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
               "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-B", "-u", CHILD, str(req_r), str(resp_w)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=self.box,
                start_new_session=True, pass_fds=(req_r, resp_w), close_fds=True)
        finally:
            out.close()
            os.close(req_r)
            os.close(resp_w)
        self.req_w, self.resp_r = req_w, resp_r
        self._buf = b""
        root = hasattr(os, "geteuid") and os.geteuid() == 0
        self._uid = UID_BASE + self.proc.pid if (root and self.limits.separate_user) else None
        cfg = {"workdir": work, "module": self.module, "limits": self.limits.rlimits(),
               "network": self.limits.network, "namespaces": self.limits.namespaces,
               "hide": _hide_paths(self.limits.extra_hide), "keep": _keep_paths() + [self.box],
               "sys_path": _site_paths(), "uid": self._uid, "gid": self._uid, "parent_pid": os.getpid()}
        try:
            self._write(cfg)
        except OSError:
            pass
        ans = self._read(timeout)
        if isinstance(ans, CallResult):
            self.start_error = ans
            self.kill()
            return ans
        self.isolation = ans.get("isolation", {})
        if not ans.get("ready"):
            self.start_error = CallResult(error=ans.get("error", "import"), message=ans.get("message", ""))
            self.kill()
            return self.start_error
        self.start_error = None
        return None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def output(self, limit: int = 4000) -> str:
        """What the submission printed (first ``limit`` characters)."""
        try:
            with open(self.out_path, "rb") as fh:
                return fh.read(limit).decode("utf-8", "replace")
        except (OSError, AttributeError):
            return ""

    def kill(self) -> None:
        if self.proc is None:
            return
        pid = self.proc.pid
        if self._uid is not None and self.proc.poll() is None:
            # kill every process of the worker's uid (the PID-namespace init among them); the outer
            # process (root, trusted) then reaps it and exits, so nothing is left as a zombie
            self._kill_uid(self._uid)
            try:
                self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        for fd in ("req_w", "resp_r"):
            f = getattr(self, fd, None)
            if f is not None:
                try:
                    os.close(f)
                except OSError:
                    pass
                setattr(self, fd, None)
        self.proc = None

    @staticmethod
    def _kill_uid(uid: int) -> None:
        """Kill every process of ``uid`` (those that left the process group with setsid)."""
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            try:
                os.setgid(uid)
                os.setuid(uid)
                for _ in range(3):
                    os.kill(-1, signal.SIGKILL)
            except Exception:
                pass
            os._exit(0)
        os.waitpid(pid, 0)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                self._write({"op": "quit"})
            except OSError:
                pass
        self.kill()
        if self.box:
            shutil.rmtree(self.box, ignore_errors=True)
            self.box = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- calls --------------------------------------------------------------------------
    def _write(self, obj) -> None:
        data = (json.dumps(obj) + "\n").encode()
        view = memoryview(data)
        while view:
            n = os.write(self.req_w, view)
            view = view[n:]

    def _read(self, timeout: float):
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return CallResult(error="timeout", message=f"time limit exceeded ({timeout:.3g} s wall clock)")
            r, _, _ = select.select([self.resp_r], [], [], left)
            if not r:
                continue
            chunk = os.read(self.resp_r, 1 << 16)
            if not chunk:
                try:
                    rc = self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    rc = None
                return CallResult(error="crash", message=_describe_exit(rc, self.limits))
            self._buf += chunk
            if len(self._buf) > MAX_ANSWER:
                return CallResult(error="bad-return", message="the answer is too large")
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return CallResult(error="protocol", message="garbled answer on the result channel")

    def call(self, request: dict, timeout: float) -> CallResult:
        """Send one request; wait at most ``timeout`` seconds for its answer."""
        if not self.alive:
            err = self.start()
            if err is not None:
                return err
        t0 = time.perf_counter()
        try:
            self._write(request)
        except OSError:
            ans = CallResult(error="crash", message=_describe_exit(self.proc.poll(), self.limits))
        else:
            ans = self._read(timeout)
        dt = time.perf_counter() - t0
        if isinstance(ans, CallResult):
            ans.seconds = dt
            self.kill()          # timeouts, crashes, floods: the next call gets a fresh worker
            return ans
        if "ok" in ans:
            return CallResult(ok=ans["ok"], modified=bool(ans.get("modified")), seconds=dt)
        return CallResult(error=ans.get("error", "exception"), message=ans.get("message", ""), seconds=dt)
