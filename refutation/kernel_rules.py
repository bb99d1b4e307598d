"""Derivation rules for min, max, indicators, piecewise and coordinate-wise kernels.

Two kinds, both named in every derivation that uses them:

* **cited theorems** (``CITED``): a kernel with an explicit feature map, stated with its source;
  the code checks that the expression has the theorem's form (sympy: the two sides are the same
  function u of x and of y, u >= 0 on the domain where required) and trusts the theorem —
  each is listed among the verdict's trusted rules;
* **identities** (``IDENTITIES``): rewrites that hold for all real numbers (|a - b| = a + b -
  2 min(a, b); max(ab, 0) = a+ b+ + a- b-; an increasing h commutes with min; ...), each checked
  once by cases in sympy by the test suite (tests/refutation/test_refutation_kernel_language.py); a
  monotone rewrite additionally needs its premise (the sign of an exponent or a factor, the
  sign of the arguments), which sympy's assumptions decide here.

The rule functions take the deriver (``d.derive(expr, depth)``) and return a :class:`Node`, or
None when the rule does not apply.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from refutation.kernel_terms import XX, XY, YY, CoordProd, CoordSum, kernel_display, side, swap
from refutation.signs import certified_sign

__all__ = ["Node", "CITED", "IDENTITIES", "split_factors", "one_sided", "min_rule", "max_rule",
           "piecewise_rule", "power_rule", "coordinate_rule", "arccos_rule", "abs_min_rewrite", "exp_of_mixed"]

CITED = {
    "brownian": ("brownian-motion: min(u(x), u(y)) is a kernel when u >= 0 — the covariance of Brownian "
                 "motion (the Wiener process): min(s, t) = integral over r >= 0 of 1[r <= s] 1[r <= t] dr, the "
                 "inner product of the features 1_[0, s] and 1_[0, t] in L^2[0, inf)"),
    "delta": ("equality-indicator: 1[u(x) = u(y)] is a kernel for any function u — the features are the "
              "unit vectors e_u(x) of l^2 (the white-noise / Kronecker delta kernel); the Gram matrix of any "
              "points is block-diagonal with all-ones blocks"),
    "box-overlap": ("box-overlap: max(0, c - |u(x) - u(y)|) is a kernel for c >= 0 and any real function u — "
                    "the triangular kernel is the autocorrelation of a box: max(0, c - |s - t|) = integral of "
                    "1[|r - s| <= c/2] 1[|r - t| <= c/2] dr, the inner product of the features "
                    "1_[s - c/2, s + c/2] and 1_[t - c/2, t + c/2] in L^2(R)"),
    "arc-cosine": ("arc-cosine: the arc-cosine kernels of Cho & Saul (Kernel Methods for Deep Learning, NIPS "
                   "2009), k_n(x, y) = 2 E_{w ~ N(0, I)}[relu(w.x)^n relu(w.y)^n] = |x|^n |y|^n J_n(theta) / pi "
                   "with J_0 = pi - theta and J_1 = sin(theta) + (pi - theta) cos(theta), theta the angle "
                   "between x and y"),
}
IDENTITIES = {
    "abs-min": "|a - b| = a + b - 2 min(a, b)",
    "monotone": "h(min(a, b)) = min(h(a), h(b)) for h increasing, h(max(a, b)) = min(h(a), h(b)) for h decreasing",
    "sign-split": "max(c a b, 0) = c (a+ b+ + a- b-) for c >= 0, with a+ = max(a, 0), a- = max(-a, 0)",
    "piecewise-minmax": "where(a >= b, a, b) = max(a, b) and where(a <= b, a, b) = min(a, b)",
    "exp-of-sum": "exp(c sum_i g_i) = prod_i exp(c g_i)",
}
RULE_TEXTS = {
    "brownian": "min(u(x), u(y)) with u >= 0 on the domain [CITED: brownian-motion]",
    "delta": "1[u(x) = u(y)] is legal [CITED: equality-indicator]",
    "box-overlap": "max(0, c - |u(x) - u(y)|) with c >= 0 is legal [CITED: box-overlap]",
    "arc-cosine": "the arc-cosine kernel J_n(theta) is legal [CITED: arc-cosine, Cho & Saul 2009]",
    "abs-min": "rewrite |u(x) - u(y)| = u(x) + u(y) - 2 min(u(x), u(y)) [identity]",
    "monotone": "rewrite h(min(...)) or h(max(...)) as a min, h monotone [identity]",
    "sign-split": "max(c f(x)f(y), 0) = c (f+(x)f+(y) + f-(x)f-(y)), a sum of two rank-one kernels [identity]",
    "piecewise-minmax": "a piecewise term choosing the larger (smaller) of a and b is max(a, b) (min(a, b)) [identity]",
    "exp-of-sum": "exp(c sum_i g(x_i, y_i)) = prod_i exp(c g(x_i, y_i)) [identity]",
    "coordinate-sum": "sum_i k(x_i, y_i) is legal when k is legal on the coordinates (sum rule; k composed with "
                      "the projection x -> x_i is a kernel)",
    "coordinate-product": "prod_i k(x_i, y_i) is legal when k is legal on the coordinates (product rule)",
}


@dataclass
class Node:
    rule: str
    expr: sp.Expr
    children: list = field(default_factory=list)
    note: str = ""


def _nonneg(u, strict=False) -> bool:
    """u >= 0 (> 0) on the whole domain: sympy's assumptions, or a certified sign for a constant."""
    if side(u) == "const":
        s = certified_sign(u)
        return s is not None and (s > 0 if strict else s >= 0)
    return bool(u.is_positive if strict else u.is_nonnegative)


