"""The second-order perceptron's worst case (``adversary.second_order_worst``): e_1..e_d labelled
+1 make it err on every example, and its bound's ratio 1/sqrt((a + 1) ln(1 + 1/a)) is enclosed
between two rationals and compared with 0.99 exactly; a false claim is refuted."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from adversary import second_order_worst as sw
from adversary.table import grid, run_cell
from adversary.unit_worst import TIGHT_RATIO
from learners import run_second_order_perceptron
from learners.second_order_perceptron import bound_terms


def closed_form(a) -> mpmath.mpf:
    with mpmath.workdps(50):
        a = mpmath.mpf(Fraction(a).numerator) / Fraction(a).denominator
        return 1 / mpmath.sqrt((a + 1) * mpmath.log(1 + 1 / a))


@pytest.mark.parametrize("d,a", [(16, 50), (4, 50), (9, 100), (1, 25)])
def test_the_row_is_certified_and_tight(d, a):
    r = sw.orthonormal_row(d, a)
    f = r["figures"]
    assert r["ok"] and r["tight"] == "ratio" and r["mistakes"] == d
    assert f["every_step_a_tie"] and f["q"] == [Fraction(1, a)] and f["D"] == 0 and f["u_sq"] == 1
    lo, hi = f["ratio_interval"]
    assert TIGHT_RATIO <= lo <= hi < 1 and hi - lo < Fraction(1, 10 ** 15)
    with mpmath.workdps(50):
        v = closed_form(a)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= v <= mpmath.mpf(hi.numerator) / hi.denominator


def test_a_small_a_is_not_called_tight():
    """At a = 10 the ratio is 0.977: the row is certified but the threshold is decided against it."""
    r = sw.orthonormal_row(16, 10)
    assert r["ok"] and r["tight"] is None and r["figures"]["ratio_interval"][1] < TIGHT_RATIO
    assert abs(float(r["figures"]["ratio_interval"][0]) - float(closed_form(10))) < 1e-12


def test_a_false_claim_is_refuted():
    """One mistake more than the run made breaks the bound: 17/4 > sqrt(51 * 16 ln(51/50))."""
    d = 16
    X = [[int(i == j) for j in range(d)] for i in range(d)]
    tr = run_second_order_perceptron(X, [1] * d, a=50)
    t = bound_terms(tr, X, [1] * d, [Fraction(1, 4)] * d, Fraction(1, 4))
    assert sw.check_bound(t)["bound"] is True
    assert sw.check_bound(dict(t, M=17))["bound"] is False
    assert sw.check_bound(dict(t, M=17))["links"]["margin"] is False
    # near the boundary, 16^2 gamma^2 against 51 * 16 ln(51/50) = 16.1589...: decided both ways
    assert sw.check_bound(dict(t, gamma=Fraction(2512, 10000)))["bound"] is True        # 16.1540 <= 16.1589
    assert sw.check_bound(dict(t, gamma=Fraction(2513, 10000)))["bound"] is False       # 16.1668 > 16.1589
    assert sw.check_bound(dict(t, v_B_v=t["sum_q_ratio"] + Fraction(1, 10 ** 6)))["links"]["potential"] is False
    assert sw.check_bound(dict(t, sum_q_ratio=Fraction(1, 3)))["links"]["log"] is False   # ln(1.02^16) < 1/3


@pytest.mark.parametrize("r", [Fraction(2), Fraction(0), Fraction(1, 3), Fraction(10 ** 12 + 1), Fraction(49, 4)])
def test_sqrt_enclosure(r):
    lo, hi = sw.sqrt_enclosure(r)
    assert lo * lo <= r <= hi * hi and hi - lo <= Fraction(1, 2 ** 95)
    with pytest.raises(ValueError):
        sw.sqrt_enclosure(Fraction(-1))


def test_bad_dimensions_are_refused():
    for d in (0, 2, 15):
        with pytest.raises(ValueError, match="perfect square"):
            sw.orthonormal_row(d, 50)


def test_the_table_row(tmp_path):
    cells = [c for c in grid("unit") if c.algorithm == "second_order_perceptron"]
    assert [c.name for c in cells] == ["second_order_orthonormal_d16_a50"]
    row = run_cell(cells[0], str(tmp_path))
    assert row["ok"] and row["tight"] and row["tightness"] == "ratio" and row["mistakes"] == 16
    assert Fraction(row["ratio_interval"][0]) >= TIGHT_RATIO
    assert (tmp_path / "second_order_orthonormal_d16_a50.json").exists()
