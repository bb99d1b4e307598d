"""Interpreted functions and feature-space constructions, as formula objects.

``exp``, ``sqrt``, ``lg`` (log2), ``pow2`` (2^n): meaning in exact evaluation and in sympy,
uninterpreted for the SMT solvers (their properties enter a proof only as named trusted rules,
``proofs.kernel.rules``); ``Abs``, ``Max``, ``Min``: if-then-else for the solvers.

Feature spaces (kernels): a vector-valued function of a vector, ``phi(x)``, is a vector of its own
space R^N (N a dimension of its own); ``vec1(t)`` is the one-coordinate vector (t), ``vcat(u, v)``
the concatenation (u, v), ``tensor(u, v)`` the tensor product u (x) v (coordinates u_i v_j),
``tensor_pow(v, k)`` the k-th tensor power, ``npow(b, k)`` a real power with an integer exponent
term, and ``VSum(i, lo, hi, body)`` a finite sum of vectors.  Like ``dot`` they are uninterpreted
for the solvers; their coordinates are in ``proofs.printers.symbolic`` and ``proofs.printers.concrete``.
"""
from __future__ import annotations

from proofs.language.formula import INT, INTERPRETED, NAT, REAL, VEC, Expr, FormulaError, _is_int, _need_num, num, to_real

__all__ = ["vec1", "vcat", "tensor", "tensor_pow", "npow", "VSum", "exp", "sqrt", "lg", "pow2", "Abs", "Max", "Min"]


def _need_vec(e: Expr, what: str):
    if not isinstance(e, Expr) or e.sort != VEC:
        raise FormulaError(f"{what} needs vectors")


def vec1(t) -> Expr:
    """The vector (t) with one coordinate."""
    t = num(t)
    _need_num(t, "vec1")
    return Expr("vec1", (to_real(t),), sort=VEC)


def vcat(u, v) -> Expr:
    """The concatenation (u, v): the coordinates of u, then those of v."""
    _need_vec(u, "vcat")
    _need_vec(v, "vcat")
    return Expr("vcat", (u, v), sort=VEC)


def tensor(u, v) -> Expr:
    """The tensor product u (x) v: coordinates u_i v_j, (i, j) in lexicographic order."""
    _need_vec(u, "tensor")
    _need_vec(v, "tensor")
    return Expr("tensor", (u, v), sort=VEC)


def tensor_pow(v, k) -> Expr:
    """The k-th tensor power of v (k an integer term; the 0-th power is the vector (1))."""
    _need_vec(v, "tensor_pow")
    k = num(k)
    if not _is_int(k.sort):
        raise FormulaError("a tensor power needs an integer exponent")
    return Expr("tpow", (v, k), sort=VEC)


def npow(b, k) -> Expr:
    """b^k for an integer exponent term k (a literal exponent is ``b**k``)."""
    b, k = num(b), num(k)
    _need_num(b, "npow")
    if not _is_int(k.sort):
        raise FormulaError("npow needs an integer exponent")
    return Expr("npow", (to_real(b), k), sort=REAL)


def VSum(i: Expr, lo, hi, body) -> Expr:
    """sum_{i = lo}^{hi} body for a vector-valued body (inclusive bounds; an empty sum is 0)."""
    if i.op != "var" or not _is_int(i.sort):
        raise FormulaError("a sum runs over an integer variable")
    lo, hi = num(lo), num(hi)
    _need_vec(body, "VSum")
    return Expr("vsum", (i, lo, hi, body), sort=VEC)


def _fn(op: str, a) -> Expr:
    a = num(a)
    arg, res = INTERPRETED[op]
    if arg == INT and not _is_int(a.sort):
        raise FormulaError(f"{op} needs an integer argument")
    if arg == REAL:
        a = to_real(a)
    return Expr(op, (a,), sort=res)


def exp(a):
    return _fn("exp", a)


def sqrt(a):
    return _fn("sqrt", a)


def lg(a):
    return _fn("lg", a)


def pow2(a):
    return _fn("pow2", a)


def Abs(a) -> Expr:
    a = num(a)
    _need_num(a, "abs")
    return Expr("abs", (a,), sort=a.sort if a.sort != NAT else INT)


def Max(a, b) -> Expr:
    return _minmax("max", a, b)


def Min(a, b) -> Expr:
    return _minmax("min", a, b)


def _minmax(op, a, b):
    a, b = num(a), num(b)
    _need_num(a, op)
    _need_num(b, op)
    if REAL in (a.sort, b.sort):
        a, b = to_real(a), to_real(b)
        return Expr(op, (a, b), sort=REAL)
    return Expr(op, (a, b), sort=INT)


