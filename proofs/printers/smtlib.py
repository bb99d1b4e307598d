"""Formula objects as SMT-LIB 2: the one text both solvers read (z3 through ``parse_smt2_string``,
cvc5 through its parser), and the text ``verify --smtlib`` writes.  Nothing is expanded or
simplified on the way: the problem is the statement itself.

Translation: ``Nat`` is ``Int`` plus ``(assert (>= v 0))`` for every natural-number constant (and
a guard on bound naturals); ``Vec`` is an uninterpreted sort ``mb_Vec`` with uninterpreted
``mb_dot``, ``mb_vadd``, ``mb_vsub``, ``mb_smul``, ``mb_vzero`` (their laws enter a proof only as
facts: identities checked in coordinates, or named trusted rules); ``abs/max/min`` are
if-then-else; ``exp``, ``sqrt``, ``lg``, ``pow2`` and every finite sum are uninterpreted
functions (a sum of the free variables it depends on: abstracting a term by an uninterpreted
function keeps every unsat answer sound).  The feature-space constructions are uninterpreted too:
``mb_vec1``, ``mb_vcat``, ``mb_tensor``, ``mb_tpow`` (tensor power), ``mb_npow`` (a power with an
integer exponent term), and a finite sum of vectors is a function into ``mb_Vec`` like a sum.
"""
from __future__ import annotations

from fractions import Fraction

from proofs.language.formula import BOOL, INT, NAT, NAME_RE, REAL, VEC, Expr, FormulaError
from proofs.printers.printer import Printer
from proofs.language.substitution import free_vars

__all__ = ["problem", "guarded", "term", "SmtContext"]

_SORT = {REAL: "Real", INT: "Int", NAT: "Int", BOOL: "Bool", VEC: "mb_Vec"}
_REL = {"le": "<=", "lt": "<", "ge": ">=", "gt": ">", "eq": "="}
_VEC_FUNS = {"vadd": ("mb_vadd", ("mb_Vec", "mb_Vec"), "mb_Vec"), "vsub": ("mb_vsub", ("mb_Vec", "mb_Vec"), "mb_Vec"),
             "smul": ("mb_smul", ("Real", "mb_Vec"), "mb_Vec"), "dot": ("mb_dot", ("mb_Vec", "mb_Vec"), "Real")}
_UNINTERPRETED = {"exp": ("mb_exp", ("Real",), "Real"), "sqrt": ("mb_sqrt", ("Real",), "Real"),
                  "lg": ("mb_lg", ("Real",), "Real"), "pow2": ("mb_pow2", ("Int",), "Real")}
_FEATURE_FUNS = {"vec1": ("mb_vec1", ("Real",), "mb_Vec"), "vcat": ("mb_vcat", ("mb_Vec", "mb_Vec"), "mb_Vec"),
                 "tensor": ("mb_tensor", ("mb_Vec", "mb_Vec"), "mb_Vec"),
                 "tpow": ("mb_tpow", ("mb_Vec", "Int"), "mb_Vec"), "npow": ("mb_npow", ("Real", "Int"), "Real")}


def comment(s: str) -> str:
    """``s`` as the text of one SMT-LIB comment line: every character outside printable ASCII
    (a newline above all, which would end the comment and turn the rest into commands) is written
    as an escape, so a label can never become a command."""
    s = str(s)
    if s.isascii() and s.isprintable():     # printable ASCII (" " to "~"): nothing to escape
        return s
    return "".join(c if " " <= c <= "~" else f"\\u{ord(c):04x}" for c in s)


def _symbol(name: str) -> str:
    """A symbol's name as printed: an ASCII identifier, checked again here (never escaped into
    another name, never printed when it is not one)."""
    if not isinstance(name, str) or NAME_RE.match(name) is None:
        raise FormulaError(f"symbol name {name!r} is not an ASCII identifier")
    return name


def _num(f: Fraction, sort: str) -> str:
    if sort in (INT, NAT):
        if f.denominator != 1:
            raise FormulaError(f"integer constant {f}")
        v = f.numerator
        return str(v) if v >= 0 else f"(- {-v})"
    p, q = f.numerator, f.denominator
    s = f"{abs(p)}.0" if q == 1 else f"(/ {abs(p)}.0 {q}.0)"
    return s if p >= 0 else f"(- {s})"


