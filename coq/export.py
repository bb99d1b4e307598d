"""Formula objects as Coq terms: the statements Coq checks are printed from the very trees the
catalogue states and z3/cvc5 check (``proofs.language.formula``), never typed a second time.

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

from proofs.language.formula import BOOL, INT, NAT, REAL, VEC, Expr
from proofs.printers.printer import Printer
from proofs.language.substitution import free_vars, walk
from coq.intterms import ExportError, coq_ident, is_nat_form, linear, nat_safe, print_nat_form, print_z_form

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


_CANNOT = {"R": "no Coq translation for the real operation {op!r}",
           "N": "no Coq translation for the natural-number operation {op!r}",
           "Z": "no Coq translation for the integer operation {op!r}",
           "V": "no Coq translation for the vector operation {op!r}",
           "P": "no Coq translation for the formula {op!r}",
           "B": "the formula {op!r} cannot be an if-then-else condition"}


class CoqPrinter(Printer):
    """Prints formula trees as Coq text (one printer per statement: it records the binders).

    A node is printed in one of six places (``ctx``): a real (``R``), a natural number (``N``, for
    nat_scope), an integer (``Z``, for Z_scope), a vector (``V``), a proposition (``P``) or a
    ``bool`` (``B``, the condition of an if-then-else).  The entry points :meth:`R`, :meth:`N`,
    :meth:`Zt`, :meth:`V`, :meth:`P`, :meth:`B` check the sort and then call the method of the
    node's operation with the place; a place an operation has no translation in is an
    :class:`ExportError`."""
    name = "Coq printer"
    error = ExportError

    def __init__(self, z_indexed=frozenset(), formulas=()):
        self.uses_dim = False
        from coq.spaces import Spaces
        self.sp = Spaces(list(formulas), self.nat)
        # sequences read at an integer index somewhere in the statement: indexed by Z throughout
        # (the SMT encoding's Int -> T), so that the statement means what the formula means
        self.z_indexed = set(z_indexed)
        self.raw = False            # integer terms as built, not in canonical form (coq.bridge)

    def cannot(self, e: Expr, ctx: str) -> ExportError:
        return ExportError(_CANNOT[ctx].format(op=e.op))

    def printer(self, ctx: str):
        """The entry point of a place."""
        return {"R": self.R, "N": self.N, "Z": self.Zt, "V": self.V, "P": self.P, "B": self.B}[ctx]

    # ------------------------------------------------------------------ entry points
    def R(self, e: Expr) -> str:
        if e.sort != REAL and e.op != "to_real":
            raise ExportError(f"a {e.sort} term where a real is expected: {e.op}")
        return self.node(e, "R")

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
        if not _is_int(e.sort) or not nat_safe(e):
            raise ExportError(f"a {e.sort} term where a natural number is expected")
        lin = linear(e) if e.op in ("add", "mul", "sub", "neg") and not self.raw else None
        if lin is not None and is_nat_form(lin):
            return print_nat_form(lin)
        return self.node(e, "N")

    def nat(self, e: Expr) -> str:
        return f"({self.N(e)})%nat"

    def Zt(self, e: Expr) -> str:
        """An integer term, printed for Z_scope (natural-number subterms injected)."""
        op = e.op
        lin = linear(e) if op in ("add", "sub", "mul", "neg") and not self.raw else None
        if lin is not None:
            if is_nat_form(lin):
                return f"(Z.of_nat ({print_nat_form(lin)})%nat)" if lin[0] else _int_lit(lin[1])
            return print_z_form(lin)
        if op != "num":
            if not _is_int(e.sort):
                raise ExportError(f"a {e.sort} term where an integer is expected")
            if nat_safe(e) and not (self.raw and op in ("add", "sub", "mul", "neg")):
                return f"(Z.of_nat {self.nat(e)})"
        return self.node(e, "Z")

    def z(self, e: Expr) -> str:
        return f"({self.Zt(e)})%Z"

    def z_any(self, e: Expr) -> str:
        if not _is_int(e.sort):
            raise ExportError(f"a {e.sort} where an integer bound is expected")
        return self.z(e)

    def V(self, e: Expr) -> str:
        if e.sort != VEC:
            raise ExportError(f"a {e.sort} term where a vector is expected")
        return self.node(e, "V")

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

    def P(self, e: Expr) -> str:
        if e.sort != BOOL:
            raise ExportError(f"a {e.sort} term where a formula is expected")
        return self.node(e, "P")

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

    def B(self, e: Expr) -> str:
        """A formula as a bool (the condition of an if-then-else)."""
        if e.sort != BOOL:
            raise ExportError(f"a {e.sort} term where a condition is expected")
        return self.node(e, "B")

    # ------------------------------------------------------------------ one method per operation
    def op_num(self, e, ctx):
        if ctx == "R":
            return _rat_R(e.value)
        if ctx in ("N", "Z"):
            return _int_lit(e.value)
        raise self.cannot(e, ctx)

    def op_var(self, e, ctx):
        if ctx == "P":
            return f"({self.B(e)} = true)"
        return coq_ident(e.name)

    def op_call(self, e, ctx):
        if ctx == "P":
            return f"({self.B(e)} = true)"
        return self.call(e)

    def op_to_real(self, e, ctx):
        if ctx != "R":
            raise self.cannot(e, ctx)
        a = e.args
        s = a[0].sort
        if _is_int(s) and nat_safe(a[0]):
            return f"(INR {self.nat(a[0])})"
        if _is_int(s):
            return f"(IZR {self.z(a[0])})"
        if s == REAL:
            return self.R(a[0])
        raise ExportError(f"to_real of a {s}")

    def _nary(self, e, ctx):
        if ctx not in ("R", "N", "Z"):
            raise self.cannot(e, ctx)
        p = self.printer(ctx)
        return "(" + (" + " if e.op == "add" else " * ").join(p(c) for c in e.args) + ")"

    op_add = op_mul = _nary

    def _binary(self, e, ctx):
        if ctx not in ("R", "Z") and not (ctx == "N" and e.op not in ("sub", "neg")):
            raise self.cannot(e, ctx)
        p, a = self.printer(ctx), e.args
        if e.op == "neg":
            return f"(- {p(a[0])})"
        if e.op == "pow":
            return f"({p(a[0])} ^ {self._exponent(a[1])})"
        return f"({p(a[0])} - {p(a[1])})"

    op_sub = op_neg = op_pow = _binary

    def op_div(self, e, ctx):
        if ctx != "R":
            raise self.cannot(e, ctx)
        return f"({self.R(e.args[0])} / {self.R(e.args[1])})"

    def op_dot(self, e, ctx):
        if ctx != "R":
            raise self.cannot(e, ctx)
        self.uses_dim = True
        return f"(dot {self.sp.dim(e)} {self.V(e.args[0])} {self.V(e.args[1])})"

    def _function(self, e, ctx):
        if ctx != "R":
            raise self.cannot(e, ctx)
        return f"({e.op} {self.R(e.args[0])})"

    op_exp = op_sqrt = op_lg = _function

    def op_pow2(self, e, ctx):
        if ctx != "R":
            raise self.cannot(e, ctx)
        a = e.args
        if a[0].sort == NAT:
            return f"(pow2 {self.nat(a[0])})"
        return f"(pow2Z {self.z(a[0])})"

    def op_npow(self, e, ctx):
        if ctx != "R":
            raise self.cannot(e, ctx)
        a = e.args
        if nat_safe(a[1]):
            return f"({self.R(a[0])} ^ {self.nat(a[1])})"
        return f"(powerRZ {self.R(a[0])} {self.z(a[1])})"

    def op_abs(self, e, ctx):
        if ctx == "R":
            return f"(Rabs {self.R(e.args[0])})"
        if ctx == "Z":
            return f"(Z.abs {self.Zt(e.args[0])})"
        raise self.cannot(e, ctx)

    def _max_min(self, e, ctx):
        op, a = e.op, e.args
        if ctx == "R":
            return f"({'Rmax' if op == 'max' else 'Rmin'} {self.R(a[0])} {self.R(a[1])})"
        if ctx == "N":
            return f"(Nat.{op} {self.N(a[0])} {self.N(a[1])})"
        if ctx == "Z":
            return f"(Z.{op} {self.Zt(a[0])} {self.Zt(a[1])})"
        raise self.cannot(e, ctx)

    op_max = op_min = _max_min

    def op_ite(self, e, ctx):
        if ctx == "B":
            raise self.cannot(e, ctx)
        p, a = self.printer(ctx), e.args
        return f"(if {self.B(a[0])} then {p(a[1])} else {p(a[2])})"

    def op_sum(self, e, ctx):
        if ctx == "R":
            return self.sum(e)
        if ctx != "Z":
            raise self.cannot(e, ctx)
        i, lo, hi, body = e.args
        if i.sort != NAT:
            raise ExportError("a sum of integers over an integer index has no Coq translation here")
        return f"(zsum_incl {self.nat_lower(lo)} {self.z_any(hi)} (fun {coq_ident(i.name)} : nat => {self.z(body)}))"

    # vectors
    def op_vzero(self, e, ctx):
        if ctx != "V":
            raise self.cannot(e, ctx)
        return "vzero"

    def op_vcat(self, e, ctx):
        if ctx != "V":
            raise self.cannot(e, ctx)
        a = e.args
        return f"(concat {self.sp.dim(a[0])} {self.V(a[0])} {self.V(a[1])})"

    def op_tensor(self, e, ctx):
        if ctx != "V":
            raise self.cannot(e, ctx)
        a = e.args
        return f"(tensor {self.sp.dim(a[1])} {self.V(a[0])} {self.V(a[1])})"

    def op_tpow(self, e, ctx):
        if ctx != "V":
            raise self.cannot(e, ctx)
        a = e.args
        return f"(tpow {self.sp.dim(a[0])} {self.V(a[0])} {self.nat(a[1])})"

    def op_vec1(self, e, ctx):
        if ctx != "V":
            raise self.cannot(e, ctx)
        return f"(vec1 {self.R(e.args[0])})"

    def op_vsum(self, e, ctx):
        if ctx != "V":
            raise self.cannot(e, ctx)
        i, lo, hi, body = e.args
        if i.sort != NAT:
            raise ExportError("a vector sum over an integer index has no Coq translation here")
        return f"(vsum_incl {self.nat_lower(lo)} {self.z_any(hi)} (fun {coq_ident(i.name)} : nat => {self.V(body)}))"

    def _vector_sum(self, e, ctx):
        if ctx != "V":
            raise self.cannot(e, ctx)
        return f"({e.op} {self.V(e.args[0])} {self.V(e.args[1])})"

    op_vadd = op_vsub = _vector_sum

    def op_smul(self, e, ctx):
        if ctx != "V":
            raise self.cannot(e, ctx)
        return f"(smul {self.R(e.args[0])} {self.V(e.args[1])})"

    # formulas
    def _constant(self, e, ctx):
        if ctx == "P":
            return "True" if e.op == "true" else "False"
        if ctx == "B":
            return e.op
        raise self.cannot(e, ctx)

    op_true = op_false = _constant

    _JOIN = {("and", "P"): " /\\ ", ("or", "P"): " \\/ ", ("and", "B"): " && ", ("or", "B"): " || "}

    def _junction(self, e, ctx):
        if ctx not in ("P", "B"):
            raise self.cannot(e, ctx)
        p = self.printer(ctx)
        return "(" + self._JOIN[e.op, ctx].join(p(c) for c in e.args) + ")"

    op_and = op_or = _junction

    def op_not(self, e, ctx):
        if ctx == "P":
            return f"(~ {self.P(e.args[0])})"
        if ctx == "B":
            return f"(negb {self.B(e.args[0])})"
        raise self.cannot(e, ctx)

    def op_implies(self, e, ctx):
        a = e.args
        if ctx == "P":
            return f"({self.P(a[0])} -> {self.P(a[1])})"
        if ctx == "B":
            return f"(implb {self.B(a[0])} {self.B(a[1])})"
        raise self.cannot(e, ctx)

    def op_iff(self, e, ctx):
        a = e.args
        if ctx == "P":
            return f"({self.P(a[0])} <-> {self.P(a[1])})"
        if ctx == "B":
            return f"(Bool.eqb {self.B(a[0])} {self.B(a[1])})"
        raise self.cannot(e, ctx)

    def op_forall(self, e, ctx):
        if ctx != "P":
            raise self.cannot(e, ctx)
        a = e.args
        binders = " ".join(f"({coq_ident(v.name)} : {self.sort_type(v.sort)})" for v in a[:-1])
        return f"(forall {binders}, {self.P(a[-1])})"

    def _relation(self, e, ctx):
        if ctx == "P":
            return self.rel(e)
        if ctx != "B":
            raise self.cannot(e, ctx)
        op, (x, y) = e.op, e.args
        if VEC in (x.sort, y.sort) or BOOL in (x.sort, y.sort):
            raise ExportError("a vector or Boolean equation cannot be an if-then-else condition")
        if REAL in (x.sort, y.sort):
            s, t = self.R(_real(x)), self.R(_real(y))
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

    op_le = op_lt = op_ge = op_gt = op_eq = op_ne = _relation

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
