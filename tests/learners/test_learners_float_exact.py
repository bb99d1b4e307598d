"""Exact mode vs float mode, the fast float path vs the default one, and "inputs are never
modified" -- hypothesis property tests (derandomized by tests/conftest.py).

* On integer data every float operation of the perceptron is exact (while the values stay below
  2**53), so exact mode and float mode must agree *exactly*: same mistake flags, activations,
  weights and bias at every step -- whichever exact engine runs (float64-exact on integer-valued
  float arrays, int64 on integer arrays or scaled rationals, Python integers when int64 could
  overflow).
* The fast path may reorder each dot product (SIMD, FMA).  Both sums of a step differ from the
  true dot product by at most gamma_d * sum_j |w_j x_j| (gamma_d = d u / (1 - d u), u = 2**-53), so
  while no activation is that close to 0 the two paths take the same decisions -- and then the
  weights are *bitwise* the same (the updates w += y x are element-wise, no sum).
* No learner, estimator or check writes to the caller's data.
"""
from __future__ import annotations

import copy
import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from learners import (AveragedPerceptron, KernelPerceptron, Perceptron, VotedPerceptron, Winnow, run_kernel_perceptron,
                      run_perceptron, run_winnow)
from learners.perceptron import ArraySeq
from learners.validation import check_int_matrix, check_matrix

U = 2.0 ** -53


def _naive_exact(X, y, epochs, bias, w0=None, b0=0):
    """Reference: the perceptron on Fractions, written as plainly as possible."""
    d = len(X[0])
    w = [Fraction(v) for v in (w0 or [0] * d)]
    b = Fraction(b0)
    flags, acts = [], []
    for _ in range(epochs):
        for x, yi in zip(X, y):
            a = sum((wj * Fraction(xj) for wj, xj in zip(w, x)), Fraction(0)) + (b if bias else 0)
            acts.append(a)
            m = yi * a <= 0
            flags.append(m)
            if m:
                w = [wj + yi * Fraction(xj) for wj, xj in zip(w, x)]
                if bias:
                    b += yi
    return w, (b if bias else None), flags, acts


@st.composite
def int_data(draw, max_n=25, max_d=6, lo=-4, hi=4):
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(hnp.arrays(np.int64, (n, d), elements=st.integers(lo, hi)))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    return X, y


# ---------------------------------------------------------------------------------------------
@settings(max_examples=80)
@given(data=int_data(), epochs=st.integers(1, 4), bias=st.booleans(), shuffle=st.booleans(),
       form=st.sampled_from(["float-array", "int-array", "lists"]))
def test_exact_and_float_agree_exactly_on_integer_data(data, epochs, bias, shuffle, form):
    X, y = data
    Xin = {"float-array": X.astype(np.float64), "int-array": X, "lists": X.tolist()}[form]
    kw = dict(epochs=epochs, bias=bias, shuffle=shuffle, seed=7 if shuffle else None)
    fl = run_perceptron(X.astype(np.float64), y, **kw)
    ex = run_perceptron(Xin, y.tolist() if form == "lists" else y, exact=True, **kw)
    assert ex.exact and not fl.exact
    assert ex.params["exact_engine"] == {"float-array": "float64-exact", "int-array": "int64",
                                         "lists": "int64"}[form]
    assert ex.mistake_flags == fl.mistake_flags
    assert list(ex.order) == list(fl.order)
    assert ex.mistakes == fl.mistakes
    assert all(isinstance(v, Fraction) for v in ex.weights)
    assert [float(v) for v in ex.weights] == list(fl.weights)
    assert all(v.denominator == 1 for v in ex.weights)
    if bias:
        assert float(ex.bias) == fl.bias and isinstance(ex.bias, Fraction)
    for se, sf in zip(ex.steps, fl.steps):
        assert float(se.activation) == sf.activation and se.mistake == sf.mistake
        assert [float(v) for v in se.weights] == list(sf.weights)
        assert float(se.w_norm_sq) == sf.w_norm_sq
    # and both are the plain rational perceptron
    if not shuffle:
        w, b, flags, acts = _naive_exact(X.tolist(), y.tolist(), epochs, bias)
        assert list(ex.weights) == w and ex.mistake_flags == flags
        assert [s.activation for s in ex.steps] == acts
        if bias:
            assert ex.bias == b


