"""Blum's Winnow notes, Theorem 5: Winnow learns an r-variable disjunction over n variables with at
most 2 + 3r(1 + lg n) mistakes; the elimination variant (a demotion sets the active weights to 0)
with at most 1 + 2r(1 + lg n).

The proof of the notes, from the two halves proved as general theorems: at most r(1 + lg n)
promotions P (``winnow_relevant_weights``), and the total weight W(M) >= 0 with
W(M) + (1 - beta) n (M - P) <= n + n P, strictly when P >= 1 (``winnow_total_weight``), here
divided by n.  Halving (beta = 1/2): the demotions M - P are at most 2 + 2P, so M <= 2 + 3P.
Elimination (beta = 0): M - P <= 1 + P, and < 1 + P when P >= 1, so M <= 1 + 2P.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.functions import lg
from proofs.catalogue.sources import BLUM_NOTES
from proofs.catalogue.winnow_run import (ENCODING, WITNESS, M, counts_from_lemmas, in_units_of_n, n, promotions_bound, r,
                         run_hypotheses)


def _bound(demotion: str):
    def proof(p):
        rel, weight = counts_from_lemmas(p, demotion)
        inv, signs = in_units_of_n(p, weight, demotion)
        how = ("M - P <= 2 + 2P, so M <= 2 + 3P" if demotion == "halves" else
               "M - P <= 1 + P, and < 1 + P when P >= 1, so M <= 1 + 2P")
        return p.solve("mistake_bound", [promotions_bound(p, rel), inv, signs], p.theorem.conclusion,
                       title=how + " with P <= r(1 + lg n)")
    return proof


THEOREMS = [
    Theorem(
        id="winnow_halving_bound",
        name="Winnow (double/halve, threshold n) learns an r-variable disjunction with at most 2 + 3r(1 + lg n) "
             "mistakes",
        source=Source(BLUM_NOTES, "Blum, Winnow notes, Theorem 5",
                      "The Winnow algorithm (weights 1, threshold n, double on a false negative, halve on a false "
                      "positive) makes at most 2 + 3r(1 + lg n) mistakes on a disjunction of r variables."),
        hypotheses=run_hypotheses("halves"),
        conclusion=M <= 2 + 3 * (r * (1 + lg(n))),
        proof=_bound("halves"), encoding=ENCODING, witness_sizes=WITNESS,
    ),
    Theorem(
        id="winnow_elimination_bound",
        name="Winnow, elimination variant (double/zero): at most 1 + 2r(1 + lg n) mistakes",
        source=Source(BLUM_NOTES, "Blum, Winnow notes (the elimination variant: on a false positive remove the "
                      "active variables)",
                      "Setting the active weights to 0 on a false positive gives at most 1 + 2r(1 + lg n) mistakes."),
        hypotheses=run_hypotheses("eliminates"),
        conclusion=M <= 1 + 2 * (r * (1 + lg(n))),
        proof=_bound("eliminates"), encoding=ENCODING, witness_sizes=WITNESS,
    ),
]
