"""No deterministic learner beats 2m with two experts (Cesa-Bianchi & Lugosi 2006, ch. 2; Blum's
15-859 notes): against experts that always say +1 and always say -1, the adversary labels every
step against the learner's prediction.  Every step is then a mistake of the learner and of exactly
one expert, so M = T >= 2 min(m+, m-) -- Weighted Majority's factor 2 in front of m (2.41 at
beta = 1/2) cannot go below 2.

The statement quantifies over every deterministic learner by leaving its predictions p(t) free:
the adversary's label is y(t) = -p(t) (the construction, run by ``adversary.experts_lower``).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import REAL, And, Eq, ForAll, Implies, Nat, Seq, Sum, forall_below, num
from proofs.language.functions import Min
from proofs.catalogue.sources import CESA_BIANCHI_LUGOSI

T, t, s = Nat("T"), Nat("t"), Nat("s")
p_, y = Seq("p", REAL), Seq("y", REAL)
mis = lambda k: (1 - y(k) * p_(k)) / 2          # noqa: E731  the learner's mistake at step k (0 or 1)
plus_wrong = lambda k: (1 - y(k)) / 2           # noqa: E731  the expert saying +1 is wrong
minus_wrong = lambda k: (1 + y(k)) / 2          # noqa: E731  the expert saying -1 is wrong

M = Sum(s, 0, T - 1, mis(s))
m_plus, m_minus = Sum(s, 0, T - 1, plus_wrong(s)), Sum(s, 0, T - 1, minus_wrong(s))
SUM = "finite_sum_linearity"


def _proof(p):
    each = p.solve("every_step_one_expert_wrong", [p.hyp("predictions_pm1"), p.hyp("adversary_labels")],
                   ForAll(s, Implies(And(num(0) <= s, s <= T - 1),
                                     1 * plus_wrong(s) + 1 * minus_wrong(s) <= mis(s))),
                   title="y = -p: the learner is wrong, and exactly one of the two experts")
    summed = p.solve("summed", [each, p.rule(SUM, "sum_mono", s, 0, T - 1, 1 * plus_wrong(s) + 1 * minus_wrong(s),
                                             mis(s)),
                                p.rule(SUM, "sum_linear", s, 0, T - 1, num(1), plus_wrong(s), num(1), minus_wrong(s))],
                     m_plus + m_minus <= M, title="summed over the steps: m+ + m- <= M")
    return p.solve("two_experts_bound", [summed], p.theorem.conclusion, title="2 min(m+, m-) <= m+ + m-")


THEOREMS = [
    Theorem(
        id="two_experts_lower_bound",
        name="Any deterministic learner can be forced to 2m mistakes with two experts",
        source=Source(CESA_BIANCHI_LUGOSI, "Cesa-Bianchi & Lugosi 2006, ch. 2 (also Blum, 15-859 notes)",
                      "With two experts, one always predicting 1 and one always 0, labelling against a deterministic "
                      "learner forces M = T >= 2 min(m1, m2)."),
        hypotheses=[("predictions_pm1", forall_below(t, T, Eq(p_(t) ** 2, 1))),
                    ("adversary_labels", forall_below(t, T, Eq(y(t), -p_(t))))],
        conclusion=2 * Min(m_plus, m_minus) <= M,
        proof=_proof, witness_sizes={T: 2},
        encoding="T steps; p(t) the learner's prediction (any deterministic learner), y(t) the adversary's label; "
                 "the learner errs when y p = -1, the constant experts +1 and -1 when y = -1 and y = +1",
    ),
]
