"""The second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005): the exact run against a
reference that inverts a I + sum x x^T by Gauss-Jordan elimination (no Sherman-Morrison), B the
exact inverse of A after every prefix, the float run against the exact one, the proved bound on
random runs decided exactly, and the orthonormal run that errs on every example."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adversary.second_order_worst import check_bound
from learners import InputError, run_second_order_perceptron
from learners.second_order_perceptron import bound_terms, sherman_morrison

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
A_VALUES = [Fraction(1, 2), Fraction(1), Fraction(3)]


def inverse(M):
    """Gauss-Jordan over Fractions."""
    d = len(M)
    aug = [list(r) + [Fraction(int(i == j)) for j in range(d)] for i, r in enumerate(M)]
    for c in range(d):
        p = next(r for r in range(c, d) if aug[r][c] != 0)
        aug[c], aug[p] = aug[p], aug[c]
        piv = aug[c][c]
        aug[c] = [v / piv for v in aug[c]]
        for r in range(d):
            if r != c and aug[r][c] != 0:
                f = aug[r][c]
                aug[r] = [v - f * w for v, w in zip(aug[r], aug[c])]
    return [r[d:] for r in aug]


def reference(X, y, a):
    """The paper's algorithm read literally: margin v . (A + x x^T)^(-1) x, A updated on mistakes."""
    d = len(X[0])
    A = [[Fraction(a) if i == j else Fraction(0) for j in range(d)] for i in range(d)]
    v = [Fraction(0)] * d
    flags, margins = [], []
    for x, yy in zip(X, y):
        x = [Fraction(c) for c in x]
        An = [[A[i][j] + x[i] * x[j] for j in range(d)] for i in range(d)]
        Bx = [sum(b * c for b, c in zip(row, x)) for row in inverse(An)]
        m = sum(p * c for p, c in zip(v, Bx))
        mistake = yy * m <= 0
        if mistake:
            A = An
            v = [p + yy * c for p, c in zip(v, x)]
        flags.append(mistake)
        margins.append(m)
    return flags, margins, v, inverse(A), A


@st.composite
def data(draw, max_t=8, max_d=3):
    T = draw(st.integers(1, max_t))
    d = draw(st.integers(1, max_d))
    val = st.integers(-4, 4).map(lambda v: Fraction(v, 2))
    X = draw(st.lists(st.lists(val, min_size=d, max_size=d), min_size=T, max_size=T))
    y = draw(st.lists(st.sampled_from([1, -1]), min_size=T, max_size=T))
    return X, y


def matmul(P, Q):
    return [[sum((P[i][k] * Q[k][j] for k in range(len(Q))), Fraction(0)) for j in range(len(Q[0]))]
            for i in range(len(P))]


@SETTINGS
@given(data(), st.sampled_from(A_VALUES))
def test_exact_run_is_the_papers_algorithm(dat, a):
    X, y = dat
    tr = run_second_order_perceptron(X, y, a=a)
    flags, margins, v, B, A = reference(X, y, a)
    assert list(tr.mistake_flags) == flags and tr.extras["margins"] == margins
    assert list(tr.weights) == v and [list(r) for r in tr.extras["B"]] == B
    # B is the inverse of A = a I + sum of x x^T over the mistakes, exactly, and symmetric
    d = len(X[0])
    eye = [[Fraction(int(i == j)) for j in range(d)] for i in range(d)]
    Bt = [list(r) for r in tr.extras["B"]]
    assert matmul(A, Bt) == eye == matmul(Bt, A)
    assert Bt == [list(c) for c in zip(*Bt)]
    # q_k = x_k . B_(k-1) x_k >= 0 at every mistake
    assert len(tr.extras["q"]) == tr.mistakes and all(q >= 0 for q in tr.extras["q"])


