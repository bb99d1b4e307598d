"""The linear-time test's cost of a pass is the worker's whole process tree's CPU time, read once
the tree is at rest: work a call leaves running after its answer (a thread still computing, one
that starts late) is counted, and work still going at the time limit makes the pass exceed it."""
import os

import pytest

from grading_redteam_kit import GOOD, isolation_or_skip

SPEC = """
[assignment]
algorithm = "perceptron"
[limits]
time_floor = 3.0
cpu_seconds = 20
memory_mb = 400
processes = 16
[tests.linear_time]
points = 1
"""
# answers at once (a correct linear pass), and leaves a thread that starts working 0.2 s later
LATE = GOOD + '''
import threading, time
_linear = train
def _late():
    time.sleep(0.2)
    t0 = time.thread_time()
    while time.thread_time() - t0 < BURN:
        pass
def train(X, y, epochs=1):
    threading.Thread(target=_late).start()
    return _linear(X, y, epochs)
'''


# a thread that stays, idle, after every call (a pool of its own): not work, never waited for past a grace
IDLE = GOOD + '''
import threading
_linear = train
STOP = threading.Event()
def train(X, y, epochs=1):
    threading.Thread(target=STOP.wait, daemon=True).start()
    return _linear(X, y, epochs)
'''


def _grader(tmp_path, burn, src=LATE):
    from grading.checks.checks import Grader
    from grading.spec.spec import load_spec
    from sandbox.worker import Worker
    spec_path = os.path.join(tmp_path, "spec.toml")
    open(spec_path, "w").write(SPEC)
    isolation_or_skip(spec_path)
    spec = load_spec(spec_path)
    files = {"perceptron.py": (src.replace("BURN", repr(burn))).encode()}
    return Grader(spec, lambda: Worker(files, spec.module, spec.limits))


def test_work_left_running_after_the_answer_is_counted(tmp_path):
    g = _grader(tmp_path, 0.6)
    try:
        assert g.worker.start() is None
        X, y = g.properties._scaling_data(64)
        secs, _, got = g.properties._timed(X, y, 5.0)
        assert g.problem.compare(g.problem.expected(X, y, 1), got)[0]
        assert g.clock == "CPU"
        assert secs >= 0.5, secs           # the late thread's 0.6 s of CPU is part of the pass
        secs2, _, _ = g.properties._timed(X, y, 5.0)  # and none of it leaks into the next pass's figure
        assert secs2 >= 0.5 and abs(secs2 - secs) < 0.3, (secs, secs2)
    finally:
        g.close()


def test_work_still_going_at_the_time_limit_exceeds_it(tmp_path):
    from grading.checks.checks_common import Failure
    g = _grader(tmp_path, 1e9)
    try:
        X, y = g.properties._scaling_data(64)
        with pytest.raises(Failure, match="time limit exceeded"):
            g.properties._timed(X, y, 1.0)
        assert not g.worker.alive          # killed, its CPU read first
    finally:
        g.close()


def test_an_idle_thread_left_behind_is_not_work(tmp_path):
    g = _grader(tmp_path, 0, IDLE)
    try:
        assert g.worker.start() is None
        for n in (64, 128):
            X, y = g.properties._scaling_data(n)
            secs, _, got = g.properties._timed(X, y, 5.0)
            assert g.problem.compare(g.problem.expected(X, y, 1), got)[0]
            assert g.clock == "CPU" and secs < 0.5 and g.worker.alive, secs
    finally:
        g.close()
