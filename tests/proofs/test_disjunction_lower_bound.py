"""Littlestone's lower bound on disjunctions (catalogue ``disjunction_lower_bound``): a binary search
labelled against any learner's predictions forces lg n mistakes, every label being the target's;
the statement holds on played instances, and false edits of it are not proved."""
from __future__ import annotations

import dataclasses
import random

import pytest

from proofs.catalogue import registry
from proofs.catalogue.core import PROVED
from proofs.language.formula import And, Eq, Ite
from proofs.verify.runner import run_catalogue

TID = "disjunction_lower_bound"


@pytest.fixture(scope="module")
def result():
    return run_catalogue([TID]).by_id(TID)


def test_it_is_proved_by_the_kernel_with_its_rules_named(result):
    assert result.status == PROVED, result.reasons
    assert all(s.ok for s in result.steps) and result.nonvacuity.status == "sat"
    assert set(result.rules) == {"finite_sum_linearity", "induction"}
    th = registry.get(TID)
    assert th.coq == "Catalogue_lower_bounds.disjunction_lower_bound"
    assert th.source.note == "Littlestone 1988" and "Littlestone" in th.source.where


def _play(predict, l):
    """The adversary's binary search against ``predict`` (history -> 0/1): (p, lo, h)."""
    h = [2 ** (l - j) for j in range(l + 1)]
    lo, p = [0], []
    for j in range(l):
        pj = predict(list(zip(lo, p)))
        p.append(pj)
        lo.append(lo[j] + pj * h[j + 1])
    return p, lo, h


@pytest.mark.parametrize("seed", range(20))
def test_the_statement_holds_on_played_instances(seed):
    """Any learner (random, or a fixed rule) played against: every label 1 - p(j) is the value of the
    disjunction of lo(l) alone on x(j) = [lo(j), lo(j) + h(j+1)), and every step is a mistake."""
    rng = random.Random(seed)
    l = rng.randint(0, 8)
    learner = [lambda hist: rng.randint(0, 1), lambda hist: 1, lambda hist: len(hist) % 2][seed % 3]
    p, lo, h = _play(learner, l)
    target = lo[l]
    assert 0 <= target < h[0] == 2 ** l
    for j in range(l):
        x = set(range(lo[j], lo[j] + h[j + 1]))
        assert 1 - p[j] == int(target in x)
        assert (1 - p[j] - p[j]) ** 2 == 1
    assert sum((1 - pj - pj) ** 2 for pj in p) == l


def _edit(conclusion=None, drop=None):
    th = registry.get(TID)
    hyps = [(n, f) for n, f in th.hypotheses if n != drop]
    return dataclasses.replace(th, id=f"{TID}_edited", hypotheses=hyps, conclusion=th.conclusion if conclusion is None else conclusion)


def _false_edits():
    th = registry.get(TID)
    labels, lo0, hi0, count = th.conclusion.args
    lhs, rhs = count.args
    guard, eq = labels.args
    one_more = And(labels, lo0, hi0, Eq(lhs, rhs + 1))                  # l + 1 mistakes
    cond = eq.args[1].args[0]
    flipped = And(type(labels)(labels.op, (guard, Eq(1 - eq.args[0], Ite(cond, 1, 0))), sort=labels.sort),
                  lo0, hi0, count)                                       # the learner's predictions as labels
    return [("one_more_mistake", one_more, None), ("labels_flipped", flipped, None),
            ("no_halving", None, "adversary_halves"), ("no_last_width", None, "one_variable_left"),
            ("any_predictions", None, "predictions_01")]


@pytest.mark.parametrize("name,conclusion,drop", _false_edits(), ids=[e[0] for e in _false_edits()])
def test_a_false_edit_is_not_proved(name, conclusion, drop):
    edited = _edit(conclusion, drop)
    r = run_catalogue([edited]).by_id(edited.id)
    assert r.status != PROVED
