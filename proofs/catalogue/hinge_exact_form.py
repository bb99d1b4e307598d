"""The hinge bound in its exact form: with c = R |w*| and L the hinge loss over the mistakes,
M - L <= c sqrt(M), hence M <= (c/2 + sqrt(c^2/4 + L))^2 -- which is at most c^2 + 2L (the
textbook form is its tangent at L = 0), so the exact form is never worse.

Square roots are the uninterpreted ``sqrt`` with its definition (trusted rule ``sqrt_def``):
sqrt(a) >= 0 and sqrt(a)^2 = a for a >= 0.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import And, dot
from proofs.language.functions import sqrt
from proofs.catalogue.inseparable_hinge import RADIUS, RUN, hinge_invariant
from proofs.catalogue.perceptron_run import GRAM, M, R, u, w
from proofs.catalogue.sources import LIN_SLIDES

L = __import__("proofs.catalogue.perceptron_run", fromlist=["loss_sum"]).loss_sum(1, M)
U = sqrt(dot(u, u))
c = R * U
q = sqrt(c**2 / 4 + L)
EXACT = (c / 2 + q)**2


def _proof(p):
    inv, L_nonneg = hinge_invariant(p, 1)
    cs = p.lemma("cauchy_schwarz", {"a": w(M), "b": u})
    uu = p.rule("finite_sum_linearity", "dot_nonneg", u)
    sU = p.rule("sqrt_def", "sqrt_sq", dot(u, u))
    sM = p.rule("sqrt_def", "sqrt_sq", M)
    sq = p.rule("sqrt_def", "sqrt_sq", c**2 / 4 + L)
    lin = p.solve("mistakes_minus_loss_le_c_sqrt_M", [inv, cs, uu, sU, sM, p.hyp("R_nonneg")],
                  M - L <= c * sqrt(M), title="M - L <= w.w* <= |w| |w*| <= R sqrt(M) |w*|")
    cnn = p.solve("c_nonneg", [uu, sU, p.hyp("R_nonneg")], c >= 0)
    bound = p.solve("solve_quadratic_in_sqrt_M", [lin, cnn, L_nonneg, sM, sq], M <= EXACT,
                    title="s^2 - c s - L <= 0 with s = sqrt(M) gives s <= c/2 + sqrt(c^2/4 + L)")
    tangent = p.solve("exact_below_textbook", [cnn, L_nonneg, sq], EXACT <= c**2 + 2 * L,
                      title="(c/2 + sqrt(c^2/4 + L))^2 <= c^2 + 2L")
    return p.solve("exact_and_textbook", [bound, tangent], p.theorem.conclusion)


THEOREMS = [
    Theorem(
        id="hinge_bound_exact_form",
        name="The hinge bound in exact form (sharper than the notes)",
        source=Source("", "this suite; sharpens Lin's hinge theorem (003) and Blum's TD bound (001)",
                      "The notes stop at M - 2L + L^2/M <= R^2|w*|^2 and drop L^2/M."),
        hypotheses=RUN + [RADIUS, ("R_nonneg", R >= 0)],
        conclusion=And(M <= EXACT, EXACT <= c**2 + 2 * L),
        proof=_proof, encoding=GRAM + "; sqrt as a function with its definition",
    ),
]
_ = LIN_SLIDES
