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
from .winnow_bound import _below_n_when_doubled as _below_n
from .winnow_bound import _never_demoted, _promotions_step as _promotions, _weights_stay_positive

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


def _boundary_tight_r0():
    import z3
    M, r, l = ints("M r ell")
    act, n = reals("act n")
    return {"hyps": [("no_relevant_variable", r == 0), ("n_is_2", (l == 1) & (n == 2)),
                     ("example_11_label_0", act == 2),            # w = (1,1), x = (1,1)
                     ("false_positive_counts", M >= z3.If(act >= n, 1, 0))],
            "goal": M <= r * (3 * l - 2), "latex": {"act": r"w\cdot x"}}


def _witness_tight_r0():
    from learners import run_winnow
    tr = run_winnow([[1, 1]], [0], variant="halve", exact=True)
    bound = 0 * (3 * 1 - 2)
    return tr.mistakes > bound, (f"run_winnow(halve) on n=2, r=0 (target always 0), x=(1,1): "
                                 f"{tr.mistakes} mistake > {bound} = r(3 lg n - 2)")


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


# ----------------------------------------------------------------- the tight halving bound
# Found by the exact Winnow adversary (issue 4; docs/winnow-adversary.md): for n = 2^l >= 2 and
# r >= 1, halving Winnow makes at most r(3 lg n - 2) mistakes, attained in every grid cell with
# n >= 64.  Proof (I = total irrelevant weight, F = false negatives, D = false positives):
#   F <= sum_i p_i <= r l (each relevant weight is doubled at most l times, never halved);
#   an FN adds its irrelevant part s < n - w_j to I, where w_j = 2^a <= n/2 is the weight of one
#   active relevant variable, doubled by this FN; distinct FNs charge distinct pairs (j, a) because
#   w_j only grows, so the FNs add G < sum_j sum_{a<l} (n - 2^a) = r(ln - n + 1) (with r >= 1 this
#   is strict also when F = 0);
#   an FP has no relevant variable active (the label is 0) and total >= n, so it lowers I by >= n/2;
#   I starts at n - r, so I_final <= n - r + G - D n/2; after the last FP the variables it halved
#   still hold >= n/2 and later mistakes (FNs) only double weights, so I_final >= n/2 when D >= 1.
#   Hence D n/2 < n/2 + r(l - 1)n, D <= 2r(l - 1), and M = F + D <= rl + 2r(l - 1) = r(3l - 2).
TIGHT = Source("", "this suite: found by the exact Winnow adversary, issue 4",
               "For n = 2^l >= 2 and r >= 1, halving Winnow (threshold n) makes at most r(3 lg n - 2) mistakes; "
               "the adversary attains it at n = 64, 256, 1024 for r = 1, 2, 4, 8 (docs/winnow-adversary.md).")


def _weight_le_half_n():
    import z3
    a, l = ints("a ell")
    w, n, h = reals("w n h")
    return {"hyps": [
        ("below_n_when_doubled", w < n),
        ("lg_increasing", z3.Implies(w < n, a < l)),            # w = 2^a, n = 2^l
        ("pow2_monotone", z3.Implies(a <= l - 1, w <= h)),      # h = 2^(l-1)
        ("n_is_twice_h", n == 2 * h),
    ], "goal": n - w >= n / 2, "latex": {"w": "2^a", "n": r"2^\ell", "h": r"2^{\ell-1}"}}


def _fn_irrelevant_part():
    act, wR, wj, s, n = reals("act wR wj s n")
    return {"hyps": [
        ("activation", act == wR + s),                           # relevant part + irrelevant part
        ("false_negative", act < n),
        ("charged_weight_is_active", wR >= wj),                  # w_j is a term of the relevant part
    ], "goal": s < n - wj,
        "latex": {"act": r"w\cdot x", "wR": r"\sum_{i \in T} w_i x_i", "wj": "w_j",
                  "s": r"\sum_{i \notin T} w_i x_i"}}


def _nondecreasing_without_halving():
    import z3
    w, w1 = reals("w w1")
    return {"hyps": [("positive", w > 0), ("doubled_or_unchanged", z3.Or(w1 == 2 * w, w1 == w))],
            "goal": w1 >= w, "latex": {"w": "w_i", "w1": "w_i'"}}


