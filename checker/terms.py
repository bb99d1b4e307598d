"""The checker's own terms: parsed from a certificate's data, every sort computed from the declarations.

A term is an immutable :class:`Term` (``op``, ``args``, ``name``, ``value``) with structural
equality; its ``sort`` is computed here when the node is made, from the declarations and the
sorts of its children (:func:`node`), never read from the certificate.  A node whose children do
not have the sorts its operator needs is refused (:class:`CheckError`), and so is a fractional or
negative literal exponent, a sum whose bounds are not integers or mention its own index, and a
binder that shadows a variable bound around it.

The same module has the smart constructors the rule schemas are written with (``add``, ``le``,
``And``, ``Sum``, ...): they cast integers to reals and flatten sums and products exactly as the
producer's formula objects do, so that an instance built here is structurally equal to the one a
correct producer recorded.  Substitution never captures: a replacement that a binder would
capture is refused, never renamed.

Wire form (the certificate's JSON): a bare string is a variable; ``["int", "3"]`` and
``["real", "1/2"]`` are literals (an integer literal >= 0 is a natural number); ``["call", f, t...]``
applies a declared function; ``["forall", [k...], body]``, ``["sum", i, lo, hi, body]`` and
``["vsum", i, lo, hi, body]`` bind; every other node is ``[op, t...]`` (docs/certificates.md).
"""
from __future__ import annotations

import re
from fractions import Fraction

REAL, INT, NAT, BOOL, VEC = "Real", "Int", "Nat", "Bool", "Vec"
SORTS = (REAL, INT, NAT, BOOL, VEC)
NUMERIC = (REAL, INT, NAT)
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
RESERVED = frozenset("""
    abs and arccos arccot arccsc arcsec arcsin arctan as assert bvadd check concat cos cot csc distinct
    div exists exit exp false forall fp is_int ite let match mod not or par pi pop push real reset sec
    select sin sqrt store tan to_int to_real true tuple xor iand int2bv bv2nat nat2bv
    Int Real Bool Array RNE RNA RTP RTN RTZ NaN
    """.split())


MAX_EXPONENT = 64          # b^k is printed as a product of k factors


class CheckError(ValueError):
    """A certificate the checker refuses (ill-formed data, a step that does not follow)."""


def valid_name(name) -> bool:
    return (isinstance(name, str) and NAME_RE.match(name) is not None and name not in RESERVED
            and not name.startswith("mb_"))


def is_int(sort: str) -> bool:
    return sort in (INT, NAT)


class Term:
    """One node; ``sort`` is computed by :func:`node`."""
    __slots__ = ("op", "args", "name", "value", "sort", "_h", "_fv")

    def __init__(self, op, args, name, value, sort):
        s = object.__setattr__
        s(self, "op", op)
        s(self, "args", args)
        s(self, "name", name)
        s(self, "value", value)
        s(self, "sort", sort)
        s(self, "_h", hash((op, args, name, value, sort if op == "lit" else None)))
        s(self, "_fv", None)

    def __setattr__(self, k, v):
        raise CheckError("a term cannot be changed")

    def __hash__(self):
        return self._h

    def __eq__(self, o):
        if self is o:
            return True
        if type(o) is not Term or self._h != o._h:
            return False
        return (self.op, self.name, self.value, self.args) == (o.op, o.name, o.value, o.args) and \
            (self.op != "lit" or self.sort == o.sort)

    def __ne__(self, o):
        return not self.__eq__(o)

    def __repr__(self):
        return show(self)

    def free(self) -> frozenset:
        """The names of the free variables."""
        if self._fv is None:
            if self.op == "var":
                fv = frozenset((self.name,))
            elif self.op == "forall":
                fv = self.args[-1].free() - {v.name for v in self.args[:-1]}
            elif self.op in ("sum", "vsum"):
                i, lo, hi, body = self.args
                fv = lo.free() | hi.free() | (body.free() - {i.name})
            else:
                fv = frozenset().union(*[a.free() for a in self.args]) if self.args else frozenset()
            object.__setattr__(self, "_fv", fv)
        return self._fv


