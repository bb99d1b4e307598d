"""Formula objects: the one representation of every fact the catalogue states, checks and shows.

A formula is an immutable tree of :class:`Expr` nodes with *structural* equality (``a == b`` is
"the same formula", never an equation; the equation is :func:`Eq`).  Everything a reader or a
solver sees is generated from these trees by one printer per target (``proofs.printers.render``: text and
LaTeX; ``proofs.printers.smtlib``: the SMT-LIB 2 text that z3 *and* cvc5 read; ``proofs.printers.symbolic``: sympy
for identities over coordinates), so what is shown is what was checked.

Sorts: ``Real``, ``Int``, ``Nat`` (an integer >= 0; the SMT export adds the constraint), ``Bool``
and ``Vec`` (a vector of R^d for an arbitrary fixed d, with ``dot``, ``+``, ``-`` and scaling).
Sequences are function symbols of one natural argument (``w(k)``: the weights before the k-th
mistake).  Interpreted functions (``exp``, ``sqrt``, ``lg``, ``pow2``, ``abs``, ``max``, ``min``)
have their meaning in exact evaluation and in sympy; for the SMT solvers ``abs/max/min`` become
if-then-else and the others uninterpreted symbols, whose properties enter a proof only as named
trusted rules (``proofs.kernel.rules``).  Finite sums ``Sum(i, lo, hi, body)`` are likewise opaque to the
solvers (an uninterpreted function of their free variables); identities about them are checked
by sympy in coordinates (``proofs.printers.symbolic``).

The interpreted functions and the feature-space constructions are built in ``proofs.language.functions``;
traversal and substitution are in ``proofs.language.substitution``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "Expr", "REAL", "INT", "NAT", "BOOL", "VEC", "Real", "Int", "Nat", "Bool", "Vec", "Seq", "Fun", "num",
    "Eq", "Ne", "And", "Or", "Not", "Implies", "Iff", "Ite", "ForAll", "Sum", "TRUE", "FALSE",
    "dot", "norm2", "vzero", "to_real", "FormulaError", "forall_below", "sort_of", "is_nat",
]

REAL, INT, NAT, BOOL, VEC = "Real", "Int", "Nat", "Bool", "Vec"
NUMERIC = (REAL, INT, NAT)
REL_OPS = ("le", "lt", "ge", "gt", "eq", "ne")
BOOL_OPS = REL_OPS + ("and", "or", "not", "implies", "iff", "true", "false", "forall")
INTERPRETED = {"exp": (REAL, REAL), "sqrt": (REAL, REAL), "lg": (REAL, REAL), "pow2": (INT, REAL)}
# Every operation a formula node can be: the one table the sort computation, the printers and the
# evaluators answer to (each printer has one method per operation, ``op_<name>``: proofs.printers.printer;
# tests/proofs/test_printers_operators.py checks every printer class has them all, and runs every printer).
OPERATORS = ("var", "num", "call", "true", "false", "and", "or", "not", "implies", "iff") + REL_OPS + (
    "forall", "add", "mul", "sub", "div", "neg", "abs", "max", "min", "pow", "npow", "to_real") + tuple(
    INTERPRETED) + ("ite", "sum", "vsum", "dot", "smul", "vadd", "vsub", "vcat", "tensor", "vzero", "vec1", "tpow")


class FormulaError(ValueError):
    """A formula that is not well formed (wrong sorts, capture in a substitution, ...)."""


# A symbol's name is its identity for the kernel and for every printer (SMT-LIB, sympy, Coq, the
# evaluator): an ASCII identifier, so that it is printed as it is everywhere, never a word that a
# solver or Coq reads as its own (SMT-LIB's reserved words and the theory symbols z3 or cvc5
# predefine under the logic ALL).  Display forms (``tex``, ``text``) are not part of the identity.
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
RESERVED = frozenset("""
    abs and arccos arccot arccsc arcsec arcsin arctan as assert bvadd check concat cos cot csc distinct
    div exists exit exp false forall fp is_int ite let match mod not or par pi pop push real reset sec
    select sin sqrt store tan to_int to_real true tuple xor iand int2bv bv2nat nat2bv
    Int Real Bool Array RNE RNA RTP RTN RTZ NaN
    """.split())
_DISPLAY_BAD = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]")


def valid_name(name) -> bool:
    """Is ``name`` a symbol name the suite prints unchanged into SMT-LIB, sympy and Coq?"""
    return isinstance(name, str) and NAME_RE.match(name) is not None and name not in RESERVED


def _check_display(name: str, shown) -> None:
    if not isinstance(shown, str) or _DISPLAY_BAD.search(shown):
        raise FormulaError(f"the display form {shown!r} of {name} has a control character (one line only)")


def _is_int(sort: str) -> bool:
    return sort in (INT, NAT)


@dataclass(frozen=True, eq=False)
class Expr:
    """One node.  ``op`` names it; ``args`` are child nodes; ``name``/``value`` for leaves;
    ``sort`` is the sort of the value; ``tex``/``text`` say how a variable is displayed."""
    op: str
    args: tuple = ()
    name: str = ""
    sort: str = REAL
    value: Fraction | None = None
    tex: str = ""
    text: str = ""

    def __post_init__(self):
        # every node, however it is made: a symbol's name is an identifier (it is printed as it is
        # into SMT-LIB and Coq), a display form is one line
        if self.op in ("var", "call") and (not isinstance(self.name, str) or NAME_RE.match(self.name) is None):
            raise FormulaError(f"symbol name {self.name!r} is not an ASCII identifier")
        if self.tex:
            _check_display(self.name, self.tex)
        if self.text:
            _check_display(self.name, self.text)
        if not isinstance(self.args, tuple) or not all([isinstance(a, Expr) for a in self.args]):
            raise FormulaError(f"the arguments of a {self.op} node must be a tuple of formulas")
        # a node's sort is computed from its structure (the children's sorts; for a symbol, its
        # declaration; for a constant, its value), never taken from the caller: a term rebuilt or
        # made by hand cannot claim to be a natural number when it is not
        object.__setattr__(self, "sort", _computed_sort(self))

    # ----------------------------------------------------------------- arithmetic (builds trees)
    def __add__(self, o):
        return _arith("add", self, o)

    def __radd__(self, o):
        return _arith("add", o, self)

    def __sub__(self, o):
        return _arith("sub", self, o)

    def __rsub__(self, o):
        return _arith("sub", o, self)

    def __mul__(self, o):
        return _arith("mul", self, o)

    def __rmul__(self, o):
        return _arith("mul", o, self)

    def __truediv__(self, o):
        return _arith("div", self, o)

    def __rtruediv__(self, o):
        return _arith("div", o, self)

    def __neg__(self):
        if self.sort == VEC:
            return Expr("smul", (num(-1), self), sort=VEC)
        _need_num(self, "negation")
        return Expr("neg", (self,), sort=self.sort if self.sort != NAT else INT)

    def __pow__(self, k):
        if not isinstance(k, int) or k < 0:
            raise FormulaError(f"only natural-number powers are supported, not {k!r}")
        _need_num(self, "power")
        return Expr("pow", (self, num(k)), sort=self.sort)

    # ----------------------------------------------------------------- relations
    def __le__(self, o):
        return _rel("le", self, o)

    def __lt__(self, o):
        return _rel("lt", self, o)

    def __ge__(self, o):
        return _rel("ge", self, o)

    def __gt__(self, o):
        return _rel("gt", self, o)

    # ----------------------------------------------------------------- connectives
    def __and__(self, o):
        return And(self, o)

    def __or__(self, o):
        return Or(self, o)

    def __invert__(self):
        return Not(self)

    def __call__(self, *args):
        raise FormulaError(f"{self.name or self.op} is not a sequence (use Seq(...) for w(k))")

    def __bool__(self):
        # a formula is not a Python truth value: `if a <= b` would silently be wrong
        raise FormulaError("a formula has no Python truth value; compare with == for structural equality")

    def __eq__(self, o) -> bool:           # structural equality: "the same formula"
        # a symbol is identified by its name and sort, as every printer identifies it; how it is
        # displayed (tex, text) is not part of what it is (a proof that displays one name two ways
        # is refused by the kernel's symbol table)
        if self is o:
            return True
        if not isinstance(o, Expr) or self.__hash__() != o.__hash__():
            return False
        return (self.op, self.name, self.sort, self.value, self.args) == (o.op, o.name, o.sort, o.value, o.args)

    def __ne__(self, o) -> bool:
        return not self.__eq__(o)

    def __hash__(self) -> int:
        try:                                # kept on the node (formulas are immutable)
            return self._h
        except AttributeError:
            h = hash((self.op, self.args, self.name, self.sort, self.value))
            object.__setattr__(self, "_h", h)
            return h


    def __repr__(self) -> str:
        # an s-expression (the readable forms are proofs.printers.render.text and latex)
        if self.op == "var":
            return self.name
        if self.op == "num":
            return str(self.value)
        head = self.name if self.op == "call" else self.op
        return "(" + " ".join([head] + [repr(a) for a in self.args]) + ")"


# --------------------------------------------------------------------------- sorts
SORTS = (REAL, INT, NAT, BOOL, VEC)
_VEC_OPS = {"vadd": (VEC, VEC), "vsub": (VEC, VEC), "vcat": (VEC, VEC), "tensor": (VEC, VEC)}


def _ill(e, why: str):
    raise FormulaError(f"ill-formed {e.op} node: {why}")


def _int_or_nat(s: str) -> bool:
    return s in (INT, NAT)


def _computed_sort(e) -> str:  # noqa: C901 - one case per node
    """The sort of node ``e`` from its structure alone: a symbol (``var``, ``call``) has its
    declared sort, a constant the sort of its value, every other node the sort its children
    give it; a node whose children have the wrong sorts is refused (:class:`FormulaError`)."""
    op, a = e.op, e.args
    if op not in OPERATORS:
        _ill(e, "no such operation")
    sorts = [x.sort for x in a]
    if op == "var":
        if e.sort not in SORTS or a:
            _ill(e, f"a variable has one of the sorts {', '.join(SORTS)} and no arguments")
        return e.sort
    if op == "call":
        if e.sort not in SORTS or not a:
            _ill(e, "a function call has a declared sort and arguments")
        return e.sort
    if op == "num":
        v = e.value
        if not isinstance(v, Fraction) or isinstance(v, bool) or a:
            _ill(e, f"a constant is an exact rational, not {v!r}")
        if e.sort == REAL:
            return REAL
        if v.denominator != 1:
            if e.sort in (INT, NAT):
                _ill(e, f"{v} is not an integer")
            return REAL
        return NAT if v >= 0 else INT
    if op in ("true", "false"):
        if a:
            _ill(e, "a constant has no arguments")
        return BOOL
    if op in ("and", "or", "not", "implies", "iff"):
        n = {"not": 1, "implies": 2, "iff": 2}.get(op)
        if (n is not None and len(a) != n) or (n is None and len(a) < 2) or any(s != BOOL for s in sorts):
            _ill(e, "its arguments must be formulas")
        return BOOL
    if op in REL_OPS:
        if len(a) != 2:
            _ill(e, "a relation has two sides")
        x, y = sorts
        if x in NUMERIC and y in NUMERIC:
            if (x == REAL) != (y == REAL):
                _ill(e, f"it compares a {x} with a {y} (cast the integer with to_real)")
            return BOOL
        if op in ("eq", "ne") and x == y:
            return BOOL
        _ill(e, f"it compares a {x} with a {y}")
    if op == "forall":
        if len(a) < 2 or any(v.op != "var" for v in a[:-1]) or sorts[-1] != BOOL:
            _ill(e, "a 'for all' binds variables in a formula")
        return BOOL
    if op in ("add", "mul", "sub", "div", "neg", "abs", "max", "min"):
        n = {"sub": 2, "div": 2, "neg": 1, "abs": 1, "max": 2, "min": 2}.get(op)
        if (n is not None and len(a) != n) or (n is None and len(a) < 2) or any(s not in NUMERIC for s in sorts):
            _ill(e, f"its arguments must be numbers, got {', '.join(sorts) or 'none'}")
        if REAL in sorts:
            if any(s != REAL for s in sorts):
                _ill(e, f"it mixes a real and an integer ({', '.join(sorts)}; cast the integer with to_real)")
            return REAL
        if op == "div":
            _ill(e, "a division is of reals")
        return NAT if op in ("add", "mul") and all(s == NAT for s in sorts) else INT
    if op == "pow":
        if len(a) != 2 or sorts[0] not in NUMERIC:
            _ill(e, "a power is a number raised to a constant")
        k = a[1]
        if k.op != "num" or k.value.denominator != 1 or k.value < 0 or k.sort != NAT:
            _ill(e, f"the exponent must be a natural-number constant, not {k!r} (npow takes an integer term)")
        return sorts[0]
    if op == "npow":
        if len(a) != 2 or sorts[0] != REAL or not _int_or_nat(sorts[1]):
            _ill(e, "npow(b, k) takes a real b and an integer k")
        return REAL
    if op == "to_real":
        if len(a) != 1 or not _int_or_nat(sorts[0]):
            _ill(e, "to_real casts an integer")
        return REAL
    if op in INTERPRETED:
        arg, res = INTERPRETED[op]
        if len(a) != 1 or not (sorts[0] == arg or (arg == INT and sorts[0] == NAT)):
            _ill(e, f"{op} takes one {arg}")
        return res
    if op == "ite":
        if len(a) != 3 or sorts[0] != BOOL or sorts[1] != sorts[2]:
            _ill(e, "an if-then-else has a condition and two branches of one sort")
        return sorts[1]
    if op in ("sum", "vsum"):
        if len(a) != 4 or a[0].op != "var" or not _int_or_nat(sorts[0]):
            _ill(e, "a sum runs over an integer variable")
        if not (_int_or_nat(sorts[1]) and _int_or_nat(sorts[2])):
            _ill(e, f"the bounds of a sum must be integers, got a {sorts[1]} and a {sorts[2]}")
        if op == "vsum":
            if sorts[3] != VEC:
                _ill(e, "a vector sum adds vectors")
            return VEC
        if sorts[3] not in NUMERIC:
            _ill(e, "a sum adds numbers")
        return REAL if sorts[3] == REAL else INT
    if op == "dot":
        if sorts != [VEC, VEC]:
            _ill(e, "dot needs two vectors")
        return REAL
    if op == "smul":
        if sorts != [REAL, VEC]:
            _ill(e, "a scaled vector is a real times a vector")
        return VEC
    if op in _VEC_OPS:
        if tuple(sorts) != _VEC_OPS[op]:
            _ill(e, "it needs two vectors")
        return VEC
    if op == "vzero":
        if a:
            _ill(e, "the zero vector has no arguments")
        return VEC
    if op == "vec1":
        if sorts != [REAL]:
            _ill(e, "vec1 takes a real")
        return VEC
    if op == "tpow":
        if len(a) != 2 or sorts[0] != VEC or not _int_or_nat(sorts[1]):
            _ill(e, "a tensor power takes a vector and an integer")
        return VEC
    _ill(e, "no such operation")


def sort_of(e: Expr) -> str:
    """The sort of ``e`` computed again from the whole tree (its symbols' declared sorts and its
    structure), not read from the nodes: what the kernel relies on when it decides whether a
    term is a natural number."""
    if not isinstance(e, Expr):
        raise FormulaError(f"not a formula: {type(e).__name__}")
    if e.op in ("var", "call", "num", "true", "false", "vzero"):
        for x in e.args:
            sort_of(x)
        return _computed_sort(e)
    kids = [sort_of(x) for x in e.args]
    if any(k != x.sort for k, x in zip(kids, e.args)):
        raise FormulaError(f"a {e.op} node records sorts its structure does not give")
    s = _computed_sort(e)
    if s != e.sort:
        raise FormulaError(f"a {e.op} node records the sort {e.sort}, its structure gives {s}")
    return s


def is_nat(e: Expr) -> bool:
    """Is ``e`` a natural number by its structure (a sum or product of naturals, a natural
    constant, a symbol declared natural)?"""
    return sort_of(e) == NAT


# --------------------------------------------------------------------------- leaves
def num(v) -> Expr:
    """A rational constant (``int``, ``Fraction`` or a string such as ``"1/2"``)."""
    if isinstance(v, Expr):
        return v
    if isinstance(v, bool):
        raise FormulaError("a Python bool is not a number")
    if isinstance(v, float):
        raise FormulaError(f"floating-point constant {v!r}: use an int, a Fraction or a 'p/q' string")
    f = Fraction(v)
    return Expr("num", value=f, sort=(NAT if f >= 0 else INT) if f.denominator == 1 else REAL)


def _var(name: str, sort: str, tex: str = "", text: str = "") -> Expr:
    if not valid_name(name) or name.startswith("mb_"):
        raise FormulaError(f"name {name!r} must be an ASCII identifier (a letter, then letters, digits, '_'), "
                           f"not starting with 'mb_' and not a word the solvers reserve")
    return Expr("var", name=name, sort=sort, tex=tex or name, text=text or name)


def Real(name, tex="", text=""):
    return _var(name, REAL, tex, text)


def Int(name, tex="", text=""):
    return _var(name, INT, tex, text)


def Nat(name, tex="", text=""):
    return _var(name, NAT, tex, text)


def Bool(name, tex="", text=""):
    return _var(name, BOOL, tex, text)


def Vec(name, tex="", text=""):
    return _var(name, VEC, tex, text)


class Fun:
    """An uninterpreted function symbol, ``f(x)``: its calls are ``call`` nodes whose ``name`` is
    the symbol and whose ``sort`` is the value's sort.  Arguments are coerced to the declared sorts."""

    def __init__(self, name: str, arg_sorts, sort: str, tex: str = "", text: str = ""):
        _var(name, sort)                       # validates the name
        self.name, self.arg_sorts, self.sort = name, tuple(arg_sorts), sort
        self.tex, self.text = tex or name, text or name
        _check_display(name, self.tex)
        _check_display(name, self.text)

    def __call__(self, *args) -> Expr:
        if len(args) != len(self.arg_sorts):
            raise FormulaError(f"{self.name} takes {len(self.arg_sorts)} argument(s)")
        out = []
        for a, s in zip(args, self.arg_sorts):
            a = num(a) if not isinstance(a, Expr) else a
            if s == REAL:
                _need_num(a, f"argument of {self.name}")
                a = to_real(a)
            elif _is_int(s):
                if not _is_int(a.sort):
                    raise FormulaError(f"the argument of {self.name}(...) must be an integer, got a {a.sort}")
            elif a.sort != s:
                raise FormulaError(f"the argument of {self.name}(...) must be a {s}, got a {a.sort}")
            out.append(a)
        return Expr("call", tuple(out), name=self.name, sort=self.sort, tex=self.tex, text=self.text)

    def __repr__(self):
        return f"Fun({self.name}: {' x '.join(self.arg_sorts)} -> {self.sort})"


