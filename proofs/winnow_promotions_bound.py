"""Winnow makes at most r(1 + lg n) promotions (Blum's Winnow notes, proof of Theorem 5).

Each relevant weight is 2^d with 2^d < 2n (``winnow_relevant_weights``), so 2^(d-1) < n and
d - 1 < lg n: each relevant weight is doubled fewer than 1 + lg n times; the promotions are at most
the doublings of the r relevant weights.  Holds for every demotion factor beta in [0, 1].
"""
from __future__ import annotations

from .core import Source, Theorem
from .formula import Implies, lg, pow2
from .sources import BLUM_NOTES
from .winnow_run import (ENCODING, WITNESS, M, by_lemma, doublings, generalize, i, n, promotions, r, relevant_doublings,
                         run_hypotheses)

SUM = "finite_sum_linearity"
LOG = "pow2_log2"
CONCLUSION = promotions(M) <= r * (1 + lg(n))


def _proof(p):
    rel = by_lemma(p, "winnow_relevant_weights", [p.hyp(nm) for nm, _ in p.theorem.hypotheses], "relevant_weights")
    d = doublings(M, i)
    half = pow2(d - 1)
    each = p.solve("relevant_doublings_below_1_plus_lg_n",
                   [rel, p.rule(LOG, "pow2_succ", d - 1), p.rule(LOG, "pow2_pos", d - 1), p.rule(LOG, "lg_pow2", d - 1),
                    p.rule(LOG, "lg_strictly_increasing", half, n)],
                   Implies(i < r, d < 1 + lg(n)),
                   title="2^d < 2n: 2^(d-1) < n, so d - 1 = lg 2^(d-1) < lg n")
    every = generalize(p, each, i, r, "relevant_doublings_bound_every_i")
    return p.solve("promotions_le_r_times_1_plus_lg_n",
                   [rel, every, p.rule(SUM, "sum_mono", i, 0, r - 1, d, 1 + lg(n)),
                    p.rule(SUM, "sum_const", i, 0, r - 1, 1 + lg(n))], CONCLUSION,
                   title="P <= sum_{i<r} d(M, i) <= r(1 + lg n)")


THEOREMS = [
    Theorem(
        id="winnow_promotions_bound",
        name="Winnow makes at most r(1 + lg n) promotions",
        source=Source(BLUM_NOTES, "Blum, Winnow notes, proof of Theorem 5 (the mistakes on positive examples)",
                      "Each relevant weight is doubled at most 1 + lg n times, and each mistake on a positive "
                      "example doubles at least one relevant weight: at most r(1 + lg n) such mistakes."),
        hypotheses=run_hypotheses("scales"),
        conclusion=CONCLUSION,
        proof=_proof, encoding=ENCODING, witness_sizes=WITNESS,
        notes="For every demotion factor beta in [0, 1]; a lemma of the halving and elimination bounds.",
    ),
]
