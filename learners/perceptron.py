"""The perceptron (Rosenblatt), with the averaged and voted forms (Freund & Schapire).

Conventions (docs/learners.md): examples are visited in the given order (or shuffled per epoch
with an explicit seed); a mistake is y (w.x + b) <= 0, so a tie is a mistake; on a mistake
w += y x and, with a bias, b += y; the weights start at 0 unless given; inputs are never modified.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners.core import (INT64_SAFE, check_record, cumulative_weights, normalize_rows_exact,
                   normalize_rows_float, scale_exact, visiting_order)
from learners.errors import InputError
from learners.numbers import to_fraction
from learners.sparse import check_csr, int_valued_csr, is_sparse
from learners.trace import ArraySeq, Step, Trace
from learners.validation import (check_epochs, check_int_matrix, check_labels, check_matrix, check_vector,
                         raise_if_nonfinite)

__all__ = ["run_perceptron", "averaged_weights", "voted_weights", "vote_arrays", "ArraySeq"]


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
    be ints, Fractions, floats (their exact binary value) or strings ``"p/q"``.  The engine
    (``trace.params["exact_engine"]``) follows from an a-priori bound on every intermediate value:
    ``float64-exact`` (an integer-valued numpy float array, all values below 2**53: float
    arithmetic on it is exact in any order), ``int64`` (compiled; a run of at most
    ``PY_MAX_WORK`` steps times features takes the same loop on Python integers), or ``python-int``.
    fast=True (float mode only): the dot products may be summed in any order (SIMD, FMA); the
    default float path sums in index order and is bitwise equal to scikit-learn's Perceptron.
    Float mode never copies a C-contiguous float64 X and checks it for NaN/inf through the
    activations of the compiled loop (same error message as ``check_matrix``); a float overflow
    during the run is an :class:`InputError` too.
    """
    epochs = check_epochs(epochs)
    record = check_record(record)
    if fast and exact:
        raise InputError("fast=True is a float-mode option; exact mode has no rounding to trade")
    Xc = Xi = None
    if is_sparse(X):
        A = check_csr(X)           # CSR, float64, finite: used as it is
        if not exact:
            Xc = A
        elif not normalize:
            Xi = int_valued_csr(A)
        if Xc is None and Xi is None:
            X = A.toarray()        # exact mode on non-integer values: the general (Fraction) path
    elif exact and not normalize:
        Xi = check_int_matrix(X)
    if Xi is not None:
        Xc = Xi                    # exact mode on an integer-valued array: no Fraction per entry
        n, d = Xi[0].shape
    elif Xc is not None:
        n, d = Xc.shape
    else:
        # float mode: the NaN/inf scan is done by the compiled loop (through the activations)
        Xc = check_matrix(X, exact=exact, check_finite=exact)
        n = len(Xc)
        d = len(Xc[0])
    yl = check_labels(y, n, kind="pm1", as_array=not exact or Xi is not None)
    order = visiting_order(n, epochs, shuffle, seed)
    tgt, tgt_b = _target(target, target_bias, d, exact, bias)
    params = {"bias": bool(bias), "normalize": bool(normalize), "shuffle": bool(shuffle), "seed": seed,
              "fast": bool(fast)}
    if exact:
        return _run_exact(Xc, yl, order, epochs, bias, normalize, w0, b0, record, tgt, tgt_b, params, algorithm,
                          int_matrix=Xi is not None)
    return _run_float(Xc, yl, order, epochs, bias, normalize, w0, b0, record, tgt, tgt_b, params, algorithm, fast)


# ---------------------------------------------------------------------------------------------
def _steps_wanted(record, mis):
    if record == "all":
        return list(range(len(mis)))
    if record == "mistakes":
        return np.flatnonzero(mis).tolist()
    return []


