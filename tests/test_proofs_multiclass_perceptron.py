"""The multiclass perceptron's mistake bound (Crammer & Singer 2003; Collins 2002): the catalogue
entry is proved, its hypotheses are each needed by the proof, a tighter bound is not proved, and
``learners.MulticlassPerceptron``'s own runs satisfy the hypotheses (Kesler's construction,
replayed exactly) and the bound."""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from learners import MulticlassPerceptron
from proofs import registry
from proofs.core import PROVED
from proofs.runner import run_catalogue

TID = "multiclass_perceptron_bound"


def test_proved_with_induction_and_cauchy_schwarz():
    r = run_catalogue([TID]).by_id(TID)
    assert r.status == PROVED and r.nonvacuity.status == "sat"
    assert "induction" in r.rules and "cauchy_schwarz" in r.lemmas


@pytest.mark.parametrize("drop", ["other_class", "kesler_blocks_orthogonal", "kesler_block_norm", "mistake",
                                  "margin", "radius", "target_norm", "starts_at_zero"])
def test_each_hypothesis_is_needed(drop):
    th = registry.get(TID)
    edited = dataclasses.replace(th, id=f"{TID}_without_{drop}",
                                 hypotheses=[(n, f) for n, f in th.hypotheses if n != drop])
    assert run_catalogue([edited]).by_id(edited.id).status != PROVED


def test_the_factor_two_is_needed():
    """R^2/gamma^2 (the binary bound) does not follow: |W|^2 grows by up to 2 R^2 per mistake."""
    th = registry.get(TID)
    c = th.conclusion
    lhs, rhs = c.args
    tighter = dataclasses.replace(th, id=f"{TID}_halved", conclusion=type(c)(c.op, (lhs, rhs / 2), sort=c.sort))
    assert run_catalogue([tighter]).by_id(tighter.id).status != PROVED


def _kesler(x, j, K):
    out = [Fraction(0)] * (K * len(x))
    out[j * len(x):(j + 1) * len(x)] = x
    return out


def _dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


@pytest.mark.parametrize("seed", range(12))
def test_learner_runs_satisfy_the_hypotheses_and_the_bound(seed):
    """Replay MulticlassPerceptron (exact, no bias) mistake by mistake in Kesler's form: the other
    class r(k) it updates is the first of the largest other scores, W(k+1) = W(k) + phi(x, c) -
    phi(x, r), the mistake is W.phi(x, c) <= W.phi(x, r), and the count is at most 2 R^2/gamma^2
    with gamma the margin of a separating U scaled to |U|_F = 1 (compared squared, exactly)."""
    rng = np.random.default_rng(seed)
    while True:                   # data a random integer U separates, with at least two classes
        K, d, n = int(rng.integers(2, 5)), int(rng.integers(1, 4)), 40
        U = rng.integers(-3, 4, size=(K, d))
        X = rng.integers(-4, 5, size=(n, d))
        S = X @ U.T
        top = np.sort(S, axis=1)
        keep = top[:, -1] > top[:, -2]
        X, y = X[keep], np.argmax(S[keep], axis=1)
        if len(set(y.tolist())) >= 2:
            break
    m = MulticlassPerceptron(exact=True, bias=False, epochs=30).fit(X, y)
    classes = m.classes_.tolist()
    Kc = len(classes)
    # the replay
    W = [Fraction(0)] * (Kc * d)
    mistakes = 0
    for _ in range(30):
        for xi, yi in zip(X.tolist(), y.tolist()):
            x = [Fraction(v) for v in xi]
            c = classes.index(yi)
            s = [_dot(W, _kesler(x, j, Kc)) for j in range(Kc)]
            r = max((j for j in range(Kc) if j != c), key=lambda j: (s[j], -j))
            if not s[c] > s[r]:
                mistakes += 1
                a, b = _kesler(x, c, Kc), _kesler(x, r, Kc)
                assert _dot(W, a) <= _dot(W, b)
                assert _dot(a, b) == 0 and _dot(a, a) == _dot(x, x) == _dot(b, b)
                W = [wi + ai - bi for wi, ai, bi in zip(W, a, b)]
    assert mistakes == m.mistakes_ and mistakes > 0
    assert W == [v for row in m.coef_.tolist() for v in row]
    # the bound, with the labels' rows of U (every class present is a row of U)
    Ur = [[Fraction(int(v)) for v in U[k]] for k in classes]
    gam = min(_dot(Ur[classes.index(yi)], list(map(Fraction, xi))) - _dot(Ur[j], list(map(Fraction, xi)))
              for xi, yi in zip(X.tolist(), y.tolist()) for j in range(Kc) if j != classes.index(yi))
    R2 = max(_dot(list(map(Fraction, xi)), list(map(Fraction, xi))) for xi in X.tolist())
    F2 = sum(_dot(row, row) for row in Ur)
    assert gam > 0
    assert mistakes * gam**2 <= 2 * R2 * F2          # M <= 2 R^2 / (gamma/|U|_F)^2