def split_factors(e):
    """(constant, x-factors, y-factors, mixed factors) of a product."""
    const, xs, ys, mixed = [], [], [], []
    for f in sp.Mul.make_args(e):
        {"const": const, "x": xs, "y": ys, "mixed": mixed}[side(f)].append(f)
    return sp.Mul(*const), sp.Mul(*xs), sp.Mul(*ys), sp.Mul(*mixed)


def _same(a, b) -> bool:
    if a == b:
        return True
    try:
        return sp.simplify(a - b) == 0
    except Exception:  # noqa: BLE001 - sympy may fail; then not the same
        return False


def one_sided(d):
    """u with d = u(x) - u(y) (u(y) = u with x and y exchanged), or None."""
    d = sp.expand(d)
    xs = [t for t in sp.Add.make_args(d) if side(t) == "x"]
    rest = [t for t in sp.Add.make_args(d) if side(t) != "x"]
    u = sp.Add(*xs)
    if not xs or not _same(sp.Add(*rest), -swap(u)):
        return None
    return u


# ---------------------------------------------------------------------------------------------
# min, max
# ---------------------------------------------------------------------------------------------
def _min_pair(args):
    """u(x) with min(args) = min(u(x), u(y)), or None."""
    groups = {"const": [], "x": [], "y": [], "mixed": []}
    for a in args:
        groups[side(a)].append(a)
    if groups["mixed"] or not groups["x"]:
        return None
    if sorted(map(sp.srepr, (swap(a) for a in groups["x"]))) != sorted(map(sp.srepr, groups["y"])):
        return None
    return sp.Min(*groups["x"], *groups["const"])


def min_rule(d, e, depth):
    u = _min_pair(e.args)
    if u is not None and _nonneg(u):
        return Node("brownian", e, note=f"u(x) = {kernel_display(u)} >= 0 on the domain")
    return None


