"""The kernel perceptron's blocked float path (learners.kernel_fast) against the exact reference.

* On integer data every float operation of the linear and polynomial kernels is exact (values far
  below 2**53), in any order: the blocked run must equal the rational run exactly -- mistakes,
  alphas, activations, potentials, predictions -- dense, CSR and precomputed, for any block size.
* The Gaussian kernel has no rational form: the reference is the rational run on kernel values
  computed to 200 bits (mpmath); whenever no activation of the float run is near 0 the decisions
  must be the same.
* fexp, the vectorised exp, is within 1 ulp of the true value (mpmath).
"""
from __future__ import annotations

import tracemalloc
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import assume, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import learners.kernel_fast as KF
from learners import InputError, KernelPerceptron, run_kernel_perceptron
from learners._kernel_loops import fexp_array


@st.composite
def int_data(draw, max_n=24, max_d=5):
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(hnp.arrays(np.int64, (n, d), elements=st.integers(-3, 3)))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    return X, y


def _as(X, form):
    return {"dense": X.astype(np.float64), "csr": sp.csr_matrix(X.astype(np.float64)),
            "csc-int": sp.csc_matrix(X)}[form]


def _assert_same_run(fl, ex):
    assert fl.params["engine"] == "blocked" and ex.params["engine"] == "exact"
    assert fl.mistake_flags == ex.mistake_flags and list(fl.order) == list(ex.order)
    assert fl.mistakes == ex.mistakes
    assert list(fl.weights) == [float(v) for v in ex.weights]
    assert fl.bias == (None if ex.bias is None else float(ex.bias))
    assert len(fl.steps) == len(ex.steps)
    for a, b in zip(fl.steps, ex.steps):
        assert (a.t, a.index, a.mistake, a.prediction) == (b.t, b.index, b.mistake, b.prediction)
        assert a.activation == float(b.activation)
        assert list(a.weights) == [float(v) for v in b.weights]
        assert a.w_norm_sq == float(b.w_norm_sq)
        assert (a.w_dot_target is None) == (b.w_dot_target is None)
        if a.w_dot_target is not None:
            assert a.w_dot_target == float(b.w_dot_target)


@settings(max_examples=60, deadline=None)
@given(data=int_data(), kernel=st.sampled_from(["linear", "poly:c=1,k=2", "poly:c=0,k=3", "poly:c=2,k=1"]),
       epochs=st.integers(1, 3), bias=st.booleans(), blum=st.booleans(), shuffle=st.booleans(),
       block=st.sampled_from([1, 3, 8, 256]), form=st.sampled_from(["dense", "csr", "csc-int"]),
       record=st.sampled_from(["all", "mistakes"]), target=st.booleans())
def test_blocked_equals_exact_reference_on_integer_data(data, kernel, epochs, bias, blum, shuffle, block, form,
                                                        record, target):
    X, y = data
    if blum and not (y == 1).any():
        y[0] = 1
    kw = dict(epochs=epochs, bias=bias, blum_start=blum, shuffle=shuffle, seed=5 if shuffle else None,
              record=record, target_alpha=list(y) if target else None)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(KF, "BLOCK", block)                 # block boundaries anywhere
        fl = run_kernel_perceptron(_as(X, form), y, kernel, **kw)
    ex = run_kernel_perceptron(X.tolist(), y.tolist(), kernel, exact=True, **kw)
    _assert_same_run(fl, ex)
    # prediction from the support vectors = the rational decision values
    if len(set(y.tolist())) < 2:
        return
    est = KernelPerceptron(kernel, epochs=epochs, bias=bias, blum_start=blum, shuffle=shuffle,
                           seed=5 if shuffle else None).fit(_as(X, form), y)
    ref = KernelPerceptron(kernel, epochs=epochs, bias=bias, blum_start=blum, shuffle=shuffle,
                           seed=5 if shuffle else None, exact=True).fit(X, y)
    assert list(est.decision_function(_as(X, form))) == [float(v) for v in ref.decision_function(X)]
    assert np.array_equal(est.predict(X.astype(float)), ref.predict(X))


