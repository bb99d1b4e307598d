"""Compiled Winnow passes (see :mod:`learners.winnow`), on dense {0,1} rows of any numeric dtype or
on CSR rows (``data``, ``indices``, ``indptr``; a stored 0 is skipped).

Float mode (:func:`float_pass`, :func:`csr_float_pass`): each activation is the sum of the active
weights in index order, from 0.0 -- the reference loop's arithmetic.  The dense pass is
latency-bound, so it sums the next four rows at once against the current weights (four
independent chains) and recomputes the rows behind a mistake: a speculation that never changes a
result.

Exact mode (:func:`exact_pass`, :func:`csr_exact_pass`): every weight is f^e (f the promotion
factor) or 0, kept as the integer exponent ``e`` and an ``alive`` flag, with a float copy
``wf = table[e - tmin]`` (the correctly rounded f^e).  The float sum of the active copies decides a
prediction when it is provably on one side of theta:

* exact sums -- f = 2^shift and every live exponent in [emin, emax] with
  shift (emax - emin) + nbits <= 53 (2^nbits >= n), all values normal: every partial sum is a
  multiple of 2^(shift emin) below 2^(shift emin + 53), so the float sum *is* the rational sum, in
  any order, and ``s >= th_up`` (th_up = the smallest double >= theta) is the exact test;
* otherwise the sum s is within err = s ((n + 1) u + rel) 1.05 + (n + 1) 2^-1073 of the rational
  sum (u = 2^-53, rel = the tables' relative error: 0 for powers of two, u otherwise), and
  s - err >= th_up gives 1, s + err < th_dn gives 0 (th_dn = the largest double <= theta).

Anything else (a near tie, an overflow, an exponent outside the table) returns the step to the
caller, which decides it in rational arithmetic and resumes.  (emin, emax) only ever widen: a
conservative window.
"""
import numpy as np

from learners._jit import compiled
from learners._loops import FAST_FLAGS

HALVE, ELIMINATE, WINNOW2 = 1, 2, 3
VARIANT_CODES = {"halve": HALVE, "eliminate": ELIMINATE, "winnow2": WINNOW2}
U = 2.0 ** -53
DONE, UNDECIDED, GROW, BAD = 0, 1, 2, 3


@compiled
def binary_first_bad(X):
    """Flat index of the first entry of a dense array that is neither 0 nor 1, or -1 (one
    branch-free pass per row; the row with a bad entry is searched again)."""
    n, d = X.shape
    for i in range(n):
        bad = False
        for j in range(d):
            v = X[i, j]
            bad |= (v != 0) & (v != 1)
        if bad:
            for j in range(d):
                v = X[i, j]
                if v != 0 and v != 1:
                    return i * d + j
    return -1


# --- float mode ---------------------------------------------------------------------------------
@compiled
def _float_update(w, act_j, up_col, variant, up, down):
    for j in act_j:
        if up_col:
            w[j] = w[j] * up
        elif variant == ELIMINATE:
            w[j] = w[j] * 0.0
        else:
            w[j] = w[j] / down


@compiled
def float_pass(X, y, order, w, up, down, variant, th, act, mis):
    """Dense float Winnow over ``order``: activations and mistake flags out, ``w`` updated.  Every
    row read is also checked to be 0/1 (fused into the sum: the data is read once); returns -1, or
    the index of a row that is not (the pass stops there)."""
    d = X.shape[1]
    T = order.shape[0]
    k = 0
    while k < T:
        r = min(4, T - k)
        i0 = order[k]
        i1 = order[k + 1] if r > 1 else i0
        i2 = order[k + 2] if r > 2 else i0
        i3 = order[k + 3] if r > 3 else i0
        s0 = 0.0
        s1 = 0.0
        s2 = 0.0
        s3 = 0.0
        bad = False
        for j in range(d):
            wj = w[j]
            x0 = X[i0, j]
            x1 = X[i1, j]
            x2 = X[i2, j]
            x3 = X[i3, j]
            bad |= ((x0 != 0) & (x0 != 1)) | ((x1 != 0) & (x1 != 1)) | ((x2 != 0) & (x2 != 1)) | ((x3 != 0) & (x3 != 1))
            s0 += wj if x0 != 0 else 0.0
            s1 += wj if x1 != 0 else 0.0
            s2 += wj if x2 != 0 else 0.0
            s3 += wj if x3 != 0 else 0.0
        if bad:
            return i0
        ss = (s0, s1, s2, s3)
        for q in range(r):
            i = order[k]
            s = ss[q]
            act[k] = s
            p = 1 if s >= th else 0
            yi = y[i]
            k += 1
            if p != yi:
                mis[k - 1] = True
                _float_update(w, np.flatnonzero(X[i]), yi == 1, variant, up, down)
                break          # w changed: the sums behind this one are stale
            mis[k - 1] = False
    return -1


