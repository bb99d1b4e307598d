"""Safe parsing of user expressions into sympy: claimed mistake bounds here, kernels ``K(x, y)`` in
:mod:`refutation.kernel_parse` (on the same core).

Nothing is ever ``eval``-ed: the text is parsed with :mod:`ast` and the tree is walked with a
whitelist of node types, names and functions.  Anything else is an :class:`InputError` whose
one-line message names the 1-based column where the problem is.

Bounds are parsed into a sympy expression over the quantity symbols of the setting (``R``,
``W``, ``gamma``, ... declared positive or nonnegative by the caller), with an optional leading
``<`` (strict claim) or ``<=`` / ``M <`` / ``M <=``.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

import sympy as sp

from learners.errors import InputError

__all__ = ["parse_bound", "ParsedBound", "MAX_EXPONENT", "Walker", "parse_tree"]

MAX_EXPONENT = 64      # |integer exponent| allowed on non-constant bases (keeps expand() small)
MAX_LEN = 2000

# function name -> (sympy callable, allowed argument counts)
FUNCS = {
    "exp": (sp.exp, (1,)), "log": (sp.log, (1, 2)), "ln": (sp.log, (1,)), "sqrt": (sp.sqrt, (1,)),
    "sin": (sp.sin, (1,)), "cos": (sp.cos, (1,)), "tan": (sp.tan, (1,)),
    "tanh": (sp.tanh, (1,)), "sinh": (sp.sinh, (1,)), "cosh": (sp.cosh, (1,)),
    "atan": (sp.atan, (1,)), "abs": (sp.Abs, (1,)), "Abs": (sp.Abs, (1,)),
    "min": (sp.Min, (2, 3, 4)), "Min": (sp.Min, (2, 3, 4)),
    "max": (sp.Max, (2, 3, 4)), "Max": (sp.Max, (2, 3, 4)),
}
_BOUND_ONLY_FUNCS = {
    "floor": (sp.floor, (1,)), "ceiling": (sp.ceiling, (1,)), "ceil": (sp.ceiling, (1,)),
    "lg": (lambda a: sp.log(a, 2), (1,)), "log2": (lambda a: sp.log(a, 2), (1,)),
}
CONSTS = {"pi": sp.pi, "E": sp.E}


def err(node_or_col, msg: str, shift: int = 0):
    col = node_or_col if isinstance(node_or_col, int) else getattr(node_or_col, "col_offset", 0) + 1
    raise InputError(f"{msg} (at position {col + shift})")


def parse_tree(text: str, shift: int = 0) -> ast.AST:
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
        err(node, f"unsupported constant {v!r}", shift)
    if isinstance(v, int):
        return sp.Integer(v)
    # a float literal: read its decimal text exactly ("0.2" is 1/5)
    r = repr(v)
    if r in ("inf", "nan"):
        err(node, "infinite constant", shift)
    return sp.Rational(r)


class Walker:
    """The arithmetic core: numbers, the setting's names, + - * / ** and whitelisted functions.
    :class:`refutation.kernel_parse.KernelWalker` adds vectors, conditions and piecewise terms."""
    kernel = False

    def __init__(self, *, symbols: dict[str, sp.Symbol], shift: int):
        self.symbols = symbols
        self.shift = shift
        self.funcs = dict(FUNCS)
        self.funcs.update(_BOUND_ONLY_FUNCS)

    def err(self, node, msg):
        err(node, msg, self.shift)

    def scalar(self, node):
        return self.walk(node)

    def walk(self, node):
        if isinstance(node, ast.Constant):
            return _number(node, self.shift)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        return self.other(node)

    def other(self, node):
        what = {ast.Compare: "a comparison (write only the bound, optionally starting with '<')",
                ast.Attribute: "attribute access", ast.Subscript: "indexing",
                ast.Lambda: "lambda", ast.BoolOp: "and/or"}.get(type(node), type(node).__name__)
        self.err(node, f"unsupported syntax: {what}")

    def allowed_names(self) -> list:
        return sorted(self.symbols)

    def name(self, node):
        if node.id in self.symbols:
            return self.symbols[node.id]
        if node.id in CONSTS:
            return CONSTS[node.id]
        if node.id in self.funcs:
            self.err(node, f"{node.id} is a function: call it, e.g. {node.id}(...)")
        self.err(node, f"unknown name {node.id!r} (allowed: {', '.join(self.allowed_names() + ['pi', 'E'])})")

    def unary(self, node):
        v = self.walk(node.operand)
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return v
        self.err(node, f"unsupported operator {type(node.op).__name__}")

    def binop(self, node):
        return self.arith(node, self.scalar(node.left), self.scalar(node.right))

    def arith(self, node, left, right):
        """left OP right on numbers."""
        op = node.op
        if isinstance(op, (ast.Add, ast.Sub)):
            return left + right if isinstance(op, ast.Add) else left - right
        if isinstance(op, ast.Mult):
            return left * right
        if isinstance(op, ast.Div):
            if right == 0:
                self.err(node, "division by zero")
            return left / right
        if isinstance(op, (ast.Pow, ast.BitXor)):
            if right.is_Integer and abs(int(right)) > MAX_EXPONENT:
                if left.free_symbols or abs(int(right)) > 10000:
                    self.err(node, f"exponent {right} is too large (at most {MAX_EXPONENT})")
            if left == 0 and right.is_number and right.is_negative:
                self.err(node, "division by zero")
            return left ** right
        self.err(node, f"unsupported operator {type(op).__name__}")

    def known_functions(self) -> list:
        return sorted(self.funcs)

    def call(self, node):
        if not isinstance(node.func, ast.Name):
            self.err(node, "only plain function calls are allowed")
        name = node.func.id
        if node.keywords:
            self.err(node, f"{name}() takes no keyword arguments")
        if name not in self.funcs:
            self.err(node, f"unknown function {name!r} (allowed: {', '.join(self.known_functions())})")
        fn, arities = self.funcs[name]
        args = [self.argument(name, a) for a in node.args]
        if len(args) not in arities:
            self.err(node, f"{name}() takes {' or '.join(map(str, arities))} argument(s), got {len(args)}")
        return fn(*args)

    def argument(self, fname, node):
        return self.scalar(node)


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
    node, shift = parse_tree(body, shift=i)
    w = Walker(symbols=symbols, shift=shift)
    v = sp.sympify(w.scalar(node))
    if v.has(sp.zoo, sp.nan):
        raise InputError("the bound is undefined (division by zero)")
    return ParsedBound(v, strict, text)
