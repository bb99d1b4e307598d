"""Winnow when n = 2^l >= 2 is a power of two: halving makes at most 1 + r(3 lg n - 2) mistakes,
the elimination variant (r >= 1) at most r(2 lg n - 1) -- sharper than the notes' Theorem 5.

A relevant weight 2^d < 2n = 2^(l+1) has d <= l: it is doubled at most lg n times (not 1 + lg n),
and it equals n when d = l.  Charging each relevant variable against the final total weight
(``winnow_total_weight``: W(M) >= S(M), the relevant weights):

* halving: M <= 2 + 3P - 2S(M)/n (strictly when P >= 1, or since W(M) > 0), and per relevant
  variable 3d - 2w/n <= 3l - 2 (d = l: w = n; d < l: 3d <= 3l - 3); with P <= sum_i d_i:
  M < 2 + r(3l - 2), so M <= 1 + r(3l - 2);
* elimination: M <= 1 + 2P - S(M)/n, strictly when P >= 1, and per relevant variable
  2d - w/n <= 2l - 1: M < 1 + r(2l - 1), so M <= r(2l - 1); with no promotion M <= 1 <= r(2l - 1)
  as r >= 1.

Everything is divided by n (weights in units of the threshold), so that each step is linear.

Both need their side conditions: at n = 1 the halving bound is negative
(``erratum_winnow_pow2_halving_n1``), and with r = 0 one false positive breaks the elimination
bound (``erratum_winnow_pow2_elimination_r0``).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import And, Eq, Implies, num
from proofs.language.functions import lg
from proofs.catalogue.winnow_run import (ENCODING, M, POW2, R_POS, concrete_run, counts_from_lemmas, doublings, generalize, i,
                         in_units_of_n, l, n, promotions_le_doublings, r, relevant_doublings, replay, run_hypotheses,
                         unit, units, w)

SUM = "finite_sum_linearity"
LOG = "pow2_log2"
# per relevant variable, in units of n: c_d d - c_w w/n <= c_d l - c_w
CHARGE = {"halves": (3, 2), "eliminates": (2, 1)}
WITNESS_POW2 = {M: 2, n: 4, r: 1, l: 2}
SHARPER = Source("", "sharpens Blum's Winnow notes, Theorem 5, for n a power of 2",
                 "With n = 2^l a relevant weight is doubled at most lg n times; charging each relevant variable "
                 "against the final total weight gives M <= 1 + r(3 lg n - 2) (halving) and M <= r(2 lg n - 1) "
                 "(elimination, r >= 1).")


def charge(p, rel, demotion: str):
    """From the relevant weights (``winnow_relevant_weights`` at M), per relevant variable
    d <= l and c_d d - c_w w/n <= c_d l - c_w; summed: c_d sum_i d_i - c_w S/n <= r(c_d l - c_w).
    Returns (summed, the per-variable fact for every i)."""
    cd, cw = CHARGE[demotion]
    d, wi = doublings(M, i), w(M, i)
    top = p.solve("relevant_doublings_at_most_lg_n",
                  [rel, p.rule(LOG, "pow2_succ", l), p.rule(LOG, "pow2_increasing", l + 1, d),
                   p.hyp("n_is_power_of_2")],
                  Implies(i < r, And(1 <= wi, d <= l, Implies(d >= l, wi >= n))),
                  title="2^d < 2n = 2^(l+1), so d <= l, and 2^d = n when d = l")
    scaled = p.solve("relevant_weight_in_units_of_n", [top, p.hyp("n_pos")],
                    Implies(i < r, And(0 < unit(wi), Implies(d >= l, unit(wi) >= 1))), title="divide by n >= 1")
    per = cd * d + (-cw) * unit(wi)
    each = p.solve(f"relevant_variable_charge_{demotion}", [top, scaled],
                   Implies(i < r, And(d <= l, 0 < unit(wi), per <= cd * l - cw)),
                   title=f"{cd}d - {cw}w/n <= {cd}l - {cw}: equality at d = l (w = n), less below")
    every = generalize(p, each, i, r, f"relevant_variable_charge_{demotion}_every_i")
    summed = p.solve(f"charge_summed_{demotion}",
                     [every, p.rule(SUM, "sum_linear", i, 0, r - 1, cd, d, -cw, unit(wi)),
                      p.rule(SUM, "sum_mono", i, 0, r - 1, per, cd * l - cw),
                      p.rule(SUM, "sum_const", i, 0, r - 1, cd * l - cw)],
                     cd * relevant_doublings(M) - cw * units(0, r - 1) <= r * (cd * l - cw),
                     title="summed over the relevant variables")
    return summed, every


def doublings_summed(p, every):
    """sum_{i<r} d_i <= r l and r <= r l (l >= 1)."""
    d = doublings(M, i)
    return p.solve("relevant_doublings_summed",
                   [every, p.hyp("n_at_least_2"), p.rule(SUM, "sum_mono", i, 0, r - 1, d, l),
                    p.rule(SUM, "sum_const", i, 0, r - 1, l), p.rule(SUM, "sum_mono", i, 0, r - 1, num(1), l),
                    p.rule(SUM, "sum_const", i, 0, r - 1, num(1))],
                   And(relevant_doublings(M) <= r * l, r <= r * l), title="each d_i <= l, and 1 <= l")


def in_lg_n(p, fact, sid: str):
    """The bound with lg n for l: lg n = lg 2^l = l, and r lg n = r l (r equal terms each way)."""
    lg_n = p.solve("lg_n_is_l", [p.hyp("n_is_power_of_2"), p.rule(LOG, "lg_pow2", l)], Eq(lg(n), l),
                   title="lg n = lg 2^l = l")
    r_lg = p.solve("r_lg_n_is_r_l", [lg_n, p.rule(SUM, "sum_mono", i, 0, r - 1, lg(n), l),
                                     p.rule(SUM, "sum_mono", i, 0, r - 1, l, lg(n)),
                                     p.rule(SUM, "sum_const", i, 0, r - 1, lg(n)),
                                     p.rule(SUM, "sum_const", i, 0, r - 1, l)],
                   Eq(r * lg(n), r * l), title="r lg n = sum_{i<r} lg n = sum_{i<r} l = r l")
    return p.solve(sid, [fact, r_lg], p.theorem.conclusion, title="lg n = l")


def _bound(demotion: str, sid: str, goal, title: str):
    def proof(p):
        rel, weight = counts_from_lemmas(p, demotion)
        inv, signs = in_units_of_n(p, weight, demotion)
        extra = [p.hyp("r_pos")] if dict(p.theorem.hypotheses).get("r_pos") is not None else []
        summed, _ = charge(p, rel, demotion)
        bound = p.solve(sid, [promotions_le_doublings(p, rel), inv, signs, summed, p.hyp("n_at_least_2")] + extra,
                        goal, title=title)
        return in_lg_n(p, bound, "mistake_bound_in_lg_n")
    return proof


THEOREMS = [
    Theorem(
        id="winnow_halving_pow2",
        name="Winnow (halving), n = 2^l >= 2: at most 1 + r(3 lg n - 2) mistakes",
        source=SHARPER,
        hypotheses=run_hypotheses("halves") + POW2,
        conclusion=M <= 1 + r * (3 * lg(n) - 2),
        proof=_bound("halves", "mistake_bound_pow2_halving", M <= 1 + r * (3 * l - 2),
                     "M - P <= 2 + 2P - 2(S + I)/n, fewer after a promotion or since W > 0; P <= sum_i d_i: "
                     "M < 2 + r(3l - 2)"),
        encoding=ENCODING, witness_sizes=WITNESS_POW2,
        notes="Needs n >= 2: see erratum_winnow_pow2_halving_n1.  One more than the tight bound "
              "winnow_halving_pow2_tight, which needs r >= 1.",
    ),
    Theorem(
        id="winnow_elimination_pow2",
        name="Winnow (elimination), n = 2^l >= 2, r >= 1: at most r(2 lg n - 1) mistakes",
        source=SHARPER,
        hypotheses=run_hypotheses("eliminates") + POW2 + [R_POS],
        conclusion=M <= r * (2 * lg(n) - 1),
        proof=_bound("eliminates", "mistake_bound_pow2_elimination", M <= r * (2 * l - 1),
                     "M - P <= 1 + P - S/n, fewer after a promotion; P <= sum_i d_i: M < 1 + r(2l - 1), "
                     "or M <= 1 <= r(2l - 1) without a promotion"),
        encoding=ENCODING, witness_sizes=WITNESS_POW2,
        notes="Needs r >= 1: see erratum_winnow_pow2_elimination_r0.",
    ),
]
# n = 1 = 2^0, r = 1 (the target is x_1): no run makes a mistake (x = (1) is predicted 1, x = (0) 0),
# and 1 + r(3 lg 1 - 2) = -1 < 0
N1_RUN = concrete_run(1, 1, [], [], [[1]], l=0)
# n = 2, r = 0 (the target is constantly 0): x = (1, 1) has w.x = 2 >= n, a false positive
R0_RUN = concrete_run(2, 0, [[1, 1]], [0], [[1, 1], [0, 0]], l=1)

THEOREMS += [
    Theorem(
        id="erratum_winnow_pow2_halving_n1",
        kind="erratum",
        name="M <= 1 + r(3 lg n - 2) fails at n = 1",
        source=SHARPER,
        hypotheses=run_hypotheses("halves") + POW2[:1],
        conclusion=M <= 1 + r * (3 * lg(n) - 2),
        counterexample=N1_RUN,
        witness_check=lambda: replay(N1_RUN, "halve", examples=[[1], [0]], labels=[1, 0],
                                     bound="1 + r(3 lg n - 2) = -1"),
        encoding=ENCODING,
        notes="At n = 1 the bound is negative, so every run (M >= 0) refutes it; winnow_halving_pow2 needs n >= 2.",
    ),
    Theorem(
        id="erratum_winnow_pow2_elimination_r0",
        kind="erratum",
        name="M <= r(2 lg n - 1) fails for r = 0",
        source=SHARPER,
        hypotheses=run_hypotheses("eliminates") + POW2,
        conclusion=M <= r * (2 * lg(n) - 1),
        counterexample=R0_RUN,
        witness_check=lambda: replay(R0_RUN, "eliminate", bound="r(2 lg n - 1) = 0"),
        encoding=ENCODING,
        notes="With r = 0 every label is 0; at n = 2 the example (1, 1) is a false positive, while r(2 lg n - 1) = 0; "
              "winnow_elimination_pow2 needs r >= 1.",
    ),
]
