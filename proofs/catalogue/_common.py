"""Helpers shared by the theorem modules (kept tiny; imported lazily by the builders)."""
from __future__ import annotations


def reals(names: str):
    import z3
    return z3.Reals(names)


def ints(names: str):
    import z3
    return z3.Ints(names)


def sums():
    """Sums over a symbolic dimension d: (i, d, S, IndexedBase factory) for sympy identities."""
    import sympy as sp
    i = sp.Symbol("i", integer=True, positive=True)
    d = sp.Symbol("d", integer=True, positive=True)

    def S(e):
        return sp.Sum(e, (i, 1, d))
    return sp, i, d, S

