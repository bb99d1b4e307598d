"""The checker's own SMT-LIB 2 printer: the text of every obligation is printed here, from the
checker's terms, and only a verdict on this very text counts.

The translation is the suite's (docs/proof-kernel.md): ``Nat`` is ``Int`` with ``(>= v 0)``
asserted for every natural constant, every natural-valued application and every bound natural;
``Vec`` an uninterpreted sort ``mb_Vec`` with uninterpreted ``mb_dot``, ``mb_vadd``, ...;
``abs/max/min`` if-then-else; ``exp``, ``sqrt``, ``lg``, ``pow2``, the feature-space
constructions and every finite sum uninterpreted functions (a sum: of its bounds and the free
variables of its body).  Abstracting a term by an uninterpreted function keeps every unsat sound.
The problem "hypotheses and not goal" is unsat exactly when the step is proved.
"""
from __future__ import annotations

from checker.terms import BOOL, INT, NAT, REAL, VEC, CheckError, Term, is_int

_SORT = {REAL: "Real", INT: "Int", NAT: "Int", BOOL: "Bool", VEC: "mb_Vec"}
_REL = {"le": "<=", "lt": "<", "ge": ">=", "gt": ">", "eq": "="}
_FUNS = {"vadd": ("mb_vadd", ("mb_Vec", "mb_Vec"), "mb_Vec"), "vsub": ("mb_vsub", ("mb_Vec", "mb_Vec"), "mb_Vec"),
         "smul": ("mb_smul", ("Real", "mb_Vec"), "mb_Vec"), "dot": ("mb_dot", ("mb_Vec", "mb_Vec"), "Real"),
         "exp": ("mb_exp", ("Real",), "Real"), "sqrt": ("mb_sqrt", ("Real",), "Real"),
         "lg": ("mb_lg", ("Real",), "Real"), "pow2": ("mb_pow2", ("Int",), "Real"),
         "vec1": ("mb_vec1", ("Real",), "mb_Vec"), "vcat": ("mb_vcat", ("mb_Vec", "mb_Vec"), "mb_Vec"),
         "tensor": ("mb_tensor", ("mb_Vec", "mb_Vec"), "mb_Vec"), "tpow": ("mb_tpow", ("mb_Vec", "Int"), "mb_Vec"),
         "npow": ("mb_npow", ("Real", "Int"), "Real")}


def comment(s: str) -> str:
    """One comment line: every character outside printable ASCII written as an escape."""
    s = str(s)
    if s.isascii() and s.isprintable():
        return s
    return "".join(c if " " <= c <= "~" else f"\\u{ord(c):04x}" for c in s)


def _num(t: Term) -> str:
    f = t.value
    if is_int(t.sort):
        return str(f.numerator) if f >= 0 else f"(- {-f.numerator})"
    p, q = f.numerator, f.denominator
    s = f"{abs(p)}.0" if q == 1 else f"(/ {abs(p)}.0 {q}.0)"
    return s if p >= 0 else f"(- {s})"


