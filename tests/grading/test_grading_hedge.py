"""The Hedge assignment shape (Freund & Schapire 1997): the course's ``hedge(L, beta)`` on a loss
table.  The reference is exact where every beta^loss is rational (losses k/4, beta a 4th power)
and replays float64 in the course's order otherwise; on its runs the weights stay positive, the
total weight never grows and the loss bound (ln(1/beta) L* + ln N) / (1 - beta) holds; a correct
submission scores full marks and each common mistake loses points with its cause named, confirmed
by a one-change re-run."""
from __future__ import annotations

import math
import os
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.spec.contract_parse import parse_contract
from grading.running.grader import grade_batch
from grading.references.problems_unit import HedgeProblem, make_any_problem
from grading.references.reference import reference_run
from grading.references.reference_unit import HEDGE_BUGS, hedge_exact
from grading.spec.spec import load_spec
from learners import run_hedge

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading", "examples")
L1 = [[0.25, 1.0, 0.0], [0.5, 0.0, 0.75], [1.0, 0.25, 0.5]]


def _contract(**kw):
    return parse_contract(kw, algorithm="hedge", style="function", entry="hedge", bias=False, normalize=False,
                          labels="pm1", kernel=None, src="h.toml", epochs=1)


def test_exact_reference_where_beta_to_the_loss_is_rational():
    c = load_spec("hedge").contract
    assert c.penalty == Fraction(1, 16) and c.arithmetic == "exact" and hedge_exact(c, L1)
    run = reference_run(c, L1, [1] * 3, 1)
    # w_i = beta^(L_i) = (1/2)^(4 L_i), L_i the expert's total loss, as Fractions
    totals = [sum(Fraction(r[i]) for r in L1) for i in range(3)]
    assert run.weights == tuple(Fraction(1, 2) ** int(4 * t) for t in totals)
    assert all(isinstance(v, Fraction) for v in run.weights)
    # the learner's loss: sum_t (sum_i w_i l_i / sum_i w_i), with the weights before step t
    w, want = [Fraction(1)] * 3, Fraction(0)
    for r in L1:
        want += sum(wi * Fraction(li) for wi, li in zip(w, r)) / sum(w)
        w = [wi * Fraction(1, 2) ** int(4 * li) for wi, li in zip(w, r)]
    assert run.extras["hedge_loss"] == want == run_hedge(L1, beta=Fraction(1, 16)).extras["hedge_loss"]
    assert [s.activation for s in run.steps][0] == Fraction(5, 12)


def test_float_reference_replays_the_courses_float64_loop():
    c = load_spec("hedge_float").contract
    assert c.arithmetic == "float" and c.hedge_weights == "normalized" and not hedge_exact(c, L1)
    run = reference_run(c, L1, [1] * 3, 1)
    w, total = [1.0] * 3, 0.0
    for r in L1:
        W = mixed = 0.0
        for wi, li in zip(w, r):
            W, mixed = W + wi, mixed + wi * li
        total += mixed / W
        w = [wi * 0.5 ** li for wi, li in zip(w, r)]
    s = 0.0
    for wi in w:
        s += wi
    assert run.weights == tuple(wi / s for wi in w)         # bit for bit: the same operations in the same order
    assert run.extras["hedge_loss"] == total and isinstance(total, float)


def test_arithmetic_follows_whether_the_fourth_root_of_beta_is_rational():
    assert _contract(penalty="81/256").arithmetic == "exact"        # (3/4)^4
    assert _contract(penalty="1/16").arithmetic == "exact"
    assert _contract(penalty=0.5).arithmetic == "float"
    assert _contract(penalty="1/4").arithmetic == "float"           # (1/4)^(1/4) = 1/sqrt(2)


def test_contract_refuses_what_hedge_does_not_have():
    with pytest.raises(Exception, match="passes labels"):
        _contract(call={"args": ["X", "y", "beta"]})
    with pytest.raises(Exception, match="hedge_weights"):
        _contract(hedge_weights="softmax")
    with pytest.raises(Exception, match="Hedge option"):
        parse_contract({"hedge_weights": "raw"}, algorithm="weighted_majority", style="function", entry="train",
                       bias=False, normalize=False, labels="pm1", kernel=None, src="w.toml", epochs=1)
    with pytest.raises(Exception, match="penalty"):
        _contract(penalty=1)
    plain = _contract()          # no [contract.call]: hedge(X, beta), one step per row
    assert [a.ref for a in plain.call.args] == ["X", "beta"] and plain.epochs_fixed


_losses = st.integers(1, 6).flatmap(lambda n: st.lists(st.lists(st.integers(0, 4).map(lambda k: Fraction(k, 4)),
                                                                min_size=n, max_size=n), min_size=1, max_size=12))


