"""Kivinen, Warmuth & Auer's perceptron run (catalogue ``perceptron_orthogonal_run``): on pairwise
orthogonal examples the perceptron's weight is orthogonal to the next example, so it errs on every
one; the statement holds on exact runs over Hadamard rows, and false edits of it are not proved."""
from __future__ import annotations

import dataclasses

import pytest

from adversary.hadamard_worst import hadamard_rows
from learners import run_perceptron
from proofs.catalogue import registry
from proofs.catalogue.core import PROVED
from proofs.language.formula import And, Eq
from proofs.verify.runner import run_catalogue

TID = "perceptron_orthogonal_run"


@pytest.fixture(scope="module")
def result():
    return run_catalogue([TID]).by_id(TID)


def test_it_is_proved_by_the_kernel_with_its_rules_named(result):
    assert result.status == PROVED, result.reasons
    assert all(s.ok for s in result.steps) and result.nonvacuity.status == "sat"
    assert set(result.rules) == {"finite_sum_linearity", "induction", "vector_sums"}
    th = registry.get(TID)
    assert th.coq == "Catalogue_lower_bounds.perceptron_orthogonal_run"
    assert th.source.note == "Kivinen, Warmuth & Auer 1997" and "Kivinen" in th.source.where


@pytest.mark.parametrize("n, labels", [(8, "x1"), (16, "x1"), (16, "alternate"), (32, "all_minus")])
def test_the_statement_holds_on_exact_runs(n, labels):
    """Hadamard rows with any labels: W(t).x(t) = 0 at every step and every step a mistake."""
    X = hadamard_rows(n)
    y = {"x1": [r[0] for r in X], "alternate": [(-1) ** t for t in range(n)], "all_minus": [-1] * n}[labels]
    tr = run_perceptron(X, y, exact=True)
    assert [s.activation for s in tr.steps] == [0] * n and tr.mistakes == n


def _edit(conclusion=None, drop=None):
    th = registry.get(TID)
    hyps = [(n, f) for n, f in th.hypotheses if n != drop]
    return dataclasses.replace(th, id=f"{TID}_edited", hypotheses=hyps,
                               conclusion=th.conclusion if conclusion is None else conclusion)


def _false_edits():
    th = registry.get(TID)
    each, count = th.conclusion.args
    lhs, rhs = count.args
    return [("one_more_mistake", And(each, Eq(lhs, rhs + 1)), None),
            ("not_orthogonal", None, "orthogonal"), ("any_mistake_rule", None, "mistake_rule")]


@pytest.mark.parametrize("name,conclusion,drop", _false_edits(), ids=[e[0] for e in _false_edits()])
def test_a_false_edit_is_not_proved(name, conclusion, drop):
    edited = _edit(conclusion, drop)
    r = run_catalogue([edited]).by_id(edited.id)
    assert r.status != PROVED
