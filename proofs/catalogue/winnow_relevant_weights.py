"""The promotions side of Blum's proof of Theorem 5 (Winnow notes): every promotion doubles a
relevant weight, a relevant weight is doubled only while it is below n, so there are at most
r(1 + lg n) promotions.

For Winnow whose demotion multiplies the active weights by any beta >= 0 (the notes' Winnow:
beta = 1/2; the elimination variant: beta = 0): after the M mistakes, each relevant weight is
w(M, i) = 2^d(M, i) with 1 <= w(M, i) < 2n, where d(M, i) counts the promotions that doubled it
(stated for a variable index i the hypotheses do not mention, so for every i: a conclusion
without a quantifier keeps z3's satisfiability questions on the steps that apply it fast);
the promotions are at most the doublings of relevant weights, P(M) <= sum_{i<r} d(M, i), and
each d(M, i) < 1 + lg n, so P(M) <= r(1 + lg n).

The proof: a demotion is a mistake on a negative example, which sets no relevant variable (the
target is their disjunction), so a relevant weight is never demoted; a promotion doubles weight i
when x_i = 1, and then w_i <= w.x < n, so the weight stays below 2n (induction over the
mistakes, one relevant variable at a time); 2^(d-1) < n gives d - 1 < lg n.  A promotion is a
mistake on a positive example, which sets at least one relevant variable: it adds
y(t) sum_{i<r} x(t, i) >= 1 to the doublings (induction over the mistakes, summing over the
relevant variables).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import And, Eq, Implies, num
from proofs.language.functions import lg, pow2
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import BLUM_NOTES
from proofs.catalogue.winnow_run import (ENCODING, WITNESS, M, act, at_t, doublings, generalize, i, label_covers_relevant,
                         labels_boolean, n, promotions, r, relevant_doublings, run_hypotheses, s, step_range, t, w,
                         weights_nonneg, x, y)

SUM = "finite_sum_linearity"
LOG = "pow2_log2"


def relevant_weight(tt):
    """For the (free) variable i, if it is relevant: 1 <= w(t, i) = 2^d(t, i) < 2n."""
    return Implies(i < r, And(1 <= w(tt, i), Eq(w(tt, i), pow2(doublings(tt, i))), w(tt, i) < 2 * n))


CONCLUSION = And(relevant_weight(M), promotions(M) <= relevant_doublings(M), promotions(M) <= r * (1 + lg(n)))


def _relevant_weights(p, weights):
    """Per relevant variable i (free): 1 <= w(t, i) = 2^d(t, i) < 2n for every t <= M."""
    term = p.rule(SUM, "sum_term_le", i, 0, n - 1, w(t, i) * x(t, i), i)
    below = p.solve("active_weight_le_activation", [term, p.inst(weights, t), at_t(p, "examples_labelled_by_target")],
                    Implies(And(step_range(), i < n, Eq(x(t, i), 1)), w(t, i) <= act(t)),
                    title="an active weight is a term of w.x, whose terms are >= 0")
    covers = label_covers_relevant(p)
    P = relevant_weight(t)
    base_goal, step_goal = induction_goals(t, P, M)
    empty = p.rule(SUM, "sum_empty", s, 0, y(s) * x(s, i))
    base = p.solve("relevant_weight_at_start", [p.hyp("weights_start_at_1"), empty, p.rule("pow2_log2", "pow2_zero"),
                                                p.hyp("relevant_among_variables")], base_goal,
                   title="w(0, i) = 1 = 2^0 < 2n")
    succ = p.rule(SUM, "sum_succ", s, 0, t - 1, y(s) * x(s, i))
    facts = [at_t(p, nm) for nm in ("update_on_mistake", "examples_labelled_by_target", "mistake_at_threshold_n")]
    step = p.solve("relevant_weight_step", facts + [covers, below, succ, p.hyp("relevant_among_variables"),
                                                    p.rule("pow2_log2", "pow2_succ", doublings(t, i))], step_goal,
                   title="a relevant weight is never demoted, and doubled (one more doubling) only inside w.x < n")
    return p.induction(t, P, base, step, M)


def _promotions_le_doublings(p, yb):
    """P(t) <= sum_{i<r} d(t, i) for every t <= M."""
    succ_i = generalize(p, p.rule(SUM, "sum_succ", s, 0, t - 1, y(s) * x(s, i)), i, r, "doublings_succ_every_i")
    empty_i = generalize(p, p.rule(SUM, "sum_empty", s, 0, y(s) * x(s, i)), i, r, "doublings_empty_every_i")
    P = promotions(t) <= relevant_doublings(t)
    base_goal, step_goal = induction_goals(t, P, M)
    zero = doublings(num(0), i)
    base = p.solve("promotions_le_doublings_at_start",
                   [empty_i, p.rule(SUM, "sum_empty", s, 0, y(s)), p.rule(SUM, "sum_mono", i, 0, r - 1, num(0), zero),
                    p.rule(SUM, "sum_const", i, 0, r - 1, num(0))], base_goal, title="no promotion, no doubling yet")
    nxt = 1 * doublings(t, i) + y(t) * x(t, i)
    facts = [succ_i, p.rule(SUM, "sum_succ", s, 0, t - 1, y(s)),
             p.rule(SUM, "sum_linear", i, 0, r - 1, num(1), doublings(t, i), y(t), x(t, i)),
             p.rule(SUM, "sum_mono", i, 0, r - 1, doublings(t + 1, i), nxt),
             p.rule(SUM, "sum_mono", i, 0, r - 1, nxt, doublings(t + 1, i)),
             at_t(p, "examples_labelled_by_target"), yb]
    step = p.solve("promotions_le_doublings_step", facts, step_goal,
                   title="a promotion is a positive example: it sets a relevant variable, whose weight it doubles")
    return p.induction(t, P, base, step, M)


def _below_1_plus_lg_n(p, rel_M):
    """For a relevant i: 2^d < 2n, so 2^(d-1) < n and d - 1 = lg 2^(d-1) < lg n."""
    d = doublings(M, i)
    each = p.solve("relevant_doublings_below_1_plus_lg_n",
                   [rel_M, p.rule(LOG, "pow2_succ", d - 1), p.rule(LOG, "lg_pow2", d - 1),
                    p.rule(LOG, "lg_strictly_increasing", pow2(d - 1), n)],
                   Implies(i < r, d < 1 + lg(n)), title="2^d < 2n: 2^(d-1) < n, so d - 1 = lg 2^(d-1) < lg n")
    return generalize(p, each, i, r, "relevant_doublings_bound_every_i")


def _proof(p):
    yb = labels_boolean(p)
    weights = weights_nonneg(p, yb)
    rel_M = p.inst(_relevant_weights(p, weights), M)
    count = p.inst(_promotions_le_doublings(p, yb), M)
    d = doublings(M, i)
    return p.solve("relevant_weights_after_M",
                   [rel_M, count, _below_1_plus_lg_n(p, rel_M), p.rule(SUM, "sum_mono", i, 0, r - 1, d, 1 + lg(n)),
                    p.rule(SUM, "sum_const", i, 0, r - 1, 1 + lg(n))], p.theorem.conclusion,
                   title="after the M mistakes: P <= sum_{i<r} d(M, i) <= r(1 + lg n)")


THEOREMS = [
    Theorem(
        id="winnow_relevant_weights",
        name="Winnow: promotions double relevant weights, each only while below n: at most r(1 + lg n) promotions",
        source=Source(BLUM_NOTES, "Blum, Winnow notes, proof of Theorem 5 (the mistakes on positive examples)",
                      "Each mistake on a positive example doubles at least one relevant weight; a relevant weight "
                      "is never halved (a negative example sets no relevant variable) and is doubled only while "
                      "below n, so each relevant weight is doubled at most 1 + lg n times: at most r(1 + lg n) "
                      "mistakes on positive examples."),
        hypotheses=run_hypotheses("scales", beta_at_most_1=False),
        conclusion=CONCLUSION,
        proof=_proof, encoding=ENCODING, witness_sizes=WITNESS,
        notes="A demotion may multiply the active weights by any beta >= 0 (1/2: the notes' Winnow; "
              "0: the elimination variant); the halving and elimination bounds use this theorem as a lemma.",
    ),
]
