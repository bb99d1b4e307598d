"""Do two workers running at the same time share one budget of processes and threads?

RLIMIT_NPROC (``[limits] processes``) counts every process and thread of a user.  Workers with
uids of their own on the host (the grader runs as root: ``UID_BASE + pid``) each have their own
count.  An ordinary user's workers all run as that one user, each in a user namespace of its own:
Linux 5.14 and later count RLIMIT_NPROC per user namespace ("ucounts"), so each worker still has
its own budget; older kernels count every process of the host user, so a submission that starts
threads up to its limit would leave the worker beside it unable to start one -- and that innocent
submission would lose points.

:func:`shared_budget` tells which, by trying it (not by reading a version number): a child in a
new user namespace lowers its own RLIMIT_NPROC to 2 and forks once.  Counted per user namespace
it holds one process there and the fork succeeds; counted per host user, the grader and the child
are already 2 and the fork fails.  Counted per namespace, every worker's count is also counted
against the grader's own limit (``ulimit -u``): it must hold all the workers at once beside what
the user already runs.  Otherwise the grader grades one submission at a time and says so.
"""
from __future__ import annotations

import ctypes
import os
import resource

__all__ = ["shared_budget"]

CLONE_NEWUSER = 0x10000000
_CACHE: dict = {}


def _probe() -> bool:
    """True when a fork in a fresh user namespace under RLIMIT_NPROC = 2 succeeds."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the probe child
        ok = b"0"
        try:
            os.close(r)
            libc = ctypes.CDLL(None, use_errno=True)
            euid, egid = os.geteuid(), os.getegid()
            if libc.unshare(CLONE_NEWUSER) == 0:
                for path, text in (("setgroups", "deny"), ("uid_map", f"1000 {euid} 1"), ("gid_map", f"1000 {egid} 1")):
                    with open(f"/proc/self/{path}", "w") as fh:
                        fh.write(text)
                resource.setrlimit(resource.RLIMIT_NPROC, (2, 2))
                try:
                    kid = os.fork()
                except OSError:
                    kid = -1
                if kid == 0:
                    os._exit(0)
                if kid > 0:
                    os.waitpid(kid, 0)
                    ok = b"1"
        except BaseException:  # noqa: BLE001 - any failure: the budget is taken as shared
            ok = b"0"
        try:
            os.write(w, ok)
        finally:
            os._exit(0)
    os.close(w)
    try:
        got = os.read(r, 1)
    finally:
        os.close(r)
        os.waitpid(pid, 0)
    return got == b"1"


def _tasks_of_uid(uid: int) -> int:
    """Processes and threads the user runs now (what its RLIMIT_NPROC counts on the host)."""
    n = 0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/status") as fh:
                st = dict(line.split(":", 1) for line in fh if ":" in line)
        except OSError:
            continue
        if int(st.get("Uid", "-1 ").split()[0]) == uid:
            n += int(st.get("Threads", "1").strip() or 1)
    return n


def shared_budget(separate_user: bool = True, jobs: int = 2, processes: int = 32) -> str | None:
    """None when ``jobs`` simultaneous workers each have their own RLIMIT_NPROC budget of
    ``processes``; else the reason, in the grader's words."""
    if os.geteuid() == 0 and separate_user:
        return None          # each worker runs as a uid of its own
    key = (os.geteuid(), separate_user)
    if key not in _CACHE:
        _CACHE[key] = _probe()
    if not _CACHE[key]:
        return ("every worker runs as the grader's own user and this kernel counts the processes and "
                "threads limit ([limits] processes) per user, not per worker (Linux before 5.14, or no "
                "user namespaces): one submission's threads could starve another's, so submissions are "
                "graded one at a time")
    own = resource.getrlimit(resource.RLIMIT_NPROC)[0]    # every worker's budget is also within the grader's
    if own != resource.RLIM_INFINITY and own < _tasks_of_uid(os.geteuid()) + jobs * processes + 16:
        return (f"the grader's own limit of processes and threads ({own}, ulimit -u) cannot hold {jobs} workers "
                f"of {processes} beside what its user already runs: one submission's threads could starve "
                "another's, so submissions are graded one at a time")
    return None