class SmtContext(Printer):
    """The SMT-LIB printer, with the declarations collected while printing terms (symbols, sorts,
    abstracted sums)."""
    name = "SMT-LIB printer"

    def __init__(self):
        self.decls: dict[str, str] = {}        # name -> declaration line
        self.nat_consts: set[str] = set()
        self.nat_terms: set[Expr] = set()       # natural-valued applications (f(t) >= 0)
        self.uses_vec = False
        self.sums: dict[Expr, str] = {}
        self.printed: dict = {}                 # (id of a node, bound variables) -> (the node, its text)
        self._sigs: dict = {}                   # name -> (argument sorts, result sort) of a declaration made

    def declare(self, name: str, args: tuple[str, ...], res: str):
        if self._sigs.get(name) == (args, res):     # declared already, the same way
            return
        _symbol(name)
        line = f"(declare-fun {name} ({' '.join(args)}) {res})"
        old = self.decls.setdefault(name, line)
        if old != line:
            raise FormulaError(f"symbol {name} declared twice with different sorts")
        self._sigs[name] = (args, res)

    def term(self, e: Expr, bound: frozenset = frozenset()) -> str:
        """``e`` as SMT-LIB text, declaring what it uses.  A node met again in this context (a
        shared subterm, a hypothesis repeated in the goal) is printed once: its declarations were
        made the first time, and its text is the same (every method below depends only on the node,
        the bound variables and this context's names, which are never renamed)."""
        k = (id(e), bound)                      # the node itself (kept alive below, so its id is its own)
        hit = self.printed.get(k)
        if hit is None:
            hit = self.printed[k] = (e, self._term(e, bound))
        return hit[1]

    def _term(self, e: Expr, bound: frozenset) -> str:
        return self.node(e, bound)

    # ------------------------------------------------------------------ one method per operation
    def op_var(self, e, bound):
        if e in bound:
            return _symbol(e.name)
        self.declare(e.name, (), _SORT[e.sort])
        if e.sort == NAT:
            self.nat_consts.add(e.name)
        if e.sort == VEC:
            self.uses_vec = True
        return e.name

    def op_num(self, e, bound):
        return _num(e.value, e.sort)

    def op_call(self, e, bound):
        a = e.args
        self.declare(e.name, tuple(_SORT[x.sort] for x in a), _SORT[e.sort])
        if e.sort == NAT and not (bound and free_vars(e) & bound):
            self.nat_terms.add(e)
        if e.sort == VEC or any(x.sort == VEC for x in a):
            self.uses_vec = True
        return f"({e.name} {' '.join(self.term(x, bound) for x in a)})"

    def _constant(self, e, bound):
        return e.op

    op_true = op_false = _constant

    def _relation(self, e, bound):
        return f"({_REL[e.op]} {self.term(e.args[0], bound)} {self.term(e.args[1], bound)})"

    op_le = op_lt = op_ge = op_gt = op_eq = _relation

    def op_ne(self, e, bound):
        return f"(not (= {self.term(e.args[0], bound)} {self.term(e.args[1], bound)}))"

    def _nary(self, e, bound):
        head = {"and": "and", "or": "or", "add": "+", "mul": "*"}[e.op]
        return f"({head} {' '.join(self.term(x, bound) for x in e.args)})"

    op_and = op_or = op_add = op_mul = _nary

    def _unary(self, e, bound):
        head = {"not": "not", "to_real": "to_real", "neg": "-"}[e.op]
        return f"({head} {self.term(e.args[0], bound)})"

    op_not = op_to_real = op_neg = _unary

    def _binary(self, e, bound):
        head = {"implies": "=>", "iff": "=", "sub": "-", "div": "/"}[e.op]
        return f"({head} {self.term(e.args[0], bound)} {self.term(e.args[1], bound)})"

    op_implies = op_iff = op_sub = op_div = _binary

    def op_pow(self, e, bound):
        k = int(e.args[1].value)
        if k == 0:
            return "1.0" if e.sort == REAL else "1"
        b = self.term(e.args[0], bound)
        return b if k == 1 else f"(* {' '.join([b] * k)})"

    def op_ite(self, e, bound):
        a, T = e.args, self.term
        return f"(ite {T(a[0], bound)} {T(a[1], bound)} {T(a[2], bound)})"

    def op_abs(self, e, bound):
        x = self.term(e.args[0], bound)
        zero = "0.0" if e.sort == REAL else "0"
        return f"(ite (>= {x} {zero}) {x} (- {x}))"

    def _max_min(self, e, bound):
        x, y = self.term(e.args[0], bound), self.term(e.args[1], bound)
        return f"(ite ({'>=' if e.op == 'max' else '<='} {x} {y}) {x} {y})"

    op_max = op_min = _max_min

    def op_vzero(self, e, bound):
        self.uses_vec = True
        self.declare("mb_vzero", (), "mb_Vec")
        return "mb_vzero"

    def _vector(self, e, bound):
        self.uses_vec = True
        name, args, res = _VEC_FUNS[e.op]
        self.declare(name, args, res)
        return f"({name} {self.term(e.args[0], bound)} {self.term(e.args[1], bound)})"

    op_vadd = op_vsub = op_smul = op_dot = _vector

    def _uninterpreted(self, e, bound):
        name, args, res = _UNINTERPRETED[e.op]
        self.declare(name, args, res)
        return f"({name} {self.term(e.args[0], bound)})"

    op_exp = op_sqrt = op_lg = op_pow2 = _uninterpreted

    def _feature(self, e, bound):
        name, args, res = _FEATURE_FUNS[e.op]
        self.declare(name, args, res)
        if "mb_Vec" in args or res == "mb_Vec":
            self.uses_vec = True
        return f"({name} {' '.join(self.term(x, bound) for x in e.args)})"

    op_vec1 = op_vcat = op_tensor = op_tpow = op_npow = _feature

    def op_sum(self, e, bound):
        return self._sum(e, bound)

    def op_vsum(self, e, bound):
        self.uses_vec = True
        return self._sum(e, bound)

    def op_forall(self, e, bound):
        vs, body = e.args[:-1], e.args[-1]
        nb = bound | set(vs)
        binders = " ".join(f"({_symbol(v.name)} {_SORT[v.sort]})" for v in vs)
        inner = self.term(body, frozenset(nb))
        nats = [v.name for v in vs if v.sort == NAT]
        if nats:
            guard = " ".join(f"(>= {n} 0)" for n in nats)
            inner = f"(=> (and {guard} true) {inner})"
        return f"(forall ({binders}) {inner})"

    def _sum(self, e: Expr, bound) -> str:
        """sum_{i=lo}^{hi} body as an uninterpreted function of (lo, hi, the body's other free
        variables): one function per (index, body), so sums with arithmetically equal bounds are
        equal to the solvers (congruence), and nothing else about them is assumed."""
        i, lo, hi, body = e.args
        fv = sorted(free_vars(body) - {i}, key=lambda v: v.name)
        key = Expr(e.op, (i, _ZERO, _ZERO, body), sort=e.sort)
        if key not in self.sums:
            self.sums[key] = f"mb_sum{len(self.sums)}"
        name = self.sums[key]
        self.declare(name, ("Int", "Int") + tuple(_SORT[v.sort] for v in fv), _SORT[e.sort])
        args = [self.term(lo, bound), self.term(hi, bound)] + [self.term(v, bound) for v in fv]
        return f"({name} {' '.join(args)})"

    def header(self) -> str:
        lines = ["(set-logic ALL)"]
        if self.uses_vec:
            lines.append("(declare-sort mb_Vec 0)")
        lines.extend(self.decls[k] for k in sorted(self.decls, key=_decl_order))
        lines.extend(f"(assert (>= {n} 0))" for n in sorted(self.nat_consts))
        for t in sorted(self.nat_terms, key=lambda x: self.term(x)):
            lines.append(f"(assert (>= {self.term(t)} 0))")
        return "\n".join(lines)


