"""Formula objects as text and LaTeX: what ``verify``, ``docs/catalogue.md`` and the LaTeX export
show for every statement and step is printed here from the very trees that were checked.

Conventions: ``u.x`` is an inner product (``u \\cdot x``), ``|w|^2`` is ``dot(w, w)``, ``w(k)`` a
sequence (``w_k``), ``for all k < M: ...`` the per-step hypotheses; ``to_real`` is invisible.
Feature-space vectors: ``(u, v)`` a concatenation, ``(t)`` a one-coordinate vector, ``u (x) v`` a
tensor product (``u \\otimes v``), ``v^{(x)k}`` a tensor power (``v^{\\otimes k}``).
"""
from __future__ import annotations

from fractions import Fraction

from proofs.language.formula import Expr
from proofs.printers.printer import Printer, vcat_parts

__all__ = ["text", "latex", "TextPrinter"]

# binding strength: higher binds tighter
_PREC = {"implies": 1, "iff": 1, "forall": 0, "or": 2, "and": 3, "not": 4,
         "le": 5, "lt": 5, "ge": 5, "gt": 5, "eq": 5, "ne": 5,
         "add": 6, "sub": 6, "vadd": 6, "vsub": 6, "mul": 7, "smul": 7, "div": 7, "dot": 7, "neg": 8, "pow": 9,
         "tensor": 7, "npow": 9, "tpow": 9}
_REL_TXT = {"le": "<=", "lt": "<", "ge": ">=", "gt": ">", "eq": "=", "ne": "!="}
_REL_TEX = {"le": r"\le", "lt": "<", "ge": r"\ge", "gt": ">", "eq": "=", "ne": r"\ne"}


