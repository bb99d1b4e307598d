"""Hedge (Freund & Schapire 1997, Theorem 2): allocating one unit among n options under losses in
[0, 1], with weights w(t, i) = beta^(loss of option i before step t), the total expected loss is
at most (ln(1/beta) L_j + ln n) / (1 - beta) for every option j, L_j its total loss.

The run is stated per option: w(0, i) = 1, w(t + 1, i) = w(t, i) exp(-ln(1/beta) l(t, i)) (that is
w(t, i) beta^l(t, i)), W(t) = sum_i w(t, i), and Hedge's loss at step t is
H(t) = sum_i w(t, i) l(t, i) / W(t), written H(t) W(t) = sum_i w(t, i) l(t, i).  The proof
(Freund & Schapire's, section 2):

* beta^l <= 1 - (1 - beta) l for l in [0, 1] -- exp lies under its chord, here from its tangent at
  c = -ln(1/beta) l (exp(x) >= exp(c) (1 + x - c) at x = 0 and x = -ln(1/beta), mixed with
  weights 1 - l and l);
* summed over the options, W(t + 1) <= (1 - (1 - beta) H(t)) W(t) <= exp(-(1 - beta) H(t)) W(t);
* so W(T) <= n exp(-(1 - beta) L_Hedge), while w(T, j) = exp(-ln(1/beta) L_j) <= W(T); take
  logarithms (``exp_monotone``).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.experts_run import exp_neg
from proofs.language.formula import INT, REAL, And, Eq, ForAll, Fun, Implies, Nat, Real, Seq, Sum, forall_below, num
from proofs.language.functions import exp
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import FREUND_SCHAPIRE_1997

T, n, j = Nat("T"), Nat("n"), Nat("j")
t, s, i = Nat("t"), Nat("s"), Nat("i")
a = Real("a")
beta = Real("beta", tex=r"\beta")
Lb = Real("ln_inv_beta", tex=r"\ln\frac{1}{\beta}", text="ln(1/beta)")
Ln = Real("ln_n", tex=r"\ln n", text="ln n")
w = Fun("w", (INT, INT), REAL)       # w(t, i): option i's weight before step t
l = Fun("l", (INT, INT), REAL)       # l(t, i): option i's loss at step t
W = Seq("W", REAL)                                       # W(t): the total weight before step t
H = Seq("H", REAL)                                       # H(t): Hedge's (expected) loss at step t
SUM = "finite_sum_linearity"


def both(tt, ii, body, hi_t=T):
    """for every t < T and i < n: body."""
    return ForAll((tt, ii), Implies(And(num(0) <= tt, tt < hi_t, num(0) <= ii, ii < n), body))


def total(tt):
    return Sum(i, 0, n - 1, w(tt, i))


def mixed(tt):
    return Sum(i, 0, n - 1, w(tt, i) * l(tt, i))


HYPS = [
    ("n_pos", n >= 1),
    ("option_in_range", j < n),
    ("beta_range", And(0 < beta, beta < 1)),
    ("log_inv_beta", Eq(exp(Lb) * beta, 1)),
    ("log_n", Eq(exp(Ln), n)),
    ("weights_start", forall_below(i, n, Eq(w(0, i), 1))),
    ("losses_range", both(t, i, And(0 <= l(t, i), l(t, i) <= 1))),
    ("update", both(t, i, Eq(w(t + 1, i), w(t, i) * exp(-(Lb * l(t, i)))))),
    ("total_weight", forall_below(t, T + 1, Eq(W(t), total(t)))),
    ("hedge_loss", forall_below(t, T, Eq(H(t) * W(t), mixed(t)))),
]
ENCODING = ("T steps, n options each starting at weight 1; l(t, i) in [0, 1] option i's loss at step t, w(t, i) its "
            "weight before step t (multiplied by beta^l(t, i) = exp(-ln(1/beta) l(t, i))), W(t) the total weight, "
            "H(t) Hedge's loss at step t (the losses averaged by the weights); j any option; logarithms as the "
            "reals whose exponentials are the given numbers")
RUN = ("weights_start", "losses_range", "update", "total_weight", "hedge_loss")
L_HEDGE = Sum(s, 0, T - 1, H(s))
L_J = Sum(s, 0, T - 1, l(s, j))


def in_range(tt=t, ii=i):
    return And(num(0) <= tt, tt < T, num(0) <= ii, ii < n)


def chord(p):
    """beta^a <= 1 - (1 - beta) a for a in [0, 1], with beta^a = exp(-ln(1/beta) a): the tangents of
    exp at c = -ln(1/beta) a, evaluated at 0 and at -ln(1/beta), mixed with weights 1 - a and a."""
    c = -(Lb * a)
    eb = exp_neg(p, Lb, "log_inv_beta", beta, "exp_neg_log_inv_beta")
    ec = exp(c)
    at0 = p.solve("tangent_at_zero", [p.rule("exp_laws", "exp_add", c, -c), p.rule("exp_laws", "exp_zero"),
                                      p.rule("exp_tangent", "exp_ge_tangent", -c), p.rule("exp_laws", "exp_pos", c)],
                  ec * (1 - c) <= 1, title="1 = exp(c) exp(-c) >= exp(c) (1 - c)")
    atb = p.solve("tangent_at_beta", [eb, p.rule("exp_laws", "exp_add", c, -Lb - c),
                                      p.rule("exp_tangent", "exp_ge_tangent", -Lb - c),
                                      p.rule("exp_laws", "exp_pos", c)],
                  ec * (1 - Lb - c) <= beta, title="beta = exp(c) exp(-ln(1/beta) - c) >= exp(c) (1 - ln(1/beta) - c)")
    return p.solve("loss_factor_chord", [at0, atb, p.rule("exp_laws", "exp_pos", c)],
                   Implies(And(0 <= a, a <= 1), exp(c) <= 1 - (1 - beta) * a),
                   title="(1 - a) 1 + a beta >= exp(c) ((1 - a)(1 - c) + a (1 - ln(1/beta) - c)) = exp(c)")


def weights_positive(p):
    """w(t, i) > 0 for every t <= T and the free option i < n (induction over the steps)."""
    P = Implies(And(num(0) <= i, i < n), w(t, i) > 0)
    base_goal, step_goal = induction_goals(t, P, T)
    base = p.solve("weights_positive_start", [p.inst(p.hyp("weights_start"), i)], base_goal, title="w(0, i) = 1")
    step = p.solve("weights_positive_step", [p.inst(p.hyp("update"), t, i), p.rule("exp_laws", "exp_pos", -(Lb * l(t, i)))],
                   step_goal, title="a positive weight times exp(.) > 0")
    return p.induction(t, P, base, step, T)


def generalize(p, fact, var, hi, sid):
    """for every var with 0 <= var <= hi: fact (a fact about a free var no hypothesis mentions),
    by induction on var whose base and successor are instances of the fact."""
    base = p.specialize(fact, {var: num(0)})
    nxt = p.specialize(fact, {var: var + 1})
    _, step_goal = induction_goals(var, fact.formula, hi)
    step = p.solve(sid, [nxt], step_goal, title=f"the fact holds for every {var.name}")
    return p.induction(var, fact.formula, base, step, hi)


def total_factor(p, pos):
    """W(t + 1) <= exp(-(1 - beta) H(t)) W(t) and W(t) >= 0, for 0 <= t < T."""
    ch = p.specialize(chord(p), {a: l(t, i)})
    at = p.inst(pos, t)
    at1 = p.inst(pos, t + 1)
    kept = 1 * w(t, i) + (beta - 1) * (w(t, i) * l(t, i))
    each = p.solve("option_keeps_chord", [ch, at, at1, p.inst(p.hyp("update"), t, i),
                                          p.inst(p.hyp("losses_range"), t, i)],
                   Implies(in_range(), And(w(t + 1, i) <= kept, w(t, i) >= 0, w(t + 1, i) >= 0)),
                   title="w(t+1, i) = w(t, i) beta^l <= w(t, i) (1 - (1 - beta) l)")
    every = generalize(p, each, i, n, "every_option_keeps_chord")
    summed = p.solve("total_weight_step_factor",
                     [every, p.rule(SUM, "sum_mono", i, 0, n - 1, w(t + 1, i), kept),
                      p.rule(SUM, "sum_linear", i, 0, n - 1, num(1), w(t, i), beta - 1, w(t, i) * l(t, i)),
                      p.rule(SUM, "sum_nonneg", i, 0, n - 1, w(t, i)), p.hyp("n_pos"),
                      p.inst(p.hyp("total_weight"), t), p.inst(p.hyp("total_weight"), t + 1),
                      p.inst(p.hyp("hedge_loss"), t)],
                     Implies(And(num(0) <= t, t < T), And(W(t + 1) <= (1 - (1 - beta) * H(t)) * W(t), W(t) >= 0)),
                     title="summed over the options: W(t+1) <= W(t) - (1 - beta) sum_i w l = (1 - (1 - beta) H(t)) W(t)")
    c = 1 - beta
    return p.solve("total_weight_exp_factor", [summed, p.rule("exp_tangent", "exp_ge_tangent", -(c * H(t)))],
                   Implies(And(num(0) <= t, t < T), W(t + 1) <= exp(-(c * H(t))) * W(t)),
                   title="1 - x <= exp(-x), and W(t) >= 0")


def total_weight_decay(p, factor):
    """W(T) <= n exp(-(1 - beta) sum_t H(t)) (induction over the steps)."""
    r = (1 - beta) * H(s)
    P = W(t) <= n * exp(-Sum(s, 0, t - 1, r))
    base_goal, step_goal = induction_goals(t, P, T)
    start = p.solve("total_weight_at_start",
                    [p.hyp("weights_start"), p.inst(p.hyp("total_weight"), num(0)),
                     p.rule(SUM, "sum_mono", i, 0, n - 1, w(0, i), num(1)),
                     p.rule(SUM, "sum_const", i, 0, n - 1, num(1))], W(0) <= n, title="W(0) = sum of n ones")
    base = p.solve("total_weight_bound_start", [start, p.rule(SUM, "sum_empty", s, 0, r), p.rule("exp_laws", "exp_zero")],
                   base_goal, title="W(0) <= n = n exp(0)")
    S, rt = Sum(s, 0, t - 1, r), (1 - beta) * H(t)
    split = p.solve("hedge_exponent_split", [p.rule(SUM, "sum_succ", s, 0, t - 1, r)],
                    Eq(exp(-Sum(s, 0, t, r)), exp(-S + -rt)), title="R(t+1) = R(t) + (1 - beta) H(t)")
    step = p.solve("total_weight_bound_step", [factor, split, p.rule("exp_laws", "exp_add", -S, -rt),
                                               p.rule("exp_laws", "exp_pos", -rt), p.hyp("n_pos")], step_goal,
                   title="W(t+1) <= exp(-r(t)) W(t) <= n exp(-R(t)) exp(-r(t))")
    return p.inst(p.induction(t, P, base, step, T), T)


def option_weight(p):
    """w(t, j) = exp(-ln(1/beta) sum_{s<t} l(s, j)) for every t <= T (induction over the steps)."""
    P = Eq(w(t, j), exp(-(Lb * Sum(s, 0, t - 1, l(s, j)))))
    base_goal, step_goal = induction_goals(t, P, T)
    base = p.solve("option_weight_start", [p.inst(p.hyp("weights_start"), j), p.hyp("option_in_range"),
                                           p.rule(SUM, "sum_empty", s, 0, l(s, j)), p.rule("exp_laws", "exp_zero")],
                   base_goal, title="w(0, j) = 1 = exp(0)")
    S, S1 = Sum(s, 0, t - 1, l(s, j)), Sum(s, 0, t, l(s, j))
    split = p.solve("option_exponent_split", [p.rule(SUM, "sum_succ", s, 0, t - 1, l(s, j))],
                    Eq(exp(-(Lb * S1)), exp(-(Lb * S) + -(Lb * l(t, j)))), title="L_j(t+1) = L_j(t) + l(t, j)")
    step = p.solve("option_weight_step", [p.inst(p.hyp("update"), t, j), p.hyp("option_in_range"), split,
                                          p.rule("exp_laws", "exp_add", -(Lb * S), -(Lb * l(t, j)))], step_goal,
                   title="w(t+1, j) = exp(-L L_j(t)) exp(-L l(t, j))")
    return p.inst(p.induction(t, P, base, step, T), T)


def hedge_in_logs(p):
    """(1 - beta) L_Hedge <= ln(1/beta) L_j + ln n."""
    pos = weights_positive(p)
    decay = total_weight_decay(p, total_factor(p, pos))
    wj = option_weight(p)
    end = generalize(p, p.inst(pos, T), i, n, "every_weight_positive_at_end")
    inside = p.solve("option_inside_total",
                     [end, p.rule(SUM, "sum_term_le", i, 0, n - 1, w(T, i), j), p.inst(p.hyp("total_weight"), T),
                      p.hyp("option_in_range")], w(T, j) <= W(T), title="one weight of positive weights is at most "
                     "their sum")
    R = Sum(s, 0, T - 1, (1 - beta) * H(s))
    weights = p.solve("hedge_weights_compared", [wj, inside, decay, p.hyp("log_n"),
                                                 p.rule("exp_laws", "exp_add", Ln, -R)],
                      exp(-(Lb * L_J)) <= exp(Ln + -R),
                      title="exp(-ln(1/beta) L_j) = w(T, j) <= W(T) <= n exp(-R) = exp(ln n - R)")
    logs = p.solve("hedge_take_logarithms", [weights, p.lemma("exp_monotone", {"a": -(Lb * L_J), "b": Ln + -R})],
                   -(Lb * L_J) <= Ln + -R, title="exp is increasing")
    scale = p.rule(SUM, "sum_scale", s, 0, T - 1, 1 - beta, H(s))
    return p.solve("hedge_in_logs", [logs, scale], (1 - beta) * L_HEDGE <= Lb * L_J + Ln,
                   title="sum_t (1 - beta) H(t) = (1 - beta) L_Hedge")


def _proof(p):
    logs = hedge_in_logs(p)
    return p.solve("hedge_loss_bound", [logs, p.hyp("beta_range")], p.theorem.conclusion,
                   title="divide by 1 - beta > 0")


THEOREMS = [
    Theorem(
        id="hedge_bound",
        name="Hedge(beta) under losses in [0, 1]: L_Hedge <= (ln(1/beta) L_j + ln n) / (1 - beta) for every option j",
        source=Source(FREUND_SCHAPIRE_1997, "Freund & Schapire 1997, Theorem 2 (also Cesa-Bianchi & Lugosi 2006, "
                      "ch. 2)",
                      "For any sequence of loss vectors in [0, 1]^N and any i, the total loss of Hedge(beta) is at "
                      "most (ln(1/beta) L_i + ln N) / (1 - beta)."),
        hypotheses=HYPS,
        conclusion=L_HEDGE <= (Lb * L_J + Ln) / (1 - beta),
        proof=_proof, encoding=ENCODING, witness_sizes={T: 2, n: 2},
    ),
]
