"""**legal**: a derivation of ``K(x, y)`` by the closure rules (Lin's slides, the catalogue's kernel
family): base kernels (x·y, constants c >= 0), cK (c >= 0), K1 + K2, K1·K2, K^k, polynomials with
nonnegative coefficients in x·y, f(x)f(y)K, and exp / sinh / cosh of a legal kernel (the named
trusted rule ``power-series-limit``); and for min, max, indicators, piecewise and coordinate-wise
terms the cited theorems and identities of :mod:`refutation.kernel_rules`.  Every algebraic step
is re-checked by sympy; a rewrite is used only when sympy confirms it equals the original."""
from __future__ import annotations

import time

import sympy as sp

from refutation.kernel_rules import (CITED, RULE_TEXTS, Node as _Node, abs_min_rewrite, arccos_rule, coordinate_rule,
                           exp_of_mixed, max_rule, min_rule, piecewise_rule, power_rule, split_factors)
from refutation.kernel_terms import KERNEL_SYMBOLS, XX, XY, CoordProd, CoordSum, kernel_display, side, swap
from refutation.signs import certified_sign

__all__ = ["RULES", "TRUSTED_RULES", "TRUSTED_POWER_SERIES", "kernel_display", "derive", "flatten", "trusted_texts"]

TRUSTED_POWER_SERIES = (
    "power-series-limit: if K is legal then so are exp(K), sinh(K), cosh(K) — each is the pointwise "
    "limit of polynomials in K with nonnegative coefficients (legal by the sum, product and cK rules), "
    "and a pointwise limit of PSD Gram matrices is PSD (the PSD cone is closed)")

RULES = {
    "linear": "base kernel: x·y (feature map phi(x) = x)",
    "constant": "base kernel: a constant c >= 0 (phi(x) = sqrt(c))",
    "scale": "cK is legal for a constant c >= 0",
    "sum": "K1 + K2 is legal",
    "product": "K1·K2 is legal",
    "power": "K^k (k a positive integer) is legal: the product rule k - 1 times",
    "polynomial": "a polynomial with nonnegative coefficients in a legal kernel is legal (sum, product, cK)",
    "f(x)f(y)K": "f(x)·f(y)·K is legal for any real function f",
    "rank-one": "f(x)·f(y) is legal (phi(x) = f(x))",
    "exp": "exp(K) is legal for a legal K [TRUSTED: power-series-limit]",
    "sinh": "sinh(K) is legal for a legal K [TRUSTED: power-series-limit]",
    "cosh": "cosh(K) is legal for a legal K [TRUSTED: power-series-limit]",
    "exp-split": "exp(c0 + g(x) + g(y) + K') = e^c0 · f(x)f(y) · exp(K') with f = exp(g) (sympy-checked identity)",
    **RULE_TEXTS,
}
# trusted rule -> the text every verdict that uses it lists
_TRUSTED = {"exp": TRUSTED_POWER_SERIES, "sinh": TRUSTED_POWER_SERIES, "cosh": TRUSTED_POWER_SERIES, **CITED}
TRUSTED_RULES = set(_TRUSTED)
_BRANCHY = (sp.Min, sp.Max, sp.Piecewise, sp.Abs, CoordSum, CoordProd, sp.acos)


def trusted_texts(steps) -> list:
    """The trusted rules a flattened derivation uses, each once, in order of first use."""
    out = []
    for s in steps:
        t = _TRUSTED.get(s["rule"])
        if t is not None and t not in out:
            out.append(t)
    return out