@settings(max_examples=30, deadline=None)
@given(data=int_data(max_n=16), epochs=st.integers(1, 3), bias=st.booleans(), exact=st.booleans())
def test_precomputed_gram_is_the_same_run(data, epochs, bias, exact):
    X, y = data
    G = (X @ X.T + 1) ** 2                            # the poly:c=1,k=2 kernel matrix
    a = run_kernel_perceptron(G if not exact else G.tolist(), y, "precomputed", epochs=epochs, bias=bias,
                              exact=exact)
    b = run_kernel_perceptron(X.tolist(), y.tolist(), "poly:c=1,k=2", epochs=epochs, bias=bias, exact=True)
    assert a.mistake_flags == b.mistake_flags
    assert [Fraction(v) for v in a.weights] == list(b.weights)
    assert [Fraction(s.activation) for s in a.steps] == [s.activation for s in b.steps]
    if len(set(y.tolist())) < 2:
        return
    est = KernelPerceptron("precomputed", epochs=epochs, bias=bias, exact=exact).fit(G, y)
    ref = KernelPerceptron("poly:c=1,k=2", epochs=epochs, bias=bias, exact=True).fit(X, y)
    Xt = X[::-1][:5]
    Gt = (Xt @ X.T + 1) ** 2                          # K(test, train)
    assert [Fraction(v) for v in est.decision_function(Gt)] == list(ref.decision_function(Xt))


def _mp_gaussian(c):
    def k(a, b):
        d2 = sum((Fraction(p) - Fraction(q)) ** 2 for p, q in zip(a, b))
        with mpmath.workprec(200):      # scoped: other tests rely on mpmath's global precision
            v = mpmath.exp(-mpmath.mpf(c.numerator) / c.denominator * mpmath.mpf(d2.numerator) / d2.denominator)
            m, e = mpmath.frexp(v)
            return Fraction(int(mpmath.ldexp(m, 200))) * Fraction(2) ** (int(e) - 200)
    return k


@settings(max_examples=25, deadline=None)
@given(data=int_data(max_n=12, max_d=3), c=st.sampled_from([Fraction(1, 2), Fraction(1, 8), Fraction(1, 3)]),
       epochs=st.integers(1, 2), bias=st.booleans(), form=st.sampled_from(["dense", "csr"]))
def test_gaussian_decisions_equal_the_high_precision_run(data, c, epochs, bias, form):
    X, y = data
    ref = run_kernel_perceptron(X.tolist(), y.tolist(), _mp_gaussian(c), epochs=epochs, bias=bias, exact=True)
    # no near tie in the reference (an activation is exactly 0 only before the first update)
    seen = False
    for s in ref.steps:
        assume(abs(s.activation) > Fraction(1, 10 ** 9) or (s.activation == 0 and not seen))
        seen = seen or s.mistake
    fl = run_kernel_perceptron(_as(X, form), y, f"gaussian:c={c}", epochs=epochs, bias=bias)
    assert fl.mistake_flags == ref.mistake_flags
    assert list(fl.weights) == [float(v) for v in ref.weights]
    for a, b in zip(fl.steps, ref.steps):
        assert abs(a.activation - float(b.activation)) <= 1e-12 * (1 + abs(float(b.activation)))


def test_fexp_is_within_one_ulp():
    rng = np.random.default_rng(0)
    x = np.concatenate([-rng.random(3000) * 746.0, -rng.random(2000) * 2.0, -rng.random(500) * 1e-8,
                        [0.0, -0.5, -708.4, -744.4, -745.1, -745.2, -800.0, -1e-300, -np.log(2) / 2]])
    out = np.empty_like(x)
    fexp_array(x, out)
    assert out[x == 0.0][0] == 1.0
    worst = 0.0
    with mpmath.workprec(120):          # scoped: other tests rely on mpmath's global precision
        for xi, oi in zip(x.tolist(), out.tolist()):
            t = mpmath.exp(mpmath.mpf(xi))
            ulp = float(np.spacing(np.float64(float(t)))) if float(t) > 0 else 5e-324
            worst = max(worst, float(abs(mpmath.mpf(oi) - t) / ulp))
    assert worst <= 1.0, worst


