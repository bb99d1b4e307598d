"""Winnow (Littlestone) over {0,1} features, for monotone disjunctions.

Weights start at 1; predict 1 iff w.x >= theta (theta = n, the number of features, by default).
On a false negative the active weights are promoted (doubled; multiplied by alpha for Winnow2);
on a false positive they are demoted:

* ``variant="halve"``     -- halved (Blum's simple version: at most 2 + 3r(1 + lg n) mistakes);
* ``variant="eliminate"`` -- set to 0 (at most 1 + 2r(1 + lg n) mistakes);
* ``variant="winnow2"``   -- divided by alpha (alpha > 1 configurable).

Exact mode (the default) gives every weight as a ``Fraction``: each is f^e (f = 2, or alpha for
Winnow2) or 0, so the compiled loop keeps the integer exponents and decides each prediction from
the float copies f^e with a rounding-error bound, in rational arithmetic only near a tie
(:mod:`learners._winnow_loops`; ``trace.params["engine"] = "exponents"``).  Float mode runs the
same update in float64 (sums of the active weights in index order).  X may be a dense array of
0/1 (any numeric dtype, used without a copy when C-contiguous), a list of rows, or a
scipy.sparse matrix.  The plain rational loop is :func:`run_winnow_reference`.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners.core import check_record, visiting_order
from learners.errors import InputError
from learners.numbers import fraction_str, to_fraction
from learners.sparse import check_csr, is_sparse
from learners.trace import ArraySeq, Step, Trace
from learners.validation import check_binary_matrix, check_epochs, check_labels
from learners.winnow_exact import ExactWinnow, raise_if_not_binary

__all__ = ["run_winnow", "run_winnow_reference", "check_binary", "raise_if_not_binary", "VARIANTS"]

VARIANTS = ("halve", "eliminate", "winnow2")
_DENSE_OK = (np.uint8, np.bool_, np.int64, np.float64)    # used without a copy (bool as a uint8 view)


def check_binary(X, what: str = "X"):
    """Winnow's {0,1} data without a copy where possible: a C-contiguous dense array of uint8,
    bool, int64 or float64 is used as it is (read-only view), and its values are checked by the
    compiled pass that reads it anyway (:func:`raise_if_not_binary` words the error); other arrays
    and lists become a new checked uint8 array; a sparse matrix becomes a checked CSR matrix with
    uint8 data."""
    if is_sparse(X):
        A = check_csr(X, what=what, binary=True)
        if A.data.dtype != np.uint8:
            A = A.copy()
            A.data = A.data.astype(np.uint8)
        return A
    if (type(X) is np.ndarray and X.ndim == 2 and X.shape[0] > 0 and X.shape[1] > 0
            and X.dtype.type in _DENSE_OK and X.flags.c_contiguous):
        A = X.view(np.uint8) if X.dtype == np.bool_ else X.view()
        A.flags.writeable = False
        return A
    return check_binary_matrix(X, what=what)


def _setup(X, y, epochs, theta, variant, alpha, shuffle, seed, record):
    epochs = check_epochs(epochs)
    record = check_record(record)
    if variant not in VARIANTS:
        raise InputError(f"unknown Winnow variant {variant!r} (known: {', '.join(VARIANTS)})")
    A = check_binary(X)
    n_ex, n = A.shape
    yl = check_labels(y, n_ex, kind="01", as_array=True)
    a = to_fraction(alpha, what="alpha")
    if a <= 1:
        raise InputError(f"alpha must be > 1, got {fraction_str(a)}")
    up = a if variant == "winnow2" else Fraction(2)
    th = Fraction(n) if theta is None else to_fraction(theta, what="theta")
    order = visiting_order(n_ex, epochs, shuffle, seed)
    params = {"variant": variant, "alpha": fraction_str(a), "theta": fraction_str(th), "shuffle": bool(shuffle),
              "seed": seed}
    return epochs, record, A, yl, a, up, th, order, params


def _rows_of(A):
    """Active feature indices of every row (only for recorded traces)."""
    if is_sparse(A):
        return [A.indices[A.indptr[i]:A.indptr[i + 1]][A.data[A.indptr[i]:A.indptr[i + 1]] != 0].tolist()
                for i in range(A.shape[0])]
    return [np.flatnonzero(A[i]).tolist() for i in range(A.shape[0])]


def run_winnow(X, y, *, epochs=1, theta=None, variant="halve", alpha=2, exact=True, shuffle=False, seed=None,
               record="all", resume=None) -> Trace:
    """``resume``: the ``trace.extras["state"]`` of an earlier run with the same settings and
    number of features, to continue from its weights (``partial_fit``) instead of all ones."""
    epochs, record, A, yl, a, up, th, order, params = _setup(X, y, epochs, theta, variant, alpha, shuffle, seed,
                                                            record)
    n_ex, n = A.shape
    T = len(order)
    if resume is not None and (resume[0] != ("exact" if exact else "float") or len(resume[1]) != n):
        raise InputError(f"cannot resume: the earlier run was {resume[0]} with {len(resume[1])} features")
    if exact:
        ew = ExactWinnow(A, yl, variant, up, th)
        if resume is not None:
            ew.resume(resume[1], resume[2])
        start = ew.weights() if resume is not None else None
        mis, fs = ew.run(order)
        final = ew.weights()
        engine = "exponents"
        params["exact_decisions"] = ew.exact_decisions     # steps decided in rational arithmetic
        state = ("exact", ew.e.copy(), ew.alive.copy())
    else:
        from learners import _winnow_loops as WL
        code = WL.VARIANT_CODES[variant]
        w = np.ones(n) if resume is None else np.array(resume[1], dtype=np.float64)
        start = tuple(w.tolist()) if resume is not None else None
        fs = np.empty(T)
        mis = np.zeros(T, dtype=np.bool_)
        up_f, down_f, th_f = float(up), (float(a) if variant == "winnow2" else 2.0), float(th)
        yv = np.ascontiguousarray(yl)
        if is_sparse(A):
            WL.csr_float_pass(A.data, A.indices, A.indptr, yv, order, w, up_f, down_f, code, th_f, fs, mis)
        else:
            # recorded steps need the index-order activations; otherwise any-order sums decide
            # wherever they provably agree with them (the same run either way)
            float_pass = WL.float_pass if record != "none" else WL.float_pass_bound
            if float_pass(A, yv, order, w, up_f, down_f, code, th_f, fs, mis) >= 0:
                raise_if_not_binary(A)
        final = tuple(w.tolist())
        engine = "float"
        state = ("float", w, None)
    steps = []
    if record != "none":
        steps = _replay(A, yl, order, mis, fs, variant, up, a, exact, record, n_ex, n, resume)
    one = Fraction(1) if exact else 1.0
    tr = Trace(algorithm="winnow", exact=exact, n_examples=n_ex, n_features=n, epochs=epochs, record=record,
               steps=steps, mistakes=int(np.count_nonzero(mis)), n_steps=T, weights=final, bias=None,
               initial_weights=start or (one,) * n, initial_bias=None, order=ArraySeq(order),
               mistake_flags=ArraySeq(mis), params=dict(params, engine=engine))
    tr.extras["_data"] = (A, yl.tolist())
    tr.extras["state"] = state
    return tr


def _replay(A, yl, order, mis, fs, variant, up, a, exact, record, n_ex, n, resume=None):
    """The recorded steps, rebuilt from the mistake flags: the weights after each step and (exact
    mode) the activation as a Fraction."""
    rows = _rows_of(A)
    if exact:
        e = [0] * n if resume is None else [int(v) for v in resume[1]]
        alive = [True] * n if resume is None else [bool(v) for v in resume[2]]
        pw = {0: Fraction(1)}

        def wt(j):
            if not alive[j]:
                return Fraction(0)
            v = pw.get(e[j])
            if v is None:
                v = pw[e[j]] = up ** e[j]
            return v
    else:
        w = [1.0] * n if resume is None else [float(v) for v in resume[1]]
        down_f = float(a) if variant == "winnow2" else 2.0
        up_f = float(up)
    steps = []
    for t, i in enumerate(order.tolist()):
        act_idx = rows[i]
        m = bool(mis[t])
        if exact:
            s = sum((wt(j) for j in act_idx), Fraction(0))
        else:
            s = float(fs[t])
        yi = int(yl[i])
        if m:
            for j in act_idx:
                if exact:
                    if not alive[j]:
                        continue
                    if yi == 1:
                        e[j] += 1
                    elif variant == "eliminate":
                        alive[j] = False
                    else:
                        e[j] -= 1
                elif yi == 1:
                    w[j] = w[j] * up_f
                elif variant == "eliminate":
                    w[j] = w[j] * 0.0
                else:
                    w[j] = w[j] / down_f
        if record == "all" or m:
            weights = tuple(wt(j) for j in range(n)) if exact else tuple(w)
            steps.append(Step(t=t, epoch=t // n_ex, index=i, label=yi, activation=s, prediction=1 - yi if m else yi,
                              mistake=m, weights=weights))
    return steps


def run_winnow_reference(X, y, *, epochs=1, theta=None, variant="halve", alpha=2, exact=True, shuffle=False,
                         seed=None, record="all") -> Trace:
    """Winnow written as plainly as possible (weights as Fractions, or floats), one step at a
    time: the reference the compiled engines are tested against."""
    epochs, record, A, yl, a, up, th, order, params = _setup(X, y, epochs, theta, variant, alpha, shuffle, seed,
                                                            record)
    n_ex, n = A.shape
    if not is_sparse(A):
        raise_if_not_binary(A)
    yl = yl.tolist()
    if not exact:
        up_f, a_f, th_f = float(up), float(a), float(th)
    rows = _rows_of(A)
    one = Fraction(1) if exact else 1.0
    w = [one] * n
    steps, mis = [], []
    for t, i in enumerate(order.tolist()):
        act_idx = rows[i]
        s = Fraction(0) if exact else 0.0
        for j in act_idx:          # one addition at a time, in index order (not sum(): compensated on 3.12+)
            s += w[j]
        pred = 1 if s >= (th if exact else th_f) else 0
        yi = yl[i]
        m = pred != yi
        mis.append(m)
        if m:
            if yi == 1:
                f = up if exact else up_f
                for j in act_idx:
                    w[j] = w[j] * f
            elif variant == "eliminate":
                for j in act_idx:
                    w[j] = w[j] * 0
            else:
                f = (a if variant == "winnow2" else Fraction(2)) if exact else (a_f if variant == "winnow2" else 2.0)
                for j in act_idx:
                    w[j] = w[j] / f
        if record == "all" or (m and record == "mistakes"):
            steps.append(Step(t=t, epoch=t // n_ex, index=i, label=yi, activation=s, prediction=pred, mistake=m,
                              weights=tuple(w)))
    tr = Trace(algorithm="winnow", exact=exact, n_examples=n_ex, n_features=n, epochs=epochs, record=record,
               steps=steps, mistakes=sum(mis), n_steps=len(order), weights=tuple(w), bias=None,
               initial_weights=(one,) * n, initial_bias=None, order=order.tolist(), mistake_flags=mis,
               params=dict(params, engine="reference"))
    tr.extras["_data"] = (A, yl)
    return tr