def Seq(name: str, sort: str, tex: str = "", text: str = "") -> Fun:
    """A sequence: a function symbol of one natural argument, ``w(k)``."""
    return Fun(name, (INT,), sort, tex, text)


TRUE = Expr("true", sort=BOOL)
FALSE = Expr("false", sort=BOOL)


def vzero() -> Expr:
    return Expr("vzero", sort=VEC)


# --------------------------------------------------------------------------- builders
def _need_num(e: Expr, what: str):
    if e.sort not in NUMERIC:
        raise FormulaError(f"{what} needs a number, got a {e.sort}")


def to_real(e) -> Expr:
    e = num(e)
    if e.sort == REAL:
        return e
    _need_num(e, "to_real")
    if e.op == "num":
        return Expr("num", value=e.value, sort=REAL)
    return Expr("to_real", (e,), sort=REAL)


def _arith(op: str, a, b) -> Expr:
    a, b = num(a), num(b)
    if VEC in (a.sort, b.sort):
        return _vec_arith(op, a, b)
    _need_num(a, op)
    _need_num(b, op)
    if op == "div" or REAL in (a.sort, b.sort):
        a, b = to_real(a), to_real(b)
        sort = REAL
    else:       # naturals are closed under + and *; anything else is an integer
        sort = NAT if (op in ("add", "mul") and a.sort == b.sort == NAT) else INT
    if op in ("add", "mul"):             # flatten n-ary sums and products
        args = (a.args if a.op == op else (a,)) + (b.args if b.op == op else (b,))
        return Expr(op, args, sort=sort)
    return Expr(op, (a, b), sort=sort)


