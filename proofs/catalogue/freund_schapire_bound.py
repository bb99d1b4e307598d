"""Freund & Schapire (1999), Theorem 2 (also Shalev-Shwartz 2012, section 3.3): on any sequence,
for every unit vector u and gamma > 0, the perceptron makes at most ((R + D) / gamma)^2 mistakes,
D = sqrt(sum_t max(0, gamma - y_t (u.x_t))^2) -- the bound behind the voted perceptron.

The proof here is the direct one (Shalev-Shwartz): after M mistakes w.u >= gamma M - L and
|w|^2 <= M R^2 (``inseparable_hinge``), with L the hinge losses summed over the mistakes; termwise
2 lambda h <= lambda^2 h^2 + 1 sums to 2 lambda L <= lambda^2 Q + M for every lambda (Q the sum of
squares), which at lambda = sqrt(M)/sqrt(Q) is the Cauchy-Schwarz inequality L <= sqrt(M) D; so
gamma M - L <= w.u <= sqrt(M) R gives gamma sqrt(M) <= R + D.  D sums over the mistakes; over the
whole sequence it is larger, so the bound holds for it too.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import And, ForAll, Implies, Real, Sum, dot, num
from proofs.language.functions import sqrt
from proofs.catalogue.inseparable_hinge import G_POS, RADIUS, RUN, UNIT_U, hinge_invariant
from proofs.catalogue.perceptron_run import GRAM, M, R, g, hinge_terms, i, u, w
from proofs.catalogue.sources import FREUND_SCHAPIRE

lam = Real("lam", tex=r"\lambda", text="lambda")
h = hinge_terms(g)
L, Q = Sum(i, 0, M - 1, h), Sum(i, 0, M - 1, h ** 2)
SUM = "finite_sum_linearity"


def _in_range(body):
    return ForAll(i, Implies(And(num(0) <= i, i <= M - 1), body))


def _proof(p):
    inv, L_nonneg = hinge_invariant(p, g)
    terms = p.solve("amgm_terms", [], _in_range(2 * lam * h <= lam ** 2 * h ** 2 + 1 * num(1)),
                    title="(lambda h - 1)^2 >= 0")
    amgm = p.solve("amgm_summed", [terms, p.rule(SUM, "sum_mono", i, 0, M - 1, (2 * lam) * h,
                                                 lam ** 2 * h ** 2 + 1 * num(1)),
                                   p.rule(SUM, "sum_scale", i, 0, M - 1, 2 * lam, h),
                                   p.rule(SUM, "sum_linear", i, 0, M - 1, lam ** 2, h ** 2, num(1), num(1)),
                                   p.rule(SUM, "sum_const", i, 0, M - 1, num(1))],
                   2 * lam * L <= lam ** 2 * Q + M, title="summed: 2 lambda L <= lambda^2 Q + M, for every lambda")
    sq = p.solve("squares_nonneg", [], _in_range(h ** 2 >= 0), title="squares are >= 0")
    Q_nonneg = p.solve("sum_of_squares_nonneg", [sq, p.rule(SUM, "sum_nonneg", i, 0, M - 1, h ** 2)], Q >= 0,
                       title="so is their sum")
    sM, sQ = p.rule("sqrt_def", "sqrt_sq", M), p.rule("sqrt_def", "sqrt_sq", Q)
    cs_sum = p.solve("loss_cauchy_schwarz", [p.specialize(amgm, {lam: sqrt(M) / sqrt(Q)}),
                                             p.specialize(amgm, {lam: (M + 1) / (2 * L)}), L_nonneg, Q_nonneg, sM, sQ,
                                             p.rule(SUM, "sum_empty", i, 0, h), p.rule(SUM, "sum_empty", i, 0, h ** 2)],
                     L <= sqrt(M) * sqrt(Q), title="lambda = sqrt(M)/D (or, if D = 0, a large lambda): L <= sqrt(M) D")
    cs = p.lemma("cauchy_schwarz", {"a": w(M), "b": u})
    corr = p.solve("correlation_vs_norm", [inv, cs, p.hyp("unit_target"), p.hyp("radius_nonneg"), sM],
                   g * M - L <= sqrt(M) * R, title="gamma M - L <= w.u <= |w| <= sqrt(M) R")
    root = p.solve("root_bound", [cs_sum, corr, sM, sQ, Q_nonneg, p.hyp("radius_nonneg"), p.hyp("gamma_pos")],
                   g * sqrt(M) <= R + sqrt(Q), title="gamma M <= sqrt(M) (R + D): divide by sqrt(M) (or M = 0)")
    return p.solve("freund_schapire_mistake_bound", [root, sM, p.hyp("gamma_pos")], p.theorem.conclusion,
                   title="square both sides: M = sqrt(M)^2 <= ((R + D)/gamma)^2")


R_NONNEG = ("radius_nonneg", R >= 0)
THEOREMS = [
    Theorem(
        id="freund_schapire_bound",
        name="Freund-Schapire: the perceptron on any sequence makes at most ((R + D)/gamma)^2 mistakes",
        source=Source(FREUND_SCHAPIRE, "Freund & Schapire 1999, Theorem 2 (also Shalev-Shwartz 2012, section 3.3)",
                      "For any unit u and gamma > 0, with D = sqrt(sum_t max(0, gamma - y_t u.x_t)^2), the perceptron "
                      "makes at most ((R + D)/gamma)^2 mistakes."),
        hypotheses=RUN + [RADIUS, R_NONNEG, UNIT_U, G_POS],
        conclusion=M <= ((R + sqrt(Q)) / g) ** 2,
        proof=_proof, encoding=GRAM,
        notes="D sums the squared hinge losses of u at margin gamma over the mistakes; over the whole sequence it "
              "is at least as large. With D = 0 it is Block-Novikoff's (R/gamma)^2.",
    ),
]
_ = dot
