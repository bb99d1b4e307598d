"""Rational enclosures of natural logarithms, for certifying bounds that contain ln 2, ln n or
ln(4/3) without floating point: ``ln_enclosure(x) -> (lo, hi)`` with lo <= ln x <= hi, both
``Fraction``s.

ln x = 2 atanh(z), z = (x - 1)/(x + 1), |z| < 1 for x > 0, and atanh z = sum_{j >= 0}
z^(2j+1)/(2j+1).  The partial sum up to j = K - 1 is exact; the tail is at most
|z|^(2K+1) / ((2K+1)(1 - z^2)) in absolute value and has the sign of z, so the enclosure is
[S, S + tail] for z > 0 and [S - tail, S] for z < 0.  Only Python's ``fractions`` is trusted.
"""
from __future__ import annotations

from fractions import Fraction

__all__ = ["ln_enclosure", "ratio_enclosure"]


def _round_out(lo: Fraction, hi: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Shrink the denominators to 2^bits, rounding lo down and hi up (still an enclosure)."""
    q = 1 << bits
    return (Fraction((lo.numerator * q) // lo.denominator, q),
            Fraction(-((-hi.numerator * q) // hi.denominator), q))


def ln_enclosure(x, *, bits: int = 96) -> tuple[Fraction, Fraction]:
    """lo <= ln(x) <= hi for a rational x > 0, with hi - lo below about 2^-(bits - 4)."""
    x = Fraction(x)
    if x <= 0:
        raise ValueError(f"ln needs x > 0, got {x}")
    if x == 1:
        return Fraction(0), Fraction(0)
    # bring x near 1: ln x = k ln 2 + ln(x / 2^k)
    k = 0
    while x > Fraction(3, 2):
        x /= 2
        k += 1
    while x < Fraction(3, 4):
        x *= 2
        k -= 1
    if k:
        l2lo, l2hi = _ln_near_one(Fraction(2), bits + 8)
        ylo, yhi = _ln_near_one(x, bits + 8) if x != 1 else (Fraction(0), Fraction(0))
        lo = k * (l2lo if k > 0 else l2hi) + ylo
        hi = k * (l2hi if k > 0 else l2lo) + yhi
        return _round_out(lo, hi, bits)
    return _round_out(*_ln_near_one(x, bits + 8), bits)


def _ln_near_one(x: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    z = (x - 1) / (x + 1)
    az = abs(z)
    eps = Fraction(1, 1 << bits)
    s, p, j = Fraction(0), z, 0
    z2 = z * z
    while True:
        s += p / (2 * j + 1)
        j += 1
        p *= z2
        tail = abs(p) / ((2 * j + 1) * (1 - z2))
        if 2 * tail < eps:
            break
    assert az < 1
    lo, hi = (2 * s, 2 * (s + tail)) if z > 0 else (2 * (s - tail), 2 * s)
    return lo, hi


def ratio_enclosure(num: tuple[Fraction, Fraction], den: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    """[lo, hi] of a / b for a in num, b in den, both enclosures of positive numbers."""
    if den[0] <= 0 or num[0] < 0:
        raise ValueError("ratio_enclosure needs a positive denominator and a non-negative numerator")
    return num[0] / den[1], num[1] / den[0]