_ZERO = Expr("num", value=Fraction(0), sort=INT)     # the bounds of a sum's key (formulas are immutable)


def _decl_order(name: str):
    return (name.startswith("mb_"), name)


def term(e: Expr) -> str:
    return SmtContext().term(e)


_comment = comment


def problem(hyps, goal: Expr | None, comment: str = "") -> str:
    """The SMT-LIB problem "hypotheses and not goal" (``goal=None``: the hypotheses alone, to ask
    whether they are satisfiable).  ``hyps``: (label, formula) pairs.  unsat means proved."""
    ctx = SmtContext()
    body = []
    for label, h in hyps:
        if h.sort != BOOL:
            raise FormulaError(f"hypothesis {label} is not a formula")
        body.append(f"; {_comment(label)}\n(assert {ctx.term(h)})")
    if goal is not None:
        if goal.sort != BOOL:
            raise FormulaError("the goal is not a formula")
        body.append(f"; goal (negated: unsat = proved)\n(assert (not {ctx.term(goal)}))")
    head = "".join(f"; {_comment(line)}\n" for line in comment.splitlines()) if comment else ""
    return head + ctx.header() + "\n" + "\n".join(body) + "\n(check-sat)\n"


def guarded(hyps, goal: Expr) -> tuple[str, list[str], str]:
    """One text for many satisfiability questions: hypothesis i is asserted under the Boolean
    ``mb_h<i>``, the negated goal under ``mb_g``; a question is a set of those names to assume.
    Returns (text, hypothesis guard names, goal guard name)."""
    ctx = SmtContext()
    body, names = [], []
    for i, (label, h) in enumerate(hyps):
        n = f"mb_h{i}"
        names.append(n)
        ctx.declare(n, (), "Bool")
        body.append(f"; {comment(label)}\n(assert (=> {n} {ctx.term(h)}))")
    ctx.declare("mb_g", (), "Bool")
    body.append(f"(assert (=> mb_g (not {ctx.term(goal)})))")
    return ctx.header() + "\n" + "\n".join(body) + "\n", names, "mb_g"

