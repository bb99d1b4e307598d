"""Formula objects as MathML (presentation markup, MathML Core): the site's typeset mathematics is
printed from the very trees the kernel checked, by a printer that follows ``proofs.printers.render`` node
for node (the same precedences, the same reading of every operator), so that no formula is
retyped and a browser needs no script and no font from the network to show it.

``mathml(e)`` gives the inner markup; ``math(e, display=False)`` the ``<math>`` element.
"""
from __future__ import annotations

import re
from fractions import Fraction
from html import escape

from proofs.language.formula import Expr
from proofs.printers.printer import Printer, vcat_parts
from proofs.printers.render import _below, text

__all__ = ["mathml", "math", "atom", "MathMLPrinter"]

_PREC = {"implies": 1, "iff": 1, "forall": 0, "or": 2, "and": 3, "not": 4,
         "le": 5, "lt": 5, "ge": 5, "gt": 5, "eq": 5, "ne": 5,
         "add": 6, "sub": 6, "vadd": 6, "vsub": 6, "mul": 7, "smul": 7, "div": 7, "dot": 7, "neg": 8, "pow": 9,
         "tensor": 7, "npow": 9, "tpow": 9}
_REL = {"le": "\u2264", "lt": "&lt;", "ge": "\u2265", "gt": "&gt;", "eq": "=", "ne": "\u2260"}
_GREEK = {"alpha": "\u03b1", "beta": "\u03b2", "gamma": "\u03b3", "delta": "\u03b4", "epsilon": "\u03b5",
          "varepsilon": "\u03b5", "zeta": "\u03b6", "eta": "\u03b7", "theta": "\u03b8", "iota": "\u03b9",
          "kappa": "\u03ba", "lambda": "\u03bb", "mu": "\u03bc", "nu": "\u03bd", "xi": "\u03be", "pi": "\u03c0",
          "rho": "\u03c1", "sigma": "\u03c3", "tau": "\u03c4", "phi": "\u03c6", "varphi": "\u03c6", "chi": "\u03c7",
          "psi": "\u03c8", "omega": "\u03c9", "Gamma": "\u0393", "Delta": "\u0394", "Theta": "\u0398",
          "Lambda": "\u039b", "Sigma": "\u03a3", "Phi": "\u03a6", "Psi": "\u03a8", "Omega": "\u03a9", "ell": "\u2113"}
_ATOM = re.compile(r"^(\\[A-Za-z]+|[A-Za-z0-9]+)('*)(?:_(\{[^{}]*\}|[A-Za-z0-9*]))?(?:\^(\{[^{}]*\}|[A-Za-z0-9*]))?$")


def _mo(s: str) -> str:
    return f"<mo>{s}</mo>"


def _row(*parts: str) -> str:
    return "<mrow>" + "".join(parts) + "</mrow>"


def _paren(s: str) -> str:
    return _row(_mo("("), s, _mo(")"))


def _ident(s: str) -> str:
    if s.startswith("\\") and s[1:] in _GREEK:
        return f"<mi>{_GREEK[s[1:]]}</mi>"
    if s.isdigit():
        return f"<mn>{s}</mn>"
    return f"<mi>{escape(s)}</mi>"


def _script(s: str) -> str:
    s = s[1:-1] if s.startswith("{") else s
    if s == "*":
        return "<mo>*</mo>"
    parts = [p.strip() for p in s.split(",")]
    return _row(*[(_mo(",") if i else "") + _ident(p) for i, p in enumerate(parts)]) if len(parts) > 1 else _ident(s)


def atom(tex: str, fallback: str) -> str:
    """A variable's display name (its ``tex``: ``x``, ``\\gamma``, ``z_1``, ``w^*``, ``x'``) as MathML;
    a name outside that small language is shown as its text name."""
    m = _ATOM.match(tex or "")
    if not m:
        return f"<mi>{escape(fallback)}</mi>"
    base, primes, sub, sup = m.groups()
    b = _ident(base)
    if primes:
        sup = sup or ""
        b = f"<msup>{b}<mo>{chr(0x2032) * len(primes)}</mo></msup>" if not sup else b
    if sub and sup:
        return f"<msubsup>{b}{_script(sub)}{_script(sup)}</msubsup>"
    if sub:
        return f"<msub>{b}{_script(sub)}</msub>"
    if sup:
        return f"<msup>{b}{_script(sup)}</msup>"
    return b


