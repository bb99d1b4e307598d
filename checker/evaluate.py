"""Exact evaluation of the checker's terms: how an erratum's counterexample is checked.

Every value is a rational (``Fraction``), a vector a tuple of them, a sequence a list by index
(``w(k)`` is the k-th entry).  Sums and bounded "for all" run over the values of the index's sort
between the bounds (a natural index from max(lo, 0)); an unbounded "for all", an irrational value
(``sqrt(2)``, ``exp(1)``), or a value not given cannot be evaluated (:class:`NotExact`), and then
the erratum is not confirmed.
"""
from __future__ import annotations

from fractions import Fraction
from math import isqrt

from checker.terms import BOOL, NAT, VEC, CheckError, Term


class NotExact(CheckError):
    """No exact rational value."""


def number(x) -> Fraction:
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise CheckError(f"a value {x!r} is not a number")
    try:
        return Fraction(x)
    except (ValueError, ZeroDivisionError):
        raise CheckError(f"a value {x!r} is not a number") from None


def one(sort: str, x):
    if sort == VEC:
        if not isinstance(x, list):
            raise CheckError("a vector value is a list")
        return tuple(number(c) for c in x)
    if sort == BOOL:
        if not isinstance(x, bool):
            raise CheckError("a Boolean value is true or false")
        return x
    return number(x)


def nested(name, depth, sort, x):
    """A function of ``depth`` integer arguments as nested lists (``w(k)`` is ``w[k]``)."""
    if depth == 0:
        return one(sort, x)
    if not isinstance(x, list):
        raise CheckError(f"the value of {name} must be nested lists ({depth} level(s))")
    return [nested(name, depth - 1, sort, y) for y in x]


def values(data: dict, decls: dict) -> dict:
    """A counterexample's values from the certificate (numbers as 'p/q' strings or integers)."""
    if not isinstance(data, dict):
        raise CheckError("the counterexample is an object")
    env = {}
    for name, x in data.items():
        d = decls.get(name)
        if d is None:
            raise CheckError(f"the counterexample gives {name!r}, which is not declared")
        env[name] = one(d[1], x) if d[0] == "var" else nested(name, len(d[1]), d[2], x)
    return env


MAX_POWER = 4096           # the largest exponent evaluated exactly (2^k, b^k, v^(x)k)


def _power(k: int) -> int:
    if k > MAX_POWER:
        raise NotExact(f"an exponent {k} above {MAX_POWER}")
    return k


def _int(v) -> int:
    if not isinstance(v, Fraction) or v.denominator != 1:
        raise NotExact(f"a bound {v} that is not an integer")
    return int(v)


MAX_TERMS = 100000         # the most terms a sum or a bounded "for all" is evaluated over


def _range(i: Term, lo, hi):
    r = range(max(lo, 0) if i.sort == NAT else lo, hi + 1)
    if len(r) > MAX_TERMS:
        raise NotExact(f"a range of {len(r)} values (at most {MAX_TERMS} are evaluated)")
    return r


def _bounded(e: Term):
    """forall k: (lo <= k < hi) or (lo <= k <= hi) ==> body, as (k, lo, last, body)."""
    if len(e.args) != 2:
        return None
    k, imp = e.args
    if imp.op != "implies" or imp.args[0].op != "and" or len(imp.args[0].args) != 2:
        return None
    x, y = imp.args[0].args
    if x.op == "le" and x.args[1] == k and y.op in ("lt", "le") and y.args[0] == k:
        return k, x.args[0], y.args[1], y.op == "le", imp.args[1]
    return None


def _vec(v):
    if not isinstance(v, tuple):
        raise NotExact("a vector was expected")
    return v