def show(t: Term) -> str:
    """An s-expression (what error messages and the identity obligations print)."""
    if t.op == "var":
        return t.name
    if t.op == "lit":
        return str(t.value) if t.sort != REAL or t.value.denominator != 1 else f"{t.value}.0"
    head = t.name if t.op == "call" else t.op
    return "(" + " ".join([head] + [show(a) for a in t.args]) + ")"


# ----------------------------------------------------------------------------- sorts of nodes
# operator -> (argument sorts, result sort); "num" any numeric, "int" an integer sort
FIXED = {
    "dot": ((VEC, VEC), REAL), "vadd": ((VEC, VEC), VEC), "vsub": ((VEC, VEC), VEC), "smul": ((REAL, VEC), VEC),
    "vzero": ((), VEC), "exp": ((REAL,), REAL), "sqrt": ((REAL,), REAL), "lg": ((REAL,), REAL),
    "pow2": (("int",), REAL), "vec1": ((REAL,), VEC), "vcat": ((VEC, VEC), VEC), "tensor": ((VEC, VEC), VEC),
    "tpow": ((VEC, "int"), VEC), "npow": ((REAL, "int"), REAL), "to_real": (("int",), REAL),
    "not": ((BOOL,), BOOL), "implies": ((BOOL, BOOL), BOOL), "iff": ((BOOL, BOOL), BOOL),
    "true": ((), BOOL), "false": ((), BOOL), "div": ((REAL, REAL), REAL),
}
RELS = ("le", "lt", "ge", "gt", "eq", "ne")


def _fits(sort: str, want: str) -> bool:
    return sort == want or (want == "int" and is_int(sort))


def _same_numbers(op, args) -> str:
    """All real, or all integers: the sort they share (``Nat`` only if all are)."""
    sorts = [a.sort for a in args]
    if all(s == REAL for s in sorts):
        return REAL
    if all(is_int(s) for s in sorts):
        return NAT if all(s == NAT for s in sorts) else INT
    raise CheckError(f"{op} of {', '.join(sorts)}: all real or all integer (the integers cast with to_real)")


def node(op: str, args: tuple = (), name: str = "", value=None, decls=None) -> Term:
    """Make a node, computing its sort; refuse it when it is ill-sorted or ill-formed."""
    for a in args:
        if type(a) is not Term:
            raise CheckError(f"the arguments of {op} must be terms")
    n = len(args)
    if op == "var":
        d = (decls or {}).get(name)
        if d is None or d[0] != "var":
            raise CheckError(f"{name!r} is not a declared variable")
        return Term(op, (), name, None, d[1])
    if op == "lit":
        return Term(op, (), "", value, name)       # name: the literal's sort (its syntax)
    if op == "call":
        d = (decls or {}).get(name)
        if d is None or d[0] != "fun":
            raise CheckError(f"{name!r} is not a declared function")
        _, arg_sorts, res = d
        if n != len(arg_sorts):
            raise CheckError(f"{name} takes {len(arg_sorts)} argument(s), got {n}")
        for a, s in zip(args, arg_sorts):
            if not (a.sort == s or (s == INT and is_int(a.sort))):
                raise CheckError(f"an argument of {name} is a {a.sort}, declared {s}")
        return Term(op, args, name, None, res)
    if op in FIXED:
        want, res = FIXED[op]
        if n != len(want) or not all(_fits(a.sort, w) for a, w in zip(args, want)):
            raise CheckError(f"{op} takes ({', '.join(want)}), got ({', '.join(a.sort for a in args)})")
        return Term(op, args, "", None, res)
    if op in ("add", "mul", "sub", "neg", "max", "min", "abs"):
        if n != {"add": n if n >= 2 else 2, "mul": n if n >= 2 else 2, "neg": 1, "abs": 1}.get(op, 2):
            raise CheckError(f"{op} with {n} argument(s)")
        s = _same_numbers(op, args)
        if op in ("sub", "neg", "max", "min", "abs") and s == NAT:
            s = INT
        return Term(op, args, "", None, s)
    if op == "pow":
        if n != 2 or args[0].sort not in NUMERIC:
            raise CheckError("pow takes a number and a literal exponent")
        k = args[1]
        if k.op != "lit" or k.value.denominator != 1 or k.value < 0:
            raise CheckError(f"the exponent of a power must be a natural-number literal, not {show(k)}")
        if k.value > MAX_EXPONENT:
            raise CheckError(f"a literal exponent above {MAX_EXPONENT} (the SMT-LIB text writes the product out)")
        return Term(op, args, "", None, args[0].sort)
    if op in RELS:
        if n != 2:
            raise CheckError(f"{op} takes two terms")
        a, b = args
        ok = (a.sort == b.sort == REAL or (is_int(a.sort) and is_int(b.sort))
              or (op in ("eq", "ne") and a.sort == b.sort))
        if not ok:
            raise CheckError(f"{op} of a {a.sort} and a {b.sort}")
        return Term(op, args, "", None, BOOL)
    if op in ("and", "or"):
        if n < 2 or any(a.sort != BOOL for a in args):
            raise CheckError(f"{op} takes two or more formulas")
        return Term(op, args, "", None, BOOL)
    if op == "ite":
        if n != 3 or args[0].sort != BOOL or args[1].sort != args[2].sort:
            raise CheckError("ite takes a formula and two terms of one sort")
        return Term(op, args, "", None, args[1].sort)
    if op == "forall":
        vs, body = args[:-1], args[-1]
        names = [v.name for v in vs]
        if not vs or any(v.op != "var" for v in vs) or len(set(names)) != len(names) or body.sort != BOOL:
            raise CheckError("forall binds distinct variables in a formula")
        return Term(op, args, "", None, BOOL)
    if op in ("sum", "vsum"):
        if n != 4:
            raise CheckError(f"{op} takes an index, two bounds and a body")
        i, lo, hi, body = args
        if i.op != "var" or not is_int(i.sort):
            raise CheckError(f"the index of a {op} must be an integer variable")
        if not (is_int(lo.sort) and is_int(hi.sort)):
            raise CheckError(f"the bounds of a {op} must be integers, got {lo.sort} and {hi.sort}")
        if i.name in lo.free() | hi.free():
            raise CheckError(f"a bound of a {op} over {i.name} mentions {i.name}")
        if op == "vsum":
            if body.sort != VEC:
                raise CheckError("vsum adds vectors")
            return Term(op, args, "", None, VEC)
        if body.sort not in NUMERIC:
            raise CheckError("a sum adds numbers")
        return Term(op, args, "", None, REAL if body.sort == REAL else INT)
    raise CheckError(f"unknown operator {op!r}")


