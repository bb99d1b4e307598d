"""Prediction with expert advice as formulas: the vocabulary of the Weighted Majority theorems
(Littlestone & Warmuth 1994; Cesa-Bianchi & Lugosi 2006, ch. 2) and the two inductions they share.

A run has T steps over n experts, each expert starting at weight 1.  ``W(t)`` is the total weight
before step t, ``F(t)`` the fraction of it on the experts that are wrong at step t (so the update
"multiply every wrong expert by beta" is W(t+1) = (1 - (1 - beta) F(t)) W(t)); ``v(t)`` is the
weight of one expert -- the best one -- and ``e(t)`` in {0, 1} says whether it is wrong at step t.
Logarithms are named reals fixed by the exponential: exp(ln(1/beta)) beta = 1, exp(ln n) = n.
"""
from __future__ import annotations

from proofs.language.formula import INT, REAL, And, Eq, Implies, Nat, Or, Real, Seq, Sum, forall_below, num
from proofs.language.functions import exp
from proofs.kernel.kernel import induction_goals

T = Nat("T")
t = Nat("t")
s = Nat("s")
n = Nat("n")
beta = Real("beta", tex=r"\beta")
W = Seq("W", REAL)
F = Seq("F", REAL)
v = Seq("v", REAL)
e = Seq("e", INT)
z = Seq("z", INT)
Lb = Real("ln_inv_beta", tex=r"\ln\frac{1}{\beta}", text="ln(1/beta)")
Ln = Real("ln_n", tex=r"\ln n", text="ln n")

ENCODING = ("T steps, n experts starting at weight 1; W(t) the total weight before step t, F(t) the fraction of it "
            "on wrong experts, v(t) and e(t) in {0, 1} the best expert's weight and mistakes; logarithms as the "
            "reals whose exponentials are the given numbers")


def during(body):
    """``0 <= t < T => body``: a fact about the step t of the run."""
    return Implies(And(num(0) <= t, t < T), body)


def bit(f):
    return Or(Eq(f, 0), Eq(f, 1))


def sum_to(seq, upto):
    """sum_{s=0}^{upto-1} seq(s)."""
    return Sum(s, 0, upto - 1, seq(s))


def common_hypotheses():
    return [
        ("n_pos", n >= 1),
        ("beta_range", And(0 < beta, beta < 1)),
        ("log_inv_beta", Eq(exp(Lb) * beta, 1)),
        ("log_n", Eq(exp(Ln), n)),
        ("weights_start", Eq(W(0), n)),
        ("best_start", Eq(v(0), 1)),
        ("update_total", forall_below(t, T, Eq(W(t + 1), (1 - (1 - beta) * F(t)) * W(t)))),
        ("wrong_fraction", forall_below(t, T, And(0 <= F(t), F(t) <= 1))),
        ("update_best", forall_below(t, T, And(bit(e(t)), Eq(v(t + 1), (1 - (1 - beta) * e(t)) * v(t))))),
        ("best_in_total", v(T) <= W(T)),
    ]


def exp_neg(p, L, hyp, value, sid):
    """exp(-L) = value, from the hypothesis exp(L) value' = 1 (exp(L) exp(-L) = exp(0) = 1)."""
    return p.solve(sid, [p.hyp(hyp), p.rule("exp_laws", "exp_add", L, -L), p.rule("exp_laws", "exp_zero")],
                   Eq(exp(-L), value), title="exp(-L) exp(L) = exp(0) = 1")