def max_rule(d, e, depth):
    args = list(e.args)
    if len(args) != 2 or 0 not in args:
        return None
    g = args[1] if args[0] == 0 else args[0]
    # sign-split: max(c f(x) f(y), 0)
    c, fx, fy, mixed = split_factors(g)
    if mixed == 1 and fx != 1 and _same(swap(fx), fy) and _nonneg(c):
        pos = c * (sp.Max(fx, 0) * sp.Max(fy, 0) + sp.Max(-fx, 0) * sp.Max(-fy, 0))
        kid = d.derive(pos, depth + 1)
        if kid is not None:
            return Node("sign-split", e, [kid], note=f"f(x) = {kernel_display(fx)}, c = {kernel_display(c)}")
    # box-overlap: max(0, c0 - k|D|), D = u(x) - u(y)
    terms = sp.Add.make_args(sp.expand(g))
    c0 = sp.Add(*[t for t in terms if side(t) == "const"])
    absparts = [t for t in terms if side(t) != "const"]
    if len(absparts) == 1:
        k, _, _, a = split_factors(absparts[0])
        if isinstance(a, sp.Abs) and _nonneg(-k, strict=True) and _nonneg(c0):
            u = one_sided(a.args[0])
            if u is not None:
                u = sp.expand(-k * u)
                return Node("box-overlap", e, note=f"c = {kernel_display(c0)}, u(x) = {kernel_display(u)}")
    return None


def power_rule(d, e, depth):
    """min(a, b)^p = min(a^p, b^p) for p > 0 and a, b >= 0; max(a, b)^p = min(a^p, b^p) for p < 0, a, b > 0."""
    b, p = e.args
    if not p.is_number or not p.is_real:
        return None
    if isinstance(b, sp.Min) and p > 0 and all(_nonneg(a) for a in b.args):
        alt, how = sp.Min(*[a ** p for a in b.args]), f"t^{kernel_display(p)} is increasing on [0, inf)"
    elif isinstance(b, sp.Max) and p < 0 and all(_nonneg(a, strict=True) for a in b.args):
        alt, how = sp.Min(*[a ** p for a in b.args]), f"t^{kernel_display(p)} is decreasing on (0, inf)"
    else:
        return None
    kid = d.derive(alt, depth + 1)
    return Node("monotone", e, [kid], note=how) if kid is not None else None


def exp_of_mixed(d, km, depth):
    """A node for exp(km) by an identity (monotone min, exp of a coordinate sum), or None."""
    c, _, _, core = split_factors(km)
    if side(c) != "const" or core == 1:
        return None
    if isinstance(core, (sp.Min, sp.Max)):
        inc = _nonneg(c, strict=True)
        if inc != isinstance(core, sp.Min) or not (inc or _nonneg(-c, strict=True)):
            return None
        alt = sp.Min(*[sp.exp(c * a) for a in core.args])
        kid = d.derive(alt, depth + 1)
        h = f"exp({kernel_display(c)} t) is {'increasing' if inc else 'decreasing'}"
        return Node("monotone", sp.exp(km), [kid], note=h) if kid is not None else None
    if isinstance(core, CoordSum):
        alt = CoordProd(sp.exp(c * core.args[0]))
        kid = d.derive(alt, depth + 1)
        return Node("exp-of-sum", sp.exp(km), [kid]) if kid is not None else None
    return None


def abs_min_rewrite(arg):
    """The exponent with every |u(x) - u(y)| written u(x) + u(y) - 2 min(u(x), u(y)); and the u's."""
    rep, us = {}, []
    for a in sp.preorder_traversal(arg):
        if isinstance(a, sp.Abs) and side(a) == "mixed":
            u = one_sided(a.args[0])
            if u is not None:
                rep[a] = u + swap(u) - 2 * sp.Min(u, swap(u))
                us.append(u)
    return (arg.xreplace(rep), us) if rep else (arg, [])


