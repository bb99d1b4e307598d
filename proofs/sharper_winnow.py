"""Winnow, sharper than the notes.

* ``winnow_halving_bound_integer``: the counts are integers, so W > 0 gives D <= 1 + 2P and
  M <= 1 + 3r(1 + lg n) -- one better than the notes' 2 + 3r(1 + lg n).
* For n = 2^l a relevant weight is doubled at most l = lg n times (2^(p-1) < 2^l forces p <= l),
  and the final total weight is at least the relevant weights' sum n E, E = sum_i 2^(p_i)/n.
  Charging each relevant variable 3p_i - 2e_i <= 3l - 2 (halving) or 2p_i - e_i <= 2l - 1
  (elimination) gives the prototype's bounds M <= 1 + r(3 lg n - 2) and M <= r(2 lg n - 1) --
  but only for n >= 2 (halving) and n >= 2, r >= 1 (elimination): at n = 1 the halving bound is
  negative, and with r = 0 the elimination bound is 0 while one false positive is possible.
  Those boundary failures are reported as errata of the prototype statement.
"""
from __future__ import annotations

from fractions import Fraction

from ._common import ints, reals
from .core import Obligation, Source, Theorem
from .winnow_bound import ENC, common

PROTO = Source("", "prototype derivation quoted in issue 3 (not in the notes)",
               "With ceil(lg n) doublings per relevant weight, for n a power of 2: halving M <= 1 + r(3 lg n - 2), "
               "elimination M <= r(2 lg n - 1).")


def _doublings_pow2():
    p, l = ints("p ell")
    return {"hyps": [("doubled_at_least_once", p >= 1),
                     ("lg_of_weight_before_last_doubling", p - 1 < l)],     # 2^(p-1) < n = 2^l, lg increasing
            "goal": p <= l}


def _per_weight(eliminate: bool):
    def build():
        import z3
        k, l = ints("k ell")
        e = z3.Real("e")
        kr, lr = z3.ToReal(k), z3.ToReal(l)
        p = lr - kr
        goal = (2 * p - e <= 2 * lr - 1) if eliminate else (3 * p - 2 * e <= 3 * lr - 2)
        return {"hyps": [
            ("k_is_l_minus_p", (k >= 0) & (k <= l)),
            ("pow2_at_zero", z3.Implies(k == 0, e == 1)),                       # e = 2^(p - l) = 2^-k
            ("pow2_below_half", z3.Implies(k >= 1, (e > 0) & (e <= z3.RealVal(1) / 2))),
        ], "goal": goal, "latex": {"e": r"2^{p-\ell}", "k": r"\ell - p"}}
    return build


def _relevant_in_total():
    W, n, E, rest = reals("W n E rest")
    return {"hyps": [("split", W == n * E + rest), ("others_nonneg", rest >= 0)], "goal": W >= n * E,
            "latex": {"E": r"\sum_i 2^{p_i}/n", "rest": r"\sum_{j \notin T} w_j"}}


def _normalize_by_n(eliminate: bool):
    def build():
        import z3
        W, n, E, P, D = reals("W n E P D")
        c = 1 if eliminate else z3.RealVal(1) / 2
        B = 1 + P - c * D
        hyps = [("n_pos", n > 0), ("weight_invariant", W <= n * B),
                ("strict_after_a_promotion", z3.Implies(P >= 1, W < n * B)),
                ("relevant_in_total", W >= n * E)]
        if eliminate:
            goal = z3.And(B >= E, z3.Implies(P >= 1, E < B))
        else:
            hyps.append(("weight_positive", W > 0))
            goal = z3.And(B > 0, 2 + 2 * P - D > 0, B >= E, z3.Implies(P >= 1, E < B))
        return {"hyps": hyps, "goal": goal, "latex": {"E": r"\sum_i 2^{p_i}/n"}}
    return build


def _charge_nonneg(eliminate: bool):
    def build():
        r, l, C = ints("r ell C")
        return {"hyps": [("r_nonneg", r >= 0), ("n_at_least_2", l >= 1),
                         ("charge", C == (r * (2 * l - 1) if eliminate else r * (3 * l - 2)))],
                "goal": C >= 0, "latex": {"C": r"r(2\ell - 1)" if eliminate else r"r(3\ell - 2)"}}
    return build