@compiled
def float_pass_bound(X, y, order, w, up, down, variant, th, act, mis):
    """:func:`float_pass` for runs that record no step: each row's sum is taken in any order
    (vectorised) and decides when it is provably on the side of theta the index-order sum is on
    (both are within n u / (1 - n u) of the exact sum of the float weights, all >= 0); otherwise
    the index-order sum decides.  The same mistakes and bitwise the same weights as
    :func:`float_pass`; ``act`` holds the any-order sums.  Returns -1 or a row that is not 0/1."""
    d = X.shape[1]
    eps = (d + 2) * U * 1.05
    for k in range(order.shape[0]):
        i = order[k]
        s, bad = _dense_sum_any(X, i, w)
        if bad:
            return i
        act[k] = s
        if np.isfinite(s) and s * (1.0 - 2.0 * eps) >= th:
            p = 1
        elif np.isfinite(s) and s * (1.0 + 2.0 * eps) < th:
            p = 0
        else:
            q = 0.0
            for j in range(d):
                q += w[j] if X[i, j] != 0 else 0.0
            p = 1 if q >= th else 0
        yi = y[i]
        mis[k] = p != yi
        if p != yi:
            _float_update(w, np.flatnonzero(X[i]), yi == 1, variant, up, down)
    return -1


@compiled
def csr_float_pass(data, indices, indptr, y, order, w, up, down, variant, th, act, mis):
    for k in range(order.shape[0]):
        i = order[k]
        s = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            if data[p] != 0:
                s += w[indices[p]]
        act[k] = s
        yi = y[i]
        m = (1 if s >= th else 0) != yi
        mis[k] = m
        if m:
            lo, hi = indptr[i], indptr[i + 1]
            _float_update(w, indices[lo:hi][data[lo:hi] != 0], yi == 1, variant, up, down)


@compiled
def dense_sums_seq(X, w, out):
    """out[i] = sum of w over the active features of row i, in index order (float predictions).
    Returns -1, or the first row that is not 0/1."""
    for i in range(X.shape[0]):
        s = 0.0
        bad = False
        for j in range(X.shape[1]):
            v = X[i, j]
            bad |= (v != 0) & (v != 1)
            s += w[j] if v != 0 else 0.0
        if bad:
            return i
        out[i] = s
    return -1


@compiled
def csr_sums_seq(data, indices, indptr, w, out):
    for i in range(indptr.shape[0] - 1):
        s = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            if data[p] != 0:
                s += w[indices[p]]
        out[i] = s


# --- exact mode ---------------------------------------------------------------------------------
@compiled(fastmath=FAST_FLAGS)
def _dense_sum_any(X, i, wf):
    """(sum of wf over the active features of row i in any order, whether the row is not 0/1)."""
    s = 0.0
    bad = False
    for j in range(X.shape[1]):
        v = X[i, j]
        bad |= (v != 0) & (v != 1)
        s += wf[j] if v != 0 else 0.0
    return s, bad


@compiled
def decide(s, n, exact_sum, th_up, th_dn, rel):
    """1 / 0 when the float sum s of the live active weights decides w.x >= theta, else -1."""
    if exact_sum:
        return 1 if s >= th_up else 0
    if not np.isfinite(s):
        return -1
    err = s * ((n + 1) * U + rel) * 1.05 + (n + 1) * 1e-323
    if s - err >= th_up:
        return 1
    if s + err < th_dn:
        return 0
    return -1


