"""Is ``K(x, y)`` a legal kernel (positive semidefinite on every finite set of points)?

Three answers, each with its evidence:

* **legal** — a derivation by the closure rules (Lin's slides, the catalogue's kernel family):
  base kernels (the linear kernel x·y, constants c >= 0), cK (c >= 0), K1 + K2, K1·K2, K^k,
  polynomials with nonnegative coefficients in x·y, f(x)f(y)K, and exp / sinh / cosh of a legal
  kernel.  The last is the one step no algebra can check — exp is a *limit* of polynomials with
  nonnegative coefficients and the PSD cone is closed — so it is the **named trusted rule**
  ``power-series-limit`` and every derivation that uses it says so.  Every algebraic step
  (a factorisation f(x)f(y)K, the split of an exponent) is re-checked by sympy.
* **illegal** — a small set of points with exact rational coordinates and a rational vector v
  with v^T G v < 0 for their Gram matrix G (so G has a negative eigenvalue).  The sign is
  certified exactly: by rational arithmetic when the entries are rational, otherwise by interval
  arithmetic with outward rounding (``mpmath.iv``, named in the certificate) — never by floats.
  The search itself uses floats; only the certificate counts.
* **unknown** — neither; the verdict says what was tried.

The kernel is parsed by :mod:`refutation.expr_parse` into a function of |x|^2, x·y and |y|^2.
"""
from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import sympy as sp

from learners.errors import InputError
from learners.numbers import fraction_str

from .expr_parse import XX, XY, YY, NotCertifiable, certified_sign, interval, parse_kernel

__all__ = ["KernelVerdict", "check_kernel", "TRUSTED_POWER_SERIES", "TRUSTED_INTERVALS",
           "kernel_display", "gram_exact", "evaluate_kernel_exact"]

TRUSTED_POWER_SERIES = (
    "power-series-limit: if K is legal then so are exp(K), sinh(K), cosh(K) — each is the pointwise "
    "limit of polynomials in K with nonnegative coefficients (legal by the sum, product and cK rules), "
    "and a pointwise limit of PSD Gram matrices is PSD (the PSD cone is closed)")
TRUSTED_INTERVALS = (
    "interval-arithmetic: mpmath's iv context encloses exp/log/sqrt/sin/cos/tan with outward rounding; "
    "a quadratic form whose enclosure lies below 0 is negative")

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
}
TRUSTED_RULES = {"exp", "sinh", "cosh"}


def kernel_display(e) -> str:
    """Print a kernel in the input syntax (dot/norm), re-parseable by :func:`parse_kernel`."""
    s = sp.sstr(sp.sympify(e))
    s = re.sub(r"sqrt\(xx\)", "norm(x)", s)
    s = re.sub(r"sqrt\(yy\)", "norm(y)", s)
    s = re.sub(r"\bxx\b", "dot(x, x)", s)
    s = re.sub(r"\byy\b", "dot(y, y)", s)
    s = re.sub(r"\bxy\b", "dot(x, y)", s)
    return s


def _one_side(e, sym) -> str:
    """Display a function of |x|^2 (sym = XX) as a function of x."""
    return kernel_display(e)


