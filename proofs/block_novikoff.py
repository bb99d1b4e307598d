"""Block-Novikoff: the perceptron makes at most R^2 |w*|^2 mistakes under y(w*.x) >= 1
(equivalently 1/gamma^2 for unit examples and a unit target with margin gamma, R^2/gamma^2 with
|x| <= R), and the bias case through the augmented vectors (x, 1), (w*, b*).

Proof shape (each line an obligation): by induction over the mistakes, after k mistakes
w.w* >= k m and |w|^2 <= k R^2 (base: w = 0; step: Claims 1 and 2); then Cauchy-Schwarz
(w.w*)^2 <= |w|^2 |w*|^2 composes the two into the bound.  Encoding: inner products
(dimension-free) -- the same obligations hold in every dimension.
"""
from __future__ import annotations

from fractions import Fraction

from ._common import instances_of, reals, sums
from .core import Obligation, Source, Theorem
from .sources import BIAS_NOTES, BLUM_NOTES, LIN_SLIDES

GRAM = "inner products (dimension-free)"


def _base(margin):
    def build():
        wu, ww, k, R2, g = reals("wu ww k R2 g")
        m = 1 if margin == "one" else g
        return {"hyps": [("w_starts_at_zero", (wu == 0) & (ww == 0)), ("no_mistakes_yet", k == 0)],
                "goal": (wu >= k * m) & (ww <= k * R2)}
    return build


def _step(margin, radius):
    def build():
        wu, ww, wu1, ww1, k, R2, g = reals("wu ww wu1 ww1 k R2 g")
        m = 1 if margin == "one" else g
        r2 = 1 if radius == "unit" else R2
        return {"hyps": [
            ("k_nonneg", k >= 0),
            ("invariant_dot", wu >= k * m),
            ("invariant_norm", ww <= k * r2),
            ("claim1", wu1 >= wu + m),
            ("claim2", ww1 <= ww + r2),
        ], "goal": (wu1 >= (k + 1) * m) & (ww1 <= (k + 1) * r2)}
    return build


def _compose(form):
    def build():
        import z3
        M, wu, ww, uu, R2, g = reals("M wu ww uu R2 g")
        hyps = [("M_nonneg", M >= 0)]
        if form == "one":
            hyps += [("after_M_dot", wu >= M), ("after_M_norm", ww <= M * R2),
                     ("cauchy_schwarz", wu * wu <= ww * uu), ("R2_nonneg", R2 >= 0),
                     ("target_norm_nonneg", uu >= 0)]
            goal = M <= R2 * uu
        elif form == "unit":
            hyps += [("after_M_dot", wu >= M * g), ("after_M_norm", ww <= M),
                     ("cauchy_schwarz", wu * wu <= ww * uu), ("unit_target", uu == 1), ("gamma_pos", g > 0)]
            goal = M <= 1 / (g * g)
        else:  # radius
            hyps += [("after_M_dot", wu >= M * g), ("after_M_norm", ww <= M * R2),
                     ("cauchy_schwarz", wu * wu <= ww * uu), ("unit_target", uu == 1), ("gamma_pos", g > 0),
                     ("R2_nonneg", R2 >= 0)]
            goal = M <= R2 / (g * g)
        _ = z3
        return {"hyps": hyps, "goal": goal}
    return build


def _aug_activation():
    sp, i, d, S = sums()
    w, x, xp = sp.IndexedBase("w"), sp.IndexedBase("x"), sp.IndexedBase("xp")
    y, b = sp.symbols("y b")
    # augmented update (w, b) + y (x, 1), evaluated on (x', 1)  ==  bias perceptron's w'.x' + b'
    lhs = S((w[i] + y * x[i]) * xp[i]) + (b + y) * 1
    rhs = (S(w[i] * xp[i]) + b) + y * (S(x[i] * xp[i]) + 1)
    return {"lhs": lhs, "rhs": rhs, "instances": instances_of(lhs, rhs, d)}


