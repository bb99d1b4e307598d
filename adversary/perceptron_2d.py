"""Perceptron worst cases in the plane (d = 2), where 1/gamma^2 is not attainable.

Reduction.  Take w* = e_1 and replace every (x, y) by z = y x (the perceptron only sees y x), so
every z has z_1 >= gamma, and the state is w = (a, b) with a = w.w* = sum z_1.  A step is a
mistake iff a z_1 + b z_2 <= 0, so z_2 must point against b and |b| must be large relative to a.
A larger z_1 only hurts (it raises a), so:

* examples of length <= 1: z = (gamma, s) with |s| <= rho = sqrt(1 - gamma^2);
* unit-length examples:    z = (sqrt(1 - s^2), s), s in [-rho, rho].

The dynamic programme keeps, for every reachable |b| on a grid, the least a that reaches it
(least a dominates: every later constraint is easier), with s restricted to the same grid
s_k = k rho'/N (rho' = rho (1 - 1e-12)), so |b| - s stays on the grid and no state is rounded.
Resolution: N + 1 grid points on [0, rho'] (N = 1000 by default, i.e. steps of rho'/1000), and a
feasibility tolerance of 1e-9 so that the exact replay (rational points within 2^-60 of the plan,
each checked exactly: the tie/mistake a z_1 + b z_2 <= 0 and z_1 >= gamma) keeps every step.
The certified count is the exact replay's.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from adversary.margin import parse_gamma
from adversary.sequence import Sequence

__all__ = ["plan_2d", "sequence_2d", "best_2d", "plane_bound", "max_mistakes_le1", "max_mistakes_rational_le1"]

# reference mistake counts of a greedy search (exact dyadic weights) the DP is compared with
BASELINE_LE1 = {Fraction(1, 2): 2, Fraction(3, 10): 6, Fraction(1, 5): 13, Fraction(1, 10): 50, Fraction(1, 20): 200}
BASELINE_UNIT = {Fraction(1, 2): 2, Fraction(3, 10): 4, Fraction(1, 5): 10, Fraction(1, 10): 43, Fraction(1, 20): 184}


def plane_bound(gamma: Fraction) -> int:
    """floor((1 - gamma^2) / (2 gamma^2)) + 2, exactly: an integer bound for the plane implied by
    the catalogue's perceptron_2d_half_bound, M <= 1 + 1/(2 gamma^2) (about half of 1/gamma^2)."""
    q = (1 - gamma * gamma) / (2 * gamma * gamma)
    return q.numerator // q.denominator + 2


def plan_2d(gamma, *, unit: bool = False, N: int = 1000, tol: float = 1e-9, budget: float | None = None,
            progress=None):
    """The DP: returns the list of planned s_t (signed: z_2 of step t) and its info, whose
    ``budget_exhausted`` says whether the budget stopped it before the plan was complete (the
    plan is then shorter than the DP's optimum, and depends on the machine's speed)."""
    g = float(parse_gamma(gamma))
    rho = math.sqrt(1 - g * g) * (1 - 1e-12)
    s = np.arange(N + 1) * rho / N
    beta = s
    z1 = np.sqrt(1 - s * s) if unit else np.full(N + 1, g)
    A = z1.copy()                       # after step 0 (from w = 0 every step is a tie)
    parents = [None]                    # parents[t][i] = (j, k) leading to state i after step t
    J = np.arange(N + 1)
    t0 = time.process_time()
    t = 1
    exhausted = False
    while True:
        if progress:
            progress(t)
        live = np.flatnonzero(np.isfinite(A))
        a, b = A[live], beta[live]
        feas = a[:, None] * z1[None, :] <= b[:, None] * s[None, :] - tol
        if not feas.any():
            break
        if budget is not None and time.process_time() - t0 > budget:
            exhausted = True
            break
        V = np.where(feas, a[:, None] + z1[None, :], np.inf)
        D = np.abs(live[:, None] - J[None, :])
        new = np.full(N + 1, np.inf)
        np.minimum.at(new, D.ravel(), V.ravel())
        eq = np.isfinite(V) & (V == new[D])
        rows, cols = np.nonzero(eq)
        d = D[rows, cols]
        _, first = np.unique(d, return_index=True)
        par = np.full((N + 1, 2), -1, dtype=np.int64)
        par[d[first], 0] = live[rows[first]]
        par[d[first], 1] = cols[first]
        parents.append(par)
        A = new
        t += 1
    # t steps are planned; the state after the last one: any finite entry (the lowest a)
    i = int(np.nanargmin(np.where(np.isfinite(A), A, np.nan)))
    ks = []
    for tt in range(t - 1, 0, -1):
        j, k = parents[tt][i]
        ks.append(int(k))
        i = int(j)
    ks.append(i)                         # step 0 chose s_i from w = 0
    ks.reverse()
    # signs: z_2 points against b (step 0: +)
    out, bb = [], 0
    for k in ks:
        sv = k * rho / N
        sgn = 1 if bb <= 0 else -1
        out.append(sgn * sv)
        bb = bb + sgn * k
    return out, {"N": N, "rho_grid": rho, "tol": tol, "planned": t, "budget_exhausted": exhausted}


