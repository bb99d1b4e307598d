"""The start-up check of the trusted base runs beside a ``verify`` of the catalogue: when it is
not cached, an engine worker process evaluates the schemas while this process builds the proofs,
and nothing is reported before its answer -- an answer on the same fingerprint (the same code)
only.  A worker that died, failed or checked other code leaves the check to this process; a
false rule still stops the command (exit 1, one line), as ``test_trusted_base`` checks.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path

import pytest

from proofs.kernel import trusted_base as tb

ROOT = Path(__file__).resolve().parents[2]


def _answer(value):
    f = Future()
    f.set_result(value)
    return f


@pytest.fixture
def uncached(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    sent = []
    here = []
    monkeypatch.setattr(tb, "check_rules", lambda seed=0: here.append(seed) or [])
    return sent, here


def _submitting(monkeypatch, sent, value):
    from proofs.engines import workers

    def submit(payload, timeout_ms):
        sent.append(payload["op"])
        return _answer(value(payload) if callable(value) else value)
    monkeypatch.setattr(workers, "submit", submit)


def test_a_pass_from_the_worker_on_the_same_code_is_taken(uncached, monkeypatch):
    sent, here = uncached
    _submitting(monkeypatch, sent, lambda p: {"fingerprint": tb.rules_fingerprint(), "failures": []})
    tb.start()()
    assert sent == ["trusted"] and here == []


def test_a_failure_from_the_worker_stops(uncached, monkeypatch):
    sent, here = uncached
    _submitting(monkeypatch, sent, lambda p: {"fingerprint": tb.rules_fingerprint(),
                                              "failures": ["trusted rule r.s is false at x = 1"]})
    wait = tb.start()
    with pytest.raises(tb.TrustedBaseError, match="r.s is false"):
        wait()


@pytest.mark.parametrize("answer", [None, {"error": "killed"}, {"fingerprint": "other code", "failures": []},
                                    {"fingerprint": "x", "failures": "not a list"}])
def test_no_usable_answer_leaves_the_check_to_this_process(uncached, monkeypatch, answer):
    sent, here = uncached
    if isinstance(answer, dict) and answer.get("fingerprint") == "x":
        answer = {**answer, "fingerprint": tb.rules_fingerprint()}
    _submitting(monkeypatch, sent, answer)
    tb.start()()
    assert sent == ["trusted"] and len(here) == 1          # checked here, and recorded
    sent.clear()
    tb.start()()
    assert sent == [] and len(here) == 1                   # cached: neither here nor in a worker


def test_a_cached_pass_asks_no_worker(uncached, monkeypatch):
    sent, here = uncached
    tb.check()
    _submitting(monkeypatch, sent, None)
    tb.start()()
    assert sent == [] and len(here) == 1


PROBE = """
import json, sys
from proofs.kernel import trusted_base as tb
here = []
real = tb.check_rules
tb.check_rules = lambda seed=0: here.append(seed) or real(seed=seed)
from proofs.engines import workers
ops = []
submit = workers._Pool.submit
workers._Pool.submit = lambda self, payload, ms: ops.append(payload["op"]) or submit(self, payload, ms)
from mistakebound.cli import main
try:
    main(["verify", "-q", "--theorem", "cauchy_schwarz"])
except SystemExit as e:
    code = e.code
print(json.dumps({"code": code, "here": len(here), "trusted": ops.count("trusted")}))
"""


def test_a_cold_verify_checks_the_trusted_base_in_a_worker_and_records_the_pass(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out == {"code": 0, "here": 0, "trusted": 1}, p.stdout + p.stderr
    # the worker's pass is this process's: the next run finds it under its own fingerprint
    p = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out == {"code": 0, "here": 0, "trusted": 0}, p.stdout + p.stderr