def _charges_distinct():
    w1, w, w2 = reals("w1 w w2")
    return {"hyps": [
        ("positive", w1 > 0),
        ("doubled_by_the_earlier_fn", w == 2 * w1),
        ("nondecreasing_between", w2 >= w),                      # relevant weights are never halved
    ], "goal": w2 > w1, "latex": {"w1": r"w_j^{(t)}", "w": r"w_j^{(t+1)}", "w2": r"w_j^{(t')}"}}


def _geometric_sum():
    import sympy as sp
    a = sp.Symbol("a", integer=True, nonnegative=True)
    l = sp.Symbol("ell", integer=True, positive=True)
    lhs = sp.Sum(2**l - 2**a, (a, 0, l - 1))
    rhs = l * 2**l - 2**l + 1

    def instances():
        return [(lhs.subs(l, k).doit(), rhs.subs(l, k)) for k in (1, 2, 3, 6, 10)]
    return {"lhs": lhs, "rhs": rhs, "instances": instances}


def _fn_total():
    import z3
    F, r, l = ints("F r ell")
    G, C, T, n = reals("G C T n")
    rr = z3.ToReal(r)
    return {"hyps": [
        ("counts", F >= 0),
        ("charged_sum_strict", z3.Implies(F >= 1, G < C)),       # sum of s_k < sum of (n - 2^a_k)
        ("no_fn_adds_nothing", z3.Implies(F == 0, G == 0)),
        ("charged_terms_among_all", C <= rr * T),                # distinct pairs (j, a), each term > 0
        ("geometric_sum", T == z3.ToReal(l) * n - n + 1),
        ("n_at_least_2", (l >= 1) & (n >= 2)),
        ("r_at_least_1", r >= 1),
    ], "goal": G < rr * (z3.ToReal(l) * n - n + 1),
        "latex": {"G": r"\sum_{\text{FN}} s_k", "C": r"\sum_k (n - 2^{a_k})", "T": r"\sum_{a<\ell}(n - 2^a)"}}


def _fp_lowers_irrelevant():
    act, Sirr, Srel, I, I1, n = reals("act Sirr Srel I I1 n")
    return {"hyps": [
        ("activation", act == Sirr + Srel),
        ("negative_example_no_relevant_active", Srel == 0),
        ("false_positive", act >= n),
        ("halved", I1 == I - Sirr / 2),
    ], "goal": I1 <= I - n / 2, "latex": {"act": r"w\cdot x", "I": r"\sum_{i \notin T} w_i", "I1": "I'"}}


def _irrelevant_step():
    import z3
    I, I1, I0, G, G1, s, n = reals("I I1 I0 G G1 s n")
    D, D1 = ints("D D1")
    fn = z3.Bool("false_negative")
    h = z3.RealVal(1) / 2
    inv = lambda I_, G_, D_: I_ <= I0 + G_ - h * n * z3.ToReal(D_)  # noqa: E731
    return {"hyps": [
        ("invariant", inv(I, G, D)),
        ("fn_step", z3.Implies(fn, (I1 == I + s) & (G1 == G + s) & (D1 == D))),
        ("fp_step", z3.Implies(z3.Not(fn), (I1 <= I - h * n) & (G1 == G) & (D1 == D + 1))),
    ], "goal": inv(I1, G1, D1), "latex": {"I": r"\sum_{i \notin T} w_i", "G": r"\sum_{\text{FN so far}} s_k"}}


def _irrelevant_base():
    import z3
    I, I0, G, n = reals("I I0 G n")
    D, r = ints("D r")
    return {"hyps": [("start", (I == n - z3.ToReal(r)) & (G == 0) & (D == 0)), ("I0_is_n_minus_r", I0 == n - z3.ToReal(r))],
            "goal": I <= I0 + G - n / 2 * z3.ToReal(D)}


def _last_fp():
    S, kept, kept_fin, others, Ifin, n = reals("S kept kept_fin others Ifin n")
    return {"hyps": [
        ("last_false_positive", S >= n),
        ("halved", kept == S / 2),
        ("only_doublings_after", kept_fin >= kept),
        ("other_weights_nonneg", others >= 0),
        ("split", Ifin == kept_fin + others),
    ], "goal": Ifin >= n / 2,
        "latex": {"S": r"w\cdot x", "Ifin": r"I_{\text{final}}", "kept_fin": r"\sum_{i \in A} w_i^{\text{final}}"}}


