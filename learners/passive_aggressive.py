"""The Passive-Aggressive family (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006), for
binary classification with the hinge loss l_t = max(0, 1 - y_t w.x_t):

* ``"pa"``   -- tau = l / |x|^2 (the smallest change of w that makes the loss 0);
* ``"pa1"``  -- tau = min(C, l / |x|^2);
* ``"pa2"``  -- tau = l / (|x|^2 + 1/(2C));

then w += tau y x.  Exact mode computes every step size as a ``Fraction``; float mode in float64.
On data some u separates with margin 1 PA has sum_t l_t^2 <= |u|^2 R^2
(``proofs/catalogue/passive_aggressive_bound.py``).

``Step.mistake`` is a prediction mistake, y (w.x) <= 0 (a tie is a mistake); an update happens
whenever l_t > 0.  ``extras["losses"]`` and ``extras["steps"]`` hold l_t and tau_t of every step.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners.core import check_record, visiting_order
from learners.errors import InputError
from learners.numbers import fraction_str, to_fraction
from learners.trace import Step, Trace
from learners.validation import check_epochs, check_labels, check_matrix

__all__ = ["run_passive_aggressive", "PA_VARIANTS", "step_size"]

PA_VARIANTS = ("pa", "pa1", "pa2")


def step_size(variant: str, loss, xx, C):
    """tau for the loss l and |x|^2 (0 when the loss is 0)."""
    if loss == 0:
        return loss * 0
    if variant == "pa":
        return loss / xx
    if variant == "pa1":
        return C if xx == 0 else min(C, loss / xx)      # x = 0: w does not move whatever tau is
    return loss / (xx + 1 / (2 * C))


def run_passive_aggressive(X, y, *, variant: str = "pa", C=1, epochs: int = 1, exact: bool = True,
                           record: str = "all", w0=None) -> Trace:
    """The run of PA over (X, y) in the given order, ``epochs`` times, from ``w0`` (zeros by
    default)."""
    record = check_record(record)
    epochs = check_epochs(epochs)
    if variant not in PA_VARIANTS:
        raise InputError(f"unknown Passive-Aggressive variant {variant!r} (known: {', '.join(PA_VARIANTS)})")
    c = to_fraction(C, what="C")
    if c <= 0:
        raise InputError(f"C must be > 0, got {fraction_str(c)}")
    rows = check_matrix(X, exact=exact)
    n_ex = len(rows)
    d = len(rows[0])
    yl = check_labels(y, n_ex, kind="pm1")
    if exact:
        zero, cc = Fraction(0), c
        xs = [list(r) for r in rows]
    else:
        zero, cc = 0.0, float(c)
        xs = [np.asarray(r) for r in rows]
    norms = [sum(v * v for v in r) if exact else float(r @ r) for r in xs]
    if variant == "pa":
        for i, q in enumerate(norms):
            if q == 0:
                raise InputError(f"example {i} is the zero vector: PA's step l/|x|^2 is undefined (use pa1 or pa2)")
    if w0 is None:
        w = [zero] * d if exact else np.zeros(d)
    else:
        if len(w0) != d:
            raise InputError(f"w0 has {len(w0)} weights for {d} features")
        w = [to_fraction(v, what="w0") for v in w0] if exact else np.array([float(v) for v in w0], dtype=np.float64)
    w_init = tuple(w) if exact else tuple(w.tolist())
    order = visiting_order(n_ex, epochs, False, None).tolist()
    steps, mis, losses, taus = [], [], [], []
    for t, i in enumerate(order):
        x, yi = xs[i], yl[i]
        act = sum((a * b for a, b in zip(w, x)), zero) if exact else float(w @ x)
        loss = max(zero, 1 - yi * act)
        tau = step_size(variant, loss, norms[i], cc)
        if tau:
            if exact:
                w = [a + tau * yi * b for a, b in zip(w, x)]
            else:
                w = w + (tau * yi) * x
        m = yi * act <= 0
        mis.append(m)
        losses.append(loss)
        taus.append(tau)
        if record == "all" or (m and record == "mistakes"):
            steps.append(Step(t=t, epoch=t // n_ex, index=i, label=yi, activation=act, prediction=1 if act > 0 else -1,
                              mistake=m, weights=tuple(w) if exact else tuple(w.tolist())))
    wt = tuple(w) if exact else tuple(w.tolist())
    return Trace(algorithm="passive_aggressive", exact=exact, n_examples=n_ex, n_features=d, epochs=epochs,
                 record=record, steps=steps, mistakes=sum(mis), n_steps=len(order), weights=wt, bias=None,
                 initial_weights=w_init, initial_bias=None, order=order, mistake_flags=mis,
                 params={"variant": variant, "C": fraction_str(c)}, extras={"losses": losses, "steps": taus})
