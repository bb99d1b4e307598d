"""Formula objects as Coq terms: the statements Coq checks are printed from the very trees the
catalogue states and z3/cvc5 check (``proofs.formula``), never typed a second time.

The meaning of each sort and operation is fixed in ``Prelude.v``:

* ``Real`` is ``R`` (the standard library's reals), ``Nat`` is ``nat``, ``Int`` is ``Z``, ``Bool`` is
  ``bool`` (a Boolean variable used as a formula is ``b = true``);
* ``Vec`` is ``Vec = nat -> R``, a vector of R^d for the dimension ``dim`` that every statement
  quantifies over (only the first ``dim`` coordinates enter ``dot``, so no length side conditions);
* a sequence ``w(k)`` is a function ``nat -> T``; its index must be a natural-number term;
* ``to_real`` is ``INR`` / ``IZR``; ``exp``, ``sqrt`` are the standard library's; ``lg x`` is
  ``ln x / ln 2``; ``pow2 n`` is ``2 ^ n`` (``powerRZ 2 z`` for an integer exponent);
* ``Sum(i, lo, hi, body)`` (inclusive bounds, empty when hi < lo) is ``sum_incl`` / ``sum_inclZ``;
* ``ite(c, a, b)`` is ``if c then a else b`` with the condition as a ``bool`` (``Rle_b`` etc.).

A statement ``hypotheses => conclusion`` is printed curried, ``forall vars, H1 -> ... -> C``.
Anything the printer cannot translate faithfully raises :class:`ExportError`, never an
approximation.
"""
from __future__ import annotations

from fractions import Fraction

from proofs.formula import BOOL, INT, NAT, REAL, VEC, Expr
from proofs.substitution import free_vars, walk
from .intterms import ExportError, coq_ident, is_nat_form, linear, nat_safe, print_nat_form, print_z_form

__all__ = ["ExportError", "CoqPrinter", "statement", "step_statement", "step_parts", "coq_ident", "DIM"]

DIM = "dim"

def _rat_R(v: Fraction) -> str:
    if v.denominator == 1:
        return f"({v.numerator})" if v < 0 else f"{v.numerator}"
    return f"({v.numerator} / {v.denominator})" if v > 0 else f"(- {-v.numerator} / {v.denominator})"


def _int_lit(v: Fraction) -> str:
    if v.denominator != 1:
        raise ExportError(f"non-integer constant {v} in an integer term")
    return f"({v.numerator})" if v < 0 else f"{v.numerator}"


def _is_int(sort: str) -> bool:
    return sort in (INT, NAT)


_R_REL = {"le": "<=", "lt": "<", "ge": ">=", "gt": ">", "eq": "=", "ne": "<>"}


