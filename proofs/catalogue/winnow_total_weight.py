"""The total-weight side of Blum's proof of Theorem 5 (Winnow notes): a promotion adds less than n
to the total weight W, a demotion removes at least (1 - beta) n of it; and, for the tight bound
found by this suite, after a demotion the irrelevant weight keeps at least beta n.

For Winnow whose demotion multiplies the active weights by beta in [0, 1] (the notes' Winnow:
beta = 1/2, "each demotion removes at least n/2"; the elimination variant: beta = 0): with P
promotions among the M mistakes and M - P demotions,

    W(M) + (1 - beta) n (M - P) <= n + n P,   strictly when P >= 1;

W(M) is the relevant weight S(M) plus the irrelevant weight I(M), both >= 0 (and W(M) > 0 when
beta > 0); and if there was a demotion, I(M) >= beta n.

The proof: weight i changes by (factor - 1) w_i x_i on a mistake, so W changes by
(factor - 1) w.x (summing over the variables): + w.x < n on a promotion (the prediction was 0),
-(1 - beta) w.x <= -(1 - beta) n on a demotion (the prediction was 1); W starts at n (induction
over the mistakes).  A demotion's example sets no relevant variable, so its w.x >= n is all
irrelevant weight, of which beta w.x stays; a promotion only doubles weights; so after the first
demotion I >= beta n for good (induction over the mistakes).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import And, Eq, Implies, Sum, forall_below, num
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import BLUM_NOTES
from proofs.catalogue.winnow_run import (ENCODING, WITNESS, M, act, at_t, beta, generalize, i, irrelevant_total, label_covers_relevant,
                         labels_boolean, n, promotions, r, relevant_total, run_hypotheses, s, step_range, t, total, w,
                         weights_nonneg, x, y)

SUM = "finite_sum_linearity"


def change(tt):
    """The factor of an active weight, minus 1: 1 on a promotion, beta - 1 on a demotion."""
    return beta - 1 + (2 - beta) * y(tt)


def _bound(tt):
    return total(tt) + (1 - beta) * n * (tt - promotions(tt)), n + n * promotions(tt)


def invariant(tt):
    lhs, rhs = _bound(tt)
    return And(lhs <= rhs, Implies(promotions(tt) >= 1, lhs < rhs))


def demoted_weight(tt):
    """After a demotion (fewer promotions than mistakes), the irrelevant weight is >= beta n."""
    return Implies(promotions(tt) < tt, irrelevant_total(tt) >= beta * n)


CONCLUSION = And(invariant(M), Eq(total(M), relevant_total(M) + irrelevant_total(M)), 0 <= relevant_total(M),
                 0 <= irrelevant_total(M), Implies(beta > 0, total(M) > 0), demoted_weight(M))


def _total_change(p, yb):
    """0 <= t < M ==> W(t + 1) = W(t) + (factor - 1) w.x."""
    new = 1 * w(t, i) + change(t) * (w(t, i) * x(t, i))
    each = p.solve("weight_change_each_variable",
                   [at_t(p, "update_on_mistake"), at_t(p, "examples_labelled_by_target"), yb],
                   Implies(step_range(), forall_below(i, n, Eq(w(t + 1, i), new))),
                   title="w_i changes by (factor - 1) w_i x_i")
    return p.solve("total_weight_change",
                   [each, p.rule(SUM, "sum_mono", i, 0, n - 1, w(t + 1, i), new),
                    p.rule(SUM, "sum_mono", i, 0, n - 1, new, w(t + 1, i)),
                    p.rule(SUM, "sum_linear", i, 0, n - 1, num(1), w(t, i), change(t), w(t, i) * x(t, i))],
                   Implies(step_range(), Eq(total(t + 1), total(t) + change(t) * act(t))),
                   title="summed over the variables: W changes by (factor - 1) w.x")


def _total_weight(p, yb):
    """The invariant for every t <= M (induction over the mistakes)."""
    start = p.solve("total_weight_at_start",
                    [p.hyp("weights_start_at_1"), p.rule(SUM, "sum_mono", i, 0, n - 1, w(0, i), num(1)),
                     p.rule(SUM, "sum_mono", i, 0, n - 1, num(1), w(0, i)),
                     p.rule(SUM, "sum_const", i, 0, n - 1, num(1))],
                    Eq(total(num(0)), n), title="W(0) = n")
    P = invariant(t)
    base_goal, step_goal = induction_goals(t, P, M)
    base = p.solve("total_weight_invariant_at_start", [start, p.rule(SUM, "sum_empty", s, 0, y(s))], base_goal,
                   title="W(0) = n, no promotion, no demotion")
    step = p.solve("total_weight_invariant_step",
                   [_total_change(p, yb), p.rule(SUM, "sum_succ", s, 0, t - 1, y(s)), at_t(p, "mistake_at_threshold_n"),
                    yb, p.hyp("demotion_factor")], step_goal,
                   title="a promotion adds w.x < n (one more promotion), a demotion removes (1 - beta) w.x >= "
                         "(1 - beta) n (one more demotion)")
    return p.induction(t, P, base, step, M)


def _demoted_weight(p, yb, weights):
    """After a demotion the irrelevant weight is >= beta n, for every t <= M (induction)."""
    wx = w(t, i) * x(t, i)
    covers = generalize(p, label_covers_relevant(p), i, r, "relevant_variable_sets_label_every_i")
    rel_zero = p.solve("demotion_sets_no_relevant_variable",
                       [covers, at_t(p, "examples_labelled_by_target"),
                        p.rule(SUM, "sum_mono", i, 0, r - 1, wx, num(0)),
                        p.rule(SUM, "sum_const", i, 0, r - 1, num(0)), p.hyp("relevant_among_variables")],
                       Implies(And(step_range(), Eq(y(t), 0)), Sum(i, 0, r - 1, wx) <= 0),
                       title="a negative example sets no relevant variable: the relevant part of w.x is 0")
    irr_active = Sum(i, r, n - 1, wx)
    fp_irr = p.solve("demotion_is_irrelevant_weight",
                     [rel_zero, p.rule(SUM, "sum_split", i, 0, r - 1, n - 1, wx), at_t(p, "mistake_at_threshold_n"),
                      p.hyp("relevant_among_variables")],
                     Implies(And(step_range(), Eq(y(t), 0)), irr_active >= n),
                     title="a demotion's w.x >= n is irrelevant weight")
    kept = beta * wx + num(0) * num(0)
    demoted = p.solve("demotion_keeps_beta_n",
                      [fp_irr, at_t(p, "update_on_mistake"), at_t(p, "examples_labelled_by_target"),
                       p.inst(weights, t + 1), p.rule(SUM, "sum_mono", i, r, n - 1, kept, w(t + 1, i)),
                       p.rule(SUM, "sum_linear", i, r, n - 1, beta, wx, num(0), num(0)), p.hyp("demotion_factor")],
                      Implies(And(step_range(), Eq(y(t), 0)), irrelevant_total(t + 1) >= beta * n),
                      title="the demoted weights keep beta w.x >= beta n")
    grows = p.solve("promotion_keeps_irrelevant_weight",
                    [at_t(p, "update_on_mistake"), at_t(p, "examples_labelled_by_target"), p.inst(weights, t),
                     p.rule(SUM, "sum_mono", i, r, n - 1, w(t, i), w(t + 1, i))],
                    Implies(And(step_range(), Eq(y(t), 1)), irrelevant_total(t + 1) >= irrelevant_total(t)),
                    title="a promotion only doubles weights")
    P = demoted_weight(t)
    base_goal, step_goal = induction_goals(t, P, M)
    base = p.solve("demoted_weight_at_start", [p.rule(SUM, "sum_empty", s, 0, y(s))], base_goal,
                   title="no demotion yet")
    step = p.solve("demoted_weight_step", [demoted, grows, p.rule(SUM, "sum_succ", s, 0, t - 1, y(s)), yb], step_goal,
                   title="a demotion leaves >= beta n, a promotion keeps it")
    return p.induction(t, P, base, step, M)


def _proof(p):
    yb = labels_boolean(p)
    weights = weights_nonneg(p, yb)
    at_end = p.inst(_total_weight(p, yb), M)
    weights_end = p.inst(weights, M)
    split = p.solve("total_weight_after_M",
                    [at_end, weights_end, p.rule(SUM, "sum_split", i, 0, r - 1, n - 1, w(M, i)),
                     p.rule(SUM, "sum_nonneg", i, 0, r - 1, w(M, i)), p.rule(SUM, "sum_nonneg", i, r, n - 1, w(M, i)),
                     p.rule(SUM, "sum_term_le", i, 0, n - 1, w(M, i), num(0)), p.hyp("n_pos"),
                     p.hyp("relevant_among_variables")], And(*p.theorem.conclusion.args[:-1]),
                    title="after the M mistakes; W(M) = relevant + irrelevant weights, each >= 0")
    demoted = p.inst(_demoted_weight(p, yb, weights), M)
    return p.solve("total_weight_conclusion", [split, demoted], p.theorem.conclusion, title="together")


THEOREMS = [
    Theorem(
        id="winnow_total_weight",
        name="Winnow: a promotion adds less than n to the total weight, a demotion removes (1 - beta) n or more",
        source=Source(BLUM_NOTES, "Blum, Winnow notes, proof of Theorem 5 (the total weight)",
                      "The total weight starts at n; a mistake on a positive example adds less than n to it, a "
                      "mistake on a negative example removes at least n/2; it never goes negative.  (That the "
                      "irrelevant weight keeps n/2 after a demotion is used by this suite's tight bound.)"),
        hypotheses=run_hypotheses("scales"),
        conclusion=CONCLUSION,
        proof=_proof, encoding=ENCODING, witness_sizes=WITNESS,
        notes="A demotion may multiply the active weights by any beta in [0, 1] (1/2: the notes' Winnow; "
              "0: the elimination variant); the halving and elimination bounds use this theorem as a lemma.",
    ),
]
