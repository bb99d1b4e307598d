"""No learner beats lg n on the disjunctions of one of n = 2^l variables (Littlestone 1988, section
5: every algorithm makes at least r floor(lg(n/r)) mistakes on some r-literal monotone disjunction
of n variables; Winnow's O(r log n) is tight up to a constant): a binary search labelled against
the learner.  The adversary keeps an interval [lo(j), lo(j) + h(j)) of the variables, h(0) = n;
its j-th example turns on the lower half [lo(j), lo(j) + h(j+1)), and its label is the opposite of
the learner's prediction p(j) in {0, 1}: on p(j) = 0 it says 1 and keeps the lower half, on
p(j) = 1 it says 0 and keeps the upper one.  After l steps one variable, lo(l), is left, the
disjunction of that variable alone gives every label, and the learner erred l = lg n times.

The learner is any: its predictions p(j) are left free (``adversary.unit_worst.disjunction_forcing``
plays the same construction).  r blocks of 2^l variables, one literal in each, played one after
the other, force r l = r lg(n/r) mistakes: the examples of a block turn on none of the other
blocks' variables, so each block is this game again.  For every algorithm and every n = r 2^l the
whole statement is the Coq theorem ``DisjunctionLowerBound.disjunction_lower_bound`` (``verify
--coq``: ``learner_disjunction_lower_bound``).  The statement is for a step index j that no
hypothesis mentions, so for every j.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import INT, And, Eq, Implies, Ite, Nat, Or, Seq, Sum, forall_below, num
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import LITTLESTONE_1988

l, j, m, s = Nat("l"), Nat("j"), Nat("m"), Nat("s")
p_, lo, h = Seq("p", INT), Seq("lo", INT), Seq("h", INT)
y = lambda k: 1 - p_(k)                                   # noqa: E731  the adversary's label at step k
target_on = lambda k: And(lo(k) <= lo(l), lo(l) < lo(k) + h(k + 1))   # noqa: E731  x(k) turns the target on
SUM = "finite_sum_linearity"


def _proof(pf):
    at = lambda name, k: pf.inst(pf.hyp(name), k)        # noqa: E731
    # for j <= m <= l the interval at m lies inside the interval at j
    P = Implies(And(j <= m, m <= l), And(lo(j) <= lo(m), lo(m) + h(m) <= lo(j) + h(j)))
    base_goal, step_goal = induction_goals(m, P, l)
    base = pf.solve("interval_start", [], base_goal, title="m = 0: j = 0, the same interval")
    step = pf.solve("interval_step", [at("adversary_halves", m), at("halves", m), at("predictions_01", m)], step_goal,
                    title="the next interval is one half of the interval at m")
    nested = pf.inst(pf.induction(m, P, base, step, l), l)
    after = pf.specialize(nested, {j: j + 1})
    labels = pf.solve("labels_are_the_targets", [after, at("adversary_halves", j), at("predictions_01", j),
                                                 at("halves", j), pf.hyp("one_variable_left")],
                      Implies(And(num(0) <= j, j < l), Eq(y(j), Ite(target_on(j), 1, 0))),
                      title="lo(l) lies in the half kept after step j: the lower one (label 1) iff p(j) = 0")
    in_range = pf.solve("target_is_a_variable", [pf.specialize(nested, {j: num(0)}), pf.hyp("starts_at_0"),
                                                 pf.hyp("one_variable_left")],
                        And(num(0) <= lo(l), lo(l) < h(0)), title="lo(l) lies in [lo(0), lo(0) + h(0)) = [0, n)")
    each = pf.solve("every_step_a_mistake", [pf.hyp("predictions_01")],
                    forall_below(s, l, Eq((y(s) - p_(s)) ** 2, 1), lo=0),
                    title="y = 1 - p with p in {0, 1}: (y - p)^2 = 1")
    each_le = pf.solve("terms_le_1", [each], _range(s, (y(s) - p_(s)) ** 2 <= num(1) * 1), title="each term <= 1")
    each_ge = pf.solve("terms_ge_1", [each], _range(s, num(1) * 1 <= (y(s) - p_(s)) ** 2), title="each term >= 1")
    mistakes = pf.solve("mistakes_counted", [
        each_le, each_ge, pf.rule(SUM, "sum_mono", s, 0, l - 1, (y(s) - p_(s)) ** 2, num(1) * 1),
        pf.rule(SUM, "sum_mono", s, 0, l - 1, num(1) * 1, (y(s) - p_(s)) ** 2),
        pf.rule(SUM, "sum_const", s, 0, l - 1, num(1) * 1)],
        Eq(Sum(s, 0, l - 1, (y(s) - p_(s)) ** 2), l), title="l terms equal to 1: l mistakes")
    return pf.solve("forced_mistakes", [labels, in_range, mistakes], pf.theorem.conclusion,
                    title="every label is the target's, the target is one of the n variables, l mistakes")


def _range(i, body):
    from proofs.language.formula import ForAll
    return ForAll(i, Implies(And(num(0) <= i, i <= l - 1), body))


THEOREMS = [
    Theorem(
        id="disjunction_lower_bound",
        name="Any deterministic learner can be forced to lg n mistakes on a disjunction of one of n = 2^l variables",
        source=Source(LITTLESTONE_1988, "Littlestone 1988, section 5 (lower bound r floor(lg(n/r)); Blum's notes)",
                      "For every deterministic algorithm there is a monotone disjunction of r of the n variables on "
                      "which it makes at least r floor(lg(n/r)) mistakes: Winnow's bound is optimal up to a constant."),
        hypotheses=[("predictions_01", forall_below(j, l, Or(Eq(p_(j), 0), Eq(p_(j), 1)))),
                    ("halves", forall_below(j, l, And(Eq(h(j), 2 * h(j + 1)), h(j + 1) >= 1))),
                    ("one_variable_left", Eq(h(l), 1)),
                    ("starts_at_0", Eq(lo(0), 0)),
                    ("adversary_halves", forall_below(j, l, Eq(lo(j + 1), lo(j) + p_(j) * h(j + 1))))],
        conclusion=And(Implies(And(num(0) <= j, j < l), Eq(y(j), Ite(target_on(j), 1, 0))),
                       num(0) <= lo(l), lo(l) < h(0),
                       Eq(Sum(s, 0, l - 1, (y(s) - p_(s)) ** 2), l)),
        proof=_proof, witness_sizes={l: 2},
        encoding="l steps over n = h(0) = 2^l variables; p(j) in {0, 1} the learner's prediction (any deterministic "
                 "learner), 1 - p(j) the adversary's label; x(j) turns on the variables in [lo(j), lo(j) + h(j+1)); "
                 "the target disjunction is the variable lo(l) alone; the learner errs when (label - p)^2 = 1",
        notes="r blocks of 2^l variables played one after the other force r l = r lg(n/r) mistakes on a disjunction "
              "of r variables; for every algorithm, r and l this is the Coq theorem "
              "DisjunctionLowerBound.disjunction_lower_bound (verify --coq: learner_disjunction_lower_bound).",
    ),
]
