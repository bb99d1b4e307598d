"""The kernel perceptron in dual form.

alpha_i is the net signed number of updates made on example i; the decision value is
f(x) = sum_j alpha_j K(x_j, x) + b, the sum taken over the support vectors (alpha_j != 0) in the
order in which they became support vectors.  A mistake is y f(x) <= 0 (a tie is a mistake),
except in Blum's variant (``blum_start=True``: lecture 01/30/06), which starts from w = the first
positive example (alpha = 1 there) and updates only on strict errors (w.x < 0 on a positive, > 0
on a negative).

Potentials in feature space: |w|^2 = alpha^T K alpha and, with ``target_alpha`` = beta (w* in
dual form), w.w* = alpha^T K beta; both are updated incrementally.

Engines (``trace.params["engine"]``):

* ``exact``     -- rational arithmetic on ``Fraction`` (linear, polynomial, precomputed and user
  kernels that return ints or Fractions): the reference;
* ``blocked``   -- float mode with a built-in or precomputed kernel: compiled, in blocks, without
  the n x n Gram matrix (:mod:`learners.kernel_fast`); dense or scipy.sparse data;
* ``python``    -- float mode with a user callable: one call per (support vector, example) pair,
  each value computed once.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners.core import check_record, visiting_order
from learners.errors import InputError
from learners.kernels import as_kernel_arg, parse_kernel, _check_value
from learners.sparse import check_csr, is_sparse
from learners.trace import ArraySeq, Step, Trace
from learners.validation import check_epochs, check_labels, check_matrix, check_vector

__all__ = ["run_kernel_perceptron"]


def _data(X, K, exact):
    """The checked data: tuples of Fraction (exact), a float64 array or a CSR matrix (float)."""
    if is_sparse(X):
        A = check_csr(X)
        if exact or K.name in ("callable", "precomputed"):
            X = A.toarray()
        else:
            return A
    Xc = check_matrix(X, exact=exact)
    if K.name == "precomputed":
        n, m = len(Xc), len(Xc[0])
        if n != m:
            raise InputError(f"a precomputed kernel needs the square n x n kernel matrix, got {n} x {m}")
    return Xc


def run_kernel_perceptron(X, y, kernel="linear", *, epochs=1, bias=False, exact=False, blum_start=False,
                          shuffle=False, seed=None, record="all", target_alpha=None) -> Trace:
    epochs = check_epochs(epochs)
    record = check_record(record)
    K = parse_kernel(kernel)
    if exact and not K.exact_capable:
        raise InputError(f"the {K.name} kernel takes irrational values; exact mode supports linear, "
                         "polynomial and user kernels that return ints or Fractions")
    Xc = _data(X, K, exact)
    n = Xc.shape[0] if not exact else len(Xc)
    yl = check_labels(y, n, kind="pm1", as_array=True)
    order = visiting_order(n, epochs, shuffle, seed)
    start = None
    if blum_start:
        pos = np.flatnonzero(yl == 1)
        if pos.size == 0:
            raise InputError("blum_start needs a positive example (Blum's variant starts from the first one)")
        start = int(pos[0])
    beta = None
    if target_alpha is not None:
        beta = check_vector(target_alpha, n, exact=True, what="target_alpha")
        if not exact:
            beta = tuple(float(v) for v in beta)
    params = {"bias": bool(bias), "kernel": K.spec(), "blum_start": bool(blum_start), "shuffle": bool(shuffle),
              "seed": seed}
    if exact or K.name == "callable":
        return _run_python(Xc, yl.tolist(), order, K, epochs, bias, exact, start, record, beta, params)
    return _run_blocked(Xc, yl, order, K, epochs, bias, start, record, beta, params)


# ---------------------------------------------------------------------------------------------
def _run_python(Xc, yl, order, K, epochs, bias, exact, start, record, beta, params):
    """The reference loop (exact mode), also float mode with a user callable."""
    n = len(Xc)
    zero = Fraction(0) if exact else 0.0
    one = Fraction(1) if exact else 1.0
    rows = Xc if exact else ([Xc[i] for i in range(n)])
    pre = K.name == "precomputed"
    args = [as_kernel_arg(r) for r in rows] if K.name == "callable" else rows
    # exact mode keeps each rational kernel value once computed (small data, costly values);
    # float mode with a callable calls it again instead: memory O(n), never one entry per pair
    cache = {} if exact else None

    def k(j, i):
        if pre:
            return _check_value(rows[j][i], j, i, exact=exact)
        if cache is None:
            return _check_value(K(args[j], args[i]), j, i, exact=False)
        key = (j, i) if j <= i else (i, j)
        v = cache.get(key)
        if v is None:
            v = cache[key] = _check_value(K(args[j], args[i]), j, i, exact=exact)
        return v

    alpha = [zero] * n
    support = []                 # support vectors, in the order they appeared
    if start is not None:
        alpha[start] = one
        support.append(start)
    alpha0 = tuple(alpha)
    b = zero
    acts, mis = [], []
    nsq = sum(alpha[a] * alpha[c] * k(a, c) for a in support for c in support) if support else zero
    g = wdt = None
    if beta is not None:
        bsup = [j for j in range(n) if beta[j] != 0]
        g = [sum((beta[j] * k(j, i) for j in bsup), zero) for i in range(n)]
        wdt = sum((alpha[j] * g[j] for j in support), zero)
    steps = []
    keep_all = record == "all"
    strict = start is not None
    for t in range(len(order)):
        i = int(order[t])
        s = zero
        for j in support:
            s += alpha[j] * k(j, i)
        a = s + b
        yi = yl[i]
        m = (yi * a < 0) if strict else (yi * a <= 0)
        acts.append(a)
        mis.append(bool(m))
        if m:
            nsq = nsq + 2 * yi * s + k(i, i)
            if g is not None:
                wdt = wdt + yi * g[i]
            if alpha[i] == 0:
                support.append(i)
            alpha[i] += yi
            if bias:
                b += yi
        if keep_all or (m and record == "mistakes"):
            steps.append(Step(t=t, epoch=t // n, index=i, label=yi, activation=a, prediction=1 if a > 0 else -1,
                              mistake=bool(m), weights=tuple(alpha), bias=(b if bias else None),
                              w_norm_sq=nsq, w_dot_target=wdt))
    params = dict(params, engine="exact" if exact else "python")
    tr = Trace(algorithm="kernel_perceptron", exact=exact, n_examples=n, n_features=len(rows[0]), epochs=epochs,
               record=record, steps=steps, mistakes=sum(mis), n_steps=len(order), weights=tuple(alpha),
               bias=(b if bias else None), initial_weights=alpha0, initial_bias=(zero if bias else None),
               order=order.tolist(), mistake_flags=mis, target=beta, params=params)
    tr.extras["_data"] = (rows, yl)
    tr.extras["kernel"] = K
    tr.extras["support"] = np.array(support, dtype=np.int64)
    return tr


# ---------------------------------------------------------------------------------------------
def _run_blocked(Xc, yl, order, K, epochs, bias, start, record, beta, params):
    from learners.kernel_fast import fit_blocked
    n = Xc.shape[0]
    r = fit_blocked(Xc, yl, order, K, bias=bias, strict=start is not None, start=start)
    alpha0 = [0.0] * n
    if start is not None:
        alpha0[start] = 1.0
    steps = [] if record == "none" else _replay(Xc, yl, order, K, r, alpha0, start, bias, record, beta)
    params = dict(params, engine="blocked")
    tr = Trace(algorithm="kernel_perceptron", exact=False, n_examples=n, n_features=Xc.shape[1], epochs=epochs,
               record=record, steps=steps, mistakes=int(np.count_nonzero(r["mis"])), n_steps=len(order),
               weights=tuple(r["alpha"].tolist()), bias=(r["b"] if bias else None), initial_weights=tuple(alpha0),
               initial_bias=(0.0 if bias else None), order=ArraySeq(order), mistake_flags=ArraySeq(r["mis"]),
               target=beta, params=params)
    tr.extras["_data"] = (Xc, yl)
    tr.extras["kernel"] = K
    tr.extras["support"] = r["sv"]
    tr.extras["_sv_sq"] = r["sq"][r["sv"]]
    return tr


def _replay(Xc, yl, order, K, r, alpha0, start, bias, record, beta):
    """The recorded steps of a blocked run, rebuilt from its activations and mistake flags, with
    the potentials updated as in the reference loop: |w|^2 += 2 y s + K(x, x), w.w* += y g."""
    from learners._loops_sparse import row_norms
    from learners.kernel_fast import decision_blocked, self_kernel
    n = Xc.shape[0]
    act, sval, mis = r["act"], r["sval"], r["mis"]
    sq = r["sq"] if K.name not in ("linear", "poly") else row_norms(Xc)
    g = None
    if beta is not None:            # g_i = sum_j beta_j K(x_j, x_i)
        bsup = np.flatnonzero(np.asarray(beta) != 0)
        bv = np.asarray(beta)[bsup]
        if K.name == "precomputed":
            g = decision_blocked(bsup, bv, np.zeros(len(bsup)), np.ascontiguousarray(Xc.T), K)
        else:
            g = decision_blocked(Xc[bsup], bv, sq[bsup], Xc, K)
    nsq = self_kernel(Xc, start, K, sq) if start is not None else 0.0
    wdt = None if g is None else (float(g[start]) if start is not None else 0.0)
    a_now = np.array(alpha0)
    b = 0.0
    steps = []
    for t in range(len(order)):
        i = int(order[t])
        m = bool(mis[t])
        if m:
            yi = int(yl[i])
            nsq = nsq + 2 * yi * float(sval[t]) + self_kernel(Xc, i, K, sq)
            if g is not None:
                wdt = wdt + yi * float(g[i])
            a_now[i] += yi
            if bias:
                b += yi
        if record == "all" or m:
            a = float(act[t])
            steps.append(Step(t=t, epoch=t // n, index=i, label=int(yl[i]), activation=a,
                              prediction=1 if a > 0 else -1, mistake=m, weights=tuple(a_now.tolist()),
                              bias=(b if bias else None), w_norm_sq=nsq, w_dot_target=wdt))
    return steps
