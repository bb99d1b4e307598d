"""Inseparable data: M <= R^2 |w*|^2 + 2 L for every w*, where L is w*'s hinge loss at margin 1
over the mistakes (Lin), and Blum's M <= R^2/gamma^2 + (2/gamma) TD_gamma for a unit w*.

The proof of the notes: on a mistake w.w* grows by y (x.w*) >= 1 - l_k, where
l_k = max(0, 1 - y_k (x_k.w*)); by induction w.w* >= M - L and |w|^2 <= M R^2 after M mistakes,
and Cauchy-Schwarz gives (M - L)^2 <= M R^2 |w*|^2 when M >= L, whence the bound.  L here sums
the loss over the mistakes; the loss over the whole sequence is larger (every term is >= 0), so
the bound holds for it too.
"""
from __future__ import annotations

from fractions import Fraction

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import And, Eq, ForAll, Implies, dot, num
from proofs.language.functions import sqrt
from proofs.catalogue.perceptron_run import (GRAM, M, R, at_M, g, hinge_terms, i, k, loss_sum, progress_invariant, run_hypotheses,
                             u, w, x, y)
from proofs.catalogue.sources import BLUM_859, LIN_SLIDES

RUN = run_hypotheses()
RADIUS = ("radius", __import__("proofs.language.formula", fromlist=["forall_below"]).forall_below(k, M, dot(x(k), x(k)) <= R**2))
UNIT_U = ("unit_target", Eq(dot(u, u), 1))
G_POS = ("gamma_pos", g > 0)


def _growth(p):
    """At mistake k: the run's hypotheses there, (w + y x).w* expanded, and Claim 2."""
    at = lambda n: p.inst(p.hyp(n), k)  # noqa: E731
    e = p.identity("dot_target_update_expand", dot(w(k) + y(k) * x(k), u), dot(w(k), u) + y(k) * dot(x(k), u),
                   title="(w + y x).w* = w.w* + y (x.w*)")
    c2 = p.lemma("claim2_norm_growth", {"w": w(k), "x": x(k), "y": y(k), "R": R})
    return [at("update_on_mistake"), at("mistake"), at("labels_pm1"), at("radius"), e, c2]


def hinge_invariant(p, margin):
    """w(M).w* >= M m - L_M and |w(M)|^2 <= M R^2, with L_M >= 0 (the loss over the mistakes)."""
    inv = at_M(p, progress_invariant(p, margin, R**2, loss=True, growth=_growth))
    terms = p.solve("loss_terms_nonneg", [], ForAll(i, Implies(And(num(0) <= i, i <= M - 1), hinge_terms(margin) >= 0)),
                    title="every term max(0, m - y (x.w*)) is >= 0")
    pos = p.rule("finite_sum_linearity", "sum_nonneg", i, num(0), M - 1, hinge_terms(margin))
    L_nonneg = p.solve("loss_nonneg", [terms, pos], loss_sum(margin, M) >= 0, title="so is their sum")
    return inv, L_nonneg


def _hinge(p):
    inv, L_nonneg = hinge_invariant(p, 1)
    cs = p.lemma("cauchy_schwarz", {"a": w(M), "b": u})
    uu = p.rule("finite_sum_linearity", "dot_nonneg", u)
    L, UU = loss_sum(1, M), dot(u, u)
    sq = p.solve("hinge_squared", [inv, cs, uu], Implies(M >= L, (M - L)**2 <= M * R**2 * UU),
                 title="M - L <= w.w*, so (M - L)^2 <= (w.w*)^2 <= |w|^2 |w*|^2 <= M R^2 |w*|^2 when M >= L")
    return p.solve("hinge_mistake_bound", [sq, L_nonneg, uu], p.theorem.conclusion,
                   title="M^2 - 2ML + L^2 <= M R^2 |w*|^2 gives M <= R^2 |w*|^2 + 2L (and M < L is below it)")


def _td(p):
    inv, L_nonneg = hinge_invariant(p, g)
    cs = p.lemma("cauchy_schwarz", {"a": w(M), "b": u})
    return p.solve("td_mistake_bound", [inv, L_nonneg, cs, p.hyp("unit_target"), p.hyp("gamma_pos")],
                   p.theorem.conclusion, title="(gamma M - TD)^2 <= M R^2 gives the bound")


def _dropped_square_replay():
    from learners import run_perceptron
    tr = run_perceptron([[Fraction(1, 4)]], [1], exact=True)
    bound = Fraction(1, 16) * 4 + 0
    return tr.mistakes > bound, (f"run_perceptron on x = (1/4), y = +1: {tr.mistakes} mistake (w = 0 ties); "
                                 f"w* = (4) has margin 1 and hinge loss 0, and R^2 |w*| + 2L = {bound}")


L1 = loss_sum(1, M)
TD = loss_sum(g, M)

THEOREMS = [
    Theorem(
        id="hinge_loss_bound",
        name="Inseparable data (Lin): the hinge-loss bound, for every w*",
        source=Source(LIN_SLIDES, "Lin, slides 'Inseparable data' (hinge loss theorem)",
                      "On any sequence the perceptron makes at most min over w* of R^2 |w*|^2 + 2 L_hinge(w*, S) mistakes."),
        hypotheses=RUN + [RADIUS],
        conclusion=M <= R**2 * dot(u, u) + 2 * L1,
        proof=_hinge, encoding=GRAM,
        notes="L is the hinge loss of w* summed over the mistakes; over the whole sequence it is larger.",
    ),
    Theorem(
        id="hinge_total_distance",
        name="Inseparable data (Blum): the TD_gamma bound for a unit w*",
        source=Source(BLUM_859, "Blum, 15-859(A) 01/30/06, 'What if there is no perfect separator?'",
                      "With unit examples, w.w* >= gamma M - TD_gamma after M mistakes, so M <= 1/gamma^2 + "
                      "(2/gamma) TD_gamma; the R-free form is the case R = 1."),
        hypotheses=RUN + [RADIUS, UNIT_U, G_POS],
        conclusion=M <= R**2 / g**2 + 2 / g * TD,
        proof=_td, encoding=GRAM,
        notes="TD_gamma = sum over the mistakes of max(0, gamma - y (x.w*)); equivalently the hinge bound for w*/gamma.",
    ),
    Theorem(
        id="erratum_hinge_dropped_square",
        kind="erratum",
        name="The hinge bound with the square dropped: R^2 |w*| + 2L",
        source=Source(LIN_SLIDES, "Lin, slides 'Inseparable data' (several frames of the hinge theorem)",
                      "Some frames state the bound as min over w* of R^2 |w*| + 2L(w*, S), without the square."),
        hypotheses=RUN + [RADIUS],
        conclusion=M <= R**2 * sqrt(dot(u, u)) + 2 * L1,
        counterexample={"M": 1, "w": [["0"], ["1/4"]], "x": [["1/4"]], "y": [1], "u": ["4"], "R": "1/4"},
        witness_check=_dropped_square_replay, encoding=GRAM,
        notes="The bound is not scale-invariant: scaling x by s and w* by 1/s keeps M and L but multiplies R^2|w*| by s.",
    ),
]
