"""The online-learning unit's theorems: proved (errata refuted) by the kernel with z3 and cvc5,
and a false edit of each -- a scaled coefficient, a dropped hypothesis -- is not."""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.catalogue import registry
from proofs.catalogue.core import PROVED, REFUTED
from proofs.language.formula import Sum, num
from proofs.verify.runner import run_catalogue

UNIT = ["halving_bound", "erratum_halving_strict", "erratum_halving_unrealizable", "exp_monotone",
        "weighted_majority_bound", "randomized_weighted_majority_bound", "freund_schapire_bound",
        "passive_aggressive_bound", "two_experts_lower_bound", "margin_lower_bound", "weighted_majority_half_bound",
        "passive_aggressive_pa1_bound", "passive_aggressive_pa2_bound", "kernel_freund_schapire_bound"]


@pytest.fixture(scope="module")
def cat():
    return run_catalogue(UNIT)


@pytest.mark.parametrize("tid", UNIT)
def test_unit_entry_verifies(cat, tid):
    r = cat.by_id(tid)
    assert r.status == (REFUTED if tid.startswith("erratum") else PROVED), r.reasons
    if r.theorem.kind == "theorem":
        assert all(s.ok for s in r.steps) and r.nonvacuity.status == "sat"


def test_unit_rules_are_named(cat):
    assert "exp_tangent" in cat.by_id("weighted_majority_bound").rules
    assert "pow2_log2" in cat.by_id("halving_bound").rules
    assert "sqrt_def" in cat.by_id("freund_schapire_bound").rules


def _tighter(th):
    """The conclusion lhs <= rhs with rhs scaled by 1/2 (or lhs doubled)."""
    c = th.conclusion
    lhs, rhs = c.args
    return dataclasses.replace(th, id=th.id + "_scaled", conclusion=type(c)(c.op, (lhs, rhs / 2), sort=c.sort))


def _dropped(th, name):
    return dataclasses.replace(th, id=th.id + "_without_" + name,
                               hypotheses=[(n, f) for n, f in th.hypotheses if n != name])


EDITS = [("halving_bound", None), ("weighted_majority_bound", None), ("randomized_weighted_majority_bound", None),
         ("passive_aggressive_bound", None), ("freund_schapire_bound", None),
         ("halving_bound", "majority_was_wrong"), ("weighted_majority_bound", "majority_wrong_on_mistake"),
         ("randomized_weighted_majority_bound", "best_in_total"), ("passive_aggressive_bound", "separable"),
         ("freund_schapire_bound", "unit_target"), ("kernel_freund_schapire_bound", None),
         ("kernel_freund_schapire_bound", "kernel_radius"), ("kernel_freund_schapire_bound", "feature_map"), ("passive_aggressive_bound", "nonzero_examples"),
         ("two_experts_lower_bound", None), ("two_experts_lower_bound", "adversary_labels"),
         ("margin_lower_bound", "margin_fits"), ("margin_lower_bound", "orthonormal"),
         ("weighted_majority_half_bound", None), ("weighted_majority_half_bound", "log2_n"),
         ("weighted_majority_half_bound", "majority_wrong_on_mistake"),
         ("passive_aggressive_pa1_bound", None), ("passive_aggressive_pa1_bound", "mistake_flags"),
         ("passive_aggressive_pa1_bound", "pa1_step"), ("passive_aggressive_pa2_bound", None),
         ("passive_aggressive_pa2_bound", "pa2_step"), ("passive_aggressive_pa2_bound", "loss_of_u")]


@pytest.mark.parametrize("tid,drop", EDITS, ids=[f"{t}-{d or 'scaled'}" for t, d in EDITS])
def test_unit_false_edit_is_not_proved(tid, drop):
    th = registry.get(tid)
    edited = _tighter(th) if drop is None else _dropped(th, drop)
    r = run_catalogue([edited]).by_id(edited.id)
    assert r.status != PROVED


def test_unit_wm_half_uses_the_general_bound_and_certifies_2_41(cat):
    r = cat.by_id("weighted_majority_half_bound")
    assert "weighted_majority_bound" in r.lemmas and "exp_monotone" in r.lemmas
    # 2.40 (m + lg n) would need 100 ln 2 <= 240 ln(4/3): the constant is 1/lg(4/3) = 2.4094...
    th = registry.get("weighted_majority_half_bound")
    lhs, rhs = th.conclusion.args
    low = dataclasses.replace(th, id=th.id + "_2_40", conclusion=type(th.conclusion)(
        th.conclusion.op, (lhs, rhs * num("240/241")), sort=th.conclusion.sort))
    assert run_catalogue([low]).by_id(low.id).status != PROVED


def test_unit_halving_replay_of_errata(cat):
    for tid in ("erratum_halving_strict", "erratum_halving_unrealizable"):
        r = cat.by_id(tid)
        assert r.exact[0] and r.witness[0], (r.exact, r.witness)
    _ = (Sum, num)


# The learner meets the PA-I and PA-II theorems on generated runs, for any comparator u (exact).
_HALF = st.integers(-4, 4).map(lambda v: Fraction(v, 2))


@st.composite
def _pa_runs(draw):
    T, d = draw(st.integers(1, 10)), draw(st.integers(1, 3))
    X = draw(st.lists(st.lists(_HALF, min_size=d, max_size=d).filter(any), min_size=T, max_size=T))
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T))
    u = draw(st.lists(_HALF, min_size=d, max_size=d))
    C = draw(st.sampled_from([Fraction(1, 4), Fraction(1), Fraction(5, 2)]))
    return X, y, u, C


@settings(max_examples=150, deadline=None)
@given(_pa_runs())
def test_unit_pa1_pa2_learners_meet_their_bounds(run):
    from learners import run_passive_aggressive
    X, y, u, C = run
    R2 = max(sum(v * v for v in x) for x in X)
    uu = sum(v * v for v in u)
    ls = [max(Fraction(0), 1 - yy * sum(a * b for a, b in zip(u, x))) for x, yy in zip(X, y)]
    pa1 = run_passive_aggressive(X, y, variant="pa1", C=C)
    assert pa1.mistakes <= max(R2, 1 / C) * (uu + 2 * C * sum(ls))
    pa2 = run_passive_aggressive(X, y, variant="pa2", C=C)
    assert sum(v * v for v in pa2.extras["losses"]) <= (R2 + 1 / (2 * C)) * (uu + 2 * C * sum(v * v for v in ls))
