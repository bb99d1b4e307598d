"""The single place where learner input is checked and converted (cf. scikit-learn's
``check_X_y``).  Every learner, the command line, the adversary and the grader call these, so a
bad data set gets the same one-line :class:`InputError` wherever it enters.

Inputs are never modified: float data comes back as a *read-only* float64 array -- a view of the
caller's array when that already is a C-contiguous float64 ``numpy.ndarray`` (no O(n d) copy),
a fresh copy otherwise -- and exact data as fresh tuples of ``Fraction``.
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from learners.errors import InputError
from learners.numbers import to_fraction

__all__ = [
    "check_matrix", "check_int_matrix", "raise_if_nonfinite", "check_labels", "check_X_y", "check_vector", "check_epochs", "encode_labels",
]


def _rows(X, what: str):
    """Return X as a list of rows (each a sequence), checking it is 2-D, non-empty and not ragged."""
    if isinstance(X, np.ndarray):
        if X.ndim != 2:
            raise InputError(f"{what} must be 2-D (n examples x d features), got an array with {X.ndim} dimension(s)")
        if X.shape[0] == 0:
            raise InputError(f"{what} is empty: no examples")
        if X.shape[1] == 0:
            raise InputError(f"{what} has no features (d = 0)")
        return X
    try:
        rows = list(X)
    except TypeError:
        raise InputError(f"{what} must be a sequence of rows, got {type(X).__name__}") from None
    if not rows:
        raise InputError(f"{what} is empty: no examples")
    d = None
    for i, r in enumerate(rows):
        if isinstance(r, (str, bytes)) or not hasattr(r, "__len__"):
            raise InputError(f"{what} row {i} is not a sequence of numbers")
        if d is None:
            d = len(r)
            if d == 0:
                raise InputError(f"{what} has no features (d = 0)")
        elif len(r) != d:
            raise InputError(f"{what} is ragged: row {i} has {len(r)} values, row 0 has {d}")
    return rows


def _first_nonfinite(A: np.ndarray, what: str):
    """Raise the one-line error naming the first NaN/inf of A (if there is one)."""
    bad = ~np.isfinite(A)
    if bad.any():
        i, j = map(int, np.argwhere(bad)[0])
        raise InputError(f"{what}[{i}][{j}] is {A[i, j]} (NaN and infinity are not allowed)")


def raise_if_nonfinite(A: np.ndarray, what: str = "X") -> None:
    """The finiteness check of :func:`check_matrix` on its own (for callers that deferred it)."""
    _first_nonfinite(A, what)


def _check_finite_fast(A: np.ndarray, what: str) -> None:
    # one summing pass (no n x d temporary); the element-wise scan only when the sum is not finite
    # (a NaN/inf in A, or an overflow of the sum of finite values)
    with np.errstate(over="ignore", invalid="ignore"):
        total = float(np.sum(A))
    if not math.isfinite(total):
        _first_nonfinite(A, what)


def check_matrix(X, *, exact: bool = False, what: str = "X", check_finite: bool = True):
    """Check a data matrix.

    float mode: a read-only C-contiguous float64 array of shape (n, d), finite.  A C-contiguous
    float64 ``numpy.ndarray`` is returned as a read-only *view* (no copy: nothing downstream may
    write to it, and the caller's array is not touched); anything else is copied.
    ``check_finite=False`` skips the NaN/inf scan: only for callers that detect non-finite values
    themselves and then call :func:`raise_if_nonfinite` (the compiled perceptron loops do: any
    NaN/inf in a row makes that row's activation non-finite).
    exact mode: a list of n tuples of ``Fraction``.
    """
    if (not exact and type(X) is np.ndarray and X.dtype == np.float64 and X.ndim == 2
            and X.flags.c_contiguous and X.shape[0] > 0 and X.shape[1] > 0):
        A = X.view()
        A.flags.writeable = False
        if check_finite:
            _check_finite_fast(A, what)
        return A
    rows = _rows(X, what)
    if exact:
        out = []
        for i, r in enumerate(rows):
            out.append(tuple(to_fraction(v, what=f"{what}[{i}][{j}]") for j, v in enumerate(r)))
        return out
    try:
        A = np.array(rows, dtype=np.float64, copy=True, order="C")
    except (TypeError, ValueError) as e:
        raise InputError(f"{what} contains a value that is not a number ({str(e).splitlines()[0]})") from None
    if A.ndim != 2:
        raise InputError(f"{what} must be 2-D (n examples x d features)")
    if check_finite:
        _check_finite_fast(A, what)
    A.flags.writeable = False
    return A


def check_int_matrix(X, what: str = "X"):
    """Exact mode's fast path for numpy input.  Returns ``(A, m)`` when X is a 2-D numpy array
    of integers -- an int64 array, or a float array whose entries all are integers of magnitude
    <= 2**53 (each float *is* that integer) -- with A read-only (int64, or float64: the caller's
    array itself when it already is C-contiguous float64) and m = max |entry| as an int;
    None otherwise (the caller then takes the general path, ``check_matrix(X, exact=True)``).
    One compiled read pass over the data; no copy unless X has another dtype or layout."""
    if type(X) is not np.ndarray or X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        return None
    from learners import _loops
    if X.dtype.kind in "iu":
        if X.dtype.kind == "u" and X.dtype.itemsize == 8 and int(X.max()) >= 2 ** 63:
            return None
        A = np.ascontiguousarray(X, dtype=np.int64)
        m = _loops.int_maxabs(A)
    elif X.dtype.kind == "f":
        A = np.ascontiguousarray(X, dtype=np.float64)
        m = _loops.integer_valued_maxabs(A)
        if not (0.0 <= m <= 2.0 ** 53):
            return None
    else:
        return None
    A = A.view()
    A.flags.writeable = False
    return A, int(m)


def check_vector(v, d: int, *, exact: bool, what: str):
    """A weight vector of length d (copied)."""
    try:
        vals = list(v)
    except TypeError:
        raise InputError(f"{what} must be a sequence of {d} numbers") from None
    if len(vals) != d:
        raise InputError(f"{what} has {len(vals)} values, the data has {d} features")
    if exact:
        return tuple(to_fraction(x, what=what) for x in vals)
    out = np.array([float(to_fraction(x, what=what)) if isinstance(x, str) else x for x in vals], dtype=np.float64)
    if not np.isfinite(out).all():
        raise InputError(f"{what} contains NaN or infinity")
    return out


def _label_values(y, n: int | None):
    if isinstance(y, np.ndarray):
        if y.ndim != 1:
            raise InputError(f"labels must be 1-D, got an array with {y.ndim} dimensions")
        vals = y.tolist()
    else:
        if isinstance(y, (str, bytes)):
            raise InputError("labels must be a sequence, got a string")
        try:
            vals = list(y)
        except TypeError:
            raise InputError(f"labels must be a sequence, got {type(y).__name__}") from None
    if not vals:
        raise InputError("labels are empty")
    if n is not None and len(vals) != n:
        raise InputError(f"mismatched lengths: {n} examples but {len(vals)} labels")
    for i, v in enumerate(vals):
        if isinstance(v, float) and not math.isfinite(v):
            raise InputError(f"label {i} is {v} (NaN and infinity are not allowed)")
    return vals


def _show(v) -> str:
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, np.generic):
        return repr(v.item())
    return repr(v)


def _num_eq(v, target) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, numbers.Number):
        try:
            return v == target
        except Exception:  # pragma: no cover - exotic number types
            return False
    return False


def _labels_fast(y, n, allowed):
    """Vectorised check of a numeric 1-D numpy label array; None when the slow path must decide
    (it also writes the error message)."""
    if type(y) is not np.ndarray or y.ndim != 1 or y.dtype.kind not in "iuf" or y.shape[0] == 0:
        return None
    if n is not None and y.shape[0] != n:
        return None
    if allowed == (1, -1):
        ok = bool((np.abs(y) == 1).all())
    else:
        ok = bool(((y == 0) | (y == 1)).all())
    return y.astype(np.int64) if ok else None


def check_labels(y, n: int | None = None, *, kind: str = "pm1", as_array: bool = False):
    """Labels for the functional API.

    kind="pm1": every label is +1 or -1 -> list of int.
    kind="01": every label is 0 or 1 -> list of int.
    as_array=True: a fresh int64 numpy array instead of a list (no Python object per label; the
    check of a numeric numpy array is vectorised).
    """
    allowed = (1, -1) if kind == "pm1" else (0, 1)
    fast = _labels_fast(y, n, allowed)
    if fast is not None:
        return fast if as_array else fast.tolist()
    vals = _label_values(y, n)
    out = []
    for i, v in enumerate(vals):
        if _num_eq(v, allowed[0]):
            out.append(allowed[0])
        elif _num_eq(v, allowed[1]):
            out.append(allowed[1])
        else:
            want = "+1 or -1" if kind == "pm1" else "0 or 1"
            raise InputError(f"label {i} is {_show(v)}; labels must be {want}")
    return np.array(out, dtype=np.int64) if as_array else out


def encode_labels(y, n: int | None = None, classes=None):
    """Labels for the estimators: any two values.  Returns (int64 array of +1/-1, classes) with
    ``classes`` sorted and ``classes[1]`` the positive class (scikit-learn's convention)."""
    if (type(y) is np.ndarray and y.ndim == 1 and y.shape[0] > 0 and (n is None or y.shape[0] == n)
            and (y.dtype.kind in "biuUS" or (y.dtype.kind == "f" and not np.isnan(y).any()))):
        # vectorised path; the general path below decides (and words) every error
        if classes is not None:
            cl = np.asarray(classes)
        elif y.dtype.kind in "biuf":
            cl = np.array([y.min(), y.max()], dtype=y.dtype)      # no data-dependent branches
        else:
            cl = np.unique(y)
        if len(cl) == 2 and cl[0] != cl[1]:
            pos = y == cl[1]
            if (pos | (y == cl[0])).all():
                return pos.astype(np.int64) * 2 - 1, cl
    vals = _label_values(y, n)
    if classes is None:
        try:
            uniq = sorted(set(vals))
        except TypeError:
            raise InputError("labels cannot be ordered (mixed types)") from None
        if len(uniq) != 2:
            raise InputError(f"the labels must take exactly two values, got {len(uniq)}: {uniq[:5]}")
        classes = np.array(uniq)
    pos = classes[1]
    neg = classes[0]
    out = []
    for i, v in enumerate(vals):
        if v == pos:
            out.append(1)
        elif v == neg:
            out.append(-1)
        else:
            raise InputError(f"label {i} is {_show(v)}, not one of the classes {list(classes)}")
    return np.array(out, dtype=np.int64), classes


def check_X_y(X, y, *, exact: bool = False, labels: str = "pm1", what: str = "X"):
    """Check a data set: returns (X checked, labels as ints)."""
    Xc = check_matrix(X, exact=exact, what=what)
    n = len(Xc)
    yc = check_labels(y, n, kind=labels)
    return Xc, yc


def check_epochs(epochs) -> int:
    if isinstance(epochs, bool) or not isinstance(epochs, numbers.Integral) or epochs < 1:
        raise InputError(f"epochs must be a positive integer, got {epochs!r}")
    return int(epochs)


def check_binary_matrix(X, what: str = "X"):
    """Winnow's {0,1} features: a new uint8 array."""
    A = check_matrix(X, exact=False, what=what)
    bad = (A != 0) & (A != 1)
    if bad.any():
        i, j = map(int, np.argwhere(bad)[0])
        raise InputError(f"{what}[{i}][{j}] is {A[i, j]:g}; Winnow features must be 0 or 1")
    return A.astype(np.uint8)
