"""Prediction with expert advice: the advice matrix shared by Halving and the Weighted Majority
family (Littlestone & Warmuth 1994; Cesa-Bianchi & Lugosi 2006, ch. 2).

Step ``t`` shows the advice ``A[t][i]`` (+1 or -1) of every expert ``i`` and then the label
``y[t]``.  A hypothesis class given as a list of hypotheses is the special case where expert
``i`` is hypothesis ``h_i`` and ``A[t][i] = h_i(x_t)``.
"""
from __future__ import annotations

import numpy as np

from learners.errors import InputError
from learners.numbers import fraction_str, to_fraction
from learners.validation import check_labels

__all__ = ["check_advice", "check_beta", "advice_from_hypotheses", "expert_mistakes"]


def check_advice(A, y):
    """(advice as an int8 array T x n of +1/-1, labels as a list of +1/-1); A is not modified."""
    try:
        M = np.array(A, dtype=object if not isinstance(A, np.ndarray) else None)
    except (TypeError, ValueError):
        raise InputError("advice must be a T x n table of +1/-1 (one row per step, one column per expert)") from None
    if M.ndim != 2 or M.shape[0] == 0 or M.shape[1] == 0:
        raise InputError("advice must be a non-empty T x n table of +1/-1 (one row per step, one column per expert)")
    out = np.empty(M.shape, dtype=np.int8)
    for (t, i), v in np.ndenumerate(M):
        if isinstance(v, bool) or v not in (1, -1):
            raise InputError(f"advice[{t}][{i}] is {v!r}; advice must be +1 or -1")
        out[t, i] = int(v)
    out.flags.writeable = False
    yl = check_labels(y, M.shape[0], kind="pm1")
    return out, yl


def check_beta(beta, *, allow_zero: bool, exact: bool):
    """The penalty beta: 0 < beta < 1 (0 <= beta < 1 where allowed: beta = 0 is Halving)."""
    b = to_fraction(beta, what="beta")
    if not (0 <= b < 1) or (b == 0 and not allow_zero):
        low = "0 <=" if allow_zero else "0 <"
        raise InputError(f"beta must satisfy {low} beta < 1, got {fraction_str(b)}")
    return b if exact else float(b)


def advice_from_hypotheses(H, X):
    """The advice table of a finite class: ``H`` a list of callables x -> +1/-1, or of label
    sequences (hypothesis i's label on every example)."""
    H = list(H)
    if not H:
        raise InputError("the hypothesis class is empty")
    if all(callable(h) for h in H):
        if X is None:
            raise InputError("hypotheses given as functions need the examples X")
        return [[h(x) for h in H] for x in X]
    if any(callable(h) for h in H):
        raise InputError("give every hypothesis as a function, or every one as its list of labels")
    n = {len(h) for h in H}
    if len(n) != 1:
        raise InputError("every hypothesis must give one label per example")
    return [list(r) for r in zip(*H)]


def expert_mistakes(A, y) -> list[int]:
    """Mistakes of every expert over the sequence."""
    yv = np.asarray(y, dtype=np.int64)[:, None]
    return (np.asarray(A, dtype=np.int64) != yv).sum(axis=0).tolist()

