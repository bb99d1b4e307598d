"""Exact numbers: parsing and printing rationals.

Every certificate in the suite is a rational number.  On the wire (JSON, CSV) a rational is an
integer or a string ``"p/q"``; a decimal string such as ``"0.2"`` is read as the rational it
names (1/5), never as the nearest float.
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction

from learners.errors import InputError

__all__ = ["to_fraction", "fraction_str", "to_json_number", "lcm_of_denominators", "is_exact_type"]


def is_exact_type(v) -> bool:
    return isinstance(v, (int, Fraction, numbers.Rational)) and not isinstance(v, bool)


def to_fraction(v, *, what: str = "value") -> Fraction:
    """Convert an int, Fraction, float (its exact binary value), numpy scalar or string to a Fraction.

    Strings are read exactly: ``"1/5"`` and ``"0.2"`` both give ``Fraction(1, 5)``.
    """
    if isinstance(v, bool):
        return Fraction(int(v))
    if isinstance(v, Fraction):
        return v
    if isinstance(v, int):
        return Fraction(v)
    if isinstance(v, str):
        s = v.strip()
        try:
            f = Fraction(s)
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{what} {v!r} is not a number (expected an integer, a decimal or p/q)") from None
        return f
    if isinstance(v, numbers.Integral):
        return Fraction(int(v))
    if isinstance(v, numbers.Rational):
        return Fraction(int(v.numerator), int(v.denominator))
    if isinstance(v, numbers.Real):
        x = float(v)
        if not math.isfinite(x):
            raise InputError(f"{what} is {x} (NaN and infinity are not allowed)")
        return Fraction(x)
    raise InputError(f"{what} {v!r} is not a real number")


def fraction_str(f) -> str:
    """``Fraction(3, 4)`` -> ``"3/4"``; integers print without a denominator."""
    f = Fraction(f)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def to_json_number(v, exact: bool):
    """A number for JSON: ``"p/q"`` strings in exact mode, plain ints/floats otherwise."""
    if exact:
        return fraction_str(v)
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, numbers.Integral):
        return int(v)
    return float(v)


def lcm_of_denominators(values) -> int:
    d = 1
    for v in values:
        q = v.denominator
        if q != 1:
            d = d * q // math.gcd(d, q)
    return d
