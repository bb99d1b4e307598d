"""The worker's outer process ends like the worker it waits for (sandbox._jail._outer_wait), so the
grader names the real end: a worker killed by SIGKILL is reported killed, never as the student's
code ending the process with exit status 1; the worker is the init of a PID namespace, which the
kernel's SIGXCPU at RLIMIT_CPU does not reach -- the limit ends it with SIGKILL -- and the CPU
time limit is still named as such.  A batch graded as an ordinary user (no control group: RLIMIT_CPU
is the CPU limit) once reported a thread spinning past the limit as "exit status 1"."""
import os
import resource
import signal
import time

import pytest

from sandbox import _jail
from sandbox.limits import Limits, describe_exit
from sandbox.worker import Worker

CALL = {"op": "call", "name": "train", "args": [[[1.0, 2.0], [-1.0, 0.5]], [1, -1]], "kwargs": {"epochs": 1},
        "returns": "w_b"}


def _outer_status(inner, cpu_limit=None):
    """The exit code (negative: the signal) of a process that forks ``inner`` and waits for it
    with ``_outer_wait``, as the worker's outer process does (any exception: status 1, as the
    worker's start does)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the outer process
        try:
            kid = os.fork()
            if kid == 0:
                try:
                    inner()
                finally:
                    os._exit(0)
            _jail._outer_wait(kid, cpu_limit)
        except BaseException:  # noqa: BLE001
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _killed():
    os.kill(os.getpid(), signal.SIGKILL)


def _spin_past_rlimit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (1, 1))     # soft = hard: the kernel sends SIGKILL at 1 s
    while True:
        pass


def test_a_worker_killed_by_sigkill_is_reported_killed():
    rc = _outer_status(_killed, cpu_limit=5)
    assert rc == -signal.SIGKILL, rc
    assert "exit status" not in describe_exit(rc, Limits())


def test_rlimit_cpu_is_named_as_the_cpu_time_limit():
    rc = _outer_status(_spin_past_rlimit_cpu, cpu_limit=1)
    assert rc == -signal.SIGXCPU, rc
    assert describe_exit(rc, Limits(cpu_seconds=1)).startswith("CPU time limit exceeded")


def test_other_ends_are_passed_on_as_they_are():
    assert _outer_status(lambda: os._exit(3)) == 3
    assert _outer_status(lambda: os.kill(os.getpid(), signal.SIGTERM)) == -signal.SIGTERM
    assert _outer_status(_killed) == -signal.SIGKILL          # no CPU limit known: a kill stays a kill


THREAD_SPIN = b"""
import threading
def _spin(out):
    s = 0
    for i in range(10 ** 10):
        s += i
    out.append(s)
def train(X, y, epochs=1):
    out = []
    t = threading.Thread(target=_spin, args=(out,))      # the main thread stays idle
    t.start(); t.join()
    return [0.0, 0.0], 0.0
"""


def test_a_thread_spinning_past_the_cpu_limit_is_named_so():
    """Whatever ends it first (the control group's budget where there is one, RLIMIT_CPU
    otherwise), the worker's end is the CPU time limit, never an exit status."""
    with Worker({"perceptron.py": THREAD_SPIN}, "perceptron", Limits(cpu_seconds=1)) as w:
        t0 = time.monotonic()
        r = w.call(CALL, timeout=60)
        if r.error == "timeout" and time.monotonic() - t0 >= 59:
            pytest.skip("the machine gave the worker less than 1 s of CPU in 60 s")
        assert r.error == "crash" and r.message.startswith("CPU time limit exceeded (1"), r