@settings(max_examples=40)
@given(data=int_data(max_n=12, max_d=4), epochs=st.integers(1, 3), bias=st.booleans(),
       scale=st.sampled_from([2 ** 30, 3 ** 19, 2 ** 40 + 1]))
def test_python_int_engine_when_int64_could_overflow(data, epochs, bias, scale):
    X, y = data
    big = [[int(v) * scale for v in row] for row in X.tolist()]
    ex = run_perceptron(big, y, epochs=epochs, bias=bias, exact=True)
    w, b, flags, acts = _naive_exact(big, y.tolist(), epochs, bias)
    assert list(ex.weights) == w and ex.mistake_flags == flags
    assert [s.activation for s in ex.steps] == acts
    if np.abs(X).max() > 0 and scale > 2 ** 40:          # products ~ 2**80: int64 cannot hold them
        assert ex.params["exact_engine"] == "python-int"
    assert ex.params["exact_engine"] in ("int64", "python-int")
    # numpy int64 input of the same values: same run (int64 array, bound checked, Python ints)
    ex2 = run_perceptron(np.array(big, dtype=np.int64), y, epochs=epochs, bias=bias, exact=True)
    assert list(ex2.weights) == w and ex2.mistake_flags == flags


@settings(max_examples=40)
@given(data=int_data(max_n=15, max_d=4), epochs=st.integers(1, 3), bias=st.booleans(),
       den=st.sampled_from([2, 4, 8]))
def test_dyadic_rationals_agree_too(data, epochs, bias, den):
    # multiples of 1/2, 1/4, 1/8 with small numerators are exact in float64 as well
    X, y = data
    Xf = X.astype(np.float64) / den
    ex = run_perceptron(Xf, y, epochs=epochs, bias=bias, exact=True)           # general (Fraction) path
    fl = run_perceptron(Xf, y, epochs=epochs, bias=bias)
    assert ex.mistake_flags == fl.mistake_flags
    assert [float(v) for v in ex.weights] == list(fl.weights)
    strs = [[f"{int(v)}/{den}" for v in row] for row in X.tolist()]            # "p/q" strings
    ex2 = run_perceptron(strs, y, epochs=epochs, bias=bias, exact=True)
    assert ex2.weights == ex.weights and ex2.mistake_flags == ex.mistake_flags


@settings(max_examples=30)
@given(data=int_data(max_n=15, max_d=4), bias=st.booleans(), w0=st.lists(st.integers(-3, 3), min_size=4, max_size=4))
def test_initial_weights_agree(data, bias, w0):
    X, y = data
    d = X.shape[1]
    ex = run_perceptron(X.astype(float), y, epochs=2, bias=bias, exact=True, w0=w0[:d], b0=1 if bias else 0)
    fl = run_perceptron(X.astype(float), y, epochs=2, bias=bias, w0=w0[:d], b0=1 if bias else 0)
    assert ex.mistake_flags == fl.mistake_flags and [float(v) for v in ex.weights] == list(fl.weights)
    # a rational w0 takes the common-denominator path and still agrees with the reference
    wq = [Fraction(v, 3) for v in w0[:d]]
    ex3 = run_perceptron(X.astype(float), y, epochs=2, bias=bias, exact=True, w0=wq)
    w, b, flags, _ = _naive_exact(X.tolist(), y.tolist(), 2, bias, w0=wq)
    assert list(ex3.weights) == w and ex3.mistake_flags == flags


def test_check_int_matrix_accepts_only_integers():
    A = np.array([[1.0, -2.0], [3.0, 4.0]])
    B, m = check_int_matrix(A)
    assert m == 4 and not B.flags.writeable and B.dtype == np.float64
    assert check_int_matrix(np.array([[0.5, 1.0]])) is None
    assert check_int_matrix(np.array([[np.nan, 1.0]])) is None
    assert check_int_matrix(np.array([[np.inf, 1.0]])) is None
    assert check_int_matrix(np.array([[2.0 ** 60, 1.0]])) is None
    assert check_int_matrix([[1, 2]]) is None
    C, m = check_int_matrix(np.array([[1, -7]], dtype=np.int8))
    assert m == 7 and C.dtype == np.int64


