"""Claim 1: on a mistake, w.w* grows by at least the margin.

(w + y x).w* = w.w* + y (x.w*) is an identity of inner products (checked in coordinates over a
symbolic dimension); the margin then gives the growth.  The mistake itself is not needed: the
claim holds on every update.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Eq, Implies, Real, Vec, dot
from proofs.language.functions import Abs
from proofs.catalogue.sources import BLUM_NOTES, LIN_SLIDES

w, x, u = Vec("w"), Vec("x"), Vec("u", tex="w^*", text="w*")
y, g = Real("y"), Real("g", tex=r"\gamma", text="gamma")
GRAM = "vectors of R^d, any d"


def _expand(p):
    return p.identity("dot_target_update_expand", dot(w + y * x, u), dot(w, u) + y * dot(x, u),
                      title="(w + y x).w* = w.w* + y (x.w*)")


def _blum(p):
    m = p.solve("margin_from_min_distance", [p.hyp("label_pm1"), p.hyp("target_consistent"),
                                             p.hyp("gamma_is_min_distance")], y * dot(x, u) >= g,
                title="a consistent target with |x.w*| >= gamma has margin y (x.w*) >= gamma")
    return p.solve("dot_target_update_ge_margin", [_expand(p), m], dot(w + y * x, u) >= dot(w, u) + g)


def _lin(p):
    m = p.solve("two_sided_margin_is_label_margin", [p.hyp("label_pm1"), p.hyp("positives"), p.hyp("negatives")],
                y * dot(x, u) >= 1, title="x.w* >= 1 on positives and <= -1 on negatives: y (x.w*) >= 1")
    return p.solve("dot_target_update_ge_one", [_expand(p), m], dot(w + y * x, u) >= dot(w, u) + 1)


THEOREMS = [
    Theorem(
        id="claim1_correlation_growth",
        name="Claim 1: each update raises w.w* by at least gamma",
        source=Source(BLUM_NOTES, "Blum, Perceptron notes, Claim 1 (also 15-859(A) 01/30/06)",
                      "For unit x and unit w* with gamma = min |w*.x|/|x|: each mistake raises w.w* by at least gamma."),
        hypotheses=[("label_pm1", Eq(y**2, 1)),
                    ("target_consistent", y * dot(x, u) > 0),
                    ("gamma_is_min_distance", Abs(dot(x, u)) >= g)],
        conclusion=dot(w + y * x, u) >= dot(w, u) + g,
        proof=_blum, encoding=GRAM,
        notes="No mistake hypothesis: the claim holds on every update, mistake or not.",
    ),
    Theorem(
        id="claim1_margin_one",
        name="Claim 1, margin-1 form: each update raises w.w* by at least 1",
        source=Source(LIN_SLIDES, "Lin, slides 'Proof' (separable case)",
                      "With x.w* >= 1 on positives and <= -1 on negatives, each update raises w.w* by at least 1."),
        hypotheses=[("label_pm1", Eq(y**2, 1)),
                    ("positives", Implies(Eq(y, 1), dot(x, u) >= 1)),
                    ("negatives", Implies(Eq(y, -1), dot(x, u) <= -1))],
        conclusion=dot(w + y * x, u) >= dot(w, u) + 1,
        proof=_lin, encoding=GRAM,
    ),
]
