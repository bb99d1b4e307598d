"""Separable worst cases for the perceptron that attain the bound 1/gamma^2.

* :func:`orthonormal` -- e_1, ..., e_K with K = floor(1/gamma^2) (needs d >= K).  Every example is
  orthogonal to everything seen so far, so any deterministic learner whose prediction on a fresh
  direction is known can be made to err: the label is chosen *against* the learner's prediction
  (for the perceptron w.e_i = 0, a tie, which is a mistake whatever the label).  The target
  sum y_i e_i has margin 1 and |w*|^2 = K, R = 1: bound K, ratio 1.
* :func:`orthogonal_margin` -- any d >= 3 (Shalev-Shwartz & Ben-David, Understanding Machine
  Learning, Ex. 9.4): every example has margin gamma with respect to w* = e_1 and is orthogonal to
  the current weights, so it is a tie (a mistake) and |w|^2 grows by exactly |x|^2 while w.w*
  grows by gamma; this lasts for floor(1/gamma^2) steps.  The ideal points are irrational; here
  each one is a point of the integer lattice {X in Z^3 : W.X = 0} (W = 2^k w, all examples on the
  grid 2^-k Z^3), found by Lagrange-reduced basis + Babai rounding next to the ideal point, with
  x_1 >= gamma and |x|^2 <= 1 exactly.  The tie w.x = 0 is therefore exact.  Only the very last
  point may be a hair longer than 1 (the rounding slack has been used up); the certificate's
  ratio says by how much (1 - 1e-30 or so).
"""
from __future__ import annotations

import math
from fractions import Fraction

from learners.errors import InputError

from adversary.margin import K_of, parse_gamma
from adversary.sequence import Sequence

__all__ = ["orthonormal", "orthogonal_margin", "separable", "parse_gamma", "K_of"]


def orthonormal(gamma, d: int, *, predict=None) -> Sequence:
    """K = floor(1/gamma^2) orthonormal examples with adaptive labels.

    ``predict(x) -> +1/-1`` is the learner's prediction given the examples so far (called with
    the history as ``predict(x, history)``); by default the perceptron's (w.x > 0 -> +1), and the
    label is the opposite of the prediction (a tie w.x = 0 is a mistake whatever the label, and
    then the label +1 is used)."""
    gamma = parse_gamma(gamma)
    K = K_of(gamma)
    if d < K:
        raise InputError(f"orthonormal construction needs d >= floor(1/gamma^2) = {K}, got d = {d}")
    X, y = [], []
    w = [Fraction(0)] * d
    for i in range(K):
        x = [Fraction(int(j == i)) for j in range(d)]
        if predict is not None:
            label = -predict(x, list(zip(X, y)))
        else:
            a = sum(wj * xj for wj, xj in zip(w, x))
            label = 1 if a <= 0 else -1        # a tie is a mistake whatever the label
        if label * sum(wj * xj for wj, xj in zip(w, x)) <= 0:
            w = [wj + label * xj for wj, xj in zip(w, x)]
        X.append(x)
        y.append(label)
    target = [Fraction(0)] * d
    for x, lab in zip(X, y):
        target = [t + lab * xi for t, xi in zip(target, x)]
    return Sequence("perceptron", X, y, target=target,
                    meta={"strategy": "orthonormal", "gamma": str(gamma), "dim": d,
                          "note": "e_1..e_K, K = floor(1/gamma^2); labels against the learner's prediction"})


