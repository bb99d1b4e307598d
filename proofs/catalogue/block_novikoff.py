"""Block-Novikoff: the perceptron makes at most R^2 |w*|^2 mistakes when y (w*.x) >= 1 and
|x| <= R (equivalently 1/gamma^2 for unit examples and a unit target with margin gamma, R^2/gamma^2
with |x| <= R); with a bias, (R^2 + 1)(|w*|^2 + b*^2).

The proof of the notes: by induction over the mistakes (Claims 1 and 2 at each one),
w.w* >= M m and |w|^2 <= M R^2 after M mistakes; Cauchy-Schwarz (w.w*)^2 <= |w|^2 |w*|^2
composes the two into the bound.
"""
from __future__ import annotations

from fractions import Fraction

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import And, Eq, Implies, Nat, Real, Seq, REAL, Vec, dot, forall_below
from proofs.language.functions import sqrt
from proofs.catalogue.perceptron_run import GRAM, M, R, at_M, g, k, progress_invariant, run_hypotheses, u, w, x, y
from proofs.catalogue.sources import BIAS_NOTES, BLUM_NOTES, LIN_SLIDES


def _at(p, name):
    return p.inst(p.hyp(name), k)


def _growth(claim1: str, claim2: str, margin_hyp: str, radius_hyp: str):
    """The facts about mistake k: the run's hypotheses there, Claims 1 and 2 instantiated."""
    def facts(p):
        c1 = p.lemma(claim1, {"w": w(k), "x": x(k), "y": y(k), "u": u, **({"g": g} if claim1.endswith("growth") else {})})
        c2 = p.lemma(claim2, {"w": w(k), "x": x(k), "y": y(k), **({"R": R} if claim2 == "claim2_norm_growth" else {})})
        out = [_at(p, "update_on_mistake"), _at(p, "mistake"), _at(p, "labels_pm1"), _at(p, margin_hyp),
               _at(p, radius_hyp), c1, c2]
        if claim1.endswith("growth"):
            out.append(p.hyp("gamma_pos"))
        return out
    return facts


def _bound(form):
    margin, radius2 = {"one": (1, R**2), "unit": (g, 1), "radius": (g, R**2)}[form]
    claim1 = "claim1_margin_one" if form == "one" else "claim1_correlation_growth"
    claim2 = "claim2_unit_examples" if form == "unit" else "claim2_norm_growth"
    radius_hyp = "unit_examples" if form == "unit" else "radius"

    def proof(p):
        inv = progress_invariant(p, margin, radius2, growth=_growth(claim1, claim2, "margin", radius_hyp))
        cs = p.lemma("cauchy_schwarz", {"a": w(M), "b": u})
        uu = p.rule("finite_sum_linearity", "dot_nonneg", u)
        facts = [at_M(p, inv), cs, uu] + ([p.hyp("unit_target"), p.hyp("gamma_pos")] if form != "one" else [])
        return p.solve(f"{form}_mistake_bound", facts, p.theorem.conclusion,
                       title="the invariant after M mistakes and Cauchy-Schwarz give the bound")
    return proof


RUN = run_hypotheses()
MARGIN_ONE = ("margin", forall_below(k, M, y(k) * dot(x(k), u) >= 1))
MARGIN_G = ("margin", forall_below(k, M, y(k) * dot(x(k), u) >= g))
RADIUS = ("radius", forall_below(k, M, dot(x(k), x(k)) <= R**2))
UNIT_X = ("unit_examples", forall_below(k, M, Eq(dot(x(k), x(k)), 1)))
UNIT_U = ("unit_target", Eq(dot(u, u), 1))
G_POS = ("gamma_pos", g > 0)