def _frac_text(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _frac_tex(f: Fraction) -> str:
    if f.denominator == 1:
        return str(f.numerator)
    s = rf"\frac{{{abs(f.numerator)}}}{{{f.denominator}}}"
    return "-" + s if f < 0 else s


def _below(e: Expr):
    """``ForAll(k, Implies(And(lo <= k, k < hi), body))`` -> (k, lo, hi, body), else None."""
    if e.op != "forall" or len(e.args) != 2:
        return None
    k, imp = e.args
    if imp.op != "implies" or imp.args[0].op != "and" or len(imp.args[0].args) != 2:
        return None
    a, b = imp.args[0].args
    if a.op == "le" and a.args[1] == k and b.op == "lt" and b.args[0] == k:
        return k, a.args[0], b.args[1], imp.args[1]
    return None


class TextPrinter(Printer):
    """Text (``tex=False``) or LaTeX: every method returns (the text, its binding strength)."""
    name = "text/LaTeX printer"
    error = ValueError

    def __init__(self, tex: bool):
        self.tex = tex

    def __call__(self, e: Expr, prec: int = 0) -> str:
        s, p = self.node(e)
        return f"({s})" if p < prec else s

    def op_var(self, e):
        return (e.tex if self.tex else e.text), 10

    def op_num(self, e):
        T = self.tex
        s = _frac_tex(e.value) if T else _frac_text(e.value)
        return s, (10 if e.value >= 0 and (e.value.denominator == 1 or T) else 7)

    def op_call(self, e):
        T, a, P = self.tex, e.args, self
        if T and len(a) == 1 and a[0].sort in ("Int", "Nat"):      # a sequence: w_k
            return f"{e.tex}_{{{P(a[0])}}}", 10
        inner = ", ".join(P(x) for x in a)
        return (f"{e.tex}({inner})" if T else f"{e.text}({inner})"), 10

    def op_to_real(self, e):
        return self.node(e.args[0])

    def op_true(self, e):
        return (r"\top" if self.tex else "true"), 10

    def op_false(self, e):
        return (r"\bot" if self.tex else "false"), 10

    def op_vzero(self, e):
        return (r"\mathbf{0}" if self.tex else "0"), 10

    def op_add(self, e):
        a, P = e.args, self
        s = P(a[0], 6)
        for c in a[1:]:
            if c.op == "neg":
                s += " - " + P(c.args[0], 7)
            elif c.op == "num" and c.value < 0:
                s += " - " + P(Expr("num", value=-c.value, sort=c.sort), 7)
            elif c.op == "mul" and (c.args[0].op == "neg" or (c.args[0].op == "num" and c.args[0].value < 0)):
                f0 = c.args[0]           # a + (-b)*y is shown as a - b*y
                pos = f0.args[0] if f0.op == "neg" else Expr("num", value=-f0.value, sort=f0.sort)
                rest = c.args[1:] if pos.op == "num" and pos.value == 1 else (pos,) + c.args[1:]
                s += " - " + (self.product(rest) if len(rest) > 1 else P(rest[0], 7))
            else:
                s += " + " + P(c, 6)
        return s, 6

    op_vadd = op_add

    def op_sub(self, e):
        return f"{self(e.args[0], 6)} - {self(e.args[1], 7)}", 6

    op_vsub = op_sub

    def op_neg(self, e):
        return "-" + self(e.args[0], 8), 8

    def op_mul(self, e):
        return self.product(e.args), 7

    op_smul = op_mul

    def op_div(self, e):
        a, P = e.args, self
        if self.tex:
            return rf"\frac{{{P(a[0])}}}{{{P(a[1])}}}", 10
        return f"{P(a[0], 7)}/{P(a[1], 8)}", 7

    def op_pow(self, e):
        a, P = e.args, self
        base = P(a[0], 10)
        return (f"{base}^{{{P(a[1])}}}" if self.tex else f"{base}^{P(a[1])}"), 9

    def op_dot(self, e):
        T, a, P = self.tex, e.args, self
        if a[0] == a[1]:
            inner = P(a[0], 10)
            return ((rf"\|{P(a[0])}\|^2" if T else f"|{P(a[0])}|^2"), 9) if inner else ("", 9)
        return (f"{P(a[0], 8)} \\cdot {P(a[1], 8)}" if T else f"{P(a[0], 8)}.{P(a[1], 8)}"), 7

    def op_vec1(self, e):
        return f"({self(e.args[0])})", 10

    def op_vcat(self, e):                 # (u, v); a one-coordinate part (t) is shown as t
        return f"({', '.join(self(n) for n in vcat_parts(e))})", 10

    def op_tensor(self, e):
        a, P = e.args, self
        return (f"{P(a[0], 8)} \\otimes {P(a[1], 8)}" if self.tex else f"{P(a[0], 8)} (x) {P(a[1], 8)}"), 7

    def op_tpow(self, e):
        a, P = e.args, self
        base = P(a[0], 10)
        return (f"{base}^{{\\otimes {P(a[1])}}}" if self.tex else f"{base}^{{(x){P(a[1])}}}"), 9

    def op_npow(self, e):
        a, P = e.args, self
        base = P(a[0], 10)
        return (f"{base}^{{{P(a[1])}}}" if self.tex else f"{base}^{P(a[1], 10)}"), 9

    def op_sum(self, e):
        P = self
        i, lo, hi, body = e.args
        if self.tex:
            return rf"\sum_{{{P(i)}={P(lo)}}}^{{{P(hi)}}} {P(body, 7)}", 6
        return f"sum_{{{P(i)}={P(lo)}..{P(hi)}}} {P(body, 7)}", 6

    op_vsum = op_sum

    def _function(self, e):
        op, a, P = e.op, e.args, self
        x = P(a[0])
        if self.tex:
            return {"exp": rf"e^{{{x}}}", "sqrt": rf"\sqrt{{{x}}}", "lg": rf"\lg({x})",
                    "pow2": rf"2^{{{x}}}"}[op], 10
        return (f"2^{P(a[0], 10)}" if op == "pow2" else f"{op}({x})"), (9 if op == "pow2" else 10)

    op_exp = op_sqrt = op_lg = op_pow2 = _function

    def op_abs(self, e):
        x = self(e.args[0])
        return (rf"\left|{x}\right|" if self.tex else f"|{x}|"), 10

    def _max_min(self, e):
        op, a, P = e.op, e.args, self
        return (rf"\{op}({P(a[0])}, {P(a[1])})" if self.tex else f"{op}({P(a[0])}, {P(a[1])})"), 10

    op_max = op_min = _max_min

    def op_ite(self, e):
        P = self
        c, x, y = e.args
        if self.tex:
            return rf"\begin{{cases}} {P(x)} & {P(c)} \\ {P(y)} & \text{{otherwise}} \end{{cases}}", 10
        return f"({P(x)} if {P(c)} else {P(y)})", 10

    def _relation(self, e):
        r = _REL_TEX[e.op] if self.tex else _REL_TXT[e.op]
        return f"{self(e.args[0], 6)} {r} {self(e.args[1], 6)}", 5

    op_le = op_lt = op_ge = op_gt = op_eq = op_ne = _relation

    def op_not(self, e):
        return ((r"\neg " if self.tex else "not ") + self(e.args[0], 4)), 4

    def _junction(self, e):
        op = e.op
        j = {"and": (r" \wedge ", " and "), "or": (r" \vee ", " or ")}[op][0 if self.tex else 1]
        p = _PREC[op]
        return j.join(self(c, p + 1) for c in e.args), p

    op_and = op_or = _junction

    def _arrow(self, e):
        j = {"implies": (r" \Rightarrow ", " ==> "), "iff": (r" \Leftrightarrow ", " <=> ")}[e.op][0 if self.tex else 1]
        return f"{self(e.args[0], 2)}{j}{self(e.args[1], 1)}", 1

    op_implies = op_iff = _arrow

    def op_forall(self, e):
        T, a, P = self.tex, e.args, self
        b = _below(e)
        if b is not None:
            k, lo, hi, body = b
            zero = lo.op == "num" and lo.value == 0
            rng = (f"{P(k)} < {P(hi)}" if zero else f"{P(lo)} \\le {P(k)} < {P(hi)}") if T else \
                (f"{P(k)} < {P(hi)}" if zero else f"{P(lo)} <= {P(k)} < {P(hi)}")
            return ((rf"\forall {rng}:\ {P(body, 1)}") if T else f"for all {rng}: {P(body, 1)}"), 0
        vs = ", ".join(P(v) for v in a[:-1])
        return ((rf"\forall {vs}:\ {P(a[-1], 1)}") if T else f"for all {vs}: {P(a[-1], 1)}"), 0

    def product(self, factors) -> str:
        P, T = self, self.tex
        parts = []
        for f in factors:
            if f.op == "num" and f.value == -1 and not parts:
                parts.append("-")
                continue
            s = P(f, 8 if f.op == "dot" else 7)
            if f.op == "dot" and f.args[0] != f.args[1] and not s.startswith("("):
                s = f"({s})"
            parts.append(s)
        out = ""
        for p in parts:
            if not out or out == "-":
                out += p
            elif T:
                out += (r" \cdot " if (p[:1].isdigit() or p.startswith(r"\frac")) else " ") + p
            else:
                out += "*" + p
        return out


_TEXT, _TEX = TextPrinter(False), TextPrinter(True)


def text(e: Expr) -> str:
    """Plain text (ASCII), one line."""
    return _TEXT(e)


def latex(e: Expr) -> str:
    """LaTeX (math mode body)."""
    return _TEX(e)