# --------------------------------------------------------------------------------------------
# Derivations
# --------------------------------------------------------------------------------------------
@dataclass
class _Node:
    rule: str
    expr: sp.Expr
    children: list = field(default_factory=list)
    note: str = ""


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
        syms = e.free_symbols & {XX, XY, YY}
        if not syms:
            if e.has(sp.I):
                return None
            s = certified_sign(e)
            if s is not None and s >= 0:
                return _Node("constant", e, note=f"{kernel_display(e)} >= 0"
                             + ("" if e.is_Rational else " (certified by interval arithmetic)"))
            return None
        if e == XY:
            return _Node("linear", e)
        if syms <= {XX} or syms <= {YY}:
            return None      # depends on one argument only: not symmetric
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
        if e.free_symbols & {XX, XY, YY} != {XY}:
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
        const, xs, ys, mixed = [], [], [], []
        for f in sp.Mul.make_args(e):
            s = f.free_symbols & {XX, XY, YY}
            if not s:
                const.append(f)
            elif s <= {XX}:
                xs.append(f)
            elif s <= {YY}:
                ys.append(f)
            else:
                mixed.append(f)
        c = sp.Mul(*const)
        fx, fy = sp.Mul(*xs), sp.Mul(*ys)
        rest = sp.Mul(*mixed)
        if xs or ys:
            t = sp.Symbol("t", nonnegative=True)
            try:
                same = sp.simplify(fx.subs(XX, t) - fy.subs(YY, t)) == 0
            except Exception:  # noqa: BLE001
                same = False
            if not same:
                return None
            inner = c * rest
            kin = self.derive(inner, depth + 1)
            if kin is None:
                return None
            f_txt = kernel_display(fx)
            if inner.free_symbols & {XX, XY, YY}:
                return _Node("f(x)f(y)K", e, [kin], note=f"f(x) = {f_txt}")
            return _Node("f(x)f(y)K", e, [kin], note=f"f(x) = {f_txt}, K = the constant {kernel_display(inner)}")
        if c != 1:
            kr = self.derive(rest, depth + 1)
            s = certified_sign(c)
            if kr is not None and s is not None and s >= 0:
                return _Node("scale", e, [kr], note=f"c = {kernel_display(c)}")
            return None
        if len(mixed) >= 2:
            kids = [self.derive(f, depth + 1) for f in mixed]
            if all(k is not None for k in kids):
                return _Node("product", e, kids)
        return None

    def _exp(self, e, depth):
        arg = sp.expand(e.args[0])
        c0, gx, gy, mixed = [], [], [], []
        for term in sp.Add.make_args(arg):
            s = term.free_symbols & {XX, XY, YY}
            if not s:
                c0.append(term)
            elif s <= {XX}:
                gx.append(term)
            elif s <= {YY}:
                gy.append(term)
            else:
                mixed.append(term)
        c0, gx, gy, km = sp.Add(*c0), sp.Add(*gx), sp.Add(*gy), sp.Add(*mixed)
        if c0 == 0 and gx == 0 and gy == 0:
            ka = self.derive(e.args[0], depth + 1)
            return _Node("exp", e, [ka]) if ka is not None else None
        if not c0.is_real:
            return None
        t = sp.Symbol("t", nonnegative=True)
        if sp.simplify(gx.subs(XX, t) - gy.subs(YY, t)) != 0:
            return None
        # identity check: exp(arg) == exp(c0) exp(gx) exp(gy) exp(km)
        if sp.expand(c0 + gx + gy + km - arg) != 0:
            return None
        if km == 0:
            inner_node = _Node("constant", sp.exp(c0), note=f"exp({kernel_display(c0)}) > 0")
        else:
            kk = self.derive(km, depth + 1)
            if kk is None:
                return None
            inner_node = _Node("exp", sp.exp(km), [kk])
            if c0 != 0:
                inner_node = _Node("scale", sp.exp(c0) * sp.exp(km), [inner_node],
                                   note=f"c = exp({kernel_display(c0)}) > 0")
        if gx == 0:
            return _Node("exp-split", e, [inner_node], note=f"c0 = {kernel_display(c0)}, no f")
        gauss = ""
        cc = sp.Wild("cc", exclude=[XX, XY, YY])
        m = gx.match(-cc * XX)
        if m and sp.expand(km - 2 * m[cc] * XY) == 0 and c0 == 0:
            gauss = f" — the Gaussian kernel exp(-c|x - y|^2) with c = {m[cc]} (Lin's slides)"
        return _Node("exp-split", e, [inner_node],
                     note=f"f(x) = exp({kernel_display(gx)})" + (f", c0 = {kernel_display(c0)}" if c0 != 0 else "") + gauss)


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


def _flatten(root: _Node):
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