def _compose_pow2(eliminate: bool):
    def build():
        import z3
        E = z3.Real("E")
        P, D, Sp, C = ints("P D Sp C")
        Pr, Dr, Spr, Cr = (z3.ToReal(v) for v in (P, D, Sp, C))
        c = 1 if eliminate else z3.RealVal(1) / 2
        B = 1 + Pr - c * Dr
        hyps = [
            ("counts", (P >= 0) & (D >= 0) & (Sp >= 0)),
            ("normalized_invariant", B >= E), ("strict_after_a_promotion", z3.Implies(P >= 1, E < B)),
            ("E_nonneg", E >= 0), ("promotions_le_doublings", P <= Sp), ("charge_nonneg", C >= 0),
        ]
        if eliminate:
            hyps += [("relevant_weights_pos", E > 0),
                     ("charged_per_relevant_variable", 2 * Spr - E <= Cr)]
            goal = P + D <= C
        else:
            hyps += [("weight_positive", B > 0),
                     ("charged_per_relevant_variable", 3 * Spr - 2 * E <= Cr)]
            goal = P + D <= 1 + C
        return {"hyps": hyps, "goal": goal, "latex": {"E": r"\sum_i 2^{p_i}/n", "Sp": r"\sum_i p_i",
                                                     "C": r"r(2\ell - 1)" if eliminate else r"r(3\ell - 2)"}}
    return build


def _compose_integer():
    import z3
    P, D = ints("P D")
    T = z3.Real("T")
    Pr, Dr = z3.ToReal(P), z3.ToReal(D)
    return {"hyps": [("counts", (P >= 0) & (D >= 0)),
                     ("normalized_invariant", 2 + 2 * P - D > 0),
                     ("promotions_bound", Pr <= T)],
            "goal": Pr + Dr <= 1 + 3 * T, "latex": {"T": r"r(1 + \lg n)"}}


def _boundary(eliminate: bool):
    def build():
        import z3
        M, r, l = ints("M r ell")
        if eliminate:
            act, n = reals("act n")
            return {"hyps": [("no_relevant_variable", r == 0), ("n_is_2", (l == 1) & (n == 2)),
                             ("example_11_label_0", act == 2),            # w = (1,1), x = (1,1)
                             ("false_positive_counts", M >= z3.If(act >= n, 1, 0))],
                    "goal": M <= r * (2 * l - 1), "latex": {"act": r"w\cdot x"}}
        return {"hyps": [("n_is_1", l == 0), ("one_relevant_variable", r == 1), ("mistakes_nonneg", M >= 0)],
                "goal": M <= 1 + r * (3 * l - 2)}
    return build


def _witness_n1():
    n, w, x, label = 1, [Fraction(1)], [0], 0
    act = sum(a * b for a, b in zip(w, x))
    pred = 1 if act >= n else 0
    bound = 1 + 1 * (3 * 0 - 2)
    return pred == label and bound < 0, f"n=1, r=1 (target x1): any run has M >= 0 > {bound} = 1 + r(3 lg 1 - 2)"


def _witness_r0():
    n, w, x, label = 2, [Fraction(1), Fraction(1)], [1, 1], 0
    act = sum(a * b for a, b in zip(w, x))
    pred = 1 if act >= n else 0
    return pred != label, f"n=2, r=0 (target always 0), x=(1,1): w.x = {act} >= 2 predicts 1, a mistake; bound r(2 lg n - 1) = 0"


def _pow2_obligations(eliminate: bool):
    tag = "elim" if eliminate else "halving"
    return common(eliminate) + [
        Obligation("relevant_doublings_le_lg_n_pow2", "z3", "n = 2^l: a relevant weight is doubled at most l times",
                   ENC, _doublings_pow2, uses=("relevant_weight_below_n_when_doubled",)),
        Obligation(f"per_relevant_variable_charge_{tag}", "z3",
                   "2p - 2^(p-l) <= 2l - 1" if eliminate else "3p - 2 * 2^(p-l) <= 3l - 2", ENC, _per_weight(eliminate),
                   uses=("relevant_doublings_le_lg_n_pow2",)),
        Obligation("relevant_weights_in_total", "z3", "W >= sum of the relevant weights", ENC, _relevant_in_total),
        Obligation(f"normalize_by_n_{tag}", "z3", "divide the weight invariant by n > 0", ENC,
                   _normalize_by_n(eliminate), uses=(f"total_weight_step_{tag}", "relevant_weights_in_total")),
        Obligation(f"charge_nonneg_{tag}", "z3", "r >= 0, l >= 1 make the charge nonnegative", ENC,
                   _charge_nonneg(eliminate)),
        Obligation(f"winnow_pow2_mistake_bound_{tag}", "z3",
                   "P + D <= r(2l - 1)" if eliminate else "P + D <= 1 + r(3l - 2)", ENC, _compose_pow2(eliminate),
                   role="composition", uses=(f"normalize_by_n_{tag}", f"per_relevant_variable_charge_{tag}",
                                             f"charge_nonneg_{tag}", "promotions_le_relevant_doublings")),
    ]


