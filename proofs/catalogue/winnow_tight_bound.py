"""The tight halving bound found by this suite's exact Winnow adversary (docs/winnow-adversary.md):
for n = 2^l >= 2 and r >= 1, halving Winnow makes at most r(3 lg n - 2) mistakes -- one less than
``winnow_halving_pow2``, and attained by the adversary at n = 64, 256, 1024.

The extra unit comes from the irrelevant weight: after a demotion it keeps at least n/2 for good
(``winnow_total_weight``: a demotion's example sets only irrelevant variables, of total weight
>= n, and halves them; a promotion only doubles weights).  In units of n, with P promotions,
S the relevant and I the irrelevant weight at the end:

* with a demotion (P < M): S/n + I/n + (M - P)/2 <= 1 + P and I/n >= 1/2 give
  M <= 1 + 3P - 2S/n <= 1 + sum_{i<r} (3 d_i - 2 w_i/n) <= 1 + r(3l - 2), strictly after a
  promotion, so M <= r(3l - 2); with no promotion M <= 1 <= r(3l - 2) as r >= 1;
* without one: M = P <= sum_i d_i <= r l <= r(3l - 2).

r >= 1 is needed: with r = 0 one false positive is possible at n = 2 (``erratum_winnow_pow2_tight_r0``).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.functions import lg
from proofs.catalogue.winnow_pow2_bound import WITNESS_POW2, charge, doublings_summed, in_lg_n
from proofs.catalogue.winnow_run import (ENCODING, POW2, R_POS, M, concrete_run, counts_from_lemmas, in_units_of_n, l, n,
                         promotions_le_doublings, r, replay,
                         run_hypotheses)

TIGHT = Source("", "found by the exact Winnow adversary (docs/winnow-adversary.md)",
               "For n = 2^l >= 2 and r >= 1, halving Winnow (threshold n) makes at most r(3 lg n - 2) mistakes; "
               "the adversary attains it at n = 64, 256, 1024 for r = 1, 2, 4, 8.")


def _proof(p):
    rel, weight = counts_from_lemmas(p, "halves")
    inv, signs = in_units_of_n(p, weight, "halves")
    summed, every = charge(p, rel, "halves")
    bound = p.solve("mistake_bound_tight",
                    [promotions_le_doublings(p, rel), inv, signs, summed, doublings_summed(p, every), p.hyp("r_pos")],
                    M <= r * (3 * l - 2),
                    title="after a demotion I/n >= 1/2: M < 1 + r(3l - 2); without one M = P <= r l")
    return in_lg_n(p, bound, "mistake_bound_in_lg_n")


# n = 2, r = 0 (the target is constantly 0), one mistake: x = (1, 1) has w.x = 2 >= n, a false positive
R0_RUN = concrete_run(2, 0, [[1, 1]], [0], [[1, 1], ["1/2", "1/2"]], l=1)

THEOREMS = [
    Theorem(
        id="winnow_halving_pow2_tight",
        name="Winnow (halving), n = 2^l >= 2, r >= 1: at most r(3 lg n - 2) mistakes (tight)",
        source=TIGHT,
        hypotheses=run_hypotheses("halves") + POW2 + [R_POS],
        conclusion=M <= r * (3 * lg(n) - 2),
        proof=_proof, encoding=ENCODING, witness_sizes=WITNESS_POW2,
        notes="One less than winnow_halving_pow2 and attained by the adversary (docs/winnow-adversary.md). "
              "Needs r >= 1 (erratum_winnow_pow2_tight_r0) and n >= 2 (at n = 1 the bound is negative).",
    ),
    Theorem(
        id="erratum_winnow_pow2_tight_r0",
        kind="erratum",
        name="M <= r(3 lg n - 2) needs r >= 1: it fails for r = 0",
        source=TIGHT,
        hypotheses=run_hypotheses("halves") + POW2,
        conclusion=M <= r * (3 * lg(n) - 2),
        counterexample=R0_RUN,
        witness_check=lambda: replay(R0_RUN, "halve", bound="r(3 lg n - 2) = 0"),
        encoding=ENCODING,
        notes="With r = 0 every label is 0; at n = 2 the example (1, 1) has w.x = 2 >= n: one false positive, "
              "while r(3 lg n - 2) = 0.",
    ),
]