# --------------------------------------------------------------------------------------------
# Exact evaluation and counterexamples
# --------------------------------------------------------------------------------------------
def _dotq(a, b):
    return sum((Fraction(u) * Fraction(v) for u, v in zip(a, b)), Fraction(0))


def evaluate_kernel_exact(e, a, b) -> sp.Expr:
    """K(a, b) as an exact sympy constant, for rational points a, b (sequences of Fractions)."""
    q = lambda f: sp.Rational(f.numerator, f.denominator)  # noqa: E731
    return sp.sympify(e).xreplace({XX: q(_dotq(a, a)), YY: q(_dotq(b, b)), XY: q(_dotq(a, b))})


def gram_exact(e, points) -> list[list[sp.Expr]]:
    """The Gram matrix G[i][j] = K(p_i, p_j), exact."""
    return [[evaluate_kernel_exact(e, a, b) for b in points] for a in points]


def _entry_ok(v) -> bool:
    return (not v.free_symbols and not v.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I)
            and v.is_real is not False)


def _certify(e, points, vec_float, denominators=(1, 2, 4, 10, 100, 10000)):
    """Try to certify v^T G v < 0 exactly for rationalised v; return a certificate dict or None."""
    G = gram_exact(e, points)
    flat = [x for row in G for x in row]
    if not all(_entry_ok(x) for x in flat):
        return None
    rational = all(x.is_Rational for x in flat)
    vf = np.asarray(vec_float, dtype=float)
    if not np.all(np.isfinite(vf)) or np.max(np.abs(vf)) == 0:
        return None
    vf = vf / np.max(np.abs(vf))
    ivs = None
    for den in denominators:
        v = [Fraction(float(c)).limit_denominator(den) for c in vf]
        if all(c == 0 for c in v):
            continue
        if rational:
            q = sum((v[i] * v[j] * Fraction(int(G[i][j].p), int(G[i][j].q))
                     for i in range(len(v)) for j in range(len(v))), Fraction(0))
            if q < 0:
                return _cert_dict(e, points, G, v, q_exact=fraction_str(q), method="exact rational arithmetic")
        else:
            from mpmath import iv
            for prec in (120, 400):
                try:
                    if ivs is None or ivs[0] != prec:
                        ivs = (prec, [[interval(x, prec) for x in row] for row in G])
                except (NotCertifiable, ZeroDivisionError, ValueError):
                    return None
                old = iv.prec
                iv.prec = prec
                try:
                    acc = iv.mpf(0)
                    for i in range(len(v)):
                        for j in range(len(v)):
                            if v[i] and v[j]:
                                acc = acc + (iv.mpf(v[i].numerator * v[j].numerator)
                                             / iv.mpf(v[i].denominator * v[j].denominator)) * ivs[1][i][j]
                finally:
                    iv.prec = old
                if acc.b < 0:
                    qexpr = sp.Add(*[sp.Rational(v[i] * v[j]) * G[i][j] for i in range(len(v))
                                     for j in range(len(v)) if v[i] and v[j]])
                    return _cert_dict(e, points, G, v, q_exact=sp.sstr(qexpr),
                                      method=f"interval arithmetic (mpmath iv, {prec} bits, outward rounding)",
                                      upper=_mpf_str(acc.b), trusted=TRUSTED_INTERVALS)
                if acc.a >= 0:
                    break
    return None


def _mpf_str(x) -> str:
    """The (upper) endpoint of an iv number as a decimal string."""
    import mpmath
    s = str(x)
    if s.startswith("["):
        s = s.strip("[]").split(",")[-1].strip()
    return mpmath.nstr(mpmath.mpf(s), 12)


