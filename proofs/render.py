"""Formula objects as text and LaTeX: what ``verify``, ``docs/catalogue.md`` and the LaTeX export
show for every statement and step is printed here from the very trees that were checked.

Conventions: ``u.x`` is an inner product (``u \\cdot x``), ``|w|^2`` is ``dot(w, w)``, ``w(k)`` a
sequence (``w_k``), ``for all k < M: ...`` the per-step hypotheses; ``to_real`` is invisible.
Feature-space vectors: ``(u, v)`` a concatenation, ``(t)`` a one-coordinate vector, ``u (x) v`` a
tensor product (``u \\otimes v``), ``v^{(x)k}`` a tensor power (``v^{\\otimes k}``).
"""
from __future__ import annotations

from fractions import Fraction

from .formula import Expr

__all__ = ["text", "latex"]

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


class _Printer:
    def __init__(self, tex: bool):
        self.tex = tex

    def __call__(self, e: Expr, prec: int = 0) -> str:
        s, p = self.node(e)
        return f"({s})" if p < prec else s

    def node(self, e: Expr) -> tuple[str, int]:  # noqa: C901 - one case per node kind
        T, op, a = self.tex, e.op, e.args
        P = self
        if op == "var":
            return (e.tex if T else e.text), 10
        if op == "num":
            s = _frac_tex(e.value) if T else _frac_text(e.value)
            return s, (10 if e.value >= 0 and (e.value.denominator == 1 or T) else 7)
        if op == "call":
            if T and len(a) == 1 and a[0].sort in ("Int", "Nat"):      # a sequence: w_k
                return f"{e.tex}_{{{P(a[0])}}}", 10
            inner = ", ".join(P(x) for x in a)
            return (f"{e.tex}({inner})" if T else f"{e.text}({inner})"), 10
        if op == "to_real":
            return P.node(a[0])
        if op == "true":
            return (r"\top" if T else "true"), 10
        if op == "false":
            return (r"\bot" if T else "false"), 10
        if op == "vzero":
            return (r"\mathbf{0}" if T else "0"), 10
        if op in ("add", "vadd"):
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
        if op in ("sub", "vsub"):
            return f"{P(a[0], 6)} - {P(a[1], 7)}", 6
        if op == "neg":
            return "-" + P(a[0], 8), 8
        if op == "mul":
            return self.product(a), 7
        if op == "smul":
            return self.product(a), 7
        if op == "div":
            if T:
                return rf"\frac{{{P(a[0])}}}{{{P(a[1])}}}", 10
            return f"{P(a[0], 7)}/{P(a[1], 8)}", 7
        if op == "pow":
            base = P(a[0], 10)
            return (f"{base}^{{{P(a[1])}}}" if T else f"{base}^{P(a[1])}"), 9
        if op == "dot":
            if a[0] == a[1]:
                inner = P(a[0], 10)
                return ((rf"\|{P(a[0])}\|^2" if T else f"|{P(a[0])}|^2"), 9) if inner else ("", 9)
            return (f"{P(a[0], 8)} \\cdot {P(a[1], 8)}" if T else f"{P(a[0], 8)}.{P(a[1], 8)}"), 7
        if op == "vec1":
            return f"({P(a[0])})", 10
        if op == "vcat":                  # (u, v); a one-coordinate part (t) is shown as t
            parts, stack = [], [e]
            while stack:
                n = stack.pop()
                if n.op == "vcat":
                    stack.extend(reversed(n.args))
                else:
                    parts.append(P(n.args[0]) if n.op == "vec1" else P(n))
            return f"({', '.join(parts)})", 10
        if op == "tensor":
            return (f"{P(a[0], 8)} \\otimes {P(a[1], 8)}" if T else f"{P(a[0], 8)} (x) {P(a[1], 8)}"), 7
        if op == "tpow":
            base = P(a[0], 10)
            return (f"{base}^{{\\otimes {P(a[1])}}}" if T else f"{base}^{{(x){P(a[1])}}}"), 9
        if op == "npow":
            base = P(a[0], 10)
            return (f"{base}^{{{P(a[1])}}}" if T else f"{base}^{P(a[1], 10)}"), 9
        if op in ("sum", "vsum"):
            i, lo, hi, body = a
            if T:
                return rf"\sum_{{{P(i)}={P(lo)}}}^{{{P(hi)}}} {P(body, 7)}", 6
            return f"sum_{{{P(i)}={P(lo)}..{P(hi)}}} {P(body, 7)}", 6
        if op in ("exp", "sqrt", "lg", "pow2"):
            x = P(a[0])
            if T:
                return {"exp": rf"e^{{{x}}}", "sqrt": rf"\sqrt{{{x}}}", "lg": rf"\lg({x})",
                        "pow2": rf"2^{{{x}}}"}[op], 10
            return (f"2^{P(a[0], 10)}" if op == "pow2" else f"{op}({x})"), (9 if op == "pow2" else 10)
        if op == "abs":
            return (rf"\left|{P(a[0])}\right|" if T else f"|{P(a[0])}|"), 10
        if op in ("max", "min"):
            return (rf"\{op}({P(a[0])}, {P(a[1])})" if T else f"{op}({P(a[0])}, {P(a[1])})"), 10
        if op == "ite":
            c, x, y = a
            if T:
                return rf"\begin{{cases}} {P(x)} & {P(c)} \\ {P(y)} & \text{{otherwise}} \end{{cases}}", 10
            return f"({P(x)} if {P(c)} else {P(y)})", 10
        if op in _REL_TXT:
            r = _REL_TEX[op] if T else _REL_TXT[op]
            return f"{P(a[0], 6)} {r} {P(a[1], 6)}", 5
        if op == "not":
            return ((r"\neg " if T else "not ") + P(a[0], 4)), 4
        if op in ("and", "or"):
            j = {"and": (r" \wedge ", " and "), "or": (r" \vee ", " or ")}[op][0 if T else 1]
            p = _PREC[op]
            return j.join(P(c, p + 1) for c in a), p
        if op in ("implies", "iff"):
            j = {"implies": (r" \Rightarrow ", " ==> "), "iff": (r" \Leftrightarrow ", " <=> ")}[op][0 if T else 1]
            return f"{P(a[0], 2)}{j}{P(a[1], 1)}", 1
        if op == "forall":
            b = _below(e)
            if b is not None:
                k, lo, hi, body = b
                zero = lo.op == "num" and lo.value == 0
                rng = (f"{P(k)} < {P(hi)}" if zero else f"{P(lo)} \\le {P(k)} < {P(hi)}") if T else \
                    (f"{P(k)} < {P(hi)}" if zero else f"{P(lo)} <= {P(k)} < {P(hi)}")
                return ((rf"\forall {rng}:\ {P(body, 1)}") if T else f"for all {rng}: {P(body, 1)}"), 0
            vs = ", ".join(P(v) for v in a[:-1])
            return ((rf"\forall {vs}:\ {P(a[-1], 1)}") if T else f"for all {vs}: {P(a[-1], 1)}"), 0
        raise ValueError(f"no printer for {op}")

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


_TEXT, _TEX = _Printer(False), _Printer(True)


def text(e: Expr) -> str:
    """Plain text (ASCII), one line."""
    return _TEXT(e)


def latex(e: Expr) -> str:
    """LaTeX (math mode body)."""
    return _TEX(e)