class Context:
    """Declarations collected while printing (symbols, abstracted sums, natural constraints)."""

    def __init__(self):
        self.decls: dict = {}
        self.nat_consts: set = set()
        self.nat_terms: dict = {}           # a natural-valued application -> its text
        self.uses_vec = False
        self.sums: dict = {}
        self.memo: dict = {}

    def declare(self, name: str, args, res: str):
        line = f"(declare-fun {name} ({' '.join(args)}) {res})"
        if self.decls.setdefault(name, line) != line:
            raise CheckError(f"symbol {name} printed with two signatures")

    def term(self, e: Term, bound: frozenset = frozenset()) -> str:
        k = (e, bound)
        s = self.memo.get(k)
        if s is None:
            s = self.memo[k] = self._term(e, bound)
        return s

    def _term(self, e: Term, bound) -> str:  # noqa: C901 - one case per node
        op, a, T = e.op, e.args, self.term
        if op == "var":
            if e.name in bound:
                return e.name
            self.declare(e.name, (), _SORT[e.sort])
            if e.sort == NAT:
                self.nat_consts.add(e.name)
            self.uses_vec |= e.sort == VEC
            return e.name
        if op == "lit":
            return _num(e)
        if op == "call":
            self.declare(e.name, tuple(_SORT[x.sort] for x in a), _SORT[e.sort])
            text = f"({e.name} {' '.join(T(x, bound) for x in a)})"
            if e.sort == NAT and not (bound and e.free() & bound):
                self.nat_terms[e] = text
            self.uses_vec |= e.sort == VEC or any(x.sort == VEC for x in a)
            return text
        if op in ("true", "false"):
            return op
        if op in _REL:
            return f"({_REL[op]} {T(a[0], bound)} {T(a[1], bound)})"
        if op == "ne":
            return f"(not (= {T(a[0], bound)} {T(a[1], bound)}))"
        if op in ("and", "or"):
            return f"({op} {' '.join(T(x, bound) for x in a)})"
        if op == "not":
            return f"(not {T(a[0], bound)})"
        if op == "implies":
            return f"(=> {T(a[0], bound)} {T(a[1], bound)})"
        if op == "iff":
            return f"(= {T(a[0], bound)} {T(a[1], bound)})"
        if op == "to_real":
            return f"(to_real {T(a[0], bound)})"
        if op in ("add", "mul"):
            return f"({'+' if op == 'add' else '*'} {' '.join(T(x, bound) for x in a)})"
        if op in ("sub", "div"):
            return f"({'-' if op == 'sub' else '/'} {T(a[0], bound)} {T(a[1], bound)})"
        if op == "neg":
            return f"(- {T(a[0], bound)})"
        if op == "pow":
            k = int(a[1].value)
            if k == 0:
                return "1.0" if e.sort == REAL else "1"
            b = T(a[0], bound)
            return b if k == 1 else f"(* {' '.join([b] * k)})"
        if op == "ite":
            return f"(ite {T(a[0], bound)} {T(a[1], bound)} {T(a[2], bound)})"
        if op == "abs":
            x = T(a[0], bound)
            return f"(ite (>= {x} {'0.0' if e.sort == REAL else '0'}) {x} (- {x}))"
        if op in ("max", "min"):
            x, y = T(a[0], bound), T(a[1], bound)
            return f"(ite ({'>=' if op == 'max' else '<='} {x} {y}) {x} {y})"
        if op == "vzero":
            self.uses_vec = True
            self.declare("mb_vzero", (), "mb_Vec")
            return "mb_vzero"
        if op in _FUNS:
            name, args, res = _FUNS[op]
            self.declare(name, args, res)
            self.uses_vec |= "mb_Vec" in args or res == "mb_Vec"
            return f"({name} {' '.join(T(x, bound) for x in a)})"
        if op in ("sum", "vsum"):
            self.uses_vec |= op == "vsum"
            i, lo, hi, body = a
            fv = sorted(body.free() - {i.name})
            key = (op, i.name, body)
            if key not in self.sums:
                self.sums[key] = f"mb_sum{len(self.sums)}"
            name = self.sums[key]
            sorts = _free_sorts(body, fv)
            self.declare(name, ("Int", "Int") + tuple(_SORT[sorts[v]] for v in fv), _SORT[e.sort])
            args = [T(lo, bound), T(hi, bound)] + [T(_free_var(body, v), bound) for v in fv]
            return f"({name} {' '.join(args)})"
        if op == "forall":
            vs, body = a[:-1], a[-1]
            binders = " ".join(f"({v.name} {_SORT[v.sort]})" for v in vs)
            inner = T(body, bound | {v.name for v in vs})
            nats = [v.name for v in vs if v.sort == NAT]
            if nats:
                inner = f"(=> (and {' '.join(f'(>= {n} 0)' for n in nats)} true) {inner})"
            return f"(forall ({binders}) {inner})"
        raise CheckError(f"no SMT-LIB translation for {op}")

    def header(self) -> str:
        lines = ["(set-logic ALL)"]
        if self.uses_vec:
            lines.append("(declare-sort mb_Vec 0)")
        lines.extend(self.decls[k] for k in sorted(self.decls, key=lambda n: (n.startswith("mb_"), n)))
        lines.extend(f"(assert (>= {n} 0))" for n in sorted(self.nat_consts))
        lines.extend(f"(assert (>= {t} 0))" for t in sorted(self.nat_terms.values()))
        return "\n".join(lines)


def _free_var(body: Term, name: str) -> Term:
    stack = [body]
    while stack:
        n = stack.pop()
        if n.op == "var" and n.name == name:
            return n
        stack.extend(n.args)
    raise CheckError(f"no variable {name}")


def _free_sorts(body: Term, names) -> dict:
    return {v: _free_var(body, v).sort for v in names}


def problem(hyps, goal: Term | None, note: str = "") -> str:
    """"hypotheses and not goal" (``hyps``: (label, formula) pairs); unsat means proved."""
    ctx = Context()
    body = []
    for label, h in hyps:
        if h.sort != BOOL:
            raise CheckError(f"hypothesis {label} is not a formula")
        body.append(f"; {comment(label)}\n(assert {ctx.term(h)})")
    if goal is not None:
        if goal.sort != BOOL:
            raise CheckError("the goal is not a formula")
        body.append(f"; goal (negated: unsat = proved)\n(assert (not {ctx.term(goal)}))")
    head = "".join(f"; {comment(line)}\n" for line in note.splitlines()) if note else ""
    return head + ctx.header() + "\n" + "\n".join(body) + "\n(check-sat)\n"
