"""Shared machinery of the reference learners: data preparation for the two arithmetic modes,
visiting orders, and rebuilding per-step weights from the mistake flags.

Exact mode works on integers: every number of the data set (and of the initial weights) is
scaled to one common denominator ``D``; the perceptron then only adds and multiplies integers
(``w_int = D w``, ``x_int = D x``, ``b_int = D^2 b``, activation ``= act_int / D^2``).  When an a
priori bound shows every value stays inside int64 the loop is compiled (numba); otherwise it runs
on Python integers, which cannot overflow.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from learners.errors import InputError
from learners.numbers import lcm_of_denominators
from learners.trace import RECORD_MODES

INT64_SAFE = 2 ** 62


def check_record(record: str) -> str:
    if record not in RECORD_MODES:
        raise InputError(f"record must be one of {', '.join(RECORD_MODES)}, got {record!r}")
    return record


def visiting_order(n: int, epochs: int, shuffle: bool, seed) -> np.ndarray:
    """Indices visited, all epochs concatenated.  Shuffling needs an explicit seed."""
    if not shuffle:
        return np.arange(n, dtype=np.int64) if epochs == 1 else np.tile(np.arange(n, dtype=np.int64), epochs)
    if seed is None:
        raise InputError("shuffle=True needs an explicit seed (runs must be reproducible)")
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.permutation(n).astype(np.int64) for _ in range(epochs)])


def exact_sqrt(q: Fraction):
    """sqrt of a non-negative rational if it is rational, else None."""
    p, r = q.numerator, q.denominator
    sp, sr = math.isqrt(p), math.isqrt(r)
    if sp * sp == p and sr * sr == r:
        return Fraction(sp, sr)
    return None


def normalize_rows_exact(rows):
    out = []
    for i, r in enumerate(rows):
        nsq = sum(v * v for v in r)
        if nsq == 0:
            out.append(r)
            continue
        s = exact_sqrt(nsq)
        if s is None:
            raise InputError(
                f"exact mode cannot normalize example {i}: |x|^2 = {nsq} is not the square of a rational "
                "(use float mode, or give unit-length examples)")
        out.append(tuple(v / s for v in r))
    return out


def normalize_rows_float(A):
    """Every non-zero row scaled to unit length (a new array, or a new CSR matrix); the squared
    norms are summed in index order, so dense and CSR data give the same bits."""
    from learners._loops_sparse import row_norms
    norms = np.sqrt(row_norms(A))
    norms[norms == 0] = 1.0
    if hasattr(A, "indptr"):
        B = A.copy()
        B.data = B.data / np.repeat(norms, np.diff(B.indptr))
        return B
    return A / norms[:, None]


@dataclass
class ExactData:
    """A data set scaled to integers: x = X_int / D."""
    rows: list          # tuples of Fraction (the checked data, after normalisation)
    D: int
    X_int: list         # list of lists of Python int

    @property
    def d(self):
        return len(self.rows[0])


def scale_exact(rows, extra=()) -> ExactData:
    D = lcm_of_denominators([v for r in rows for v in r] + list(extra))
    X_int = [[int(v * D) for v in r] for r in rows]
    return ExactData(rows=rows, D=D, X_int=X_int)


def cumulative_weights(w0, X, y, order, mis, steps_wanted):
    """Yield (t, w_after) for the steps in ``steps_wanted`` (sorted) by replaying the updates.
    Works for numpy float arrays (X dense or CSR) and for lists of Python ints alike."""
    w = w0.copy() if isinstance(w0, np.ndarray) else list(w0)
    want = iter(steps_wanted)
    nxt = next(want, None)
    if nxt is None:
        return
    sparse = hasattr(X, "indptr")
    for t in range(len(order)):
        if mis[t]:
            i = order[t]
            yi = y[i]
            if sparse:
                lo, hi = X.indptr[i], X.indptr[i + 1]
                w[X.indices[lo:hi]] += X.data[lo:hi] * yi
            elif isinstance(w, np.ndarray):
                w += X[i] * yi
            else:
                xi = X[i]
                for j in range(len(w)):
                    w[j] += yi * xi[j]
        while nxt == t:
            yield t, w
            nxt = next(want, None)
            if nxt is None:
                return
