"""Rigorous signs of closed-form real constants: an interval enclosure (mpmath's ``iv`` context,
outward rounding) that excludes 0, or a symbolic proof of 0 — never a float alone.  Used by the
bound checker (is M - EXPR > 0?) and the kernel oracle (is v^T G v < 0? is a constant >= 0?)."""
from __future__ import annotations

import sympy as sp

__all__ = ["interval", "certified_sign", "NotCertifiable"]


class NotCertifiable(Exception):
    """The interval evaluator cannot enclose this expression (unsupported function or domain)."""


def interval(expr, prec: int = 120):
    """A rigorous enclosure of the real constant ``expr`` as an ``mpmath.iv`` interval.

    Interval arithmetic with outward rounding (mpmath's ``iv`` context): every operation returns
    an interval that contains the exact result, so the composition does too.  ``tanh``, ``sinh``
    and ``cosh`` are computed from ``exp``, ``acos``/``asin`` from ``atan2`` (still enclosures).  Raises
    :class:`NotCertifiable` for anything else or outside a function's domain.
    """
    from mpmath import iv
    old = iv.prec
    iv.prec = prec
    try:
        return _iv(sp.sympify(expr), iv)
    finally:
        iv.prec = old


def _iv(e, iv):  # noqa: C901
    if e.free_symbols:
        raise NotCertifiable(f"{e} is not a constant")
    if e.is_Integer:
        return iv.mpf(int(e))
    if e.is_Rational:
        return iv.mpf(int(e.p)) / iv.mpf(int(e.q))
    if e is sp.pi:
        return iv.pi
    if e is sp.E:
        return iv.e
    if e.is_Add:
        acc = iv.mpf(0)
        for a in e.args:
            acc = acc + _iv(a, iv)
        return acc
    if e.is_Mul:
        acc = iv.mpf(1)
        for a in e.args:
            acc = acc * _iv(a, iv)
        return acc
    if e.is_Pow:
        b, x = e.args
        if x.is_Integer:
            n = int(x)
            bi = _iv(b, iv)
            if n < 0 and bi.a <= 0 <= bi.b:
                raise NotCertifiable("division by an interval containing 0")
            r = iv.mpf(1)
            for _ in range(abs(n)):
                r = r * bi
            if n % 2 == 0 and n != 0 and r.a < 0:   # even power: clip the spurious negative part
                r = iv.mpf([0, r.b])
            return r if n >= 0 else 1 / r
        bi = _iv(b, iv)
        if x == sp.Rational(1, 2):
            if bi.a < 0:
                raise NotCertifiable("sqrt of a possibly negative number")
            return iv.sqrt(bi)
        if bi.a <= 0:
            raise NotCertifiable("non-integer power of a possibly nonpositive number")
        return iv.exp(iv.log(bi) * _iv(x, iv))
    if isinstance(e, sp.exp):
        return iv.exp(_iv(e.args[0], iv))
    if isinstance(e, sp.log):
        a = _iv(e.args[0], iv)
        if a.a <= 0:
            raise NotCertifiable("log of a possibly nonpositive number")
        return iv.log(a)
    if isinstance(e, (sp.sin, sp.cos, sp.tan)):
        f = {sp.sin: iv.sin, sp.cos: iv.cos, sp.tan: iv.tan}[type(e)]
        return f(_iv(e.args[0], iv))
    if isinstance(e, sp.tanh):
        # tanh(a) = 1 - 2/(exp(2a) + 1)
        return 1 - 2 / (iv.exp(2 * _iv(e.args[0], iv)) + 1)
    if isinstance(e, sp.sinh):
        a = _iv(e.args[0], iv)
        return (iv.exp(a) - iv.exp(-a)) / 2
    if isinstance(e, sp.cosh):
        a = _iv(e.args[0], iv)
        return (iv.exp(a) + iv.exp(-a)) / 2
    if isinstance(e, (sp.acos, sp.asin)):
        t = _iv(e.args[0], iv)
        if t.a < -1 or t.b > 1:
            raise NotCertifiable("acos/asin of a number possibly outside [-1, 1]")
        s = 1 - t * t
        s = iv.sqrt(iv.mpf([max(s.a, 0), s.b]))     # |t| <= 1: the exact 1 - t^2 is >= 0
        # acos t = atan2(sqrt(1 - t^2), t), asin t = atan2(t, sqrt(1 - t^2))
        return iv.atan2(s, t) if isinstance(e, sp.acos) else iv.atan2(t, s)
    if isinstance(e, sp.Abs):
        a = _iv(e.args[0], iv)
        if a.a >= 0:
            return a
        if a.b <= 0:
            return -a
        return iv.mpf([0, max(-a.a, a.b)])
    raise NotCertifiable(f"no interval rule for {type(e).__name__}")


def certified_sign(expr, precs=(120, 400, 1500)):
    """The sign (-1, 0, +1) of the real constant ``expr``, or ``None`` if it cannot be certified.

    Rationals are decided exactly.  Zero is certified only symbolically (sympy simplifies the
    expression to the literal 0, or it is an algebraic number whose minimal polynomial is t);
    a nonzero sign only by an interval enclosure that excludes 0 — never from floats alone.
    """
    e = sp.sympify(expr)
    if e.free_symbols:
        return None
    if e.is_Rational:
        return int(bool(e > 0)) - int(bool(e < 0))
    if e.has(sp.I, sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    for p in precs:
        try:
            r = interval(e, p)
        except (NotCertifiable, ZeroDivisionError, ValueError):
            break
        if r.a > 0:
            return 1
        if r.b < 0:
            return -1
    try:
        if sp.simplify(e) == 0:
            return 0
        if e.is_algebraic:
            t = sp.Dummy("t")
            if sp.minimal_polynomial(e, t) == t:
                return 0
    except Exception:  # noqa: BLE001 - sympy may fail in many ways; then we do not know
        return None
    return None
