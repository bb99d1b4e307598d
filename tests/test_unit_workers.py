"""Pipelined requests to a solver child never deadlock: with many requests written before any
answer is read, both pipes fill (the child blocks writing answers, we block writing requests)
unless the writer reads answers while the child's input is full.  The larger catalogue of the
online-learning unit made a full ``verify`` hang this way."""
from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
from proofs.workers import Worker
w = Worker("proofs.cvc5_worker")
names = [f"v{i}_" + "y" * 120 for i in range(24)]          # a model of 24 long names: ~3 KB per answer
decls = "".join(f"(declare-const {v} Int)" for v in names)
smt = "; " + "x" * 4000 + "\n(set-logic QF_LIA)" + decls + f"(assert (> {names[0]} 0))(check-sat)\n"
tickets = [w.submit({"smt": smt, "timeout_ms": 2000}, 2000) for _ in range(150)]
answers = [w.result(t) for t in tickets]
assert all(a is not None and a["answer"] == "sat" for a in answers), answers[:3]
w.kill()
print("ok", len(answers))
"""


def test_many_pipelined_requests_do_not_deadlock():
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("ok 150"), r.stderr[-500:]