# ----------------------------------------------------------------------------- parsing the wire form
def _fraction(s) -> Fraction:
    if isinstance(s, bool) or not isinstance(s, (str, int)):
        raise CheckError(f"a literal must be a string 'p' or 'p/q', not {s!r}")
    if isinstance(s, str) and not re.fullmatch(r"-?[0-9]+(/[0-9]+)?", s):
        raise CheckError(f"literal {s!r} is not 'p' or 'p/q'")
    try:
        return Fraction(s)
    except (ValueError, ZeroDivisionError):
        raise CheckError(f"literal {s!r} is not a number") from None


class Reading:
    """While certificates are read: a list met again (the same object) is the same term, when
    the symbols it mentions are declared the same way (a producer may share lists between the
    certificates of one run; each certificate's declarations still decide what a name is)."""
    memo: dict | None = None
    depth = 0

    def __enter__(self):
        if Reading.depth == 0:
            Reading.memo = {}
        Reading.depth += 1

    def __exit__(self, *exc):
        Reading.depth -= 1
        if Reading.depth == 0:
            Reading.memo = None


def symbols_of(t: Term, decls: dict) -> tuple:
    """(name, declaration) of every symbol of ``t``."""
    names, stack = set(), [t]
    while stack:
        n = stack.pop()
        if n.op in ("var", "call"):
            names.add(n.name)
        stack.extend(n.args)
    return tuple((n, decls.get(n)) for n in names)


def parse(data, decls: dict, bound: frozenset = frozenset()) -> Term:
    """A term from its wire form; ``decls``: name -> ("var", sort) or ("fun", arg sorts, sort)."""
    memo = Reading.memo
    if memo is None or type(data) is not list:
        return _parse(data, decls, bound)
    k = (id(data), bound)
    hit = memo.get(k)
    if hit is not None and hit[0] is data:
        if hit[2] is decls:
            return hit[1]
        if hit[3] is None:
            hit[3] = symbols_of(hit[1], hit[2])
        if all(decls.get(n) == d for n, d in hit[3]):
            return hit[1]
    t = _parse(data, decls, bound)
    memo[k] = [data, t, decls, None]
    return t


