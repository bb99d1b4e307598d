"""Winnow (halving) makes at most 1 + 3r(1 + lg n) mistakes: one better than Blum's Theorem 5
(2 + 3r(1 + lg n)), because the counts are integers.

The notes' proof (``winnow_bound``) gives W(M)/n + (M - P)/2 <= 1 + P with W(M) > 0, so the
demotions M - P are *fewer* than 2 + 2P; being integers, at most 1 + 2P; hence
M <= 1 + 3P <= 1 + 3r(1 + lg n).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.functions import lg
from proofs.catalogue.winnow_run import (ENCODING, WITNESS, M, counts_from_lemmas, in_units_of_n, n, promotions_bound, r,
                         run_hypotheses)


def _proof(p):
    rel, weight = counts_from_lemmas(p, "halves")
    inv, signs = in_units_of_n(p, weight, "halves")
    return p.solve("mistake_bound_integer", [promotions_bound(p, rel), inv, signs], p.theorem.conclusion,
                   title="M - P < 2 + 2P are integers, so M - P <= 1 + 2P and M <= 1 + 3P <= 1 + 3r(1 + lg n)")


THEOREMS = [
    Theorem(
        id="winnow_halving_bound_integer",
        name="Winnow (halving): at most 1 + 3r(1 + lg n) mistakes, one better than the notes",
        source=Source("", "sharpens Blum's Winnow notes, Theorem 5, by the integrality of the counts",
                      "The notes' bound is 2 + 3r(1 + lg n); their proof gives fewer than 2 + 2P demotions, so at "
                      "most 1 + 2P."),
        hypotheses=run_hypotheses("halves"),
        conclusion=M <= 1 + 3 * (r * (1 + lg(n))),
        proof=_proof, encoding=ENCODING, witness_sizes=WITNESS,
    ),
]