# ------------------------------------------------------------------ with a bias: (x, 1), (w*, b*)
b = Seq("b", REAL)
bu = Real("bu", tex="b^*", text="b*")
BIAS_RUN = [
    ("starts_at_zero", Eq(w(0), __import__("proofs.language.formula", fromlist=["vzero"]).vzero())),
    ("bias_starts_at_zero", Eq(b(0), 0)),
    ("update_on_mistake", forall_below(k, M, Eq(w(k + 1), w(k) + y(k) * x(k)))),
    ("bias_update_on_mistake", forall_below(k, M, Eq(b(k + 1), b(k) + y(k)))),
    ("mistake", forall_below(k, M, y(k) * (dot(w(k), x(k)) + b(k)) <= 0)),
    ("labels_pm1", forall_below(k, M, Eq(y(k)**2, 1))),
    ("margin", forall_below(k, M, y(k) * (dot(x(k), u) + bu) >= 1)),
    RADIUS,
]


def _bias(p):
    from proofs.language.formula import num, vzero
    from proofs.kernel.kernel import induction_goals

    def P_at(t):
        return And(dot(w(t), u) + b(t) * bu >= t, dot(w(t), w(t)) + b(t)**2 <= t * (R**2 + 1))
    P = P_at(k)
    base_goal, step_goal = induction_goals(k, P, M)
    z1 = p.identity("dot_zero_left", dot(vzero(), u), num(0))
    z2 = p.identity("norm_zero", dot(vzero(), vzero()), num(0))
    base = p.solve("augmented_invariant_base", [p.hyp("starts_at_zero"), p.hyp("bias_starts_at_zero"), z1, z2],
                   base_goal, title="after 0 mistakes: (w, b) = 0")
    e1 = p.identity("augmented_dot_expand", dot(w(k) + y(k) * x(k), u), dot(w(k), u) + y(k) * dot(x(k), u))
    e2 = p.identity("augmented_norm_expand", dot(w(k) + y(k) * x(k), w(k) + y(k) * x(k)),
                    dot(w(k), w(k)) + 2 * y(k) * dot(w(k), x(k)) + y(k) * y(k) * dot(x(k), x(k)))
    facts = [_at(p, n) for n in ("update_on_mistake", "bias_update_on_mistake", "mistake", "labels_pm1", "margin",
                                 "radius")] + [e1, e2]
    step = p.solve("augmented_invariant_step", facts, step_goal,
                   title="Claims 1 and 2 for (w, b).(w*, b*) and |(x, 1)|^2 <= R^2 + 1")
    inv = p.inst(p.induction(k, P, base, step, M), M)
    cs = p.lemma("cauchy_schwarz", {"a": w(M), "b": u})
    ww = p.rule("finite_sum_linearity", "dot_nonneg", w(M))
    uu = p.rule("finite_sum_linearity", "dot_nonneg", u)
    A, B, W, U = dot(w(M), u), b(M) * bu, dot(w(M), w(M)), dot(u, u)
    cross = W * bu**2 + b(M)**2 * U
    sq = p.solve("cross_term_squared", [cs], 4 * A**2 * b(M)**2 * bu**2 <= 4 * W * U * b(M)**2 * bu**2,
                 title="(2 A b b*)^2 <= 4 |w|^2 |w*|^2 b^2 b*^2 by Cauchy-Schwarz")
    amgm = p.solve("am_gm", [], 4 * (W * bu**2) * (b(M)**2 * U) <= cross**2, title="4pq <= (p + q)^2")
    pos = p.solve("cross_nonneg", [ww, uu], cross >= 0)
    X, Y = Real("X"), Real("Y")
    root = p.solve("square_root_monotone", [], Implies(And(X**2 <= Y**2, Y >= 0), X <= Y),
                   title="X^2 <= Y^2 and Y >= 0 give X <= Y")
    two_ab = p.solve("cross_term_bound", [sq, amgm, pos, p.specialize(root, {X: 2 * A * B, Y: cross})],
                     2 * A * B <= cross, title="2 (w.w*)(b b*) <= |w|^2 b*^2 + b^2 |w*|^2")
    aug = p.solve("augmented_cauchy_schwarz", [cs, two_ab], (A + B)**2 <= (W + b(M)**2) * (U + bu**2),
                  title="Cauchy-Schwarz for (w, b) and (w*, b*) in R^(d+1)")
    Q, T = R**2 + 1, U + bu**2
    sqr = p.solve("mistakes_squared", [inv, aug, uu], M * M <= M * (Q * T),
                  title="M^2 <= ((w, b).(w*, b*))^2 <= |(w, b)|^2 |(w*, b*)|^2 <= M (R^2 + 1)(|w*|^2 + b*^2)")
    return p.solve("bias_mistake_bound", [sqr, uu], p.theorem.conclusion, title="divide by M > 0 (M = 0 is trivial)")


