"""Exact evaluation of formula objects: every value a rational (``Fraction``), a vector a tuple of
them, a sequence a ``dict`` or ``list`` by index, a function a Python callable.  An erratum's
counterexample is checked this way (every hypothesis true, the conclusion false), and so are the
random instances of every trusted rule in the tests.  Sums and bounded "for all" run over
:func:`index_range`: the values of the index's sort between the bounds (the one meaning of a sum)."""
from __future__ import annotations

from fractions import Fraction

from .formula import BOOL, NAT, VEC, Expr, FormulaError
from .render import _below

__all__ = ["evaluate", "NotExact", "index_range"]


class NotExact(FormulaError):
    """The value is not a rational number (e.g. sqrt(2)), or cannot be computed (an unbounded quantifier)."""


def _isqrt_frac(f: Fraction) -> Fraction:
    if f < 0:
        raise NotExact(f"sqrt of a negative number {f}")
    from math import isqrt
    p, q = isqrt(f.numerator), isqrt(f.denominator)
    if p * p != f.numerator or q * q != f.denominator:
        raise NotExact(f"sqrt({f}) is irrational")
    return Fraction(p, q)


def _lg_frac(f: Fraction) -> Fraction:
    if f <= 0:
        raise NotExact(f"lg of {f}")
    n, d = f.numerator, f.denominator
    if n & (n - 1) == 0 and d == 1:
        return Fraction(n.bit_length() - 1)
    if n == 1 and d & (d - 1) == 0:
        return Fraction(-(d.bit_length() - 1))
    raise NotExact(f"lg({f}) is irrational")


def index_range(i: Expr, lo: int, hi: int) -> range:
    """The values of a sum's index (or a bounded quantifier's variable) from ``lo`` to ``hi``
    inclusive: a natural-number index runs over the naturals in that range (the one meaning of
    a sum and of a quantifier over a natural, shared with the SMT-LIB guard ``i >= 0``, the sympy
    form and the Coq export's ``Z.to_nat lo``)."""
    return range(max(lo, 0) if i.sort == NAT else lo, hi + 1)


def _bounded(e: Expr):
    """``for all k: lo <= k < hi ==> body`` or ``... lo <= k <= hi ==> body`` as
    (k, lo, hi, inclusive, body); None for any other "for all"."""
    b = _below(e)
    if b is not None:
        return b[0], b[1], b[2], False, b[3]
    if e.op != "forall" or len(e.args) != 2:
        return None
    k, imp = e.args
    if imp.op != "implies" or imp.args[0].op != "and" or len(imp.args[0].args) != 2:
        return None
    x, y = imp.args[0].args
    if x.op == "le" and x.args[1] == k and y.op == "le" and y.args[0] == k:
        return k, x.args[0], y.args[1], True, imp.args[1]
    return None


def _as_int(v) -> int:
    if not isinstance(v, Fraction) or v.denominator != 1:
        raise NotExact(f"a bound {v} that is not an integer")
    return int(v)


