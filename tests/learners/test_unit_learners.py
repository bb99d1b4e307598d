"""Halving, Weighted Majority, Randomized Weighted Majority and Passive-Aggressive: each against
an exact reference written here from the papers' definitions, on generated sequences."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from learners import (InputError, PassiveAggressive, run_halving, run_passive_aggressive,
                      run_randomized_weighted_majority, run_weighted_majority)
from learners.randomized_weighted_majority import expected_mistakes_over_coins

SETTINGS = settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
pm1 = st.sampled_from([1, -1])


@st.composite
def advice(draw, max_t=12, max_n=5):
    T = draw(st.integers(1, max_t))
    n = draw(st.integers(1, max_n))
    A = draw(st.lists(st.lists(pm1, min_size=n, max_size=n), min_size=T, max_size=T))
    y = draw(st.lists(pm1, min_size=T, max_size=T))
    return A, y


def wm_reference(A, y, beta):
    """Littlestone & Warmuth's WM, vectorised differently: the weight of expert i after t steps is
    beta^(mistakes of i so far)."""
    A, y = np.array(A), np.array(y)
    mistakes_so_far = np.zeros(A.shape[1], dtype=int)
    preds = []
    for t in range(len(y)):
        w = [Fraction(beta) ** int(k) for k in mistakes_so_far]
        plus = sum(wi for wi, a in zip(w, A[t]) if a == 1)
        minus = sum(wi for wi, a in zip(w, A[t]) if a == -1)
        preds.append(1 if plus >= minus else -1)
        mistakes_so_far += A[t] != y[t]
    return preds, [Fraction(beta) ** int(k) for k in mistakes_so_far]


@SETTINGS
@given(advice(), st.sampled_from([Fraction(1, 2), Fraction(1, 4), Fraction(3, 4), Fraction(1, 3)]))
@pytest.mark.slow
def test_weighted_majority_against_reference(data, beta):
    A, y = data
    tr = run_weighted_majority(A, y, beta=beta)
    preds, w = wm_reference(A, y, beta)
    assert [s.prediction for s in tr.steps] == preds
    assert tr.mistakes == sum(p != l for p, l in zip(preds, y))
    assert list(tr.weights) == w
    if beta.denominator & (beta.denominator - 1) == 0:          # dyadic beta: float mode is exact too
        fl = run_weighted_majority(A, y, beta=float(beta), exact=False)
        assert fl.mistake_flags == tr.mistake_flags and [Fraction(v) for v in fl.weights] == w
    # the multiplicative potential behind the bound: beta^m <= W_T <= n ((1 + beta)/2)^M
    m, n = min(tr.extras["expert_mistakes"]), len(A[0])
    assert beta ** m <= sum(w) <= n * ((1 + beta) / 2) ** tr.mistakes


@SETTINGS
@given(advice())
@pytest.mark.slow
def test_halving_is_weighted_majority_with_beta_zero(data):
    A, y = data
    H = [list(col) for col in zip(*A)]              # hypothesis i labels step t with A[t][i]
    h = run_halving(H, y)
    wm = run_weighted_majority(A, y, beta=0)
    assert h.mistake_flags == wm.mistake_flags and list(h.weights) == list(wm.weights)
    if any(all(a == b for a, b in zip(col, y)) for col in H):        # realizable: M <= log2 |H|
        assert 2 ** h.mistakes <= len(H)


def test_halving_with_functions_and_errors():
    X = [0, 1, 2, 3]
    H = [lambda x, c=c: 1 if x >= c else -1 for c in range(5)]
    tr = run_halving(H, [-1, -1, 1, 1], X)
    assert tr.mistakes <= math.log2(5) and tr.extras["version_space_sizes"][-1] == 1
    with pytest.raises(InputError, match="advice"):
        run_halving([[1, 0]], [1, 1])
    with pytest.raises(InputError, match="empty"):
        run_halving([], [1])
    with pytest.raises(InputError, match="beta"):
        run_weighted_majority([[1]], [1], beta=1)
    with pytest.raises(InputError, match="beta"):
        run_randomized_weighted_majority([[1]], [1], beta=0)


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(advice(max_t=4, max_n=3), st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(2, 3)]))
@pytest.mark.slow
def test_rwm_expectation_equals_the_sum_over_coins(data, beta):
    A, y = data
    tr = run_randomized_weighted_majority(A, y, beta=beta, seed=1)
    e = tr.extras["expected_mistakes"]
    assert e == expected_mistakes_over_coins(A, y, beta=beta)
    fl = run_randomized_weighted_majority(A, y, beta=float(beta), exact=False, seed=1)
    assert math.isclose(fl.extras["expected_mistakes"], e, rel_tol=1e-12, abs_tol=1e-12)
    assert tr.mistake_flags == fl.mistake_flags or beta.denominator != 2


def test_rwm_replay_matches_expectation_on_average():
    A = [[1, -1, 1], [-1, 1, 1], [1, 1, -1], [-1, -1, 1]] * 5
    y = [1, 1, -1, 1] * 5
    e = run_randomized_weighted_majority(A, y, seed=0).extras["expected_mistakes"]
    runs = [run_randomized_weighted_majority(A, y, seed=s, record="none").mistakes for s in range(400)]
    assert abs(float(np.mean(runs)) - float(e)) < 4 * float(np.std(runs)) / 20 + 1e-9


def pa_reference(X, y, variant, C):
    """Crammer et al. (2006), Figure 1, in rationals."""
    w = [Fraction(0)] * len(X[0])
    for x, yy in zip(X, y):
        x = [Fraction(v) for v in x]
        loss = max(Fraction(0), 1 - yy * sum(a * b for a, b in zip(w, x)))
        q = sum(v * v for v in x)
        tau = {"pa": lambda: loss / q, "pa1": lambda: min(C, loss / q),
               "pa2": lambda: loss / (q + Fraction(1) / (2 * C))}[variant]()
        w = [a + tau * yy * b for a, b in zip(w, x)]
    return w


@st.composite
def pa_data(draw):
    T = draw(st.integers(1, 8))
    d = draw(st.integers(1, 3))
    val = st.integers(-4, 4).map(lambda v: Fraction(v, 2))
    X = draw(st.lists(st.lists(val, min_size=d, max_size=d).filter(any), min_size=T, max_size=T))
    y = draw(st.lists(pm1, min_size=T, max_size=T))
    return X, y


@SETTINGS
@given(pa_data(), st.sampled_from(["pa", "pa1", "pa2"]), st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(3)]))
@pytest.mark.slow
def test_passive_aggressive_against_reference(data, variant, C):
    X, y = data
    tr = run_passive_aggressive(X, y, variant=variant, C=C)
    assert list(tr.weights) == pa_reference(X, y, variant, C)
    fl = run_passive_aggressive([[float(v) for v in r] for r in X], y, variant=variant, C=C, exact=False)
    assert np.allclose(fl.weights, [float(v) for v in tr.weights], rtol=1e-9, atol=1e-9)


def test_pa_bound_on_separable_data_and_estimator():
    rng = np.random.default_rng(3)
    u = np.array([2, -1, 1])
    X = rng.integers(-3, 4, size=(60, 3))
    X = X[np.abs(X @ u) >= 1]
    y = np.sign(X @ u)
    tr = run_passive_aggressive(X.tolist(), y.tolist(), variant="pa")
    R2 = max(int(r @ r) for r in X)
    assert sum(l * l for l in tr.extras["losses"]) <= int(u @ u) * R2
    est = PassiveAggressive(variant="pa", exact=True).fit(X, y)
    assert list(est.coef_[0]) == list(tr.weights)
    with pytest.raises(InputError, match="zero vector"):
        run_passive_aggressive([[0, 0]], [1], variant="pa")
