"""Hints for the steps of the online-learning unit's theorems (Halving, exp's monotonicity, the
two-experts lower bound): keyed by (theorem id, step id).  Each one instantiates the quantified
facts the SMT solvers instantiate by themselves at the step's index, then closes the arithmetic;
exp's monotonicity is proved from the standard library's exp_increasing."""
from __future__ import annotations

__all__ = ["UNIT_STEP_HINTS", "UNIT_FAMILIES"]

# The unit's families whose every step closes in Coq (by a hint here or the default tactic).
UNIT_FAMILIES = frozenset({"halving_bound", "exp_monotone", "two_experts_lower_bound", "passive_aggressive_bound",
                           "freund_schapire_bound", "margin_lower_bound", "weighted_majority_bound",
                           "randomized_weighted_majority_bound", "kernel_freund_schapire_bound",
                           "disjunction_lower_bound", "perceptron_orthogonal_run"})

UNIT_STEP_HINTS: dict[tuple[str, str], str] = {
    # the perceptron on orthogonal examples: every m(s) = 1, so the n terms sum to n
    ("perceptron_orthogonal_run", "terms_le_1"): r"""
  intros m n E s [Hs0 Hs]. assert (Hn : (s < n)%nat) by lia. assert (Hl : (s <= n)%nat) by lia.
  rewrite (E s (conj Hs0 Hl) (conj Hs0 Hn)). change (INR 1) with 1. lra.""",
    ("perceptron_orthogonal_run", "terms_ge_1"): r"""
  intros m n E s [Hs0 Hs]. assert (Hn : (s < n)%nat) by lia. assert (Hl : (s <= n)%nat) by lia.
  rewrite (E s (conj Hs0 Hl) (conj Hs0 Hn)). change (INR 1) with 1. lra.""",
    ("perceptron_orthogonal_run", "mistakes_counted"): r"""
  intros m n A B SA SB C Hn. specialize (SA A). specialize (SB B).
  rewrite (C ltac:(lia)), <- INR_IZR_INZ in SA, SB. lra.""",
    # Littlestone's lower bound on disjunctions: nested intervals; j <= 0 is j = 0
    ("disjunction_lower_bound", "interval_start"): "intros h j l lo [Hj _]. replace j with 0%nat by lia. lia.",
    ("disjunction_lower_bound", "interval_step"): r"""
  intros h j l lo m p E H P [Hm0 [Hml IH]] [Hj Hm1].
  specialize (E (conj Hm0 Hml)). destruct (H (conj Hm0 Hml)) as [H2 H1].
  destruct (Nat.eq_dec j (m + 1)) as [->|Ne]; [lia|].
  assert (Hjm : (j <= m /\ m <= l)%nat) by lia. destruct (IH Hjm) as [A B].
  destruct (P (conj Hm0 Hml)) as [Q|Q]; rewrite Q in E; lia.""",
    # the half kept after step j holds lo(l): the lower one (label 1) iff p(j) = 0
    ("disjunction_lower_bound", "labels_are_the_targets"): r"""
  intros h j l lo p N E P H Hl [Hj0 Hj].
  assert (Hjl : (j + 1 <= l /\ l <= l)%nat) by lia.
  destruct (N (conj (Nat.le_0_l l) (le_n l)) Hjl) as [A B].
  specialize (E (conj Hj0 Hj)). destruct (H (conj Hj0 Hj)) as [H2 H1].
  destruct (P (conj Hj0 Hj)) as [Q|Q]; rewrite Q in *.
  - replace (Z.leb (lo j) (lo l)) with true by (symmetry; apply Z.leb_le; lia).
    replace (Z.ltb (lo l) (lo j + h (j + 1)%nat)) with true by (symmetry; apply Z.ltb_lt; lia). reflexivity.
  - replace (Z.ltb (lo l) (lo j + h (j + 1)%nat)) with false by (symmetry; apply Z.ltb_ge; lia).
    rewrite andb_false_r. reflexivity.""",
    ("disjunction_lower_bound", "target_is_a_variable"): r"""
  intros h l lo N H0 Hl.
  destruct (N (conj (Nat.le_0_l l) (le_n l)) (conj (Nat.le_0_l l) (le_n l))) as [A B]. lia.""",
    ("disjunction_lower_bound", "every_step_a_mistake"):
        "intros l p P s Hs. destruct (P s Hs) as [Q|Q]; rewrite Q; reflexivity.",
    ("disjunction_lower_bound", "terms_le_1"): "intros l p E s [Hs0 Hs]. assert (Hsl : (0 <= s /\\ s < l)%nat) by lia. rewrite (E s Hsl). lia.",
    ("disjunction_lower_bound", "terms_ge_1"): "intros l p E s [Hs0 Hs]. assert (Hsl : (0 <= s /\\ s < l)%nat) by lia. rewrite (E s Hsl). lia.",
    ("disjunction_lower_bound", "mistakes_counted"): r"""
  intros l p A B SA SB C. specialize (SA A). specialize (SB B). specialize (C ltac:(lia)). lia.""",
    ("disjunction_lower_bound", "forced_mistakes"): r"""
  intros h j l lo p A [B1 B2] C. split; [exact A|split; [exact B1|split; [exact B2|exact C]]].""",
    # V(0) = |H| and 2^0 = 1
    ("halving_bound", "halving_start"): "intros N V H0 P. rewrite P, H0, <- INR_IZR_INZ. lra.",
    # a mistake keeps at most half of V: 2 V(k+1) <= 2 c(k) <= a(k) + c(k) = V(k)
    ("halving_bound", "halving_step"): r"""
  intros M N V a c k H1 H2 H3 Hp Hpos [Hk0 [HkM IH]].
  destruct (H1 (conj Hk0 HkM)) as (E & Ea & Ec). specialize (H2 (conj Hk0 HkM)).
  specialize (H3 (conj Hk0 HkM)). apply IZR_le in H2. apply IZR_le in H3.
  apply (f_equal IZR) in E. rewrite plus_IZR in E. rewrite Hp.
  assert (pow2 k * (IZR (V k) - 2 * IZR (V (k + 1)%nat)) >= 0) by (apply Rle_ge, Rmult_le_pos; lra).
  lra.""",
    # 2^M <= 2^M V(M) <= |H| with V(M) >= 1 (the target is never eliminated)
    ("halving_bound", "two_to_the_M"): r"""
  intros M N V H HV Hp. specialize (H (conj (Nat.le_0_l M) (le_n M))). apply Z.ge_le, IZR_le in HV.
  assert (pow2 M * (IZR (V M) - 1) >= 0) by (apply Rle_ge, Rmult_le_pos; lra). lra.""",
    # lg is increasing: 2^M < |H| or 2^M = |H|
    ("halving_bound", "halving_mistake_bound"): r"""
  intros M N H1 H2 H3 H4. destruct (Rle_lt_or_eq_dec _ _ H1) as [Lt|Eq];
  [specialize (H4 (conj H3 Lt)); lra | rewrite <- Eq; lra].""",
    ("exp_monotone", "exp_monotone"): r"""
  intros a b _ _ _ _ _ _. split; intro H.
  - destruct (Rle_or_lt a b) as [|L]; [assumption|]. apply exp_increasing in L. lra.
  - destruct (Req_dec a b) as [E|E]; [subst; lra|]. left. apply exp_increasing. lra.""",
    # y = -p and p^2 = 1: every step is a mistake, (1 - y p)/2 = 1
    ("two_experts_lower_bound", "every_step_one_expert_wrong"): r"""
  intros T p y Hp Hy s [Hs0 Hs]. rewrite (Hy s ltac:(lia)). pose proof (Hp s ltac:(lia)). nra.""",
    ("two_experts_lower_bound", "summed"): "intros T p y H1 H2 H3. specialize (H2 H1). lra.",
    ("two_experts_lower_bound", "two_experts_bound"): r"""
  intros T p y H. match goal with |- 2 * Rmin ?A ?B <= _ => pose proof (Rmin_l A B); pose proof (Rmin_r A B) end.
  lra.""",
    # |w_t - u|^2 - |w_(t+1) - u|^2 >= tau l: with l > 0, y u.x >= 1 adds 2 tau (y u.x - 1) >= 0; with
    # l = 0 the step size is 0
    ("passive_aggressive_bound", "distance_drops"): r"""
  intros dim T l t tau u w x y E Hu Hl Ht Hx Hy Hm Htt.
  assert (V : veq dim (vsub (w (t + 1)%nat) u) (vsub (vadd (w t) (smul (tau t * y t) (x t))) u))
    by (intros i Hi; unfold vsub; rewrite (Hu Htt i Hi); reflexivity).
  rewrite (dot_veq_l _ _ _ _ V), (dot_veq_r _ _ _ _ V), E.
  destruct (Ht Htt) as [Et Tp]. pose proof (Hx Htt) as Xp. pose proof (Hy Htt) as Y2. pose proof (Hm Htt) as G.
  replace ((tau t * y t) ^ 2) with (tau t ^ 2) by (rewrite Rpow_mult_distr, Y2; ring).
  rewrite (Hl Htt) in Et |- *. unfold Rmax in *. destruct (Rle_dec 0 (1 - y t * dot dim (w t) (x t))) as [P|P].
  - assert (tau t * (y t * dot dim u (x t) - 1) >= 0) by (apply Rle_ge, Rmult_le_pos; lra).
    assert (tau t ^ 2 * dot dim (x t) (x t) = tau t * (1 - y t * dot dim (w t) (x t))) by (rewrite <- Et; ring).
    nra.
  - assert (Z : tau t = 0) by nra. rewrite Z. lra.""",
    # l^2 = |x|^2 (tau l) <= R^2 (tau l)
    ("passive_aggressive_bound", "loss_squared"): r"""
  intros dim R_ T l t tau w x y Ht Hr Hl Htt. destruct (Ht Htt) as [Et Tp]. pose proof (Hr Htt).
  assert (L0 : 0 <= l t) by (rewrite (Hl Htt); apply Rmax_l).
  replace (l t ^ 2) with (dot dim (x t) (x t) * (tau t * l t)) by (rewrite <- Et; ring).
  replace (R_ ^ 2 * tau t * l t) with (R_ ^ 2 * (tau t * l t)) by ring.
  apply Rmult_le_compat_r; [apply Rmult_le_pos; lra | lra].""",
    ("passive_aggressive_bound", "sum_start"): r"""
  intros dim R_ l u w H0 E S. rewrite S.
  assert (V : veq dim (vsub (w 0%nat) u) (vsub vzero u)) by (intros i Hi; unfold vsub; rewrite (H0 i Hi); reflexivity).
  rewrite (dot_veq_l _ _ _ _ V), (dot_veq_r _ _ _ _ V), E. replace (dot dim u u - dot dim u u) with 0 by ring. lra.""",
    # the summed termwise inequality 2 lam h <= lam^2 h^2 + 1, with sum_{i<M} 1 = M
    ("freund_schapire_bound", "amgm_summed"): r"""
  intros dim M g lam u x y H1 H2 E1 E2 Z1. specialize (H2 H1). rewrite E1, E2 in H2.
  rewrite (Z1 ltac:(lia)), Z.mul_1_l, <- INR_IZR_INZ in H2. exact H2.""",
    # gamma M - L <= w.u <= |w| <= sqrt(M) R (nothing to show when gamma M - L <= 0)
    ("freund_schapire_bound", "correlation_vs_norm"): r"""
  intros dim M R_ g u w x y H1 CS U1 HR Sq. destruct (H1 (conj (Nat.le_0_l M) (le_n M))) as [A B].
  destruct (Sq (Rle_ge _ _ (pos_INR M))) as [S0 SS]. rewrite U1 in CS.
  match goal with |- context [sum_incl ?a ?b ?f] => set (L := sum_incl a b f) in * end.
  set (s := sqrt (INR M)) in *. set (wu := dot dim (w M) u) in *. set (ww := dot dim (w M) (w M)) in *.
  assert (R0 : 0 <= s * R_) by nra.
  destruct (Rle_dec (g * INR M - L) 0) as [N|N]; [lra|].
  destruct (Rle_dec wu (s * R_)) as [ok|nok]; [lra|]. exfalso.
  assert (s * R_ * (s * R_) < wu * wu) by (apply Rmult_le_0_lt_compat; lra).
  assert (s * R_ * (s * R_) = INR M * R_ ^ 2) by (rewrite <- SS; ring). nra.""",
    # L <= sqrt(M) D from the summed inequality at lam = sqrt(M)/D (D > 0), at lam = (M+1)/(2L) (D = 0,
    # L > 0: impossible), and the empty sums when M = 0
    ("freund_schapire_bound", "loss_cauchy_schwarz"): r"""
  intros dim M g u x y H1 H2 L0 Q0 SqM SqQ E3 E4.
  destruct M as [|M'].
  - change (Z.of_nat 0 - 1)%Z with (-1)%Z in *. rewrite E3, E4. simpl INR. rewrite sqrt_0. lra.
  - match goal with |- sum_incl ?a ?b ?f <= _ => set (L := sum_incl a b f) in * end.
    match goal with |- _ <= _ * sqrt (sum_incl ?a ?b ?f) => set (Q := sum_incl a b f) in * end.
    assert (Mp : 0 < INR (S M')) by (apply lt_0_INR; lia).
    destruct (SqM (Rle_ge _ _ (Rlt_le _ _ Mp))) as [S0 SS]. destruct (SqQ Q0) as [D0 DD].
    set (s := sqrt (INR (S M'))) in *. set (D := sqrt Q) in *.
    assert (Sp : 0 < s) by (destruct (Rge_le _ _ S0) as [P|P]; [exact P|]; rewrite <- P in SS; lra).
    destruct (Rge_le _ _ D0) as [Dp|Dz].
    + assert (H3 : 2 * (s / D) * L <= 2 * (s * s)) by
        (replace (2 * (s * s)) with ((s / D) ^ 2 * Q + INR (S M')) by (rewrite <- DD, <- SS; field; lra); exact H1).
      assert (H4 : s / D * L <= s * s) by lra.
      apply Rmult_le_reg_l with (s / D); [apply Rdiv_lt_0_compat; lra|].
      replace (s / D * (s * D)) with (s * s) by (field; lra). exact H4.
    + rewrite <- Dz in DD. rewrite <- Dz. destruct (Rge_le _ _ L0) as [Lp|Lz]; [|lra]. exfalso.
      replace ((INR (S M' + 1) / (2 * L)) ^ 2 * Q) with 0 in H2 by (rewrite <- DD; ring).
      replace (2 * (INR (S M' + 1) / (2 * L)) * L) with (INR (S M' + 1)) in H2 by (field; lra).
      rewrite plus_INR in H2. simpl (INR 1) in H2. lra.""",
    # gamma sqrt(M) <= R + D: sqrt(M) <= (R + D)/gamma, squared
    ("freund_schapire_bound", "freund_schapire_mistake_bound"): r"""
  intros dim M R_ g u x y H Sq Hg. destruct (Sq (Rle_ge _ _ (pos_INR M))) as [S0 SS].
  match goal with |- context [sqrt (sum_incl ?a ?b ?f)] => set (D := sqrt (sum_incl a b f)) in * end.
  set (s := sqrt (INR M)) in *. rewrite <- SS.
  assert (E : s <= (R_ + D) / g) by (apply Rmult_le_reg_r with g; [lra|]; unfold Rdiv;
                                     rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra; lra).
  replace (s * s) with (s ^ 2) by ring. apply pow_incr. lra.""",
    # u_j.x_t = sum_{s<=j} y_s x_s.x_t: the orthonormal x's pick y_t once t <= j
    ("margin_lower_bound", "correlation_step"): r"""
  intros dim d j t x y Sp Ex Ort [Hj0 [Hjd IH]] Ht.
  rewrite (dot_veq_l _ _ _ _ (Sp ltac:(lia))), Ex, (IH Ht), (Ort ltac:(lia)).
  destruct (Nat.ltb_spec t j); destruct (Nat.ltb_spec t (j + 1)); destruct (Nat.eqb_spec j t);
    try lia; subst; simpl INR; ring.""",
    ("margin_lower_bound", "norm_step"): r"""
  intros dim d j p x y Sp Ex Corr Ort Hy Hp [Hj0 [Hjd IH]]. pose proof (Sp ltac:(lia)) as V.
  rewrite (dot_veq_l _ _ _ _ V), (dot_veq_r _ _ _ _ V), Ex, IH, (Corr ltac:(lia) ltac:(lia)), (Ort ltac:(lia)).
  rewrite Nat.ltb_irrefl, Nat.eqb_refl, plus_INR. change (INR 1) with 1.
  rewrite (Hy ltac:(lia)). pose proof (Hp ltac:(lia)). nra.""",
    ("margin_lower_bound", "unit_target"): r"""
  intros dim d x y H1 E Sq Hd. rewrite E, (H1 ltac:(lia)). destruct (Sq (Rle_ge _ _ (pos_INR d))) as [S0 SS].
  assert (0 < INR d) by (apply lt_0_INR; lia). set (s := sqrt (INR d)) in *.
  assert (Sn : s <> 0) by (intro Z; rewrite Z in SS; lra). rewrite <- SS. field. exact Sn.""",
    # y_t u.x_t = y_t^2 / sqrt(d) = 1/sqrt(d) >= gamma, since d gamma^2 <= 1
    ("margin_lower_bound", "margin"): r"""
  intros dim d g p t x y C E Sq Hd Hdg Hg Hy Hp Ht. rewrite E, (C ltac:(lia) Ht).
  destruct (Nat.ltb_spec t d); [|lia].
  destruct (Sq (Rle_ge _ _ (pos_INR d))) as [S0 SS]. assert (Dp : 0 < INR d) by (apply lt_0_INR; lia).
  set (s := sqrt (INR d)) in *.
  assert (Sp : 0 < s) by (destruct (Rge_le _ _ S0) as [P|P]; [exact P|]; rewrite <- P in SS; lra).
  assert (Y : y t * y t = 1) by (rewrite (Hy Ht); pose proof (Hp Ht); nra).
  replace (y t * (1 / s * y t)) with ((y t * y t) * (1 / s)) by ring. rewrite Y, Rmult_1_l.
  assert (G2 : g * s * (g * s) <= 1) by (replace (g * s * (g * s)) with (INR d * g ^ 2) by (rewrite <- SS; ring); lra).
  assert (Gs : g * s <= 1) by nra.
  apply Rle_ge. apply Rmult_le_reg_r with s; [lra|]. replace (1 / s * s) with 1 by (field; lra). lra.""",
    ("margin_lower_bound", "every_step_a_mistake"): r"""
  intros d p y Hp Hy t2 [H0 H1]. rewrite (Hy t2 ltac:(lia)). pose proof (Hp t2 ltac:(lia)). split; nra.""",
    ("margin_lower_bound", "mistakes_count"): r"""
  intros d p y H1 H2 H3 Z1 Hd. pose proof (H2 (fun s Hs => proj1 (H1 s Hs))) as A.
  pose proof (H3 (fun s Hs => Rge_le _ _ (proj2 (H1 s Hs)))) as B.
  rewrite (Z1 ltac:(lia)), <- INR_IZR_INZ in A, B. lra.""",
}


