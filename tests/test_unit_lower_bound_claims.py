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
