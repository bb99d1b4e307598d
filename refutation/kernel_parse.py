"""Safe parsing of a kernel ``K(x, y)`` into sympy (the terms of :mod:`refutation.kernel_terms`).

The language, on the arithmetic core of :mod:`refutation.expr_parse` (numbers, ``+ - * / **``,
``exp log sqrt sin cos tan tanh sinh cosh atan asin acos abs``, ``pi``, ``E``):

* ``x``, ``y`` are vectors; ``dot(u, v)`` and ``norm(u)`` take linear combinations of them with
  constant coefficients (``dot(x - y, x - y)``, ``norm(2*x)``).  With ``dim=1`` (``--dim 1``) they
  are numbers, and may be used directly: ``min(x, y)``, ``abs(x - y)``, ``x*y`` (= ``dot(x, y)``).
* ``min(a, b, ...)``, ``max(a, b, ...)``, ``relu(a)`` = max(a, 0);
* conditions: comparisons ``== != < <= > >=`` (chained too), ``and``, ``or``, ``not``; two
  vectors compare only with ``==`` / ``!=`` (``x == y`` is |x - y|^2 == 0);
* indicators and piecewise terms: ``ind(COND)`` or ``1[COND]`` (1 where COND holds, else 0),
  ``where(COND, A, B)``, ``A if COND else B``, ``piecewise(A1, COND1, A2, COND2, ..., OTHERWISE)``;
* coordinate-wise terms on vectors: ``sum(k(x, y))`` = sum_i k(x_i, y_i) and ``prod(k(x, y))`` =
  prod_i k(x_i, y_i) — inside them x and y are the coordinates (numbers), so the
  histogram-intersection kernel is ``sum(min(x, y))``.

The domain (``real``, ``nonneg``, ``positive``) is carried by the scalar symbols' assumptions.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

import sympy as sp
from sympy.logic.boolalg import Boolean

from learners.errors import InputError

from refutation.expr_parse import FUNCS, Walker, err, parse_tree
from refutation.kernel_terms import DOMAINS, XX, XY, YY, CoordProd, CoordSum, scalar_symbols

__all__ = ["parse_kernel", "check_domain"]

# functions with their own handling (arity checked there); listed for the messages
_SPECIAL = ("dot", "norm", "relu", "ind", "indicator", "where", "piecewise", "sum", "prod")
_KERNEL_FUNCS = {"asin": (sp.asin, (1,)), "acos": (sp.acos, (1,))}
_VECTOR_HINT = " (x and y are vectors; with --dim 1 they are numbers)"


def _is_cond(v) -> bool:
    """A condition (a sympy Boolean that is not an expression: sympy symbols are Booleans too)."""
    return isinstance(v, Boolean) and not isinstance(v, sp.Expr)


@dataclass(frozen=True)
class _Vec:
    """The vector a*x + b*y (a, b sympy numbers)."""
    a: sp.Expr
    b: sp.Expr


def check_domain(dim, domain) -> None:
    """Raise InputError unless dim is None or an integer in [1, 50] and domain is known."""
    if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int) or dim < 1 or dim > 50):
        raise InputError(f"--dim must be an integer between 1 and 50, got {dim!r}")
    if domain not in DOMAINS:
        raise InputError(f"--domain must be one of {', '.join(DOMAINS)}, got {domain!r}")


class KernelWalker(Walker):
    kernel = True

    def __init__(self, *, shift: int, dim: int | None, domain: str):
        super().__init__(symbols={}, shift=shift)
        self.funcs = dict(FUNCS)
        self.funcs.update(_KERNEL_FUNCS)
        self.dim = dim
        self.X, self.Y = scalar_symbols(domain)
        self.coord = 0          # > 0 inside sum() / prod(): x, y are the coordinates

    @property
    def numbers(self) -> bool:
        return self.dim == 1 or self.coord > 0

    # ---- values -------------------------------------------------------------------------------
    def num(self, v, node, msg, hint=_VECTOR_HINT):
        """v as a number: a vector a x + b y becomes a number in dimension 1 / inside sum()."""
        if isinstance(v, _Vec):
            if self.numbers:
                return v.a * self.X + v.b * self.Y
            self.err(node, msg + hint)
        if _is_cond(v):
            self.err(node, "a condition is not a number: write ind(CONDITION) or 1[CONDITION]")
        return v

    def scalar(self, node):
        return self.num(self.walk(node), node, "a vector is used where a number is expected: use dot(x, y) or norm(x)")

    def cond(self, node):
        v = self.walk(node)
        if not _is_cond(v):
            self.err(node, "expected a condition, e.g. x == y or dot(x, y) > 0")
        return v

    def allowed_names(self) -> list:
        return ["x", "y"]

    def known_functions(self) -> list:
        return sorted(set(self.funcs) | set(_SPECIAL))

    def name(self, node):
        if node.id == "x":
            return _Vec(sp.Integer(1), sp.Integer(0))
        if node.id == "y":
            return _Vec(sp.Integer(0), sp.Integer(1))
        if node.id in _SPECIAL:
            self.err(node, f"{node.id} is a function: call it, e.g. {node.id}(...)")
        return super().name(node)

    def walk(self, node):
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.BoolOp):
            parts = [self.cond(v) for v in node.values]
            return sp.And(*parts) if isinstance(node.op, ast.And) else sp.Or(*parts)
        if isinstance(node, ast.IfExp):
            return sp.Piecewise((self.scalar(node.body), self.cond(node.test)), (self.scalar(node.orelse), True))
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Constant) and type(node.value.value) is int and node.value.value == 1:
                return sp.Piecewise((sp.Integer(1), self.cond(node.slice)), (sp.Integer(0), True))
            self.err(node, "unsupported syntax: indexing (an indicator is written 1[CONDITION])")
        return super().walk(node)

    def unary(self, node):
        if isinstance(node.op, ast.Not):
            return sp.Not(self.cond(node.operand))
        v = self.walk(node.operand)
        if isinstance(v, _Vec) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return _Vec(-v.a, -v.b) if isinstance(node.op, ast.USub) else v
        v = self.num(v, node.operand, "")
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return v
        self.err(node, f"unsupported operator {type(node.op).__name__}")

    def binop(self, node):  # noqa: C901 - one branch per operator
        op = node.op
        left, right = self.walk(node.left), self.walk(node.right)
        lv, rv = isinstance(left, _Vec), isinstance(right, _Vec)
        if not (lv or rv):
            return self.arith(node, self.num(left, node.left, ""), self.num(right, node.right, ""))
        if isinstance(op, (ast.Add, ast.Sub)):
            sgn = 1 if isinstance(op, ast.Add) else -1
            if lv and rv:
                return _Vec(left.a + sgn * right.a, left.b + sgn * right.b)
            msg = "cannot add a vector and a number"
        elif isinstance(op, ast.Mult):
            if lv != rv:
                vec, c = (left, right) if lv else (right, left)
                c = self.num(c, node, "")
                if not c.free_symbols:
                    return _Vec(c * vec.a, c * vec.b)
                msg = "a vector may only be scaled by a constant number"
            else:
                msg = "vector * vector is ambiguous: use dot(x, y)"
        elif isinstance(op, ast.Div):
            if lv and not rv:
                r = self.num(right, node.right, "")
                if not r.free_symbols and r != 0:
                    return _Vec(left.a / r, left.b / r)
                msg = "a vector may only be divided by a nonzero constant"
            else:
                msg = "cannot divide by a vector"
        elif isinstance(op, (ast.Pow, ast.BitXor)):
            msg = "cannot raise a vector to a power: use dot() or norm()"
        else:
            self.err(node, f"unsupported operator {type(op).__name__}")
        if not self.numbers:
            self.err(node, msg + _VECTOR_HINT)
        return self.arith(node, self.num(left, node.left, msg), self.num(right, node.right, msg))

    def compare(self, node):
        rels = {ast.Eq: sp.Eq, ast.NotEq: sp.Ne, ast.Lt: sp.Lt, ast.LtE: sp.Le, ast.Gt: sp.Gt, ast.GtE: sp.Ge}
        items = [node.left] + list(node.comparators)
        vals = [self.walk(n) for n in items]
        out = []
        for (a, an), (b, bn), op in zip(zip(vals, items), zip(vals[1:], items[1:]), node.ops):
            if type(op) not in rels:
                self.err(node, f"unsupported comparison {type(op).__name__}")
            if isinstance(a, _Vec) and isinstance(b, _Vec) and not self.numbers and type(op) in (ast.Eq, ast.NotEq):
                d = _Vec(a.a - b.a, a.b - b.b)
                out.append(rels[type(op)](self._dot(d, d), 0))
                continue
            msg = "vectors compare only with == and !="
            out.append(rels[type(op)](self.num(a, an, msg), self.num(b, bn, msg)))
        return sp.And(*out) if len(out) > 1 else out[0]

    def _dot(self, u, v):
        if self.numbers:
            return sp.expand((u.a * self.X + u.b * self.Y) * (v.a * self.X + v.b * self.Y))
        return sp.expand(u.a * v.a * XX + (u.a * v.b + u.b * v.a) * XY + u.b * v.b * YY)

    # ---- calls --------------------------------------------------------------------------------
    def argument(self, fname, node):
        return self.num(self.walk(node), node, f"{fname}() of a vector: use dot() or norm()")

    def call(self, node):  # noqa: C901 - one branch per special function
        if not isinstance(node.func, ast.Name):
            self.err(node, "only plain function calls are allowed")
        name = node.func.id
        if name not in _SPECIAL and name not in ("min", "max", "Min", "Max"):
            return super().call(node)
        if node.keywords:
            self.err(node, f"{name}() takes no keyword arguments")
        n = len(node.args)
        if name == "dot":
            args = [self.walk(a) for a in node.args]
            if n != 2 or not all(isinstance(a, _Vec) for a in args):
                self.err(node, "dot() takes two vectors, e.g. dot(x, y) or dot(x - y, x - y)")
            return self._dot(*args)
        if name == "norm":
            args = [self.walk(a) for a in node.args]
            if n != 1 or not isinstance(args[0], _Vec):
                self.err(node, "norm() takes one vector, e.g. norm(x) or norm(x - y)")
            u = args[0]
            if self.numbers:
                return sp.Abs(u.a * self.X + u.b * self.Y)
            return sp.sqrt(self._dot(u, u))
        if name in ("min", "max", "Min", "Max"):
            if n < 2:
                self.err(node, f"{name}() takes at least 2 arguments, got {n}")
            msg = (f"{name.lower()}() of a vector: x and y are vectors unless --dim 1 makes them numbers; "
                   f"sum({name.lower()}(x, y)) takes it coordinate-wise")
            args = [self.num(self.walk(a), a, msg, hint="") for a in node.args]
            return (sp.Min if name.lower() == "min" else sp.Max)(*args)
        if name == "relu":
            if n != 1:
                self.err(node, f"relu() takes 1 argument, got {n}")
            return sp.Max(self.argument(name, node.args[0]), 0)
        if name in ("ind", "indicator"):
            if n != 1:
                self.err(node, f"{name}() takes 1 argument (a condition), got {n}")
            return sp.Piecewise((sp.Integer(1), self.cond(node.args[0])), (sp.Integer(0), True))
        if name == "where":
            if n != 3:
                self.err(node, f"where() takes 3 arguments (CONDITION, A, B), got {n}")
            c, a, b = node.args
            return sp.Piecewise((self.argument(name, a), self.cond(c)), (self.argument(name, b), True))
        if name == "piecewise":
            if n < 3 or n % 2 == 0:
                self.err(node, "piecewise() takes A1, CONDITION1, A2, CONDITION2, ..., OTHERWISE (an odd number >= 3)")
            pieces = [(self.argument(name, node.args[i]), self.cond(node.args[i + 1])) for i in range(0, n - 1, 2)]
            return sp.Piecewise(*pieces, (self.argument(name, node.args[-1]), True))
        # sum / prod: coordinate-wise
        if n != 1:
            self.err(node, f"{name}() takes 1 argument, e.g. {name}(min(x, y)), got {n}")
        if self.coord:
            self.err(node, f"{name}() inside sum() or prod(): the coordinates are numbers already")
        self.coord += 1
        try:
            inner = self.argument(name, node.args[0])
        finally:
            self.coord -= 1
        if self.dim == 1:
            return inner
        return CoordSum(inner) if name == "sum" else CoordProd(inner)


def parse_kernel(text: str, *, dim: int | None = None, domain: str = "real") -> sp.Expr:
    """Parse ``K(x, y)``: a sympy expression in ``XX``, ``XY``, ``YY`` (vectors), in the scalar
    symbols of ``domain`` (``dim=1``), with :class:`CoordSum` / :class:`CoordProd` terms."""
    check_domain(dim, domain)
    node, shift = parse_tree(text)
    w = KernelWalker(shift=shift, dim=dim, domain=domain)
    v = w.walk(node)
    if isinstance(v, _Vec):
        if dim != 1:
            err(node.col_offset + 1 + shift, "the kernel is a vector, not a number: use dot(x, y) or norm(x)")
        v = w.num(v, node, "")
    if _is_cond(v):
        err(node.col_offset + 1 + shift, "the kernel is a condition, not a number: write ind(CONDITION) or 1[CONDITION]")
    v = sp.sympify(v)
    if v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise InputError("the kernel is undefined everywhere (division by zero or infinity)")
    return v