def _run_float(A, yl, order, epochs, bias, normalize, w0, b0, record, tgt, tgt_b, params, algorithm, fast):
    from learners._loops_sparse import run_pass
    n, d = A.shape
    A_in = A
    if normalize:
        A = normalize_rows_float(A)
        if not is_sparse(A):
            A.flags.writeable = False
    w = np.zeros(d) if w0 is None else check_vector(w0, d, exact=False, what="w0")
    w_init = w.copy()
    b = float(to_fraction(b0, what="b0")) if bias else 0.0
    if not bias and to_fraction(b0, what="b0") != 0:
        raise InputError("b0 given but bias=False")
    b_init = b
    yv = yl.astype(np.float64)
    T = len(order)
    act = np.empty(T)
    mis = np.zeros(T, dtype=np.bool_)
    b, stop = run_pass("fast" if fast else "seq", A, yv, order, w, b, bool(bias), act, mis, 0)
    if fast and stop < 0:
        # under fastmath LLVM may fold the loop's own isfinite test away: check the activations
        # here (T values, not n*d; a NaN/inf in a visited row makes its activation non-finite)
        bad = np.flatnonzero(~np.isfinite(act))
        stop = int(bad[0]) if bad.size else -1
    if stop >= 0:
        # the deferred finiteness check of learners.validation.check_matrix (CSR data: done)
        if not is_sparse(A_in):
            raise_if_nonfinite(A_in)
        raise InputError(f"floating-point overflow at step {stop} (example {int(order[stop])}): the activation "
                         f"is {act[stop]}; rescale the data")
    steps = []
    wanted = _steps_wanted(record, mis)
    if wanted:
        t_arr = None if tgt is None else np.asarray(tgt)
        # the bias after each step, summed in the loop's order (b_init first)
        bias_at = np.cumsum(np.concatenate(([b_init], np.where(mis, yv[order], 0.0))))[1:] if bias else None
        for t, wt in cumulative_weights(w_init, A, yv, order, mis, wanted):
            i = int(order[t])
            bt = float(bias_at[t]) if bias else None
            nsq = float(wt @ wt) + (bt * bt if bias else 0.0)
            wdt = None
            if t_arr is not None:
                wdt = float(wt @ t_arr) + (bt * (tgt_b or 0.0) if bias else 0.0)
            steps.append(Step(t=t, epoch=t // n, index=i, label=int(yl[i]), activation=float(act[t]),
                              prediction=1 if act[t] > 0 else -1, mistake=bool(mis[t]),
                              weights=tuple(wt.tolist()), bias=bt, w_norm_sq=nsq, w_dot_target=wdt))
    tr = Trace(algorithm=algorithm, exact=False, n_examples=n, n_features=d, epochs=epochs, record=record,
               steps=steps, mistakes=int(np.count_nonzero(mis)), n_steps=T, weights=tuple(w.tolist()),
               bias=(float(b) if bias else None), initial_weights=tuple(w_init.tolist()),
               initial_bias=(b_init if bias else None), order=ArraySeq(order), mistake_flags=ArraySeq(mis),
               target=tgt, target_bias=tgt_b, params=params)
    tr.extras["_data"] = (A, yv)
    return tr


class _IntRows:
    """Rows of an integer matrix as tuples of ``Fraction`` (built when asked, one row at a time)."""

    def __init__(self, Xi):
        self._X = Xi

    def __len__(self):
        return self._X.shape[0]

    def __getitem__(self, i):
        r = self._X[i]
        return tuple(Fraction(int(v)) for v in (r.toarray().ravel() if is_sparse(r) else r).tolist())


def _dense_rows(X):
    """The rows of a dense array or a CSR matrix as lists."""
    return (X.toarray() if is_sparse(X) else X).tolist()


FLOAT_EXACT = 2 ** 53     # integers below this are exact in float64, and so are their sums


