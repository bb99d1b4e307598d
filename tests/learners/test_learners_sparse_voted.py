"""scipy.sparse input gives the dense results, and the voted / averaged perceptrons' fast paths
give the reference's.

* The perceptron on CSR rows sums each dot product over the stored entries in index order: the
  dense run *bitwise* (float default path; fast=True too on integer data, where every order is
  exact), the same rational run in exact mode -- also for
  unsorted indices, duplicates, stored zeros, other formats and integer dtypes, without touching
  the caller's matrix.
* VotedPerceptron predicts with one (points x d) by (d x votes) product and a compiled
  sign-and-count reduction; on integer data that is exactly the reference's vote, written here
  as plainly as possible.  AveragedPerceptron keeps its averaged weights: one product.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from learners import AveragedPerceptron, InputError, Perceptron, VotedPerceptron, run_perceptron, voted_weights


@st.composite
def int_data(draw, max_n=30, max_d=6, min_n=2):
    n = draw(st.integers(min_n, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(hnp.arrays(np.int64, (n, d), elements=st.sampled_from([0, 0, 0, 1, -1, 2, -3])))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    y[0], y[-1] = -1, 1
    return X, y


def _messy_csr(X):
    """The same matrix as a CSR with unsorted indices, a duplicate entry and a stored zero."""
    A = sp.coo_matrix(X.astype(np.float64))
    r, c, v = list(A.row), list(A.col), list(A.data)
    if len(v):
        r.append(r[0])
        c.append(c[0])
        v[0] -= 1.0
        v.append(1.0)                       # a duplicate: the two entries add up to the value
    r.append(0)
    c.append(X.shape[1] - 1 if X[0, -1] == 0 else 0)
    v.append(0.0)                           # a stored zero (or + 0 to an entry)
    M = sp.csr_matrix((v[::-1], (r[::-1], c[::-1])), shape=X.shape)
    M.indices = M.indices.copy()
    return M


SPARSE_FORMS = {
    "csr": lambda X: sp.csr_matrix(X.astype(np.float64)),
    "csr-int": lambda X: sp.csr_matrix(X),
    "csc": lambda X: sp.csc_matrix(X.astype(np.float64)),
    "coo-array": lambda X: sp.coo_array(X.astype(np.float64)),
    "messy": _messy_csr,
}


@settings(max_examples=60, deadline=None)
@given(data=int_data(), form=st.sampled_from(sorted(SPARSE_FORMS)), epochs=st.integers(1, 3), bias=st.booleans(),
       fast=st.booleans(), normalize=st.booleans(), record=st.sampled_from(["all", "none"]))
def test_perceptron_on_sparse_rows_is_the_dense_run(data, form, epochs, bias, fast, normalize, record):
    X, y = data
    normalize = normalize and not fast     # fast=True may round differently on non-integer data
    S = SPARSE_FORMS[form](X)
    before = S.copy()
    kw = dict(epochs=epochs, bias=bias, normalize=normalize, record=record)
    a = run_perceptron(S, y, fast=fast, **kw)
    b = run_perceptron(X.astype(np.float64), y, fast=fast, **kw)
    assert a.mistake_flags == b.mistake_flags
    assert np.asarray(a.weights).tobytes() == np.asarray(b.weights).tobytes()      # bitwise
    assert a.bias == b.bias
    assert [s.activation for s in a.steps] == [s.activation for s in b.steps]
    assert [s.weights for s in a.steps] == [s.weights for s in b.steps]
    if not normalize:
        e = run_perceptron(S, y, exact=True, **kw)
        r = run_perceptron(X.tolist(), y.tolist(), exact=True, **kw)
        assert e.mistake_flags == r.mistake_flags and e.weights == r.weights and e.bias == r.bias
        assert [s.activation for s in e.steps] == [s.activation for s in r.steps]
    assert (S != before).nnz == 0 and S.format == before.format           # never modified


@settings(max_examples=40, deadline=None)
@given(data=int_data(), form=st.sampled_from(["dense", "csr"]), epochs=st.integers(1, 3), bias=st.booleans())
def test_voted_prediction_is_the_plain_vote(data, form, epochs, bias):
    X, y = data
    Xin = X.astype(np.float64) if form == "dense" else sp.csr_matrix(X.astype(np.float64))
    est = VotedPerceptron(epochs=epochs, bias=bias).fit(Xin, y)
    ref = VotedPerceptron(epochs=epochs, bias=bias, exact=True).fit(X, y)
    # the votes: the same vectors and counts as the rational run
    assert [(tuple(Fraction(v) for v in w), None if b is None else Fraction(b), c) for w, b, c in est.votes_] == \
        [(tuple(w), b, c) for w, b, c in ref.votes_]
    Xt = np.vstack([X, -X, X[::-1] + 1])
    want = []
    for x in Xt.tolist():                          # Freund & Schapire's vote, written plainly
        s = 0
        for w, b, c in ref.votes_:
            a = sum(wi * xi for wi, xi in zip(w, x)) + (b or 0)
            s += c * (1 if a > 0 else -1)
        want.append(s)
    Xq = Xt.astype(np.float64) if form == "dense" else sp.csr_matrix(Xt.astype(np.float64))
    assert est.decision_function(Xq).tolist() == [float(v) for v in want]
    assert list(ref.decision_function(Xt)) == want


def test_voted_votes_carry_over_partial_fit():
    rng = np.random.default_rng(3)
    X = rng.integers(-2, 3, size=(60, 4)).astype(float)
    y = rng.choice([-1, 1], size=60)
    a = VotedPerceptron()
    for k in range(0, 60, 15):
        a.partial_fit(X[k:k + 15], y[k:k + 15], classes=[-1, 1])
    b = VotedPerceptron(exact=True)
    for k in range(0, 60, 15):
        b.partial_fit(X[k:k + 15].astype(int), y[k:k + 15], classes=[-1, 1])
    assert [(tuple(map(Fraction, w)), Fraction(bb), c) for w, bb, c in a.votes_] == \
        [(tuple(w), bb, c) for w, bb, c in b.votes_]
    assert sum(c for _, _, c in a.votes_) == 60
    assert a.decision_function(X).tolist() == [float(v) for v in b.decision_function(X.astype(int))]


def test_voted_weights_float_matches_exact():
    rng = np.random.default_rng(4)
    X = rng.integers(-3, 4, size=(80, 5))
    y = rng.choice([-1, 1], size=80)
    f = voted_weights(run_perceptron(X.astype(float), y, bias=True, epochs=2))
    e = voted_weights(run_perceptron(X, y, bias=True, epochs=2, exact=True))
    assert [(tuple(map(Fraction, w)), Fraction(b), c) for w, b, c in f] == e


@pytest.mark.parametrize("est", [Perceptron(bias=True), AveragedPerceptron(bias=True, epochs=2),
                                 Perceptron(exact=True), AveragedPerceptron(exact=True)])
def test_estimators_on_sparse_equal_dense(est):
    rng = np.random.default_rng(5)
    X = rng.integers(-2, 3, size=(120, 8)) * (rng.random((120, 8)) < 0.3)
    y = np.where(X[:, 0] - X[:, 3] + rng.integers(-1, 2, size=120) > 0, "p", "n")
    from sklearn.base import clone
    d = clone(est).fit(X.astype(float), y)
    s = clone(est).fit(sp.csr_matrix(X.astype(float)), y)
    assert np.asarray(s.coef_, dtype=object).tolist() == np.asarray(d.coef_, dtype=object).tolist()
    assert np.array_equal(s.predict(sp.csr_matrix(X)), d.predict(X))
    fs, fd = s.decision_function(sp.csr_matrix(X)), d.decision_function(X)
    if est.exact:
        assert list(fs) == list(fd)
    else:                                      # one BLAS / one sparse product: equal to rounding
        np.testing.assert_allclose(np.asarray(fs, float), np.asarray(fd, float), rtol=1e-12, atol=1e-12)


def test_averaged_prediction_nan_is_found_through_the_product():
    X = np.array([[1.0, 2.0], [-1.0, 0.5], [2.0, -1.0]])
    est = AveragedPerceptron(bias=True).fit(X, [1, -1, 1])
    Xt = X.copy()
    Xt[2, 1] = np.nan
    with pytest.raises(InputError, match=r"X\[2\]\[1\] is nan"):
        est.decision_function(Xt)
    with pytest.raises(InputError, match="NaN"):
        Perceptron().fit(sp.csr_matrix(Xt), [1, -1, 1])


@pytest.mark.parametrize("bias", [True, False])
def test_voted_decision_without_numba_is_the_compiled_one(bias, monkeypatch):
    # before numba is loaded the counts are taken in numpy (no compilation on a first call);
    # integer data makes w.x + b = 0 ties common: both paths count them as -1
    import scipy.sparse as sps

    import learners._jit as J
    rng = np.random.default_rng(12)
    X = rng.integers(-2, 3, size=(400, 6)).astype(float)
    y = np.where(rng.random(400) < 0.5, 1, -1)
    v = VotedPerceptron(bias=bias, epochs=2).fit(X, y)
    Xt = rng.integers(-2, 3, size=(300, 6)).astype(float)
    Xt[:40] = 0.0
    compiled = v.decision_function(Xt)
    assert J.live()
    monkeypatch.setattr(J, "live", lambda: False)
    for A in (Xt, sps.csr_matrix(Xt)):
        plain = v.decision_function(A)
        assert plain.tobytes() == compiled.tobytes()
    ref = [sum(c * (1 if float(np.dot(w, x)) + (b or 0.0) > 0 else -1) for w, b, c in v.votes_) for x in Xt]
    assert compiled.tolist() == ref
