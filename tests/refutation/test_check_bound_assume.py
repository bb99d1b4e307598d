"""``check-bound --assume``: assumptions are hypotheses of the z3 proof attempt and constraints on
the counterexample search; the catalogue's d = 2 and n = 2^l theorems come out HOLDS under them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from refutation.bound_check import check_bound

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "mistakebound", "check-bound", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_winnow_tight_bound_holds_for_powers_of_two():
    p = _cli("winnow", "r*(3*log(n, 2) - 2)", "--assume", "n == 2**l", "--assume", "n >= 2", "--assume", "r >= 1",
             "--json")
    assert p.returncode == 0, p.stdout + p.stderr
    v = json.loads(p.stdout)
    assert v["status"] == "holds" and v["assumptions"] == ["n == 2**l", "n >= 2", "r >= 1"]
    assert v["catalogue_status"] == {"winnow_halving_pow2_tight": "proved"}
    assert any("winnow_halving_pow2_tight" in t for t in v["theorems"])


def test_perceptron_plane_bound_holds_in_the_plane():
    p = _cli("perceptron", "1 + 1/(2*gamma**2)", "--assume", "d == 2")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "assuming: d == 2" in p.stdout and "verdict: HOLDS" in p.stdout
    assert "catalogue perceptron_2d_half_bound" in p.stdout and "perceptron_2d_half_bound: proved" in p.stdout


def test_without_assumptions_the_answers_are_unchanged():
    v = check_bound("perceptron", "1 + 1/(2*gamma**2)", budget=10)
    assert v.status == "refuted" and int(v.quantities["d"]) >= 3 and not v.assumptions
    w = check_bound("winnow", "r*(3*log(n, 2) - 2)", budget=10)
    assert w.status == "refuted"
    assert check_bound("winnow", "2 + 3*r*(1 + log(n, 2))", budget=10).status == "holds"


@pytest.mark.slow
def test_a_refutation_satisfies_the_assumptions():
    # n = 2^0 = 1 is a power of 2: without n >= 2 the tight bound is false (-2r there), so it cannot
    # come out HOLDS (the search cannot show it: the adversary's run at n = 1 has no mistake to replay)
    v = check_bound("winnow", "r*(3*log(n, 2) - 2)", budget=6, assume=["n == 2**l", "r >= 1"])
    assert v.status != "holds" and any("n=1" in s for s in v.searched)
    # one below the tight bound: refuted on a power of 2 >= 2 by the exact adversary
    v = check_bound("winnow", "r*(3*log(n, 2) - 3)", budget=10, assume=["n == 2**l", "n >= 2", "r >= 1"])
    n = int(v.quantities["n"]) if v.status == "refuted" else 0
    assert v.status == "refuted" and n >= 2 and n & (n - 1) == 0 and v.mistakes >= 1, (v.status, v.quantities)
    # in the plane, half the bound is false: an instance with d = 2
    v = check_bound("perceptron", "1/(2*gamma**2)", budget=30, assume=["d == 2"])
    assert v.status == "refuted" and v.quantities["d"] == "2"
    # an assumption no searched instance meets: never a refutation outside it
    v = check_bound("winnow", "r", budget=4, assume=["n == 3"])
    assert v.status != "refuted" or v.quantities["n"] == "3"


@pytest.mark.parametrize("cond, words", [
    ("n = 2", "syntax error"),
    ("n == 2**", "syntax error"),
    ("n >= 1 >= 0", "one comparison"),
    ("n", "one comparison"),
    ("n == 3**l", "variable exponent"),
    ("n == 2**r", "variable exponent"),
    ("l >= 2", "mentions no quantity"),
    ("foo(n) >= 1", "unknown function"),
])
@pytest.mark.slow
def test_bad_assumptions_one_line_exit_2(cond, words):
    p = _cli("winnow", "r", "--assume", cond)
    assert p.returncode == 2, p.stdout
    assert p.stderr.count("\n") == 1 and words in p.stderr and "Traceback" not in p.stderr


# ------------------------------------------------------------------ the domain and the assumptions
def test_every_verdict_prints_its_domain():
    v = check_bound("perceptron", "1/gamma**2", budget=5, search=False)
    assert "R > 0" in v.domain and "gamma = 1/(R W)" in v.domain and any(t.startswith("d >= 1") for t in v.domain)
    assert "domain: " in v.explain() and v.to_json()["domain"] == v.domain
    w = check_bound("winnow", "2 + 3*r*(1 + log(n, 2))", budget=5, search=False)
    assert "r <= n" in w.domain and not any("R > 0" in t for t in w.domain)


@pytest.mark.parametrize("algorithm, claim, cond, words", [
    ("perceptron", "0", "R == 0", "R > 0"),                  # was: HOLDS, exit 0 (the domain says R > 0)
    ("perceptron", "0", "d == 3/2", "d is an integer"),      # was: HOLDS (z3's d is an integer)
    ("perceptron", "0", "gamma*R*W == 2", "gamma = 1/(R W)"),
    ("winnow", "0", "r == 0", "r >= 1"),
])
def test_an_assumption_outside_the_domain_is_bad_input(algorithm, claim, cond, words):
    from learners.errors import InputError
    with pytest.raises(InputError, match="leaves the domain") as e:
        check_bound(algorithm, claim, budget=5, assume=[cond])
    assert words in str(e.value)


@pytest.mark.parametrize("algorithm, conds", [
    ("perceptron", ["d == 2", "d == 3"]),                    # two that contradict each other
    ("perceptron", ["R == 1", "W == 1/2"]),                  # the separable setting needs R W >= 1
    ("winnow", ["n == 2**l", "l >= 2", "n <= 3"]),           # no power of 2 >= 4 is <= 3
])
def test_assumptions_no_run_satisfies_are_vacuous_never_holds(algorithm, conds):
    v = check_bound(algorithm, "0", budget=5, assume=conds)
    assert v.status == "vacuous" and v.exit_code == 1 and "vacuous: no run satisfies" in v.explain()
    assert not v.theorems


def test_cli_exit_codes_for_the_domain():
    p = _cli("perceptron", "0", "--assume", "R == 0")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "leaves the domain" in p.stderr
    p = _cli("perceptron", "0", "--assume", "d == 2", "--assume", "d == 3", "--json")
    assert p.returncode == 1 and json.loads(p.stdout)["status"] == "vacuous"


def test_a_variable_an_assumption_introduced_may_be_constrained():
    """l of n == 2**l is the same l in l >= 1 (was: refused, "mentions no quantity")."""
    v = check_bound("winnow", "r*(3*log(n, 2) - 2)", budget=10, search=False,
                    assume=["n == 2**l", "l >= 1", "r >= 1"])
    assert v.status == "holds" and "l = " in v.witness
    from refutation.bound_assume import parse_assumptions
    from refutation.bound_quantities import quantity_symbols
    a = parse_assumptions(["n == 2**l", "l >= 2"], quantity_symbols("winnow"))
    import sympy as sp
    assert a.satisfied({"n": sp.Integer(4), "r": sp.Integer(1)}) is True
    assert a.satisfied({"n": sp.Integer(2), "r": sp.Integer(1)}) is False       # l = 1 < 2: one l for both


def test_a_z3_model_of_the_violation_is_replayed_into_a_counterexample():
    """n = 512 is outside the searched grid; z3's model (n = 512, r = 1, M = 2) is replayed by
    the exact learner (was: UNKNOWN)."""
    v = check_bound("winnow", "r", budget=8, assume=["n == 512"])
    assert v.status == "refuted" and v.quantities["n"] == "512" and v.mistakes > int(v.quantities["r"])
    from adversary.certify import certify
    assert certify(v.sequence).mistakes == v.mistakes