def _run_exact(rows, yl, order, epochs, bias, normalize, w0, b0, record, tgt, tgt_b, params, algorithm,
               int_matrix=False):
    from learners._loops_sparse import PY_MAX_WORK, run_pass
    n, d = (rows[0].shape if int_matrix else (len(rows), len(rows[0])))
    wq = (Fraction(0),) * d if w0 is None else check_vector(w0, d, exact=True, what="w0")
    bq = to_fraction(b0, what="b0")
    if not bias and bq != 0:
        raise InputError("b0 given but bias=False")
    if int_matrix and (any(v.denominator != 1 for v in wq) or bq.denominator != 1):
        # a common denominator is needed: take the general path
        rows = [tuple(Fraction(int(v)) for v in r) for r in _dense_rows(rows[0])]
        yl = yl.tolist()
        int_matrix = False
    if int_matrix:
        Xi, xmax = rows
        D = 1
        X_int = None          # lists of Python ints, built only when a trace asks for weights
        rows = _IntRows(Xi)
    else:
        if normalize:
            rows = normalize_rows_exact(rows)
        ed = scale_exact(rows, extra=list(wq) + [bq])
        D = ed.D
        X_int = ed.X_int
        xmax = max((abs(v) for r in X_int for v in r), default=0)
    D2 = D * D
    w_int = [int(v * D) for v in wq]
    b_int = int(bq * D2)
    bias_step = D2 if bias else 0
    T = len(order)
    wmax = max((abs(v) for v in w_int), default=0)
    # no intermediate value (weight, product, partial dot product, bias) can exceed this
    bound = d * (wmax + T * xmax) * xmax + abs(b_int) + T * bias_step
    mis = np.zeros(T, dtype=np.bool_)
    w_init_int = list(w_int)
    acts = None
    act_i = None
    if int_matrix and Xi.dtype == np.float64 and bound < FLOAT_EXACT:
        # float64 arithmetic on integers below 2**53 is exact in any order: the compiled float
        # loop (SIMD) gives the exact run without converting the data
        wf = np.array(w_int, dtype=np.float64)
        act_f = np.empty(T)
        b_fin, _ = run_pass("fast", Xi, yl.astype(np.float64), order, wf, float(b_int), bool(bias), act_f, mis, 0)
        w_fin = [int(v) for v in wf.tolist()]
        b_fin = int(b_fin)
        act_i = act_f
        engine = "float64-exact"
    elif bound < INT64_SAFE and T * d <= PY_MAX_WORK:
        # a small run: the same integer loop on Python integers (nothing can leave int64, so the
        # two agree exactly), without importing numba and loading the compiled loop (about a
        # second in a fresh process) for a run of a few microseconds
        if X_int is None:
            X_int = [[int(v) for v in r] for r in _dense_rows(Xi)]
        w_fin, b_fin, acts = _exact_python_loop(X_int, yl.tolist() if isinstance(yl, np.ndarray) else yl, order,
                                                w_int, b_int, bias_step, mis)
        engine = "int64"
    elif bound < INT64_SAFE:
        if not int_matrix:
            Xi = np.array(X_int, dtype=np.int64)
        elif Xi.dtype != np.int64:
            Xi = Xi.astype(np.int64)
        wi = np.array(w_int, dtype=np.int64)
        act_i = np.empty(T, dtype=np.int64)
        yi64 = yl if int_matrix else np.asarray(yl, dtype=np.int64)
        b_fin = run_pass("int", Xi, yi64, order, wi, b_int, bias_step, act_i, mis, 0)
        w_fin = [int(v) for v in wi]
        b_fin = int(b_fin)
        engine = "int64"
    else:
        if X_int is None:
            X_int = [[int(v) for v in r] for r in _dense_rows(Xi)]
        w_fin, b_fin, acts = _exact_python_loop(X_int, yl.tolist() if isinstance(yl, np.ndarray) else yl, order,
                                                w_int, b_int, bias_step, mis)
        engine = "python-int"
    params = dict(params, exact_engine=engine, denominator=D)
    steps = []
    wanted = _steps_wanted(record, mis)
    if wanted:
        if acts is None:
            acts = [int(v) for v in act_i.tolist()]
        if X_int is None:
            X_int = [[int(v) for v in r] for r in _dense_rows(Xi)]
        ylist = yl.tolist() if isinstance(yl, np.ndarray) else yl
        tq = None
        if tgt is not None:
            from learners.numbers import lcm_of_denominators
            TD = lcm_of_denominators(tgt)
            tq = [int(v * TD) for v in tgt]
        bias_at = []
        bb = b_int
        for t in range(T):
            if mis[t]:
                bb += ylist[order[t]] * bias_step
            bias_at.append(bb)
        for t, wt in cumulative_weights(w_init_int, X_int, ylist, order.tolist(), mis, wanted):
            i = int(order[t])
            bt = Fraction(bias_at[t], D2) if bias else None
            nsq = Fraction(sum(v * v for v in wt), D2) + (bt * bt if bias else 0)
            wdt = None
            if tq is not None:
                wdt = Fraction(sum(a * c for a, c in zip(wt, tq)), D * TD) + (bt * (tgt_b or 0) if bias else 0)
            a = acts[t]
            steps.append(Step(t=t, epoch=t // n, index=i, label=int(ylist[i]), activation=Fraction(a, D2),
                              prediction=1 if a > 0 else -1, mistake=bool(mis[t]),
                              weights=tuple(Fraction(v, D) for v in wt), bias=bt, w_norm_sq=nsq,
                              w_dot_target=wdt))
    tr = Trace(algorithm=algorithm, exact=True, n_examples=n, n_features=d, epochs=epochs, record=record,
               steps=steps, mistakes=int(np.count_nonzero(mis)), n_steps=T,
               weights=tuple(Fraction(v, D) for v in w_fin),
               bias=(Fraction(b_fin, D2) if bias else None), initial_weights=tuple(wq),
               initial_bias=(bq if bias else None), order=ArraySeq(order), mistake_flags=ArraySeq(mis),
               target=tgt, target_bias=tgt_b, params=params)
    tr.extras["_data"] = (rows, yl.tolist() if isinstance(yl, np.ndarray) else yl)
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
    order = np.asarray(trace.order, dtype=np.int64)
    steps = np.flatnonzero(np.asarray(trace.mistake_flags, dtype=bool))
    if trace.exact:
        acc = [Fraction(cnt) * v for v in trace.initial_weights]
        bacc = Fraction(cnt) * (trace.initial_bias or 0)
        for t in steps.tolist():
            i = int(order[t])
            k = T - t  # w_after(t) .. w_after(T-1) contain this update
            yi = yl[i]
            xi = rows[i]
            for j in range(d):
                acc[j] += k * yi * xi[j]
            if trace.bias is not None:
                bacc += k * yi
        w = tuple(v / cnt for v in acc)
        b = bacc / cnt if trace.bias is not None else None
        return w, b
    acc = np.asarray(trace.initial_weights, dtype=np.float64) * cnt
    bacc = cnt * (trace.initial_bias or 0.0)
    yv = np.asarray(yl, dtype=np.float64)
    idx = order[steps]
    coef = (T - steps) * yv[idx]
    from learners._loops_sparse import update_rows
    update_rows(rows, idx, coef, acc)          # compiled, in step order: dense and CSR alike
    if trace.bias is not None:
        bacc += float(coef.sum())
    w = tuple((acc / cnt).tolist())
    b = bacc / cnt if trace.bias is not None else None
    return w, b