def evaluate(e: Expr, env: dict):  # noqa: C901 - one case per node kind
    """The exact value of ``e``; ``env`` maps names to values (see the module docstring)."""
    op, a = e.op, e.args
    ev = lambda x: evaluate(x, env)  # noqa: E731
    if op == "var":
        if e.name not in env:
            raise NotExact(f"no value for {e.name}")
        v = env[e.name]
        if e.sort == VEC:
            return tuple(Fraction(c) for c in v)
        if e.sort == BOOL:
            return bool(v)
        return Fraction(v)
    if op == "num":
        return e.value
    if op == "call":
        f = env.get(e.name)
        if f is None:
            raise NotExact(f"no value for {e.name}")
        args = [ev(x) for x in a]
        if callable(f):
            v = f(*args)
        else:
            idx = int(args[0])
            if not (0 <= idx < len(f)) if isinstance(f, (list, tuple)) else idx not in f:
                raise NotExact(f"{e.name}({idx}) is not given")
            v = f[idx]
        return tuple(Fraction(c) for c in v) if e.sort == VEC else Fraction(v)
    if op in ("true", "false"):
        return op == "true"
    if op == "to_real":
        return ev(a[0])
    if op == "add":
        return sum((ev(x) for x in a), Fraction(0))
    if op == "mul":
        out = Fraction(1)
        for x in a:
            out *= ev(x)
        return out
    if op == "sub":
        return ev(a[0]) - ev(a[1])
    if op == "neg":
        return -ev(a[0])
    if op == "div":
        d = ev(a[1])
        if d == 0:
            raise NotExact("division by zero")
        return ev(a[0]) / d
    if op == "pow":
        return ev(a[0]) ** int(a[1].value)
    if op == "ite":
        return ev(a[1]) if ev(a[0]) else ev(a[2])
    if op == "abs":
        return abs(ev(a[0]))
    if op == "max":
        return max(ev(a[0]), ev(a[1]))
    if op == "min":
        return min(ev(a[0]), ev(a[1]))
    if op == "exp":
        x = ev(a[0])
        if x != 0:
            raise NotExact(f"exp({x}) is irrational")
        return Fraction(1)
    if op == "sqrt":
        return _isqrt_frac(ev(a[0]))
    if op == "lg":
        return _lg_frac(ev(a[0]))
    if op == "pow2":
        k = ev(a[0])
        return Fraction(2) ** int(k)
    if op == "vzero":
        raise NotExact("the zero vector has no dimension by itself; compare it with '='")
    if op in ("vadd", "vsub"):
        x, y = _vec_pair(e, env)
        if len(x) != len(y):
            raise NotExact(f"vectors with {len(x)} and {len(y)} coordinates in one sum")
        return tuple(p + q if op == "vadd" else p - q for p, q in zip(x, y))
    if op == "smul":
        c, v = ev(a[0]), ev(a[1])
        return tuple(c * t for t in v)
    if op == "dot":
        x, y = ev(a[0]), ev(a[1])
        if len(x) != len(y):
            raise NotExact("dot of vectors of different dimensions")
        return sum((p * q for p, q in zip(x, y)), Fraction(0))
    if op == "sum":
        i, lo, hi, body = a
        total = Fraction(0)
        for t in index_range(i, _as_int(ev(lo)), _as_int(ev(hi))):
            total += evaluate(body, {**env, i.name: t})
        return total
    if op in _FEATURE_OPS:
        return _feature_value(e, env)
    if op in ("le", "lt", "ge", "gt", "eq", "ne"):
        if op in ("eq", "ne") and (a[0].op == "vzero" or a[1].op == "vzero"):
            o = a[1] if a[0].op == "vzero" else a[0]
            z = _zero_vec(o, env) or all(c == 0 for c in ev(o))
            return z if op == "eq" else not z
        x, y = ev(a[0]), ev(a[1])
        return {"le": x <= y, "lt": x < y, "ge": x >= y, "gt": x > y, "eq": x == y, "ne": x != y}[op]
    if op == "and":
        return all(ev(x) for x in a)
    if op == "or":
        return any(ev(x) for x in a)
    if op == "not":
        return not ev(a[0])
    if op == "implies":
        return (not ev(a[0])) or ev(a[1])
    if op == "iff":
        return ev(a[0]) == ev(a[1])
    if op == "forall":
        b = _bounded(e)
        if b is None:
            raise NotExact("an unbounded 'for all' cannot be evaluated")
        k, lo, hi, inclusive, body = b
        top = _as_int(ev(hi)) - (0 if inclusive else 1)
        return all(evaluate(body, {**env, k.name: t}) for t in index_range(k, _as_int(ev(lo)), top))
    raise NotExact(f"cannot evaluate {op}")


_FEATURE_OPS = ("vec1", "vcat", "tensor", "tpow", "npow", "vsum")


def _feature_value(e: Expr, env):
    """Exact values of the feature-space constructions (see ``proofs.formula``)."""
    op, a = e.op, e.args
    ev = lambda x: evaluate(x, env)  # noqa: E731
    if op == "vec1":
        return (ev(a[0]),)
    if op == "vcat":
        return ev(a[0]) + ev(a[1])
    if op == "tensor":
        return tuple(p * q for p in ev(a[0]) for q in ev(a[1]))
    if op in ("tpow", "npow"):
        k = ev(a[1])
        if k.denominator != 1 or k < 0:
            raise NotExact(f"a power with exponent {k}")
        b = ev(a[0])
        out = (Fraction(1),) if op == "tpow" else Fraction(1)
        for _ in range(int(k)):
            out = tuple(p * q for p in out for q in b) if op == "tpow" else out * b
        return out
    i, lo, hi, body = a                      # vsum
    terms = [evaluate(body, {**env, i.name: t}) for t in index_range(i, _as_int(ev(lo)), _as_int(ev(hi)))]
    if not terms:
        raise NotExact("an empty sum of vectors has no dimension by itself")
    if len({len(t) for t in terms}) != 1:
        raise NotExact("a sum of vectors of different dimensions")
    return tuple(sum(c, Fraction(0)) for c in zip(*terms))


def _zero_vec(e: Expr, env) -> bool:
    """Is ``e`` the zero vector as such (``vzero``, or an empty sum of vectors), whose dimension is
    that of the vector it is added to?"""
    if e.op == "vzero":
        return True
    if e.op == "vsum":
        i, lo, hi, _ = e.args
        return not index_range(i, _as_int(evaluate(lo, env)), _as_int(evaluate(hi, env)))
    return False


def _vec_pair(e, env):
    x, y = e.args
    if _zero_vec(x, env):
        v = evaluate(y, env)
        return tuple(Fraction(0) for _ in v), v
    if _zero_vec(y, env):
        v = evaluate(x, env)
        return v, tuple(Fraction(0) for _ in v)
    return evaluate(x, env), evaluate(y, env)