def _vec_arith(op: str, a: Expr, b: Expr) -> Expr:
    if op == "add" and a.sort == b.sort == VEC:
        return Expr("vadd", (a, b), sort=VEC)
    if op == "sub" and a.sort == b.sort == VEC:
        return Expr("vsub", (a, b), sort=VEC)
    if op == "mul" and a.sort != VEC and b.sort == VEC:
        return Expr("smul", (to_real(a), b), sort=VEC)
    if op == "mul" and a.sort == VEC and b.sort != VEC:
        return Expr("smul", (to_real(b), a), sort=VEC)
    raise FormulaError(f"cannot {op} a {a.sort} and a {b.sort} (inner products are dot(a, b))")


def _rel(op: str, a, b) -> Expr:
    a, b = num(a), num(b)
    if op in ("eq", "ne") and (a.sort == b.sort or (a.sort in NUMERIC and b.sort in NUMERIC)):
        if a.sort in NUMERIC and REAL in (a.sort, b.sort):
            a, b = to_real(a), to_real(b)
        return Expr(op, (a, b), sort=BOOL)
    _need_num(a, op)
    _need_num(b, op)
    if REAL in (a.sort, b.sort):
        a, b = to_real(a), to_real(b)
    return Expr(op, (a, b), sort=BOOL)


