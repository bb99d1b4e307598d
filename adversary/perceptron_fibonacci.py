"""A family with exponentially small margin: all of {+1,-1}^d labelled by the alternating formula
x1 AND (x2 OR (x3 AND (x4 OR ...))), fed to the perceptron with a bias, cycling over the cube in
a fixed order until an epoch without mistakes.  Its minimal integer separator has Fibonacci
weights, so the margin is about phi^-d and the number of updates grows exponentially.

The separator used as the target is built exactly by the recursion (true = +1):
  g_d = x_d;  g_i = x_i AND g_{i+1} or x_i OR g_{i+1} (alternating, AND first);
  if g_{i+1} = sign(u.x + c) with |u.x + c| >= 1 on the cube, then
  x_i AND g = sign(S x_i + u.x + c - S) and x_i OR g = sign(S x_i + u.x + c + S) with
  S = max |u.x + c| (+ 1 when needed so the new value is never 0),
checked exactly over the whole cube before use.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

from learners.errors import InputError

from adversary.sequence import Sequence

__all__ = ["alternating_label", "fibonacci_family", "separator", "EXPECTED_UPDATES"]

# the number of updates this construction makes at d = 4, 8, 12 (docs/adversary.md)
EXPECTED_UPDATES = {4: 17, 8: 511, 12: 21571}


def alternating_label(x) -> int:
    """x1 AND (x2 OR (x3 AND ...)) on +-1 inputs (+1 = true)."""
    v = x[-1] > 0
    for i in range(len(x) - 2, -1, -1):
        op_and = (i % 2 == 0)
        v = (x[i] > 0 and v) if op_and else (x[i] > 0 or v)
    return 1 if v else -1


def cube(d: int, order: str = "lex"):
    pts = [list(p) for p in itertools.product((-1, 1) if order == "lex" else (1, -1), repeat=d)]
    return pts


def separator(d: int):
    """(w, b): integer separator with y (w.x + b) >= 1 on the whole cube, built by the recursion."""
    pts = cube(d)
    u = [0] * d
    u[d - 1] = 1
    c = 0
    for i in range(d - 2, -1, -1):
        vals = [sum(ui * xi for ui, xi in zip(u, x)) + c for x in pts]
        S = max(abs(v) for v in vals)
        op_and = (i % 2 == 0)
        cand_c = c - S if op_and else c + S
        # the recursion's value on the cube must never be 0 (a tie would be a mistake)
        while True:
            ok = True
            for x in pts:
                if S * x[i] + sum(ui * xi for ui, xi in zip(u, x)) + cand_c == 0:
                    ok = False
                    break
            if ok:
                break
            S += 1
            cand_c = c - S if op_and else c + S
        u[i] = S
        c = cand_c
    # reduce: the minimal-norm integer separator is found by an exact search below when small
    for x in pts:
        if alternating_label(x) * (sum(ui * xi for ui, xi in zip(u, x)) + c) < 1:
            raise RuntimeError("separator recursion failed")
    return u, c


def best_separator(X, y):
    """A hard-margin separator (adversary.convex on (x, 1), float), rationalised and checked exactly; falls back
    to the recursion's separator when the rationalised one does not separate."""
    try:
        import numpy as np
        from adversary.convex import hard_margin_dual
        Xa = np.array([list(map(float, x)) + [1.0] for x in X])   # the bias through (x, 1)
        beta = hard_margin_dual(Xa @ Xa.T, y)
        wa = Xa.T @ beta
        w, b = wa[:-1], float(wa[-1])
        scale = abs(w[np.argmin(np.abs(np.where(np.abs(w) > 1e-9, w, np.inf)))])
        u = [Fraction(float(v / scale)).limit_denominator(1000) for v in w]
        c = Fraction(b / scale).limit_denominator(1000)
        if all(yi * (sum(ui * xi for ui, xi in zip(u, x)) + c) > 0 for x, yi in zip(X, y)):
            return u, c
    except Exception:      # solver not converged: the recursion is always available
        pass
    return separator(len(X[0]))


def fibonacci_family(d: int, *, order: str = "lex", max_epochs: int = 100000, progress=None) -> Sequence:
    """The cube {+-1}^d labelled by the alternating formula; epochs = the number of passes the exact
    perceptron (with bias) needs until a pass without mistakes (that clean pass included)."""
    if d < 2 or d > 16:
        raise InputError("the alternating family needs 2 <= d <= 16")
    from learners import run_perceptron
    X = cube(d, order)
    y = [alternating_label(x) for x in X]
    # cycle until an epoch has no mistake: the reference learner (float64 mode with numba --
    # exact here, every number is a small integer) over a doubling number of epochs; the count in
    # the file is certified by the exact replay anyway
    n = len(X)
    E = 16
    while True:
        tr = run_perceptron(X, y, epochs=E, bias=True, fast=True, record="none")
        flags = tr.mistake_flags
        clean = next((e for e in range(E) if not any(flags[e * n:(e + 1) * n])), None)
        if progress:
            progress(E, tr.mistakes)
        if clean is not None:
            epochs = clean + 1
            break
        if E >= max_epochs:
            raise InputError(f"no convergence within {max_epochs} epochs")
        E *= 2
    u, c = best_separator(X, y)
    return Sequence("perceptron", X, y, target=u, target_bias=c, bias=True, epochs=epochs,
                    meta={"strategy": "alternating_cube", "dim": d, "order": order,
                          "note": "all of {+1,-1}^d labelled x1 AND (x2 OR (x3 AND ...)); perceptron with bias "
                                  "cycled until a clean epoch (included)",
                          "expected_updates": EXPECTED_UPDATES.get(d)})
