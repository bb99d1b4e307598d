"""Many solver requests queued at once never deadlock: each engine child takes one request at a
time, so however many jobs are queued and however large the answers (long models), every job is
answered.  The larger catalogue of the online-learning unit made a full ``verify`` hang when
requests were pipelined into a child whose answers nobody read."""
from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
from proofs.engines import workers
names = [f"v{i}_" + "y" * 120 for i in range(24)]          # a model of 24 long names: ~3 KB per answer
decls = "".join(f"(declare-const {v} Int)" for v in names)
smt = "; " + "x" * 4000 + "\n(set-logic QF_LIA)" + decls + f"(assert (> {names[0]} 0))(check-sat)\n"
futures = [workers.submit({"op": "z3", "smt": smt, "timeout_ms": 20000}, 20000) for _ in range(150)]
answers = [f.result() for f in futures]
assert all(a is not None and a["answer"] == "sat" for a in answers), answers[:3]
workers.shutdown()
print("ok", len(answers))
"""


def test_many_queued_requests_do_not_deadlock():
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.startswith("ok 150"), r.stderr[-500:]


SHUTDOWN = r"""
import sys, threading, time
from proofs.engines import workers
errors = []
threading.excepthook = lambda a: errors.append(f"{a.exc_type.__name__}: {a.exc_value}")
smt = "(declare-const x Int)(assert (> x 0))(check-sat)\n"
for pause in (0.0, 0.02, 0.05, 0.1, 0.2, 0.3):
    futures = [workers.submit({"op": "z3", "smt": smt, "timeout_ms": 5000}, 5000) for _ in range(8)]
    time.sleep(pause)
    workers.shutdown()                 # while requests are in the children and in the queue
    done = [f.result(timeout=30) for f in futures]
    time.sleep(0.2)
futures = [workers.submit({"op": "z3", "smt": smt, "timeout_ms": 5000}, 5000) for _ in range(4)]
print("after", sum(f.result(timeout=60) is not None for f in futures))
print("errors", errors)
"""


def test_a_shutdown_while_requests_are_running_leaves_no_traceback():
    """The pool's shutdown (also run at exit, after the verdicts are printed) kills the children
    under the worker threads: each thread reads that as "no answer", every waiting job is answered,
    nothing is printed (was: AttributeError tracebacks from the threads, at random)."""
    r = subprocess.run([sys.executable, "-c", SHUTDOWN], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-800:]
    assert "errors []" in r.stdout and "Traceback" not in r.stderr and "Exception in thread" not in r.stderr, \
        r.stdout + r.stderr[-800:]
    assert "after 4" in r.stdout          # a pool shut down starts again on the next request
