"""A Passive-Aggressive run on any data, as formulas, and the paper's Lemma 1 (Crammer, Dekel,
Keshet, Shalev-Shwartz & Singer 2006): for any u, with l*_t = max(0, 1 - y_t u.x_t) the loss of u,

    sum_t tau_t (2 l_t - tau_t |x_t|^2 - 2 l*_t) <= |u|^2,

for every step-size rule with tau_t >= 0 that does not move when the loss is 0 (PA, PA-I, PA-II),
here summed by the induction that also carries each theorem's own bound.  Each step lowers D(t) = |w(t) - u|^2 by at least its term: D(t) - D(t+1) = 2 tau y (u.x - w.x)
- tau^2 |x|^2, with y (u.x) >= 1 - l*_t and, when tau > 0, y (w.x) = 1 - l_t.
"""
from __future__ import annotations

from proofs.language.formula import REAL, And, Eq, Implies, Real, Seq, Sum, dot, forall_below, num, vzero
from proofs.language.functions import Max
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.passive_aggressive_bound import D, ENCODING as PA_ENCODING, T, during, l, s, t, tau, u, w, x, y

C = Real("C")
ls = Seq("l_u", REAL, tex=r"\ell^*", text="l*")

RUN = [
    ("starts_at_zero", Eq(w(0), vzero())),
    ("update", forall_below(t, T, Eq(w(t + 1), w(t) + (tau(t) * y(t)) * x(t)))),
    ("hinge_loss", forall_below(t, T, Eq(l(t), Max(num(0), 1 - y(t) * dot(w(t), x(t)))))),
    ("labels_pm1", forall_below(t, T, Eq(y(t) ** 2, 1))),
    ("loss_of_u", forall_below(t, T, Eq(ls(t), Max(num(0), 1 - y(t) * dot(u, x(t)))))),
    ("c_pos", C > 0),
]
ENCODING = (PA_ENCODING.replace("; u separates every example with margin 1", "") + "; u any vector, l*(t) its hinge "
            "loss at step t; C > 0 the aggressiveness parameter")


def gain(k):
    """tau(k) (2 l(k) - tau(k) |x(k)|^2 - 2 l*(k)): the term of Lemma 1 at step k."""
    return tau(k) * (2 * l(k) - tau(k) * dot(x(k), x(k)) - 2 * ls(k))


def distance_drop(p, props):
    """D(t) - D(t+1) >= gain(t), from ``props`` (about t: tau >= 0, and tau = 0 when l = 0)."""
    at = lambda h: p.inst(p.hyp(h), t)  # noqa: E731
    expand = p.identity("distance_update_expand", dot(w(t) + (tau(t) * y(t)) * x(t) - u,
                                                      w(t) + (tau(t) * y(t)) * x(t) - u),
                        D(t) + 2 * (tau(t) * y(t)) * (dot(w(t), x(t)) - dot(u, x(t)))
                        + (tau(t) * y(t)) ** 2 * dot(x(t), x(t)),
                        title="|w + tau y x - u|^2 = |w - u|^2 + 2 tau y (w.x - u.x) + tau^2 y^2 |x|^2")
    return p.solve("distance_drops", [expand, props] + [at(h) for h in ("update", "hinge_loss", "labels_pm1",
                                                                        "loss_of_u")],
                   during(D(t) - D(t + 1) >= gain(t)), title="D(t) - D(t+1) = 2 tau y (u.x - w.x) - tau^2 |x|^2 "
                   ">= 2 tau (l - l*) - tau^2 |x|^2 (Lemma 1's term)")


_k, _a, _b, _x, _y, _z, _e = (Real(f"pa_{v}") for v in "kabxyze")


def _scaled(p, sid, facts_of, goal_of, title):
    """A fact of arithmetic about fresh reals k, a, b, x, y, z, e (no hypothesis mentions them), to be
    specialized: the solver then only matches terms instead of multiplying by a factor K."""
    return p.solve(sid, [], Implies(And(*facts_of(_k, _a, _b, _x, _y, _z, _e)), goal_of(_k, _a, _b, _x, _y, _z, _e)),
                   title=title)


