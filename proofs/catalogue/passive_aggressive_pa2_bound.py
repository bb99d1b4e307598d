"""PA-II on any data (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006, Theorem 4): with the step
tau_t = l_t / (|x_t|^2 + 1/(2C)), |x_t| <= R and any u, the squared hinge losses satisfy
sum_t l_t^2 <= (R^2 + 1/(2C)) (|u|^2 + 2 C sum_t (l*_t)^2), l*_t = max(0, 1 - y_t u.x_t).

With q = |x|^2 + 1/(2C) (so tau q = l): 2 tau l* <= tau^2/(2C) + 2 C l*^2, hence the term of Lemma 1
plus 2 C l*^2 is at least 2 tau l - tau^2 q = tau^2 q, and l^2 = tau^2 q^2 <= (R^2 + 1/(2C)) tau^2 q.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import And, Eq, Implies, Real, Sum, dot, forall_below
from proofs.catalogue.pa_run import C, ENCODING, RUN, distance_drop, gain, ls, summed, termwise
from proofs.catalogue.passive_aggressive_bound import T, during, l, s, t, tau, u, x
from proofs.catalogue.sources import CRAMMER_PA

R = Real("R")
K = R ** 2 + 1 / (2 * C)


def q(k):
    return dot(x(k), x(k)) + 1 / (2 * C)


HYPS = RUN + [
    ("radius", forall_below(t, T, dot(x(t), x(t)) <= R ** 2)),
    ("pa2_step", forall_below(t, T, Eq(tau(t), l(t) / q(t)))),
]


def _proof(p):
    at = lambda h: p.inst(p.hyp(h), t)  # noqa: E731
    sq = p.rule("finite_sum_linearity", "dot_nonneg", x(t))
    props = p.solve("pa2_step_size", [at("pa2_step"), at("hinge_loss"), p.hyp("c_pos"), sq],
                    during(And(tau(t) >= 0, Eq(tau(t) * q(t), l(t)), Implies(Eq(l(t), 0), Eq(tau(t), 0)))),
                    title="tau = l/(|x|^2 + 1/(2C)) >= 0, and tau = 0 when l = 0")
    drop = distance_drop(p, props)
    kpos = p.solve("factor_positive", [p.hyp("c_pos")], K > 0, title="R^2 + 1/(2C) > 0")
    gain_ = p.solve("gain_with_comparator", [props, p.hyp("c_pos")],
                    during(tau(t) ** 2 * q(t) <= gain(t) + 2 * C * ls(t) ** 2),
                    title="2 tau l* <= tau^2/(2C) + 2C l*^2, and 2 tau l - tau^2 q = tau^2 q")
    loss = p.solve("loss_squared", [props, at("radius"), p.hyp("c_pos"), sq],
                   during(l(t) ** 2 <= K * (tau(t) ** 2 * q(t))), title="l^2 = tau^2 q^2 <= (R^2 + 1/(2C)) tau^2 q")
    term = termwise(p, lambda k: l(k) ** 2, tau(t) ** 2 * q(t), lambda k: ls(k) ** 2, K, loss, gain_, drop, kpos)
    return summed(p, lambda k: l(k) ** 2, lambda k: ls(k) ** 2, K, term, kpos)


THEOREMS = [
    Theorem(
        id="passive_aggressive_pa2_bound",
        name="PA-II on any data: sum of squared losses <= (R^2 + 1/(2C)) (|u|^2 + 2C sum_t l*_t^2)",
        source=Source(CRAMMER_PA, "Crammer et al. 2006, Theorem 4 (with Lemma 1)",
                      "For any u and |x_t| <= R, PA-II has sum_t l_t^2 <= (R^2 + 1/(2C)) (|u|^2 + 2C sum_t (l*_t)^2)."),
        hypotheses=HYPS,
        conclusion=Sum(s, 0, T - 1, l(s) ** 2) <= K * (dot(u, u) + 2 * C * Sum(s, 0, T - 1, ls(s) ** 2)),
        proof=_proof, encoding=ENCODING, witness_sizes={T: 2},
    ),
]
