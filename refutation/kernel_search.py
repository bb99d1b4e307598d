"""**illegal**: points with exact rational coordinates and a rational vector v with v^T G v < 0 for
their Gram matrix G.  The search uses floats (a rational grid in dimension 1, the integer points
of {-1, 0, 1}^2, then random point sets with hill climbing on the smallest eigenvalue), inside the
stated domain and dimension; only the certificate counts, and it is exact: rational arithmetic
when the entries are rational, otherwise interval arithmetic with outward rounding
(``mpmath.iv``, named in the certificate)."""
from __future__ import annotations

import itertools
import time
from fractions import Fraction

import numpy as np
import sympy as sp

from learners.numbers import fraction_str

from refutation.kernel_eval import evaluate_kernel_exact, float_gram, gram_exact
from refutation.kernel_terms import swap
from refutation.signs import NotCertifiable, certified_sign, interval

__all__ = ["TRUSTED_INTERVALS", "evaluate_kernel_exact", "gram_exact", "search_counterexample", "asymmetry"]

TRUSTED_INTERVALS = (
    "interval-arithmetic: mpmath's iv context encloses exp/log/sqrt/sin/cos/tan/atan2 with outward rounding; "
    "a quadratic form whose enclosure lies below 0 is negative")


# --------------------------------------------------------------------------------------------
# Certificates
# --------------------------------------------------------------------------------------------
def _entry_ok(v) -> bool:
    return (not v.free_symbols and not v.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I)
            and v.is_real is not False)


def _certify(e, points, vec_float, denominators=(1, 2, 4, 10, 100, 10000), G=None):
    """Try to certify v^T G v < 0 exactly for rationalised v; return a certificate dict or None."""
    if G is None:
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


def _score(fn, P):
    """Most negative eigenvalue of the symmetrised Gram matrix, relative to its size."""
    try:
        G = fn(P)
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
    full = gram_exact(e, points)
    for size in range(1, m):
        for sub in itertools.combinations(range(m), size):
            P = [points[i] for i in sub]
            G = [[full[i][j] for j in sub] for i in sub]
            if not all(_entry_ok(x) for row in G for x in row):
                continue
            try:
                Gf = np.array([[float(x) for x in row] for row in G])
            except (TypeError, ValueError):
                continue
            S = (Gf + Gf.T) / 2
            w, V = np.linalg.eigh(S)
            if w[0] < 0:
                c = _certify(e, P, V[:, 0], G=G)
                if c is not None:
                    return c
    return cert


class _Space:
    """Where the points live: the dimensions searched, the dimension reported (points are padded
    with zeros, or ones on the positive domain, when the dimension is stated) and the domain."""

    def __init__(self, dim, domain):
        self.dim, self.domain = dim, domain
        self.pad = Fraction(1) if domain == "positive" else Fraction(0)
        if dim is None:
            self.dims = [1, 2, 3]
        elif domain == "positive":
            self.dims = [dim]
        else:
            self.dims = list(range(1, dim + 1))

    def ok(self, c) -> bool:
        return self.domain == "real" or c > 0 or (c == 0 and self.domain == "nonneg")

    def exact(self, rows):
        """Rational points in the space (padded), or None if a coordinate is outside the domain."""
        out = []
        for r in rows:
            r = [Fraction(c) for c in r]
            if not all(self.ok(c) for c in r):
                return None
            out.append(r + [self.pad] * ((self.dim or len(r)) - len(r)))
        return out

    def floats(self, P):
        P = np.asarray(P, dtype=float)
        if self.domain != "real":
            P = np.abs(P) + (1e-3 if self.domain == "positive" else 0.0)
        if self.dim is not None and P.shape[1] < self.dim:
            P = np.hstack([P, np.full((P.shape[0], self.dim - P.shape[1]), float(self.pad))])
        return P