def test_fit_memory_is_far_below_the_gram_matrix():
    rng = np.random.default_rng(1)
    n, d = 3000, 20
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1, -1)
    run_kernel_perceptron(X[:50], y[:50], "gaussian:c=1/20", record="none")       # compile outside
    tracemalloc.start()
    try:
        tr = run_kernel_perceptron(X, y, "gaussian:c=1/20", record="none")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert tr.mistakes > 100
    assert peak < 0.25 * n * n * 8, peak        # a Gram matrix alone would be n * n * 8 bytes


def test_kernel_errors_are_one_line():
    with pytest.raises(InputError, match="square n x n"):
        run_kernel_perceptron(np.ones((3, 2)), [1, -1, 1], "precomputed")
    with pytest.raises(InputError, match="overflow"):
        run_kernel_perceptron(np.full((3, 2), 1e200), [1, -1, 1], "poly:c=1,k=3", epochs=2)
    X = np.ones((3, 2))
    X[1, 1] = np.nan
    with pytest.raises(InputError, match=r"X\[1\]\[1\] is nan"):
        run_kernel_perceptron(sp.csr_matrix(X), [1, -1, 1], "gaussian:c=1")
    with pytest.raises(InputError, match="function"):
        from learners.kernels import parse_kernel
        parse_kernel("precomputed")([1], [2])


def test_sparse_input_is_not_modified():
    X = sp.csr_matrix(np.array([[0, 2, 0], [1, 0, 3], [0, 0, 1]], dtype=float))
    X.indices = X.indices[::-1].copy()             # unsorted indices: a non-canonical matrix
    X.has_sorted_indices = False
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    a = run_kernel_perceptron(X, [1, -1, 1], "poly:c=1,k=2", epochs=2)
    b = run_kernel_perceptron(X.toarray(), [1, -1, 1], "poly:c=1,k=2", epochs=2)
    assert a.mistake_flags == b.mistake_flags and a.weights == b.weights
    assert all(np.array_equal(p, q) for p, q in zip(before, (X.data, X.indices, X.indptr)))


@pytest.mark.parametrize("M,spec", [(3, "gaussian:c=1/512"), (3, "poly:c=1,k=2"), (400, "linear"), (7, "gaussian:c=1/8")])
def test_float32_products_on_small_integers_are_the_float64_run_bitwise(M, spec, monkeypatch):
    # d max|x|^2 <= 2**24: every product is an integer float32 holds exactly, so the fast path is
    # the float64 path, bit for bit
    rng = np.random.default_rng(M)
    X = rng.integers(-M, M + 1, size=(2700, 100)).astype(np.float64)
    y = np.where(X @ rng.standard_normal(100) > 0, 1, -1)
    from learners.kernels import parse_kernel
    K = parse_kernel(spec)
    assert KF._exact_float32(X) is not None
    fast = KF.fit_blocked(X, y, np.arange(len(X)), K, bias=True, strict=False)
    monkeypatch.setattr(KF, "_F32_MIN_WORK", 1 << 62)
    assert KF._exact_float32(X) is None
    slow = KF.fit_blocked(X, y, np.arange(len(X)), K, bias=True, strict=False)
    assert fast["mis"].sum() > 100
    for k in ("act", "sval", "alpha", "mis", "sv"):
        assert np.array_equal(fast[k], slow[k]), k


def test_float32_products_only_where_exact():
    rng = np.random.default_rng(1)
    X = rng.integers(-3, 4, size=(2700, 100)).astype(np.float64)
    assert KF._exact_float32(X) is not None
    assert KF._exact_float32(X * 410) is None                     # d max|x|^2 = 100 * 1230^2 > 2**24
    assert KF._exact_float32(X + 0.5) is None                     # not integers
    assert KF._exact_float32(X[:100]) is None                     # too small to gain


@pytest.mark.parametrize("form,spec", [("float", "gaussian:c=1/7"), ("float", "poly:c=1,k=3"),
                                       ("int", "gaussian:c=1/512"), ("int", "linear"), ("csr", "gaussian:c=1/3")])
