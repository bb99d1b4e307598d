"""Exact certification: figures, claims, bounds decided exactly."""
import json
import math
import random
from fractions import Fraction

import pytest

from adversary.certify import certify, within_log_bound, winnow_bound, max_mistakes_allowed
from adversary.perceptron_separable import orthonormal
from adversary.sequence import Sequence


def test_orthonormal_ratio_exactly_one():
    c = certify(orthonormal("1/3", 9))
    assert c.mistakes == 9 and c.bound == 9 and c.ratio == 1 and c.ok
    assert c.figures["gamma_sq"] == Fraction(1, 9)


@pytest.mark.parametrize("key, value, word", [
    ("mistakes", 8, "claims.mistakes"), ("bound", 10, "claims.bound"), ("ratio", "9/10", "claims.ratio"),
])
def test_tampered_claims_are_rejected(key, value, word):
    s = orthonormal("1/3", 9)
    s.claims = {"mistakes": 9, "bound": 9, "ratio": 1}
    assert certify(s).ok
    obj = json.loads(s.dumps())
    obj["claims"][key] = value
    c = certify(Sequence.from_dict(obj))
    assert not c.ok and any(word in r for r in c.reasons)


def test_hinge_figures_by_hand():
    # x = e1 twice with labels +1, -1 (inseparable), w* = (1/2, 0): margins 1/2, -1/2
    s = Sequence("perceptron", [[1, 0], [1, 0], [0, 1]], [1, -1, 1], target=["1/2", 0])
    c = certify(s)
    assert c.mistakes == 3                     # tie, then w.x = 1 > 0 on a negative, then a tie
    f = c.figures
    assert f["separable"] is False
    assert f["hinge_loss"] == Fraction(1, 2) + Fraction(3, 2) + 1
    assert c.bound == 1 * Fraction(1, 4) + 2 * 3
    assert f["within_exact_form"] is True


def test_separable_target_is_scaled():
    s = Sequence("perceptron", [[2, 0], [0, 1]], [1, -1], target=[3, -3])
    c = certify(s)
    # R^2 = 4, min margin 3, |target|^2 = 18 -> bound 4 * 18 / 9 = 8
    assert c.bound == 8 and c.figures["w_norm_sq"] == 2


def test_winnow_bound_exact_for_powers_of_two():
    s = Sequence("winnow", [[1] + [0] * 15], [1], target=[0], variant="halve")
    c = certify(s)
    assert c.bound == 2 + 3 * (1 + 4) and c.figures["sharper_bound"] == 1 + 1 * (3 * 4 - 2)


@pytest.mark.parametrize("n", [3, 5, 12, 100, 1000])
def test_winnow_non_power_of_two_decided_exactly(n):
    A, B, base = winnow_bound("halve", n, 2)
    m = max_mistakes_allowed(A, B, base, Fraction(n))
    real = 2 + 3 * 2 * (1 + math.log2(n))
    assert m == math.floor(real)
    assert within_log_bound(m, A, B, base, Fraction(n)) and not within_log_bound(m + 1, A, B, base, Fraction(n))


def test_within_log_bound_agrees_with_floats():
    rng = random.Random(1)
    for _ in range(300):
        M = rng.randint(0, 300)
        A = Fraction(rng.randint(0, 40), rng.randint(1, 4))
        B = Fraction(rng.randint(1, 30), rng.randint(1, 3))
        theta = Fraction(rng.randint(1, 5000), rng.randint(1, 3))
        real = float(A) + float(B) * math.log2(theta)
        if abs(M - real) > 1e-6:
            assert within_log_bound(M, A, B, Fraction(2), theta) == (M <= real)


def test_gaussian_certificate_is_an_interval():
    from adversary.kernel_worst import gaussian_spaced
    c = certify(gaussian_spaced(8, 5))
    lo, hi = c.figures["ratio_interval"]
    assert c.mistakes == 8 and c.ok and c.figures["gaussian_decisions_certified"]
    assert Fraction(999, 1000) < lo <= hi <= 1


def test_kernel_poly_simplex_ratio_one():
    from adversary.kernel_worst import poly_simplex
    c = certify(poly_simplex(5, "1/2", 3))
    assert c.mistakes == 5 and c.ratio == 1