def _cert_dict(e, points, G, v, *, q_exact, method, upper=None, trusted=None):
    d = {
        "points": [[fraction_str(c) for c in p] for p in points],
        "dimension": len(points[0]),
        "gram": [[sp.sstr(x) for x in row] for row in G],
        "vector": [fraction_str(c) for c in v],
        "quadratic_form": q_exact,
        "method": method,
        "claim": "v^T G v < 0, so the Gram matrix G of these points has a negative eigenvalue",
    }
    if len(points) == 1:
        d["claim"] = "K(p, p) < 0: the 1x1 Gram matrix is negative"
    if upper is not None:
        d["quadratic_form_upper_bound"] = upper
    if trusted:
        d["trusted"] = [trusted]
    if len(points) == 2 and all(x.is_Rational for row in G for x in row):
        det = G[0][0] * G[1][1] - G[0][1] * G[1][0]
        d["determinant"] = sp.sstr(det)
    return d


def _float_fn(e):
    f = sp.lambdify((XX, XY, YY), e, modules="numpy")

    def fn(xx, xy, yy):
        with np.errstate(all="ignore"):
            r = f(xx, xy, yy)
        return np.broadcast_to(np.asarray(r, dtype=float), np.shape(xy)) if np.isrealobj(r) else None
    return fn


def _score(fn, P):
    """Most negative eigenvalue of the symmetrised Gram matrix, relative to its size."""
    P = np.asarray(P, dtype=float)
    G0 = P @ P.T
    n2 = np.diag(G0)
    try:
        G = fn(n2[:, None] + 0 * G0, G0, n2[None, :] + 0 * G0)
    except Exception:  # noqa: BLE001
        return None, None
    if G is None or not np.all(np.isfinite(G)):
        return None, None
    S = (G + G.T) / 2
    w, V = np.linalg.eigh(S)
    scale = max(1.0, float(np.max(np.abs(S))))
    return w[0] / scale, V[:, 0]


def _reduce(e, points, cert):
    """Prefer the smallest subset of the points that still certifies."""
    m = len(points)
    for size in range(1, m):
        for sub in itertools.combinations(range(m), size):
            P = [points[i] for i in sub]
            G = gram_exact(e, P)
            if not all(_entry_ok(x) for row in G for x in row):
                continue
            try:
                Gf = np.array([[float(x) for x in row] for row in G])
            except (TypeError, ValueError):
                continue
            S = (Gf + Gf.T) / 2
            w, V = np.linalg.eigh(S)
            if w[0] < 0:
                c = _certify(e, P, V[:, 0])
                if c is not None:
                    return c
    return cert


def _search_counterexample(e, dims, deadline, tried: list):
    fn = _float_fn(e)
    grid = [0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3, Fraction(1, 4), Fraction(3, 2), 5]
    best = []  # (score, points as Fractions, vector)
    # phase 1: small rational grid in dimension 1 (nice certificates)
    n_sets = 0
    for m in (1, 2, 3):
        for combo in itertools.combinations(grid, m):
            P = [[Fraction(c)] for c in combo]
            s, v = _score(fn, [[float(p[0])] for p in P])
            n_sets += 1
            if s is not None and s < -1e-9:
                best.append((s, P, v))
        if best:
            break
    tried.append(f"{n_sets} point sets of 1-3 points from a rational grid in dimension 1")
    for s, P, v in sorted(best, key=lambda t: t[0])[:8]:
        c = _certify(e, P, v)
        if c is not None:
            return _reduce(e, P, c)
        if time.monotonic() > deadline:
            return None
    # phase 2: random point sets + hill climbing in dimensions 1..D
    rng = np.random.default_rng(12345)
    n_rand = 0
    cands = []
    for D in dims:
        for m in (2, 3, 4, 5, 6):
            for scale in (0.25, 0.5, 1.0, 2.0, 4.0):
                for _ in range(6):
                    if time.monotonic() > deadline:
                        break
                    P = rng.normal(size=(m, D)) * scale
                    s, v = _score(fn, P)
                    n_rand += 1
                    if s is None:
                        continue
                    for _ in range(30):     # hill climb
                        Q = P + rng.normal(size=P.shape) * scale * 0.1
                        s2, v2 = _score(fn, Q)
                        n_rand += 1
                        if s2 is not None and s2 < s:
                            P, s, v = Q, s2, v2
                    if s < -1e-6:
                        cands.append((s, P, v))
    tried.append(f"{n_rand} random point sets (2-6 points, dimensions {min(dims)}-{max(dims)}, "
                 "scales 1/4-4) with hill climbing on the smallest eigenvalue")
    for s, P, v in sorted(cands, key=lambda t: t[0])[:12]:
        for den in (1, 2, 4, 8, 64, 1000, 10 ** 6):
            Pq = [[Fraction(float(c)).limit_denominator(den) for c in row] for row in P]
            sq, vq = _score(fn, [[float(c) for c in row] for row in Pq])
            if sq is None or sq >= 0:
                continue
            c = _certify(e, Pq, vq)
            if c is not None:
                return _reduce(e, Pq, c)
        if time.monotonic() > deadline + 2:
            break
    if cands:
        tried.append(f"{len(cands)} float candidates with a negative eigenvalue could not be certified "
                     "exactly after rounding to rationals")
    return None


