"""Worst cases for Hedge (Freund & Schapire 1997): loss sequences that drive its total loss close
to the bound (ln(1/beta) L_j + ln n) / (1 - beta), certified by an exact replay.

* :func:`hedge_spared_row` (the table's row): Freund & Schapire's proof loses only in
  beta^l <= 1 - (1 - beta) l (an equality for l in {0, 1}), in 1 - x <= exp(-x) (tight when each
  step's loss is small) and in w(T, j) <= W(T) (tight when the best option ends with all the
  weight).  So: 0/1 losses on one option per step, the heaviest first (round robin over the n
  options), and at the end the best option spared while the others keep losing -- the construction
  of Randomized Weighted Majority's row (``adversary.experts_worst.rwm_spared_advice``), whose
  expected mistakes are Hedge's loss on these losses.  n = 64, beta = 1/2: ratio 0.9947.
* :func:`hedge_row`: the two-option adversary that loads the heaviest option (ratio 0.96 at
  beta = 9/10, T = 1000; it tends to (1/2 + 1/(1 + beta)) (1 - beta) / ln(1/beta)).

The bound has logarithms; (1 - beta) L_Hedge <= ln(1/beta) m + ln n is certified through the
exponentials, exp((1 - beta) L_Hedge) <= n (1/beta)^m, with a rational upper bound on exp
(:func:`exp_upper`: Taylor's sum with a bounded remainder, then squarings rounded up), and the
ratio is enclosed between two rationals (``adversary.log_enclosure``).
"""
from __future__ import annotations

import math
from fractions import Fraction

from learners import run_hedge
from learners.numbers import fraction_str

__all__ = ["exp_upper", "exp_lower", "heaviest_loss_sequence", "hedge_row", "hedge_spared_row", "hedge_cells"]


def _round_up(q: Fraction, bits: int) -> Fraction:
    return Fraction(-((-q.numerator << bits) // q.denominator), 1 << bits)


def _round_down(q: Fraction, bits: int) -> Fraction:
    return Fraction((q.numerator << bits) // q.denominator, 1 << bits)


def exp_upper(x: Fraction, bits: int = 200) -> Fraction:
    """A rational U >= exp(x), for x >= 0: exp(y) <= sum_{k<=K} y^k/k! + 3 y^(K+1)/(K+1)! for
    0 <= y <= 1 (the remainder is at most exp(y) y^(K+1)/(K+1)! and exp(1) < 3), y = x / 2^s, then
    s squarings, each rounded up to a multiple of 2^-bits."""
    x = Fraction(x)
    if x < 0:
        raise ValueError("exp_upper needs x >= 0")
    s = max(0, math.ceil(math.log2(float(x) + 1)))
    y = x / 2 ** s
    K, term, total = 30, Fraction(1), Fraction(1)
    for k in range(1, K + 1):
        term = term * y / k
        total += term
    u = _round_up(total + 3 * term * y / (K + 1), bits)
    for _ in range(s):
        u = _round_up(u * u, bits)
    return u


def exp_lower(x: Fraction, bits: int = 200) -> Fraction:
    """A rational V <= exp(x), for x >= 0: Taylor's sum (every term >= 0), then squarings rounded down."""
    x = Fraction(x)
    if x < 0:
        raise ValueError("exp_lower needs x >= 0")
    s = max(0, math.ceil(math.log2(float(x) + 1)))
    y = x / 2 ** s
    term, total = Fraction(1), Fraction(1)
    for k in range(1, 31):
        term = term * y / k
        total += term
    v = _round_down(total, bits)
    for _ in range(s):
        v = _round_down(v * v, bits)
    return v


def heaviest_loss_sequence(n: int, T: int, beta: Fraction) -> list[list[int]]:
    """Loss 1 on the option of largest weight (the first on a tie), 0 on the others, read from
    Hedge's exact weights step by step (the weights are beta^(losses so far): counts suffice)."""
    counts, rows = [0] * n, []
    for _ in range(T):
        k = min(range(n), key=lambda i: (counts[i], i))     # largest weight beta^count: the fewest losses
        rows.append([1 if i == k else 0 for i in range(n)])
        counts[k] += 1
    return rows


def hedge_row(T: int, beta=Fraction(9, 10), n: int = 2) -> dict:
    """Hedge on the adversary's losses, replayed exactly, against its bound."""
    beta = Fraction(beta)
    L = heaviest_loss_sequence(n, T, beta)
    tr = run_hedge(L, beta=beta)
    LH, m = tr.extras["hedge_loss"], min(tr.extras["expert_losses"])
    # (1 - beta) LH <= m ln(1/beta) + ln n  <=>  exp((1 - beta) LH) <= n (1/beta)^m
    U = exp_upper((1 - beta) * LH)
    rhs = n * (1 / beta) ** int(m)
    ok = m.denominator == 1 and U <= rhs
    bound = (float(m) * math.log(1 / float(beta)) + math.log(n)) / (1 - float(beta))
    return {"mistakes": LH, "bound": bound, "ok": ok,
            "figures": {"m": m, "n": n, "beta": beta, "hedge_loss": LH, "expected": True,
                        "certificate": "exp((1 - beta) L_Hedge) <= U <= n (1/beta)^m, U rational"},
            "data": {"losses": L, "beta": fraction_str(beta)}}


def hedge_spared_row(n: int = 64, cycles: int = 2, spare_cycles: int = 14, beta=Fraction(1, 2)) -> dict:
    """Hedge on one 0/1 loss per step, round robin over the n options, then the best one spared."""
    from adversary.experts_worst import TIGHT_RATIO, rwm_spared_advice
    from adversary.log_enclosure import ln_enclosure, ratio_enclosure
    beta = Fraction(beta)
    A, _ = rwm_spared_advice(n, cycles, spare_cycles)
    L = [[1 if a == -1 else 0 for a in row] for row in A]
    tr = run_hedge(L, beta=beta)
    LH, m = tr.extras["hedge_loss"], min(tr.extras["expert_losses"])
    ok = m.denominator == 1 and exp_upper((1 - beta) * LH) <= n * (1 / beta) ** int(m)
    lb, ln_n = ln_enclosure(1 / beta), ln_enclosure(n)
    den = ((m * lb[0] + ln_n[0]) / (1 - beta), (m * lb[1] + ln_n[1]) / (1 - beta))
    lo, hi = ratio_enclosure((LH, LH), den)
    q = 1 << 64                                   # rounded outwards: still an enclosure, shorter to print
    interval = (Fraction((lo.numerator * q) // lo.denominator, q), Fraction(-((-hi.numerator * q) // hi.denominator), q))
    return {"mistakes": LH, "bound": LH / ((interval[0] + interval[1]) / 2), "ok": ok,
            "tight": "ratio" if interval[0] >= TIGHT_RATIO else None,
            "figures": {"m": m, "n": n, "T": len(L), "beta": beta, "hedge_loss": LH, "expected": True,
                        "ratio_interval": interval,
                        "certificate": "exp((1 - beta) L_Hedge) <= U <= n (1/beta)^m, U rational; ln in "
                                       "rational enclosures"},
            "data": {"losses": L, "beta": fraction_str(beta)}}


def hedge_cells():
    """(algorithm, label, name, builder) for the adversary table's Hedge rows."""
    return [("hedge", "Hedge beta=1/2 n=64 spared", "hedge_spared_n64", lambda: hedge_spared_row())]
