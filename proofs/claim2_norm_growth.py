"""Claim 2: on a mistake |w|^2 grows by at most |x|^2 <= R^2 (at most 1 for unit examples).

Non-strict.  Blum's notes say "less than |w|^2 + 1" because "w.x is negative"; on a tie w.x = 0
(a mistake under the rule "predict positive iff w.x > 0") the growth is exactly |x|^2 = 1, so the
strict claim is false: erratum ``erratum_claim2_strict``.
"""
from __future__ import annotations

from fractions import Fraction

from ._common import instances_of, reals, sums
from .core import Obligation, Source, Theorem
from .sources import BLUM_859, BLUM_NOTES, LIN_SLIDES

GRAM = "inner products (dimension-free)"
SYMD = "coordinates in symbolic dimension d (sympy Sum)"


def _expand():
    sp, i, d, S = sums()
    w, x = sp.IndexedBase("w"), sp.IndexedBase("x")
    y = sp.Symbol("y")
    lhs = S((w[i] + y * x[i]) ** 2)
    rhs = S(w[i] ** 2) + 2 * y * S(w[i] * x[i]) + y**2 * S(x[i] ** 2)
    return {"lhs": lhs, "rhs": rhs, "instances": instances_of(lhs, rhs, d)}


def _growth(unit: bool, strict: bool = False):
    def build():
        ww, ww1, wx, xx, y, R2 = reals("ww ww1 wx xx y R2")
        gram = [("gram_psd", (ww >= 0) & (xx >= 0) & (wx * wx <= ww * xx))] if strict else []
        hyps = gram + [
            ("update_expansion", ww1 == ww + 2 * y * wx + y * y * xx),
            ("label_pm1", y * y == 1),
            ("mistake", y * wx <= 0),
        ]
        if unit:
            hyps.append(("unit_example", xx == 1))
            goal = (ww1 < ww + 1) if strict else (ww1 <= ww + 1)
        else:
            hyps.append(("radius", xx <= R2))
            goal = ww1 <= ww + R2
        return {"hyps": hyps, "goal": goal}
    return build


def _witness():
    """The tie, in exact arithmetic: w = (1, 0), x = (0, 1), y = +1: w.x = 0 is a mistake and
    |w + x|^2 = 2 = |w|^2 + 1, not less."""
    w, x, y = (Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)), 1
    dot = sum(a * b for a, b in zip(w, x))
    mistake = y * dot <= 0
    w1 = tuple(a + y * b for a, b in zip(w, x))
    n0, n1 = sum(a * a for a in w), sum(a * a for a in w1)
    ok = mistake and sum(b * b for b in x) == 1 and not (n1 < n0 + 1)
    return ok, f"w=(1,0), x=(0,1), y=+1: w.x={dot} (a mistake), |w'|^2={n1} = |w|^2+1 = {n0 + 1}"


THEOREMS = [
    Theorem(
        id="claim2_norm_growth",
        title="Claim 2: |w|^2 grows by at most R^2 on every mistake",
        statement="y (w.x) <= 0, |x|^2 <= R^2  ==>  |w + y x|^2 <= |w|^2 + R^2",
        latex=r"y\,(w\cdot x) \le 0,\ \|x\|^2 \le R^2 \;\Longrightarrow\; \|w + y x\|^2 \le \|w\|^2 + R^2",
        hypotheses=[r"y \in \{-1,+1\}", r"y\,(w\cdot x) \le 0 \text{ (a mistake; a tie counts)}", r"\|x\| \le R"],
        source=Source(LIN_SLIDES, "Lin, slides 'Proof' (each update raises |w|^2 by at most R^2)",
                      "On an update, |w +- x|^2 = |w|^2 +- 2 x.w + |x|^2 <= |w|^2 + R^2."),
        obligations=[
            Obligation("norm_sq_update_expand", "sympy", "|w + y x|^2 = |w|^2 + 2y w.x + y^2 |x|^2", SYMD, _expand),
            Obligation("norm_sq_update_misclassified", "z3", "|w'|^2 <= |w|^2 + R^2", GRAM, _growth(False),
                       role="composition", uses=("norm_sq_update_expand",)),
        ],
    ),
    Theorem(
        id="claim2_unit_examples",
        title="Claim 2 for unit examples: |w|^2 grows by at most 1 (non-strict)",
        statement="y (w.x) <= 0, |x| = 1  ==>  |w + y x|^2 <= |w|^2 + 1",
        latex=r"y\,(w\cdot x) \le 0,\ \|x\| = 1 \;\Longrightarrow\; \|w + y x\|^2 \le \|w\|^2 + 1",
        hypotheses=[r"y \in \{-1,+1\}", r"y\,(w\cdot x) \le 0", r"\|x\| = 1"],
        source=Source(BLUM_NOTES, "Blum, Perceptron notes, Claim 2 (also 15-859(A) 01/30/06)",
                      "|w_{t+1}|^2 <= |w_t|^2 + 1 on each mistake (the proof then says 'less than')."),
        obligations=[
            Obligation("norm_sq_update_expand", "sympy", "|w + y x|^2 = |w|^2 + 2y w.x + y^2 |x|^2", SYMD, _expand),
            Obligation("norm_sq_update_unit", "z3", "|w'|^2 <= |w|^2 + 1", GRAM, _growth(True),
                       role="composition", uses=("norm_sq_update_expand",)),
        ],
    ),
    Theorem(
        id="erratum_claim2_strict",
        kind="erratum",
        title="Erratum: Claim 2 with a strict '<' is false (the tie w.x = 0)",
        statement="y (w.x) <= 0, |x| = 1  ==>  |w + y x|^2 < |w|^2 + 1      [FALSE]",
        latex=r"y\,(w\cdot x) \le 0,\ \|x\| = 1 \;\Longrightarrow\; \|w + y x\|^2 < \|w\|^2 + 1 \quad\text{(false)}",
        hypotheses=[r"y\,(w\cdot x) \le 0", r"\|x\| = 1"],
        source=Source(BLUM_NOTES, "Blum, Perceptron notes, proof of Claim 2 (also 15-859(A) 01/30/06)",
                      "|w + x|^2 = |w|^2 + 2 w.x + |x|^2 is *less than* |w|^2 + 1 because w.x is negative on a mistake; "
                      "but a mistake only guarantees y(w.x) <= 0 (the prediction is positive iff w.x > 0)."),
        obligations=[
            Obligation("norm_sq_update_strict", "z3", "|w'|^2 < |w|^2 + 1 (claimed)", GRAM, _growth(True, strict=True),
                       expect="refuted", role="claim"),
        ],
        counterexample={"w": ["1", "0"], "x": ["0", "1"], "y": 1, "w.x": "0", "|w|^2": "1", "|w+x|^2": "2"},
        witness_check=_witness,
        notes="Every run starting from w = 0 hits the tie on its first example: |w|^2 goes from 0 to |x|^2 = 1.",
    ),
]
_ = BLUM_859