def _parse(data, decls: dict, bound: frozenset) -> Term:
    if isinstance(data, str):
        if not valid_name(data):
            raise CheckError(f"{data!r} is not a symbol name")
        return node("var", name=data, decls=decls)
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise CheckError(f"not a term: {str(data)[:60]}")
    op, rest = data[0], data[1:]
    if op in ("int", "real"):
        if len(rest) != 1:
            raise CheckError("a literal has one value")
        v = _fraction(rest[0])
        if op == "int" and v.denominator != 1:
            raise CheckError(f"integer literal {rest[0]!r}")
        return node("lit", name=(REAL if op == "real" else NAT if v >= 0 else INT), value=v)
    if op == "call":
        if not rest or not isinstance(rest[0], str):
            raise CheckError("a call names its function")
        return node("call", tuple(parse(x, decls, bound) for x in rest[1:]), rest[0], decls=decls)
    if op == "forall":
        if len(rest) != 2 or not isinstance(rest[0], list) or not rest[0]:
            raise CheckError("forall takes a list of variables and a body")
        vs = tuple(parse(v, decls) for v in rest[0])
        _binds(vs, bound)
        return node("forall", vs + (parse(rest[1], decls, bound | {v.name for v in vs}),))
    if op in ("sum", "vsum"):
        if len(rest) != 4:
            raise CheckError(f"{op} takes an index, two bounds and a body")
        i = parse(rest[0], decls)
        _binds((i,), bound)
        lo, hi = parse(rest[1], decls, bound), parse(rest[2], decls, bound)
        return node(op, (i, lo, hi, parse(rest[3], decls, bound | {i.name})))
    if op in ("var", "lit"):
        raise CheckError(f"not a term: {op}")
    return node(op, tuple(parse(x, decls, bound) for x in rest))


def _binds(vs, bound):
    for v in vs:
        if v.op != "var":
            raise CheckError("a binder binds variables")
        if v.name in bound:
            raise CheckError(f"a binder of {v.name} inside another binder of {v.name} (captured)")


def dump(t: Term):
    """The wire form of a term (the inverse of :func:`parse`)."""
    if t.op == "var":
        return t.name
    if t.op == "lit":
        v = t.value
        s = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
        return ["real" if t.sort == REAL else "int", s]
    if t.op == "call":
        return ["call", t.name] + [dump(a) for a in t.args]
    if t.op == "forall":
        return ["forall", [a.name for a in t.args[:-1]], dump(t.args[-1])]
    return [t.op] + [dump(a) for a in t.args]


# ----------------------------------------------------------------------------- smart constructors
def lit(v) -> Term:
    if isinstance(v, Term):
        return v
    f = Fraction(v)
    return node("lit", name=(NAT if f >= 0 else INT) if f.denominator == 1 else REAL, value=f)


def to_real(t) -> Term:
    t = lit(t)
    if t.sort == REAL:
        return t
    if t.sort not in NUMERIC:
        raise CheckError(f"to_real of a {t.sort}")
    if t.op == "lit":
        return node("lit", name=REAL, value=t.value)
    return node("to_real", (t,))


def _arith(op, a, b) -> Term:
    a, b = lit(a), lit(b)
    if VEC in (a.sort, b.sort):
        if op in ("add", "sub") and a.sort == b.sort == VEC:
            return node("vadd" if op == "add" else "vsub", (a, b))
        if op == "mul" and a.sort != VEC:
            return node("smul", (to_real(a), b))
        if op == "mul" and b.sort != VEC:
            return node("smul", (to_real(b), a))
        raise CheckError(f"cannot {op} a {a.sort} and a {b.sort}")
    if op == "div" or REAL in (a.sort, b.sort):
        a, b = to_real(a), to_real(b)
    if op in ("add", "mul"):
        args = (a.args if a.op == op else (a,)) + (b.args if b.op == op else (b,))
        return node(op, args)
    return node(op, (a, b))


def add(a, b):
    return _arith("add", a, b)


def sub(a, b):
    return _arith("sub", a, b)


def mul(a, b):
    return _arith("mul", a, b)


