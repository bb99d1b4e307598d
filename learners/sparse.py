"""scipy.sparse input, as scikit-learn's linear models take it: any sparse matrix or array is
used as CSR (other formats are converted), with the same results as the dense matrix.

The learners read CSR rows with sorted column indices and without duplicate entries (a sum in
index order is then the dense sum without its zero terms, which changes no bit: adding +0.0 or
-0.0 to a running sum that started at 0.0 leaves it as it is, up to the sign of a zero result).
A matrix already in that form is used as it is, without a copy; anything else is converted into
a new matrix -- the caller's matrix is never modified.
"""
from __future__ import annotations

import numpy as np

from learners.errors import InputError

__all__ = ["is_sparse", "check_csr", "int_valued_csr"]


def is_sparse(X) -> bool:
    mod = type(X).__module__ or ""
    return mod.startswith("scipy.sparse") and hasattr(X, "tocsr") and hasattr(X, "nnz")


def _first_bad(A, bad_data, what, message):
    """The (row, column) of the first stored entry flagged in ``bad_data``."""
    k = int(np.flatnonzero(bad_data)[0])
    i = int(np.searchsorted(A.indptr, k, side="right") - 1)
    j = int(A.indices[k])
    raise InputError(message(f"{what}[{i}][{j}]", A.data[k]))


def check_csr(X, *, what: str = "X", binary: bool = False, check_finite: bool = True):
    """A scipy.sparse matrix as a canonical CSR matrix: float64 data (``binary=True``: the stored
    values must be 0 or 1; the data keep their dtype), sorted indices, no duplicates, at least one
    row and one column, every value finite."""
    if not is_sparse(X):
        raise InputError(f"{what} is not a scipy.sparse matrix")
    if len(X.shape) != 2:
        raise InputError(f"{what} must be 2-D (n examples x d features)")
    n, d = X.shape
    if n == 0:
        raise InputError(f"{what} is empty: no examples")
    if d == 0:
        raise InputError(f"{what} has no features (d = 0)")
    if X.dtype.kind not in "biuf":
        raise InputError(f"{what} has dtype {X.dtype}: expected real numbers")
    A = X if X.format == "csr" else X.tocsr()
    copied = A is not X
    want = (np.uint8 if A.dtype == np.bool_ else A.dtype) if binary else np.float64
    if A.dtype != want:
        A = A.astype(want)
        copied = True
    if not A.has_canonical_format:
        if not copied:
            A = A.copy()
        A.sum_duplicates()          # also sorts the indices
    if binary:
        bad = (A.data != 0) & (A.data != 1)
        if bad.any():
            _first_bad(A, bad, what, lambda at, v: f"{at} is {v:g}; Winnow features must be 0 or 1")
    elif check_finite:
        bad = ~np.isfinite(A.data)
        if bad.any():
            _first_bad(A, bad, what, lambda at, v: f"{at} is {v} (NaN and infinity are not allowed)")
    return A


def int_valued_csr(A):
    """``(A, m)`` when every stored value of the float64 CSR matrix A is an integer of magnitude
    <= 2**53 (m = the largest magnitude), else None: exact mode's fast path, as
    :func:`learners.validation.check_int_matrix` for dense arrays."""
    from learners._loops import integer_valued_maxabs
    m = integer_valued_maxabs(A.data.reshape(1, -1)) if A.nnz else 0.0
    if not (0.0 <= m <= 2.0 ** 53):
        return None
    return A, int(m)