def test_B_stays_the_inverse_of_A_after_every_prefix():
    rng = np.random.default_rng(11)
    X = rng.integers(-3, 4, size=(14, 4)).tolist()
    y = rng.choice([-1, 1], size=14).tolist()
    eye = [[Fraction(int(i == j)) for j in range(4)] for i in range(4)]
    a = Fraction(2, 3)
    for T in range(1, 15):
        tr = run_second_order_perceptron(X[:T], y[:T], a=a)
        A = [[a * int(i == j) for j in range(4)] for i in range(4)]
        for i in tr.mistake_indices():
            A = [[A[r][c] + X[i][r] * X[i][c] for c in range(4)] for r in range(4)]
        assert matmul(A, [list(r) for r in tr.extras["B"]]) == eye, T


def test_sherman_morrison_adds_the_outer_product():
    B = inverse([[Fraction(2), Fraction(1)], [Fraction(1), Fraction(3)]])
    x = [Fraction(1), Fraction(-2)]
    Bn, Bx, q = sherman_morrison(B, x)
    assert Bn == inverse([[Fraction(3), Fraction(-1)], [Fraction(-1), Fraction(7)]])
    assert q == sum(a * b for a, b in zip(x, Bx)) > 0


def test_float_run_agrees_with_the_exact_run():
    """On random data the float run makes the same mistakes when no exact margin is near 0 (but the
    first, v = 0, which is 0 in both), with v equal and B and the margins within rounding."""
    rng = np.random.default_rng(5)
    compared = 0
    for _ in range(40):
        n, d = int(rng.integers(5, 30)), int(rng.integers(1, 6))
        X = rng.choice([-5, -4, -3, -2, -1, 1, 2, 3, 4, 5], size=(n, d))
        y = np.where(X @ rng.normal(size=d) + rng.normal(scale=0.5, size=n) > 0, 1, -1)
        a = [Fraction(1, 4), Fraction(1), Fraction(5, 2)][int(rng.integers(0, 3))]
        ex = run_second_order_perceptron(X.tolist(), y.tolist(), a=a)
        fl = run_second_order_perceptron(X.astype(float), y, a=float(a), exact=False)
        ms = ex.extras["margins"]
        zero_v = [all(w == 0 for w in (ex.initial_weights if t == 0 else ex.steps[t - 1].weights))
                  for t in range(len(ms))]
        if any(abs(m) < Fraction(1, 10 ** 6) and not z for m, z in zip(ms, zero_v)):
            continue                                   # a margin near 0: the two runs may part
        compared += 1
        assert list(fl.mistake_flags) == list(ex.mistake_flags)
        assert fl.weights == tuple(float(w) for w in ex.weights)              # sums of integers: exact
        assert np.allclose(fl.extras["margins"], [float(m) for m in ms], rtol=1e-9, atol=1e-12)
        assert np.allclose(fl.extras["B"], [[float(b) for b in r] for r in ex.extras["B"]], rtol=1e-9, atol=1e-12)
        assert np.allclose(fl.extras["q"], [float(q) for q in ex.extras["q"]], rtol=1e-9, atol=1e-12)
    assert compared >= 30, compared


@pytest.mark.parametrize("seed", range(12))
def test_the_proved_bound_holds_on_random_runs(seed):
    """Every link of the chain, decided in rationals (the logarithm in a certified enclosure), for
    random data, a random u and a random gamma -- also when u does not separate the data."""
    rng = np.random.default_rng(100 + seed)
    n, d = int(rng.integers(4, 25)), int(rng.integers(1, 5))
    X = rng.integers(-4, 5, size=(n, d)).tolist()
    u = [Fraction(int(c), 3) for c in rng.integers(-3, 4, size=d)]
    y = [1 if sum(c * x for c, x in zip(u, r)) + Fraction(int(rng.integers(-2, 3)), 4) >= 0 else -1 for r in X]
    a = Fraction(int(rng.integers(1, 9)), int(rng.integers(1, 5)))
    gamma = Fraction(int(rng.integers(1, 7)), 3)
    tr = run_second_order_perceptron(X, y, a=a, epochs=2)
    t = bound_terms(tr, X, y, u, gamma)
    chk = check_bound(t)
    assert chk["links"] == {"margin": True, "cauchy_schwarz": True, "potential": True, "log": True}
    assert chk["bound"] is True
    # the float evaluation of the same bound agrees
    lhs = t["M"] * t["gamma"] - t["D"]
    rhs = math.sqrt(float(t["u_A_u"]) * sum(math.log1p(float(q)) for q in tr.extras["q"]))
    assert float(lhs) <= rhs + 1e-9