def div(a, b):
    return _arith("div", a, b)


def _rel(op, a, b) -> Term:
    a, b = lit(a), lit(b)
    if REAL in (a.sort, b.sort) and a.sort in NUMERIC and b.sort in NUMERIC:
        a, b = to_real(a), to_real(b)
    return node(op, (a, b))


def le(a, b):
    return _rel("le", a, b)


def lt(a, b):
    return _rel("lt", a, b)


def ge(a, b):
    return _rel("ge", a, b)


def gt(a, b):
    return _rel("gt", a, b)


def eq(a, b):
    return _rel("eq", a, b)


def And(*fs) -> Term:
    if not fs:
        return node("true")
    if len(fs) == 1:
        return fs[0]
    args = []
    for f in fs:
        args.extend(f.args if f.op == "and" else (f,))
    return node("and", tuple(args))


def Implies(a, b) -> Term:
    return node("implies", (a, b))


def ForAll(v, body) -> Term:
    return node("forall", (v, body))


def Sum(i, lo, hi, body) -> Term:
    return node("sum", (i, lit(lo), lit(hi), lit(body)))


def VSum(i, lo, hi, body) -> Term:
    return node("vsum", (i, lit(lo), lit(hi), body))


def fn(op, *args) -> Term:
    """An interpreted function or vector operation, its real arguments cast as the producer casts."""
    want = FIXED[op][0]
    return node(op, tuple(to_real(a) if w == REAL else lit(a) for a, w in zip(args, want)))


# ----------------------------------------------------------------------------- substitution
def subst(t: Term, mapping: dict) -> Term:
    """Replace free variables (mapping: a variable term -> a term).  A real variable takes any
    number (cast), an integer one an integer, a natural one an integer (the caller adds the guard
    ``t >= 0``, :func:`nat_guards`); a replacement a binder would capture is refused."""
    if not mapping:
        return t
    m = {}
    for v, r in mapping.items():
        r = lit(r)
        if v.op != "var":
            raise CheckError("only variables are substituted")
        ok = (r.sort == v.sort or (v.sort == REAL and r.sort in NUMERIC) or (is_int(v.sort) and is_int(r.sort)))
        if not ok:
            raise CheckError(f"cannot substitute a {r.sort} for {v.name}: {v.sort}")
        m[v.name] = to_real(r) if v.sort == REAL else r
    return _go(t, m)


def _go(n: Term, m: dict) -> Term:
    if n.op == "var":
        return m.get(n.name, n)
    if not n.args or n.free().isdisjoint(m):
        return n
    if n.op in ("forall", "sum", "vsum"):
        names = {n.args[0].name} if n.op != "forall" else {v.name for v in n.args[:-1]}
        inner = {k: r for k, r in m.items() if k not in names}
        body = n.args[-1]
        if any(k in body.free() for k in inner):
            caught = names & frozenset().union(*[r.free() for k, r in inner.items() if k in body.free()])
            if caught:
                raise CheckError(f"substitution would capture {', '.join(sorted(caught))} under a binder")
        if n.op == "forall":
            return node("forall", n.args[:-1] + (_go(body, inner),))
        i, lo, hi, _ = n.args
        return node(n.op, (i, _go(lo, m), _go(hi, m), _go(body, inner)))
    args = tuple(_go(a, m) for a in n.args)
    if n.op == "call":          # a call keeps its declaration: an integer stays an integer, a real a real
        for old, new in zip(n.args, args):
            if not (old.sort == new.sort or (is_int(old.sort) and is_int(new.sort))):
                raise CheckError(f"an argument of {n.name} became a {new.sort}")
        return Term("call", args, n.name, None, n.sort)
    return node(n.op, args, n.name, n.value)


def nat_guards(mapping: dict) -> list:
    """``t >= 0`` for every natural-number variable mapped to a term not known to be natural."""
    return [ge(lit(r), lit(0)) for v, r in mapping.items() if v.sort == NAT and lit(r).sort != NAT]


def guarded(f: Term, mapping: dict) -> Term:
    """``f[mapping]`` under the guards ``t >= 0`` it needs (as the producer's kernel builds it)."""
    g = subst(f, mapping)
    gs = nat_guards(mapping)
    return Implies(And(*gs), g) if gs else g
