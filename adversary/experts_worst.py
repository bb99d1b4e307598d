"""Worst cases that reach the experts bounds: a periodic adversary against Weighted Majority
(beta = 1/2) and a spared-expert round robin against Randomized Weighted Majority, each replayed
exactly by the reference learner and certified in rational arithmetic.

Weighted Majority.  With weights 2^-(mistakes), a mistake of WM keeps W(t+1) = W(t) - (wrong
weight)/2 <= (3/4) W(t), and the bound M <= (m ln 2 + ln n)/ln(4/3) (Littlestone & Warmuth 1994,
Thm 2.1) is met only when every mistake has *exactly* half the weight wrong and the best expert
ends with almost all of the weight.  The adversary therefore keeps the experts' weights spread
over several levels (powers of 2) so that a subset of exactly half the weight always exists
(Cesa-Bianchi & Lugosi 2006, ch. 2, on the tightness of the exponential-weights bounds).  The
state is the number of experts at each level relative to the best; the cycle ``WM_CYCLE`` over
n = 10 experts makes 12 mistakes while the best expert makes 5 (every round exactly half of the
weight wrong but for a small excess), so each period keeps (3/4)^12 >= 2^-5 and the ratio tends
to 12 ln(4/3) / (5 ln 2) = 0.99609.  It was found by a maximum-ratio-cycle search over the
level-count states (10 experts, levels 0..9, mistakes with a wrong fraction in [1/2, 0.54]) and
is stored here as data: the replay, not the search, is the certificate.  The same search over 8
experts (levels 0..7, every move) and 9 experts (levels 0..8, wrong fraction at most 0.56) found no
better cycle than 19/8 and 31/13 (0.986 and 0.990 in the limit).  No cycle keeps exactly half of
the weight wrong forever: that would need (3/4)^M = 2^-s, and 3^M is never a power of 2.  ``WM_PREFIX`` leads from every
expert at level 0 to the cycle's first state (shortest, every round a mistake).

Randomized Weighted Majority.  E[M] = sum_t F_t and W(t+1) = (1 - F_t/2) W(t); the bound
E[M] <= 2 (m ln 2 + ln n) (Littlestone & Warmuth 1994, sec. 5) uses 1 - x <= e^-x, tight when
every F_t is small, and W(T) >= w_best, tight when the best expert ends with all the weight.  So:
one expert errs per round, the heaviest first (round robin: F_t <= 2/n), for ``cycles`` rounds of
every expert, then the best expert is spared and the n - 1 others keep erring for
``spare_cycles`` rounds of theirs, until their weight is negligible.

Each row is a ``mistakebound.sequence/1`` file (algorithm ``weighted_majority`` or
``randomized_weighted_majority``) certified by :func:`adversary.certify.certify`
(:mod:`adversary.certify_experts`): every figure with a logarithm is decided exactly -- WM's
bound as 4^M <= 3^M 2^m n, its 2.41 form and the 0.99 threshold through powers of integers, RWM's
through rational enclosures of ln 2 and ln n -- and ``mistakebound replay`` re-checks the file.
"""
from __future__ import annotations

from fractions import Fraction


__all__ = ["WM_CYCLE", "WM_PREFIX", "wm_cycle_advice", "wm_tight_row", "wm_half_tight_row", "rwm_spared_row",
           "rwm_spared_advice", "TIGHT_RATIO"]

TIGHT_RATIO = Fraction(99, 100)     # the table's threshold (adversary.unit_worst.TIGHT_RATIO)

# wrong experts per relative level (level 0 = the best experts), one tuple per round
WM_PREFIX = [(5,), (2, 4), (1, 2, 3), (0, 2, 3, 3), (1, 0, 0, 3, 3), (1, 0, 0, 0, 1, 3), (2, 1, 0, 0, 0, 2)]
WM_CYCLE = [(2, 0, 0, 0, 1, 2), (1, 0, 2, 1), (2, 0, 1, 0, 1, 2), (1, 1, 0, 2, 0, 0, 2), (1, 0, 1, 0, 1, 1),
            (2,), (1, 1), (2, 0, 1), (1, 1, 0, 1, 0, 2), (2, 1, 0, 0, 0, 1), (1, 1, 1, 1, 0, 1), (1, 0, 1, 1, 1)]
WM_EXPERTS = 10


