"""The perceptron (Rosenblatt), with the averaged and voted forms (Freund & Schapire).

Conventions (docs/learners.md): examples are visited in the given order (or shuffled per epoch
with an explicit seed); a mistake is y (w.x + b) <= 0, so a tie is a mistake; on a mistake
w += y x and, with a bias, b += y; the weights start at 0 unless given; inputs are never modified.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .core import (INT64_SAFE, check_record, cumulative_weights, normalize_rows_exact,
                   normalize_rows_float, scale_exact, visiting_order)
from .errors import InputError
from .numbers import to_fraction
from .trace import Step, Trace
from .validation import check_epochs, check_labels, check_matrix, check_vector

__all__ = ["run_perceptron", "averaged_weights", "voted_weights"]


def _target(target, target_bias, d, exact, bias):
    if target is None:
        if target_bias is not None:
            raise InputError("target_bias given without a target")
        return None, None
    t = check_vector(target, d, exact=True, what="target")
    tb = to_fraction(target_bias, what="target_bias") if target_bias is not None else (Fraction(0) if bias else None)
    if not exact:
        return tuple(float(v) for v in t), (None if tb is None else float(tb))
    return t, tb


def run_perceptron(X, y, *, epochs=1, bias=False, normalize=False, w0=None, b0=0, shuffle=False,
                   seed=None, exact=False, fast=False, record="all", target=None, target_bias=None,
                   algorithm="perceptron") -> Trace:
    """Run the perceptron and return its :class:`~learners.trace.Trace`.

    exact=True: every number (data, weights, activations, potentials) is a ``Fraction``; inputs may
    be ints, Fractions, floats (their exact binary value) or strings ``"p/q"``.
    fast=True (float mode only): the dot products may be summed in any order (SIMD); the default
    float path sums in index order and is bitwise equal to scikit-learn's Perceptron.
    """
    epochs = check_epochs(epochs)
    record = check_record(record)
    if fast and exact:
        raise InputError("fast=True is a float-mode option; exact mode has no rounding to trade")
    Xc = check_matrix(X, exact=exact)
    n = len(Xc)
    d = len(Xc[0])
    yl = check_labels(y, n, kind="pm1")
    order = visiting_order(n, epochs, shuffle, seed)
    T = len(order)
    tgt, tgt_b = _target(target, target_bias, d, exact, bias)
    params = {"bias": bool(bias), "normalize": bool(normalize), "shuffle": bool(shuffle), "seed": seed,
              "fast": bool(fast)}
    if exact:
        return _run_exact(Xc, yl, order, epochs, bias, normalize, w0, b0, record, tgt, tgt_b, params, algorithm)
    return _run_float(Xc, yl, order, epochs, bias, normalize, w0, b0, record, tgt, tgt_b, params, algorithm, fast)


# ---------------------------------------------------------------------------------------------
def _steps_wanted(record, mis):
    if record == "all":
        return list(range(len(mis)))
    if record == "mistakes":
        return [t for t in range(len(mis)) if mis[t]]
    return []


def _run_float(A, yl, order, epochs, bias, normalize, w0, b0, record, tgt, tgt_b, params, algorithm, fast):
    from . import _loops
    n, d = A.shape
    if normalize:
        A = normalize_rows_float(A)
    w = np.zeros(d) if w0 is None else check_vector(w0, d, exact=False, what="w0")
    w_init = w.copy()
    b = float(to_fraction(b0, what="b0")) if bias else 0.0
    if not bias and to_fraction(b0, what="b0") != 0:
        raise InputError("b0 given but bias=False")
    b_init = b
    yv = np.asarray(yl, dtype=np.float64)
    T = len(order)
    act = np.empty(T)
    mis = np.zeros(T, dtype=np.bool_)
    loop = _loops.perceptron_pass_fast if fast else _loops.perceptron_pass_seq
    b = loop(A, yv, order, w, b, bool(bias), act, mis, 0)
    steps = []
    wanted = _steps_wanted(record, mis)
    if wanted:
        t_arr = None if tgt is None else np.asarray(tgt)
        bias_after = b_init
        bias_run = b_init
        # replay for the bias too (cheap scalar)
        bias_at = {}
        for t in range(T):
            if mis[t] and bias:
                bias_run += yv[order[t]]
            bias_at[t] = bias_run
        for t, wt in cumulative_weights(w_init, A, yv, order, mis, wanted):
            i = int(order[t])
            bt = bias_at[t] if bias else None
            nsq = float(wt @ wt) + (bt * bt if bias else 0.0)
            wdt = None
            if t_arr is not None:
                wdt = float(wt @ t_arr) + (bt * (tgt_b or 0.0) if bias else 0.0)
            steps.append(Step(t=t, epoch=t // n, index=i, label=int(yl[i]), activation=float(act[t]),
                              prediction=1 if act[t] > 0 else -1, mistake=bool(mis[t]),
                              weights=tuple(wt.tolist()), bias=bt, w_norm_sq=nsq, w_dot_target=wdt))
    tr = Trace(algorithm=algorithm, exact=False, n_examples=n, n_features=d, epochs=epochs, record=record,
               steps=steps, mistakes=int(mis.sum()), n_steps=T, weights=tuple(w.tolist()),
               bias=(float(b) if bias else None), initial_weights=tuple(w_init.tolist()),
               initial_bias=(b_init if bias else None), order=order.tolist(), mistake_flags=mis.tolist(),
               target=tgt, target_bias=tgt_b, params=params)
    tr.extras["_data"] = (A, yv)
    return tr


def _run_exact(rows, yl, order, epochs, bias, normalize, w0, b0, record, tgt, tgt_b, params, algorithm):
    n, d = len(rows), len(rows[0])
    if normalize:
        rows = normalize_rows_exact(rows)
    wq = (Fraction(0),) * d if w0 is None else check_vector(w0, d, exact=True, what="w0")
    bq = to_fraction(b0, what="b0")
    if not bias and bq != 0:
        raise InputError("b0 given but bias=False")
    ed = scale_exact(rows, extra=list(wq) + [bq])
    D = ed.D
    D2 = D * D
    w_int = [int(v * D) for v in wq]
    b_int = int(bq * D2)
    bias_step = D2 if bias else 0
    T = len(order)
    xmax = max((abs(v) for r in ed.X_int for v in r), default=0)
    wmax = max((abs(v) for v in w_int), default=0)
    bound = d * (wmax + T * xmax) * xmax + abs(b_int) + T * bias_step
    mis = np.zeros(T, dtype=np.bool_)
    w_init_int = list(w_int)
    if bound < INT64_SAFE:
        from . import _loops
        Xi = np.array(ed.X_int, dtype=np.int64)
        wi = np.array(w_int, dtype=np.int64)
        act_i = np.empty(T, dtype=np.int64)
        b_fin = _loops.perceptron_pass_int(Xi, np.asarray(yl, dtype=np.int64), order, wi, b_int, bias_step,
                                           act_i, mis, 0)
        w_fin = [int(v) for v in wi]
        acts = act_i.tolist()
        b_fin = int(b_fin)
        engine = "int64"
    else:
        w_fin, b_fin, acts = _exact_python_loop(ed.X_int, yl, order, w_int, b_int, bias_step, mis)
        engine = "python-int"
    params = dict(params, exact_engine=engine, denominator=D)
    steps = []
    wanted = _steps_wanted(record, mis)
    if wanted:
        tq = None
        if tgt is not None:
            from .numbers import lcm_of_denominators
            TD = lcm_of_denominators(tgt)
            tq = [int(v * TD) for v in tgt]
        bias_at = []
        bb = b_int
        for t in range(T):
            if mis[t]:
                bb += yl[order[t]] * bias_step
            bias_at.append(bb)
        for t, wt in cumulative_weights(w_init_int, ed.X_int, yl, order, mis, wanted):
            i = int(order[t])
            bt = Fraction(bias_at[t], D2) if bias else None
            nsq = Fraction(sum(v * v for v in wt), D2) + (bt * bt if bias else 0)
            wdt = None
            if tq is not None:
                wdt = Fraction(sum(a * c for a, c in zip(wt, tq)), D * TD) + (bt * (tgt_b or 0) if bias else 0)
            a = acts[t]
            steps.append(Step(t=t, epoch=t // n, index=i, label=int(yl[i]), activation=Fraction(a, D2),
                              prediction=1 if a > 0 else -1, mistake=bool(mis[t]),
                              weights=tuple(Fraction(v, D) for v in wt), bias=bt, w_norm_sq=nsq,
                              w_dot_target=wdt))
    tr = Trace(algorithm=algorithm, exact=True, n_examples=n, n_features=d, epochs=epochs, record=record,
               steps=steps, mistakes=int(mis.sum()), n_steps=T, weights=tuple(Fraction(v, D) for v in w_fin),
               bias=(Fraction(b_fin, D2) if bias else None), initial_weights=tuple(wq),
               initial_bias=(bq if bias else None), order=order.tolist(), mistake_flags=mis.tolist(),
               target=tgt, target_bias=tgt_b, params=params)
    tr.extras["_data"] = (rows, yl)
    return tr


def _exact_python_loop(X_int, yl, order, w, b, bias_step, mis):
    """The exact loop on Python integers (no overflow possible)."""
    w = list(w)
    acts = []
    d = len(w)
    rng = range(d)
    for t, i in enumerate(order.tolist()):
        x = X_int[i]
        a = sum(wj * xj for wj, xj in zip(w, x)) + b
        acts.append(a)
        yi = yl[i]
        if yi * a <= 0:
            mis[t] = True
            if yi > 0:
                for j in rng:
                    w[j] += x[j]
            else:
                for j in rng:
                    w[j] -= x[j]
            b += yi * bias_step
    return w, b, acts


# ---------------------------------------------------------------------------------------------
def averaged_weights(trace: Trace, include_initial: bool = False):
    """Average of the weight vectors of a perceptron run.

    include_initial=False (default; scikit-learn's ``SGDClassifier(average=True)`` convention):
    the mean of w_1..w_T, the weights *after* each of the T steps.
    include_initial=True: the mean of w_0..w_T (T + 1 vectors, the initial weights included).
    Returns (weights, bias) -- Fractions in exact mode.
    """
    rows, yl = trace.extras["_data"]
    T = trace.n_steps
    cnt = T + 1 if include_initial else T
    d = trace.n_features
    if trace.exact:
        acc = [Fraction(cnt) * v for v in trace.initial_weights]
        bacc = Fraction(cnt) * (trace.initial_bias or 0)
    else:
        acc = np.asarray(trace.initial_weights, dtype=np.float64) * cnt
        bacc = cnt * (trace.initial_bias or 0.0)
    for t, (i, m) in enumerate(zip(trace.order, trace.mistake_flags)):
        if m:
            k = T - t  # w_after(t) .. w_after(T-1) contain this update
            yi = yl[i]
            if trace.exact:
                for j in range(d):
                    acc[j] += k * yi * rows[i][j]
            else:
                acc += (k * yi) * rows[i]
            if trace.bias is not None:
                bacc += k * yi
    if trace.exact:
        w = tuple(v / cnt for v in acc)
        b = bacc / cnt if trace.bias is not None else None
    else:
        w = tuple((acc / cnt).tolist())
        b = bacc / cnt if trace.bias is not None else None
    return w, b


def voted_weights(trace: Trace):
    """Freund & Schapire's voted perceptron: the list of (weights, bias, count) where ``count`` is
    the number of steps the vector survived (it starts at 1 when the vector is created by a
    mistake; the initial vector starts at 0)."""
    rows, yl = trace.extras["_data"]
    exact = trace.exact
    w = list(trace.initial_weights)
    b = trace.initial_bias if trace.bias is not None else None
    out = []
    c = 0
    for t, (i, m) in enumerate(zip(trace.order, trace.mistake_flags)):
        if m:
            out.append((tuple(w), b, c))
            yi = yl[i]
            xi = rows[i]
            w = [wj + yi * xi[j] if exact else float(wj + yi * float(xi[j])) for j, wj in enumerate(w)]
            if b is not None:
                b = b + yi if exact else float(b + yi)
            c = 1
        else:
            c += 1
    out.append((tuple(w), b, c))
    return [v for v in out if v[2] > 0]