xv = Vec("x")

THEOREMS = [
    Theorem(
        id="block_novikoff_margin_one",
        name="Perceptron convergence, margin-1 form",
        source=Source(LIN_SLIDES, "Lin, slides 'Theorem' (separable and online versions)",
                      "If x.w* >= 1 on positives and <= -1 on negatives then the number of updates is at most R^2 |w*|^2."),
        hypotheses=RUN + [MARGIN_ONE, RADIUS],
        conclusion=M <= R**2 * dot(u, u),
        proof=_bound("one"), encoding=GRAM,
    ),
    Theorem(
        id="block_novikoff_unit",
        name="Perceptron convergence (Blum), unit examples",
        source=Source(BLUM_NOTES, "Blum, Perceptron notes, Theorem 1 (also 15-859(A) 01/30/06)",
                      "For data consistent with a unit w* and gamma = min |w*.x|/|x|, the perceptron on unit-scaled "
                      "examples makes at most 1/gamma^2 mistakes."),
        hypotheses=RUN + [MARGIN_G, UNIT_X, UNIT_U, G_POS],
        conclusion=M <= 1 / g**2,
        proof=_bound("unit"), encoding=GRAM,
    ),
    Theorem(
        id="block_novikoff_radius",
        name="Block-Novikoff, examples of norm at most R",
        source=Source(BIAS_NOTES, "notes on the perceptron with bias, Theorem (Block & Novikoff)",
                      "With |x| <= R and margin gamma the perceptron 'terminates in |u|^2 <= R^2/gamma^2 iterations' "
                      "(garbled: the bound is on the number of updates, M <= R^2/gamma^2)."),
        hypotheses=RUN + [MARGIN_G, RADIUS, UNIT_U, G_POS],
        conclusion=M <= R**2 / g**2,
        proof=_bound("radius"), encoding=GRAM,
    ),
    Theorem(
        id="block_novikoff_bias",
        name="Block-Novikoff with a bias (update w += y x, b += y)",
        source=Source(BIAS_NOTES, "notes on the perceptron with bias (update w += y x, b += y)",
                      "The bias is learned by b <- b + y; the notes state the bound only for the unbiased case."),
        hypotheses=BIAS_RUN,
        conclusion=M <= (R**2 + 1) * (dot(u, u) + bu**2),
        proof=_bias, encoding=GRAM + "; (w, b) and (w*, b*) in R^(d+1)",
        notes="The proof is Block-Novikoff on the augmented vectors (x, 1) and (w*, b*), done directly.",
    ),
    Theorem(
        id="erratum_bias_notes_unsquared_norm",
        kind="erratum",
        name="y x.x written as y |x| (the norm must be squared)",
        source=Source(BIAS_NOTES, "notes on the perceptron with bias, the effect of one update",
                      "After an update the activation becomes w.x + b + y(|x| + 1); the middle step replaces y x.x by y|x|."),
        hypotheses=[],
        conclusion=Eq(dot(xv, xv), sqrt(dot(xv, xv))),
        counterexample={"x": ["2", "0"]},
        encoding="vectors of R^d",
        notes="The conclusion the notes draw (the update moves the activation towards y) survives: "
              "y(|x|^2 + 1) > 0 as well.",
    ),
]
_ = (Fraction, Nat)
