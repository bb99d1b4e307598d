"""The start-up check of the trusted base runs beside a ``verify`` of the catalogue: when it is
not cached, a child process evaluates the schemas while the command's process builds the proofs,
and nothing is reported before its answer -- an answer on the same fingerprint (the same code)
only.  A child that died, failed or checked other code leaves the check to this process; a
false rule still stops the command (exit 1, one line), as ``test_trusted_base`` checks.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from proofs.kernel import trusted_base as tb

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def uncached(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    sent = []
    here = []
    monkeypatch.setattr(tb, "check_rules", lambda seed=0: here.append(seed) or [])
    return sent, here


def _submitting(monkeypatch, sent, value):
    def spawn():                      # the child's answer, as start() reads it
        sent.append("trusted")
        return lambda: value() if callable(value) else value
    monkeypatch.setattr(tb, "_spawn", spawn)


def test_a_pass_from_the_child_on_the_same_code_is_taken(uncached, monkeypatch):
    sent, here = uncached
    _submitting(monkeypatch, sent, lambda: {"fingerprint": tb.rules_fingerprint(), "failures": []})
    tb.start()()
    assert sent == ["trusted"] and here == []


def test_a_failure_from_the_child_stops(uncached, monkeypatch):
    sent, here = uncached
    _submitting(monkeypatch, sent, lambda: {"fingerprint": tb.rules_fingerprint(),
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
    assert sent == [] and len(here) == 1                   # cached: neither here nor in a child


def test_a_cached_pass_starts_no_child(uncached, monkeypatch):
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
spawned = []
spawn = tb._spawn
tb._spawn = lambda: spawned.append(1) or spawn()
from mistakebound.cli import main
try:
    main(["verify", "-q", "--theorem", "cauchy_schwarz"])
except SystemExit as e:
    code = e.code
print(json.dumps({"code": code, "here": len(here), "trusted": len(spawned)}))
"""


def test_a_cold_verify_checks_the_trusted_base_in_a_child_and_records_the_pass(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out == {"code": 0, "here": 0, "trusted": 1}, p.stdout + p.stderr
    # the child's pass is this process's: the next run finds it under its own fingerprint
    p = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out == {"code": 0, "here": 0, "trusted": 0}, p.stdout + p.stderr
