"""A kernel's values at points: exact (sympy constants, for certificates) and in floats (for the
search).

Exact: |a|^2, a·b, |b|^2 (and in dimension 1 the numbers a, b themselves) are substituted as
rationals; sum()/prod() terms add or multiply over the coordinates; min, max, abs, piecewise terms
and conditions are decided by :func:`refutation.signs.certified_sign` — exactly for rationals, by
an interval enclosure otherwise — and never by sympy's own float comparisons.  A value that is
undefined or cannot be decided is ``nan`` (the point set is then not used).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp
from sympy.logic.boolalg import BooleanAtom, BooleanFunction

from refutation.kernel_terms import DOMAINS, XX, XY, YY, CoordProd, CoordSum, scalar_symbols
from refutation.signs import certified_sign

__all__ = ["evaluate_kernel_exact", "gram_exact", "float_gram"]

_ALL_SCALARS = [scalar_symbols(d) for d in DOMAINS]


class _Undecided(Exception):
    pass


def _q(f) -> sp.Rational:
    f = Fraction(f)
    return sp.Rational(f.numerator, f.denominator)


def _dotq(a, b):
    return sum((Fraction(u) * Fraction(v) for u, v in zip(a, b)), Fraction(0))


def evaluate_kernel_exact(e, a, b) -> sp.Expr:
    """K(a, b) as an exact sympy constant, for rational points a, b (sequences of Fractions);
    ``nan`` where K is undefined or a branch cannot be decided."""
    env = {XX: _q(_dotq(a, a)), YY: _q(_dotq(b, b)), XY: _q(_dotq(a, b))}
    if len(a) == 1:
        for X, Y in _ALL_SCALARS:
            env[X], env[Y] = _q(a[0]), _q(b[0])
    try:
        return _ev(sp.sympify(e), env, a, b)
    except (_Undecided, ZeroDivisionError, TypeError, ValueError):
        return sp.nan


def gram_exact(e, points) -> list[list[sp.Expr]]:
    """The Gram matrix G[i][j] = K(p_i, p_j), exact."""
    return [[evaluate_kernel_exact(e, a, b) for b in points] for a in points]


def _sign(v) -> int:
    if v.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I):
        raise _Undecided(v)
    s = certified_sign(v)
    if s is None:
        raise _Undecided(v)
    return s


def _ev(e, env, a, b):  # noqa: C901 - one branch per kind of term
    if e in env:
        return env[e]
    if e.is_Symbol:
        raise _Undecided(e)
    if e.is_Number or e.is_NumberSymbol:
        return e
    if isinstance(e, (CoordSum, CoordProd)):
        vals = []
        for ai, bi in zip(a, b):
            sub = {X: _q(ai) for X, _ in _ALL_SCALARS}
            sub.update({Y: _q(bi) for _, Y in _ALL_SCALARS})
            vals.append(_ev(e.args[0], sub, [ai], [bi]))
        return sp.Add(*vals) if isinstance(e, CoordSum) else sp.Mul(*vals)
    if isinstance(e, (sp.Min, sp.Max)):
        vals = [_ev(x, env, a, b) for x in e.args]
        best = vals[0]
        for v in vals[1:]:
            s = _sign(v - best)
            if (s < 0) if isinstance(e, sp.Min) else (s > 0):
                best = v
        return best
    if isinstance(e, sp.Abs):
        v = _ev(e.args[0], env, a, b)
        return v if _sign(v) >= 0 else -v
    if isinstance(e, sp.Piecewise):
        for val, cond in e.args:
            if _cond(cond, env, a, b):
                return _ev(val, env, a, b)
        raise _Undecided(e)          # no branch applies: undefined there
    if isinstance(e, (sp.core.relational.Relational, BooleanFunction, BooleanAtom)):
        raise _Undecided(e)          # a condition is not a value
    return e.func(*[_ev(x, env, a, b) for x in e.args])


def _cond(c, env, a, b) -> bool:
    if c == sp.true:
        return True
    if c == sp.false:
        return False
    if isinstance(c, sp.core.relational.Relational):
        s = _sign(_ev(c.lhs, env, a, b) - _ev(c.rhs, env, a, b))
        return {"==": s == 0, "!=": s != 0, "<": s < 0, "<=": s <= 0, ">": s > 0, ">=": s >= 0}[c.rel_op]
    if isinstance(c, sp.And):
        return all(_cond(x, env, a, b) for x in c.args)
    if isinstance(c, sp.Or):
        return any(_cond(x, env, a, b) for x in c.args)
    if isinstance(c, sp.Not):
        return not _cond(c.args[0], env, a, b)
    raise _Undecided(c)


def float_gram(e, domain: str = "real"):
    """fn(P) -> the float Gram matrix of the rows of P (m x D), or None where K is not real."""
    X, Y = scalar_symbols(domain)
    atoms = sorted(sp.sympify(e).atoms(CoordSum, CoordProd), key=sp.srepr)
    dums = [sp.Dummy(f"c{i}") for i in range(len(atoms))]
    main = sp.lambdify((XX, XY, YY, X, Y, *dums), sp.sympify(e).xreplace(dict(zip(atoms, dums))), modules="numpy")
    inner = [(sp.lambdify((X, Y), t.args[0], modules="numpy"), isinstance(t, CoordSum)) for t in atoms]

    def fn(P):
        P = np.asarray(P, dtype=float)
        G0 = P @ P.T
        n2 = np.diag(G0)
        zero = 0 * G0
        with np.errstate(all="ignore"):
            cols = []
            for f, is_sum in inner:
                v = np.broadcast_to(np.asarray(f(P[:, None, :], P[None, :, :]), dtype=float), G0.shape + P.shape[1:])
                cols.append(v.sum(axis=2) if is_sum else v.prod(axis=2))
            r = main(n2[:, None] + zero, G0, n2[None, :] + zero, P[:, :1] + zero, P[:, 0][None, :] + zero, *cols)
        if not np.isrealobj(r):
            return None
        return np.broadcast_to(np.asarray(r, dtype=float), G0.shape)
    return fn