def vote_arrays(trace: Trace):
    """The votes of a float-mode run as arrays: ``(W, b, count)`` with W the (votes x d) matrix
    of weight vectors (prefix sums of the updates), b their biases (None without a bias) and
    count how many steps each survived (every vote kept, also those with count 0)."""
    from learners._loops_sparse import prefix_rows
    rows, yl = trace.extras["_data"]
    order = np.asarray(trace.order, dtype=np.int64)
    steps = np.flatnonzero(np.asarray(trace.mistake_flags, dtype=bool))
    sign = np.asarray(yl, dtype=np.float64)[order[steps]]
    W = prefix_rows(rows, order[steps], sign, np.asarray(trace.initial_weights, dtype=np.float64))
    b = None
    if trace.bias is not None:
        b = np.cumsum(np.concatenate(([float(trace.initial_bias)], sign)))
    edges = np.concatenate(([0], steps, [trace.n_steps]))
    count = np.diff(edges).astype(np.int64)
    return W, b, count


def voted_weights(trace: Trace):
    """Freund & Schapire's voted perceptron: the list of (weights, bias, count) where ``count`` is
    the number of steps the vector survived (it starts at 1 when the vector is created by a
    mistake; the initial vector starts at 0)."""
    if not trace.exact:
        W, b, count = vote_arrays(trace)
        return [(tuple(W[k].tolist()), None if b is None else float(b[k]), int(count[k]))
                for k in range(len(count)) if count[k] > 0]
    rows, yl = trace.extras["_data"]
    w = list(trace.initial_weights)
    b = trace.initial_bias if trace.bias is not None else None
    order = np.asarray(trace.order, dtype=np.int64)
    steps = np.flatnonzero(np.asarray(trace.mistake_flags, dtype=bool)).tolist()   # only the mistakes
    out = []
    prev = -1          # step of the last update (-1: the initial vector, which starts at count 0)
    for t in steps:
        out.append((tuple(w), b, t - prev - 1 + (1 if prev >= 0 else 0)))
        i = int(order[t])
        yi = yl[i]
        xi = rows[i]
        w = [wj + yi * xi[j] for j, wj in enumerate(w)]
        if b is not None:
            b = b + yi
        prev = t
    T = len(order)
    out.append((tuple(w), b, T - prev - 1 + (1 if prev >= 0 else 0)))
    return [v for v in out if v[2] > 0]
