"""``mistakebound check`` on a vacuous certificate: contradictory hypotheses prove anything.

A certificate whose stated hypotheses cannot hold together is a valid proof of a useless
implication.  ``check`` asks z3 whether the hypotheses (alone, printed by the checker) are
satisfiable: unsat is "vacuous: no assignment satisfies the hypotheses", exit code 1; a model
counts as "sat" only when its values make every hypothesis true in exact arithmetic; a model of
the SMT-LIB reading that cannot be evaluated so is "sat-smt", and a timeout "unknown" -- both
reported, neither changing the verdict.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import checker
from proofs.catalogue import registry
from proofs.verify.certificate import make
from proofs.verify.runner import build

ROOT = Path(__file__).resolve().parents[2]
TID = "claim2_unit_examples"          # no lemma: its certificate is checked alone


@pytest.fixture(scope="module")
def cert():
    th = registry.get(TID)
    b = build(th)
    assert not b.error
    return make(th, b.fact)


def _contradicted(cert: dict) -> dict:
    """The certificate by hand, with one more hypothesis: the negation of its first one (unused by the proof)."""
    c = json.loads(json.dumps(cert))
    c["hypotheses"].append(["contradiction", ["not", c["hypotheses"][0][1]]])
    return c


def _fake(sat_answer: dict):
    """An oracle proving every step, answering ``sat_answer`` on the hypotheses."""
    def ask(obligations):
        return [dict(sat_answer) if o.kind == "sat" else
                {"z3": "proved", "cvc5": "proved"} if o.kind == "smt" else {"sympy": "proved", "instances": "proved"}
                for o in obligations]
    return ask


def test_unsat_hypotheses_are_vacuous(cert):
    ch = checker.read(_contradicted(cert))
    assert not ch.errors                                  # the proof itself is still valid
    v = checker.decide([ch], _fake({"z3": "unsat"}), vacuity=True)[TID]
    assert v.status == checker.VACUOUS and v.reasons[0] == checker.VACUOUS_WHY and v.satisfiable == "unsat"
    # without the question (verify's own run: it shows its theorems' hypotheses satisfiable itself)
    assert checker.decide([checker.read(cert)], _fake({"z3": "unsat"}))[TID].status == checker.PROVED


@pytest.mark.parametrize("answer,want", [({"z3": "unknown"}, "unknown"), ({"z3": "sat", "model": {}}, "sat-smt"),
                                         ({"z3": "sat", "model": {"y": "1"}}, "sat-smt")])
def test_a_timeout_or_an_unchecked_model_leaves_the_verdict(cert, answer, want):
    v = checker.decide([checker.read(cert)], _fake(answer), vacuity=True)[TID]
    assert v.status == checker.PROVED and v.satisfiable == want


def test_a_model_counts_only_when_it_evaluates_exactly():
    from checker.check import declarations, _hypotheses
    decls = declarations({"x": ["var", "Real"], "n": ["var", "Nat"], "b": ["var", "Bool"]})
    hyps = _hypotheses([["big", ["gt", "x", ["real", "1"]]], ["small", ["lt", "n", ["int", "3"]]], ["on", "b"]], decls)
    assert checker.exact_model(hyps, decls, {"x": "3/2", "n": "2", "b": "true"})
    for bad in ({"x": "1", "n": "2", "b": "true"}, {"x": "3/2", "n": "-1", "b": "true"},
                {"x": "3/2", "n": "1/2", "b": "true"}, {"x": "~1.41421356237", "n": "0", "b": "true"},
                {"x": "2", "n": "0"}, None, {"x": ["2"], "n": "0", "b": "true"}):
        assert not checker.exact_model(hyps, decls, bad), bad


@pytest.mark.slow
def test_check_reports_a_hand_edited_vacuous_certificate(cert, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "cache"))
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(cert))
    bad.write_text(json.dumps(_contradicted(cert)))
    p = subprocess.run([sys.executable, "-m", "mistakebound", "check", "--json", str(tmp_path / "r.json"), str(bad)],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 1, p.stdout + p.stderr
    assert p.stdout.startswith("vacuous") and "- vacuous: no assignment satisfies the hypotheses" in p.stdout
    (v,) = json.loads((tmp_path / "r.json").read_text())["certificates"]
    assert v["status"] == "vacuous" and v["hypotheses_satisfiable"] == "unsat"
    p = subprocess.run([sys.executable, "-m", "mistakebound", "check", "--json", "-", str(good)], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    (v,) = json.loads(p.stdout)["certificates"]
    assert v["status"] == "proved" and v["hypotheses_satisfiable"] in ("sat", "sat-smt")