def _irrelevant_final_upper():
    import z3
    r, l, Q = ints("r ell Q")
    I, G, n, D = reals("I G n D")
    rr, lr, Qr = z3.ToReal(r), z3.ToReal(l), z3.ToReal(Q)
    return {"hyps": [
        ("Q_is_r_times_l_minus_1", Q == r * (l - 1)),
        ("irrelevant_accounting", I <= n - rr + G - n / 2 * D),
        ("fn_additions", G < rr * (lr * n - n + 1)),
    ], "goal": I < n + Qr * n - n / 2 * D,
        "latex": {"D": r"\#\text{FP}", "I": r"I_{\text{final}}", "G": r"\sum_{\text{FN}} s_k", "Q": r"r(\ell - 1)"}}


def _divide_by_n():
    import z3
    D, Q = ints("D Q")
    I, n = reals("I n")
    Dr, Qr = z3.ToReal(D), z3.ToReal(Q)
    return {"hyps": [
        ("n_at_least_2", n >= 2),
        ("irrelevant_final_upper", I < n + Qr * n - n / 2 * Dr),
        ("after_last_fp", z3.Implies(D >= 1, I >= n / 2)),
    ], "goal": z3.Implies(D >= 1, D < 1 + 2 * Q),
        "latex": {"D": r"\#\text{FP}", "I": r"I_{\text{final}}", "Q": r"r(\ell - 1)"}}


def _compose_tight():
    import z3
    F, D, Sp, r, l = ints("F D Sp r ell")
    return {"hyps": [
        ("counts", (F >= 0) & (D >= 0) & (r >= 0)),
        ("n_pow2_at_least_2", l >= 1),
        ("promotions_le_doublings", F <= Sp),
        ("doublings_le_r_lg_n", Sp <= r * l),                    # sum over r variables of p_i <= l
        ("false_positives_bound", z3.Implies(D >= 1, D < 1 + 2 * (r * (l - 1)))),
    ], "goal": F + D <= r * (3 * l - 2),
        "latex": {"F": r"\#\text{FN}", "D": r"\#\text{FP}", "Sp": r"\sum_i p_i"}}


_per_never_demoted = _never_demoted(False)
_positive = _weights_stay_positive(False)