class CoqPrinter:
    """Prints formula trees as Coq text (one printer per statement: it records the binders)."""

    def __init__(self, z_indexed=frozenset(), formulas=()):
        self.uses_dim = False
        from .spaces import Spaces
        self.sp = Spaces(list(formulas), self.nat)
        # sequences read at an integer index somewhere in the statement: indexed by Z throughout
        # (the SMT encoding's Int -> T), so that the statement means what the formula means
        self.z_indexed = set(z_indexed)
        self.raw = False            # integer terms as built, not in canonical form (coq.bridge)

    # ------------------------------------------------------------------ reals
    def R(self, e: Expr) -> str:  # noqa: C901 - one case per node kind
        op, a = e.op, e.args
        if e.sort != REAL:
            if op == "to_real":
                pass
            else:
                raise ExportError(f"a {e.sort} term where a real is expected: {op}")
        if op == "num":
            return _rat_R(e.value)
        if op == "var":
            return coq_ident(e.name)
        if op == "call":
            return self.call(e)
        if op == "to_real":
            s = a[0].sort
            if _is_int(s) and nat_safe(a[0]):
                return f"(INR {self.nat(a[0])})"
            if _is_int(s):
                return f"(IZR {self.z(a[0])})"
            if s == REAL:
                return self.R(a[0])
            raise ExportError(f"to_real of a {s}")
        if op == "add":
            return "(" + " + ".join(self.R(c) for c in a) + ")"
        if op == "mul":
            return "(" + " * ".join(self.R(c) for c in a) + ")"
        if op == "sub":
            return f"({self.R(a[0])} - {self.R(a[1])})"
        if op == "div":
            return f"({self.R(a[0])} / {self.R(a[1])})"
        if op == "neg":
            return f"(- {self.R(a[0])})"
        if op == "pow":
            return f"({self.R(a[0])} ^ {self._exponent(a[1])})"
        if op == "dot":
            self.uses_dim = True
            return f"(dot {self.sp.dim(e)} {self.V(a[0])} {self.V(a[1])})"
        if op in ("exp", "sqrt", "lg"):
            return f"({op} {self.R(a[0])})"
        if op == "pow2":
            if a[0].sort == NAT:
                return f"(pow2 {self.nat(a[0])})"
            return f"(pow2Z {self.z(a[0])})"
        if op == "npow":
            if nat_safe(a[1]):
                return f"({self.R(a[0])} ^ {self.nat(a[1])})"
            return f"(powerRZ {self.R(a[0])} {self.z(a[1])})"
        if op == "abs":
            return f"(Rabs {self.R(a[0])})"
        if op in ("max", "min"):
            return f"({'Rmax' if op == 'max' else 'Rmin'} {self.R(a[0])} {self.R(a[1])})"
        if op == "ite":
            return f"(if {self.B(a[0])} then {self.R(a[1])} else {self.R(a[2])})"
        if op == "sum":
            return self.sum(e)
        raise ExportError(f"no Coq translation for the real operation {op!r}")

    def _exponent(self, k: Expr) -> str:
        if k.op != "num" or k.value.denominator != 1 or k.value < 0:
            raise ExportError("only constant natural-number exponents are supported")
        return f"{k.value.numerator}"

    def sum(self, e: Expr) -> str:
        i, lo, hi, body = e.args
        if body.sort != REAL:
            raise ExportError("a finite sum of integers has no Coq translation here (sum reals instead)")
        name = coq_ident(i.name)
        if i.sort == NAT:
            return f"(sum_incl {self.nat_lower(lo)} {self.z_any(hi)} (fun {name} : nat => {self.R(body)}))"
        return f"(sum_inclZ {self.z_any(lo)} {self.z_any(hi)} (fun {name} : Z => {self.R(body)}))"

    # ------------------------------------------------------------------ naturals and integers
    def nat_lower(self, lo: Expr) -> str:
        """The lower bound of a sum over a natural-number index: a natural number as such; an integer
        term (e.g. r - 1 + 1 from splitting a sum) as Z.to_nat of it -- the index ranges over the
        naturals from the bound on, so a negative bound starts the sum at 0."""
        if lo.sort == NAT and nat_safe(lo):
            return self.nat(lo)
        lin = linear(lo) if _is_int(lo.sort) and not self.raw else None
        if lin is not None and is_nat_form(lin):
            return f"({print_nat_form(lin)})%nat"
        return f"(Z.to_nat {self.z_any(lo)})"

    def N(self, e: Expr) -> str:
        """A natural-number term, printed for nat_scope (no delimiter)."""
        op, a = e.op, e.args
        if not _is_int(e.sort) or not nat_safe(e):
            raise ExportError(f"a {e.sort} term where a natural number is expected")
        lin = linear(e) if op in ("add", "mul", "sub", "neg") and not self.raw else None
        if lin is not None and is_nat_form(lin):
            return print_nat_form(lin)
        if op == "num":
            return _int_lit(e.value)
        if op == "var":
            return coq_ident(e.name)
        if op == "call":
            return self.call(e)
        if op == "add":
            return "(" + " + ".join(self.N(c) for c in a) + ")"
        if op == "mul":
            return "(" + " * ".join(self.N(c) for c in a) + ")"
        if op == "pow":
            return f"({self.N(a[0])} ^ {self._exponent(a[1])})"
        if op in ("max", "min"):
            return f"(Nat.{op} {self.N(a[0])} {self.N(a[1])})"
        if op == "ite":
            return f"(if {self.B(a[0])} then {self.N(a[1])} else {self.N(a[2])})"
        raise ExportError(f"no Coq translation for the natural-number operation {op!r}")

    def nat(self, e: Expr) -> str:
        return f"({self.N(e)})%nat"

    def Zt(self, e: Expr) -> str:
        """An integer term, printed for Z_scope (natural-number subterms injected)."""
        op, a = e.op, e.args
        lin = linear(e) if op in ("add", "sub", "mul", "neg") and not self.raw else None
        if lin is not None:
            if is_nat_form(lin):
                return f"(Z.of_nat ({print_nat_form(lin)})%nat)" if lin[0] else _int_lit(lin[1])
            return print_z_form(lin)
        if op == "num":
            return _int_lit(e.value)
        if not _is_int(e.sort):
            raise ExportError(f"a {e.sort} term where an integer is expected")
        if nat_safe(e) and not (self.raw and op in ("add", "sub", "mul", "neg")):
            return f"(Z.of_nat {self.nat(e)})"
        if op == "var":
            return coq_ident(e.name)
        if op == "call":
            return self.call(e)
        if op == "add":
            return "(" + " + ".join(self.Zt(c) for c in a) + ")"
        if op == "mul":
            return "(" + " * ".join(self.Zt(c) for c in a) + ")"
        if op == "sub":
            return f"({self.Zt(a[0])} - {self.Zt(a[1])})"
        if op == "neg":
            return f"(- {self.Zt(a[0])})"
        if op == "pow":
            return f"({self.Zt(a[0])} ^ {self._exponent(a[1])})"
        if op == "abs":
            return f"(Z.abs {self.Zt(a[0])})"
        if op in ("max", "min"):
            return f"(Z.{op} {self.Zt(a[0])} {self.Zt(a[1])})"
        if op == "ite":
            return f"(if {self.B(a[0])} then {self.Zt(a[1])} else {self.Zt(a[2])})"
        if op == "sum":
            i, lo, hi, body = a
            if i.sort != NAT:
                raise ExportError("a sum of integers over an integer index has no Coq translation here")
            return f"(zsum_incl {self.nat_lower(lo)} {self.z_any(hi)} (fun {coq_ident(i.name)} : nat => {self.z(body)}))"
        raise ExportError(f"no Coq translation for the integer operation {op!r}")

    def z(self, e: Expr) -> str:
        return f"({self.Zt(e)})%Z"

    def z_any(self, e: Expr) -> str:
        if not _is_int(e.sort):
            raise ExportError(f"a {e.sort} where an integer bound is expected")
        return self.z(e)

    # ------------------------------------------------------------------ vectors and sequences
    def V(self, e: Expr) -> str:
        op, a = e.op, e.args
        if e.sort != VEC:
            raise ExportError(f"a {e.sort} term where a vector is expected")
        if op == "var":
            return coq_ident(e.name)
        if op == "call":
            return self.call(e)
        if op == "vzero":
            return "vzero"
        if op == "vcat":
            return f"(concat {self.sp.dim(a[0])} {self.V(a[0])} {self.V(a[1])})"
        if op == "tensor":
            return f"(tensor {self.sp.dim(a[1])} {self.V(a[0])} {self.V(a[1])})"
        if op == "tpow":
            return f"(tpow {self.sp.dim(a[0])} {self.V(a[0])} {self.nat(a[1])})"
        if op == "vec1":
            return f"(vec1 {self.R(a[0])})"
        if op == "vsum":
            i, lo, hi, body = a
            if i.sort != NAT:
                raise ExportError("a vector sum over an integer index has no Coq translation here")
            return f"(vsum_incl {self.nat_lower(lo)} {self.z_any(hi)} (fun {coq_ident(i.name)} : nat => {self.V(body)}))"
        if op == "vadd":
            return f"(vadd {self.V(a[0])} {self.V(a[1])})"
        if op == "vsub":
            return f"(vsub {self.V(a[0])} {self.V(a[1])})"
        if op == "smul":
            return f"(smul {self.R(a[0])} {self.V(a[1])})"
        if op == "ite":
            return f"(if {self.B(a[0])} then {self.V(a[1])} else {self.V(a[2])})"
        raise ExportError(f"no Coq translation for the vector operation {op!r}")

    def call(self, e: Expr) -> str:
        parts = [coq_ident(e.name)]
        for x in e.args:
            if _is_int(x.sort) and e.name in self.z_indexed:
                parts.append(self.z(x))
            elif _is_int(x.sort) and nat_safe(x):
                parts.append(self.nat(x))
            elif _is_int(x.sort):
                raise ExportError(f"{e.name}(...) at an integer index: sequences are indexed by natural numbers")
            elif x.sort == REAL:
                parts.append(self.R(x))
            elif x.sort == VEC:
                parts.append(self.V(x))
            elif x.sort == BOOL:
                parts.append(self.B(x))
            else:
                raise ExportError(f"argument of sort {x.sort}")
        return "(" + " ".join(parts) + ")"

    # ------------------------------------------------------------------ formulas
    def P(self, e: Expr) -> str:  # noqa: C901
        op, a = e.op, e.args
        if e.sort != BOOL:
            raise ExportError(f"a {e.sort} term where a formula is expected")
        if op == "true":
            return "True"
        if op == "false":
            return "False"
        if op in ("var", "call"):
            return f"({self.B(e)} = true)"
        if op in _R_REL:
            return self.rel(e)
        if op == "and":
            return "(" + " /\\ ".join(self.P(c) for c in a) + ")"
        if op == "or":
            return "(" + " \\/ ".join(self.P(c) for c in a) + ")"
        if op == "not":
            return f"(~ {self.P(a[0])})"
        if op == "implies":
            return f"({self.P(a[0])} -> {self.P(a[1])})"
        if op == "iff":
            return f"({self.P(a[0])} <-> {self.P(a[1])})"
        if op == "forall":
            binders = " ".join(f"({coq_ident(v.name)} : {self.sort_type(v.sort)})" for v in a[:-1])
            return f"(forall {binders}, {self.P(a[-1])})"
        if op == "ite":
            return f"(if {self.B(a[0])} then {self.P(a[1])} else {self.P(a[2])})"
        raise ExportError(f"no Coq translation for the formula {op!r}")

    def rel(self, e: Expr) -> str:
        op, (x, y) = e.op, e.args
        if VEC in (x.sort, y.sort):
            if op not in ("eq", "ne") or x.sort != y.sort:
                raise ExportError("vectors are only compared for equality")
            self.uses_dim = True
            eq = f"(veq {self.sp.dim(e)} {self.V(x)} {self.V(y)})"
            return eq if op == "eq" else f"(~ {eq})"
        if BOOL in (x.sort, y.sort):
            if op not in ("eq", "ne") or x.sort != y.sort:
                raise ExportError("Booleans are only compared for equality")
            return f"({self.B(x)} {_R_REL[op]} {self.B(y)})"
        if REAL in (x.sort, y.sort):
            return f"({self.R(_real(x))} {_R_REL[op]} {self.R(_real(y))})"
        if nat_safe(x) and nat_safe(y):
            return f"({self.N(x)} {_R_REL[op]} {self.N(y)})%nat"
        return f"({self.Zt(x)} {_R_REL[op]} {self.Zt(y)})%Z"

    def B(self, e: Expr) -> str:  # noqa: C901
        """A formula as a bool (the condition of an if-then-else)."""
        op, a = e.op, e.args
        if e.sort != BOOL:
            raise ExportError(f"a {e.sort} term where a condition is expected")
        if op == "true":
            return "true"
        if op == "false":
            return "false"
        if op == "var":
            return coq_ident(e.name)
        if op == "call":
            return self.call(e)
        if op == "and":
            return "(" + " && ".join(self.B(c) for c in a) + ")"
        if op == "or":
            return "(" + " || ".join(self.B(c) for c in a) + ")"
        if op == "not":
            return f"(negb {self.B(a[0])})"
        if op == "implies":
            return f"(implb {self.B(a[0])} {self.B(a[1])})"
        if op == "iff":
            return f"(Bool.eqb {self.B(a[0])} {self.B(a[1])})"
        if op in _R_REL:
            x, y = a
            if VEC in (x.sort, y.sort) or BOOL in (x.sort, y.sort):
                raise ExportError("a vector or Boolean equation cannot be an if-then-else condition")
            if REAL in (x.sort, y.sort):
                f, s, t = "R", self.R(_real(x)), self.R(_real(y))
                s, t = f"({s})%R", f"({t})%R"
                fn = {"le": "Rle_b", "lt": "Rlt_b", "eq": "Req_b"}
            elif nat_safe(x) and nat_safe(y):
                s, t = self.nat(x), self.nat(y)
                fn = {"le": "Nat.leb", "lt": "Nat.ltb", "eq": "Nat.eqb"}
            else:
                s, t = self.z(x), self.z(y)
                fn = {"le": "Z.leb", "lt": "Z.ltb", "eq": "Z.eqb"}
            if op in fn:
                return f"({fn[op]} {s} {t})"
            if op == "ge":
                return f"({fn['le']} {t} {s})"
            if op == "gt":
                return f"({fn['lt']} {t} {s})"
            return f"(negb ({fn['eq']} {s} {t}))"
        raise ExportError(f"the formula {op!r} cannot be an if-then-else condition")

    # ------------------------------------------------------------------ binders
    @staticmethod
    def sort_type(sort: str) -> str:
        return {REAL: "R", NAT: "nat", INT: "Z", BOOL: "bool", VEC: "Vec"}[sort]

    def binders(self, formulas) -> str:
        """``(x : T) ...`` for every free variable and uninterpreted symbol of the formulas, sorted by
        name (``dim`` first when an inner product occurs)."""
        vars_: dict[str, str] = {}
        funs: dict[str, tuple] = {}
        for f in formulas:
            for v in free_vars(f):
                t = self.sort_type(v.sort)
                if vars_.setdefault(v.name, t) != t:
                    raise ExportError(f"variable {v.name} with two sorts")
            for n in walk(f):
                if n.op == "call":
                    isort = INT if n.name in self.z_indexed else NAT
                    sig = (n.sort, tuple(isort if _is_int(x.sort) else x.sort for x in n.args))
                    if funs.setdefault(n.name, sig) != sig:
                        raise ExportError(f"symbol {n.name} with two signatures")
        clash = set(vars_) & set(funs)
        if clash:
            raise ExportError(f"{sorted(clash)[0]} is both a variable and a function symbol")
        out = []
        names = {}
        for name in sorted(set(vars_) | set(funs)):
            ident = coq_ident(name)
            if ident in names:
                raise ExportError(f"variables {names[ident]} and {name} print as the same Coq name")
            names[ident] = name
            if name in vars_:
                out.append(f"({ident} : {vars_[name]})")
            else:
                res, args = funs[name]
                ty = " -> ".join([self.sort_type(s) for s in args] + [self.sort_type(res)])
                out.append(f"({ident} : {ty})")
        if self.uses_dim:
            out[:0] = [f"({d} : nat)" for d in self.sp.dims()]
        return " ".join(out)


