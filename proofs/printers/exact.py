"""Exact evaluation of formula objects: every value a rational (``Fraction``), a vector a tuple of
them, a sequence a ``dict`` or ``list`` by index, a function a Python callable.  An erratum's
counterexample is checked this way (every hypothesis true, the conclusion false), and so are the
random instances of every trusted rule in the tests.  Sums and bounded "for all" run over
:func:`index_range`: the values of the index's sort between the bounds (the one meaning of a sum)."""
from __future__ import annotations

from fractions import Fraction

from proofs.language.formula import BOOL, NAT, VEC, Expr, FormulaError
from proofs.printers.printer import Printer
from proofs.printers.render import _below

__all__ = ["evaluate", "NotExact", "index_range", "Evaluator"]


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


class Evaluator(Printer):
    """Exact values, one method per operation: each takes the node and the environment."""
    name = "exact evaluator"
    error = NotExact

    def op_var(self, e, env):
        if e.name not in env:
            raise NotExact(f"no value for {e.name}")
        v = env[e.name]
        if e.sort == VEC:
            return tuple(Fraction(c) for c in v)
        if e.sort == BOOL:
            return bool(v)
        return Fraction(v)

    def op_num(self, e, env):
        return e.value

    def op_call(self, e, env):
        f = env.get(e.name)
        if f is None:
            raise NotExact(f"no value for {e.name}")
        args = [self.node(x, env) for x in e.args]
        if callable(f):
            v = f(*args)
        else:
            idx = int(args[0])
            if not (0 <= idx < len(f)) if isinstance(f, (list, tuple)) else idx not in f:
                raise NotExact(f"{e.name}({idx}) is not given")
            v = f[idx]
        return tuple(Fraction(c) for c in v) if e.sort == VEC else Fraction(v)

    def _constant(self, e, env):
        return e.op == "true"

    op_true = op_false = _constant

    def op_to_real(self, e, env):
        return self.node(e.args[0], env)

    def op_add(self, e, env):
        return sum((self.node(x, env) for x in e.args), Fraction(0))

    def op_mul(self, e, env):
        out = Fraction(1)
        for x in e.args:
            out *= self.node(x, env)
        return out

    def op_sub(self, e, env):
        return self.node(e.args[0], env) - self.node(e.args[1], env)

    def op_neg(self, e, env):
        return -self.node(e.args[0], env)

    def op_div(self, e, env):
        d = self.node(e.args[1], env)
        if d == 0:
            raise NotExact("division by zero")
        return self.node(e.args[0], env) / d

    def op_pow(self, e, env):
        return self.node(e.args[0], env) ** int(e.args[1].value)

    def op_ite(self, e, env):
        a = e.args
        return self.node(a[1], env) if self.node(a[0], env) else self.node(a[2], env)

    def op_abs(self, e, env):
        return abs(self.node(e.args[0], env))

    def op_max(self, e, env):
        return max(self.node(e.args[0], env), self.node(e.args[1], env))

    def op_min(self, e, env):
        return min(self.node(e.args[0], env), self.node(e.args[1], env))

    def op_exp(self, e, env):
        x = self.node(e.args[0], env)
        if x != 0:
            raise NotExact(f"exp({x}) is irrational")
        return Fraction(1)

    def op_sqrt(self, e, env):
        return _isqrt_frac(self.node(e.args[0], env))

    def op_lg(self, e, env):
        return _lg_frac(self.node(e.args[0], env))

    def op_pow2(self, e, env):
        k = self.node(e.args[0], env)
        return Fraction(2) ** int(k)

    def op_vzero(self, e, env):
        raise NotExact("the zero vector has no dimension by itself; compare it with '='")

    def _vector_sum(self, e, env):
        x, y = _vec_pair(e, env)
        if len(x) != len(y):
            raise NotExact(f"vectors with {len(x)} and {len(y)} coordinates in one sum")
        return tuple(p + q if e.op == "vadd" else p - q for p, q in zip(x, y))

    op_vadd = op_vsub = _vector_sum

    def op_smul(self, e, env):
        c, v = self.node(e.args[0], env), self.node(e.args[1], env)
        return tuple(c * t for t in v)

    def op_dot(self, e, env):
        x, y = self.node(e.args[0], env), self.node(e.args[1], env)
        if len(x) != len(y):
            raise NotExact("dot of vectors of different dimensions")
        return sum((p * q for p, q in zip(x, y)), Fraction(0))

    def op_sum(self, e, env):
        i, lo, hi, body = e.args
        total = Fraction(0)
        for t in index_range(i, _as_int(self.node(lo, env)), _as_int(self.node(hi, env))):
            total += self.node(body, {**env, i.name: t})
        return total

    # the feature-space constructions (see ``proofs.language.formula``)
    def op_vec1(self, e, env):
        return (self.node(e.args[0], env),)

    def op_vcat(self, e, env):
        return self.node(e.args[0], env) + self.node(e.args[1], env)

    def op_tensor(self, e, env):
        return tuple(p * q for p in self.node(e.args[0], env) for q in self.node(e.args[1], env))

    def _power(self, e, env):
        op, a = e.op, e.args
        k = self.node(a[1], env)
        if k.denominator != 1 or k < 0:
            raise NotExact(f"a power with exponent {k}")
        b = self.node(a[0], env)
        out = (Fraction(1),) if op == "tpow" else Fraction(1)
        for _ in range(int(k)):
            out = tuple(p * q for p in out for q in b) if op == "tpow" else out * b
        return out

    op_tpow = op_npow = _power

    def op_vsum(self, e, env):
        i, lo, hi, body = e.args
        terms = [self.node(body, {**env, i.name: t})
                 for t in index_range(i, _as_int(self.node(lo, env)), _as_int(self.node(hi, env)))]
        if not terms:
            raise NotExact("an empty sum of vectors has no dimension by itself")
        if len({len(t) for t in terms}) != 1:
            raise NotExact("a sum of vectors of different dimensions")
        return tuple(sum(c, Fraction(0)) for c in zip(*terms))

    def _relation(self, e, env):
        op, a = e.op, e.args
        if op in ("eq", "ne") and (a[0].op == "vzero" or a[1].op == "vzero"):
            o = a[1] if a[0].op == "vzero" else a[0]
            z = _zero_vec(o, env) or all(c == 0 for c in self.node(o, env))
            return z if op == "eq" else not z
        x, y = self.node(a[0], env), self.node(a[1], env)
        return {"le": x <= y, "lt": x < y, "ge": x >= y, "gt": x > y, "eq": x == y, "ne": x != y}[op]

    op_le = op_lt = op_ge = op_gt = op_eq = op_ne = _relation

    def op_and(self, e, env):
        return all(self.node(x, env) for x in e.args)

    def op_or(self, e, env):
        return any(self.node(x, env) for x in e.args)

    def op_not(self, e, env):
        return not self.node(e.args[0], env)

    def op_implies(self, e, env):
        return (not self.node(e.args[0], env)) or self.node(e.args[1], env)

    def op_iff(self, e, env):
        return self.node(e.args[0], env) == self.node(e.args[1], env)

    def op_forall(self, e, env):
        b = _bounded(e)
        if b is None:
            raise NotExact("an unbounded 'for all' cannot be evaluated")
        k, lo, hi, inclusive, body = b
        top = _as_int(self.node(hi, env)) - (0 if inclusive else 1)
        return all(self.node(body, {**env, k.name: t}) for t in index_range(k, _as_int(self.node(lo, env)), top))


_EVALUATOR = Evaluator()


def evaluate(e: Expr, env: dict):
    """The exact value of ``e``; ``env`` maps names to values (see the module docstring)."""
    return _EVALUATOR.node(e, env)


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
