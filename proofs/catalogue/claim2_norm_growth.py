"""Claim 2: on a mistake |w|^2 grows by at most |x|^2 <= R^2 (at most 1 for unit examples).

Non-strict.  Blum's notes say "less than |w|^2 + 1" because "w.x is negative"; on a tie w.x = 0
(a mistake under the rule "predict positive iff w.x > 0") the growth is exactly |x|^2 = 1, so the
strict claim is false: erratum ``erratum_claim2_strict``.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Eq, Real, Vec, dot
from proofs.catalogue.sources import BLUM_NOTES, LIN_SLIDES

w, x = Vec("w"), Vec("x")
y, R = Real("y"), Real("R")
GRAM = "vectors of R^d, any d"
MISTAKE = ("mistake", y * dot(w, x) <= 0)
LABEL = ("label_pm1", Eq(y**2, 1))
UNIT = ("unit_example", Eq(dot(x, x), 1))


def _expand(p):
    return p.identity("norm_sq_update_expand", dot(w + y * x, w + y * x),
                      dot(w, w) + 2 * y * dot(w, x) + y * y * dot(x, x),
                      title="|w + y x|^2 = |w|^2 + 2y (w.x) + y^2 |x|^2")


def _radius(p):
    return p.solve("norm_sq_update_misclassified", [_expand(p), p.hyp("label_pm1"), p.hyp("mistake"), p.hyp("radius")],
                   dot(w + y * x, w + y * x) <= dot(w, w) + R**2)


def _unit(p):
    return p.solve("norm_sq_update_unit", [_expand(p), p.hyp("label_pm1"), p.hyp("mistake"), p.hyp("unit_example")],
                   dot(w + y * x, w + y * x) <= dot(w, w) + 1)


THEOREMS = [
    Theorem(
        id="claim2_norm_growth",
        name="Claim 2: each mistake raises |w|^2 by at most R^2",
        source=Source(LIN_SLIDES, "Lin, slides 'Proof' (each update raises |w|^2 by at most R^2)",
                      "On an update, |w +- x|^2 = |w|^2 +- 2 x.w + |x|^2 <= |w|^2 + R^2."),
        hypotheses=[LABEL, MISTAKE, ("radius", dot(x, x) <= R**2)],
        conclusion=dot(w + y * x, w + y * x) <= dot(w, w) + R**2,
        proof=_radius, encoding=GRAM,
    ),
    Theorem(
        id="claim2_unit_examples",
        name="Claim 2 for unit examples: each mistake raises |w|^2 by at most 1 (non-strict)",
        source=Source(BLUM_NOTES, "Blum, Perceptron notes, Claim 2 (also 15-859(A) 01/30/06)",
                      "|w_{t+1}|^2 <= |w_t|^2 + 1 on each mistake (the proof then says 'less than')."),
        hypotheses=[LABEL, MISTAKE, UNIT],
        conclusion=dot(w + y * x, w + y * x) <= dot(w, w) + 1,
        proof=_unit, encoding=GRAM,
    ),
    Theorem(
        id="erratum_claim2_strict",
        kind="erratum",
        name="Claim 2 with a strict '<' (the tie w.x = 0 is a mistake)",
        source=Source(BLUM_NOTES, "Blum, Perceptron notes, proof of Claim 2 (also 15-859(A) 01/30/06)",
                      "|w + x|^2 = |w|^2 + 2 w.x + |x|^2 is *less than* |w|^2 + 1 because w.x is negative on a mistake; "
                      "but a mistake only guarantees y(w.x) <= 0 (the prediction is positive iff w.x > 0)."),
        hypotheses=[LABEL, MISTAKE, UNIT],
        conclusion=dot(w + y * x, w + y * x) < dot(w, w) + 1,
        counterexample={"w": ["1", "0"], "x": ["0", "1"], "y": 1},
        encoding=GRAM,
        notes="Every run starting from w = 0 hits the tie on its first example: |w|^2 goes from 0 to |x|^2 = 1.",
    ),
]
