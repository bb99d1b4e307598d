"""Many solver requests queued at once never deadlock: each engine child takes one request at a
time, so however many jobs are queued and however large the answers (long models), every job is
answered.  The larger catalogue of the online-learning unit made a full ``verify`` hang when
requests were pipelined into a child whose answers nobody read."""
from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
from proofs import workers
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
