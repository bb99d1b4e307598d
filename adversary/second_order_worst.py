"""The second-order perceptron's worst case (Cesa-Bianchi, Conconi & Gentile 2005, "A second-order
perceptron algorithm", SIAM Journal on Computing 34(3), Theorem 1), and the exact check of its bound
on any run.

The bound, in the form without determinants: for every u and gamma > 0,

    M gamma - D <= sqrt((a |u|^2 + sum_k (u . x_k)^2) * sum_k ln(1 + q_k)),

q_k = x_k . B_{k-1} x_k at the k-th mistake, D the hinge total sum_k max(0, gamma - y_k u . x_k).
:func:`check_bound` decides it on an exact run link by link -- M gamma - D <= u . v_M,
(u . v_M)^2 <= (a |u|^2 + sum_k (u . x_k)^2) v_M . B_M v_M, v_M . B_M v_M <= sum_k q_k/(1 + q_k),
sum_k q_k/(1 + q_k) <= ln prod_k (1 + q_k) -- with rationals, squares instead of square roots, and
one logarithm enclosed between two rationals (``adversary.log_enclosure``).

The worst case (:func:`orthonormal_row`, the table's row): the d unit vectors e_1..e_d, all
labelled +1.  Before step t, v = e_1 + .. + e_(t-1) and B' e_t = e_t / (a + 1), so every margin is
0, a tie, and every step a mistake: M = d, q_k = 1/a.  With u = (1, .., 1)/sqrt(d) and
gamma = 1/sqrt(d), D = 0 and the bound is d sqrt((a + 1) ln(1 + 1/a)): the ratio
M / bound = 1/sqrt((a + 1) ln(1 + 1/a)) tends to 1 as a grows (0.9951 at a = 50, whatever d).
The replay reads M, the margins and the q_k from the learner's exact run; the ratio is enclosed
between two rationals and compared with 99/100 exactly.
"""
from __future__ import annotations

import math
from fractions import Fraction

from adversary.log_enclosure import ln_enclosure
from learners import run_second_order_perceptron
from learners.numbers import fraction_str
from learners.second_order_perceptron import bound_terms

__all__ = ["check_bound", "sqrt_enclosure", "orthonormal_row", "second_order_cells"]


def sqrt_enclosure(r: Fraction, bits: int = 96) -> tuple[Fraction, Fraction]:
    """lo <= sqrt(r) <= hi for a rational r >= 0, both with denominator 2^bits."""
    r = Fraction(r)
    if r < 0:
        raise ValueError(f"sqrt needs r >= 0, got {r}")
    scale = 1 << (2 * bits)
    lo_n = math.isqrt((r.numerator * scale) // r.denominator)           # isqrt(floor(r 4^bits))
    hi_n = math.isqrt(-((-r.numerator * scale) // r.denominator))       # isqrt(ceil(r 4^bits))
    if hi_n * hi_n * r.denominator < r.numerator * scale:
        hi_n += 1
    return Fraction(lo_n, 1 << bits), Fraction(hi_n, 1 << bits)


def check_bound(t: dict) -> dict:
    """Decide the bound's chain on the terms of ``learners.second_order_perceptron.bound_terms``.
    Every link is a rational comparison but the last, which compares with an enclosure of
    ln prod_k (1 + q_k): ``True``/``False`` when decided, ``None`` when the enclosure cannot tell.
    ``"bound"`` is the conclusion M gamma - D <= sqrt(u_A_u * sum_k ln(1 + q_k)), decided through
    squares (a non-positive left side holds outright)."""
    lo, hi = ln_enclosure(t["prod_1_plus_q"])
    lhs = t["M"] * t["gamma"] - t["D"]
    links = {
        "margin": lhs <= t["u_v"],
        "cauchy_schwarz": t["u_v"] ** 2 <= t["u_A_u"] * t["v_B_v"],
        "potential": t["v_B_v"] <= t["sum_q_ratio"],
        "log": True if t["sum_q_ratio"] <= lo else (False if t["sum_q_ratio"] > hi else None),
    }
    if lhs <= 0:
        bound = True
    elif lhs ** 2 <= t["u_A_u"] * lo:
        bound = True
    elif lhs ** 2 > t["u_A_u"] * hi:
        bound = False
    else:
        bound = None
    return {"links": links, "bound": bound, "ln_prod_enclosure": (lo, hi)}


def orthonormal_row(d: int = 16, a=50) -> dict:
    """The second-order perceptron (exact) on e_1..e_d labelled +1, against its bound with
    u = (1, .., 1)/sqrt(d) and gamma = 1/sqrt(d) (d a perfect square keeps u rational)."""
    a = Fraction(a)
    r = math.isqrt(d)
    if d < 1 or r * r != d:
        raise ValueError(f"d must be a perfect square (u = (1, .., 1)/sqrt(d) rational), got {d!r}")
    X = [[int(i == j) for j in range(d)] for i in range(d)]
    y = [1] * d
    u = [Fraction(1, r)] * d
    gamma = Fraction(1, r)
    tr = run_second_order_perceptron(X, y, a=a)
    t = bound_terms(tr, X, y, u, gamma)
    chk = check_bound(t)
    # ratio = M gamma / (D + sqrt(u_A_u * L)), L = ln prod (1 + q_k) in [lo, hi]
    lo, hi = chk["ln_prod_enclosure"]
    s_lo = sqrt_enclosure(t["u_A_u"] * lo)[0]
    s_hi = sqrt_enclosure(t["u_A_u"] * hi)[1]
    num = t["M"] * gamma
    interval = (num / (t["D"] + s_hi), num / (t["D"] + s_lo))
    q = 1 << 64                                        # rounded outwards: still an enclosure
    interval = (Fraction((interval[0].numerator * q) // interval[0].denominator, q),
                Fraction(-((-interval[1].numerator * q) // interval[1].denominator), q))
    ties = all(m == 0 for m in tr.extras["margins"])
    ok = bool(all(chk["links"].values()) and chk["bound"] and tr.mistakes == d and ties)
    bound = float(t["D"] + (s_lo + s_hi) / 2) / float(gamma)
    return {"mistakes": tr.mistakes, "bound": bound, "ok": ok,
            "tight": "ratio" if ok and interval[0] >= Fraction(99, 100) else None,
            "figures": {"d": d, "a": a, "gamma": gamma, "u_sq": sum(c * c for c in u), "D": t["D"],
                        "every_step_a_tie": ties, "q": sorted(set(tr.extras["q"])),
                        "u_A_u": t["u_A_u"], "v_B_v": t["v_B_v"], "sum_q_ratio": t["sum_q_ratio"],
                        "ratio_interval": interval,
                        "certificate": "exact replay; the bound's chain in rationals, ln prod(1 + q_k) "
                                       "and the square root in rational enclosures"},
            "data": {"X": X, "y": y, "a": fraction_str(a), "u": [fraction_str(c) for c in u],
                     "gamma": fraction_str(gamma)}}


def second_order_cells():
    """(algorithm, label, name, builder) for the adversary table."""
    return [("second_order_perceptron", "second-order a=50 d=16 orth.", "second_order_orthonormal_d16_a50",
             lambda: orthonormal_row(16, 50))]
