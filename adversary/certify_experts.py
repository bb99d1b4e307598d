"""Exact certification of an experts sequence (Weighted Majority and its randomized form): the
advice table is replayed by the reference learner in exact mode and compared with the bounds of
Littlestone & Warmuth (1994) -- logarithms included -- without floating point.

Weighted Majority, penalty beta:  M <= (m ln(1/beta) + ln n) / ln(2/(1+beta))  (Thm 2.1), decided as
(2/(1+beta))^M <= (1/beta)^m n in rationals; at beta = 1/2 also the catalogue's 2.41 (m + lg n),
decided as n^q >= 2^p for the rational p/q = M/2.41 - m.  Randomized WM:
E[M] <= (m ln(1/beta) + ln n) / (1 - beta)  (sec. 5), E[M] an exact rational, the logarithms in
rational enclosures (:mod:`adversary.log_enclosure`); decided when the enclosure separates (it is
2^-90 wide), else reported undecided.  The ratio is irrational: ``ratio_interval`` holds two
rationals around it (``bound``/``ratio`` are floats for display), and ``reaches_99_percent`` says,
exactly, whether M >= 0.99 bound.  m is the best expert's number of mistakes, n the number of
experts.
"""
from __future__ import annotations

from fractions import Fraction

from adversary.certificate import Certificate
from adversary.log_enclosure import ln_enclosure

__all__ = ["certify_experts"]

TIGHT = Fraction(99, 100)


def _pow_le(a: Fraction, k: int, b: Fraction) -> bool:
    """a^k <= b for rationals, k >= 0 (cross-multiplied integers)."""
    p = a ** k
    return p.numerator * b.denominator <= b.numerator * p.denominator


def certify_experts(seq, record: str = "none") -> Certificate:
    from learners import run_randomized_weighted_majority, run_weighted_majority
    beta = Fraction(seq.beta)
    A = [[int(v) for v in row] for row in seq.examples]
    randomized = seq.algorithm == "randomized_weighted_majority"
    if randomized:
        tr = run_randomized_weighted_majority(A, seq.labels, beta=beta, seed=0, record=record)
    else:
        tr = run_weighted_majority(A, seq.labels, beta=beta, record=record)
    m = min(tr.extras["expert_mistakes"])
    n = len(A[0])
    cert = Certificate(seq.algorithm, tr.mistakes, tr.n_steps, trace=tr,
                       trusted=[f"learners.run_{seq.algorithm} (exact mode)", "fractions.Fraction"])
    f = cert.figures
    f.update(n=n, m=m, beta=beta, n_examples=seq.n_examples)
    ln_n = ln_enclosure(n)
    if beta == 0:                                          # Halving as WM: M <= lg n when m = 0
        f["bound_form"] = "lg n (beta = 0: Halving; needs m = 0)"
        if m == 0:
            cert.within_bound = 2 ** tr.mistakes <= n
            l2 = ln_enclosure(2)
            lo, hi = ln_n[0] / l2[1], ln_n[1] / l2[0]
            _ratio(cert, Fraction(tr.mistakes), lo, hi)
        return cert
    ln_ib = ln_enclosure(1 / beta)
    top = (m * ln_ib[0] + ln_n[0], m * ln_ib[1] + ln_n[1])
    if randomized:
        E = tr.extras["expected_mistakes"]
        f["expected_mistakes"] = E
        f["bound_form"] = "(m ln(1/beta) + ln n) / (1 - beta)  (bound on E[M])"
        lo, hi = top[0] / (1 - beta), top[1] / (1 - beta)
        cert.within_bound = True if E <= lo else (False if E > hi else None)
        if cert.within_bound is None:
            f["note"] = "the enclosure of the bound does not decide E[M] <= bound"
        _ratio(cert, E, lo, hi)
        return cert
    M = tr.mistakes
    f["bound_form"] = "(m ln(1/beta) + ln n) / ln(2/(1+beta))"
    q = 2 / (1 + beta)
    cert.within_bound = _pow_le(q, M, (1 / beta) ** m * n)
    ln_q = ln_enclosure(q)
    _ratio(cert, Fraction(M), top[0] / ln_q[1], top[1] / ln_q[0])
    # M ln q >= 0.99 (m ln(1/beta) + ln n)  iff  ((1/beta)^m n)^99 <= q^(100 M)
    f["reaches_99_percent"] = _pow_le((1 / beta) ** m * n, 99, q ** (100 * M))
    if beta == Fraction(1, 2):                             # the catalogue's 2.41 (m + lg n)
        c = Fraction(241, 100)
        r = M / c - m                                      # M <= 2.41 (m + lg n) iff lg n >= r
        f["within_241"] = r <= 0 or n ** r.denominator >= 2 ** r.numerator
        if not f["within_241"]:
            cert.within_bound = False
            cert.reasons.append(f"{M} mistakes exceed 2.41 (m + lg n) (weighted_majority_half_bound)")
        l2 = ln_enclosure(2)
        lg_lo, lg_hi = ln_n[0] / l2[1], ln_n[1] / l2[0]
        f["bound_241"] = float(c * (m + (lg_lo + lg_hi) / 2))
        r99 = M / (c * TIGHT) - m                          # M >= 0.99 * 2.41 (m + lg n) iff lg n <= r99
        f["reaches_99_percent_241"] = r99 >= 0 and n ** r99.denominator <= 2 ** r99.numerator
        f["ratio_241_interval"] = (M / (c * (m + lg_hi)), M / (c * (m + lg_lo)))
    if cert.within_bound is False and not cert.reasons:
        cert.reasons.append(f"{M} mistakes exceed the bound: the replay contradicts the theorem")
    return cert


def _ratio(cert: Certificate, got: Fraction, lo: Fraction, hi: Fraction) -> None:
    f = cert.figures
    f["bound_interval"] = (lo, hi)
    f["ratio_interval"] = (got / hi, got / lo) if lo > 0 else (got / hi, None)
    cert.bound = float((lo + hi) / 2)
    cert.ratio = float(got) / cert.bound if cert.bound else None
    if "reaches_99_percent" not in f:
        f["reaches_99_percent"] = got / hi >= TIGHT
