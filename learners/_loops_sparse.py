"""Compiled perceptron loops on CSR rows (``data``, ``indices``, ``indptr``; indices sorted, no
duplicates), twins of :mod:`learners._loops`, plus the row-update helpers the averaged and voted
perceptrons share between dense and CSR data.

The default loop sums each dot product over the stored entries in index order, from 0.0, then
``+ b``: the dense loop's sum without its zero terms, so the same bits (adding a zero product
to a running sum changes nothing but, at most, the sign of a zero total).
"""
import math

import numpy as np

from learners._jit import compiled


@compiled
def csr_pass_seq(data, indices, indptr, y, order, w, b, use_bias, act, mis, t0):
    """Float path, dot products in index order.  Returns (b, stop) as the dense loops do.  Also
    the CSR form of the "fast" loop: a sparse row's short gather-sum gains nothing from
    reordering, and the index order is one of the orders ``fast=True`` allows."""
    for k in range(order.shape[0]):
        i = order[k]
        s = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            s += w[indices[p]] * data[p]
        a = s + b
        act[t0 + k] = a
        if not np.isfinite(a):
            return b, k
        yi = y[i]
        if yi * a <= 0.0:
            mis[t0 + k] = True
            for p in range(indptr[i], indptr[i + 1]):
                w[indices[p]] += data[p] * yi
            if use_bias:
                b += yi
        else:
            mis[t0 + k] = False
    return b, -1


@compiled
def csr_pass_int(data, indices, indptr, y, order, w, b, bias_step, act, mis, t0):
    """Exact path on int64 CSR data scaled to one denominator (see _loops.perceptron_pass_int)."""
    for k in range(order.shape[0]):
        i = order[k]
        s = 0
        for p in range(indptr[i], indptr[i + 1]):
            s += w[indices[p]] * data[p]
        a = s + b
        act[t0 + k] = a
        yi = y[i]
        if yi * a <= 0:
            mis[t0 + k] = True
            for p in range(indptr[i], indptr[i + 1]):
                w[indices[p]] += data[p] * yi
            b += yi * bias_step
        else:
            mis[t0 + k] = False
    return b


@compiled
def row_norms_seq(X):
    """|x_i|^2 of every dense row, summed in index order."""
    out = np.empty(X.shape[0])
    for i in range(X.shape[0]):
        s = 0.0
        for j in range(X.shape[1]):
            s += X[i, j] * X[i, j]
        out[i] = s
    return out


@compiled
def csr_row_norms_seq(data, indptr):
    """|x_i|^2 of every CSR row, summed in index order (the dense sum without its zeros)."""
    n = indptr.shape[0] - 1
    out = np.empty(n)
    for i in range(n):
        s = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            s += data[p] * data[p]
        out[i] = s
    return out


@compiled
def dense_update_rows(X, rows, coef, acc):
    """acc += coef[k] * X[rows[k]] for k in order (element-wise, no sum to reorder)."""
    for k in range(rows.shape[0]):
        i = rows[k]
        c = coef[k]
        for j in range(X.shape[1]):
            acc[j] += c * X[i, j]


@compiled
def csr_update_rows(data, indices, indptr, rows, coef, acc):
    """acc += coef[k] * x_{rows[k]} for k in order, over the stored entries."""
    for k in range(rows.shape[0]):
        i = rows[k]
        c = coef[k]
        for p in range(indptr[i], indptr[i + 1]):
            acc[indices[p]] += c * data[p]


@compiled
def dense_prefix_rows(X, rows, sign, w0, W):
    """W[0] = w0, W[k + 1] = W[k] + sign[k] * X[rows[k]]: the weight vector after each update."""
    d = X.shape[1]
    for j in range(d):
        W[0, j] = w0[j]
    for k in range(rows.shape[0]):
        i = rows[k]
        s = sign[k]
        for j in range(d):
            W[k + 1, j] = W[k, j] + s * X[i, j]


@compiled
def csr_prefix_rows(data, indices, indptr, rows, sign, w0, W):
    """As :func:`dense_prefix_rows` for CSR rows."""
    d = W.shape[1]
    for j in range(d):
        W[0, j] = w0[j]
    for k in range(rows.shape[0]):
        for j in range(d):
            W[k + 1, j] = W[k, j]
        i = rows[k]
        s = sign[k]
        for p in range(indptr[i], indptr[i + 1]):
            W[k + 1, indices[p]] += s * data[p]


@compiled
def vote_counts(S, bias, count, out):
    """out[i] = sum_k count[k] * (1 if S[i, k] + bias[k] > 0 else -1): the voted perceptron's
    sign-and-weight reduction, on the (points x votes) matrix of dot products.  Integer counts,
    summed exactly."""
    m, K = S.shape
    for i in range(m):
        tot = 0
        for k in range(K):
            c = count[k]
            tot += c if S[i, k] + bias[k] > 0.0 else -c
        out[i] = tot