def test_bound_terms_follow_the_mistakes_over_epochs():
    X = [[1, 0], [0, 1], [1, 1], [-1, 2]]
    y = [1, -1, 1, 1]
    tr = run_second_order_perceptron(X, y, a=1, epochs=3)
    t = bound_terms(tr, X, y, [1, 0], Fraction(1, 2))
    assert t["M"] == tr.mistakes == len(tr.extras["q"]) and tr.mistakes >= 2
    idx = tr.mistake_indices()
    assert t["u_A_u"] == 1 + sum(X[i][0] ** 2 for i in idx)
    assert t["D"] == sum(max(Fraction(0), Fraction(1, 2) - y[i] * X[i][0]) for i in idx)


@pytest.mark.parametrize("d,a", [(1, Fraction(1)), (4, Fraction(1, 3)), (9, Fraction(50))])
def test_the_orthonormal_run_errs_on_every_example(d, a):
    X = [[int(i == j) for j in range(d)] for i in range(d)]
    for exact in (True, False):
        tr = run_second_order_perceptron(X, [1] * d, a=a if exact else float(a), exact=exact)
        assert tr.mistakes == d and all(m == 0 for m in tr.extras["margins"])
        assert [float(q) for q in tr.extras["q"]] == pytest.approx([1 / float(a)] * d)
    assert run_second_order_perceptron(X, [1] * d, a=a).extras["q"] == [1 / a] * d


def test_record_modes_and_bad_input():
    X, y = [[1, 0], [0, 1], [1, 0]], [1, 1, 1]
    tr = run_second_order_perceptron(X, y, record="mistakes")
    assert [s.t for s in tr.steps] == [0, 1] and tr.mistakes == 2
    assert run_second_order_perceptron(X, y, record="none").steps == []
    for bad in (0, -1, "-1/2"):
        with pytest.raises(InputError, match="a must be > 0"):
            run_second_order_perceptron(X, y, a=bad)
    with pytest.raises(InputError, match="labels must be"):
        run_second_order_perceptron(X, [1, 0, 1])
    with pytest.raises(InputError, match="exact run"):
        bound_terms(run_second_order_perceptron(X, y, exact=False), X, y, [1, 0], 1)
    with pytest.raises(InputError, match="gamma"):
        bound_terms(tr, X, y, [1, 0], 0)
    with pytest.raises(InputError, match="overflow"):
        run_second_order_perceptron([[1e200, 1e200], [1e200, -1e200]], [1, 1], exact=False)


def det(M):
    """The determinant over Fractions by elimination."""
    M = [list(r) for r in M]
    d, out = len(M), Fraction(1)
    for c in range(d):
        p = next((r for r in range(c, d) if M[r][c] != 0), None)
        if p is None:
            return Fraction(0)
        if p != c:
            M[c], M[p] = M[p], M[c]
            out = -out
        out *= M[c][c]
        for r in range(c + 1, d):
            f = M[r][c] / M[c][c]
            M[r] = [v - f * w for v, w in zip(M[r], M[c])]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_papers_determinant_form_on_runs(seed):
    """prod_k (1 + q_k) = det(A_M) / a^d (the matrix determinant lemma, which turns the proved
    bound into the paper's): checked exactly on runs, not proved."""
    rng = np.random.default_rng(200 + seed)
    n, d = int(rng.integers(3, 15)), int(rng.integers(1, 5))
    X = rng.integers(-3, 4, size=(n, d)).tolist()
    y = rng.choice([-1, 1], size=n).tolist()
    a = Fraction(int(rng.integers(1, 6)), int(rng.integers(1, 4)))
    tr = run_second_order_perceptron(X, y, a=a)
    A = [[a * int(i == j) for j in range(d)] for i in range(d)]
    for i in tr.mistake_indices():
        A = [[A[r][c] + X[i][r] * X[i][c] for c in range(d)] for r in range(d)]
    prod = Fraction(1)
    for q in tr.extras["q"]:
        prod *= 1 + q
    assert tr.mistakes >= 1 and prod == det(A) / a ** d