def _asymmetry(e, tried):
    swapped = e.xreplace({XX: YY, YY: XX})
    try:
        if sp.simplify(swapped - e) == 0:
            return None
    except Exception:  # noqa: BLE001
        return None
    grid = [0, 1, -1, 2, Fraction(1, 2), 3]
    for a, b in itertools.permutations(grid, 2):
        A, B = [Fraction(a)], [Fraction(b)]
        kab, kba = evaluate_kernel_exact(e, A, B), evaluate_kernel_exact(e, B, A)
        if not (_entry_ok(kab) and _entry_ok(kba)):
            continue
        s = certified_sign(kab - kba)
        if s:
            tried.append("symmetry K(x, y) = K(y, x)")
            return {"points": [[fraction_str(A[0])], [fraction_str(B[0])]], "dimension": 1,
                    "kind": "asymmetric", "K(p1, p2)": sp.sstr(kab), "K(p2, p1)": sp.sstr(kba),
                    "claim": "K(p1, p2) != K(p2, p1): a kernel phi(x)·phi(y) is symmetric",
                    "method": "exact rational arithmetic" if (kab - kba).is_Rational
                    else "interval arithmetic (mpmath iv, outward rounding)"}
    return None


# --------------------------------------------------------------------------------------------
# The verdict
# --------------------------------------------------------------------------------------------
@dataclass
class KernelVerdict:
    """The answer of :func:`check_kernel`.

    ``status`` is ``"legal"`` (``derivation`` lists the closure-rule steps, ``trusted`` the trusted
    rules used), ``"illegal"`` (``certificate`` holds the points, the exact Gram matrix, the vector
    v and v^T G v) or ``"unknown"`` (``tried`` says what was tried).  ``exit_code`` is the CLI's.
    """
    expr: str
    kernel: str
    status: str
    derivation: list = field(default_factory=list)
    trusted: list = field(default_factory=list)
    certificate: dict | None = None
    tried: list = field(default_factory=list)
    domain_note: str = ""
    seconds: float = 0.0

    @property
    def exit_code(self) -> int:
        return {"legal": 0, "illegal": 1, "unknown": 3}[self.status]

    @property
    def legal(self) -> bool | None:
        return {"legal": True, "illegal": False}.get(self.status)

    def to_json(self) -> dict:
        return {"expr": self.expr, "kernel": self.kernel, "status": self.status,
                "derivation": self.derivation, "trusted": self.trusted,
                "certificate": self.certificate, "tried": self.tried,
                "domain_note": self.domain_note, "seconds": round(self.seconds, 4)}

    def explain(self) -> str:
        lines = [f"K(x, y) = {self.expr}" + (f"   [= {self.kernel}]" if self.kernel.replace(" ", "") != self.expr.replace(" ", "") else ""),
                 f"verdict: {self.status.upper()}"]
        if self.status == "legal":
            lines.append("derivation by the closure rules:")
            for s in self.derivation:
                src = f" [from {', '.join(map(str, s['from']))}]" if s["from"] else ""
                note = f"  ({s['note']})" if s["note"] else ""
                lines.append(f"  {s['step']}. {s['kernel']}   <- {s['rule']}{src}: {s['rule_text']}{note}")
            lines.append("trusted rules used: " + ("; ".join(self.trusted) if self.trusted else "none"))
            if self.domain_note:
                lines.append(self.domain_note)
        elif self.status == "illegal":
            c = self.certificate
            lines.append(f"counterexample in dimension {c['dimension']}: points "
                         + ", ".join("(" + ", ".join(p) + ")" for p in c["points"]))
            if c.get("kind") == "asymmetric":
                lines.append(f"  K(p1, p2) = {c['K(p1, p2)']}  but  K(p2, p1) = {c['K(p2, p1)']}")
            else:
                lines.append("  Gram matrix G = [" + "; ".join(", ".join(r) for r in c["gram"]) + "]")
                lines.append(f"  v = ({', '.join(c['vector'])}),  v^T G v = {c['quadratic_form']} < 0")
                if "quadratic_form_upper_bound" in c:
                    lines.append(f"  enclosure upper bound: {c['quadratic_form_upper_bound']}")
                if "determinant" in c:
                    lines.append(f"  det G = {c['determinant']}")
            lines.append(f"  {c['claim']}; certified by {c['method']}")
            for t in c.get("trusted", []):
                lines.append(f"  trusted: {t}")
        else:
            lines.append("tried:")
            lines.extend(f"  - {t}" for t in self.tried)
        lines.append(f"({self.seconds:.2f} s)")
        return "\n".join(lines)