# A small problem runs the default float loop in Python: the same operations in the same order
# (IEEE double arithmetic, each product rounded, then added; no fused multiply-add), so the same
# bits, without importing numba and loading its compilation context (several tenths of a second
# in a fresh process) for a run of a few microseconds.  Above this many multiply-adds (steps
# times features, or stored entries visited) the compiled loop is used.
PY_MAX_WORK = 20_000


def _pass_seq_py(rows, y, order, w, b, use_bias, act, mis, t0):
    """The Python twin of :func:`learners._loops.perceptron_pass_seq` and :func:`csr_pass_seq`:
    ``rows[i]`` is (indices or None, values) of example i; dot products summed in index order,
    from 0.0, then + b."""
    wl = w.tolist()
    yl = y.tolist()
    acts, miss = [], []
    stop = -1
    b = float(b)
    for k, i in enumerate(order.tolist()):
        cols, vals = rows[i]
        s = 0.0
        if cols is None:
            for wj, xj in zip(wl, vals):
                s += wj * xj
        else:
            for j, xj in zip(cols, vals):
                s += wl[j] * xj
        a = s + b
        acts.append(a)
        if not math.isfinite(a):
            stop = k
            break
        yi = yl[i]
        m = yi * a <= 0.0
        miss.append(m)
        if m:
            if cols is None:
                wl = [wj + xj * yi for wj, xj in zip(wl, vals)]
            else:
                for j, xj in zip(cols, vals):
                    wl[j] += xj * yi
            if use_bias:
                b += yi
    act[t0:t0 + len(acts)] = acts
    mis[t0:t0 + len(miss)] = miss
    w[:] = wl
    return b, stop


def _py_rows(X, order):
    """(indices or None, values) per example, or None when the run is too large for Python."""
    n = X.shape[0]
    if hasattr(X, "indptr"):
        epochs = -(-order.shape[0] // max(1, n))
        if X.data.dtype != np.float64 or n + epochs * X.nnz > PY_MAX_WORK:
            return None
        ip, ind, dat = X.indptr.tolist(), X.indices.tolist(), X.data.tolist()
        return [(ind[ip[i]:ip[i + 1]], dat[ip[i]:ip[i + 1]]) for i in range(n)]
    if X.dtype != np.float64 or X.ndim != 2 or max(n, order.shape[0]) * X.shape[1] > PY_MAX_WORK:
        return None
    return [(None, r) for r in X.tolist()]


def run_pass(name, X, *args):
    """Run the perceptron loop ``name`` ("seq", "fast" or "int") on a dense array or CSR matrix.
    A small float run ("seq", and "fast", whose result may be any order's) runs in Python, bit for
    bit the compiled default loop."""
    if name in ("seq", "fast"):
        rows = _py_rows(X, args[1])
        if rows is not None:
            return _pass_seq_py(rows, *args)
    from learners import _loops
    if hasattr(X, "indptr"):
        f = {"seq": csr_pass_seq, "fast": csr_pass_seq, "int": csr_pass_int}[name]
        return f(X.data, X.indices, X.indptr, *args)
    f = {"seq": _loops.perceptron_pass_seq, "fast": _loops.perceptron_pass_fast,
         "int": _loops.perceptron_pass_int}[name]
    return f(X, *args)


def update_rows(X, rows, coef, acc):
    """acc += coef[k] * x_{rows[k]} in order, for a dense array or a CSR matrix."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    coef = np.ascontiguousarray(coef, dtype=np.float64)
    if hasattr(X, "indptr"):
        csr_update_rows(X.data, X.indices, X.indptr, rows, coef, acc)
    else:
        dense_update_rows(X, rows, coef, acc)


def prefix_rows(X, rows, sign, w0):
    """The (len(rows) + 1) x d matrix of weight vectors w0, w0 + sign[0] x_{rows[0]}, ..."""
    W = np.empty((len(rows) + 1, X.shape[1]))
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    sign = np.ascontiguousarray(sign, dtype=np.float64)
    w0 = np.ascontiguousarray(w0, dtype=np.float64)
    if hasattr(X, "indptr"):
        csr_prefix_rows(X.data, X.indices, X.indptr, rows, sign, w0, W)
    else:
        dense_prefix_rows(X, rows, sign, w0, W)
    return W


def row_norms(X):
    """|x_i|^2 of every row (dense or CSR), summed in index order: the same bits either way."""
    if hasattr(X, "indptr"):
        return csr_row_norms_seq(X.data, X.indptr)
    return row_norms_seq(X)

