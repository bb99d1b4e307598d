"""The constructions reach their targets at small sizes (certified by exact replay)."""
from fractions import Fraction

import pytest

from adversary.certify import certify
from adversary.perceptron_separable import K_of, orthogonal_margin, orthonormal, parse_gamma, separable
from learners import run_perceptron
from learners.numbers import to_fraction


def test_gamma_parses_as_the_rational_it_names():
    assert parse_gamma("0.2") == Fraction(1, 5) and K_of(parse_gamma("0.2")) == 25
    # the float 0.2 is a little more than 1/5: only 24 mistakes are forced
    assert K_of(to_fraction(0.2)) == 24


@pytest.mark.parametrize("gamma, d", [("1/5", 3), ("0.2", 5), ("1/3", 3), ("1/10", 3)])
def test_orthogonal_margin_reaches_floor_inverse_gamma_sq(gamma, d):
    s = orthogonal_margin(gamma, d)
    c = certify(s)
    assert c.mistakes == K_of(parse_gamma(gamma)) and c.ok
    assert c.ratio >= Fraction(95, 100)
    assert all(x[0] >= parse_gamma(gamma) for x in s.examples)          # margin >= gamma w.r.t. e1
    # every step is an exact tie w.x = 0
    tr = run_perceptron(s.examples, s.labels, exact=True)
    assert all(st.activation == 0 for st in tr.steps)


def test_orthonormal_adaptive_labels_against_any_predictor():
    # a learner that always predicts +1 is beaten by labels -1
    s = orthonormal("1/2", 6, predict=lambda x, hist: 1)
    assert s.labels == [-1] * 4
    c = certify(s)
    assert c.mistakes == 4 and c.ratio == 1


def test_separable_dispatch():
    assert separable("1/2", 4).meta["strategy"] == "orthonormal"
    assert separable("1/2", 3).meta["strategy"] == "orthogonal_margin"


@pytest.mark.parametrize("gamma, unit, want", [("1/2", False, 2), ("0.3", False, 6), ("1/5", False, 13),
                                               ("0.3", True, 4), ("1/5", True, 10)])
def test_plane_matches_the_greedy_baseline(gamma, unit, want):
    from adversary.perceptron_2d import sequence_2d
    s = sequence_2d(gamma, unit=unit, N=400)
    c = certify(s)
    assert c.mistakes >= want and c.ok
    if unit:
        assert all(x[0] ** 2 + x[1] ** 2 == 1 for x in s.examples)
    else:
        assert all(x[0] ** 2 + x[1] ** 2 <= 1 for x in s.examples)
    assert all(x[0] >= parse_gamma(gamma) for x in s.examples)


def test_plane_upper_bound_by_exact_interval_dp():
    from adversary.perceptron_2d import max_mistakes_le1, plane_bound
    # real-valued optimum for examples of length <= 1: at 1/2 the third mistake needs (1/2, sqrt(3)/2)
    assert [max_mistakes_le1(g) for g in ("1/2", "0.3", "1/5", "1/10")] == [3, 6, 13, 51]
    for g in ("1/2", "0.3", "1/5", "1/10", "1/20"):
        assert max_mistakes_le1(g) <= plane_bound(parse_gamma(g))


def test_alternating_cube_d4():
    from adversary.perceptron_fibonacci import fibonacci_family
    s = fibonacci_family(4)
    c = certify(s)
    assert c.mistakes == 17 and c.ok and c.figures["separable"]
    assert [int(v) for v in s.target] == [3, 2, 1, 1]


def test_factor_two_family_attains_the_exact_form():
    from adversary.perceptron_inseparable import factor_two
    for lam in ("1/2", "9/10"):
        c = certify(factor_two(8, lam))
        lamf = Fraction(lam)
        assert c.mistakes == 8
        assert c.ratio == 1 / (lamf ** 2 + 2 - 2 * lamf)
        assert c.figures["exact_form_attained"] is True


def test_noisy_is_within_both_forms():
    from adversary.perceptron_inseparable import noisy
    c = certify(noisy("1/5", 3, "1/2", seed=1))
    assert c.ok and c.figures["separable"] is False
    assert c.figures["within_exact_form"] and c.ratio < 1


def test_one_flip_is_near_the_bound():
    from adversary.perceptron_inseparable import noisy
    c = certify(noisy("1/10", 5, flips=1))
    # 100 ties + the flip (x, -y) + (x, y) again: 102 mistakes; at the best w* the bound is ~104
    assert c.mistakes == 102 and c.ok and c.ratio > Fraction(97, 100)


def test_gaussian_spacing_changes_the_ratio():
    from adversary.kernel_worst import gaussian_spaced
    lo3, hi3 = certify(gaussian_spaced(12, 3)).figures["ratio_interval"]
    lo2, hi2 = certify(gaussian_spaced(12, 2)).figures["ratio_interval"]
    assert Fraction(95, 100) < lo3 and hi3 < Fraction(995, 1000)   # ~0.9785 (0.98 to two digits)
    assert hi2 < lo3
