"""Safe parsing of user expressions (kernels ``K(x, y)`` and claimed mistake bounds) into sympy.

Nothing is ever ``eval``-ed: the text is parsed with :mod:`ast` and the tree is walked with a
whitelist of node types, names and functions.  Anything else is an :class:`InputError` whose
one-line message names the 1-based column where the problem is.

Kernels are parsed into a scalar sympy expression in three symbols

* ``XX`` = x·x = |x|^2  (nonnegative),
* ``YY`` = y·y = |y|^2  (nonnegative),
* ``XY`` = x·y          (real),

which is all a function of ``dot``/``norm`` of linear combinations of x and y can depend on:
``dot(a x + b y, c x + d y) = ac XX + (ad + bc) XY + bd YY`` and ``norm(v) = sqrt(dot(v, v))``.

Bounds are parsed into a sympy expression over the quantity symbols of the setting (``R``,
``W``, ``gamma``, ... declared positive or nonnegative by the caller), with an optional leading
``<`` (strict claim) or ``<=`` / ``M <`` / ``M <=``.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

import sympy as sp

from learners.errors import InputError

__all__ = ["XX", "YY", "XY", "parse_kernel", "parse_bound", "ParsedBound", "MAX_EXPONENT",
           "interval", "certified_sign", "NotCertifiable"]

XX = sp.Symbol("xx", nonnegative=True)   # |x|^2
YY = sp.Symbol("yy", nonnegative=True)   # |y|^2
XY = sp.Symbol("xy", real=True)          # x.y

MAX_EXPONENT = 64      # |integer exponent| allowed on non-constant bases (keeps expand() small)
MAX_LEN = 2000

# function name -> (sympy callable, allowed argument counts)
_FUNCS = {
    "exp": (sp.exp, (1,)), "log": (sp.log, (1, 2)), "ln": (sp.log, (1,)), "sqrt": (sp.sqrt, (1,)),
    "sin": (sp.sin, (1,)), "cos": (sp.cos, (1,)), "tan": (sp.tan, (1,)),
    "tanh": (sp.tanh, (1,)), "sinh": (sp.sinh, (1,)), "cosh": (sp.cosh, (1,)),
    "atan": (sp.atan, (1,)), "abs": (sp.Abs, (1,)), "Abs": (sp.Abs, (1,)),
}
_BOUND_ONLY_FUNCS = {
    "floor": (sp.floor, (1,)), "ceiling": (sp.ceiling, (1,)), "ceil": (sp.ceiling, (1,)),
    "min": (sp.Min, (2, 3, 4)), "Min": (sp.Min, (2, 3, 4)),
    "max": (sp.Max, (2, 3, 4)), "Max": (sp.Max, (2, 3, 4)),
    "lg": (lambda a: sp.log(a, 2), (1,)), "log2": (lambda a: sp.log(a, 2), (1,)),
}
_CONSTS = {"pi": sp.pi, "E": sp.E}


@dataclass(frozen=True)
class _Vec:
    """The vector a*x + b*y (a, b sympy numbers)."""
    a: sp.Expr
    b: sp.Expr


def _err(node_or_col, msg: str, shift: int = 0):
    col = node_or_col if isinstance(node_or_col, int) else getattr(node_or_col, "col_offset", 0) + 1
    raise InputError(f"{msg} (at position {col + shift})")


def _parse_tree(text: str, shift: int = 0) -> ast.AST:
    if not isinstance(text, str):
        raise InputError(f"expression must be a string, got {type(text).__name__}")
    if "\n" in text or "\r" in text:
        raise InputError("expression must be on one line")
    if len(text) > MAX_LEN:
        raise InputError(f"expression is too long ({len(text)} characters, at most {MAX_LEN})")
    if not text.strip():
        raise InputError("expression is empty")
    lead = len(text) - len(text.lstrip())
    shift += lead
    text = text.strip()
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        col = e.offset or (len(text) + 1)
        msg = e.msg if col <= len(text) else "unexpected end of the expression"
        raise InputError(f"syntax error: {msg} (at position {col + shift})") from None
    return tree.body, shift


def _number(node: ast.Constant, shift: int):
    v = node.value
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        _err(node, f"unsupported constant {v!r}", shift)
    if isinstance(v, int):
        return sp.Integer(v)
    # a float literal: read its decimal text exactly ("0.2" is 1/5)
    r = repr(v)
    if r in ("inf", "nan"):
        _err(node, "infinite constant", shift)
    return sp.Rational(r)


class _Walker:
    def __init__(self, *, kernel: bool, symbols: dict[str, sp.Symbol], shift: int):
        self.kernel = kernel
        self.symbols = symbols
        self.shift = shift
        self.funcs = dict(_FUNCS)
        if not kernel:
            self.funcs.update(_BOUND_ONLY_FUNCS)

    def err(self, node, msg):
        _err(node, msg, self.shift)

    def scalar(self, node):
        v = self.walk(node)
        if isinstance(v, _Vec):
            self.err(node, "a vector is used where a number is expected: use dot(x, y) or norm(x)")
        return v

    def walk(self, node):  # noqa: C901 - a flat dispatcher is clearest here
        if isinstance(node, ast.Constant):
            return _number(node, self.shift)
        if isinstance(node, ast.Name):
            if self.kernel and node.id == "x":
                return _Vec(sp.Integer(1), sp.Integer(0))
            if self.kernel and node.id == "y":
                return _Vec(sp.Integer(0), sp.Integer(1))
            if node.id in self.symbols:
                return self.symbols[node.id]
            if node.id in _CONSTS:
                return _CONSTS[node.id]
            if node.id in self.funcs or node.id in ("dot", "norm"):
                self.err(node, f"{node.id} is a function: call it, e.g. {node.id}(...)")
            allowed = ["x", "y"] if self.kernel else sorted(self.symbols)
            self.err(node, f"unknown name {node.id!r} (allowed: {', '.join(allowed + ['pi', 'E'])})")
        if isinstance(node, ast.UnaryOp):
            v = self.walk(node.operand)
            if isinstance(node.op, ast.USub):
                return _Vec(-v.a, -v.b) if isinstance(v, _Vec) else -v
            if isinstance(node.op, ast.UAdd):
                return v
            self.err(node, f"unsupported operator {type(node.op).__name__}")
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        what = {ast.Compare: "a comparison (write only the bound, optionally starting with '<')",
                ast.Attribute: "attribute access", ast.Subscript: "indexing",
                ast.Lambda: "lambda", ast.BoolOp: "and/or"}.get(type(node), type(node).__name__)
        self.err(node, f"unsupported syntax: {what}")

    def binop(self, node):
        op = node.op
        left, right = self.walk(node.left), self.walk(node.right)
        lv, rv = isinstance(left, _Vec), isinstance(right, _Vec)
        if isinstance(op, (ast.Add, ast.Sub)):
            sgn = 1 if isinstance(op, ast.Add) else -1
            if lv and rv:
                return _Vec(left.a + sgn * right.a, left.b + sgn * right.b)
            if lv or rv:
                self.err(node, "cannot add a vector and a number")
            return left + right if sgn == 1 else left - right
        if isinstance(op, ast.Mult):
            if lv and rv:
                self.err(node, "vector * vector is ambiguous: use dot(x, y)")
            if lv or rv:
                vec, c = (left, right) if lv else (right, left)
                if c.free_symbols:
                    self.err(node, "a vector may only be scaled by a constant number")
                return _Vec(c * vec.a, c * vec.b)
            return left * right
        if isinstance(op, ast.Div):
            if rv:
                self.err(node, "cannot divide by a vector")
            if lv:
                if right.free_symbols or right == 0:
                    self.err(node, "a vector may only be divided by a nonzero constant")
                return _Vec(left.a / right, left.b / right)
            if right == 0:
                self.err(node, "division by zero")
            return left / right
        if isinstance(op, (ast.Pow, ast.BitXor)):
            if lv or rv:
                self.err(node, "cannot raise a vector to a power: use dot() or norm()")
            if right.is_Integer and abs(int(right)) > MAX_EXPONENT:
                if left.free_symbols or abs(int(right)) > 10000:
                    self.err(node, f"exponent {right} is too large (at most {MAX_EXPONENT})")
            if left == 0 and right.is_number and right.is_negative:
                self.err(node, "division by zero")
            return left ** right
        self.err(node, f"unsupported operator {type(op).__name__}")

    def call(self, node):
        if not isinstance(node.func, ast.Name):
            self.err(node, "only plain function calls are allowed")
        name = node.func.id
        if node.keywords:
            self.err(node, f"{name}() takes no keyword arguments")
        if name not in self.funcs and not (self.kernel and name in ("dot", "norm")):
            known = sorted(self.funcs) + (["dot", "norm"] if self.kernel else [])
            self.err(node, f"unknown function {name!r} (allowed: {', '.join(known)})")
        args = [self.walk(a) for a in node.args]
        if self.kernel and name == "dot":
            if len(args) != 2 or not all(isinstance(a, _Vec) for a in args):
                self.err(node, "dot() takes two vectors, e.g. dot(x, y) or dot(x - y, x - y)")
            u, v = args
            return sp.expand(u.a * v.a * XX + (u.a * v.b + u.b * v.a) * XY + u.b * v.b * YY)
        if self.kernel and name == "norm":
            if len(args) != 1 or not isinstance(args[0], _Vec):
                self.err(node, "norm() takes one vector, e.g. norm(x) or norm(x - y)")
            u = args[0]
            return sp.sqrt(sp.expand(u.a ** 2 * XX + 2 * u.a * u.b * XY + u.b ** 2 * YY))
        if name not in self.funcs:
            known = sorted(self.funcs) + (["dot", "norm"] if self.kernel else [])
            self.err(node, f"unknown function {name!r} (allowed: {', '.join(known)})")
        fn, arities = self.funcs[name]
        if len(args) not in arities:
            self.err(node, f"{name}() takes {' or '.join(map(str, arities))} argument(s), got {len(args)}")
        for a, an in zip(args, node.args):
            if isinstance(a, _Vec):
                self.err(an, f"{name}() of a vector: use dot() or norm()")
        return fn(*args)


def parse_kernel(text: str) -> sp.Expr:
    """Parse ``K(x, y)`` into a sympy expression in :data:`XX`, :data:`XY`, :data:`YY`."""
    node, shift = _parse_tree(text)
    w = _Walker(kernel=True, symbols={}, shift=shift)
    v = w.walk(node)
    if isinstance(v, _Vec):
        _err(node.col_offset + 1 + shift, "the kernel is a vector, not a number: use dot(x, y) or norm(x)")
    v = sp.sympify(v)
    if v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise InputError("the kernel is undefined everywhere (division by zero or infinity)")
    return v


@dataclass(frozen=True)
class ParsedBound:
    expr: sp.Expr
    strict: bool
    text: str


def parse_bound(text: str, symbols: dict[str, sp.Symbol]) -> ParsedBound:
    """Parse a claimed bound ``EXPR`` / ``< EXPR`` / ``<= EXPR`` / ``M < EXPR`` / ``M <= EXPR``."""
    if not isinstance(text, str):
        raise InputError(f"expression must be a string, got {type(text).__name__}")
    s = text
    i = len(s) - len(s.lstrip())
    strict = False
    rest = s[i:]
    if rest.startswith("M") and "M" not in symbols and rest[1:].lstrip()[:1] in ("<", "="):
        j = len(s) - len(rest[1:].lstrip())
        i, rest = j, s[j:]
    if rest.startswith("<="):
        i += 2
    elif rest.startswith("<"):
        strict = True
        i += 1
    elif rest.startswith("=<") or rest.startswith(">") or rest.startswith("=="):
        raise InputError(f"a claim is written EXPR, '<= EXPR' or '< EXPR' (at position {i + 1})")
    body = s[i:]
    node, shift = _parse_tree(body, shift=i)
    w = _Walker(kernel=False, symbols=symbols, shift=shift)
    v = sp.sympify(w.scalar(node))
    if v.has(sp.zoo, sp.nan):
        raise InputError("the bound is undefined (division by zero)")
    return ParsedBound(v, strict, text)


# --------------------------------------------------------------------------------------------
# Rigorous signs of closed-form real constants
# --------------------------------------------------------------------------------------------
class NotCertifiable(Exception):
    """The interval evaluator cannot enclose this expression (unsupported function or domain)."""


def interval(expr, prec: int = 120):
    """A rigorous enclosure of the real constant ``expr`` as an ``mpmath.iv`` interval.

    Interval arithmetic with outward rounding (mpmath's ``iv`` context): every operation returns
    an interval that contains the exact result, so the composition does too.  ``tanh``, ``sinh``
    and ``cosh`` are computed from ``exp`` (still an enclosure, just wider).  Raises
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
