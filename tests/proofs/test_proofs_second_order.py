"""The second-order perceptron's bound in the catalogue (Cesa-Bianchi, Conconi & Gentile 2005):
proved by the kernel from the learner's two equations for B alone, its "for every z" invariants
made by the kernel's generalization over fresh vectors, and false edits of it not proved."""
from __future__ import annotations

import dataclasses

import pytest

from proofs.catalogue import registry
from proofs.catalogue.core import PROVED
from proofs.catalogue.second_order_perceptron import B, HYPOTHESES, PROJ, RATIO, M, g, h, k, sm, x, zz
from proofs.language.formula import And, Eq, ForAll, Implies, dot, num
from proofs.language.functions import sqrt
from proofs.verify.certificate import make
from proofs.verify.runner import build, run_catalogue

TID = "second_order_perceptron_bound"


@pytest.fixture(scope="module")
def result():
    return run_catalogue([TID]).by_id(TID)


def test_the_bound_is_proved_with_its_rules_named(result):
    assert result.status == PROVED, result.reasons
    assert all(s.ok for s in result.steps) and result.nonvacuity.status == "sat"
    assert {"induction", "sqrt_def", "vector_sums", "finite_sum_linearity"} <= set(result.rules)


def test_linear_symmetric_and_nonnegative_are_derived_not_assumed():
    th = registry.get(TID)
    # the statement says nothing of B beyond B_0 z = z/a and the Sherman-Morrison step
    assert [n for n, _ in th.hypotheses] == ["a_pos", "starts_at_zero", "b_start", "sherman_morrison", "update",
                                             "mistake", "labels_pm1"]
    b = build(th)
    gens = [s for s in make(th, b.fact)["steps"] if s["by"] == "generalize"]
    # symmetric and nonnegative, each at its start and in its step
    assert len(gens) == 4 and {tuple(s["vars"]) for s in gens} == {("zz", "ww"), ("z", "w"), ("zz",), ("z",)}


def _edited(th, tag, **kw):
    return dataclasses.replace(th, id=f"{th.id}_{tag}", **kw)


def _flipped_sherman_morrison():
    """B_{k+1} z = B_k z + (...) B_k x_k: the update with its sign flipped."""
    out = []
    for n, f in HYPOTHESES:
        if n == "sherman_morrison":
            wrong = B(k, zz) + (h(k) * dot(x(k), B(k, zz))) * B(k, x(k))
            f2 = ForAll([k, zz], Implies(And(num(0) <= k, k < M), Eq(B(k + 1, zz), wrong)))
            assert f2 != f and sm(k, zz) != wrong
            f = f2
        out.append((n, f))
    return out


def _edits(th):
    lhs, rhs = th.conclusion.args
    return [
        _edited(th, "gamma_doubled", conclusion=(lhs + M * g) <= rhs),
        _edited(th, "without_a_u2", conclusion=lhs <= sqrt(PROJ * RATIO)),
        _edited(th, "sign_flipped", hypotheses=_flipped_sherman_morrison()),
        _edited(th, "without_mistake", hypotheses=[(n, f) for n, f in th.hypotheses if n != "mistake"]),
    ]


@pytest.mark.parametrize("which", range(4), ids=["gamma_doubled", "without_a_u2", "sign_flipped", "without_mistake"])
def test_a_false_edit_is_not_proved(which):
    edited = _edits(registry.get(TID))[which]
    r = run_catalogue([edited]).by_id(edited.id)
    assert r.status != PROVED