def wm_cycle_advice(periods: int, n: int = WM_EXPERTS):
    """Advice rows and labels: ``WM_PREFIX`` then ``periods`` copies of ``WM_CYCLE``.  In each round
    the wrong experts (the lowest-indexed ones at each relative level) say +1, the others -1, the
    label is -1: WM predicts +1 whenever the wrong weight is at least half (a tie predicts +1)."""
    mistakes = [0] * n
    A, y = [], []
    for move in WM_PREFIX + WM_CYCLE * periods:
        low = min(mistakes)
        wrong = set()
        for level, k in enumerate(move):
            at = [i for i in range(n) if mistakes[i] - low == level]
            if len(at) < k:
                raise AssertionError("stored WM move does not fit the state")
            wrong.update(at[:k])
        A.append([1 if i in wrong else -1 for i in range(n)])
        y.append(-1)
        for i in wrong:
            mistakes[i] += 1
    return A, y


def _sequence(algorithm: str, A, y, meta: dict):
    from adversary.certify import certify
    from adversary.sequence import Sequence
    seq = Sequence(algorithm, A, y, beta=Fraction(1, 2), meta=meta)
    return seq, certify(seq)


def _row(seq, cert, got, interval, reaches, extra: dict) -> dict:
    f = cert.figures
    fig = {"m": f["m"], "n": f["n"], "T": cert.n_steps, "reaches_99_percent": reaches,
           "ratio_interval": interval, **extra}
    seq.claims = {"mistakes": cert.mistakes}
    if "expected_mistakes" in f:
        seq.claims["expected_mistakes"] = f["expected_mistakes"]
    return {"mistakes": got, "bound": got / ((interval[0] + interval[1]) / 2), "ok": cert.ok, "figures": fig,
            "tight": "ratio" if reaches else None, "sequence": seq,
            "data": {"advice": [list(map(int, r)) for r in seq.examples], "y": seq.labels, "beta": "1/2"}}


def wm_tight_row(periods: int = 400) -> dict:
    """WM (beta = 1/2) against M <= (m ln 2 + ln n)/ln(4/3), n = 10: certified by
    :func:`adversary.certify.certify` (every round must be a mistake)."""
    A, y = wm_cycle_advice(periods)
    seq, cert = _sequence("weighted_majority", A, y, {"strategy": "wm_cycle", "periods": periods,
                                                      "cycle": "12 mistakes per 5 of the best expert"})
    f = cert.figures
    row = _row(seq, cert, Fraction(cert.mistakes), f["ratio_interval"], f["reaches_99_percent"],
               {"periods": periods, "decided": "4^M <= 3^M 2^m n; (2^m n)^99 <= (4/3)^(100M)"})
    row["ok"] = cert.ok and cert.mistakes == len(A)
    row["mistakes"] = cert.mistakes
    return row


def wm_half_tight_row(periods: int = 400) -> dict:
    """The same run against the catalogue's beta = 1/2 form M <= 2.41 (m + lg n)."""
    A, y = wm_cycle_advice(periods)
    seq, cert = _sequence("weighted_majority", A, y, {"strategy": "wm_cycle", "periods": periods,
                                                      "against": "2.41 (m + lg n)"})
    f = cert.figures
    row = _row(seq, cert, Fraction(cert.mistakes), f["ratio_241_interval"], f["reaches_99_percent_241"],
               {"periods": periods, "decided": "lg n compared with rationals through n^q vs 2^p"})
    row["ok"] = cert.ok and f["within_241"] and cert.mistakes == len(A)
    row["mistakes"] = cert.mistakes
    return row


def rwm_spared_advice(n: int, cycles: int, spare_cycles: int):
    """Round robin over the n experts (``cycles`` times), then over experts 1..n-1 only
    (``spare_cycles`` times): one wrong expert per round, label +1."""
    A = []
    order = list(range(n)) * cycles + list(range(1, n)) * spare_cycles
    for i in order:
        A.append([-1 if j == i else 1 for j in range(n)])
    return A, [1] * len(A)


def rwm_spared_row(n: int = 64, cycles: int = 2, spare_cycles: int = 14) -> dict:
    """RWM (beta = 1/2) against E[M] <= 2 (m ln 2 + ln n), certified by :func:`adversary.certify.certify`."""
    A, y = rwm_spared_advice(n, cycles, spare_cycles)
    seq, cert = _sequence("randomized_weighted_majority", A, y,
                          {"strategy": "spared_round_robin", "cycles": cycles, "spare_cycles": spare_cycles})
    f = cert.figures
    row = _row(seq, cert, f["expected_mistakes"], f["ratio_interval"], f["reaches_99_percent"],
               {"expected": True, "round_robin_cycles": cycles, "spared_cycles": spare_cycles,
                "decided": "E[M] exact; ln 2, ln n in rational enclosures"})
    row["ok"] = cert.ok and cert.within_bound is True
    return row
