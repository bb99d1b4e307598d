"""The terms a kernel ``K(x, y)`` is made of, once parsed.

* **Vectors** (any dimension, the default): ``XX`` = |x|^2, ``XY`` = x·y, ``YY`` = |y|^2 — all a
  function of ``dot``/``norm`` of linear combinations of x and y can depend on.
* **Numbers** (dimension 1, ``--dim 1``): x and y themselves, as the symbols of
  :func:`scalar_symbols` for the domain (``real``, ``nonneg`` = [0, inf), ``positive`` = (0, inf)),
  so that ``min(x, y)``, ``abs(x - y)`` or ``x*y`` mean what they say; sympy's assumptions carry the
  domain (``min(x, y)`` knows x >= 0 on ``nonneg``).
* **Coordinate-wise** terms (vectors): ``sum(k(x, y))`` = sum_i k(x_i, y_i) and ``prod(k(x, y))`` =
  prod_i k(x_i, y_i), held as :class:`CoordSum` / :class:`CoordProd` of an expression in the
  scalar symbols (which then stand for the coordinates x_i, y_i).

:func:`swap` exchanges x and y; :func:`side` says which of them a term depends on;
:func:`kernel_display` prints a kernel back in the input syntax.
"""
from __future__ import annotations

import re

import sympy as sp
from sympy.printing.str import StrPrinter

__all__ = ["XX", "XY", "YY", "DOMAINS", "scalar_symbols", "CoordSum", "CoordProd", "swap", "side",
           "KERNEL_SYMBOLS", "X_SIDE", "Y_SIDE", "kernel_display", "domain_text"]

XX = sp.Symbol("xx", nonnegative=True)   # |x|^2
YY = sp.Symbol("yy", nonnegative=True)   # |y|^2
XY = sp.Symbol("xy", real=True)          # x.y

DOMAINS = {"real": {"real": True}, "nonneg": {"nonnegative": True}, "positive": {"positive": True}}
_SCALARS = {d: (sp.Symbol("x", **a), sp.Symbol("y", **a)) for d, a in DOMAINS.items()}
X_SIDE = frozenset({XX} | {p[0] for p in _SCALARS.values()})
Y_SIDE = frozenset({YY} | {p[1] for p in _SCALARS.values()})
KERNEL_SYMBOLS = X_SIDE | Y_SIDE | {XY}
_SWAP = {XX: YY, YY: XX}
for _x, _y in _SCALARS.values():
    _SWAP[_x], _SWAP[_y] = _y, _x


def scalar_symbols(domain: str = "real") -> tuple[sp.Symbol, sp.Symbol]:
    """(x, y) as real numbers of the domain (also the coordinates x_i, y_i inside sum()/prod())."""
    return _SCALARS[domain]


def domain_text(domain: str, dim: int | None) -> str:
    """'x, y in R^d (every dimension d)', 'x, y in [0, inf)', ... for reports."""
    base = {"real": "R", "nonneg": "[0, inf)", "positive": "(0, inf)"}[domain]
    if dim == 1:
        return f"x, y in {base} (numbers)"
    if dim is None:
        return f"x, y in {base}^d (every dimension d)"
    return f"x, y in {base}^{dim}"


class _Coordinatewise(sp.Function):
    nargs = 1

    @classmethod
    def eval(cls, arg):          # never evaluated: the dimension is not known here
        return None

    def _eval_is_real(self):
        return self.args[0].is_real


class CoordSum(_Coordinatewise):
    """sum_i k(x_i, y_i), the argument k written in the scalar symbols."""


class CoordProd(_Coordinatewise):
    """prod_i k(x_i, y_i), the argument k written in the scalar symbols."""


def swap(e):
    """K(y, x) for K(x, y)."""
    return sp.sympify(e).xreplace(_SWAP)


def side(e) -> str:
    """'const', 'x', 'y' or 'mixed': which arguments the term depends on."""
    s = sp.sympify(e).free_symbols & KERNEL_SYMBOLS
    if not s:
        return "const"
    if s <= X_SIDE:
        return "x"
    if s <= Y_SIDE:
        return "y"
    return "mixed"


class _KernelPrinter(StrPrinter):
    """sympy's str printer, with the input syntax for the functions the parser reads."""

    def _print_Min(self, e):
        return "min(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Max(self, e):
        return "max(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Abs(self, e):
        return "abs(" + self._print(e.args[0]) + ")"

    def _print_CoordSum(self, e):
        return "sum(" + self._print(e.args[0]) + ")"

    def _print_CoordProd(self, e):
        return "prod(" + self._print(e.args[0]) + ")"

    def _print_Piecewise(self, e):
        (val, cond), rest = e.args[0], e.args[1:]
        other = sp.Piecewise(*rest) if rest and not (len(rest) == 1 and rest[0][1] == sp.true) else \
            (rest[0][0] if rest else sp.nan)
        if val == 1 and other == 0:
            return f"ind({self._print(cond)})"
        return f"where({self._print(cond)}, {self._print(val)}, {self._print(other)})"

    def _print_Relational(self, e):
        op = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}[e.rel_op]
        return f"{self._print(e.lhs)} {op} {self._print(e.rhs)}"

    _print_Equality = _print_Relational
    _print_Unequality = _print_Relational

    def _print_And(self, e):
        return " and ".join(f"({self._print(a)})" for a in e.args)

    def _print_Or(self, e):
        return " or ".join(f"({self._print(a)})" for a in e.args)

    def _print_Not(self, e):
        return f"not ({self._print(e.args[0])})"


def kernel_display(e) -> str:
    """Print a kernel in the input syntax (dot/norm, min/max, ind/where, sum/prod), re-parseable by
    :func:`refutation.expr_parse.parse_kernel` with the same dimension and domain."""
    s = _KernelPrinter().doprint(sp.sympify(e))
    s = re.sub(r"sqrt\(xx\)", "norm(x)", s)
    s = re.sub(r"sqrt\(yy\)", "norm(y)", s)
    s = re.sub(r"\bxx\b", "dot(x, x)", s)
    s = re.sub(r"\byy\b", "dot(y, y)", s)
    s = re.sub(r"\bxy\b", "dot(x, y)", s)
    return s