# ---------------------------------------------------------------------------------------------
@st.composite
def real_data(draw, max_n=30, max_d=40):
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    el = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, allow_subnormal=False)
    X = draw(hnp.arrays(np.float64, (n, d), elements=el))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    return X, y


@settings(max_examples=80)
@given(data=real_data(), epochs=st.integers(1, 3), bias=st.booleans())
def test_fast_path_agrees_with_default_within_rounding(data, epochs, bias):
    X, y = data
    n, d = X.shape
    de = run_perceptron(X, y, epochs=epochs, bias=bias)
    fa = run_perceptron(X, y, epochs=epochs, bias=bias, fast=True)
    gamma = (d + 1) * U / (1 - (d + 1) * U)
    w = np.zeros(d)
    b = 0.0
    agree_to = len(de.steps)
    for t, (sd, sf) in enumerate(zip(de.steps, fa.steps)):
        x = X[sd.index]
        scale = float(np.abs(w * x).sum()) + abs(b)
        # both activations are within gamma * scale of the true one
        assert abs(sd.activation - sf.activation) <= 2 * gamma * scale + 1e-300
        if abs(sd.activation) <= 2 * gamma * scale and scale > 0:
            agree_to = t          # a near-tie: the paths may decide differently from here on
            break
        assert sd.mistake == sf.mistake, t
        w = np.array(sd.weights)
        b = sd.bias or 0.0
    if agree_to == len(de.steps):
        # same decisions everywhere => bitwise the same weights (element-wise updates)
        assert de.mistake_flags == fa.mistake_flags
        assert np.asarray(de.weights).tobytes() == np.asarray(fa.weights).tobytes()
        assert de.bias == fa.bias


def test_fast_path_is_really_a_different_summation():
    # the test above would be vacuous if both paths summed identically: on wide data they do not
    rng = np.random.default_rng(0)
    X = rng.standard_normal((400, 257))
    y = rng.choice([-1, 1], size=400)
    de = run_perceptron(X, y, epochs=2)
    fa = run_perceptron(X, y, epochs=2, fast=True)
    diffs = [abs(a.activation - b.activation) for a, b in zip(de.steps, fa.steps)]
    assert max(diffs) > 0
    assert de.mistake_flags == fa.mistake_flags


@settings(max_examples=30)
@given(data=int_data(), epochs=st.integers(1, 3), bias=st.booleans())
def test_fast_path_is_exact_on_small_integers(data, epochs, bias):
    X, y = data
    de = run_perceptron(X.astype(float), y, epochs=epochs, bias=bias)
    fa = run_perceptron(X.astype(float), y, epochs=epochs, bias=bias, fast=True)
    assert de.mistake_flags == fa.mistake_flags and de.weights == fa.weights
    assert [s.activation for s in de.steps] == [s.activation for s in fa.steps]


# ---------------------------------------------------------------------------------------------
def _snapshot(v):
    if isinstance(v, np.ndarray):
        return (v.copy(), v.flags.writeable, v.dtype)
    return copy.deepcopy(v)


def _same(a, b):
    if isinstance(a, tuple) and len(a) == 3 and isinstance(a[0], np.ndarray):
        return np.array_equal(a[0], b[0], equal_nan=True) and a[1] == b[1] and a[2] == b[2]
    return a == b


@settings(max_examples=40)
@given(data=int_data(max_n=12, max_d=4), form=st.sampled_from(["float", "int", "list", "fraction", "f-order"]),
       bias=st.booleans())