def termwise(p, h, P, c, K, h_le_KP, P_le, drop, kpos):
    """h(t) <= K (D(t) - D(t+1) + 2 C c(t)), from h(t) <= K P, P <= gain(t) + 2 C c(t), the drop, K > 0."""
    g = _scaled(p, "scale_termwise", lambda k, a, b, x, y, z, e: [k > 0, a <= k * b, b <= x + e, x <= y],
                lambda k, a, b, x, y, z, e: a <= k * (y + e), title="a <= k b, b <= x + e, x <= y, k > 0 => a <= k (y + e)")
    g = p.specialize(g, {_k: K, _a: h(t), _b: P, _x: gain(t), _y: D(t) - D(t + 1), _e: 2 * C * c(t)})
    return p.solve("termwise", [g, h_le_KP, P_le, drop, kpos], during(h(t) <= K * (D(t) - D(t + 1) + 2 * C * c(t))),
                   title="h <= K P <= K (gain + 2 C c) <= K (D(t) - D(t+1) + 2 C c)")


def summed(p, h, c, K, term, kpos):
    """sum h <= K (|u|^2 + 2 C sum c) by induction, from ``term`` (about t: h(t) <= K (D(t) - D(t+1)
    + 2 C c(t))), K > 0 and D(T) >= 0."""
    inv = lambda k: dot(u, u) - D(k) + 2 * C * Sum(s, 0, k - 1, c(s))  # noqa: E731
    P = Sum(s, 0, t - 1, h(s)) <= K * inv(t)
    base_goal, step_goal = induction_goals(t, P, T)
    zero = p.identity("distance_at_zero", dot(vzero() - u, vzero() - u), dot(u, u), title="|0 - u|^2 = |u|^2")
    base = p.solve("sums_start", [p.hyp("starts_at_zero"), zero, p.rule("finite_sum_linearity", "sum_empty", s, 0, c(s)),
                                  p.rule("finite_sum_linearity", "sum_empty", s, 0, h(s))], base_goal,
                   title="nothing summed yet, D(0) = |u|^2")
    add = _scaled(p, "scale_sum", lambda k, a, b, x, y, z, e: [a <= k * x, b <= k * y, Eq(z, x + y)],
                  lambda k, a, b, x, y, z, e: a + b <= k * z, title="a <= k x, b <= k y, z = x + y => a + b <= k z")
    add = p.specialize(add, {_k: K, _a: Sum(s, 0, t - 1, h(s)), _b: h(t), _x: inv(t),
                             _y: D(t) - D(t + 1) + 2 * C * c(t), _z: inv(t + 1)})
    step = p.solve("sums_step", [term, add, p.rule("finite_sum_linearity", "sum_succ", s, 0, t - 1, c(s)),
                                 p.rule("finite_sum_linearity", "sum_succ", s, 0, t - 1, h(s))], step_goal,
                   title="each step adds h(t) <= K (D(t) - D(t+1) + 2 C c(t))")
    at_T = p.inst(p.induction(t, P, base, step, T), T)
    fin = _scaled(p, "scale_final", lambda k, a, b, x, y, z, e: [k > 0, a <= k * x, x <= y],
                  lambda k, a, b, x, y, z, e: a <= k * y, title="k > 0, a <= k x, x <= y => a <= k y")
    fin = p.specialize(fin, {_k: K, _a: Sum(s, 0, T - 1, h(s)), _x: inv(T),
                             _y: dot(u, u) + 2 * C * Sum(s, 0, T - 1, c(s))})
    return p.solve("pa_bound", [at_T, fin, kpos, p.rule("finite_sum_linearity", "dot_nonneg", w(T) - u)],
                   p.theorem.conclusion, title="D(T) >= 0 and K > 0")


__all__ = ["C", "ls", "RUN", "ENCODING", "gain", "distance_drop", "termwise", "summed"]
