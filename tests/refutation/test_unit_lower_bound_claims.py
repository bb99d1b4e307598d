"""check-bound says "no algorithm can do better" where the margin lower bound applies."""
from __future__ import annotations

import sympy as sp

from refutation.lower_bounds import lower_bound_note

g = sp.Symbol("gamma", positive=True)


def test_note_when_the_claim_is_below_every_learner():
    note = lower_bound_note("perceptron", "separable", 1 / (2 * g ** 2), False)
    assert note and "gamma = 1/1" in note and "forced to floor(1/gamma^2) = 1" in note
    assert "gamma = 1/4" in lower_bound_note("perceptron", "separable", 3 / g, False)     # 12 < 16


def test_no_note_when_the_claim_can_hold():
    assert lower_bound_note("perceptron", "separable", 1 / g ** 2, False) is None        # Block-Novikoff
    assert lower_bound_note("perceptron", "separable", 1 / g ** 2, True) is not None      # "< 1/gamma^2" fails
    assert lower_bound_note("perceptron", "agnostic", 1 / (2 * g ** 2), False) is None
    assert lower_bound_note("winnow", "winnow/halve", 1 / (2 * g ** 2), False) is None


n_, r_ = sp.Symbol("n", positive=True), sp.Symbol("r", positive=True)


def test_winnow_note_when_the_claim_is_below_the_disjunction_lower_bound():
    note = lower_bound_note("winnow", "winnow/halve", r_ * sp.log(n_, 2) / 2, False)
    assert note and "at n = 2, r = 1" in note and "forced to r floor(lg(n/r)) = 1" in note
    assert "Coq theorem DisjunctionLowerBound.disjunction_lower_bound" in note       # the general statement, cited
    assert "catalogue disjunction_lower_bound" in note                              # and the kernel's one-block entry
    # r (lg n - 2): at r = 1, n = 2^l it is l - 2 < l; the first point judged is n = 2
    assert "at n = 2, r = 1" in lower_bound_note("winnow", "winnow/halve", r_ * (sp.log(n_, 2) - 2), False)
    # r lg(n) / 4 + 1: below r lg(n/r) first at r = 1, n = 4 (forced 2, claim 3/2)
    assert "at n = 4, r = 1" in lower_bound_note("winnow", "winnow/halve", r_ * sp.log(n_, 2) / 4 + 1, False)


def test_no_winnow_note_when_the_claim_can_hold():
    assert lower_bound_note("winnow", "winnow/halve", r_ * sp.log(n_, 2), False) is None     # r lg n >= r lg(n/r)
    assert lower_bound_note("winnow", "winnow/halve", 2 * r_ * sp.log(n_, 2) + 2, False) is None
    assert lower_bound_note("winnow", "winnow/halve", r_ * sp.log(n_, 2) / 2 + g, False) is None    # not in n, r
