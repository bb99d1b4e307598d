"""Passive-Aggressive on separable data (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006,
Lemma 1 and Theorem 2): if some u has y_t (u.x_t) >= 1 on every step and |x_t| <= R, PA's hinge
losses l_t = max(0, 1 - y_t (w_t.x_t)) satisfy sum_t l_t^2 <= |u|^2 R^2.

The proof of the paper: with D(t) = |w(t) - u|^2 and the step w(t+1) = w(t) + tau y x,
D(t) - D(t+1) = 2 tau (y (u.x) - y (w.x)) - tau^2 |x|^2 >= 2 tau l - tau l = tau l (PA's
tau |x|^2 = l, and y (u.x) - y (w.x) >= l when l > 0), and tau l R^2 >= tau l |x|^2 = l^2.
Summed from w(0) = 0: R^2 (|u|^2 - D(T)) >= sum_t l_t^2.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import REAL, VEC, And, Eq, Implies, Nat, Real, Seq, Sum, Vec, dot, forall_below, num, vzero
from proofs.language.functions import Max
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import CRAMMER_PA

T, t, s = Nat("T"), Nat("t"), Nat("s")
R = Real("R")
w, x = Seq("w", VEC), Seq("x", VEC)
y, tau, l = Seq("y", REAL), Seq("tau", REAL, tex=r"\tau", text="tau"), Seq("l", REAL, tex=r"\ell", text="l")
u = Vec("u")

HYPS = [
    ("starts_at_zero", Eq(w(0), vzero())),
    ("update", forall_below(t, T, Eq(w(t + 1), w(t) + (tau(t) * y(t)) * x(t)))),
    ("hinge_loss", forall_below(t, T, Eq(l(t), Max(num(0), 1 - y(t) * dot(w(t), x(t)))))),
    ("pa_step", forall_below(t, T, And(Eq(tau(t) * dot(x(t), x(t)), l(t)), tau(t) >= 0))),
    ("nonzero_examples", forall_below(t, T, dot(x(t), x(t)) > 0)),
    ("labels_pm1", forall_below(t, T, Eq(y(t) ** 2, 1))),
    ("separable", forall_below(t, T, y(t) * dot(u, x(t)) >= 1)),
    ("radius", forall_below(t, T, dot(x(t), x(t)) <= R ** 2)),
]
ENCODING = ("T steps: w(t) the weights before step t, x(t), y(t) its example and label, l(t) the hinge loss, tau(t) "
            "the step size; u separates every example with margin 1; inner products in R^d, any d")


def D(tt):
    return dot(w(tt) - u, w(tt) - u)


def during(body):
    return Implies(And(num(0) <= t, t < T), body)


def _proof(p):
    at = lambda h: p.inst(p.hyp(h), t)  # noqa: E731
    expand = p.identity("distance_update_expand", dot(w(t) + (tau(t) * y(t)) * x(t) - u,
                                                      w(t) + (tau(t) * y(t)) * x(t) - u),
                        D(t) + 2 * (tau(t) * y(t)) * (dot(w(t), x(t)) - dot(u, x(t)))
                        + (tau(t) * y(t)) ** 2 * dot(x(t), x(t)),
                        title="|w + tau y x - u|^2 = |w - u|^2 + 2 tau y (w.x - u.x) + tau^2 y^2 |x|^2")
    progress = p.solve("distance_drops", [expand] + [at(h) for h in ("update", "hinge_loss", "pa_step", "nonzero_examples",
                                                                     "labels_pm1", "separable")],
                       during(D(t) - D(t + 1) >= tau(t) * l(t)), title="D(t) - D(t+1) >= 2 tau l - tau^2 |x|^2 = tau l")
    squared = p.solve("loss_squared", [at("pa_step"), at("radius"), at("hinge_loss")],
                      during(l(t) ** 2 <= R ** 2 * (tau(t) * l(t))), title="l^2 = tau l |x|^2 <= tau l R^2")
    P = R ** 2 * (dot(u, u) - D(t)) >= Sum(s, 0, t - 1, l(s) ** 2)
    base_goal, step_goal = induction_goals(t, P, T)
    zero = p.identity("distance_at_zero", dot(vzero() - u, vzero() - u), dot(u, u), title="|0 - u|^2 = |u|^2")
    base = p.solve("sum_start", [p.hyp("starts_at_zero"), zero,
                                 p.rule("finite_sum_linearity", "sum_empty", s, 0, l(s) ** 2)], base_goal,
                   title="nothing summed yet, D(0) = |u|^2")
    step = p.solve("sum_step", [progress, squared, p.rule("finite_sum_linearity", "sum_succ", s, 0, t - 1, l(s) ** 2)],
                   step_goal, title="each step adds l^2 <= R^2 (D(t) - D(t+1))")
    inv = p.inst(p.induction(t, P, base, step, T), T)
    return p.solve("pa_squared_loss_bound", [inv, p.rule("finite_sum_linearity", "dot_nonneg", w(T) - u)],
                   p.theorem.conclusion, title="D(T) >= 0")


THEOREMS = [
    Theorem(
        id="passive_aggressive_bound",
        name="Passive-Aggressive on data separable with margin 1: sum of squared hinge losses <= |u|^2 R^2",
        source=Source(CRAMMER_PA, "Crammer et al. 2006, Theorem 2 (with Lemma 1)",
                      "If u attains zero hinge loss on every example and |x_t| <= R, PA has "
                      "sum_t l_t^2 <= |u|^2 R^2."),
        hypotheses=HYPS,
        conclusion=Sum(s, 0, T - 1, l(s) ** 2) <= dot(u, u) * R ** 2,
        proof=_proof, encoding=ENCODING, witness_sizes={T: 2},
    ),
]
_ = Vec