def best_expert_weight(p):
    """v(T) = exp(-ln(1/beta) m), m = sum_t e(t): induction over the steps."""
    P = Eq(v(t), exp(-Lb * sum_to(e, t)))
    base_goal, step_goal = induction_goals(t, P, T)
    base = p.solve("best_weight_start", [p.hyp("best_start"), p.rule("finite_sum_linearity", "sum_empty", s, 0, e(s)),
                                         p.rule("exp_laws", "exp_zero")], base_goal,
                   title="v(0) = 1 = exp(0), no mistake yet")
    eb = exp_neg(p, Lb, "log_inv_beta", beta, "exp_neg_log_inv_beta")
    upd = p.inst(p.hyp("update_best"), t)
    factor = p.solve("best_factor", [upd, eb, p.rule("exp_laws", "exp_zero")],
                     during(Eq(exp(-Lb * e(t)), 1 - (1 - beta) * e(t))), title="exp(-ln(1/beta) e) is beta or 1 as e is 1 or 0")
    E, E1 = sum_to(e, t), sum_to(e, t + 1)
    split = p.solve("best_exponent_split", [p.rule("finite_sum_linearity", "sum_succ", s, 0, t - 1, e(s))],
                    Eq(exp(-Lb * E1), exp(-Lb * E + -Lb * e(t))), title="E(t+1) = E(t) + e(t)")
    step = p.solve("best_weight_step", [upd, factor, split, p.rule("exp_laws", "exp_add", -Lb * E, -Lb * e(t))],
                   step_goal, title="v(t+1) = exp(-L E(t)) exp(-L e(t)) = exp(-L E(t+1))")
    return p.inst(p.induction(t, P, base, step, T), T)


def total_weight_bound(p, rate, factor_fact, tag):
    """W(T) <= n exp(-sum_t rate(t)), from W(t+1) <= W(t) exp(-rate(t)) (``factor_fact``, about t)."""
    P = W(t) <= n * exp(-Sum(s, 0, t - 1, rate(s)))
    base_goal, step_goal = induction_goals(t, P, T)
    base = p.solve(f"total_weight_start{tag}", [p.hyp("weights_start"), p.hyp("n_pos"),
                                                p.rule("finite_sum_linearity", "sum_empty", s, 0, rate(s)),
                                                p.rule("exp_laws", "exp_zero")], base_goal, title="W(0) = n = n exp(0)")
    S, S1 = Sum(s, 0, t - 1, rate(s)), Sum(s, 0, t, rate(s))
    split = p.solve(f"total_exponent_split{tag}", [p.rule("finite_sum_linearity", "sum_succ", s, 0, t - 1, rate(s))],
                    Eq(exp(-S1), exp(-S + -rate(t))), title="R(t+1) = R(t) + r(t)")
    step = p.solve(f"total_weight_step{tag}",
                   [factor_fact, p.inst(p.hyp("update_total"), t), p.inst(p.hyp("wrong_fraction"), t),
                    p.hyp("beta_range"), p.hyp("n_pos"), split,
                    p.rule("exp_laws", "exp_add", -S, -rate(t)), p.rule("exp_laws", "exp_pos", -S)], step_goal,
                   title="W(t+1) <= W(t) exp(-r(t)) <= n exp(-R(t)) exp(-r(t)) = n exp(-R(t+1))")
    return p.inst(p.induction(t, P, base, step, T), T)


def logs_compared(p, best, total, rate_sum, sid):
    """exp(-ln(1/beta) m) = v(T) <= W(T) <= n exp(-R) = exp(ln n - R), so -ln(1/beta) m <= ln n - R."""
    m = sum_to(e, T)
    mono = p.lemma("exp_monotone", {"a": -Lb * m, "b": Ln + -rate_sum})
    weights = p.solve(f"{sid}_weights", [best, total, p.hyp("best_in_total"), p.hyp("log_n"),
                                         p.rule("exp_laws", "exp_add", Ln, -rate_sum)],
                      exp(-Lb * m) <= exp(Ln + -rate_sum), title="exp(-L m) = v(T) <= W(T) <= n exp(-R) = exp(ln n - R)")
    return p.solve(sid, [weights, mono], -Lb * m <= Ln + -rate_sum, title="take logarithms: exp is increasing")


__all__ = ["T", "t", "s", "n", "beta", "W", "F", "v", "e", "z", "Lb", "Ln", "ENCODING", "during", "bit", "sum_to",
           "common_hypotheses", "exp_neg", "best_expert_weight", "total_weight_bound", "logs_compared", "num"]
