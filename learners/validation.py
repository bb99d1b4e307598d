"""The single place where learner input is checked and converted (cf. scikit-learn's
``check_X_y``).  Every learner, the command line, the adversary and the grader call these, so a
bad data set gets the same one-line :class:`InputError` wherever it enters.

Inputs are never modified: float data is copied into a fresh float64 array, exact data into
fresh lists of ``Fraction``.
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from .errors import InputError
from .numbers import to_fraction

__all__ = [
    "check_matrix", "check_labels", "check_X_y", "check_vector", "check_epochs", "encode_labels",
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


def check_matrix(X, *, exact: bool = False, what: str = "X"):
    """Check a data matrix.

    float mode: a new C-contiguous float64 array of shape (n, d), finite.
    exact mode: a list of n tuples of ``Fraction``.
    """
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
    bad = ~np.isfinite(A)
    if bad.any():
        i, j = map(int, np.argwhere(bad)[0])
        raise InputError(f"{what}[{i}][{j}] is {A[i, j]} (NaN and infinity are not allowed)")
    return A


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


def check_labels(y, n: int | None = None, *, kind: str = "pm1"):
    """Labels for the functional API.

    kind="pm1": every label is +1 or -1 -> list of int.
    kind="01": every label is 0 or 1 -> list of int.
    """
    vals = _label_values(y, n)
    allowed = (1, -1) if kind == "pm1" else (0, 1)
    out = []
    for i, v in enumerate(vals):
        if _num_eq(v, allowed[0]):
            out.append(allowed[0])
        elif _num_eq(v, allowed[1]):
            out.append(allowed[1])
        else:
            want = "+1 or -1" if kind == "pm1" else "0 or 1"
            raise InputError(f"label {i} is {_show(v)}; labels must be {want}")
    return out


def encode_labels(y, n: int | None = None, classes=None):
    """Labels for the estimators: any two values.  Returns (list of +1/-1, classes) with
    ``classes`` sorted and ``classes[1]`` the positive class (scikit-learn's convention)."""
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
    return out, classes


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
