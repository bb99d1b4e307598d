"""A worst case for Hedge (Freund & Schapire 1997): a loss sequence chosen against the learner that
drives its total loss close to the bound (ln(1/beta) L_j + ln n) / (1 - beta), certified by an
exact replay.

The adversary reads Hedge's exact weights and puts loss 1 on the option of largest weight (the
first on a tie), 0 on the others.  With two options Hedge then pays 1/2 and 1/(1 + beta) on
alternate steps while each option pays one step in two, so L_Hedge / bound tends to
(1/2 + 1/(1 + beta)) (1 - beta) / ln(1/beta) as T grows: 0.974 at beta = 9/10.

The bound has logarithms; (1 - beta) L_Hedge <= ln(1/beta) m + ln n is certified through the
exponentials, exp((1 - beta) L_Hedge) <= n (1/beta)^m, with a rational upper bound on exp
(:func:`exp_upper`: Taylor's sum with a bounded remainder, then squarings rounded up).
"""
from __future__ import annotations

import math
from fractions import Fraction

from learners import run_hedge
from learners.numbers import fraction_str

__all__ = ["exp_upper", "exp_lower", "heaviest_loss_sequence", "hedge_row", "hedge_cells"]


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


def hedge_cells():
    """(algorithm, label, name, builder) for the adversary table's Hedge rows."""
    return [("hedge", "Hedge beta=9/10 n=2 T=1000", "hedge_heaviest_T1000", lambda: hedge_row(1000))]
