"""Claim 1: on a mistake, w.w* grows by at least the margin.

Encoding: dimension-free (inner products of w, x, w* as real variables; the expansion of
(w + y x).w* is a sympy identity over sums in a symbolic dimension d).
"""
from __future__ import annotations

from ._common import instances_of, reals, sums
from .core import Obligation, Source, Theorem
from .sources import BLUM_859, BLUM_NOTES, LIN_SLIDES

GRAM = "inner products (dimension-free)"
SYMD = "coordinates in symbolic dimension d (sympy Sum)"


def _expand():
    sp, i, d, S = sums()
    w, x, u = sp.IndexedBase("w"), sp.IndexedBase("x"), sp.IndexedBase("u")
    y = sp.Symbol("y")
    lhs = S((w[i] + y * x[i]) * u[i])
    rhs = S(w[i] * u[i]) + y * S(x[i] * u[i])
    return {"lhs": lhs, "rhs": rhs, "instances": instances_of(lhs, rhs, d)}


def _growth(margin_one: bool):
    def build():
        import z3
        wu, wu1, xu, wx, y, g = reals("wu wu1 xu wx y g")
        m = z3.RealVal(1) if margin_one else g
        return {"hyps": [
            ("update_expansion", wu1 == wu + y * xu),
            ("margin", y * xu >= m),
            ("mistake", y * wx <= 0),
        ], "goal": wu1 >= wu + m}
    return build


def _blum_gamma():
    import z3
    xu, y, g = reals("xu y g")
    return {"hyps": [
        ("label_pm1", y * y == 1),
        ("target_consistent", y * xu > 0),
        ("gamma_is_min_distance", z3.If(xu >= 0, xu, -xu) >= g),
    ], "goal": y * xu >= g}


def _lin_two_sided():
    # Lin's two-sided statement (x.w* >= 1 on positives, <= -1 on negatives) is y(x.w*) >= 1
    import z3
    xu, y = reals("xu y")
    return {"hyps": [("label_pm1", y * y == 1),
                     ("positives", z3.Implies(y == 1, xu >= 1)),
                     ("negatives", z3.Implies(y == -1, xu <= -1))],
            "goal": y * xu >= 1}


THEOREMS = [
    Theorem(
        id="claim1_correlation_growth",
        title="Claim 1: w.w* grows by at least gamma on every mistake",
        statement="y (w*.x) >= gamma  ==>  (w + y x).w* >= w.w* + gamma",
        latex=r"y\,(w^*\cdot x) \ge \gamma \;\Longrightarrow\; (w + y x)\cdot w^* \ge w\cdot w^* + \gamma",
        hypotheses=[r"y \in \{-1, +1\}", r"y\,(w^*\cdot x) \ge \gamma \text{ (margin of } w^* \text{ on } x)"],
        source=Source(BLUM_NOTES, "Blum, Perceptron notes, Claim 1 (also 15-859(A) 01/30/06)",
                      "For unit x and unit w* with gamma = min |w*.x|/|x|: each mistake raises w.w* by at least gamma."),
        obligations=[
            Obligation("dot_target_update_expand", "sympy", "(w + y x).w* = w.w* + y (x.w*)", SYMD, _expand),
            Obligation("margin_from_min_distance", "z3", "target consistent and |x.w*| >= gamma give y(x.w*) >= gamma",
                       GRAM, _blum_gamma),
            Obligation("dot_target_update_ge_margin", "z3", "w'.w* >= w.w* + gamma", GRAM, _growth(False),
                       role="composition", uses=("dot_target_update_expand", "margin_from_min_distance")),
        ],
        family="claim1_correlation_growth",
        notes="The mistake hypothesis is reported unused: Claim 1 holds on every update, mistake or not.",
    ),
    Theorem(
        id="claim1_margin_one",
        title="Claim 1, margin-1 form: w.w* grows by at least 1",
        statement="y (w*.x) >= 1  ==>  (w + y x).w* >= w.w* + 1",
        latex=r"y\,(w^*\cdot x) \ge 1 \;\Longrightarrow\; (w + y x)\cdot w^* \ge w\cdot w^* + 1",
        hypotheses=[r"y\,(w^*\cdot x) \ge 1"],
        source=Source(LIN_SLIDES, "Lin, slides 'Proof' (separable case)",
                      "With x.w* >= 1 on positives and <= -1 on negatives, each update raises w.w* by at least 1."),
        obligations=[
            Obligation("dot_target_update_expand", "sympy", "(w + y x).w* = w.w* + y (x.w*)", SYMD, _expand),
            Obligation("two_sided_margin_is_label_margin", "z3", "x.w* >= 1 on positives, <= -1 on negatives give y(x.w*) >= 1",
                       GRAM, _lin_two_sided),
            Obligation("dot_target_update_ge_one", "z3", "w'.w* >= w.w* + 1", GRAM, _growth(True),
                       role="composition", uses=("dot_target_update_expand", "two_sided_margin_is_label_margin")),
        ],
        family="claim1_correlation_growth",
    ),
]
