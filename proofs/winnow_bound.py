"""Winnow (weights start at 1, threshold n, double on a promotion, halve -- or zero -- on a
demotion) learns an r-literal monotone disjunction over n variables with at most
2 + 3r(1 + lg n) mistakes (halving) and 1 + 2r(1 + lg n) (elimination).

Proof shape (each line an obligation): a relevant weight is never demoted (a negative example
has every relevant variable 0); it is doubled only while below n (its term is part of the
activation w.x < n), so it stays < 2n and is doubled at most 1 + lg n times; each promotion
doubles at least one relevant weight, so the promotions P <= r(1 + lg n); a promotion adds w.x < n
to the total weight W, a demotion removes w.x/2 >= n/2 (elimination: w.x >= n); W starts at n
and stays positive (elimination: nonnegative), so the demotions D < 2 + 2P (D <= 1 + P), and
M = P + D.  Encoding: scalar quantities (weights, activations, counts); lg n is a real
variable tied to n by the trusted rule pow2_log2.
"""
from __future__ import annotations

from ._common import ints, reals
from .core import Obligation, Source, Theorem
from .sources import BLUM_NOTES

ENC = "scalar weights, activations and counts (dimension-free)"


def _never_demoted(eliminate: bool):
    def build():
        import z3
        xi, lab, wi, wi1 = reals("xi lab wi wi1")
        new = 0 if eliminate else wi / 2
        return {"hyps": [
            ("boolean_input", (xi == 0) | (xi == 1)),
            ("relevant", z3.Implies(xi == 1, lab == 1)),        # x_i in the target disjunction
            ("demotion_on_negative", lab == 0),
            ("update", wi1 == z3.If(xi == 1, new, wi)),
        ], "goal": wi1 == wi, "latex": {"xi": "x_i", "lab": r"\ell", "wi": "w_i", "wi1": "w_i'"}}
    return build


def _below_n_when_doubled():
    wi, wi1, rest, act, n = reals("wi wi1 rest act n")
    return {"hyps": [
        ("weights_nonneg", (wi >= 0) & (rest >= 0)),
        ("activation", act == wi + rest),                       # x_i = 1: w_i is a term of w.x
        ("promotion", act < n),
        ("doubled", wi1 == 2 * wi),
    ], "goal": (wi < n) & (wi1 < 2 * n),
        "latex": {"wi": "w_i", "wi1": "w_i'", "rest": r"\sum_{j\ne i} w_j x_j", "act": r"w\cdot x"}}


def _doublings_bound():
    import z3
    p = ints("p")[0]
    lge, lgn, e, n = reals("lge lgn e n")
    return {"hyps": [
        ("doubled_at_least_once", p >= 1),
        ("weight_before_last_doubling", (e > 0) & (lge == z3.ToReal(p) - 1)),   # e = 2^(p-1), lg e = p - 1
        ("below_n_when_doubled", e < n),
        ("lg_increasing", z3.Implies(e < n, lge < lgn)),
    ], "goal": z3.ToReal(p) < 1 + lgn, "latex": {"lge": r"\lg 2^{p-1}", "e": "2^{p-1}"}}


def _weights_stay_positive(eliminate: bool):
    def build():
        w, w1 = reals("w w1")
        if eliminate:
            return {"hyps": [("nonneg", w >= 0), ("update", (w1 == 2 * w) | (w1 == 0) | (w1 == w))], "goal": w1 >= 0,
                    "latex": {"w": "w_i", "w1": "w_i'"}}
        return {"hyps": [("positive", w > 0), ("update", (w1 == 2 * w) | (w1 == w / 2) | (w1 == w))], "goal": w1 > 0,
                "latex": {"w": "w_i", "w1": "w_i'"}}
    return build


