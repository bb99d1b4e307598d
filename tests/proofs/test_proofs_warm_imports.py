"""A warm ``mistakebound verify`` (every verdict from the proof cache) starts no engine worker and
imports no engine (z3, cvc5, sympy), not mpmath (the 60-digit evaluator of the trusted base's check,
which a cached check does not run), none of the learners, and (``-q`` into a pipe) not rich: it prints the texts, builds the
proofs in the kernel and reads the cache.  A cold run in the same setting does import them (so the
check can fail).  Checked by the modules a fresh process has loaded, never by a clock."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# cauchy_schwarz has identities over a symbolic dimension (sympy on a miss); the erratum has a
# learner's replay (the learners on a miss)
IDS = ("cauchy_schwarz", "erratum_halving_strict")
HEAVY = ("z3", "cvc5", "sympy", "mpmath", "learners", "numpy", "numba", "rich")
PROBE = """
import json, sys
from mistakebound.cli import main
try:
    main()
except SystemExit as e:
    code = e.code
from proofs.engines import workers
print(json.dumps({"code": code, "modules": sorted({m.split('.')[0] for m in sys.modules} & set(%r)),
                  "workers": len(workers._POOL.threads)}))
""" % (HEAVY,)


def _verify(cache_home, *extra):
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home), PYTHONPATH=ROOT)
    args = ["verify", "-q", *extra] + [a for i in IDS for a in ("--theorem", i)]
    p = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env,
                       timeout=600, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stdout


def test_warm_verify_imports_no_engine_and_starts_no_worker(tmp_path):
    cold, out = _verify(tmp_path)
    assert cold["code"] == 0, out
    assert "sympy" in cold["modules"] and cold["workers"] > 0, cold      # a miss does the work
    warm, out = _verify(tmp_path)
    assert warm["code"] == 0, out
    hits, n = map(int, re.search(r"(\d+)/(\d+) verdicts from the proof cache", " ".join(out.split())).groups())
    assert hits == n > 0, out
    assert warm["modules"] == [], warm
    assert warm["workers"] == 0, warm


def test_no_cache_run_is_cold_again(tmp_path):
    _verify(tmp_path)
    again, _ = _verify(tmp_path, "--no-cache")
    assert "sympy" in again["modules"] and again["workers"] > 0