# ------------------------------------------------------------------ Ex. 9.4 made rational --
def _isqrt_frac(v: Fraction, bits: int) -> Fraction:
    """A rational <= sqrt(v), within 2^-bits (relative to 1)."""
    if v <= 0:
        return Fraction(0)
    s = 1 << bits
    return Fraction(math.isqrt(v.numerator * s * s // v.denominator), s)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def _lagrange(a, b):
    """Lagrange-Gauss reduction of a 2-D lattice basis (integer vectors in Z^3)."""
    if _dot(a, a) > _dot(b, b):
        a, b = b, a
    while True:
        q = round(Fraction(_dot(a, b), _dot(a, a)))
        b = tuple(x - q * y for x, y in zip(b, a))
        if _dot(b, b) >= _dot(a, a):
            return a, b
        a, b = b, a


def _kernel_basis(W):
    """Basis of {X in Z^3 : W.X = 0} by the extended-gcd construction (exact, always correct)."""
    g = math.gcd(*W)
    w1, w2, w3 = (v // g for v in W)
    # solve w1 x + w2 y + w3 z = 0: u = gcd(w1, w2); (x, y) = (w2/u, -w1/u) t + ..., see below
    u = math.gcd(w1, w2)
    if u == 0:                       # w1 = w2 = 0: X3 = 0
        return (1, 0, 0), (0, 1, 0)
    v1 = (w2 // u, -w1 // u, 0)      # solutions with z = 0
    # a solution with z = u' where ... w1 x + w2 y = -w3 z: need u | w3 z: z = u / gcd(u, w3)
    z = u // math.gcd(u, w3)
    rhs = -w3 * z                    # divisible by u
    # extended gcd: a w1 + b w2 = u
    a, b = _egcd(w1, w2)
    k = rhs // u
    v2 = (a * k, b * k, z)
    return _lagrange(v1, v2)


def _egcd(p, q):
    """(a, b) with a p + b q = gcd(p, q) >= 0."""
    old_r, r = p, q
    old_s, s = 1, 0
    old_t, t = 0, 1
    while r:
        qq = old_r // r
        old_r, r = r, old_r - qq * r
        old_s, s = s, old_s - qq * s
        old_t, t = t, old_t - qq * t
    if old_r < 0:
        old_s, old_t = -old_s, -old_t
    return old_s, old_t


def _babai_candidates(basis, target, spread=2):
    a, b = basis
    G = _dot(a, a) * _dot(b, b) - _dot(a, b) ** 2
    s = (_dot(target, a) * _dot(b, b) - _dot(target, b) * _dot(a, b)) / G
    t = (_dot(target, b) * _dot(a, a) - _dot(target, a) * _dot(a, b)) / G
    rs, rt = round(s), round(t)
    for ds in range(-spread, spread + 1):
        for dt in range(-spread, spread + 1):
            k, l = rs + ds, rt + dt
            yield tuple(k * ai + l * bi for ai, bi in zip(a, b))


def orthogonal_margin(gamma, d: int = 3, *, bits: int = 160, slack_bits: int = 60, progress=None) -> Sequence:
    """Ex. 9.4 in rational arithmetic: floor(1/gamma^2) examples, each a tie w.x = 0, margin >= gamma."""
    gamma = parse_gamma(gamma)
    if d < 3:
        raise InputError("the orthogonal-margin construction needs d >= 3 (d = 2: see perceptron_2d)")
    K = K_of(gamma)
    S = 1 << bits                      # grid 2^-bits
    g_int = -((-gamma.numerator * S) // gamma.denominator)     # ceil(gamma * S)
    eta = Fraction(1, 1 << slack_bits)
    W = (0, 0, 0)
    X = []
    for t in range(K):
        if progress:
            progress(t, K)
        if t == 0:
            # a generic first point (x_3 != 0) so that the lattice W-perp has a balanced basis
            x1 = g_int
            x2 = math.isqrt((S * S - x1 * x1) * 3 // 5) | 1
            x3 = math.isqrt(S * S - x1 * x1 - x2 * x2)
            X.append((x1, x2, x3))
            W = (x1, x2, x3)
            continue
        w = tuple(Fraction(v, S) for v in W)
        wsq = _dot(w, w)
        e1 = (Fraction(1), Fraction(0), Fraction(0))
        p = tuple(e - w[0] / wsq * wi for e, wi in zip(e1, w))    # e1 projected on w-perp
        psq = _dot(p, p)
        q = _cross(p, w)
        qsq = _dot(q, q)
        best = None
        for attempt in range(6):
            gam = gamma * (1 + eta * (1 << (2 * attempt)))
            alpha = gam / psq
            rest = (1 - eta * (1 << (2 * attempt))) - alpha * alpha * psq
            if rest > 0 and qsq > 0:
                beta = _isqrt_frac(rest / qsq, bits + 8)
                ideal = tuple(alpha * pi + beta * qi for pi, qi in zip(p, q))
            else:                      # no slack left: the shortest point with margin gamma
                ideal = tuple(gamma / psq * pi for pi in p)
            target = tuple(v * S for v in ideal)
            basis = _kernel_basis(W)
            for cand in _babai_candidates(basis, target, spread=3):
                if cand[0] < g_int or _dot(cand, W) != 0:
                    continue
                n2 = _dot(cand, cand)
                if rest > 0 and n2 > S * S:
                    continue
                key = (n2 <= S * S, -n2 if n2 > S * S else n2)
                if best is None or key > best[0]:
                    best = (key, cand)
            if best is not None and best[0][0]:
                break
        if best is None:
            break
        X.append(best[1])
        W = tuple(a + b for a, b in zip(W, best[1]))
    if progress:
        progress(K, K)
    ex = [[Fraction(v, S) for v in x] + [Fraction(0)] * (d - 3) for x in X]
    target = [Fraction(1)] + [Fraction(0)] * (d - 1)
    return Sequence("perceptron", ex, [1] * len(ex), target=target,
                    meta={"strategy": "orthogonal_margin", "gamma": str(gamma), "dim": d, "grid_bits": bits,
                          "note": "SSBD Ex. 9.4: each x has x_1 >= gamma, |x| <= 1 (last maybe a hair more) "
                                  "and w.x = 0 exactly (a tie)"})


def separable(gamma, d: int, **kw) -> Sequence:
    """The best separable construction for (gamma, d): orthonormal when d >= floor(1/gamma^2),
    else the Ex. 9.4 construction (d >= 3), else the 2-D search."""
    gamma = parse_gamma(gamma)
    if d >= K_of(gamma):
        return orthonormal(gamma, d)
    if d >= 3:
        return orthogonal_margin(gamma, d, progress=kw.get("progress"))
    from adversary.perceptron_2d import best_2d
    return best_2d(gamma, budget=kw.get("budget", 30.0), progress=kw.get("progress"))