def _down(v: Fraction, bits: int = 64) -> Fraction:
    q = 1 << bits
    return Fraction((v.numerator * q) // v.denominator, q)


def _up(v: Fraction, bits: int = 64) -> Fraction:
    q = 1 << bits
    return Fraction(-((-v.numerator * q) // v.denominator), q)


def _reachable(gamma, max_steps: int = 100000, bits: int = 64):
    """The interval iteration of :func:`max_mistakes_le1`: yields (t, rho_up, need_t, F_t), F_t the
    reachable |b| after t steps that still allow a mistake (a superset, endpoints rounded outward),
    until F_t is empty."""
    g = parse_gamma(gamma)
    c = g * g
    one_minus = 1 - c
    rho = _up(Fraction(math.isqrt((one_minus.numerator << (2 * bits + 12)) // one_minus.denominator) + 1,
                       1 << (bits + 6)), bits)
    assert rho * rho >= one_minus
    R = [(Fraction(0), Fraction(0))]
    t = 0
    while t < max_steps:
        need = t * c / rho if t else Fraction(0)
        F = [(max(a, need), b) for a, b in R if b >= need]
        yield t, rho, need, F
        if not F:
            return
        new = []
        for a, b in F:
            lo = a - rho
            hi = b - (t * c / b if t else 0)
            if hi < lo:
                continue
            if lo >= 0:
                iv = (lo, hi)
            elif hi <= 0:
                iv = (-hi, -lo)
            else:
                iv = (Fraction(0), max(-lo, hi))
            new.append((_down(iv[0], bits), _up(iv[1], bits)))
        new.sort()
        merged = []
        for a, b in new:
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        R = merged
        t += 1


def max_mistakes_le1(gamma, *, max_steps: int = 100000) -> int:
    """An exact upper bound on the mistakes any (real) sequence of examples of length <= 1 with
    margin gamma can force on the perceptron in the plane.

    With z = y x and w* = e_1, replacing z_1 by gamma keeps every mistake (a >= 0) and makes every
    later one easier, so z = (gamma, s) with |s| <= rho WLOG; the state is |b| after t steps, and a
    step needs |b| rho >= t gamma^2 with a new |b| in { | |b| - u | : u in [t gamma^2/|b|, rho] }.
    The reachable set of |b| is a union of intervals, computed in rationals with rho replaced by a
    rational upper bound and every endpoint rounded outward (a superset: the count is an upper
    bound).  It can exceed what rational sequences reach when the extra step needs a tie at an
    irrational point (:func:`max_mistakes_rational_le1`)."""
    t = 0
    for t, _, _, F in _reachable(gamma, max_steps):
        if not F:
            return t
    return t


def max_mistakes_rational_le1(gamma, *, bits: int = 256) -> tuple[int, str]:
    """An exact upper bound on the mistakes of sequences of *rational* examples of length <= 1 with
    margin gamma, and the reason: (bound, "real") when it is :func:`max_mistakes_le1`'s, or
    (bound - 1, "rational") when the last mistake of the real bound needs an irrational example.

    The rational case, checked here exactly: let T + 1 be the real bound (the (T+1)-th mistake is
    made at step T) and T gamma^2 = 1/2, and rho^2 = 1 - gamma^2 not the square of a rational.  A
    mistake at step T needs |b_T| rho >= T gamma^2, i.e. |b_T| >= T gamma^2/rho = 1/(2 rho).  Step
    T - 1 was a mistake, so |b_{T-1}| >= (T-1) gamma^2/rho, and |b_T| = | |b_{T-1}| - u | with u = |s| in
    [(T-1) gamma^2/|b_{T-1}|, rho].  Either |b_T| = u - |b_{T-1}| <= u - (T-1) gamma^2/rho < rho - (T-1)
    gamma^2/rho = (1 - T gamma^2)/rho = 1/(2 rho), strictly because a rational u is not rho; or |b_T| =
    |b_{T-1}| - u <= h(|b_{T-1}|), h(x) = x - (T-1) gamma^2/x increasing, and h at every upper endpoint of
    the reachable set after T - 1 steps (a superset, 2^-bits rounding) is checked to be below a
    rational lower bound of 1/(2 rho) -- except at T = 2, where |b_1| = |s_0| < rho (rational) and
    h(|b_1|) < h(rho) = (1 - 2 gamma^2)/rho = 1/(2 rho).  So no rational sequence makes T + 1 mistakes
    (gamma = 1/2: 2, gamma = 1/10: 50, gamma = 1/20: 200, one below the real bounds 3, 51, 201)."""
    g = parse_gamma(gamma)
    c = g * g
    steps = list(_reachable(g, bits=bits))
    real = steps[-1][0]
    T = real - 1
    one_minus = 1 - c
    square = (math.isqrt(one_minus.numerator) ** 2 == one_minus.numerator
              and math.isqrt(one_minus.denominator) ** 2 == one_minus.denominator)
    if T < 1 or T * c != Fraction(1, 2) or square:
        return real, "real"
    _, rho_up, _, F_prev = steps[T - 1]
    need_lo = Fraction(1, 2) / rho_up                  # <= 1/(2 rho): rho_up >= rho
    if T == 2 or all(b - (T - 1) * c / b < need_lo for _, b in F_prev if b > 0):
        return T, "rational"
    return real, "real"


def _rat(v: float, bits: int = 60) -> Fraction:
    return Fraction(round(v * (1 << bits)), 1 << bits)


def sequence_2d(gamma, *, unit: bool = False, N: int = 1000, budget: float | None = None, progress=None) -> Sequence:
    gamma = parse_gamma(gamma)
    plan, info = plan_2d(gamma, unit=unit, N=N, budget=budget, progress=progress)
    g2 = gamma * gamma
    a = b = Fraction(0)
    X = []
    for t, sv in enumerate(plan):
        if unit:
            # rational unit vector (cos, sin) from u = tan(theta/2), z_1 >= gamma exactly
            u = _rat(abs(sv) / (1 + math.sqrt(max(0.0, 1 - sv * sv))))
            z1 = (1 - u * u) / (1 + u * u)
            while z1 < gamma:
                u -= Fraction(1, 1 << 60)
                z1 = (1 - u * u) / (1 + u * u)
            z2 = 2 * u / (1 + u * u)
        else:
            z1 = gamma
            z2 = _rat(abs(sv))
            while z2 * z2 > 1 - g2:
                z2 -= Fraction(1, 1 << 60)
        if sv < 0 or (sv == 0 and b > 0):
            z2 = -z2
        if a * z1 + b * z2 > 0:          # the exact replay lost the tie: stop (never happens at tol 1e-9)
            break
        X.append([z1, z2])
        a, b = a + z1, b + z2
    return Sequence("perceptron", X, [1] * len(X), target=[1, 0],
                    meta={"strategy": "plane_dp_unit" if unit else "plane_dp", "gamma": str(gamma), "dim": 2,
                          "dp_resolution": f"N = {info['N']} grid steps of rho'/N on [0, rho'], rho' = "
                                           f"sqrt(1 - gamma^2)(1 - 1e-12); tolerance {info['tol']}",
                          "examples": "unit length" if unit else "length <= 1",
                          "baseline": (BASELINE_UNIT if unit else BASELINE_LE1).get(gamma),
                          "plane_bound": plane_bound(gamma), "budget": budget,
                          "budget_exhausted": info["budget_exhausted"]})


def best_2d(gamma, *, budget: float = 30.0, progress=None, unit: bool = False) -> Sequence:
    return sequence_2d(gamma, unit=unit, budget=budget, progress=progress)
