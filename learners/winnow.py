"""Winnow (Littlestone) over {0,1} features, for monotone disjunctions.

Weights start at 1; predict 1 iff w.x >= theta (theta = n, the number of features, by default).
On a false negative the active weights are promoted (doubled; multiplied by alpha for Winnow2);
on a false positive they are demoted:

* ``variant="halve"``     -- halved (Blum's simple version: at most 2 + 3r(1 + lg n) mistakes);
* ``variant="eliminate"`` -- set to 0 (at most 1 + 2r(1 + lg n) mistakes);
* ``variant="winnow2"``   -- divided by alpha (alpha > 1 configurable).

Exact mode (the default) keeps every weight as a ``Fraction`` (dyadic for alpha = 2), so sums of
weights of very different sizes are never rounded; float mode uses float64.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .core import check_record, visiting_order
from .errors import InputError
from .numbers import to_fraction, fraction_str
from .trace import Step, Trace
from .validation import check_binary_matrix, check_epochs, check_labels

__all__ = ["run_winnow", "VARIANTS"]

VARIANTS = ("halve", "eliminate", "winnow2")


def run_winnow(X, y, *, epochs=1, theta=None, variant="halve", alpha=2, exact=True, shuffle=False, seed=None,
               record="all") -> Trace:
    epochs = check_epochs(epochs)
    record = check_record(record)
    if variant not in VARIANTS:
        raise InputError(f"unknown Winnow variant {variant!r} (known: {', '.join(VARIANTS)})")
    A = check_binary_matrix(X)
    n_ex, n = A.shape
    yl = check_labels(y, n_ex, kind="01")
    a = to_fraction(alpha, what="alpha")
    if a <= 1:
        raise InputError(f"alpha must be > 1, got {fraction_str(a)}")
    up = a if variant == "winnow2" else Fraction(2)
    th = Fraction(n) if theta is None else to_fraction(theta, what="theta")
    if not exact:
        up_f, a_f, th_f = float(up), float(a), float(th)
    order = visiting_order(n_ex, epochs, shuffle, seed)
    rows = [np.flatnonzero(A[i]).tolist() for i in range(n_ex)]
    one = Fraction(1) if exact else 1.0
    w = [one] * n
    steps, mis = [], []
    keep_all = record == "all"
    for t, i in enumerate(order.tolist()):
        act_idx = rows[i]
        s = sum(w[j] for j in act_idx) if act_idx else (Fraction(0) if exact else 0.0)
        pred = 1 if s >= (th if exact else th_f) else 0
        yi = yl[i]
        m = pred != yi
        mis.append(m)
        if m:
            if yi == 1:
                f = up if exact else up_f
                for j in act_idx:
                    w[j] = w[j] * f
            elif variant == "eliminate":
                for j in act_idx:
                    w[j] = w[j] * 0
            else:
                f = (a if variant == "winnow2" else Fraction(2)) if exact else (a_f if variant == "winnow2" else 2.0)
                for j in act_idx:
                    w[j] = w[j] / f
        if keep_all or (m and record == "mistakes"):
            steps.append(Step(t=t, epoch=t // n_ex, index=i, label=yi, activation=s, prediction=pred, mistake=m,
                              weights=tuple(w)))
    params = {"variant": variant, "alpha": fraction_str(a), "theta": fraction_str(th), "shuffle": bool(shuffle),
              "seed": seed}
    tr = Trace(algorithm="winnow", exact=exact, n_examples=n_ex, n_features=n, epochs=epochs, record=record,
               steps=steps, mistakes=sum(mis), n_steps=len(order), weights=tuple(w), bias=None,
               initial_weights=(one,) * n, initial_bias=None, order=order.tolist(), mistake_flags=mis,
               params=params)
    tr.extras["_data"] = (A, yl)
    return tr
