"""The kernel perceptron in dual form.

alpha_i is the net signed number of updates made on example i; the decision value is
f(x) = sum_j alpha_j K(x_j, x) + b.  A mistake is y f(x) <= 0 (a tie is a mistake), except in
Blum's variant (``blum_start=True``: lecture 01/30/06), which starts from w = the first positive
example (alpha = 1 there) and updates only on strict errors (w.x < 0 on a positive, > 0 on a
negative).

Potentials in feature space: |w|^2 = alpha^T K alpha and, with ``target_alpha`` = beta (w* in
dual form), w.w* = alpha^T K beta; both are updated incrementally.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .core import check_record, visiting_order
from .errors import InputError
from .kernels import parse_kernel, _check_value
from .trace import Step, Trace
from .validation import check_epochs, check_labels, check_matrix, check_vector

__all__ = ["run_kernel_perceptron"]


def run_kernel_perceptron(X, y, kernel="linear", *, epochs=1, bias=False, exact=False, blum_start=False,
                          shuffle=False, seed=None, record="all", target_alpha=None) -> Trace:
    epochs = check_epochs(epochs)
    record = check_record(record)
    K = parse_kernel(kernel)
    if exact and not K.exact_capable:
        raise InputError(f"the {K.name} kernel takes irrational values; exact mode supports linear, "
                         "polynomial and user kernels that return ints or Fractions")
    Xc = check_matrix(X, exact=exact)
    n = len(Xc)
    yl = check_labels(y, n, kind="pm1")
    order = visiting_order(n, epochs, shuffle, seed)
    T = len(order)
    zero = Fraction(0) if exact else 0.0
    alpha = [zero] * n
    if blum_start:
        try:
            p = yl.index(1)
        except ValueError:
            raise InputError("blum_start needs a positive example (Blum's variant starts from the first one)") from None
        alpha[p] = Fraction(1) if exact else 1.0
    alpha0 = tuple(alpha)
    beta = None
    if target_alpha is not None:
        beta = check_vector(target_alpha, n, exact=True, what="target_alpha")
        if not exact:
            beta = tuple(float(v) for v in beta)
    rows = Xc if exact else [Xc[i] for i in range(n)]

    cache = {}

    def k(j, i):
        key = (j, i) if j <= i else (i, j)
        v = cache.get(key)
        if v is None:
            v = _check_value(K(rows[j], rows[i]), j, i, exact=exact)
            cache[key] = v
        return v

    G = None
    if not exact and K.name != "callable":
        G = K.gram_float(Xc)

        def k(j, i):  # noqa: F811 - float built-in kernels read the precomputed Gram matrix
            return float(G[j, i])

    b = zero
    acts, mis = [], []
    # incremental potentials
    support = [j for j in range(n) if alpha[j] != 0]
    nsq = sum(alpha[a] * alpha[c] * k(a, c) for a in support for c in support) if support else zero
    g = None
    wdt = None
    if beta is not None:
        bsup = [j for j in range(n) if beta[j] != 0]
        g = [sum(beta[j] * k(j, i) for j in bsup) for i in range(n)]
        wdt = sum(alpha[j] * g[j] for j in support) if support else zero
    steps = []
    keep_all = record == "all"
    for t in range(T):
        i = int(order[t])
        s = zero
        for j in range(n):
            if alpha[j] != 0:
                s += alpha[j] * k(j, i)
        a = s + b
        yi = yl[i]
        m = (yi * a < 0) if blum_start else (yi * a <= 0)
        acts.append(a)
        mis.append(bool(m))
        if m:
            nsq = nsq + 2 * yi * s + k(i, i)
            if g is not None:
                wdt = wdt + yi * g[i]
            alpha[i] += yi
            if bias:
                b += yi
        if keep_all or (m and record == "mistakes"):
            steps.append(Step(t=t, epoch=t // n, index=i, label=yi, activation=a, prediction=1 if a > 0 else -1,
                              mistake=bool(m), weights=tuple(alpha), bias=(b if bias else None),
                              w_norm_sq=nsq, w_dot_target=wdt))
    params = {"bias": bool(bias), "kernel": K.spec(), "blum_start": bool(blum_start), "shuffle": bool(shuffle),
              "seed": seed}
    tr = Trace(algorithm="kernel_perceptron", exact=exact, n_examples=n, n_features=len(rows[0]), epochs=epochs,
               record=record, steps=steps, mistakes=sum(mis), n_steps=T, weights=tuple(alpha),
               bias=(b if bias else None), initial_weights=alpha0, initial_bias=(zero if bias else None),
               order=order.tolist(), mistake_flags=mis, target=beta, params=params)
    tr.extras["_data"] = (rows, yl)
    tr.extras["kernel"] = K
    return tr
