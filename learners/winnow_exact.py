"""Exact Winnow on integer exponents (the engine behind ``run_winnow(exact=True)``).

Every weight is f^e or 0 (f = 2 for halving and elimination, alpha for Winnow2): the state is the
integer exponent of each weight, an ``alive`` flag, and a float copy f^e read from a table of
correctly rounded powers.  :mod:`learners._winnow_loops` decides each prediction from the float
sum when its rounding-error bound (or, for powers of two in a narrow window, its exactness)
settles the comparison with theta; the few steps it cannot settle -- near ties -- are decided
here in rational arithmetic, and the loop resumes.  The result is the rational run, step for
step (tests/learners/test_learners_winnow_fast.py checks it against :func:`learners.winnow.run_winnow_reference`).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from learners.errors import InputError
from learners.sparse import is_sparse

__all__ = ["ExactWinnow", "theta_bounds", "decide_rows", "PY_MAX_WORK"]

# A run of at most this many steps times features is decided step by step in rational arithmetic
# in Python (the definition of the exact run) instead of by the compiled loops.
PY_MAX_WORK = 4_000


def theta_bounds(th: Fraction):
    """(th_up, th_dn): the smallest double >= theta and the largest double <= theta."""
    try:
        f = float(th)
    except OverflowError:
        f = math.inf if th > 0 else -math.inf
    if math.isinf(f):
        return (f, np.finfo(float).max) if f > 0 else (-np.finfo(float).max, f)
    F = Fraction(f)
    if F == th:
        return f, f
    if F < th:
        return math.nextafter(f, math.inf), f
    return f, math.nextafter(f, -math.inf)


def _pow2_shift(up: Fraction):
    """k when up = 2**k (k >= 1), else 0."""
    p = up.numerator
    if up.denominator == 1 and p > 1 and p & (p - 1) == 0:
        return p.bit_length() - 1
    return 0


def _active(A, i):
    if is_sparse(A):
        lo, hi = A.indptr[i], A.indptr[i + 1]
        return A.indices[lo:hi][A.data[lo:hi] != 0].astype(np.int64)
    return np.flatnonzero(A[i])



def raise_if_not_binary(A, what: str = "X"):
    """The one-line error for the first entry of a dense array that is not 0 or 1 (if any)."""
    from learners._winnow_loops import binary_first_bad
    bad = binary_first_bad(A)
    if bad >= 0:
        i, j = divmod(int(bad), A.shape[1])
        v = A[i, j]
        if isinstance(v, (float, np.floating)) and not np.isfinite(v):
            raise InputError(f"{what}[{i}][{j}] is {v} (NaN and infinity are not allowed)")
        raise InputError(f"{what}[{i}][{j}] is {float(v):g}; Winnow features must be 0 or 1")


class _Table:
    """Correctly rounded f^e for e in [tmin, tmin + len): powers of two by ldexp (any range at
    once), other rationals from Fraction powers, widened on demand."""

    def __init__(self, up: Fraction, lo: int, hi: int):
        self.up = up
        self.shift = _pow2_shift(up)
        self.build(lo, hi)

    def build(self, lo, hi):
        self.tmin = lo
        ks = np.arange(lo, hi + 1, dtype=np.int64)
        if self.shift:
            with np.errstate(over="ignore", under="ignore"):
                self.values = np.ldexp(1.0, (ks * self.shift).astype(np.int32).clip(-2000, 2000))
        else:
            vals = []
            for k in ks.tolist():
                try:
                    vals.append(float(self.up ** k))
                except OverflowError:
                    vals.append(math.inf)
            self.values = np.array(vals)

    def widen(self):
        lo, hi = self.tmin, self.tmin + len(self.values) - 1
        span = max(64, hi - lo)
        self.build(lo - span, hi + span)


class ExactWinnow:
    """State and driver of one exact run."""

    def __init__(self, A, y, variant, up: Fraction, th: Fraction):
        from learners import _winnow_loops as WL
        self.WL = WL
        self.A, self.y = A, np.ascontiguousarray(y, dtype=np.int64)
        self.n = A.shape[1]
        self.variant = WL.VARIANT_CODES[variant]
        self.up, self.th = up, th
        r = 1100 // max(1, _pow2_shift(up)) + 1 if _pow2_shift(up) else 64     # powers of two: every finite value
        self.table = _Table(up, -r, r)
        self.pow2 = bool(self.table.shift)
        self.shift = max(1, self.table.shift)
        self.rel = 0.0 if self.pow2 else 2.0 ** -53
        self.nbits = int(self.n).bit_length()
        self.e = np.zeros(self.n, dtype=np.int64)
        self.alive = np.ones(self.n, dtype=np.uint8)
        self.wf = np.full(self.n, self.table.values[-self.table.tmin])
        self.emin = self.emax = 0
        self.th_up, self.th_dn = theta_bounds(th)
        self.exact_decisions = 0
        self._pw = {}

    def resume(self, e, alive):
        """Continue from the exponents and live flags of an earlier run."""
        self.e = np.array(e, dtype=np.int64)
        self.alive = np.array(alive, dtype=np.uint8)
        self.emin, self.emax = min(0, int(self.e.min())), max(0, int(self.e.max()))
        while self.table.tmin > self.emin or self.table.tmin + len(self.table.values) - 1 < self.emax:
            self.table.widen()
        self._refresh()

    def _refresh(self):
        t = self.table
        self.wf = np.where(self.alive != 0, t.values[self.e - t.tmin], 0.0)

    def _power(self, k):
        v = self._pw.get(k)
        if v is None:
            v = self._pw[k] = self.up ** k
        return v

    def exact_sum(self, act):
        return sum((self._power(int(self.e[j])) for j in act.tolist() if self.alive[j]), Fraction(0))

    def _update(self, act, promote):
        while True:
            ok, self.emin, self.emax = self.WL.exact_update(act, promote, self.variant, self.e, self.alive, self.wf,
                                                            self.table.values, self.table.tmin, self.emin, self.emax)
            if ok:
                return
            self.table.widen()
            self._refresh()

    def run(self, order):
        if len(order) * self.n <= PY_MAX_WORK:
            return self._run_rational(order)
        WL, A = self.WL, self.A
        T = len(order)
        fs = np.empty(T)
        mis = np.zeros(T, dtype=np.bool_)
        t = 0
        while True:
            tb = self.table
            common = (self.e, self.alive, self.wf, tb.values, tb.tmin, self.pow2, self.shift, self.nbits, self.emin,
                      self.emax, self.th_up, self.th_dn, self.rel, self.variant, fs, mis)
            if is_sparse(A):
                t, code, self.emin, self.emax = WL.csr_exact_pass(A.data, A.indices, A.indptr, self.y, order, t,
                                                                  *common)
            else:
                t, code, self.emin, self.emax = WL.exact_pass(A, self.y, order, t, *common)
            if code == WL.DONE:
                return mis, fs
            if code == WL.BAD:
                raise_if_not_binary(A)
            if code == WL.GROW:
                self.table.widen()
                self._refresh()
                continue
            i = int(order[t])              # a step the float sum could not settle: decide it exactly
            act = _active(A, i)
            self.exact_decisions += 1
            p = 1 if self.exact_sum(act) >= self.th else 0
            m = p != self.y[i]
            mis[t] = m
            if m:
                self._update(act, bool(self.y[i] == 1))
            t += 1

    def _run_rational(self, order):
        """A small run: every step decided in rational arithmetic, the exponents updated as
        :func:`learners._winnow_loops.exact_update` does, without importing numba and loading the
        compiled loops (about a second in a fresh process) for a run of a few microseconds."""
        A = self.A
        if not is_sparse(A) and A.size and bool(np.any((A != 0) & (A != 1))):
            raise_if_not_binary(A)
        T = len(order)
        fs = np.empty(T)
        mis = np.zeros(T, dtype=np.bool_)
        e, alive, y = self.e.tolist(), self.alive.tolist(), self.y.tolist()
        eliminate = self.variant == self.WL.ELIMINATE
        rows: dict = {}
        for t, i in enumerate(order.tolist()):
            act = rows.get(i)
            if act is None:
                act = rows[i] = _active(A, i).tolist()
            s = sum((self._power(e[j]) for j in act if alive[j]), Fraction(0))
            try:
                fs[t] = float(s)
            except OverflowError:
                fs[t] = math.inf
            yi = y[i]
            if (1 if s >= self.th else 0) != yi:
                mis[t] = True
                for j in act:
                    if not alive[j]:
                        continue
                    if yi != 1 and eliminate:
                        alive[j] = 0
                    else:
                        e[j] += 1 if yi == 1 else -1
        self.exact_decisions += T
        self.e = np.array(e, dtype=np.int64)
        self.alive = np.array(alive, dtype=np.uint8)
        self.emin, self.emax = min(0, self.emin, min(e, default=0)), max(0, self.emax, max(e, default=0))
        while self.table.tmin > self.emin or self.table.tmin + len(self.table.values) - 1 < self.emax:
            self.table.widen()
        self._refresh()
        return mis, fs

    def weights(self):
        zero = Fraction(0)
        return tuple(self._power(int(k)) if a else zero for k, a in zip(self.e.tolist(), self.alive.tolist()))


def decide_rows(B, weights, th: Fraction):
    """w.x >= theta (as 1/0) for every row of the {0,1} data B, w given as exact weights (each a
    power of one factor, or 0): the float sum with its error bound, rational arithmetic near a tie."""
    from learners import _winnow_loops as WL
    w = [Fraction(v) for v in weights]
    n = len(w)
    wf = np.array([float(v) if v < 2 ** 1023 else math.inf for v in w])
    exact_floats = all(Fraction(f) == v for f, v in zip(wf.tolist(), w) if math.isfinite(f))
    th_up, th_dn = theta_bounds(th)
    m = B.shape[0]
    s = np.empty(m)
    if is_sparse(B):
        WL.csr_exact_sums_any(B.data, B.indices, B.indptr, wf, s)
    elif WL.exact_sums_any(B, wf, s) >= 0:
        raise_if_not_binary(B)
    rel = 0.0 if exact_floats else 2.0 ** -53
    with np.errstate(invalid="ignore", over="ignore"):
        err = s * ((n + 1) * WL.U + rel) * 1.05 + (n + 1) * 1e-323
        one = s - err >= th_up
        zero = s + err < th_dn
    out = one.astype(np.int64)
    for i in np.flatnonzero(~(one | zero) | ~np.isfinite(s)).tolist():
        act = _active(B, i)
        out[i] = 1 if sum((w[j] for j in act.tolist()), Fraction(0)) >= th else 0
    return out
