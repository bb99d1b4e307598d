"""The Coq learners are the suite's learners: on generated sequences the Coq runs (vm_compute over
the rationals) and the exact Python runs give identical traces, step by step."""
from __future__ import annotations

import pytest

from coq import build, differential

# minutes of work: not in the quick check (-m "not slow"); one Coq build, shared by the "coq" group
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("coq")]


@pytest.fixture
def built(coq_report):
    assert coq_report.ok, coq_report.file_errors        # the session's one build (tests/conftest.py)
    return build.default_build_dir()


def test_coq_and_python_learners_agree_on_1200_sequences(built, capsys):
    from fractions import Fraction
    cases = differential.generate(1200, seed=2026)
    assert {c.kind for c in cases} == set(differential.KINDS)
    assert {c.opts.get("variant") for c in cases if c.kind == "winnow"} == {"halve", "eliminate", "winnow2"}
    assert {c.opts.get("kernel") for c in cases if c.kind == "kernel"} == {"linear", "poly"}
    # the float paths a user runs by default (compiled float64 loops; any summation order) as well
    assert {(c.kind, c.opts["path"]) for c in cases} >= {(k, p) for k in differential.KINDS for p in ("exact", "float")
                                                         if k not in ("passive_aggressive", "hedge")}
    # Hedge on the exact path (its step's loss divides by the total weight): losses k/m, beta = b^m,
    # every denominator m and every b
    hedge = [c for c in cases if c.kind == "hedge"]
    assert {c.opts["path"] for c in hedge} == {"exact"}
    assert {(c.opts["m"], c.opts["b"]) for c in hedge} == {(m, b) for m in (1, 2, 3) for b in (
        Fraction(1, 2), Fraction(2, 3), Fraction(3, 4), Fraction(1, 3))}
    # Passive-Aggressive: every variant on the exact path (any rationals) and on the float path (rows
    # and C on which every step l / |x|^2 is dyadic)
    pa = [c for c in cases if c.kind == "passive_aggressive"]
    assert {(c.opts["variant"], c.opts["path"]) for c in pa} == {(v, p) for v in ("pa", "pa1", "pa2")
                                                                 for p in ("exact", "float")}
    assert {c.kind for c in cases if c.opts["path"] == "fast"} == {"perceptron", "averaged", "voted"}
    # Halving (learners.run_halving), its class as label lists and as functions of the examples
    assert {(c.opts["functions"], c.opts["path"]) for c in cases if c.kind == "halving"} == {
        (f, p) for f in (False, True) for p in ("exact", "float")}
    # every option a user can set, on every path
    for kind in ("perceptron", "averaged", "voted", "kernel"):
        assert {(c.opts["bias"], c.opts["path"]) for c in cases if c.kind == kind} >= {
            (b, p) for b in (False, True) for p in ("exact", "float")}
    assert {c.opts["path"] for c in cases if c.kind == "kernel" and c.opts["blum_start"]} == {"exact", "float"}
    assert {(c.opts["include_initial"], c.opts["path"]) for c in cases if c.kind == "averaged"} >= {
        (i, p) for i in (False, True) for p in ("exact", "float")}
    assert {c.opts["beta"] for c in cases if c.kind == "weighted_majority"} >= {0, Fraction(1, 2)}
    assert any(c.opts["shuffle"] for c in cases if c.kind in ("perceptron", "kernel", "winnow"))
    # the estimators' fit (learners.Perceptron, KernelPerceptron, Winnow, PassiveAggressive): coef_,
    # intercept_ and mistakes_ against the Coq run's last state
    est = [c for c in cases if c.opts.get("estimator")]
    assert {(c.kind, c.opts["path"] == "exact") for c in est} == {(k, e) for k in differential.ESTIMATED
                                                                  for e in (False, True)}
    # the float64 path on inputs that round, against the Coq learner run in binary64 (LearnersFloat.v)
    rounding = [c for c in cases if c.opts["path"] == "rounding"]
    assert {(c.kind, c.opts["bias"]) for c in rounding} == {(k, b) for k in differential.ROUNDING for b in (False, True)}
    assert any(Fraction(float(v)).denominator % 2 == 0 and Fraction(float(v)).denominator > 2 ** 40
               for c in rounding for r in c.X for v in r)
    # the README's command itself (`python -m coq differential`: these 1200 sequences, seed 2026)
    from coq.__main__ import main
    code = main(["differential"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("1200/1200 sequences with identical traces"), out


def test_the_comparison_sees_a_different_learner(built):
    """Python's perceptron with a bias against Coq's without: the traces must differ somewhere."""
    cases = [c for c in differential.generate(60, seed=5) if c.kind == "perceptron"]
    for c in cases:
        c.opts["bias"] = True
    expected = [differential.python_trace(c) for c in cases]
    for c in cases:
        c.opts["bias"] = False
    coq = differential.run_coq(cases, built)
    assert any(e != t for e, t in zip(expected, coq))


def test_the_comparison_sees_a_float_path_that_rounds_differently(built):
    """A float case whose inputs are not dyadic (1/3) rounds: its trace, read back as rationals, is not
    Coq's exact one."""
    from fractions import Fraction
    c = differential.Case("perceptron", [[Fraction(1, 3), Fraction(1, 5)], [Fraction(-2, 3), Fraction(1, 7)]],
                          [1, -1], {"epochs": 2, "shuffle": False, "seed": None, "path": "float", "bias": False})
    assert differential.differential([c], built) != []


def test_the_comparison_sees_an_estimator_fitted_otherwise(built):
    """learners.Perceptron fitted with the other bias setting than Coq's run: some kept state differs."""
    cases = [c for c in differential.generate(400, seed=13) if c.opts.get("estimator") and c.kind == "perceptron"]
    assert len(cases) >= 5 and differential.differential(cases, built) == []
    expected = []
    for c in cases:
        c.opts["bias"] = not c.opts["bias"]
        expected.append(differential.python_trace(c))
        c.opts["bias"] = not c.opts["bias"]
    coq = differential.run_coq(cases, built)
    assert any(e != t for e, t in zip(expected, coq))


def test_the_rounding_comparison_sees_one_ulp(built):
    """The float64 path on inputs that round against Coq's binary64 run: one input moved by one unit
    in the last place on the Python side only changes some trace."""
    import math
    from fractions import Fraction
    cases = [c for c in differential.generate(240, seed=11) if c.opts["path"] == "rounding"]
    assert len(cases) >= 10 and differential.differential(cases, built) == []
    expected = []
    for c in cases:
        saved = c.X
        c.X = [[Fraction(math.nextafter(float(v), math.inf)) if (i, j) == (0, 0) else v for j, v in enumerate(r)]
               for i, r in enumerate(saved)]
        expected.append(differential.python_trace(c))
        c.X = saved
    coq = differential.run_coq(cases, built)
    assert any(e != t for e, t in zip(expected, coq))


def test_the_comparison_sees_a_different_passive_aggressive_variant(built):
    """Python's PA-I against Coq's PA-II on the same sequences: some step size differs."""
    cases = [c for c in differential.generate(160, seed=7) if c.kind == "passive_aggressive"
             and c.opts["path"] == "exact"]
    for c in cases:
        c.opts["variant"] = "pa1"
    expected = [differential.python_trace(c) for c in cases]
    for c in cases:
        c.opts["variant"] = "pa2"
    coq = differential.run_coq(cases, built)
    assert len(cases) >= 5 and any(e != t for e, t in zip(expected, coq))


def test_the_comparison_sees_hedge_with_another_beta(built):
    """Python's Hedge at b = 1/2 against Coq's at b = 1/5 (beta = b^m): some step's loss or weight
    differs; and the Coq trace read back is the Python one when nothing is changed."""
    from fractions import Fraction
    cases = [c for c in differential.generate(270, seed=11) if c.kind == "hedge"]
    assert differential.differential(cases, built) == []
    for c in cases:
        c.opts["b"] = Fraction(1, 2)
    expected = [differential.python_trace(c) for c in cases]
    for c in cases:
        c.opts["b"] = Fraction(1, 5)
    coq = differential.run_coq(cases, built)
    assert len(cases) >= 20 and any(e != t for e, t in zip(expected, coq))