def _tight_obligations():
    return [
        Obligation("relevant_weight_never_demoted_halving", "z3", "a relevant weight is unchanged by a demotion", ENC,
                   _per_never_demoted),
        Obligation("relevant_weight_below_n_when_doubled", "z3", "a weight is doubled only while < n, so stays < 2n",
                   ENC, _below_n),
        Obligation("relevant_doublings_le_lg_n_pow2", "z3", "n = 2^l: a relevant weight is doubled at most l times",
                   ENC, _doublings_pow2, uses=("relevant_weight_below_n_when_doubled",)),
        Obligation("promotions_le_relevant_doublings", "z3", "each promotion doubles a relevant weight (induction step)",
                   ENC, _promotions),
        Obligation("doubled_weight_le_half_n", "z3", "n = 2^l: a weight doubled inside an FN is <= n/2, so n - 2^a >= n/2 > 0",
                   ENC, _weight_le_half_n, uses=("relevant_weight_below_n_when_doubled",)),
        Obligation("fn_irrelevant_part_below_n_minus_charged", "z3",
                   "an FN adds its irrelevant part s < n - w_j to I (w_j: an active relevant weight)", ENC,
                   _fn_irrelevant_part),
        Obligation("weight_nondecreasing_without_halving", "z3", "a weight that is not halved never decreases", ENC,
                   _nondecreasing_without_halving),
        Obligation("fn_charges_distinct", "z3", "a later FN charging w_j finds it strictly larger: distinct pairs (j, a)",
                   ENC, _charges_distinct, uses=("weight_nondecreasing_without_halving",
                                                 "relevant_weight_never_demoted_halving")),
        Obligation("geometric_sum_pow2", "sympy", "sum_{a<l} (2^l - 2^a) = l 2^l - 2^l + 1", ENC, _geometric_sum),
        Obligation("fn_additions_below_r_times_sum", "z3", "the FNs add G < r(ln - n + 1) to I (r >= 1)", ENC, _fn_total,
                   uses=("fn_irrelevant_part_below_n_minus_charged", "fn_charges_distinct", "doubled_weight_le_half_n",
                         "geometric_sum_pow2")),
        Obligation("fp_lowers_irrelevant_total", "z3", "an FP has no relevant variable active and lowers I by >= n/2",
                   ENC, _fp_lowers_irrelevant),
        Obligation("irrelevant_total_base", "z3", "I = n - r before any mistake", ENC, _irrelevant_base),
        Obligation("irrelevant_total_step", "z3", "I <= (n - r) + G - D n/2 is carried by every mistake", ENC,
                   _irrelevant_step, uses=("fp_lowers_irrelevant_total",)),
        Obligation("after_last_fp_irrelevant_ge_half_n", "z3", "after the last FP, I >= n/2 for good", ENC, _last_fp,
                   uses=("weight_nondecreasing_without_halving", "weights_stay_positive")),
        Obligation("weights_stay_positive", "z3", "weights start at 1 and stay > 0", ENC, _positive),
        Obligation("irrelevant_final_upper", "z3", "I_final < n + r(l - 1)n - D n/2", ENC, _irrelevant_final_upper,
                   uses=("irrelevant_total_base", "irrelevant_total_step", "fn_additions_below_r_times_sum")),
        Obligation("false_positives_le_2r_lg_n_minus_1", "z3", "D >= 1: n/2 <= I_final < n + r(l - 1)n - D n/2, "
                   "so D < 1 + 2r(l - 1)", ENC, _divide_by_n,
                   uses=("irrelevant_final_upper", "after_last_fp_irrelevant_ge_half_n")),
        Obligation("winnow_pow2_tight_mistake_bound", "z3", "F + D <= r(3l - 2)", ENC, _compose_tight,
                   role="composition",
                   uses=("promotions_le_relevant_doublings", "relevant_doublings_le_lg_n_pow2",
                         "false_positives_le_2r_lg_n_minus_1")),
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
        id="winnow_halving_pow2_tight",
        title="Winnow (halving), n = 2^l >= 2, r >= 1: M <= r(3 lg n - 2) (tight)",
        statement="n = 2^l, l >= 1, 1 <= r <= n  ==>  M <= r(3 lg n - 2)",
        latex=r"n = 2^\ell \ge 2,\ r \ge 1 \;\Longrightarrow\; M \le r\,(3\lg n - 2)",
        hypotheses=[r"n = 2^\ell,\ \ell \ge 1", r"r \ge 1",
                    r"\text{monotone disjunction of } r \text{ variables}", r"w_i = 1 \text{ initially, threshold } n"],
        source=TIGHT,
        obligations=_tight_obligations(),
        trusted=("induction", "finite_sum_linearity", "pow2_log2"),
        notes="One less than winnow_halving_pow2 and attained by the adversary (docs/winnow-adversary.md). "
              "Needs r >= 1 (erratum_winnow_pow2_tight_r0) and n >= 2 (at n = 1 the bound is negative). "
              "Trusted: induction over the run (the step obligations), finite sums (charging each FN to a "
              "distinct pair (j, a) and summing; sum_i p_i <= r l), and the pow2/lg facts (hypotheses).",
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
    Theorem(
        id="erratum_winnow_pow2_tight_r0",
        kind="erratum",
        title="M <= r(3 lg n - 2) needs r >= 1: it fails for r = 0",
        statement="r = 0, n = 2: M <= r(3 lg n - 2) = 0      [FALSE: x = (1,1) with label 0 is a false positive]",
        latex=r"r = 0,\ n = 2:\ M \le 0 \quad\text{(false)}",
        hypotheses=[r"r = 0", r"n = 2"],
        source=TIGHT,
        obligations=[Obligation("pow2_tight_at_r0", "z3", "M <= r(3 lg n - 2) with r = 0 (claimed)", ENC,
                                _boundary_tight_r0, expect="refuted", role="claim")],
        counterexample={"n": 2, "r": 0, "x": [1, 1], "label": 0, "w.x": 2, "M": 1, "bound": 0},
        witness_check=_witness_tight_r0,
    ),
]