# ---------------------------------------------------------------------------------------------
# piecewise terms
# ---------------------------------------------------------------------------------------------
def _equality_map(cond):
    """A display of u when cond says u(x) = u(y), or None."""
    if not isinstance(cond, sp.Eq):
        return None
    D = sp.expand(cond.lhs - cond.rhs)
    while True:                      # D^p = 0 (p > 0), |D| = 0, sqrt(D) = 0  <=>  D = 0
        if isinstance(D, sp.Abs):
            D = D.args[0]
        elif D.is_Pow and D.exp.is_number and D.exp > 0:
            D = D.base
        else:
            break
    D = sp.expand(D)
    k = D.coeff(XY)
    if k != 0 and side(k) == "const" and sp.expand(D - k * (XY - (XX + YY) / 2)) == 0:
        return "x"                   # D = -2k' (|x|^2 - 2 x.y + |y|^2)/2: x = y
    u = one_sided(D)
    return kernel_display(u) if u is not None else None


def piecewise_rule(d, e, depth):
    pieces = list(e.args)
    if len(pieces) != 2 or pieces[1][1] != sp.true:
        return None
    (a, cond), (b, _) = pieces
    if isinstance(cond, sp.Ne):
        a, b, cond = b, a, sp.Eq(cond.lhs, cond.rhs)
    # where(a >= b, a, b) = max(a, b) ...
    if isinstance(cond, (sp.Gt, sp.Ge, sp.Lt, sp.Le)):
        big = isinstance(cond, (sp.Gt, sp.Ge))
        if _same(cond.lhs, a) and _same(cond.rhs, b):
            alt = sp.Max(a, b) if big else sp.Min(a, b)
        elif _same(cond.lhs, b) and _same(cond.rhs, a):
            alt = sp.Min(a, b) if big else sp.Max(a, b)
        else:
            return None
        kid = d.derive(alt, depth + 1)
        return Node("piecewise-minmax", e, [kid]) if kid is not None else None
    # 1[u(x) = u(y)], scaled and shifted: b + (a - b) 1[...]
    if side(a) != "const" or side(b) != "const" or not (_nonneg(b) and _nonneg(a - b)):
        return None
    u = _equality_map(cond)
    if u is None:
        return None
    ind = sp.Piecewise((1, cond), (0, True))
    node = Node("delta", ind, note=f"u(x) = {u}")
    if a - b != 1:
        node = Node("scale", (a - b) * ind, [node], note=f"c = {kernel_display(a - b)}")
    if b != 0:
        node = Node("sum", e, [node, Node("constant", b, note=f"{kernel_display(b)} >= 0")],
                    note=f"= {kernel_display(b)} + {kernel_display(a - b)}·1[...]")
    elif node.expr != e:
        node = Node(node.rule, e, node.children, node.note)
    return node


# ---------------------------------------------------------------------------------------------
# coordinate-wise terms, the arc-cosine kernels
# ---------------------------------------------------------------------------------------------
def coordinate_rule(d, e, depth):
    kid = d.derive(e.args[0], depth + 1)
    if kid is None:
        return None
    return Node("coordinate-sum" if isinstance(e, CoordSum) else "coordinate-product", e, [kid])


def _arccos_templates():
    c = XY / (sp.sqrt(XX) * sp.sqrt(YY))
    return [(0, sp.pi - sp.acos(c)), (1, sp.sqrt(1 - c ** 2) + (sp.pi - sp.acos(c)) * c)]


def arccos_rule(d, e, depth):
    """e = c f(x) f(y) J_n(theta) for a template J_n (sympy-simplified ratio)."""
    for n, J in _arccos_templates():
        try:
            r = sp.simplify(e / J)
        except Exception:  # noqa: BLE001
            continue
        c, fx, fy, mixed = split_factors(r)
        if mixed != 1 or not _same(swap(fx), fy) or not _nonneg(c):
            continue
        node = Node("arc-cosine", J, note=f"n = {n}, cos(theta) = dot(x, y)/(norm(x) norm(y))")
        if c != 1:
            node = Node("scale", c * J, [node], note=f"c = {kernel_display(c)}")
        if fx != 1:
            node = Node("f(x)f(y)K", fx * fy * c * J, [node], note=f"f(x) = {kernel_display(fx)}")
        return Node(node.rule, e, node.children, node.note)
    return None
