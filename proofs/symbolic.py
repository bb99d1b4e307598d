"""Formula objects in sympy: the coordinate model of vectors, for identities.

A vector variable ``v`` is the indexed family ``v[i]``, i = 1..d with d a symbolic dimension; a
vector sequence ``w(k)`` is ``w[k, i]``; ``dot(a, b)`` is ``Sum(a[i] b[i], (i, 1, d))``; ``+``,
``-`` and scaling act coordinatewise.  An identity is decided by expanding both sides into
monomials under the sums and collecting them (linearity of finite sums: the trusted rule
``finite_sum_linearity``); z3 and cvc5 then re-check the same identity in dimensions 1, 2, 3
(``proofs.concrete.instance``), which needs no trust.
"""
from __future__ import annotations

from functools import lru_cache

from .formula import VEC, Expr, FormulaError

__all__ = ["to_sympy", "identity_holds", "has_symbolic_sum", "needs_coordinates"]


@lru_cache(maxsize=1)
def _sp():
    import sympy as sp
    return sp


def _dim():
    sp = _sp()
    return sp.Symbol("d", integer=True, positive=True)


class _Tr:
    def __init__(self):
        sp = _sp()
        self.sp = sp
        self.n = 0
        self.d = _dim()
        self.syms: dict[str, object] = {}

    def sym(self, name):
        if name not in self.syms:
            self.syms[name] = self.sp.Symbol(name, real=True)
        return self.syms[name]

    def index(self):
        self.n += 1
        return self.sp.Symbol(f"i{self.n}", integer=True, positive=True)

    def vec(self, e: Expr, i):  # noqa: C901
        sp, op, a = self.sp, e.op, e.args
        if op == "var":
            return sp.IndexedBase(e.name)[i]
        if op == "call":
            if len(a) != 1:
                raise FormulaError("only sequences of vectors have coordinates here")
            return sp.IndexedBase(e.name)[self.scalar(a[0]), i]
        if op == "vzero":
            return sp.Integer(0)
        if op == "vadd":
            return self.vec(a[0], i) + self.vec(a[1], i)
        if op == "vsub":
            return self.vec(a[0], i) - self.vec(a[1], i)
        if op == "smul":
            return self.scalar(a[0]) * self.vec(a[1], i)
        raise FormulaError(f"no coordinates for {op}")

    def scalar(self, e: Expr):  # noqa: C901
        sp, op, a = self.sp, e.op, e.args
        S = self.scalar
        if op == "var":
            return self.sym(e.name)
        if op == "num":
            return sp.Rational(e.value.numerator, e.value.denominator)
        if op == "call":
            if any(x.sort == VEC for x in a):
                raise FormulaError("a function of a vector has no coordinate form")
            return sp.Function(e.name)(*[S(x) for x in a])
        if op == "to_real":
            return S(a[0])
        if op == "add":
            return sp.Add(*[S(x) for x in a])
        if op == "mul":
            return sp.Mul(*[S(x) for x in a])
        if op == "sub":
            return S(a[0]) - S(a[1])
        if op == "neg":
            return -S(a[0])
        if op == "div":
            return S(a[0]) / S(a[1])
        if op == "pow":
            return S(a[0]) ** int(a[1].value)
        if op == "dot":
            i = self.index()
            return sp.Sum(self.vec(a[0], i) * self.vec(a[1], i), (i, 1, self.d))
        if op == "sum":
            v, lo, hi, body = a
            iv = sp.Symbol(v.name, integer=True)
            inner = _Tr.scalar(self, body).subs(self.sym(v.name), iv)
            return sp.Sum(inner, (iv, S(lo), S(hi)))
        if op in ("exp", "sqrt"):
            return getattr(sp, op)(S(a[0]))
        if op == "lg":
            return sp.log(S(a[0]), 2)
        raise FormulaError(f"no sympy form for {op}")


def to_sympy(e: Expr):
    """The sympy expression of a numeric term (vectors in coordinates over a symbolic d)."""
    return _Tr().scalar(e)


def has_symbolic_sum(e: Expr) -> bool:
    """Does deciding ``e`` need linearity of finite sums (an inner product or a sum)?"""
    from .formula import walk
    return any(n.op in ("dot", "sum") for n in walk(e))


def needs_coordinates(e: Expr) -> bool:
    """Is ``e`` about vectors or sums (decided in coordinates, not by the solvers as it stands)?"""
    from .formula import walk
    return any(n.op in ("dot", "sum") or n.sort == VEC for n in walk(e))


def _sum_normal(expr) -> bool | None:
    """Linearity of finite sums as a normal form: expand every summand into monomials, pull the
    factors free of the summation index out, rename the index, collect.  True when every
    collected coefficient is 0; None when the form is outside what this handles."""
    sp = _sp()
    expr = sp.expand(expr)
    coeffs: dict = {}
    canon = sp.Symbol("i_", integer=True, positive=True)
    for term in sp.Add.make_args(expr):
        outer, sums = [], []
        for f in sp.Mul.make_args(term):
            (sums if isinstance(f, sp.Sum) else outer).append(f)
        if len(sums) > 1:
            return None
        if not sums:
            coeffs[None] = coeffs.get(None, 0) + term
            continue
        S = sums[0]
        if len(S.limits) != 1:
            return None
        var, lo, hi = S.limits[0]
        body = sp.expand(S.function.subs(var, canon))
        for t in sp.Add.make_args(body):
            dep = sp.Mul(*[f for f in sp.Mul.make_args(t) if f.has(canon)])
            ind = sp.Mul(*[f for f in sp.Mul.make_args(t) if not f.has(canon)])
            key = (dep, lo, hi)
            coeffs[key] = coeffs.get(key, 0) + ind * sp.Mul(*outer)
    return all(sp.expand(c) == 0 for c in coeffs.values())


def identity_holds(lhs: Expr, rhs: Expr) -> tuple[bool, str]:
    """(True, how) when sympy shows lhs - rhs = 0 in the coordinate model; (False, why) otherwise."""
    sp = _sp()
    tr = _Tr()
    if lhs.sort == VEC:              # equal in every coordinate i (a symbolic index)
        i = tr.index()
        diff = tr.vec(lhs, i) - tr.vec(rhs, i)
    else:
        diff = tr.scalar(lhs) - tr.scalar(rhs)
    if sp.expand(diff) == 0:
        return True, "expand(lhs - rhs) = 0"
    if diff.has(sp.Sum):
        r = _sum_normal(diff)
        if r is True:
            return True, "lhs - rhs = 0 by linearity of finite sums"
        return False, "the sums do not cancel" if r is False else "sum form outside the normal form"
    return False, "expand(lhs - rhs) is not 0"