def _promotions_step():
    P, P1, Sp, Sp1 = ints("P P1 Sp Sp1")
    return {"hyps": [
        ("invariant", P <= Sp),
        ("one_more_promotion", P1 == P + 1),
        ("some_relevant_doubled", Sp1 >= Sp + 1),        # a positive example has a relevant x_i = 1
    ], "goal": P1 <= Sp1, "latex": {"Sp": r"\sum_i p_i", "Sp1": r"\sum_i p_i'"}}


def _weight_change(eliminate: bool):
    def build():
        import z3
        W, W1, act, n = reals("W W1 act n")
        if eliminate:
            hyps = [("demotion", act >= n), ("eliminated", W1 == W - act)]
            goal = W1 <= W - n
        else:
            hyps = [("demotion", act >= n), ("halved", W1 == W - act / 2)]
            goal = W1 <= W - n / 2
        _ = z3
        return {"hyps": hyps, "goal": goal, "latex": {"act": r"w\cdot x"}}
    return build


def _promotion_weight():
    W, W1, act, n = reals("W W1 act n")
    return {"hyps": [("promotion", act < n), ("doubled", W1 == W + act)], "goal": W1 < W + n,
            "latex": {"act": r"w\cdot x"}}


def _weight_invariant(eliminate: bool):
    def build():
        import z3
        W, W1, n = reals("W W1 n")
        P, D, P1, D1 = ints("P D P1 D1")
        c = 1 if eliminate else z3.RealVal(1) / 2
        bound = lambda P_, D_: n + n * z3.ToReal(P_) - c * n * z3.ToReal(D_)  # noqa: E731
        promo = z3.Bool("promotion")
        return {"hyps": [
            ("n_pos", n > 0),
            ("invariant", W <= bound(P, D)),
            ("strict_after_a_promotion", z3.Implies(P >= 1, W < bound(P, D))),
            ("counts", P >= 0),
            ("promotion_step", z3.Implies(promo, (W1 < W + n) & (P1 == P + 1) & (D1 == D))),
            ("demotion_step", z3.Implies(z3.Not(promo), (W1 <= W - c * n) & (D1 == D + 1) & (P1 == P))),
        ], "goal": (W1 <= bound(P1, D1)) & z3.Implies(P1 >= 1, W1 < bound(P1, D1))}
    return build


def _weight_base():
    import z3
    W, n = reals("W n")
    P, D = ints("P D")
    return {"hyps": [("start", (W == n) & (P == 0) & (D == 0))],
            "goal": (W <= n + n * z3.ToReal(P) - n * z3.ToReal(D)) & z3.Implies(P >= 1, W < n)}


def _compose(eliminate: bool, sharp_integer: bool = False):
    def build():
        import z3
        W, n, lgn = reals("W n lgn")
        P, D, r = ints("P D r")
        c = 1 if eliminate else z3.RealVal(1) / 2
        Pr, Dr, rr = z3.ToReal(P), z3.ToReal(D), z3.ToReal(r)
        hyps = [
            ("n_pos", n >= 1), ("lg_nonneg", lgn >= 0), ("counts", (P >= 0) & (D >= 0) & (r >= 0)),
            ("weight_invariant", W <= n + n * Pr - c * n * Dr),
            ("weight_positive", (W >= 0) if eliminate else (W > 0)),
            ("promotions_bound", Pr <= rr * (1 + lgn)),
        ]
        if eliminate:
            goal = Pr + Dr <= 1 + 2 * rr * (1 + lgn)
        elif sharp_integer:
            goal = Pr + Dr <= 1 + 3 * rr * (1 + lgn)
        else:
            goal = Pr + Dr <= 2 + 3 * rr * (1 + lgn)
        return {"hyps": hyps, "goal": goal}
    return build