@pytest.mark.parametrize("block", [40, 128])
def test_two_threads_give_the_one_thread_run_bitwise(form, spec, block, monkeypatch):
    # the block's columns are scored in two fixed pieces whatever the thread count: the second
    # thread changes who computes a piece, never a sum's order
    rng = np.random.default_rng(block)
    X = rng.integers(-3, 4, size=(3000, 100)).astype(np.float64)
    if form == "float":
        X = X * rng.random((3000, 100)) / 3
    y = np.where(X @ rng.standard_normal(100) + 0.5 * rng.standard_normal(3000) > 0, 1, -1)
    if form == "csr":
        X = sp.csr_matrix(np.where(rng.random(X.shape) < 0.2, X, 0.0))
    from learners.kernels import parse_kernel
    K = parse_kernel(spec)
    if form != "csr":
        assert (KF._exact_float32(X) is not None) == (form == "int")      # both product paths
    one = KF.fit_blocked(X, y, np.arange(X.shape[0]), K, bias=True, strict=False, block=block, threads=1)
    import threading
    where = set()

    def on_the_worker(pool, piece, h, B):         # the second piece always on the worker thread
        other = pool.submit(lambda: (where.add(threading.get_ident()), piece(h, B))[1])
        return piece(0, h), other.result()
    monkeypatch.setattr(KF, "_two_pieces", on_the_worker)
    two = KF.fit_blocked(X, y, np.arange(X.shape[0]), K, bias=True, strict=False, block=block, threads=2)
    if form != "csr":                             # (CSR blocks are scored in one piece)
        assert where and threading.get_ident() not in where
    assert one["mis"].sum() > 50
    for k in ("act", "sval", "alpha", "mis", "sv"):
        assert one[k].tobytes() == two[k].tobytes(), k
    assert one["b"] == two["b"]


@pytest.mark.parametrize("c", ["1/512", "1/7", "0.3"])
def test_gaussian_table_gives_the_direct_form_bitwise(c, monkeypatch):
    # integer data: each squared distance is an exact integer, and table[D] = fexp(-c D) is the
    # value the direct form computes
    rng = np.random.default_rng(11)
    X = rng.integers(-3, 4, size=(3000, 100)).astype(np.float64)
    y = np.where(X @ rng.standard_normal(100) + 2 * rng.standard_normal(3000) > 0, 1, -1)
    from learners.kernels import parse_kernel
    K = parse_kernel(f"gaussian:c={c}")
    kind, cc, _ = KF.kernel_code(K)
    rows = KF._Rows(X, kind)
    assert KF._gaussian_table(rows, KF._sq(X, kind), kind, cc) is not None
    calls = []
    real = KF.KL.gaussian_scores_table
    monkeypatch.setattr(KF.KL, "gaussian_scores_table", lambda *a: (calls.append(1), real(*a)))
    table = KF.fit_blocked(X, y, np.arange(len(X)), K, bias=True, strict=False)
    assert calls
    monkeypatch.setattr(KF, "TABLE_MAX", 0)
    direct = KF.fit_blocked(X, y, np.arange(len(X)), K, bias=True, strict=False)
    assert table["mis"].sum() > 100
    for k in ("act", "sval", "alpha", "mis", "sv"):
        assert table[k].tobytes() == direct[k].tobytes(), k


def test_the_second_piece_is_taken_by_whichever_thread_comes_first():
    from concurrent.futures import ThreadPoolExecutor
    import threading
    started = threading.Event()
    ran = []

    def piece(lo, hi):
        ran.append((lo, threading.get_ident()))
        if lo == 0:
            started.wait(30)        # the worker picks the second piece up while the first runs
        else:
            started.set()
        return lo
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert KF._two_pieces(pool, piece, 5, 10) == (0, 5)
        who = dict(ran)
        assert sorted(who) == [0, 5] and who[0] == threading.get_ident() != who[5]
        ran.clear()
        block = threading.Event()
        pool.submit(block.wait, 30)                  # the worker is busy: this thread does both
        started.clear()
        assert KF._two_pieces(pool, lambda lo, hi: ran.append((lo, threading.get_ident())) or lo, 5, 10) == (0, 5)
        block.set()
        assert [t for _, t in ran] == [threading.get_ident()] * 2