@compiled
def window_exact(pow2, shift, emin, emax, nbits):
    lo = shift * emin
    hi = shift * emax
    return pow2 and shift * (emax - emin) + nbits <= 53 and lo >= -1022 and hi + nbits <= 1023


@compiled
def exact_update(act_j, promote, variant, e, alive, wf, table, tmin, emin, emax):
    """Apply one update to the active features; returns (ok, emin, emax).  Nothing changes when
    an exponent would leave the table (ok = False: the caller grows it and retries)."""
    delta = 1 if promote else -1
    if promote or variant != ELIMINATE:
        for j in act_j:
            if alive[j]:
                k = e[j] + delta - tmin
                if k < 0 or k >= table.shape[0]:
                    return False, emin, emax
    for j in act_j:
        if not alive[j]:
            continue
        if not promote and variant == ELIMINATE:
            alive[j] = 0
            wf[j] = 0.0
            continue
        e[j] += delta
        wf[j] = table[e[j] - tmin]
        if e[j] > emax:
            emax = e[j]
        if e[j] < emin:
            emin = e[j]
    return True, emin, emax


@compiled
def exact_pass(X, y, order, t0, e, alive, wf, table, tmin, pow2, shift, nbits, emin, emax, th_up, th_dn, rel,
               variant, fs, mis):
    """Exact Winnow from step t0.  Returns (t, code, emin, emax): code DONE (t = T), UNDECIDED (the
    caller decides step t exactly), GROW (step t needs a wider exponent table) or BAD (the row of
    step t is not 0/1)."""
    n = X.shape[1]
    for t in range(t0, order.shape[0]):
        i = order[t]
        s, bad = _dense_sum_any(X, i, wf)
        if bad:
            return t, BAD, emin, emax
        fs[t] = s
        p = decide(s, n, window_exact(pow2, shift, emin, emax, nbits), th_up, th_dn, rel)
        if p < 0:
            return t, UNDECIDED, emin, emax
        yi = y[i]
        if p != yi:
            ok, emin, emax = exact_update(np.flatnonzero(X[i]), yi == 1, variant, e, alive, wf, table, tmin,
                                          emin, emax)
            if not ok:
                return t, GROW, emin, emax
            mis[t] = True
        else:
            mis[t] = False
    return order.shape[0], DONE, emin, emax


@compiled(fastmath=FAST_FLAGS)
def _csr_sum_any(data, indices, lo, hi, wf):
    s = 0.0
    for p in range(lo, hi):
        s += wf[indices[p]] if data[p] != 0 else 0.0
    return s


@compiled
def csr_exact_pass(data, indices, indptr, y, order, t0, e, alive, wf, table, tmin, pow2, shift, nbits, emin, emax,
                   th_up, th_dn, rel, variant, fs, mis):
    """:func:`exact_pass` on CSR rows (``n`` comes in as ``e.shape[0]``)."""
    n = e.shape[0]
    for t in range(t0, order.shape[0]):
        i = order[t]
        lo, hi = indptr[i], indptr[i + 1]
        s = _csr_sum_any(data, indices, lo, hi, wf)
        fs[t] = s
        p = decide(s, n, window_exact(pow2, shift, emin, emax, nbits), th_up, th_dn, rel)
        if p < 0:
            return t, UNDECIDED, emin, emax
        yi = y[i]
        if p != yi:
            ok, emin, emax = exact_update(indices[lo:hi][data[lo:hi] != 0], yi == 1, variant, e, alive, wf, table,
                                          tmin, emin, emax)
            if not ok:
                return t, GROW, emin, emax
            mis[t] = True
        else:
            mis[t] = False
    return order.shape[0], DONE, emin, emax


@compiled
def exact_sums_any(X, wf, out):
    """Float sums for exact predictions; returns -1, or the first row that is not 0/1."""
    for i in range(X.shape[0]):
        s, bad = _dense_sum_any(X, i, wf)
        if bad:
            return i
        out[i] = s
    return -1


@compiled
def csr_exact_sums_any(data, indices, indptr, wf, out):
    for i in range(indptr.shape[0] - 1):
        out[i] = _csr_sum_any(data, indices, indptr[i], indptr[i + 1], wf)
