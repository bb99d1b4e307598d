"""Kivinen, Warmuth & Auer's perceptron-versus-Winnow sequence (``adversary.hadamard_worst``): the
perceptron errs on every row of a Hadamard matrix labelled by x_1, meeting Block-Novikoff's
(R|u|/gamma)^2 = n exactly, while Winnow on the same rows as 0/1 inputs stays within its
logarithmic bound."""
from __future__ import annotations

import pytest

from adversary import hadamard_worst as hw
from adversary.table import grid, run_cell
from learners import run_perceptron


@pytest.mark.parametrize("n", [1, 2, 4, 8, 16, 32])
def test_every_row_a_mistake_and_the_bound_met(n):
    row = hw.perceptron_hadamard(n)
    f = row["figures"]
    assert row["ok"] and row["mistakes"] == n == row["bound"]
    assert f["orthogonal"] and f["margin"] == 1 and f["R2"] == n and f["every_step_a_tie"]
    assert f["winnow_mistakes"] <= f["winnow_bound"]
    X, y = row["data"]["X"], row["data"]["y"]
    assert all(v in (-1, 1) for r in X for v in r) and y == [r[0] for r in X]
    if n >= 2:
        assert set(y) == {-1, 1}                                  # x_1 takes both signs


def test_winnow_logarithmic_the_perceptron_linear():
    small, big = hw.perceptron_hadamard(16)["figures"], hw.perceptron_hadamard(64)["figures"]
    assert small["winnow_mistakes"] < 16 and big["winnow_mistakes"] < 64 // 4


def test_rows_that_are_not_orthogonal_let_the_perceptron_learn():
    """The construction's premise matters: repeating the first row, the perceptron errs once on it."""
    X = hw.hadamard_rows(8)
    X2 = [X[1]] * 8
    assert run_perceptron(X2, [r[0] for r in X2], exact=True).mistakes == 1


def test_bad_orders_are_refused():
    for n in (0, 3, 12, -4):
        with pytest.raises(ValueError):
            hw.sylvester(n)


def test_the_table_rows_are_tight():
    cells = [c for c in grid("unit") if c.name.startswith("kwa_hadamard_")]
    assert {c.name for c in cells} == {"kwa_hadamard_n16", "kwa_hadamard_n64"}
    for c in cells:
        row = run_cell(c)
        assert row["ok"] and row["tight"] and row["ratio"] == 1 and row["mistakes"] == row["figures"]["n"]
