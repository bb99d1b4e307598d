"""60-digit values of formula objects (mpmath), for the transcendental parts the exact evaluator
(``proofs.exact.evaluate``) cannot give as rationals: exp, sqrt, lg.  Relations compare with a
tolerance of 1e-40 (relative); a sum or a bounded "for all" runs over the same index range as the
exact evaluator (``proofs.exact.index_range``)."""
from __future__ import annotations

from fractions import Fraction

import mpmath as mp

from .exact import _bounded, index_range

__all__ = ["approx", "close", "mpf", "TOL", "DIGITS"]

DIGITS = 60

TOL = mp.mpf(10) ** -40


def mpf(v):
    v = Fraction(v)
    return mp.mpf(v.numerator) / v.denominator


def _value(v, sort):
    return tuple(mpf(c) for c in v) if sort == "Vec" else mpf(v)


def approx(e, env, strict: bool = False):
    """The value of ``e`` at ``env`` in 60-digit arithmetic.  ``strict`` False: a strict relation
    within the tolerance counts as true (a rule is not refuted by rounding); True: as false (an
    edit that makes a rule strict is refuted where both sides are equal)."""
    with mp.workdps(DIGITS):
        return _approx(e, env, strict)


def _approx(e, env, strict: bool):  # noqa: C901 - one case per node kind
    op, a = e.op, e.args
    A = lambda x: _approx(x, env, strict)  # noqa: E731
    if op == "num":
        return mpf(e.value)
    if op == "var":
        return _value(env[e.name], e.sort)
    if op == "call":
        args = [A(x) for x in a]
        f = env[e.name]
        v = f(*args) if callable(f) else f[int(args[0])] if len(args) == 1 else f[tuple(int(t) for t in args)]
        return _value(v, e.sort)
    if op == "to_real":
        return A(a[0])
    if op == "add":
        return mp.fsum(A(x) for x in a)
    if op == "mul":
        out = mp.mpf(1)
        for x in a:
            out *= A(x)
        return out
    if op == "sub":
        return A(a[0]) - A(a[1])
    if op == "neg":
        return -A(a[0])
    if op == "div":
        return A(a[0]) / A(a[1])
    if op == "pow":
        return A(a[0]) ** int(a[1].value)
    if op == "exp":
        return mp.exp(A(a[0]))
    if op == "sqrt":
        return mp.sqrt(A(a[0]))
    if op == "lg":
        return mp.log(A(a[0]), 2)
    if op == "pow2":
        return mp.mpf(2) ** A(a[0])
    if op == "max":
        return max(A(a[0]), A(a[1]))
    if op == "min":
        return min(A(a[0]), A(a[1]))
    if op == "abs":
        return abs(A(a[0]))
    if op == "dot":
        return mp.fsum(p * q for p, q in zip(A(a[0]), A(a[1])))
    if op == "sum":
        i, lo, hi, body = a
        return mp.fsum(_approx(body, {**env, i.name: t}, strict) for t in index_range(i, int(A(lo)), int(A(hi))))
    if op in ("le", "lt", "ge", "gt", "eq", "ne"):
        x, y = A(a[0]), A(a[1])
        tol = TOL * (1 + abs(x) + abs(y))
        st = -tol if strict else tol
        return {"le": x <= y + tol, "lt": x < y + st, "ge": x + tol >= y, "gt": x + st > y,
                "eq": abs(x - y) <= tol, "ne": abs(x - y) > tol}[op]
    if op == "and":
        return all(A(x) for x in a)
    if op == "or":
        return any(A(x) for x in a)
    if op == "not":
        return not A(a[0])
    if op == "implies":
        return (not A(a[0])) or A(a[1])
    if op == "forall":
        b = _bounded(e)
        if b is None:
            raise ValueError("an unbounded 'for all'")
        k, lo, hi, inclusive, body = b
        top = int(A(hi)) - (0 if inclusive else 1)
        return all(_approx(body, {**env, k.name: t}, strict) for t in index_range(k, int(A(lo)), top))
    raise ValueError(f"no 60-digit value for {op}")


def close(x, y) -> bool:
    with mp.workdps(DIGITS):
        return abs(x - y) <= TOL * (1 + abs(x) + abs(y))
