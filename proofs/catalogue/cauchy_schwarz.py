"""Cauchy-Schwarz: (a.b)^2 <= |a|^2 |b|^2 for vectors of R^d, any d.

The proof of the textbooks: for every real t, 0 <= |a - t b|^2 = |a|^2 - 2t (a.b) + t^2 |b|^2
(an identity of inner products, checked in coordinates; the square is >= 0 as a sum of squares).
At t = (a.b)/|b|^2 this gives the claim when |b|^2 > 0; when |b|^2 = 0 the value
t = (|a|^2 + 1)/(2 a.b) would make the quadratic negative unless a.b = 0.  The perceptron theorems
use it as (w.w*)^2 <= |w|^2 |w*|^2.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Real, Vec, dot

a, b = Vec("a"), Vec("b")
t = Real("t")


def _proof(p):
    A, B, C = dot(a, a), dot(b, b), dot(a, b)
    quad = A - 2 * t * C + t * t * B
    e = p.identity("norm_sq_of_difference", dot(a - t * b, a - t * b), quad, title="|a - t b|^2 = |a|^2 - 2t a.b + t^2 |b|^2")
    sq = p.rule("finite_sum_linearity", "dot_nonneg", a - t * b)
    q = p.solve("quadratic_in_t_nonneg", [e, sq], quad >= 0, title="the quadratic in t is >= 0 for every t")
    at_min = p.specialize(q, {t: C / B})
    at_far = p.specialize(q, {t: (A + 1) / (2 * C)})
    bb = p.rule("finite_sum_linearity", "dot_nonneg", b)
    return p.solve("cauchy_schwarz_from_discriminant", [at_min, at_far, bb], C**2 <= A * B,
                   title="the quadratic's minimum (or, if |b|^2 = 0, its slope) gives (a.b)^2 <= |a|^2 |b|^2")


THEOREMS = [
    Theorem(
        id="cauchy_schwarz",
        name="Cauchy-Schwarz in every dimension",
        source=Source("", "used by every perceptron bound (Blum: w.w* <= |w| for unit w*; Lin: w.w*/|w*| <= |w|)",
                      "The notes use w.w* <= |w| |w*| without proof."),
        hypotheses=[],
        conclusion=dot(a, b)**2 <= dot(a, a) * dot(b, b),
        proof=_proof, encoding="vectors of R^d, any d",
    ),
]
