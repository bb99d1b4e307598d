"""Hedge (Freund & Schapire 1997, "A decision-theoretic generalization of on-line learning and an
application to boosting", section 2): the allocation of one unit among n options (experts) under
losses in [0, 1].

Every option starts with weight 1.  Step t plays the distribution p_t = w_t / W_t, suffers the
expected loss p_t . l_t, and multiplies the weight of option i by beta^(l_t,i).  With L_i the
total loss of option i, L_Hedge <= (ln(1/beta) L_i + ln n) / (1 - beta)
(``proofs/catalogue/hedge_bound.py``); with beta tuned to the horizon T the regret is at most
sqrt(2 T ln n) + ln n (``proofs/catalogue/hedge_regret_bound.py``).  With losses in {0, 1} Hedge's loss is
Randomized Weighted Majority's expected number of mistakes.

Exact mode keeps every weight a ``Fraction``: beta^l must then be rational for every loss l (losses
in {0, 1}, or e.g. beta = 1/4 with losses in {0, 1/2, 1}); otherwise it refuses and float mode
(float64, ``beta ** l``) runs it.  A ``Step`` per step: ``activation`` is the expected loss
p_t . l_t, ``prediction`` the option of largest weight (the first on a tie), ``mistake`` whether
that loss is positive, ``weights`` the weights after the step.  ``extras["hedge_loss"]`` is the
total expected loss, ``extras["losses"]`` the one of every step, ``extras["expert_losses"]`` every
option's total loss and ``extras["total_weight"]`` the total weight after every step.
"""
from __future__ import annotations

from fractions import Fraction

from learners.core import check_record
from learners.errors import InputError
from learners.experts import check_beta
from learners.numbers import fraction_str, to_fraction
from learners.trace import Step, Trace

__all__ = ["run_hedge", "check_losses", "rational_power"]


def _iroot(a: int, q: int) -> int | None:
    """The integer q-th root of a >= 0 when it is one, else None (Newton's iteration from above)."""
    if a < 2:
        return a
    x = 1 << -(-a.bit_length() // q)
    while True:
        y = ((q - 1) * x + a // x ** (q - 1)) // q
        if y >= x:
            break
        x = y
    return x if x ** q == a else None


def rational_power(b: Fraction, x: Fraction) -> Fraction | None:
    """b^x for 0 < b and x = p/q >= 0 when it is rational (the q-th roots of b's numerator and
    denominator raised to p are integers), else None."""
    p, q = x.numerator, x.denominator
    num, den = _iroot(b.numerator ** p, q), _iroot(b.denominator ** p, q)
    if num is None or den is None:
        return None
    return Fraction(num, den)


def check_losses(L, *, exact: bool):
    """The loss table, T x n, every entry in [0, 1] (a Fraction in exact mode, a float otherwise)."""
    try:
        rows = [list(r) for r in L]
    except TypeError:
        raise InputError("losses must be a T x n table (one row per step, one column per option)") from None
    if not rows or not rows[0] or len({len(r) for r in rows}) != 1:
        raise InputError("losses must be a non-empty T x n table (one row per step, one column per option)")
    out = []
    for t, r in enumerate(rows):
        row = []
        for i, v in enumerate(r):
            f = to_fraction(v, what=f"loss[{t}][{i}]")
            if not (0 <= f <= 1):
                raise InputError(f"loss[{t}][{i}] is {fraction_str(f)}; losses must lie in [0, 1]")
            row.append(f if exact else float(f))
        out.append(row)
    return out


def run_hedge(L, *, beta=Fraction(1, 2), exact: bool = True, record: str = "all") -> Trace:
    """Hedge(beta) on the loss table ``L`` (T x n, losses in [0, 1])."""
    record = check_record(record)
    rows = check_losses(L, exact=exact)
    b = check_beta(beta, allow_zero=False, exact=exact)
    T, n = len(rows), len(rows[0])
    powers: dict = {}

    def factor(x):
        if not exact:
            return b ** x
        if x not in powers:
            r = rational_power(b, x)
            if r is None:
                raise InputError(f"beta^loss = {fraction_str(b)}^{fraction_str(x)} is not rational; "
                                 "run with exact=False (float64)")
            powers[x] = r
        return powers[x]
    one = Fraction(1) if exact else 1.0
    w = [one] * n
    steps, flags, losses, totals = [], [], [], []
    total_loss = one * 0
    for t, row in enumerate(rows):
        W = one * 0
        for v in w:
            W += v
        mixed = one * 0
        for i in range(n):
            mixed += w[i] * row[i]
        loss = mixed / W
        losses.append(loss)
        total_loss += loss
        best = max(range(n), key=lambda i: (w[i], -i))
        flags.append(loss > 0)
        w = [w[i] * factor(row[i]) for i in range(n)]
        W1 = one * 0
        for v in w:
            W1 += v
        totals.append(W1)
        if record == "all" or (loss > 0 and record == "mistakes"):
            steps.append(Step(t=t, epoch=0, index=t, label=0, activation=loss, prediction=best, mistake=loss > 0,
                              weights=tuple(w)))
    expert = [sum((r[i] for r in rows), one * 0) for i in range(n)]
    return Trace(algorithm="hedge", exact=exact, n_examples=T, n_features=n, epochs=1, record=record, steps=steps,
                 mistakes=sum(flags), n_steps=T, weights=tuple(w), bias=None, initial_weights=(one,) * n,
                 initial_bias=None, order=list(range(T)), mistake_flags=flags,
                 params={"beta": fraction_str(b) if exact else b},
                 extras={"hedge_loss": total_loss, "losses": losses, "expert_losses": expert,
                         "total_weight": totals})