def common(eliminate: bool):
    tag = "elim" if eliminate else "halving"
    return [
        Obligation(f"relevant_weight_never_demoted_{tag}", "z3", "a relevant weight is unchanged by a demotion", ENC,
                   _never_demoted(eliminate)),
        Obligation("relevant_weight_below_n_when_doubled", "z3", "a weight is doubled only while < n, so stays < 2n",
                   ENC, _below_n_when_doubled),
        Obligation("relevant_doublings_le_1_plus_lg_n", "z3", "a relevant weight is doubled < 1 + lg n times", ENC,
                   _doublings_bound, uses=("relevant_weight_below_n_when_doubled",)),
        Obligation("promotions_le_relevant_doublings", "z3", "each promotion doubles a relevant weight (induction step)",
                   ENC, _promotions_step),
        Obligation("promotion_adds_less_than_n", "z3", "a promotion adds w.x < n to W", ENC, _promotion_weight),
        Obligation(f"demotion_removes_{tag}", "z3",
                   "a demotion removes w.x >= n from W" if eliminate else "a demotion removes w.x/2 >= n/2 from W",
                   ENC, _weight_change(eliminate)),
        Obligation(f"weights_stay_{'nonneg' if eliminate else 'positive'}", "z3",
                   "weights start at 1 and stay >= 0" if eliminate else "weights start at 1 and stay > 0, so W > 0",
                   ENC, _weights_stay_positive(eliminate)),
        Obligation("total_weight_base", "z3", "W = n before any mistake", ENC, _weight_base),
        Obligation(f"total_weight_step_{tag}", "z3", "W <= n + nP - c n D is carried by every mistake", ENC,
                   _weight_invariant(eliminate),
                   uses=("promotion_adds_less_than_n", f"demotion_removes_{tag}")),
    ]


THEOREMS = [
    Theorem(
        id="winnow_halving_bound",
        title="Winnow (double/halve, threshold n): M <= 2 + 3r(1 + lg n)",
        statement="target = OR of r of the n variables  ==>  M <= 2 + 3 r (1 + lg n)",
        latex=r"M \le 2 + 3r\,(1 + \lg n)",
        hypotheses=[r"x \in \{0,1\}^n", r"\text{labels given by a monotone disjunction of } r \text{ variables}",
                    r"w_i = 1 \text{ initially, threshold } n"],
        source=Source(BLUM_NOTES, "Blum, Winnow notes, Theorem 5",
                      "Simple Winnow learns disjunctions of r variables with at most 2 + 3r(1 + lg n) mistakes."),
        obligations=common(False) + [
            Obligation("winnow_halving_mistake_bound", "z3", "P + D <= 2 + 3r(1 + lg n)", ENC, _compose(False),
                       role="composition", uses=("total_weight_step_halving", "promotions_le_relevant_doublings",
                                                 "relevant_doublings_le_1_plus_lg_n")),
        ],
        trusted=("induction", "finite_sum_linearity", "pow2_log2"),
    ),
    Theorem(
        id="winnow_elimination_bound",
        title="Winnow, elimination variant (double/zero): M <= 1 + 2r(1 + lg n)",
        statement="target = OR of r of the n variables  ==>  M <= 1 + 2 r (1 + lg n)",
        latex=r"M \le 1 + 2r\,(1 + \lg n)",
        hypotheses=[r"x \in \{0,1\}^n", r"\text{monotone disjunction of } r \text{ variables}",
                    r"\text{demotion sets the active weights to } 0"],
        source=Source(BLUM_NOTES, "Blum, Winnow notes (the elimination variant: on a false positive remove the active variables)",
                      "Zeroing the active weights on a demotion gives at most 1 + 2r(1 + lg n) mistakes."),
        obligations=common(True) + [
            Obligation("winnow_elimination_mistake_bound", "z3", "P + D <= 1 + 2r(1 + lg n)", ENC, _compose(True),
                       role="composition", uses=("total_weight_step_elim", "promotions_le_relevant_doublings",
                                                 "relevant_doublings_le_1_plus_lg_n")),
        ],
        trusted=("induction", "finite_sum_linearity", "pow2_log2"),
    ),
]