def search_counterexample(e, deadline, tried: list, *, dim=None, domain="real"):  # noqa: C901
    space = _Space(dim, domain)
    fn = float_gram(e, domain)
    grid = [c for c in (0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3, Fraction(1, 4), Fraction(3, 2), 5)
            if space.ok(Fraction(c))]
    best = []  # (score, points as Fractions, vector)
    # phase 1: small rational grid in dimension 1 (nice certificates)
    n_sets = 0
    if 1 in space.dims:
        for m in (1, 2, 3):
            for combo in itertools.combinations(grid, m):
                P = space.exact([[c] for c in combo])
                s, v = _score(fn, space.floats([[float(c)] for c in combo]))
                n_sets += 1
                if s is not None and s < -1e-9:
                    best.append((s, P, v))
            if best:
                break
        tried.append(f"{n_sets} point sets of 1-3 points from a rational grid in dimension 1")
    # phase 1b: subsets of the integer points {-1, 0, 1}^2 (the domain's part of it)
    if not best and any(d >= 2 for d in space.dims) and (space.dim is None or space.dim >= 2):
        cube = [p for p in itertools.product((0, 1, -1), repeat=2) if all(space.ok(Fraction(c)) for c in p)]
        n2 = 0
        for m in range(2, len(cube) + 1):
            for combo in itertools.combinations(cube, m):
                s, v = _score(fn, space.floats(combo))
                n2 += 1
                if s is not None and s < -1e-9:
                    best.append((s, space.exact(combo), v))
            if best or time.monotonic() > deadline:
                break
        tried.append(f"{n2} point sets of the integer points of {{-1, 0, 1}}^2 in the domain")
    for s, P, v in sorted(best, key=lambda t: t[0])[:8]:
        c = _certify(e, P, v)
        if c is not None:
            return _reduce(e, P, c)
        if time.monotonic() > deadline:
            return None
    # phase 2: random point sets + hill climbing
    rng = np.random.default_rng(12345)
    n_rand = 0
    cands = []
    for D in space.dims:
        for m in (2, 3, 4, 5, 6):
            for scale in (0.25, 0.5, 1.0, 2.0, 4.0):
                for _ in range(6):
                    if time.monotonic() > deadline:
                        break
                    P = space.floats(rng.normal(size=(m, D)) * scale)[:, :D]
                    s, v = _score(fn, space.floats(P))
                    n_rand += 1
                    if s is None:
                        continue
                    for _ in range(30):     # hill climb
                        Q = space.floats(P + rng.normal(size=P.shape) * scale * 0.1)[:, :D]
                        s2, v2 = _score(fn, space.floats(Q))
                        n_rand += 1
                        if s2 is not None and s2 < s:
                            P, s, v = Q, s2, v2
                    if s < -1e-6:
                        cands.append((s, P, v))
    tried.append(f"{n_rand} random point sets (2-6 points, dimensions {min(space.dims)}-{max(space.dims)}, "
                 "scales 1/4-4) with hill climbing on the smallest eigenvalue")
    for s, P, v in sorted(cands, key=lambda t: t[0])[:12]:
        for den in (1, 2, 4, 8, 64, 1000, 10 ** 6):
            Pq = space.exact([[Fraction(float(c)).limit_denominator(den) for c in row] for row in P])
            if Pq is None:
                continue
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


def asymmetry(e, tried, *, dim=None, domain="real"):
    space = _Space(dim, domain)
    try:
        if sp.simplify(swap(e) - e) == 0:
            return None
    except Exception:  # noqa: BLE001
        return None
    grid = [c for c in (0, 1, -1, 2, Fraction(1, 2), 3) if space.ok(Fraction(c))]
    for a, b in itertools.permutations(grid, 2):
        pts = space.exact([[a], [b]])
        if pts is None:
            continue
        A, B = pts
        kab, kba = evaluate_kernel_exact(e, A, B), evaluate_kernel_exact(e, B, A)
        if not (_entry_ok(kab) and _entry_ok(kba)):
            continue
        s = certified_sign(kab - kba)
        if s:
            tried.append("symmetry K(x, y) = K(y, x)")
            return {"points": [[fraction_str(c) for c in A], [fraction_str(c) for c in B]], "dimension": len(A),
                    "kind": "asymmetric", "K(p1, p2)": sp.sstr(kab), "K(p2, p1)": sp.sstr(kba),
                    "claim": "K(p1, p2) != K(p2, p1): a kernel phi(x)·phi(y) is symmetric",
                    "method": "exact rational arithmetic" if (kab - kba).is_Rational
                    else "interval arithmetic (mpmath iv, outward rounding)"}
    return None
