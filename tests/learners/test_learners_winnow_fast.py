"""The compiled Winnow engines against the plain reference loop (learners.winnow.run_winnow_reference).

* exact mode (integer exponents, float copies with an error bound, rational decisions near a tie)
  must be the rational run step for step: mistakes, activations, predictions, weights -- for every
  variant, promotion factor and threshold, on every input form (dense of any dtype, lists, CSR);
* float mode sums in index order, like the reference's float arithmetic: the same run bitwise;
* near ties really happen and are decided in rational arithmetic.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from learners import InputError, Winnow
from learners.winnow import run_winnow, run_winnow_reference



@pytest.fixture(autouse=True, scope="module")
def _compiled_engine_even_on_small_runs():
    """These tests are about the compiled exact engine: small runs are sent to it too (the rational
    path small runs take by default is tested against it in tests/learners/test_learners_small_exact.py)."""
    import learners.winnow_exact as WE
    old, WE.PY_MAX_WORK = WE.PY_MAX_WORK, -1
    yield
    WE.PY_MAX_WORK = old


FORMS = ["int64", "uint8", "float64", "bool", "lists", "csr", "csr-stored-zeros", "f-order"]


def _as(X, form):
    if form == "lists":
        return X.tolist()
    if form == "csr":
        return sp.csr_matrix(X)
    if form == "csr-stored-zeros":
        A = sp.csr_matrix(np.where(X == 0, 7, X))       # every entry stored ...
        A.data[A.data == 7] = 0                           # ... the zeros explicitly
        return A
    if form == "f-order":
        return np.asfortranarray(X)
    return X.astype({"int64": np.int64, "uint8": np.uint8, "float64": np.float64, "bool": np.bool_}[form])


@st.composite
def winnow_data(draw, max_n=30, max_d=10, min_n=1):
    n = draw(st.integers(min_n, max_n))
    d = draw(st.integers(1, max_d))
    p = draw(st.sampled_from([0.1, 0.4, 0.8]))
    X = draw(hnp.arrays(np.int64, (n, d), elements=st.integers(0, 99).map(lambda v: int(v < 100 * p))))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    return X, y


def _same(fast, ref):
    assert fast.mistake_flags == ref.mistake_flags
    assert fast.mistakes == ref.mistakes
    assert list(fast.weights) == list(ref.weights)
    assert len(fast.steps) == len(ref.steps)
    for a, b in zip(fast.steps, ref.steps):
        assert (a.t, a.index, a.label, a.prediction, a.mistake) == (b.t, b.index, b.label, b.prediction, b.mistake)
        assert a.activation == b.activation and type(a.activation) is type(b.activation)
        assert list(a.weights) == list(b.weights)


@settings(max_examples=60, deadline=None)
@given(data=winnow_data(), variant=st.sampled_from(["halve", "eliminate", "winnow2"]),
       alpha=st.sampled_from([2, 4, Fraction(3, 2), 3, Fraction(5, 4)]),
       theta=st.sampled_from([None, 1, Fraction(7, 3), "half", 2 ** -40]), epochs=st.integers(1, 4),
       shuffle=st.booleans(), exact=st.booleans(), form=st.sampled_from(FORMS),
       record=st.sampled_from(["all", "mistakes", "none"]))
@pytest.mark.slow
def test_compiled_winnow_is_the_reference_run(data, variant, alpha, theta, epochs, shuffle, exact, form, record):
    X, y = data
    th = Fraction(X.shape[1], 2) if theta == "half" else theta
    kw = dict(epochs=epochs, variant=variant, alpha=alpha, theta=th, exact=exact, shuffle=shuffle,
              seed=3 if shuffle else None, record=record)
    fast = run_winnow(_as(X, form), y, **kw)
    ref = run_winnow_reference(X, y, **kw)
    assert fast.params["engine"] == ("exponents" if exact else "float")
    _same(fast, ref)


TIE_THETA = Fraction(1, 2 ** 70)


def _tie_data():
    """Weights 2^-70 next to weights 1 (a 70-bit exponent window: the float sum is rounded in
    general) and sums landing exactly on theta = 2^-70: the float bound cannot decide those
    steps, rational arithmetic must."""
    rows, ys = [], []
    for _ in range(71):                  # w0 >= theta predicts 1 on a negative: halved 71 times
        rows.append([1, 0, 0, 0])
        ys.append(0)
    rows.append([1, 0, 0, 0])            # 2^-71 < theta on a positive: promoted to 2^-70
    ys.append(1)
    for k in range(6):                   # 2^-70 = theta: a tie (predicts 1), then either way
        rows.append([1, 0, 0, 0])
        ys.append(k % 2)
        rows.append([1, 1, 0, 1])
        ys.append(1 - k % 2)
    return np.array(rows), np.array(ys)


def test_near_ties_are_decided_in_rational_arithmetic():
    X, y = _tie_data()
    for form in ("int64", "csr"):
        fast = run_winnow(_as(X, form), y, theta=TIE_THETA)
        ref = run_winnow_reference(X, y, theta=TIE_THETA)
        _same(fast, ref)
        assert fast.params["exact_decisions"] > 0
        assert any(s.activation == TIE_THETA for s in ref.steps)
    ref = run_winnow_reference(X, y, theta=TIE_THETA, exact=False)
    for record in ("all", "none"):      # index-order sums; any-order sums with the tie fallback
        fl = run_winnow(X, y, theta=TIE_THETA, exact=False, record=record)
        assert fl.mistake_flags == ref.mistake_flags and fl.weights == ref.weights


def test_exponent_table_grows_for_other_factors():
    # Winnow2 with alpha = 3/2: exponents beyond the initial table (+-64) are added on demand
    X = np.array([[1, 1]] * 150 + [[1, 0]])
    y = np.array([0] * 150 + [1])
    fast = run_winnow(X, y, variant="winnow2", alpha=Fraction(3, 2), theta=Fraction(1, 10 ** 40), record="none")
    ref = run_winnow_reference(X, y, variant="winnow2", alpha=Fraction(3, 2), theta=Fraction(1, 10 ** 40),
                               record="none")
    assert fast.mistake_flags == ref.mistake_flags and fast.weights == ref.weights
    assert min(fast.weights) < Fraction(2, 3) ** 64


@pytest.mark.parametrize("form", ["int64", "float64", "uint8", "csr"])
def test_bad_values_get_the_one_line_error(form):
    X = np.array([[0, 1, 0], [1, 2, 0], [0, 0, 1]])
    y = [0, 1, 0]
    for exact in (True, False):
        with pytest.raises(InputError, match=r"X\[1\]\[1\] is 2; Winnow features must be 0 or 1"):
            run_winnow(_as(X, form), y, exact=exact)
    if form == "float64":
        Xn = X.astype(float)
        Xn[1, 1] = np.nan
        with pytest.raises(InputError, match=r"X\[1\]\[1\] is nan"):
            run_winnow(Xn, y)
    with pytest.raises(ValueError, match="Negative values in data passed to Winnow"):
        Winnow().fit(_as(-X, form) if form != "uint8" else -X, y)


@settings(max_examples=30, deadline=None)
@given(data=winnow_data(max_n=40, min_n=2), variant=st.sampled_from(["halve", "eliminate", "winnow2"]),
       exact=st.booleans(), form=st.sampled_from(["int64", "csr", "bool"]))
def test_estimator_predictions_are_the_reference_decisions(data, variant, exact, form):
    X, y = data
    if len(set(y.tolist())) < 2:
        y[0], y[-1] = 0, 1
    est = Winnow(epochs=2, variant=variant, alpha=3, exact=exact).fit(_as(X, form), y)
    ref = run_winnow_reference(X, y, epochs=2, variant=variant, alpha=3, exact=exact, record="none")
    w = list(ref.weights)
    th = Fraction(X.shape[1]) if exact else float(X.shape[1])
    want = []
    for r in X:
        s = Fraction(0) if exact else 0.0
        for j in np.flatnonzero(r):                # index order, one addition at a time
            s += w[j]
        want.append(1 if s >= th else 0)
    assert est.predict(_as(X, form)).tolist() == want
    assert list(est.coef_[0]) == w


def test_inputs_are_not_copied_or_modified():
    rng = np.random.default_rng(0)
    X = (rng.random((200, 30)) < 0.3).astype(np.int64)
    y = X[:, 0] | X[:, 5]
    X0 = X.copy()
    tr = run_winnow(X, y, record="none")
    A, _ = tr.extras["_data"]
    assert np.shares_memory(A, X) and not A.flags.writeable       # used as it is, read-only view
    assert X.flags.writeable and np.array_equal(X, X0)
