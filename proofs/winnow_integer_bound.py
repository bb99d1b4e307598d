"""Winnow (halving) makes at most 1 + 3r(1 + lg n) mistakes: one better than Blum's Theorem 5
(2 + 3r(1 + lg n)), because the counts are integers.

The notes' proof (``winnow_bound``) gives W(M) + n (M - P)/2 <= n + nP with W(M) > 0, so the
demotions M - P are *fewer* than 2 + 2P; being integers, at most 1 + 2P; hence
M <= 1 + 3P <= 1 + 3r(1 + lg n).
"""
from __future__ import annotations

from .core import Source, Theorem
from .formula import lg
from .sources import BLUM_NOTES
from .winnow_bound import counts_from_lemmas, demotions_bound
from .winnow_run import ENCODING, WITNESS, M, n, r, run_hypotheses


def _proof(p):
    prom, weight = counts_from_lemmas(p, "halves")
    fewer = demotions_bound(p, weight, "halves", strict=True)
    return p.solve("mistake_bound_integer", [prom, fewer], p.theorem.conclusion,
                   title="M - P < 2 + 2P are integers, so M - P <= 1 + 2P and M <= 1 + 3P <= 1 + 3r(1 + lg n)")


THEOREMS = [
    Theorem(
        id="winnow_halving_bound_integer",
        name="Winnow (halving): at most 1 + 3r(1 + lg n) mistakes, one better than the notes",
        source=Source(BLUM_NOTES, "sharpens Blum's Winnow notes, Theorem 5, by the integrality of the counts "
                      "(this suite)",
                      "The notes' bound is 2 + 3r(1 + lg n); their proof gives fewer than 2 + 2P demotions, so at "
                      "most 1 + 2P."),
        hypotheses=run_hypotheses("halves"),
        conclusion=M <= 1 + 3 * (r * (1 + lg(n))),
        proof=_proof, encoding=ENCODING, witness_sizes=WITNESS,
    ),
]