def Eq(a, b) -> Expr:
    return _rel("eq", a, b)


def Ne(a, b) -> Expr:
    return _rel("ne", a, b)


def _need_bool(e: Expr, what: str):
    if e.sort != BOOL:
        raise FormulaError(f"{what} needs formulas, got a {e.sort}")


def And(*fs) -> Expr:
    fs = [f for f in _flat(fs)]
    for f in fs:
        _need_bool(f, "And")
    if not fs:
        return TRUE
    if len(fs) == 1:
        return fs[0]
    args = []
    for f in fs:
        args.extend(f.args if f.op == "and" else (f,))
    return Expr("and", tuple(args), sort=BOOL)


def Or(*fs) -> Expr:
    fs = [f for f in _flat(fs)]
    for f in fs:
        _need_bool(f, "Or")
    if not fs:
        return FALSE
    if len(fs) == 1:
        return fs[0]
    args = []
    for f in fs:
        args.extend(f.args if f.op == "or" else (f,))
    return Expr("or", tuple(args), sort=BOOL)


def _flat(fs):
    for f in fs:
        if isinstance(f, (list, tuple)):
            yield from _flat(f)
        else:
            yield f


def Not(f) -> Expr:
    _need_bool(f, "Not")
    return Expr("not", (f,), sort=BOOL)


