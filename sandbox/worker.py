"""The parent side of the sandbox: one isolated worker process per submission.

A :class:`Worker` starts ``python -I -S -B -u sandbox/_child.py`` in its own session (process
group), with a scrubbed environment, stdin from /dev/null, stdout+stderr into a size-capped file
the parent owns, and two pipes: requests go down one, answers come back up the other.  The child
never receives expected outputs; the parent compares.

Start-up is a handshake, and the student's code is loaded only at its end:

1. the outer process reports the worker's pid (the grader opens a pidfd on it at once);
2. the worker reports every layer it set up (``_jail.py``); a layer that failed ends the start
   with :class:`~sandbox.isolation.IsolationUnavailable` (unless ``Limits.insecure``);
3. the grader checks the worker from outside (``isolation.verify``: its /proc status, namespaces
   and root directory) and only then sends ``load``.

Every message back is checked by ``sandbox.wire`` (size, syntax, schema) before it is used.
Every call has a wall-clock limit, and every submission a total budget (``Budget``); when a
limit passes, or the worker misbehaves on the channel, the worker's PID namespace is killed
through the pidfd (SIGKILL to its PID 1 kills every process in it) and its process group too.
The next call starts a fresh worker.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from sandbox import _cgroup, _digest, _template, wire
from sandbox._channel import START_TIMEOUT, Channel
from sandbox.isolation import IsolationUnavailable, describe, level, project_root, stdlib_dirs, verify, view_config
from sandbox.limits import Budget, CallResult, Limits, error_message

__all__ = ["Limits", "Worker", "CallResult", "Budget", "project_root"]

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_child.py")


def _user_words(rec: dict) -> str:
    u = rec["user"]
    if u == "unchanged" and rec["mode"] == "landlock":
        return "the grader's own uid (Landlock keeps its signals and sockets from every process outside it), no capabilities"
    if u == "user namespace":
        return "uid 1000 in a user namespace (the grader's own uid outside), no capabilities"
    if u.startswith("uid ") and rec["mode"] == "userns":
        return f"{u} of its own, mapped to 1000 in a user namespace, no capabilities"
    if u.startswith("uid ") and rec["mode"] == "root":
        return f"{u} of its own, no capabilities"
    return "the grader's own user" if u == "unchanged" else u


def _env(home: str) -> dict:
    return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home, "TMPDIR": home,
            "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def _modified(request: dict, reported) -> bool:
    """Did the call change its inputs?  Decided here, from bytes: the grader's digests of the
    bytes the worker echoed after the call against its own of what it sent (an input whose echo
    is missing or unreadable counts as changed).  Requests without watched inputs keep the
    worker's flag."""
    want = _digest.expected(request)
    if want is None:
        return bool(reported) if isinstance(reported, bool) else False
    if not isinstance(reported, dict):
        return True
    return any(_digest.echoed(reported.get(k)) != d for k, d in want.items())


