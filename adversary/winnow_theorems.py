"""The Winnow mistake bounds a certificate checks, decided exactly: Blum's notes' potential bound
for any threshold theta (M <= A + B log_base theta, compared as base^p <= theta^s), the catalogue's
sharper forms for theta = n = 2^p (proofs/catalogue/winnow_pow2_bound.py) and the tight halving bound
(proofs/catalogue/winnow_tight_bound.py)."""
from __future__ import annotations

import math
from fractions import Fraction

from learners.errors import InputError

__all__ = ["within_log_bound", "winnow_bound", "winnow_sharper_bound", "winnow_tight_bound", "TIGHT_THEOREM",
           "max_mistakes_allowed", "log_rational"]


def log_rational(base: Fraction, theta: Fraction):
    """log_base(theta) as a Fraction when it is an integer power relation base^k = theta^1
    (or theta = base^(p/q) with small q), else None."""
    if theta <= 0 or base <= 1:
        return None
    for q in range(1, 13):
        # theta^q = base^p ?
        tq = theta ** q
        x, p = Fraction(1), 0
        if tq >= 1:
            while x < tq:
                x *= base
                p += 1
            if x == tq:
                return Fraction(p, q)
        else:
            while x > tq:
                x /= base
                p -= 1
            if x == tq:
                return Fraction(p, q)
    return None


def within_log_bound(M: int, A: Fraction, B: Fraction, base: Fraction, theta: Fraction) -> bool:
    """Decide M <= A + B log_base(theta) exactly (B > 0, base > 1, theta > 0)."""
    if M <= A:
        return True
    q = (Fraction(M) - A) / B            # need q <= log_base theta, i.e. base^q <= theta
    p, s = q.numerator, q.denominator
    return base ** p <= theta ** s


def winnow_bound(variant: str, n: int, r: int, alpha=2, theta=None):
    """(A, B, base) with M <= A + B log_base(theta); None when theta < 1 (not covered)."""
    alpha = Fraction(alpha)
    theta = Fraction(n) if theta is None else Fraction(theta)
    if theta < 1:
        return None
    if variant == "halve":
        return Fraction(3 * r) + Fraction(2 * n) / theta, Fraction(3 * r), Fraction(2)
    if variant == "eliminate":
        return Fraction(2 * r) + Fraction(n) / theta, Fraction(2 * r), Fraction(2)
    if variant == "winnow2":
        return (1 + alpha) * r + alpha * n / ((alpha - 1) * theta), (1 + alpha) * r, alpha
    raise InputError(f"unknown Winnow variant {variant!r}")


def winnow_sharper_bound(variant: str, n: int, r: int, alpha=2, theta=None):
    """The sharper bounds for theta = n = 2^p (proofs/catalogue/winnow_pow2_bound.py: theorems
    winnow_halving_pow2, n >= 2, and winnow_elimination_pow2, n >= 2 and r >= 1), else None."""
    if theta is not None and Fraction(theta) != n:
        return None
    if n < 2 or n & (n - 1):
        return None
    p = n.bit_length() - 1
    if variant == "halve":
        return Fraction(1 + r * (3 * p - 2))
    if variant == "eliminate" and r >= 1:
        return Fraction(r * (2 * p - 1))
    return None


TIGHT_THEOREM = "winnow_halving_pow2_tight"


def winnow_tight_bound(variant: str, n: int, r: int, alpha=2, theta=None):
    """The tight halving bound r(3 lg n - 2) for theta = n = 2^p >= 2 and r >= 1 (proofs/catalogue/winnow_tight_bound.py:
    theorem winnow_halving_pow2_tight; attained by the exact adversary), as an exact integer
    Fraction; None outside those conditions (other variants, other theta, n not a power of 2, r = 0)."""
    if variant != "halve" or r < 1:
        return None
    if theta is not None and Fraction(theta) != n:
        return None
    if n < 2 or n & (n - 1):
        return None
    p = n.bit_length() - 1
    return Fraction(r * (3 * p - 2))


def max_mistakes_allowed(A: Fraction, B: Fraction, base: Fraction, theta: Fraction) -> int:
    """The largest integer M with M <= A + B log_base(theta), decided exactly."""
    M = max(0, math.floor(A))
    while within_log_bound(M + 1, A, B, base, theta):
        M += 1
    return M