def _total_weight_step(nvars: int) -> str:
    """W(t+1) = f W(t) with 0 <= f <= exp(-r(t)) and W(t) <= n exp(-sum_{s<t} r(s))."""
    return "intros " + " ".join(["?"] * nvars) + r""" Hr HW HF Hb Hn Sp Ex Pos [Ht0 [HtT IH]].
  pose proof (conj Ht0 HtT) as Ht. rewrite (HW Ht), Sp, Ex. destruct (HF Ht) as [F0 F1].
  pose proof (Hr Ht) as R1. destruct Hb as [B0 B1]. pose proof (pos_INR n) as N0.
  match goal with |- ?f * _ <= INR n * (?A * ?B) =>
    assert (f0 : 0 <= f) by nra;
    apply Rle_trans with (f * (INR n * A)); [apply Rmult_le_compat_l; lra|];
    replace (INR n * (A * B)) with (B * (INR n * A)) by ring;
    apply Rmult_le_compat_r; [apply Rmult_le_pos; lra | lra] end."""


# Weighted Majority and its randomized form share the two inductions: the best expert's weight
# v(t) = exp(-ln(1/beta) sum_{s<t} e(s)) and the total weight W(t) <= n exp(-sum_{s<t} r(s)).
_EXPERTS: dict[str, str] = {
    "best_weight_start": r"""
  intros e lib v H0 Z0 E0. rewrite H0, Z0. replace (- lib * IZR 0) with 0 by ring. rewrite E0. reflexivity.""",
    # exp(ln(1/beta)) exp(-ln(1/beta)) = exp(0) = 1 = exp(ln(1/beta)) beta, and exp(.) > 0
    "exp_neg_log_inv_beta": r"""
  intros beta lib H1 H2 H3. replace (lib + - lib) with 0 in H2 by ring. rewrite H3 in H2.
  apply Rmult_eq_reg_l with (exp lib); [lra | pose proof (exp_pos lib); lra].""",
    "best_factor": r"""
  intros T beta e lib t v H1 Eb E0 Ht. destruct (H1 Ht) as [[E|E] _]; rewrite E.
  - replace (- lib * IZR 0) with 0 by ring. rewrite E0. lra.
  - replace (- lib * IZR 1) with (- lib) by ring. rewrite Eb. lra.""",
    "best_exponent_split": "intros e lib t H. rewrite H by lia. rewrite plus_IZR. f_equal. ring.",
    "total_weight_start": "intros ? ? ? ? H0 Hn S E0. rewrite S, Ropp_0, E0, H0. lra.",
    "total_exponent_split": "intros ? ? ? H. rewrite H by lia. f_equal. ring.",
}
for _th, _n in (("weighted_majority_bound", 8), ("randomized_weighted_majority_bound", 6)):
    for _step, _tac in _EXPERTS.items():
        UNIT_STEP_HINTS[(_th, _step)] = _tac
    UNIT_STEP_HINTS[(_th, "total_weight_step")] = _total_weight_step(_n)