def _domain_note(e) -> str:
    risky = any(isinstance(a, sp.Pow) and a.exp.is_number and (a.exp < 0 or not a.exp.is_Integer)
                and not (a.base in (XX, YY) and a.exp > 0)
                for a in sp.preorder_traversal(e)) or e.has(sp.log) or e.has(sp.tan)
    return ("note: K may be undefined or not real at some points (a division, a root, log or tan); "
            "the verdict is about the points where it is defined and real") if risky else ""


def check_kernel(expr: str, dim: int | None = None, *, budget: float = 5.0) -> KernelVerdict:
    """Decide whether ``expr`` (in x, y with dot/norm) is a legal kernel.

    ``dim`` is the largest input dimension the counterexample search uses (default 3; the
    derivation is dimension-free).  ``budget`` bounds the search in seconds.  Raises
    :class:`InputError` for bad input.
    """
    t0 = time.monotonic()
    if dim is None:
        dim = 3
    if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1 or dim > 50:
        raise InputError(f"--dim must be an integer between 1 and 50, got {dim!r}")
    e = parse_kernel(expr)
    kdisp = kernel_display(e)
    deadline = t0 + max(0.5, float(budget))
    tried: list = []
    der = _Deriver(deadline=t0 + max(0.5, float(budget)) * 0.4)
    root = der.derive(e)
    tried.append("derivation by the closure rules (cK, K1 + K2, K1·K2, K^k, polynomials with nonnegative "
                 "coefficients, f(x)f(y)K, exp/sinh/cosh of a legal kernel, exponent splitting)")
    if root is not None:
        steps = _flatten(root)
        trusted = [TRUSTED_POWER_SERIES] if any(s["trusted"] for s in steps) else []
        return KernelVerdict(expr, kdisp, "legal", derivation=steps, trusted=trusted,
                             domain_note=_domain_note(e), seconds=time.monotonic() - t0)
    dims = list(range(1, dim + 1))
    cert = _search_counterexample(e, dims, deadline, tried)
    if cert is None:
        cert = _asymmetry(e, tried)
    if cert is not None:
        return KernelVerdict(expr, kdisp, "illegal", certificate=cert, tried=tried,
                             domain_note=_domain_note(e), seconds=time.monotonic() - t0)
    return KernelVerdict(expr, kdisp, "unknown", tried=tried, domain_note=_domain_note(e),
                         seconds=time.monotonic() - t0)