THEOREMS = [
    Theorem(
        id="winnow_halving_bound_integer",
        title="Winnow (halving): M <= 1 + 3r(1 + lg n), one better than the notes",
        statement="target = OR of r of n variables  ==>  M <= 1 + 3r(1 + lg n)",
        latex=r"M \le 1 + 3r\,(1 + \lg n)",
        hypotheses=[r"x \in \{0,1\}^n", r"\text{monotone disjunction of } r \text{ variables}"],
        source=Source("", "sharpens Blum's Theorem 5 (000) by integrality of the counts", "not in the notes"),
        obligations=common(False) + [
            Obligation("normalize_by_n_halving", "z3", "divide the weight invariant by n > 0", ENC,
                       _normalize_by_n(False), uses=("total_weight_step_halving",)),
            Obligation("winnow_halving_integer_bound", "z3", "integers: D <= 1 + 2P, so P + D <= 1 + 3r(1 + lg n)", ENC,
                       _compose_integer, role="composition",
                       uses=("total_weight_step_halving", "promotions_le_relevant_doublings")),
        ],
        trusted=("induction", "finite_sum_linearity", "pow2_log2"),
    ),
    Theorem(
        id="winnow_halving_pow2",
        title="Winnow (halving), n = 2^l >= 2: M <= 1 + r(3 lg n - 2)",
        statement="n = 2^l, l >= 1  ==>  M <= 1 + r(3 lg n - 2)",
        latex=r"n = 2^\ell \ge 2 \;\Longrightarrow\; M \le 1 + r\,(3\lg n - 2)",
        hypotheses=[r"n = 2^\ell,\ \ell \ge 1", r"\text{monotone disjunction of } r \text{ variables}"],
        source=PROTO,
        obligations=_pow2_obligations(False),
        trusted=("induction", "finite_sum_linearity", "pow2_log2"),
        notes="Needs n >= 2: see erratum_winnow_pow2_halving_n1.",
    ),
    Theorem(
        id="winnow_elimination_pow2",
        title="Winnow (elimination), n = 2^l >= 2, r >= 1: M <= r(2 lg n - 1)",
        statement="n = 2^l, l >= 1, r >= 1  ==>  M <= r(2 lg n - 1)",
        latex=r"n = 2^\ell \ge 2,\ r \ge 1 \;\Longrightarrow\; M \le r\,(2\lg n - 1)",
        hypotheses=[r"n = 2^\ell,\ \ell \ge 1", r"r \ge 1", r"\text{demotion zeroes the active weights}"],
        source=PROTO,
        obligations=_pow2_obligations(True),
        trusted=("induction", "finite_sum_linearity", "pow2_log2"),
        notes="Needs r >= 1: see erratum_winnow_pow2_elimination_r0.",
    ),
    Theorem(
        id="erratum_winnow_pow2_halving_n1",
        kind="erratum",
        title="Prototype erratum: M <= 1 + r(3 lg n - 2) fails at n = 1",
        statement="n = 1, r = 1: M <= 1 + r(3 lg n - 2) = -1      [FALSE]",
        latex=r"n = 1,\ r = 1:\ M \le -1 \quad\text{(false)}",
        hypotheses=[r"n = 1", r"r = 1"],
        source=PROTO,
        obligations=[Obligation("pow2_halving_at_n1", "z3", "M <= 1 + r(3 lg n - 2) at n = 1 (claimed)", ENC,
                                _boundary(False), expect="refuted", role="claim")],
        counterexample={"n": 1, "r": 1, "bound": "-1", "M": 0},
        witness_check=_witness_n1,
    ),
    Theorem(
        id="erratum_winnow_pow2_elimination_r0",
        kind="erratum",
        title="Prototype erratum: M <= r(2 lg n - 1) fails for r = 0",
        statement="r = 0, n = 2: M <= 0      [FALSE: x = (1,1) with label 0 is a false positive]",
        latex=r"r = 0,\ n = 2:\ M \le 0 \quad\text{(false)}",
        hypotheses=[r"r = 0", r"n = 2"],
        source=PROTO,
        obligations=[Obligation("pow2_elimination_at_r0", "z3", "M <= r(2 lg n - 1) with r = 0 (claimed)", ENC,
                                _boundary(True), expect="refuted", role="claim")],
        counterexample={"n": 2, "r": 0, "x": [1, 1], "label": 0, "w.x": 2, "M": 1, "bound": 0},
        witness_check=_witness_r0,
    ),
]