UNIT_STEP_HINTS[("weighted_majority_bound", "exp_neg_log_wm")] = r"""
  intros beta w H1 H2 H3. replace (w + - w) with 0 in H2 by ring. rewrite H3 in H2.
  apply Rmult_eq_reg_l with (exp w); [lra | pose proof (exp_pos w); lra]."""
# a mistake: the wrong weight F(t) >= 1/2 leaves at most (1 + beta)/2 = exp(-ln(2/(1+beta)))
UNIT_STEP_HINTS[("weighted_majority_bound", "mistake_factor")] = r"""
  intros F T beta w t z Ew E0 HF Hz1 Hz Hb Ht. destruct (HF Ht). destruct (Hz Ht) as [E|E]; rewrite E.
  - replace (- (w * IZR 0)) with 0 by ring. rewrite E0. nra.
  - replace (- (w * IZR 1)) with (- w) by ring. rewrite Ew. pose proof (Hz1 Ht E). nra."""


# PA-I and PA-II (Crammer et al. 2006, Theorems 3 and 4): the step sizes, Lemma 1's drop of |w - u|^2,
# and the steps of the induction that sums it.
_PA_DROP = r"""
  intros dim C_ T l l_u t tau u w x y E Hp Hu Hl Hy Hlu Htt.
  assert (V : veq dim (vsub (w (t + 1)%nat) u) (vsub (vadd (w t) (smul (tau t * y t) (x t))) u))
    by (intros i Hi; unfold vsub; rewrite (Hu Htt i Hi); reflexivity).
  rewrite (dot_veq_l _ _ _ _ V), (dot_veq_r _ _ _ _ V), E.
  pose proof (Hp Htt) as P0. destruct P0 as [T0 P1].
  assert (Z : l t = 0 -> tau t = 0) by (repeat match type of P1 with _ /\ ?B => destruct P1 as [_ P1] end; exact P1).
  pose proof (Hy Htt) as Y2.
  replace ((tau t * y t) ^ 2) with (tau t ^ 2) by (rewrite Rpow_mult_distr, Y2; ring).
  assert (U1 : 1 - y t * dot dim u (x t) <= l_u t) by (rewrite (Hlu Htt); apply Rmax_r).
  rewrite (Hl Htt) in Z |- *. clear P1. unfold Rmax in Z |- *.
  destruct (Rle_dec 0 (1 - y t * dot dim (w t) (x t))) as [P|P].
  - assert (tau t * (y t * dot dim u (x t) - 1 + l_u t) >= 0) by (apply Rle_ge, Rmult_le_pos; lra). nra.
  - rewrite (Z eq_refl). lra."""