def test_inputs_never_modified(data, form, bias):
    X, y = data
    if form == "float":
        Xin = X.astype(np.float64)
    elif form == "int":
        Xin = X.copy()
    elif form == "list":
        Xin = X.tolist()
    elif form == "fraction":
        Xin = [[Fraction(int(v), 3) for v in row] for row in X.tolist()]
    else:
        Xin = np.asfortranarray(X.astype(np.float64))
    yin = y.copy() if form != "list" else y.tolist()
    w0 = [1] * X.shape[1]
    target = [Fraction(1, 2)] * X.shape[1]
    before = [_snapshot(v) for v in (Xin, yin, w0, target)]

    run_perceptron(Xin, yin, epochs=2, bias=bias, w0=w0, target=target)
    run_perceptron(Xin, yin, epochs=2, bias=bias, w0=w0, target=target, exact=True)
    run_perceptron(Xin, yin, epochs=2, bias=bias, fast=True, record="mistakes")
    run_perceptron(Xin, yin, bias=bias, normalize=True, shuffle=True, seed=3)
    run_kernel_perceptron(Xin, yin, "poly:c=1,k=2", epochs=2, bias=bias)
    run_kernel_perceptron(Xin, yin, lambda a, b: sum(p * q for p, q in zip(a, b)), epochs=1)
    if len(set(np.asarray(yin).tolist())) == 2:
        for est in (Perceptron(bias=bias), Perceptron(fast=True), Perceptron(exact=True), AveragedPerceptron(),
                    VotedPerceptron(), KernelPerceptron(), AveragedPerceptron(exact=True)):
            est.fit(Xin, yin)
            est.predict(Xin)
            est.decision_function(Xin)
        p = Perceptron()
        p.partial_fit(Xin, yin, classes=[-1, 1])
        p.partial_fit(Xin, yin)
    check_matrix(Xin, exact=form in ("fraction",))
    after = [_snapshot(v) for v in (Xin, yin, w0, target)]
    assert all(_same(a, b) for a, b in zip(before, after))


def test_winnow_inputs_never_modified():
    X = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
    y = np.array([1, 0, 1, 0])
    X0, y0 = X.copy(), y.copy()
    run_winnow(X, y, epochs=2)
    run_winnow(X.tolist(), y.tolist(), variant="winnow2", alpha=3)
    Winnow(epochs=2).fit(X, y).predict(X)
    assert np.array_equal(X, X0) and np.array_equal(y, y0) and X.flags.writeable


def test_float_check_returns_read_only_view_and_never_writes():
    X = np.arange(12, dtype=np.float64).reshape(4, 3)
    A = check_matrix(X)
    assert not A.flags.writeable and X.flags.writeable
    assert np.shares_memory(A, X)                         # no O(n d) copy for C-contiguous float64
    with pytest.raises(ValueError):
        A[0, 0] = 1.0
    F = np.asfortranarray(X)
    B = check_matrix(F)
    assert not np.shares_memory(B, F) and B.flags.c_contiguous
    L = check_matrix(X.tolist())
    assert not L.flags.writeable and np.array_equal(L, X)


# ---------------------------------------------------------------------------------------------
def test_trace_order_and_flags_behave_like_lists():
    tr = run_perceptron(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), [1, -1, 1], epochs=2, record="none")
    assert isinstance(tr.order, ArraySeq) and isinstance(tr.mistake_flags, ArraySeq)
    assert tr.order == [0, 1, 2, 0, 1, 2] and [0, 1, 2, 0, 1, 2] == tr.order
    assert tr.order != [0, 1, 2] and tr.order != [0, 1, 2, 0, 1, 3]
    assert type(tr.order[0]) is int and type(tr.mistake_flags[0]) is bool
    assert tr.mistake_flags[0] is True
    assert tr.order[:3] == [0, 1, 2] and len(tr.order) == 6 and tr.order[-1] == 2
    assert list(tr.mistake_flags) == tr.mistake_flags.tolist()
    assert tr.mistake_indices() == [i for i, m in zip(tr.order, tr.mistake_flags) if m]
    assert tr.mistakes == sum(tr.mistake_flags)
    tr2 = pickle.loads(pickle.dumps(tr))
    assert tr2.order == tr.order and tr2.mistake_flags == tr.mistake_flags
    assert np.asarray(tr.order).dtype == np.int64
