"""What a worker runs under and what a call returns: the limits (``[limits]`` of a spec), one
submission's wall-clock budget, a call's result, and the grader's words for how a worker ended."""
from __future__ import annotations

import signal
import time
from dataclasses import dataclass, field

from sandbox import wire

__all__ = ["Limits", "Budget", "CallResult", "describe_exit", "error_message"]


@dataclass
class Limits:
    cpu_seconds: int = 30          # RLIMIT_CPU for the whole worker
    memory_mb: int = 1024          # RLIMIT_AS
    processes: int = 32            # RLIMIT_NPROC (counts threads; per uid / per user namespace)
    file_size_mb: float = 2        # RLIMIT_FSIZE: output file and files it writes
    open_files: int = 64           # RLIMIT_NOFILE
    network: bool = False          # False: new network namespace and no AF_INET sockets
    separate_user: bool = True     # root: run each worker as its own unprivileged uid
    namespaces: bool = True        # False leaves out every namespace (needs insecure)
    extra_hide: list = field(default_factory=list)   # paths the grader checks the worker cannot see
    packages: list = field(default_factory=lambda: ["numpy"])   # importable from site-packages
    harmless_imports: list = field(default_factory=list)   # answered by inert stand-ins (sandbox/_inert.py)
    submission_seconds: float = 600.0   # wall-clock budget of one submission, all its tests
    work_mb: int = 32              # size of the worker's writable /work (a tmpfs)
    insecure: bool = False         # go on when a layer cannot be set up (reports say so)

    def rlimits(self) -> dict:
        return {"cpu": self.cpu_seconds, "as": int(self.memory_mb) << 20, "nproc": self.processes,
                "fsize": int(self.file_size_mb * (1 << 20)), "nofile": self.open_files, "core": 0}


@dataclass
class CallResult:
    ok: dict | None = None          # the answer (plain numbers) when the call succeeded
    error: str | None = None        # "timeout", "crash", "exception", "bad-return", "memory", ...
    message: str = ""               # the grader's words; student text inside is quoted (« »)
    modified: bool = False
    seconds: float = 0.0


class Budget:
    """The wall-clock budget of one submission, shared by its workers."""

    def __init__(self, seconds: float):
        self.seconds = float(seconds)
        self.deadline = time.monotonic() + self.seconds

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def result(self) -> CallResult:
        return CallResult(error="timeout", message=f"time limit exceeded: the submission used its total budget "
                          f"of {self.seconds:g} s wall clock")


_SIGNALS = {getattr(signal, n): n for n in dir(signal) if n.startswith("SIG") and not n.startswith("SIG_")}


def describe_exit(rc: int | None, limits: Limits) -> str:
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
    if sig == signal.SIGSYS:
        return "the process made a forbidden system call"
    return f"the process was killed by {name}"


_FIXED = {"memory": "MemoryError: the memory limit was reached",
          "output": "output limit exceeded (too much printing or file writing)",
          "protocol": "the worker did not understand the request"}


def error_message(kind: str, text: str) -> str:
    """The grader's message for an error the worker reported; its text is quoted, never trusted."""
    if kind in _FIXED:
        return _FIXED[kind]
    return wire.student_text(text)