def _frac(f: Fraction) -> str:
    if f.denominator == 1:
        return f"<mn>{abs(f.numerator)}</mn>" if f >= 0 else _row(_mo("\u2212"), f"<mn>{-f.numerator}</mn>")
    fr = f"<mfrac><mn>{abs(f.numerator)}</mn><mn>{f.denominator}</mn></mfrac>"
    return _row(_mo("\u2212"), fr) if f < 0 else fr


class MathMLPrinter(Printer):
    """MathML: every method returns (the markup, its binding strength), as ``proofs.printers.render``."""
    name = "MathML printer"
    error = ValueError

    def __call__(self, e: Expr, prec: int = 0) -> str:
        s, p = self.node(e)
        return _paren(s) if p < prec else s

    def op_var(self, e):
        return atom(e.tex, e.text), 10

    def op_num(self, e):
        return _frac(e.value), (10 if e.value >= 0 else 7)

    def op_call(self, e):
        a, P = e.args, self
        head = atom(e.tex, e.text)
        if len(a) == 1 and a[0].sort in ("Int", "Nat"):    # a sequence: w_k (z_1 at k: z_{1,k})
            m = _ATOM.match(e.tex or "")
            if m and m.group(3) and not m.group(2) and not m.group(4):
                return f"<msub>{_ident(m.group(1))}{_row(_script(m.group(3)), _mo(','), P(a[0]))}</msub>", 10
            if head.startswith(("<msub>", "<msup>", "<msubsup>")):
                return _row(head, _paren(P(a[0]))), 10
            return f"<msub>{head}{P(a[0])}</msub>", 10
        inner = _mo(",").join(P(x) for x in a)
        return _row(head, _mo("("), inner, _mo(")")), 10

    def op_to_real(self, e):
        return self.node(e.args[0])

    def op_true(self, e):
        return _mo("\u22a4"), 10

    def op_false(self, e):
        return _mo("\u22a5"), 10

    def op_vzero(self, e):
        return '<mi mathvariant="bold">0</mi>', 10

    def op_add(self, e):
        a, P = e.args, self
        out = [P(a[0], 6)]
        for c in a[1:]:
            if c.op == "neg":
                out += [_mo("\u2212"), P(c.args[0], 7)]
            elif c.op == "num" and c.value < 0:
                out += [_mo("\u2212"), P(Expr("num", value=-c.value, sort=c.sort), 7)]
            elif c.op == "mul" and (c.args[0].op == "neg" or (c.args[0].op == "num" and c.args[0].value < 0)):
                f0 = c.args[0]
                pos = f0.args[0] if f0.op == "neg" else Expr("num", value=-f0.value, sort=f0.sort)
                rest = c.args[1:] if pos.op == "num" and pos.value == 1 else (pos,) + c.args[1:]
                out += [_mo("\u2212"), self.product(rest) if len(rest) > 1 else P(rest[0], 7)]
            else:
                out += [_mo("+"), P(c, 6)]
        return _row(*out), 6

    op_vadd = op_add

    def op_sub(self, e):
        return _row(self(e.args[0], 6), _mo("\u2212"), self(e.args[1], 7)), 6

    op_vsub = op_sub

    def op_neg(self, e):
        return _row(_mo("\u2212"), self(e.args[0], 8)), 8

    def op_mul(self, e):
        return self.product(e.args), 7

    op_smul = op_mul

    def op_div(self, e):
        return f"<mfrac>{self(e.args[0])}{self(e.args[1])}</mfrac>", 10

    def op_pow(self, e):
        return f"<msup>{self(e.args[0], 10)}{self(e.args[1])}</msup>", 9

    op_npow = op_pow

    def op_dot(self, e):
        a, P = e.args, self
        if a[0] == a[1]:
            return f"<msup>{_row(_mo(chr(0x2016)), P(a[0]), _mo(chr(0x2016)))}<mn>2</mn></msup>", 9
        return _row(P(a[0], 8), _mo("\u22c5"), P(a[1], 8)), 7

    def op_vec1(self, e):
        return _paren(self(e.args[0])), 10

    def op_vcat(self, e):
        return _paren(_mo(",").join(self(n) for n in vcat_parts(e))), 10

    def op_tensor(self, e):
        return _row(self(e.args[0], 8), _mo("\u2297"), self(e.args[1], 8)), 7

    def op_tpow(self, e):
        return f"<msup>{self(e.args[0], 10)}{_row(_mo(chr(0x2297)), self(e.args[1]))}</msup>", 9

    def op_sum(self, e):
        P = self
        i, lo, hi, body = e.args
        big = f"<munderover><mo>\u2211</mo>{_row(P(i), _mo('='), P(lo))}{P(hi)}</munderover>"
        return _row(big, P(body, 7)), 6

    op_vsum = op_sum

    def op_exp(self, e):
        return f"<msup><mi>e</mi>{self(e.args[0])}</msup>", 10

    def op_sqrt(self, e):
        return f"<msqrt>{self(e.args[0])}</msqrt>", 10

    def op_pow2(self, e):
        return f"<msup><mn>2</mn>{self(e.args[0])}</msup>", 10

    def op_lg(self, e):
        return _row("<mi>lg</mi>", _paren(self(e.args[0]))), 10

    def op_abs(self, e):
        return _row(_mo("|"), self(e.args[0]), _mo("|")), 10

    def _max_min(self, e):
        a, P = e.args, self
        return _row(f"<mi>{e.op}</mi>", _mo("("), P(a[0]), _mo(","), P(a[1]), _mo(")")), 10

    op_max = op_min = _max_min

    def op_ite(self, e):
        P = self
        c, x, y = e.args
        tab = (f"<mtable><mtr><mtd>{P(x)}</mtd><mtd><mtext>if\u00a0</mtext>{P(c)}</mtd></mtr>"
               f"<mtr><mtd>{P(y)}</mtd><mtd><mtext>otherwise</mtext></mtd></mtr></mtable>")
        return _row('<mo stretchy="true">{</mo>', tab), 10

    def _relation(self, e):
        return _row(self(e.args[0], 6), _mo(_REL[e.op]), self(e.args[1], 6)), 5

    op_le = op_lt = op_ge = op_gt = op_eq = op_ne = _relation

    def op_not(self, e):
        return _row(_mo("\u00ac"), self(e.args[0], 4)), 4

    def _junction(self, e):
        j = _mo("\u2227" if e.op == "and" else "\u2228")
        p = _PREC[e.op]
        return _row(j.join(self(c, p + 1) for c in e.args)), p

    op_and = op_or = _junction

    def _arrow(self, e):
        j = _mo("\u21d2" if e.op == "implies" else "\u21d4")
        return _row(self(e.args[0], 2), j, self(e.args[1], 1)), 1

    op_implies = op_iff = _arrow

    def op_forall(self, e):
        a, P = e.args, self
        b = _below(e)
        if b is not None:
            k, lo, hi, body = b
            zero = lo.op == "num" and lo.value == 0
            rng = _row(P(k), _mo("&lt;"), P(hi)) if zero else _row(P(lo), _mo("\u2264"), P(k), _mo("&lt;"), P(hi))
            return _row(_mo("\u2200"), rng, _mo(":"), P(body, 1)), 0
        vs = _mo(",").join(P(v) for v in a[:-1])
        return _row(_mo("\u2200"), vs, _mo(":"), P(a[-1], 1)), 0

    def product(self, factors) -> str:
        parts = []
        for f in factors:
            if f.op == "num" and f.value == -1 and not parts:
                parts.append(None)
                continue
            s = self(f, 8 if f.op == "dot" else 7)
            if f.op == "dot" and f.args[0] != f.args[1] and not s.startswith("<mrow><mo>(</mo>"):
                s = _paren(s)
            parts.append((f, s))
        out = []
        for i, p in enumerate(parts):
            if p is None:
                out.append(_mo("\u2212"))
                continue
            f, s = p
            if out and out != [_mo("\u2212")]:
                lead_num = (f.op == "num") or (f.op in ("mul", "pow") and f.args and f.args[0].op == "num")
                out.append(_mo("\u22c5") if lead_num or f.op == "div" else _mo("&#x2062;"))
            out.append(s)
        return _row(*out)


_P = MathMLPrinter()


def mathml(e: Expr) -> str:
    """The inner MathML markup of a formula (no ``<math>`` element)."""
    return _P(e)


def math(e: Expr, display: bool = False) -> str:
    """``<math>`` element with the formula; its plain-text reading (``proofs.printers.render.text``) is the
    ``alttext`` and the title, so a reader can copy it."""
    t = escape(text(e), quote=True)
    d = ' display="block"' if display else ""
    return f'<math{d} alttext="{t}">{mathml(e)}</math>'