_PA_START = r"""
  intros dim C_ R_ VARS H0 E S Z. rewrite S, Z.
  assert (V : veq dim (vsub (w 0%nat) u) (vsub vzero u)) by (intros i Hi; unfold vsub; rewrite (H0 i Hi); reflexivity).
  rewrite (dot_veq_l _ _ _ _ V), (dot_veq_r _ _ _ _ V), E.
  replace (dot dim u u - dot dim u u + 2 * C_ * 0) with 0 by ring. rewrite Rmult_0_r. lra."""
UNIT_STEP_HINTS.update({
    ("passive_aggressive_pa1_bound", "pa1_step_size"): r"""
  intros dim C_ T l t tau w x y Ht Hl Hx Hc Htt.
  specialize (Ht Htt). specialize (Hl Htt). specialize (Hx Htt).
  assert (L0 : 0 <= l t) by (rewrite Hl; apply Rmax_l).
  assert (Q : tau t <= l t / dot dim (x t) (x t)) by (rewrite Ht; apply Rmin_r).
  assert (TC : tau t <= C_) by (rewrite Ht; apply Rmin_l).
  assert (T0 : 0 <= tau t) by (rewrite Ht; apply Rmin_glb; [lra | apply div_nonneg; lra]).
  assert (Tl : tau t * dot dim (x t) (x t) <= l t)
    by (apply Rle_trans with (l t / dot dim (x t) (x t) * dot dim (x t) (x t));
        [apply Rmult_le_compat_r; lra | right; field; lra]).
  split; [lra|]. split; [exact TC|]. split; [exact Tl|].
  intro Z. rewrite Z in Tl. destruct (Rle_lt_or_eq_dec 0 (tau t) T0) as [P|P]; [|lra].
  assert (0 < tau t * dot dim (x t) (x t)) by (apply Rmult_lt_0_compat; lra). lra.""",
    ("passive_aggressive_pa1_bound", "distance_drops"): _PA_DROP,
    ("passive_aggressive_pa1_bound", "factor_positive"): r"""
  intros C_ R_ Hc. apply Rlt_le_trans with (1 / C_); [apply Rdiv_lt_0_compat; lra | apply Rmax_r].""",
    # a mistake has l >= 1; tau = C gives K C l >= 1, tau = l/|x|^2 gives K l^2/|x|^2 >= l^2 >= 1
    ("passive_aggressive_pa1_bound", "mistake_progress"): r"""
  intros dim C_ R_ T l t tau w x y z Hp Kp Ht Hl Hz Hr Hx Hc Htt.
  destruct (Hp Htt) as [T0 [TC [Tl _]]]. destruct (Hz Htt) as [Zb Zm].
  pose proof (Hr Htt) as XR. pose proof (Hx Htt) as Xp.
  assert (L0 : 0 <= l t) by (rewrite (Hl Htt); apply Rmax_l).
  assert (Lm : 1 - y t * dot dim (w t) (x t) <= l t) by (rewrite (Hl Htt); apply Rmax_r).
  set (K := Rmax (R_ ^ 2) (1 / C_)) in *. assert (KR : R_ ^ 2 <= K) by apply Rmax_l.
  assert (KC : 1 / C_ <= K) by apply Rmax_r.
  assert (KCC : 1 <= K * C_) by (replace 1 with (1 / C_ * C_) by (field; lra); apply Rmult_le_compat_r; lra).
  destruct Zb as [Z|Z]; rewrite Z.
  - assert (0 <= tau t * l t) by (apply Rmult_le_pos; lra). nra.
  - specialize (Zm Z). assert (L1 : 1 <= l t) by lra. rewrite (Ht Htt). unfold Rmin.
    destruct (Rle_dec C_ (l t / dot dim (x t) (x t))) as [_|N].
    + nra.
    + assert (E : K * (l t / dot dim (x t) (x t)) * l t = K / dot dim (x t) (x t) * (l t * l t)) by (field; lra).
      rewrite E. assert (K1 : 1 <= K / dot dim (x t) (x t)).
      { apply (Rmult_le_reg_r (dot dim (x t) (x t))); [lra|].
        replace (K / dot dim (x t) (x t) * dot dim (x t) (x t)) with K by (field; lra). lra. }
      nra.""",
    ("passive_aggressive_pa1_bound", "sums_start"): _PA_START.replace("VARS", "l_u u w z"),
    ("passive_aggressive_pa1_bound", "sums_step"): r"""
  intros dim C_ R_ T l_u t u w z Ht Add S1 S2 [H0 [HtT IH]].
  assert (G : (Z.of_nat t - 1 >= -1)%Z) by lia.
  rewrite (S2 G), plus_IZR. apply Add. split; [exact IH|]. split; [exact (Ht (conj H0 HtT))|].
  rewrite (S1 G). ring.""",
    ("passive_aggressive_pa2_bound", "pa2_step_size"): r"""
  intros dim C_ T l t tau w x y Ht Hl Hc X0 Htt.
  specialize (Ht Htt). specialize (Hl Htt).
  assert (A : 0 < 1 / (2 * C_)) by (apply Rdiv_lt_0_compat; lra).
  assert (L0 : 0 <= l t) by (rewrite Hl; apply Rmax_l).
  split; [rewrite Ht; apply Rle_ge, div_nonneg; lra|]. split.
  { rewrite Ht. unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r; [reflexivity | apply Rgt_not_eq; lra]. }
  intro Z. rewrite Ht, Z. unfold Rdiv. ring.""",
    ("passive_aggressive_pa2_bound", "distance_drops"): _PA_DROP,
    ("passive_aggressive_pa2_bound", "factor_positive"): r"""
  intros C_ R_ Hc. pose proof (pow2_ge_0 R_). assert (0 < 1 / (2 * C_)) by (apply Rdiv_lt_0_compat; lra). lra.""",
    # 2 tau l* <= tau^2 a + 2 C l*^2 (a = 1/(2C), from a (tau - 2 C l*)^2 >= 0) and tau q = l
    ("passive_aggressive_pa2_bound", "gain_with_comparator"): r"""
  intros dim C_ T l l_u t tau x Hp Hc Htt. destruct (Hp Htt) as [T0 [Tq _]].
  set (a := 1 / (2 * C_)) in *. assert (Aa : a * (2 * C_) = 1) by (unfold a; field; lra).
  assert (Ap : 0 < a) by (unfold a; apply Rdiv_lt_0_compat; lra).
  assert (S : 0 <= a * (tau t - 2 * C_ * l_u t) ^ 2) by (apply Rmult_le_pos; [lra | apply pow2_ge_0]).
  replace (a * (tau t - 2 * C_ * l_u t) ^ 2)
    with (tau t ^ 2 * a - 2 * tau t * l_u t * (a * (2 * C_)) + (a * (2 * C_)) * (2 * C_ * l_u t ^ 2)) in S by ring.
  rewrite Aa in S. rewrite <- Tq. nra.""",
    ("passive_aggressive_pa2_bound", "loss_squared"): r"""
  intros dim C_ R_ T l t tau x Hp Hr Hc X0 Htt. destruct (Hp Htt) as [T0 [Tq _]]. pose proof (Hr Htt) as XR.
  set (a := 1 / (2 * C_)) in *. assert (Ap : 0 < a) by (unfold a; apply Rdiv_lt_0_compat; lra).
  rewrite <- Tq. set (q := dot dim (x t) (x t) + a) in *.
  assert (0 <= tau t ^ 2 * q) by (apply Rmult_le_pos; [apply pow2_ge_0 | unfold q; lra]).
  replace ((tau t * q) ^ 2) with (q * (tau t ^ 2 * q)) by ring.
  replace ((R_ ^ 2 + a) * tau t ^ 2 * q) with ((R_ ^ 2 + a) * (tau t ^ 2 * q)) by ring.
  apply Rmult_le_compat_r; [lra | unfold q; lra].""",
    ("passive_aggressive_pa2_bound", "sums_start"): _PA_START.replace("VARS", "l l_u u w"),
})
UNIT_FAMILIES = UNIT_FAMILIES | {"passive_aggressive_pa1_bound", "passive_aggressive_pa2_bound"}

