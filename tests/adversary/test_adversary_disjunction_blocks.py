"""Littlestone's r floor(lg(n/r)) lower bound on r-literal monotone disjunctions, played block by
block against Winnow and Halving (``adversary.disjunction_worst``): the blocks that fit best, every
example a mistake on the exact replay, the surviving literals labelling every example; the Coq
forms' statements (``coq.learner_theorems_disjunctions``) count what the Python blocks force."""
from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from adversary import disjunction_worst as dw
from adversary.table import grid, run_cell


def _best_split(n, r):
    """The most sum of exponents over every split of at most n variables into r power-of-two blocks."""
    top = n.bit_length()
    return max(sum(es) for es in combinations_with_replacement(range(top), r) if sum(2 ** e for e in es) <= n)


@pytest.mark.parametrize("n, r", [(n, r) for n in range(1, 41) for r in range(1, min(n, 6) + 1)])
def test_block_exponents_fit_and_are_the_best_power_of_two_split(n, r):
    es = dw.block_exponents(n, r)
    assert len(es) == r and sum(2 ** e for e in es) <= n
    l = (n // r).bit_length() - 1
    assert sum(es) == r * l + (n // 2 ** l - r) == _best_split(n, r) >= r * l     # the Coq form any_n_sharp


@pytest.mark.parametrize("n, r, learner", [(48, 4, "winnow_halve"), (40, 3, "winnow_eliminate"), (20, 3, "halving"),
                                           (12, 2, "halving"), (9, 2, "winnow_halve"), (5, 1, "winnow_eliminate")])
def test_every_example_a_mistake_and_the_target_labels_them(n, r, learner):
    row = dw.disjunction_row(n, r, learner)
    X, y, target = row["data"]["X"], row["data"]["y"], row["data"]["target"]
    assert row["ok"] and row["mistakes"] == len(X) == dw.forced_count(n, r) == row["bound"]
    assert len(set(target)) == r and all(0 <= v < n for v in target)
    assert all(int(any(x[v] for v in target)) == lab for x, lab in zip(X, y))
    _, replay = dw.predictor(learner, n, r)
    assert replay(X, y) == len(X)                               # the replay recounts every mistake


def test_an_adversary_that_agrees_with_the_learner_certifies_nothing():
    """Labelled as the learner predicts, the learner never errs: the row is not ok."""
    predict, replay = dw.predictor("winnow_halve", 16, 2)
    seq = dw.force_blocks(dw.block_exponents(16, 2), 16, lambda X, y, x: 1 - predict(X, y, x))
    assert replay(seq["X"], seq["y"]) == 0 < len(seq["X"])


def test_bad_sizes_are_refused():
    for n, r in ((3, 4), (4, 0), (0, 0)):
        with pytest.raises(ValueError):
            dw.block_exponents(n, r)
    with pytest.raises(ValueError):
        dw.force_blocks([3, 3], 15, lambda X, y, x: 0)        # 16 variables do not fit in 15
    with pytest.raises(ValueError):
        dw.predictor("perceptron", 8, 1)


def test_the_table_rows_are_lower_bounds_met():
    cells = [c for c in grid("unit") if c.name.startswith("lower_blocks_")]
    assert {c.name for c in cells} == {"lower_blocks_winnow_halve_n48_r4", "lower_blocks_winnow_eliminate_n40_r3",
                                       "lower_blocks_halving_n20_r3"}
    for c in cells:
        row = run_cell(c)
        assert row["ok"] and row["tight"] and row["tightness"] == "lower bound met" and row["ratio"] == 1
        # n is not a multiple of r 2^l: the sharper blocks force more than r floor(lg(n/r))
        assert row["mistakes"] > row["figures"]["r_floor_lg_n_over_r"]


def test_the_coq_forms_count_what_the_python_blocks_force():
    from coq.learner_theorems_disjunctions import LEARNER_DISJUNCTION_FORMS, disjunction_form_statement
    forms = {lt.form: disjunction_form_statement(lt) for lt in LEARNER_DISJUNCTION_FORMS}
    assert forms["blocks"].endswith("alg nil ex = (list_sum ls)%nat")
    assert forms["any_n"].endswith("alg nil ex = (r * Nat.log2 (n / r))%nat")
    sharp = forms["any_n_sharp"]
    assert sharp.endswith("alg nil ex = (r * Nat.log2 (n / r) + (n / 2 ^ Nat.log2 (n / r) - r))%nat")
    # the sharp count, read as Python: Nat.log2 (n / r) is (n // r).bit_length() - 1, truncated subtraction
    for n in range(1, 70):
        for r in range(1, n + 1):
            l = (n // r).bit_length() - 1
            assert r * l + max(0, n // 2 ** l - r) == dw.forced_count(n, r)
