"""Assumptions of a bound claim (``check-bound --assume "d == 2"``, ``"n == 2**l"``, ``"r >= 1"``):
parsed safely (the expression parser of :mod:`refutation.expr_parse`, nothing evaluated), they
become hypotheses of the z3 proof attempt and constraints on the counterexample search: an
instance refutes the claim only when it satisfies every assumption exactly.

An assumption is one comparison ``A OP B`` (OP one of ``==``, ``>=``, ``<=``, ``>``, ``<``) over the
quantities of the algorithm; any other name in it is a fresh integer >= 0 (``l`` in ``n == 2**l``:
"n is a power of 2"), which further assumptions may constrain (``l >= 2``).  ``Q == 2**v`` with a fresh ``v`` is recognised as such (z3 then knows
lg Q = v exactly); any other power with a variable exponent is refused.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

import sympy as sp

from learners.errors import InputError

from refutation.expr_parse import Walker, parse_tree
from refutation.signs import certified_sign

__all__ = ["Assumption", "Assumptions", "parse_assumptions"]

_OPS = {ast.Eq: "==", ast.GtE: ">=", ast.LtE: "<=", ast.Gt: ">", ast.Lt: "<"}
MAX_ASSUMPTIONS = 16


@dataclass(frozen=True)
class Assumption:
    text: str
    lhs: sp.Expr
    op: str
    rhs: sp.Expr

    def holds(self, values: dict):
        """True / False / None (undecided) at exact quantity values (sympy numbers)."""
        diff = (self.lhs - self.rhs).xreplace(values)
        if diff.free_symbols:
            return None
        s = certified_sign(sp.nsimplify(diff) if diff.is_Float else diff)
        if s is None:
            return None
        return {"==": s == 0, ">=": s >= 0, "<=": s <= 0, ">": s > 0, "<": s < 0}[self.op]


@dataclass
class Assumptions:
    items: list = field(default_factory=list)          # Assumption
    fresh: dict = field(default_factory=dict)          # name -> sympy Symbol (integer >= 0)
    pow2: dict = field(default_factory=dict)           # quantity name -> fresh exponent name (Q == 2**v)

    def __bool__(self):
        return bool(self.items)

    @property
    def texts(self) -> list:
        return [a.text for a in self.items]

    def mentions(self) -> set:
        out = set()
        for a in self.items:
            out |= {s.name for s in (a.lhs - a.rhs).free_symbols}
        return out

    def satisfied(self, values: dict):
        """Do exact quantity values (name -> sympy number) satisfy every assumption?  True, False,
        or None when undecided.  The fresh variables are one assignment for all the assumptions
        together (``n == 2**l`` and ``l >= 2`` speak of the same l): the exponent of ``Q == 2**v``
        is read off Q, any other fresh variable is searched over 0..64."""
        from refutation.bound_quantities import SYMBOLS
        sub = {SYMBOLS[k]: v for k, v in values.items() if k in SYMBOLS}
        names = sorted(self.fresh)
        choices = []
        for name in names:
            qn = next((q for q, v in self.pow2.items() if v == name), None)
            qv = values.get(qn) if qn else None
            if qv is not None and qv.is_Integer and int(qv) >= 1:
                e = int(qv).bit_length() - 1
                choices.append([e] if 2 ** e == int(qv) else [])
            else:
                choices.append(range(65))
        total = 1
        for c in choices:
            total *= len(c)
        if total > 5000:
            return None
        import itertools
        verdict = False
        for combo in itertools.product(*choices):
            env = {**sub, **{self.fresh[n]: sp.Integer(v) for n, v in zip(names, combo)}}
            hs = [a.holds(env) for a in self.items]
            if all(h is True for h in hs):
                return True
            if not any(h is False for h in hs):
                verdict = None
        return verdict


def parse_assumptions(texts, symbols: dict) -> Assumptions:
    """Parse ``--assume`` texts over the quantity ``symbols`` (name -> sympy Symbol)."""
    out = Assumptions()
    texts = list(texts or ())
    if len(texts) > MAX_ASSUMPTIONS:
        raise InputError(f"at most {MAX_ASSUMPTIONS} assumptions, got {len(texts)}")
    for t in texts:
        out.items.append(_one(t, symbols, out))
    # a variable an assumption introduced (l in n == 2**l) may be constrained by another one
    # (l >= 2); an assumption about nothing but new names constrains no run
    linked = set()
    for a in out.items:
        names = {x.name for x in (a.lhs - a.rhs).free_symbols}
        if names - set(out.fresh):
            linked |= names & set(out.fresh)
    for a in out.items:
        names = {x.name for x in (a.lhs - a.rhs).free_symbols}
        if not (names - set(out.fresh)) and not (names and names <= linked):
            raise InputError(f"--assume {a.text!r}: mentions no quantity (allowed: {', '.join(sorted(symbols))}, "
                             f"or a new name another assumption ties to one)")
    return out


class _AssumeWalker(Walker):
    def __init__(self, *, symbols, shift, fresh):
        super().__init__(symbols=symbols, shift=shift)
        self.fresh = fresh

    def name(self, node):
        if node.id in self.symbols or node.id in self.funcs or node.id in ("pi", "E"):
            return super().name(node)
        if not node.id.isidentifier() or len(node.id) > 16:
            self.err(node, f"bad name {node.id!r}")
        if node.id not in self.fresh:
            self.fresh[node.id] = sp.Symbol(node.id, integer=True, nonnegative=True)
        return self.fresh[node.id]

    def arith(self, node, left, right):
        if isinstance(node.op, (ast.Pow, ast.BitXor)) and right.free_symbols:
            if not (left == 2 and right.is_Symbol and right.name in self.fresh):
                self.err(node, "a variable exponent is allowed only as 2**v with v a new name (n == 2**l)")
            return sp.Pow(2, right, evaluate=False)
        return super().arith(node, left, right)


def _one(text: str, symbols: dict, acc: Assumptions) -> Assumption:
    if not isinstance(text, str):
        raise InputError(f"an assumption must be a string, got {type(text).__name__}")
    try:
        node, shift = parse_tree(text)
    except InputError as e:
        raise InputError(f"--assume {text!r}: {e}") from None
    if not isinstance(node, ast.Compare) or len(node.ops) != 1 or type(node.ops[0]) not in _OPS:
        raise InputError(f"--assume {text!r}: write one comparison A OP B with OP one of ==, >=, <=, >, <")
    w = _AssumeWalker(symbols=symbols, shift=shift, fresh=acc.fresh)
    try:
        lhs, rhs = sp.sympify(w.scalar(node.left)), sp.sympify(w.scalar(node.comparators[0]))
    except InputError as e:
        raise InputError(f"--assume {text!r}: {e}") from None
    op = _OPS[type(node.ops[0])]
    for a, b in ((lhs, rhs), (rhs, lhs)):
        if op == "==" and a.is_Symbol and a.name in symbols and isinstance(b, sp.Pow) and b.base == 2 \
                and b.exp.is_Symbol and b.exp.name in acc.fresh:
            acc.pow2[a.name] = b.exp.name
            break
    else:
        if any(isinstance(x, sp.Pow) and x.exp.free_symbols for x in sp.preorder_traversal(lhs - rhs)):
            raise InputError(f"--assume {text!r}: 2**v is understood only as a whole side, Q == 2**v")
    return Assumption(text.strip(), lhs, op, rhs)