class _Deriver:
    def __init__(self, deadline: float):
        self.deadline = deadline
        self.memo: dict = {}
        self.tried: set = set()

    def derive(self, e, depth=0):
        e = sp.sympify(e)
        if e in self.memo:
            return self.memo[e]
        if depth > 30 or time.monotonic() > self.deadline:
            return None
        if e in self.tried:      # guard against loops through expand/factor
            return None
        self.tried.add(e)
        n = self._derive(e, depth)
        self.tried.discard(e)
        if n is not None:
            self.memo[e] = n
        return n

    def _derive(self, e, depth):  # noqa: C901
        where = side(e)
        if where == "const":
            if e.has(sp.I):
                return None
            s = certified_sign(e)
            if s is not None and s >= 0:
                return _Node("constant", e, note=f"{kernel_display(e)} >= 0"
                             + ("" if e.is_Rational else " (certified by interval arithmetic)"))
            return None
        if e == XY:
            return _Node("linear", e)
        if where in ("x", "y"):
            return None      # depends on one argument only: not symmetric
        if e.has(sp.acos):
            n = arccos_rule(self, e, depth)
            if n is not None:
                return n
        for kind, rule in ((sp.Min, min_rule), (sp.Max, max_rule), (sp.Piecewise, piecewise_rule),
                           ((CoordSum, CoordProd), coordinate_rule)):
            if isinstance(e, kind):
                n = rule(self, e, depth)
                if n is not None:
                    return n
        if e.is_Mul:
            n = self._mul(e, depth)
            if n is not None:
                return n
        if e.is_Add:
            n = self._polynomial(e)
            if n is not None:
                return n
            kids = [self.derive(t, depth + 1) for t in e.args]
            if all(k is not None for k in kids):
                return _Node("sum", e, kids)
        if e.is_Pow:
            b, k = e.args
            if k.is_Integer and k > 0:
                kb = self.derive(b, depth + 1)
                if kb is not None:
                    return _Node("power", e, [kb], note=f"k = {k}")
            n = power_rule(self, e, depth)
            if n is not None:
                return n
        if isinstance(e, sp.exp):
            n = self._exp(e, depth)
            if n is not None:
                return n
        if isinstance(e, (sp.sinh, sp.cosh)):
            ka = self.derive(e.args[0], depth + 1)
            if ka is not None:
                return _Node(type(e).__name__, e, [ka])
        # other forms of the same function
        for alt in self._alternatives(e):
            n = self.derive(alt, depth + 1)
            if n is not None:
                if sp.expand(alt - e) != 0 and sp.simplify(alt - e) != 0:
                    continue     # never trust a rewrite sympy cannot confirm
                return n if n.expr == e else _Node(n.rule, e, n.children,
                                                   (n.note + "; " if n.note else "") + f"written as {kernel_display(alt)}")
        return None

    def _alternatives(self, e):
        out = []
        if time.monotonic() > self.deadline or _expansion_size(e) > 3000:
            return out
        try:
            ex = sp.expand(e)
            if ex != e:
                out.append(ex)
            if e.has(*_BRANCHY):
                return out       # factor/powsimp of min, max, piecewise terms: slow and never needed
            if (e.is_Add or e.is_Mul) and sp.count_ops(ex) <= 400 and time.monotonic() < self.deadline:
                fa = sp.factor(e)
                if fa != e and fa not in out:
                    out.append(fa)
            pe = sp.powsimp(sp.powdenest(e, force=False))
            if pe != e and pe not in out:
                out.append(pe)
        except Exception:  # noqa: BLE001
            pass
        return out

    def _polynomial(self, e):
        if e.free_symbols & KERNEL_SYMBOLS != {XY}:
            return None
        try:
            p = sp.Poly(e, XY)
        except sp.PolynomialError:
            return None
        coeffs = p.all_coeffs()
        if any(c.free_symbols for c in coeffs):
            return None
        signs = [certified_sign(c) for c in coeffs]
        if all(s is not None and s >= 0 for s in signs) and p.degree() >= 1:
            return _Node("polynomial", e, [_Node("linear", XY)],
                         note="p(t) = " + sp.sstr(p.as_expr().subs(XY, sp.Symbol("t")))
                         + " has nonnegative coefficients, applied to t = dot(x, y)")
        return None

    def _mul(self, e, depth):
        c, fx, fy, rest = split_factors(e)
        if fx != 1 or fy != 1:
            try:
                same = swap(fx) == fy or sp.simplify(swap(fx) - fy) == 0
            except Exception:  # noqa: BLE001
                same = False
            if not same:
                return None
            inner = c * rest
            kin = self.derive(inner, depth + 1)
            if kin is None:
                return None
            f_txt = kernel_display(fx)
            if side(inner) != "const":
                return _Node("f(x)f(y)K", e, [kin], note=f"f(x) = {f_txt}")
            return _Node("f(x)f(y)K", e, [kin], note=f"f(x) = {f_txt}, K = the constant {kernel_display(inner)}")
        if c != 1:
            kr = self.derive(rest, depth + 1)
            s = certified_sign(c)
            if kr is not None and s is not None and s >= 0:
                return _Node("scale", e, [kr], note=f"c = {kernel_display(c)}")
            return None
        mixed = sp.Mul.make_args(rest)
        if len(mixed) >= 2:
            kids = [self.derive(f, depth + 1) for f in mixed]
            if all(k is not None for k in kids):
                return _Node("product", e, kids)
        return None

    def _exp(self, e, depth):
        arg, us = abs_min_rewrite(sp.expand(e.args[0]))
        if us:
            kid = self.derive(sp.exp(arg), depth + 1)
            if kid is None:
                return None
            return _Node("abs-min", e, [kid], note=", ".join(f"u(x) = {kernel_display(u)}" for u in us))
        arg = sp.expand(arg)
        parts = {"const": [], "x": [], "y": [], "mixed": []}
        for term in sp.Add.make_args(arg):
            parts[side(term)].append(term)
        c0, gx, gy, km = (sp.Add(*parts[k]) for k in ("const", "x", "y", "mixed"))
        if c0 == 0 and gx == 0 and gy == 0:
            return self._exp_of(e.args[0], depth)
        if not c0.is_real:
            return None
        if sp.simplify(swap(gx) - gy) != 0:
            return None
        # identity check: exp(arg) == exp(c0) exp(gx) exp(gy) exp(km)
        if sp.expand(c0 + gx + gy + km - arg) != 0:
            return None
        if km == 0:
            inner_node = _Node("constant", sp.exp(c0), note=f"exp({kernel_display(c0)}) > 0")
        else:
            inner_node = self._exp_of(km, depth)
            if inner_node is None:
                return None
            if c0 != 0:
                inner_node = _Node("scale", sp.exp(c0) * sp.exp(km), [inner_node],
                                   note=f"c = exp({kernel_display(c0)}) > 0")
        if gx == 0:
            return _Node("exp-split", e, [inner_node], note=f"c0 = {kernel_display(c0)}, no f")
        gauss = ""
        cc = sp.Wild("cc", exclude=[XX, XY])
        m = gx.match(-cc * XX)
        if m and sp.expand(km - 2 * m[cc] * XY) == 0 and c0 == 0:
            gauss = f" — the Gaussian kernel exp(-c|x - y|^2) with c = {m[cc]} (Lin's slides)"
        return _Node("exp-split", e, [inner_node],
                     note=f"f(x) = exp({kernel_display(gx)})" + (f", c0 = {kernel_display(c0)}" if c0 != 0 else "") + gauss)

    def _exp_of(self, km, depth):
        """A node for exp(km), km depending on both arguments."""
        n = exp_of_mixed(self, km, depth)
        if n is not None:
            return n
        kk = self.derive(km, depth + 1)
        return _Node("exp", sp.exp(km), [kk]) if kk is not None else None


def _expansion_size(e) -> int:
    """A cheap upper estimate of the number of terms sympy.expand(e) produces."""
    from math import comb
    if e.is_Pow and e.exp.is_Integer and e.exp > 0:
        t = _expansion_size(e.base)
        return comb(int(e.exp) + t - 1, t - 1) if t > 1 else 1
    if e.is_Add:
        return sum(_expansion_size(a) for a in e.args)
    if e.is_Mul:
        out = 1
        for a in e.args:
            out *= _expansion_size(a)
        return out
    return 1


def flatten(root: _Node):
    steps, index = [], {}

    def visit(n):
        key = (n.rule, n.expr, n.note)
        if key in index:
            return index[key]
        prem = [visit(c) for c in n.children]
        steps.append({"step": len(steps) + 1, "kernel": kernel_display(n.expr), "rule": n.rule,
                      "rule_text": RULES[n.rule], "from": prem, "note": n.note,
                      "trusted": n.rule in TRUSTED_RULES})
        index[key] = len(steps)
        return len(steps)
    visit(root)
    return steps


def derive(e, deadline: float):
    """The derivation tree of ``e`` by the closure rules, or None (within ``deadline``)."""
    return _Deriver(deadline=deadline).derive(e)
