"""Cauchy-Schwarz in every dimension, dimension-free, from Lagrange's identity by induction on d.

With A_d = sum_{i<=d} a_i^2, B_d = sum b_i^2, C_d = sum a_i b_i and
S_d = sum_{i<j<=d} (a_i b_j - a_j b_i)^2, Lagrange's identity A_d B_d - C_d^2 = S_d holds for d = 0
and is preserved by adding a coordinate (a, b) (a polynomial identity in A, B, C, a, b), so it
holds in every dimension; S_d >= 0 then gives C^2 <= A B.  The perceptron theorems use the
result as the hypothesis (w.w*)^2 <= |w|^2 |w*|^2 on their inner-product variables.
"""
from __future__ import annotations

from ._common import reals
from .core import Obligation, Source, Theorem

ENC = "inner products / partial sums (dimension-free)"


def _new_terms():
    # sum_{i<=d} (a_i b - a b_i)^2 = b^2 A - 2 a b C + a^2 B, termwise: (a_i b - a b_i)^2 expands
    import sympy as sp
    ai, bi, a, b = sp.symbols("a_i b_i a b")
    return {"lhs": (ai * b - a * bi) ** 2, "rhs": b**2 * ai**2 - 2 * a * b * ai * bi + a**2 * bi**2}


def _step():
    import sympy as sp
    A, B, C, a, b = sp.symbols("A B C a b")
    # (A + a^2)(B + b^2) - (C + a b)^2  =  (A B - C^2) + (b^2 A - 2 a b C + a^2 B)
    return {"lhs": (A + a**2) * (B + b**2) - (C + a * b) ** 2,
            "rhs": (A * B - C**2) + (b**2 * A - 2 * a * b * C + a**2 * B)}


def _base():
    A, B, C, S = reals("A B C S")
    return {"hyps": [("empty_sums", A == 0), ("empty_sum_b", B == 0), ("empty_sum_c", C == 0),
                     ("empty_sum_s", S == 0)],
            "goal": A * B - C * C == S}


def _compose():
    A, B, C, S = reals("A B C S")
    return {"hyps": [("lagrange", A * B - C * C == S), ("sum_of_squares", S >= 0)],
            "goal": C * C <= A * B}


THEOREMS = [
    Theorem(
        id="cauchy_schwarz",
        title="Cauchy-Schwarz: (a.b)^2 <= |a|^2 |b|^2 in every dimension",
        statement="(a.b)^2 <= |a|^2 |b|^2",
        latex=r"(a\cdot b)^2 \le \|a\|^2\,\|b\|^2 \quad (a, b \in \mathbb{R}^d,\ d \ge 0)",
        hypotheses=[],
        source=Source("", "used by every perceptron bound (Blum: w.w* <= |w| for unit w*; Lin: w.w*/|w*| <= |w|)",
                      "The notes use w.w* <= |w| |w*| without proof."),
        obligations=[
            Obligation("lagrange_base", "z3", "Lagrange's identity for d = 0 (all sums empty)", ENC, _base),
            Obligation("lagrange_new_terms", "sympy", "(a_i b - a b_i)^2 expands termwise", "one coordinate", _new_terms),
            Obligation("lagrange_step", "sympy", "adding a coordinate preserves A B - C^2 = S", ENC, _step,
                       uses=("lagrange_new_terms",)),
            Obligation("cauchy_schwarz_from_lagrange", "z3", "S >= 0 gives C^2 <= A B", ENC, _compose,
                       role="composition", uses=("lagrange_base", "lagrange_step")),
        ],
        trusted=("induction", "finite_sum_linearity"),
        notes="Induction on the dimension d: base case and step are obligations, the rule is trusted.",
    ),
]