def _aug_radius():
    xx, zz, R2 = reals("xx zz R2")
    return {"hyps": [("augmented_norm", zz == xx + 1), ("radius", xx <= R2)], "goal": zz <= R2 + 1}


def _aug_compose():
    M, vu, vv, uu, bu, R2 = reals("M vu vv uu bu R2")
    return {"hyps": [
        ("M_nonneg", M >= 0),
        ("after_M_dot", vu >= M),                      # Claim 1 on (w, b).(w*, b*), margin 1
        ("after_M_norm", vv <= M * (R2 + 1)),          # Claim 2 with |(x, 1)|^2 <= R^2 + 1
        ("cauchy_schwarz", vu * vu <= vv * (uu + bu * bu)),
        ("R2_nonneg", R2 >= 0),
        ("target_norm_nonneg", uu >= 0),
    ], "goal": M <= (R2 + 1) * (uu + bu * bu),
        "latex": {"vu": r"(w,b)\cdot(w^*,b^*)", "vv": r"\|(w,b)\|^2", "bu": "b^*"}}


def _unsquared():
    nx, xx = reals("nx xx")
    return {"hyps": [("norm_nonneg", nx >= 0), ("norm_def", nx * nx == xx)], "goal": xx == nx,
            "latex": {"nx": r"\|x\|", "xx": r"x\cdot x"}}


def _unsquared_witness():
    x = (Fraction(2), Fraction(0))
    xx = sum(a * a for a in x)
    return xx != 2, f"x=(2,0): x.x = {xx} but |x| = 2"


def _ind(prefix, margin, radius, form, lemmas):
    return [
        Obligation(f"{prefix}_invariant_base", "z3", "after 0 mistakes: w = 0 satisfies the invariant", GRAM,
                   _base(margin)),
        Obligation(f"{prefix}_invariant_step", "z3", "Claims 1 and 2 carry the invariant from k to k+1 mistakes",
                   GRAM, _step(margin, radius), uses=lemmas),
        Obligation(f"{prefix}_mistake_bound", "z3", "invariant after M mistakes + Cauchy-Schwarz give the bound",
                   GRAM, _compose(form), role="composition", uses=("cauchy_schwarz",)),
    ]