@settings(max_examples=60, deadline=None)
@given(L=_losses, beta=st.sampled_from([Fraction(1, 16), Fraction(81, 256), Fraction(1, 2)]))
def test_properties_on_the_reference_run(L, beta):
    c = _contract(penalty=str(beta))
    run = reference_run(c, L, [1] * len(L), 1)
    assert len(run.steps) == len(L)
    W = [sum(s.weights) for s in run.steps]
    prev = len(L[0])
    for w, s in zip(W, run.steps):
        assert all(v > 0 for v in s.weights)                        # weights stay positive
        assert w <= prev * (1 + 1e-12)                              # the total weight never grows
        prev = w
    total = float(run.extras["hedge_loss"])
    best = min(sum(float(r[i]) for r in L) for i in range(len(L[0])))
    b = float(beta)
    bound = (math.log(1 / b) * best + math.log(len(L[0]))) / (1 - b)
    assert total <= bound + 1e-9, (total, bound)                      # Freund & Schapire 1997, Theorem 2
    if c.arithmetic == "exact":
        assert run.extras["hedge_loss"] == run_hedge(L, beta=beta).extras["hedge_loss"]


def test_every_common_mistake_changes_the_answer_on_a_probe():
    """Each cause can be confirmed: on the probes, the re-run with it differs from the reference
    (and, for the normalisation, under the contract that names it)."""
    for name, bugs in (("hedge", HEDGE_BUGS[:3]), ("hedge_float", HEDGE_BUGS[:2] + HEDGE_BUGS[3:])):
        P = make_any_problem(load_spec(name))
        assert isinstance(P, HedgeProblem)
        for bug in bugs:
            assert any(not P.compare(P.expected(X, y, e), P.expected(X, y, e, bugs={bug}))[0]
                       for X, y, e in P.probes()), (name, bug)


@pytest.mark.slow
def test_shipped_examples_correct_full_marks_bug_named():
    for name, bug, cause in (("hedge", "beta_once_per_loss", "beta applied once per loss instead of beta^loss"),
                             ("hedge_float", "weights_not_normalised", "weights not normalised")):
        assert sorted(os.listdir(os.path.join(EX, name))) == sorted(["correct", bug])
        results, _ = grade_batch(name, [os.path.join(EX, name, n) for n in ("correct", bug)], jobs=1)
        by = {r.name: r for r in results}
        good, bad = by["correct"], by[bug]
        assert good.score == good.max_score == load_spec(name).max_score and good.diagnoses == {}
        assert bad.score < bad.max_score / 2
        assert list(bad.diagnoses) == [cause], bad.diagnoses


@pytest.mark.slow
@pytest.mark.parametrize("learner,bugs,cause", [
    ({}, ("label_ignored",), "loss applied as a gain"),          # the generated solution's one change: beta^-l
    ({"hedge_weights": "normalized"}, (), "weights normalised"),
])
def test_generated_mistakes_are_graded_down_and_named(tmp_path, learner, bugs, cause):
    from grading.references.synth import solution_files
    spec = load_spec("hedge")
    for name, src in solution_files(spec, learner=spec.contract.replace(**learner), bugs=bugs).items():
        (tmp_path / name).write_bytes(src)
    results, _ = grade_batch("hedge", [str(tmp_path)], jobs=1)
    r = results[0]
    assert r.score < r.max_score
    assert list(r.diagnoses) == [cause], r.diagnoses


def _load(path):
    import importlib.util
    spec = importlib.util.spec_from_file_location("hedge_under_test", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.hedge


@settings(max_examples=40, deadline=None)
@given(L=_losses)
def test_properties_on_the_shipped_solutions_own_runs(L):
    """The course's solutions (the exact and the float course) on their own runs: the weights
    positive, their total at most N (normalised: 1), the total loss within the bound and equal to
    the reference's up to the tolerance."""
    rows = [[float(v) for v in r] for r in L]
    N = len(L[0])
    best = min(sum(r[i] for r in rows) for i in range(N))
    for name, beta in (("hedge", 1 / 16), ("hedge_float", 0.5)):
        w, total = _load(os.path.join(EX, name, "correct", "hedge.py"))(rows, beta)
        assert all(v > 0 for v in w) and sum(w) <= N * (1 + 1e-12)
        if name == "hedge_float":
            assert abs(sum(w) - 1) <= 1e-12
        assert total <= (math.log(1 / beta) * best + math.log(N)) / (1 - beta) + 1e-9
        ref = reference_run(load_spec(name).contract, rows, [1] * len(rows), 1)
        assert abs(total - float(ref.extras["hedge_loss"])) <= 1e-9 * max(1.0, total)
        assert all(abs(a - float(b)) <= 1e-9 for a, b in zip(w, ref.weights))