class Worker(Channel):
    """One sandboxed process running one submission's module.  Not thread-safe."""

    def __init__(self, files: dict[str, bytes], module: str, limits: Limits | None = None,
                 base_dir: str | None = None, budget: Budget | None = None):
        self.files = files
        self.module = module
        self.limits = limits or Limits()
        self.base_dir = base_dir
        self.budget = budget
        self.proc = None
        self.box = None
        self.isolation: dict = {}
        self.start_error: CallResult | None = None
        self.starts = 0
        self._buf = b""
        self._uid = None
        self._pidfd = None
        self._inner = None
        self._id = 0
        self.req_w = self.resp_r = self.out_r = None
        self.group = None
        self._no_group = ""
        self._printed = bytearray()
        self._printed_total = 0

    # --- life cycle ---------------------------------------------------------------------
    def _make_box(self) -> str | None:
        """The worker's host directory: src/ (a copy of the submission) and root/ (mount point of
        its new root).  Returns a problem in the grader's words, or None."""
        self.box = tempfile.mkdtemp(prefix="mb-grade-", dir=self.base_dir)
        os.chmod(self.box, 0o700)
        src = os.path.join(self.box, "src")
        os.mkdir(src, 0o700)
        os.mkdir(os.path.join(self.box, "root"), 0o755)
        try:
            for name, data in self.files.items():
                dest = os.path.join(src, name)
                if not os.path.realpath(dest).startswith(src + os.sep):
                    return f"the file name {wire.student_text(name, 100)} cannot be used"
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
        except OSError as e:
            return f"the submission's files cannot be copied into the sandbox ({e.strerror})"
        return None

    def _config(self) -> dict:
        L = self.limits
        view = view_config(list(L.packages))
        jail = {"insecure": L.insecure, "fork": self.group is not None, "network": L.network, "namespaces": L.namespaces,
                "separate_user": L.separate_user, "box": self.box, "src": os.path.join(self.box, "src"),
                "root": os.path.join(self.box, "root"), "limits": L.rlimits(), "work_mb": L.work_mb,
                "expose": view["expose"], "hide": view["hide"], "packages": view["packages"],
                "devices": view["devices"], "landlock": view["landlock"], "stdlib": stdlib_dirs()}
        return {"module": self.module, "jail": jail, "package_dirs": view["package_dirs"],
                "harmless": list(L.harmless_imports)}

    def start(self, timeout: float = START_TIMEOUT) -> CallResult | None:
        """Start the worker; returns None when ready, else a CallResult describing the failure.
        Raises IsolationUnavailable when a layer is missing (and the limits are not insecure)."""
        self.close()
        self.starts += 1
        if self.budget is not None:
            if self.budget.left() <= 0:
                self.start_error = self.budget.result()
                return self.start_error
            timeout = min(timeout, max(self.budget.left(), 0.5))
        deadline = time.monotonic() + timeout
        problem = self._make_box()
        if problem:
            self.start_error = CallResult(error="missing", message=problem)
            return self.start_error
        self.group, self._no_group = None, "the grader runs with --insecure and no namespaces"
        if self.limits.namespaces:
            self.group, self._no_group = _cgroup.create(self.tree_memory_mb() << 20, int(self.limits.processes))
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        out_r, out_w = os.pipe()          # printed output: a pipe, never a host file the worker could chmod
        try:
            self.proc = self._forked((req_r, resp_w, out_w), deadline)
            if self.proc is None:
                self.proc = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-B", "-u", CHILD, str(req_r), str(resp_w)],
                    stdin=subprocess.DEVNULL, stdout=out_w, stderr=out_w, env=_env("/work"), cwd=self.box,
                    start_new_session=True, pass_fds=(req_r, resp_w), close_fds=True)
        finally:
            os.close(out_w)
            os.close(req_r)
            os.close(resp_w)
        self.req_w, self.resp_r, self.out_r = req_w, resp_r, out_r
        for fd in (req_w, resp_r, out_r):
            os.set_blocking(fd, False)
        self._printed = bytearray()
        self._printed_total = 0
        if self.group is not None:
            try:           # before the worker reads its configuration: everything it starts is inside
                self.group.add(self.proc.pid)
            except OSError as e:
                self.group.remove()
                self.group, self._no_group = None, f"joining the control group: {e.strerror}"
        self._buf = b""
        self._id = 0
        try:
            return self._handshake(deadline)
        except IsolationUnavailable:
            self.close()
            raise

    def _forked(self, fds, deadline: float):
        """The worker forked from this process's preloaded template (``_template.py``), or None:
        then it is started afresh.  Either way it sets up every layer itself before the handshake."""
        L = self.limits
        preload = [p for p in _template.PRELOAD if p in L.packages]
        if not preload:
            return None
        view = view_config(list(L.packages))
        cfg = {"preload": preload, "package_dirs": view["package_dirs"], "packages": view["packages"],
               "stdlib": stdlib_dirs()}
        key = (tuple(preload), tuple(view["package_dirs"]))
        return _template.spawn(key, cfg, _env("/work"), self.box, fds, max(deadline - time.monotonic(), 0.5))

    def _fail_start(self, r: CallResult) -> CallResult:
        self.start_error = r
        self.kill()
        return r

    def _handshake(self, deadline: float) -> CallResult | None:
        try:
            self._write(self._config(), deadline)
        except OSError:
            pass
        L = self.limits
        # 1. the outer process: the worker's pid (or a layer that failed before the fork)
        msg = self._read(deadline)
        if isinstance(msg, CallResult):
            raise IsolationUnavailable("setup", f"the worker did not start ({msg.message})")
        try:
            if isinstance(msg, dict) and msg.get("armed") is False:
                _, layer, reason = wire.parse_armed(msg)
                raise IsolationUnavailable(layer, reason)
            outer = wire.parse_outer(msg)
        except wire.WireError as e:
            raise IsolationUnavailable("setup", str(e)) from None
        self._inner, self._uid = outer["pid"], outer["uid"]
        try:
            self._pidfd = os.pidfd_open(self._inner)
        except (OSError, AttributeError):
            self._pidfd = None
        # 2. the worker's own report of its layers
        msg = self._read(deadline)
        if isinstance(msg, CallResult):
            raise IsolationUnavailable("setup", f"the worker stopped during set-up ({msg.message})")
        try:
            parsed = wire.parse_armed(msg)
        except wire.WireError as e:
            raise IsolationUnavailable("setup", str(e)) from None
        if parsed[0] == "failed":
            raise IsolationUnavailable(parsed[1], parsed[2])
        rec = parsed[1]
        # 3. checked from outside, before any student code exists in the worker
        sentinels = [project_root(), self.box] + [os.path.abspath(p) for p in L.extra_hide if p]
        seen, bad = verify(self._inner, self.proc.pid, rec, sentinels)
        missing = list(rec["missing"]) + bad
        if not L.network and "net" not in rec["namespaces"] and rec["mode"] != "landlock":
            missing.append(["namespaces", "no network namespace"])
        if missing and not L.insecure:
            raise IsolationUnavailable(*missing[0])
        self.isolation = {
            "mode": rec["mode"], "namespaces": rec["namespaces"],
            "network": ("allowed by the spec" if L.network else
                        "blocked (new network namespace)" if "net" in rec["namespaces"] else
                        "blocked (seccomp refuses every socket but a connected local pair; Landlock refuses TCP)"
                        if rec["mode"] == "landlock" and rec["seccomp"] else
                        "blocked (seccomp refuses every socket but a connected local pair)" if rec["seccomp"] else
                        "not isolated"),
            "level": level(rec, missing), "landlock": rec["landlock"],
            "user": _user_words(rec),
            "view": "allow-list" if rec["view"] else "host", "proc": rec["proc"],
            "packages": list(L.packages), "seccomp": rec["seccomp"] and rec["no_new_privs"],
            "limits": rec["limits"], "checked": seen, "missing": missing, "budget": self.budget_words(rec["mode"])}
        # 4. the student's module
        try:
            self._write({"op": "load"}, deadline)
        except OSError:
            pass
        msg = self._read(deadline)
        if isinstance(msg, CallResult):
            return self._fail_start(CallResult(error="import", message=msg.message))
        try:
            ready, kind, text = wire.parse_ready(msg)
        except wire.WireError as e:
            return self._fail_start(CallResult(error="import", message=str(e)))
        if not ready:
            message = f"no file {self.module}.py in the submission" if kind == "missing" else wire.student_text(text)
            return self._fail_start(CallResult(error=kind, message=message))
        self.start_error = None
        return None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def output(self, limit: int = 4000) -> str:
        """What the submission printed (first ``limit`` bytes, decoded; quote before showing)."""
        self._drain_output()
        return bytes(getattr(self, "_printed", b""))[:limit].decode("utf-8", "replace")


    def cpu_seconds(self) -> float | None:
        """CPU time of the worker's whole process tree so far, read from outside: its control group,
        or (one process only) /proc/PID/stat with every thread it ever had."""
        g = getattr(self, "group", None)
        if g is not None:
            return g.cpu_seconds()
        return _cgroup.cpu_of_pid(self._inner) if self.alive else None

    def _over_disk(self) -> bool:
        """Container mode has no size-capped /work: the worker's own directory is measured after
        each call, from outside (its files' sizes and count, the caps of the tmpfs it would have had)."""
        if self.isolation.get("mode") != "landlock" or not self.box:
            return False
        cap, total, count = int(self.limits.work_mb) << 20, 0, 0
        todo = [os.path.join(self.box, "src")]
        while todo:
            try:
                with os.scandir(todo.pop()) as it:
                    for e in it:
                        count += 1
                        if e.is_dir(follow_symlinks=False):
                            todo.append(e.path)
                        else:
                            total += e.stat(follow_symlinks=False).st_blocks * 512
                        if count > 4096 or total > cap:
                            return True
            except OSError:
                continue
        return False

    def tree_memory_mb(self) -> int:
        """The control group's memory bound: each process's own address-space limit (memory_mb, so
        one process meets a clean MemoryError first), its /work tmpfs and 32 MB of interpreter."""
        return int(self.limits.memory_mb) + int(self.limits.work_mb) + 32

    def budget_words(self, mode: str = "") -> str:
        """The grader's words for the budgets bounding the worker's whole process tree."""
        L = self.limits
        disk = (f"{L.work_mb} MB of disk (/work)" if mode in ("root", "userns", "") else
                f"{L.work_mb} MB of disk in its own directory, measured after each call" if mode == "landlock" else
                f"files of at most {L.file_size_mb:g} MB in its own directory")
        if self.group is not None:
            return (f"memory {self.tree_memory_mb()} MB, {L.processes} processes/threads and {L.cpu_seconds:g} CPU-seconds for "
                    f"all its processes together (a control group of its own), {disk}")
        return (f"one process only (fork refused: no control group could be created here), so its limits bound "
                f"everything: memory {L.memory_mb:g} MB, {L.cpu_seconds:g} CPU-seconds, {disk}")

    def describe(self) -> str:
        return describe(self.isolation)

    def kill(self) -> None:
        if self._pidfd is not None:
            try:
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)   # PID 1 of the namespace: all of it
            except OSError:
                pass
            try:
                os.close(self._pidfd)
            except OSError:
                pass
            self._pidfd = None
            if self.proc is not None:
                try:            # the outer process reaps the worker and exits: no zombie is left over
                    self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
        if self.proc is not None:
            pid = self.proc.pid
            if self._uid is not None and os.geteuid() == 0 and self._uid != 0 and \
                    "pid" not in (self.isolation.get("namespaces") or []) and \
                    (self.proc.poll() is None or self.isolation.get("mode") in ("landlock", "none")):
                self._kill_uid(self._uid)      # no PID namespace: every process of the worker's own uid
            try:        # a forked worker's pid is the template's to reap: signalled only while it lives
                if not isinstance(self.proc, _template.Forked) or self.proc.poll() is None:
                    os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # pragma: no cover
                pass
            self.proc = None
        if getattr(self, "group", None) is not None:
            self._cpu_at_end = self.group.cpu_seconds()
            self.group.remove()
            self.group = None
        self._drain_output()
        for fd in ("req_w", "resp_r", "out_r"):
            f = getattr(self, fd, None)
            if f is not None:
                try:
                    os.close(f)
                except OSError:
                    pass
                setattr(self, fd, None)

    @staticmethod
    def _kill_uid(uid: int) -> None:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            try:
                os.setgid(uid)
                os.setuid(uid)
                for _ in range(3):
                    os.kill(-1, signal.SIGKILL)
            except Exception:  # noqa: BLE001
                pass
            os._exit(0)
        os.waitpid(pid, 0)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None and self.req_w is not None:
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

    _limit = START_TIMEOUT

    def call(self, request: dict, timeout: float) -> CallResult:
        """Send one request; wait at most ``timeout`` seconds for its answer."""
        by_budget = False
        if self.budget is not None:
            if self.budget.left() <= 0:
                self.kill()
                return self.budget.result()
            by_budget = self.budget.left() < timeout
            timeout = min(timeout, self.budget.left())
        if not self.alive:
            err = self.start()
            if err is not None:
                return err
        self._id += 1
        self._limit = timeout
        t0 = time.perf_counter()
        deadline = time.monotonic() + timeout
        if self._ahead():
            ans = CallResult(error="protocol", message="protocol violation: the worker sent an answer before the "
                             "grader asked (answers ahead of their requests end the worker)")
        else:
            try:
                self._write(dict(request, id=self._id), deadline)
            except TimeoutError:
                ans = self._tick(deadline) or CallResult(
                    error="timeout", message=f"time limit exceeded ({timeout:.3g} s wall clock; the worker did not "
                    "read its request)")
            except OSError:
                ans = CallResult(error="crash", message=self._exit_words(self.proc.poll()))
            else:
                ans = self._read(deadline)
        dt = time.perf_counter() - t0
        if not isinstance(ans, CallResult):
            try:
                parsed = wire.parse_answer(ans, self._id)
            except wire.WireError as e:
                ans = CallResult(error="bad-return", message=str(e))
            else:
                if self._ahead():     # one answer per request: more bytes already sent answer requests not yet made
                    ans = CallResult(error="protocol", message="protocol violation: the worker sent an answer before "
                                     "the grader asked (answers ahead of their requests end the worker)")
                elif self._over_disk():
                    ans = CallResult(error="output", message=f"disk limit exceeded: more than {self.limits.work_mb} MB "
                                     "or 4096 files in its own directory")
                elif parsed[0] == "ok":
                    return CallResult(ok=parsed[1], modified=_modified(request, parsed[2]), seconds=dt)
                else:
                    return CallResult(error=parsed[1], message=error_message(parsed[1], parsed[2]), seconds=dt)
        if ans.error == "timeout" and by_budget:
            ans.message = self.budget.result().message
        ans.seconds = dt
        self.kill()          # timeouts, crashes, floods, bad messages: the next call gets a fresh worker
        return ans