THEOREMS = [
    Theorem(
        id="block_novikoff_margin_one",
        title="Perceptron convergence, margin-1 form: M <= R^2 |w*|^2",
        statement="w0 = 0, y(w*.x) >= 1 and |x| <= R for every example  ==>  M <= R^2 |w*|^2",
        latex=r"M \le R^2\,\|w^*\|^2",
        hypotheses=[r"w_0 = 0", r"y_t\,(w^*\cdot x_t) \ge 1 \ \forall t", r"\|x_t\| \le R \ \forall t"],
        source=Source(LIN_SLIDES, "Lin, slides 'Theorem' (separable and online versions)",
                      "If x.w* >= 1 on positives and <= -1 on negatives then the number of updates is at most R^2 |w*|^2."),
        obligations=_ind("margin_one", "one", "R", "one", ("claim1_margin_one", "claim2_norm_growth")),
        lemmas=("claim1_margin_one", "claim2_norm_growth", "cauchy_schwarz"),
        trusted=("induction",),
    ),
    Theorem(
        id="block_novikoff_unit",
        title="Perceptron convergence (Blum): M <= 1/gamma^2 for unit examples",
        statement="w0 = 0, |x| = 1, |w*| = 1, y(w*.x) >= gamma > 0  ==>  M <= 1/gamma^2",
        latex=r"M \le 1/\gamma^2",
        hypotheses=[r"w_0 = 0", r"\|x_t\| = 1", r"\|w^*\| = 1", r"y_t\,(w^*\cdot x_t) \ge \gamma > 0"],
        source=Source(BLUM_NOTES, "Blum, Perceptron notes, Theorem 1 (also 15-859(A) 01/30/06)",
                      "For data consistent with a unit w* and gamma = min |w*.x|/|x|, the perceptron on unit-scaled "
                      "examples makes at most 1/gamma^2 mistakes."),
        obligations=_ind("unit", "gamma", "unit", "unit", ("claim1_correlation_growth", "claim2_unit_examples")),
        lemmas=("claim1_correlation_growth", "claim2_unit_examples", "cauchy_schwarz"),
        trusted=("induction",),
    ),
    Theorem(
        id="block_novikoff_radius",
        title="Block-Novikoff: M <= R^2/gamma^2 with |x| <= R",
        statement="w0 = 0, |x| <= R, |w*| = 1, y(w*.x) >= gamma > 0  ==>  M <= R^2/gamma^2",
        latex=r"M \le R^2/\gamma^2",
        hypotheses=[r"w_0 = 0", r"\|x_t\| \le R", r"\|w^*\| = 1", r"y_t\,(w^*\cdot x_t) \ge \gamma > 0"],
        source=Source(BIAS_NOTES, "notes on the perceptron with bias, Theorem (Block & Novikoff)",
                      "With |x| <= R and margin gamma the perceptron 'terminates in |u|^2 <= R^2/gamma^2 iterations' "
                      "(garbled: the bound is on the number of updates, M <= R^2/gamma^2)."),
        obligations=_ind("radius", "gamma", "R", "radius", ("claim1_correlation_growth", "claim2_norm_growth")),
        lemmas=("claim1_correlation_growth", "claim2_norm_growth", "cauchy_schwarz"),
        trusted=("induction",),
    ),
    Theorem(
        id="block_novikoff_bias",
        title="Block-Novikoff with bias: M <= (R^2 + 1)(|w*|^2 + b*^2)",
        statement="w0 = 0, b0 = 0, y(w*.x + b*) >= 1, |x| <= R  ==>  M <= (R^2 + 1)(|w*|^2 + b*^2)",
        latex=r"M \le (R^2 + 1)\,(\|w^*\|^2 + {b^*}^2)",
        hypotheses=[r"w_0 = 0,\ b_0 = 0", r"y_t\,(w^*\cdot x_t + b^*) \ge 1", r"\|x_t\| \le R"],
        source=Source(BIAS_NOTES, "notes on the perceptron with bias (update w += y x, b += y)",
                      "The bias is learned by b <- b + y; the notes state the bound only for the unbiased case."),
        obligations=[
            Obligation("augmented_update_activation", "sympy",
                       "the bias update is the update of (w, b) by y (x, 1)", "coordinates in symbolic dimension d",
                       _aug_activation),
            Obligation("augmented_radius", "z3", "|(x, 1)|^2 = |x|^2 + 1 <= R^2 + 1", GRAM, _aug_radius),
            Obligation("bias_mistake_bound", "z3", "the margin-one theorem on (x, 1), (w*, b*)", GRAM, _aug_compose,
                       role="composition", uses=("block_novikoff_margin_one", "augmented_radius", "cauchy_schwarz")),
        ],
        lemmas=("block_novikoff_margin_one", "cauchy_schwarz"),
        trusted=("induction",),
        notes="The margin-one theorem's obligations are dimension-free, so they apply in dimension d + 1.",
    ),
    Theorem(
        id="erratum_bias_notes_unsquared_norm",
        kind="erratum",
        title="Erratum: y x.x written as y |x| (the norm must be squared)",
        statement="x.x = |x|      [FALSE]",
        latex=r"x\cdot x = \|x\| \quad\text{(false; } x\cdot x = \|x\|^2)",
        hypotheses=[],
        source=Source(BIAS_NOTES, "notes on the perceptron with bias, the effect of one update",
                      "After an update the activation becomes w.x + b + y(|x| + 1); the middle step replaces y x.x by y|x|."),
        obligations=[Obligation("dot_self_is_norm", "z3", "x.x = |x| (claimed)", "the scalar |x|", _unsquared,
                                expect="refuted", role="claim")],
        counterexample={"x": ["2", "0"], "x.x": "4", "|x|": "2"},
        witness_check=_unsquared_witness,
        notes="The conclusion the notes draw (the update moves the activation towards y) survives: "
              "y(|x|^2 + 1) > 0 as well.",
    ),
]
_ = BLUM_NOTES
