"""The margin gamma shared by the perceptron constructions: reading it exactly, and the
Block–Novikoff count floor(1/gamma^2) it allows (used by the separable, inseparable and
two-dimensional searches alike)."""
from __future__ import annotations

from fractions import Fraction

from learners.errors import InputError

__all__ = ["parse_gamma", "K_of"]


def parse_gamma(g) -> Fraction:
    """``"0.2"`` -> 1/5 (the rational it names, never the float), ``"1/20"`` -> 1/20."""
    from learners.numbers import to_fraction
    f = to_fraction(g, what="gamma")
    if not 0 < f <= 1:
        raise InputError(f"gamma must be in (0, 1], got {g}")
    return f


def K_of(gamma: Fraction) -> int:
    """floor(1/gamma^2), exactly."""
    q = 1 / (gamma * gamma)
    return q.numerator // q.denominator