# Weighted Majority at beta = 1/2: exp(k x) = exp(x)^k by doubling (one hint for every link of the
# chain), the signs of the logarithms, the general bound used as a lemma, and 2.41.
_EXP_CHAIN = r"""
  intros x A B E. match goal with |- exp ?c = _ => match type of E with exp ?s = _ => replace c with s by ring end end.
  rewrite E; rewrite ?A, ?B; lra."""


def _chain(k: int, out: set) -> set:
    if k > 1 and k not in out:
        out.add(k)
        _chain(k // 2, out)
        _chain(k - k // 2, out)
    return out


for _x, _k in (("ln_2", 100), ("ln_4_3", 241)):
    for _j in _chain(_k, set()):
        UNIT_STEP_HINTS[("weighted_majority_half_bound", f"exp_{_j}_{_x}")] = _EXP_CHAIN
UNIT_STEP_HINTS.update({
    ("weighted_majority_half_bound", "logs_positive"): r"""
  intros lg_n l2 l43 ln_n n E2 E43 E0 Hn Hln Hlg M2 M43 Mn.
  assert (P2 : l2 > 0) by (destruct (Rle_or_lt l2 0) as [H|H]; [apply M2 in H; lra | lra]).
  assert (P43 : l43 > 0) by (destruct (Rle_or_lt l43 0) as [H|H]; [apply M43 in H; lra | lra]).
  assert (N1 : 1 <= INR n) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
  assert (L0 : 0 <= ln_n) by (apply Mn; lra).
  split; [exact P2|]. split; [exact P43|]. apply Rle_ge. nra.""",
    ("weighted_majority_half_bound", "wm_at_one_half"): r"""
  intros F T W e lg_n l2 l43 ln_n n v z L Pos Hn H2 Hln HW0 Hv0 HW HF He HvW H43 Hz1 Hz Hlg.
  destruct Pos as [P2 [P43 G]].
  assert (B := L ltac:(repeat match goal with |- _ /\ _ => split end; first [assumption | lra])).
  match type of B with ?a <= ?b / ?c =>
    assert (B2 : a * c <= b) by (apply Rmult_le_reg_r with (/ c); [apply Rinv_0_lt_compat; lra|];
                                 replace (a * c * / c) with a by (field; lra); exact B) end.
  rewrite <- Hlg in B2. nra.""",
    ("weighted_majority_half_bound", "best_mistakes_nonneg"): r"""
  intros T e v S He. apply S. intros s [_ Hs]. destruct (He s ltac:(lia)) as [[E|E] _]; rewrite E; lia.""",
    # M ln(4/3) <= ln 2 (m + lg n) <= 2.41 ln(4/3) (m + lg n), then divide by ln(4/3) > 0
    ("weighted_majority_half_bound", "wm_half_mistake_bound"): r"""
  intros T e lg_n l2 l43 z B K [P2 [P43 G]] M0. apply Z.ge_le, IZR_le in M0.
  match goal with |- IZR ?A <= 241 / 100 * (IZR ?C + _) => set (Mz := IZR A) in *; set (m := IZR C) in * end.
  apply Rmult_le_reg_r with l43; [lra|].
  assert (X : l2 * (m + lg_n) <= 241 / 100 * l43 * (m + lg_n)) by (apply Rmult_le_compat_r; lra).
  nra.""",
})
UNIT_FAMILIES = UNIT_FAMILIES | {"weighted_majority_half_bound"}

# The kernel form of Freund-Schapire runs the linear proof's steps over phi's feature space: the same hints.
UNIT_STEP_HINTS.update({("kernel_freund_schapire_bound", s): h for (t, s), h in list(UNIT_STEP_HINTS.items())
                        if t == "freund_schapire_bound"})
UNIT_STEP_HINTS.update({
    # the induction's "n <= M - 1 -> test" at every n < M
    ("kernel_freund_schapire_bound", "kfs_feature_mistakes"): r"""
  intros dim M w x y H k [Hk0 HkM]. apply (H k); lia.""",
    # |phi(z)|^2 = K(z, z) <= R^2
    ("kernel_freund_schapire_bound", "kfs_feature_radius"): r"""
  intros dim D K M R_ phi x z Hx HK Hr k Hk.
  rewrite (dot_veq_l D _ _ _ (Hx k Hk)), (dot_veq_r D _ _ _ (Hx k Hk)), <- HK. exact (Hr k Hk).""",
})
