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


def test_winnow_tight_bound_figure_exact():
    from adversary.certify import TIGHT_THEOREM, winnow_tight_bound
    # n = 16, r = 1, one false negative: M = 1, tight bound r(3 lg n - 2) = 10
    s = Sequence("winnow", [[1] + [0] * 15], [1], target=[0], variant="halve")
    f = certify(s).figures
    assert f["tight_bound"] == 10 and f["ratio_tight"] == Fraction(1, 10) and f["within_tight"] is True
    assert f["tight_theorem"] == TIGHT_THEOREM == "winnow_halving_pow2_tight"
    assert f["sharper_bound"] == 11 and f["ratio_sharper"] == Fraction(1, 11)      # old names unchanged
    # only halving, theta = n = 2^p >= 2, r >= 1
    assert winnow_tight_bound("halve", 1024, 8) == 8 * (3 * 10 - 2)
    assert winnow_tight_bound("halve", 2, 1) == 1
    for args in (("eliminate", 16, 1), ("winnow2", 16, 1), ("halve", 12, 1), ("halve", 1, 1), ("halve", 16, 0)):
        assert winnow_tight_bound(*args) is None, args
    assert winnow_tight_bound("halve", 16, 1, theta=8) is None
    s = Sequence("winnow", [[1] + [0] * 11], [1], target=[0], variant="halve")          # n = 12
    assert "tight_bound" not in certify(s).figures


def test_winnow_tight_bound_attained_ratio_one():
    from adversary.winnow_search import search_winnow
    seq = search_winnow(64, 2, "halve", budget=10.0, seed=0)
    c = certify(seq)
    assert c.ok and c.mistakes == 2 * (3 * 6 - 2) == c.figures["tight_bound"]
    assert c.figures["ratio_tight"] == 1 and c.figures["within_tight"] is True


def test_winnow_beyond_tight_bound_is_rejected(monkeypatch):
    # a certifier whose tight bound were one lower must reject the attaining sequence: the check bites
    import adversary.certify as ac
    from adversary.winnow_search import search_winnow
    seq = search_winnow(64, 1, "halve", budget=10.0, seed=0)
    real = ac.winnow_tight_bound
    monkeypatch.setattr(ac, "winnow_tight_bound", lambda *a, **k: real(*a, **k) - 1)
    c = ac.certify(seq)
    assert not c.ok and c.figures["within_tight"] is False
    assert any("winnow_halving_pow2_tight" in r for r in c.reasons)
