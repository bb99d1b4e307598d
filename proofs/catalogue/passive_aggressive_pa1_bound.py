"""PA-I on any data (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006, Theorem 3): with the step
tau_t = min(C, l_t / |x_t|^2), |x_t| <= R and any u, PA-I makes at most
max(R^2, 1/C) (|u|^2 + 2 C sum_t l*_t) prediction mistakes, l*_t = max(0, 1 - y_t u.x_t).

On a mistake y (w.x) <= 0, so l >= 1, and tau l >= min(C, 1/R^2) >= 1/max(R^2, 1/C); on every step
tau l <= tau (2 l - tau |x|^2) (tau |x|^2 <= l) and 2 tau l* <= 2 C l*; Lemma 1 sums the rest.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.experts_run import bit
from proofs.language.formula import INT, And, Eq, Implies, Real, Seq, Sum, dot, forall_below
from proofs.language.functions import Max, Min
from proofs.catalogue.pa_run import C, ENCODING, RUN, distance_drop, gain, ls, summed, termwise
from proofs.catalogue.passive_aggressive_bound import T, during, l, s, t, tau, u, w, x, y
from proofs.catalogue.sources import CRAMMER_PA

R = Real("R")
z = Seq("z", INT)
K = Max(R ** 2, 1 / C)
xx = dot(x(t), x(t))

HYPS = RUN + [
    ("nonzero_examples", forall_below(t, T, xx > 0)),
    ("radius", forall_below(t, T, xx <= R ** 2)),
    ("pa1_step", forall_below(t, T, Eq(tau(t), Min(C, l(t) / xx)))),
    ("mistake_flags", forall_below(t, T, And(bit(z(t)), Implies(Eq(z(t), 1), y(t) * dot(w(t), x(t)) <= 0)))),
]


def _proof(p):
    at = lambda h: p.inst(p.hyp(h), t)  # noqa: E731
    props = p.solve("pa1_step_size", [at("pa1_step"), at("hinge_loss"), at("nonzero_examples"), p.hyp("c_pos")],
                    during(And(tau(t) >= 0, tau(t) <= C, tau(t) * xx <= l(t), Implies(Eq(l(t), 0), Eq(tau(t), 0)))),
                    title="0 <= tau = min(C, l/|x|^2) <= C, tau |x|^2 <= l, and tau = 0 when l = 0")
    drop = distance_drop(p, props)
    kpos = p.solve("factor_positive", [p.hyp("c_pos")], K > 0, title="max(R^2, 1/C) >= 1/C > 0")
    mistake = p.solve("mistake_progress", [props, kpos, at("pa1_step"), at("hinge_loss"), at("mistake_flags"),
                                           at("radius"), at("nonzero_examples"), p.hyp("c_pos")],
                      during(z(t) <= K * (tau(t) * l(t))),
                      title="a mistake has l >= 1: tau l >= C or l^2/|x|^2 >= 1/R^2, either >= 1/max(R^2, 1/C)")
    step = p.solve("step_progress", [props, at("loss_of_u"), at("hinge_loss")],
                   during(tau(t) * l(t) <= gain(t) + 2 * C * ls(t)),
                   title="tau (2 l - tau |x|^2) >= tau l and 2 tau l* <= 2 C l*")
    term = termwise(p, z, tau(t) * l(t), ls, K, mistake, step, drop, kpos)
    return summed(p, z, ls, K, term, kpos)


THEOREMS = [
    Theorem(
        id="passive_aggressive_pa1_bound",
        name="PA-I on any data: at most max(R^2, 1/C) (|u|^2 + 2C sum_t l*_t) mistakes",
        source=Source(CRAMMER_PA, "Crammer et al. 2006, Theorem 3 (with Lemma 1)",
                      "For any u and |x_t| <= R, PA-I makes at most max{R^2, 1/C} (|u|^2 + 2C sum_t l*_t) "
                      "prediction mistakes, l*_t the hinge loss of u."),
        hypotheses=HYPS,
        conclusion=Sum(s, 0, T - 1, z(s)) <= K * (dot(u, u) + 2 * C * Sum(s, 0, T - 1, ls(s))),
        proof=_proof, encoding=ENCODING + "; z(t) in {0, 1} marks the prediction mistakes y (w.x) <= 0",
        witness_sizes={T: 2},
    ),
]