def evaluate(e: Term, env: dict):  # noqa: C901 - one case per node
    op, a = e.op, e.args
    ev = lambda x: evaluate(x, env)  # noqa: E731
    if op == "var":
        if e.name not in env:
            raise NotExact(f"no value for {e.name}")
        return env[e.name]
    if op == "lit":
        return e.value
    if op == "call":
        v = env.get(e.name)
        if v is None:
            raise NotExact(f"no value for {e.name}")
        for x in a:
            k = _int(ev(x))
            if not 0 <= k < len(v):
                raise NotExact(f"{e.name} at {k} is not given")
            v = v[k]
        return v
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
    if op in ("max", "min"):
        return (max if op == "max" else min)(ev(a[0]), ev(a[1]))
    if op == "exp":
        if ev(a[0]) != 0:
            raise NotExact("exp of a nonzero rational is irrational")
        return Fraction(1)
    if op == "sqrt":
        x = ev(a[0])
        p, q = (isqrt(x.numerator), isqrt(x.denominator)) if x >= 0 else (0, 0)
        if x < 0 or p * p != x.numerator or q * q != x.denominator:
            raise NotExact(f"sqrt({x}) is not rational")
        return Fraction(p, q)
    if op == "lg":
        x = ev(a[0])
        n, d = x.numerator, x.denominator
        if x > 0 and d == 1 and n & (n - 1) == 0:
            return Fraction(n.bit_length() - 1)
        if x > 0 and n == 1 and d & (d - 1) == 0:
            return Fraction(-(d.bit_length() - 1))
        raise NotExact(f"lg({x}) is not rational")
    if op == "pow2":
        k = _int(ev(a[0]))
        return Fraction(2) ** (_power(k) if k >= 0 else -_power(-k))
    if op in ("vadd", "vsub"):
        x, y = _pair(a[0], a[1], env)
        if len(x) != len(y):
            raise NotExact("vectors of different dimensions")
        return tuple(p + q if op == "vadd" else p - q for p, q in zip(x, y))
    if op == "smul":
        c = ev(a[0])
        return tuple(c * t for t in _vec(ev(a[1])))
    if op == "dot":
        x, y = _vec(ev(a[0])), _vec(ev(a[1]))
        if len(x) != len(y):
            raise NotExact("dot of vectors of different dimensions")
        return sum((p * q for p, q in zip(x, y)), Fraction(0))
    if op == "vec1":
        return (ev(a[0]),)
    if op == "vcat":
        return _vec(ev(a[0])) + _vec(ev(a[1]))
    if op == "tensor":
        return tuple(p * q for p in _vec(ev(a[0])) for q in _vec(ev(a[1])))
    if op in ("tpow", "npow"):
        k = _power(_int(ev(a[1])))
        if k < 0:
            raise NotExact("a negative power")
        b = ev(a[0])
        out = (Fraction(1),) if op == "tpow" else Fraction(1)
        for _ in range(k):
            out = tuple(p * q for p in out for q in b) if op == "tpow" else out * b
        return out
    if op == "sum":
        i, lo, hi, body = a
        return sum((evaluate(body, {**env, i.name: Fraction(t)}) for t in _range(i, _int(ev(lo)), _int(ev(hi)))),
                   Fraction(0))
    if op == "vsum":
        i, lo, hi, body = a
        terms = [_vec(evaluate(body, {**env, i.name: Fraction(t)})) for t in _range(i, _int(ev(lo)), _int(ev(hi)))]
        if not terms or len({len(t) for t in terms}) != 1:
            raise NotExact("an empty sum of vectors, or one of vectors of different dimensions")
        return tuple(sum(c, Fraction(0)) for c in zip(*terms))
    if op in ("le", "lt", "ge", "gt", "eq", "ne"):
        if op in ("eq", "ne") and "vzero" in (a[0].op, a[1].op):
            o = a[1] if a[0].op == "vzero" else a[0]
            z = o.op == "vzero" or all(c == 0 for c in _vec(ev(o)))
            return z if op == "eq" else not z
        x, y = ev(a[0]), ev(a[1])
        return {"le": lambda: x <= y, "lt": lambda: x < y, "ge": lambda: x >= y, "gt": lambda: x > y,
                "eq": lambda: x == y, "ne": lambda: x != y}[op]()
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
        top = _int(ev(hi)) - (0 if inclusive else 1)
        return all(evaluate(body, {**env, k.name: Fraction(t)}) for t in _range(k, _int(ev(lo)), top))
    raise NotExact(f"cannot evaluate {op}")


def _pair(x: Term, y: Term, env):
    if x.op == "vzero":
        v = _vec(evaluate(y, env))
        return tuple(Fraction(0) for _ in v), v
    if y.op == "vzero":
        v = _vec(evaluate(x, env))
        return v, tuple(Fraction(0) for _ in v)
    return _vec(evaluate(x, env)), _vec(evaluate(y, env))