def _real(e: Expr) -> Expr:
    if e.sort == REAL:
        return e
    return Expr("to_real", (e,), sort=REAL)


def _z_indexed(formulas) -> set[str]:
    return {n.name for f in formulas for n in walk(f)
            if n.op == "call" and any(_is_int(a.sort) and not nat_safe(a) for a in n.args)}


def step_statement(hyps, goal: Expr) -> str:
    """``forall vars, H1 -> ... -> goal`` for formulas ``hyps`` and ``goal``."""
    pr = CoqPrinter(_z_indexed(list(hyps) + [goal]), list(hyps) + [goal])
    body = [pr.P(h) for h in hyps] + [pr.P(goal)]
    b = pr.binders(list(hyps) + [goal])
    chain = " ->\n  ".join(body)
    return f"forall {b},\n  {chain}" if b else chain


def step_parts(hyps, goal: Expr) -> tuple[list[str], str, list[str], str]:
    """The pieces of :func:`step_statement`, printed by one printer: (binder names, binders text,
    hypotheses, goal)."""
    import re
    pr = CoqPrinter(_z_indexed(list(hyps) + [goal]), list(hyps) + [goal])
    body = [pr.P(h) for h in hyps]
    g = pr.P(goal)
    b = pr.binders(list(hyps) + [goal])
    return re.findall(r"\((\w+) :", b), b, body, g


def statement(theorem) -> str:
    """A catalogue theorem's statement (an erratum's claim), hypotheses => conclusion, curried."""
    return step_statement([f for _, f in theorem.hypotheses], theorem.conclusion)