def Implies(a, b) -> Expr:
    _need_bool(a, "Implies")
    _need_bool(b, "Implies")
    return Expr("implies", (a, b), sort=BOOL)


def Iff(a, b) -> Expr:
    _need_bool(a, "Iff")
    _need_bool(b, "Iff")
    return Expr("iff", (a, b), sort=BOOL)


def Ite(c, a, b) -> Expr:
    _need_bool(c, "Ite")
    a, b = num(a), num(b)
    if a.sort != b.sort:
        if a.sort in NUMERIC and b.sort in NUMERIC:
            a, b = to_real(a), to_real(b)
        else:
            raise FormulaError(f"Ite branches of sorts {a.sort} and {b.sort}")
    return Expr("ite", (c, a, b), sort=a.sort)


def ForAll(vs, body) -> Expr:
    vs = (vs,) if isinstance(vs, Expr) else tuple(vs)
    for v in vs:
        if v.op != "var":
            raise FormulaError("ForAll binds variables")
    _need_bool(body, "ForAll")
    return Expr("forall", vs + (body,), sort=BOOL)


def forall_below(k: Expr, hi, body, lo=0) -> Expr:
    """``for every k with lo <= k < hi: body`` (the form of every per-step hypothesis)."""
    return ForAll(k, Implies(And(num(lo) <= k, k < num(hi)), body))


def Sum(i: Expr, lo, hi, body) -> Expr:
    """sum_{i = lo}^{hi} body (inclusive bounds, an empty sum when hi < lo)."""
    if i.op != "var" or not _is_int(i.sort):
        raise FormulaError("a sum runs over an integer variable")
    lo, hi, body = num(lo), num(hi), num(body)
    _need_num(body, "Sum")
    return Expr("sum", (i, lo, hi, body), sort=REAL if body.sort == REAL else INT)


def dot(a, b) -> Expr:
    if a.sort != VEC or b.sort != VEC:
        raise FormulaError("dot needs two vectors")
    return Expr("dot", (a, b), sort=REAL)


def norm2(a) -> Expr:
    return dot(a, a)
