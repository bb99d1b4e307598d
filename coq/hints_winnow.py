"""Hints for the Winnow family's steps (the ported Winnow theorems, branch winnow-port): keyed by
step id, shared by the Winnow theorems whose proofs instantiate the same lemma (the statements differ
only in beta: 1/2 for halving, 0 for elimination).  Each one instantiates the quantified facts the
SMT solvers instantiate by themselves (the update rule, the labels, the sum-monotonicity premises)
at the step's index, then closes the arithmetic with lia / lra / nra."""
from __future__ import annotations

__all__ = ["WINNOW_STEP_HINTS", "WINNOW_FAMILIES"]

WINNOW_FAMILIES = frozenset({"winnow_relevant_weights", "winnow_total_weight", "winnow_bound",
                             "winnow_integer_bound", "winnow_pow2_bound", "winnow_tight_bound"})

WINNOW_STEP_HINTS: dict[str, str] = {}

WINNOW_STEP_HINTS["label_is_0_or_1"] = r"""
  intros M n r t x y H1 H2 Hr Ht. destruct (H1 Ht) as [Hx Hy].
  assert (S : (zsum_incl 0 (Z.of_nat r - 1) (fun i => x t i) >= 0)%Z)
    by (apply H2; intros i Hi; destruct (Hx i ltac:(lia)); lia).
  lia."""
WINNOW_STEP_HINTS["weights_nonneg_step"] = r"""
  intros M beta n r t w x y U L Y Hb [Ht0 [HtM IH]] i Hi.
  specialize (U (conj Ht0 HtM) i Hi). destruct (L (conj Ht0 HtM)) as [X _]. destruct (IH i Hi) as [P Q].
  lazymatch type of Hb with _ /\ _ => destruct Hb as [Hb _] | _ => idtac end.
  destruct U as [U1 [U2 U3]].
  destruct (X i Hi) as [X0|X1]; [rewrite (U3 X0); tauto|].
  destruct (Y (conj Ht0 HtM)) as [Y0|Y1].
  - rewrite (U2 (conj Y0 X1)). split; [nra | intro B; specialize (Q B); nra].
  - rewrite (U1 (conj Y1 X1)). split; [lra | intro B; specialize (Q B); lra]."""
WINNOW_STEP_HINTS["relevant_weight_at_start"] = r"""
  intros i n r w x y H0 Hz Hp Hr Hi. rewrite Hz, (H0 i ltac:(lia)).
  assert (1 <= INR n) by (apply (le_INR 1); lia). mb_iR. unfold pow2Z; simpl powerRZ. lra."""
WINNOW_STEP_HINTS["relevant_weight_step"] = r"""
  intros M beta i n r t w x y U L A Rel Act Zs Hr P [Ht0 [HtM IH]] Hi.
  assert (Ht : (0 <= t)%nat /\ (t < M)%nat) by lia.
  destruct (IH Hi) as [W1 [W2 W3]]. specialize (U Ht i ltac:(lia)). destruct (L Ht) as [X Y].
  specialize (X i ltac:(lia)). rewrite (Zs ltac:(lia)). mb_iR.
  destruct X as [X|X]; rewrite X in *.
  - rewrite Z.mul_0_r, Z.add_0_r. destruct U as [_ [_ U]]. rewrite (U eq_refl). auto.
  - assert (Y1 : y t = 1%Z) by (specialize (Rel ltac:(lia)); lia). rewrite Y1 in *.
    rewrite Z.mul_1_r, P. destruct U as [U _]. rewrite (U (conj eq_refl eq_refl)).
    specialize (Act ltac:(lia)). destruct (A Ht) as [A1 _].
    match type of A1 with ?S >= _ -> _ =>
      assert (Sn : S < INR n) by (destruct (Rlt_or_le S (INR n)) as [C|C]; [exact C | discriminate (A1 (Rle_ge _ _ C))]) end.
    rewrite <- W2. lra."""
WINNOW_STEP_HINTS["promotions_le_doublings_step"] = r"""
  intros M n r t x y Zi Zy Lin Mon1 Mon2 L Y [Ht0 [HtM IH]].
  assert (Ht : (0 <= t)%nat /\ (t < M)%nat) by lia.
  destruct (L Ht) as [X Yt]. specialize (Zy ltac:(lia)).
  assert (E : (zsum_incl 0 (Z.of_nat r - 1) (fun i => zsum_incl 0 (Z.of_nat t) (fun s => y s * x s i)) <=
               zsum_incl 0 (Z.of_nat r - 1) (fun i => 1 * zsum_incl 0 (Z.of_nat t - 1) (fun s => y s * x s i) + y t * x t i))%Z).
  { apply Mon1. intros i Hi. rewrite (Zi i ltac:(lia) ltac:(lia)). lia. }
  assert (E' : (zsum_incl 0 (Z.of_nat r - 1) (fun i => 1 * zsum_incl 0 (Z.of_nat t - 1) (fun s => y s * x s i) + y t * x t i) <=
               zsum_incl 0 (Z.of_nat r - 1) (fun i => zsum_incl 0 (Z.of_nat t) (fun s => y s * x s i)))%Z).
  { apply Mon2. intros i Hi. rewrite (Zi i ltac:(lia) ltac:(lia)). lia. }
  destruct (Y Ht) as [Y0|Y1]; rewrite ?Y0, ?Y1 in *; nia."""
WINNOW_STEP_HINTS["relevant_doublings_below_1_plus_lg_n"] = r"""
  intros M i n r w x y H P Lg Mono Hi. destruct (H ltac:(lia) Hi) as [W1 [W2 W3]].
  set (e := zsum_incl 0 (Z.of_nat M - 1) (fun s => (y s * x s i)%Z)) in *.
  replace (e - 1 + 1)%Z with e in P by ring. mb_iR.
  assert (Q : pow2Z (e - 1) > 0) by (unfold pow2Z; apply Rlt_gt, powerRZ_lt; lra).
  assert (Q2 : pow2Z (e - 1) < INR n) by lra. specialize (Mono (conj Q Q2)). rewrite Lg, minus_IZR in Mono. simpl (IZR 1) in Mono. lra."""
WINNOW_STEP_HINTS["relevant_weights_after_M"] = r"""
  intros M i n r w x y H1 H2 H3 Mon Cnt.
  specialize (H2 ltac:(lia)). specialize (Cnt ltac:(lia)).
  assert (S : IZR (zsum_incl 0 (Z.of_nat r - 1) (fun i => zsum_incl 0 (Z.of_nat M - 1) (fun s => (y s * x s i)%Z)))
              <= INR r * (1 + lg (INR n))).
  { rewrite <- Cnt. apply Mon. intros k Hk. apply Rlt_le, (H3 k ltac:(lia) ltac:(lia)). }
  split; [exact (H1 ltac:(lia)) | split; [exact H2 | apply IZR_le in H2; lra]]."""
WINNOW_STEP_HINTS["active_weight_le_activation"] = r"""
  intros M beta i n r t w x y H Hn L [Ht0 [HtM [Hi X]]].
  specialize (H ltac:(split; [intros k Hk; destruct (Hn ltac:(lia) k ltac:(lia)) as [P _];
                              destruct (proj1 (L ltac:(lia)) k ltac:(lia)) as [E|E]; rewrite E; lra | lia])).
  rewrite X in H. lra."""
WINNOW_STEP_HINTS["relevant_variable_sets_label"] = r"""
  intros M i n r t x y L H Hr [Ht0 [HtM Hi]]. destruct (L ltac:(lia)) as [X Y].
  specialize (H ltac:(split; [intros k Hk; destruct (X k ltac:(lia)); lia | lia])).
  destruct (X i ltac:(lia)); lia."""
WINNOW_STEP_HINTS["promotions_le_doublings_at_start"] = r"""
  intros r x y H0 Hy Mon Cnt. rewrite Hy.
  specialize (Mon ltac:(intros k Hk; rewrite (H0 k ltac:(lia)); lia)). specialize (Cnt ltac:(lia)). lia."""
WINNOW_STEP_HINTS["total_weight_at_start"] = r"""
  intros n w H0 M1 M2 C.
  specialize (M1 ltac:(intros i Hi; rewrite (H0 i ltac:(lia)); lra)).
  specialize (M2 ltac:(intros i Hi; rewrite (H0 i ltac:(lia)); lra)).
  rewrite (C ltac:(lia)), <- INR_IZR_INZ in M1, M2. lra."""
WINNOW_STEP_HINTS["total_weight_invariant_at_start"] = r"""
  intros beta n w y S Z0. rewrite S, Z0, Z.sub_0_r, Z.mul_0_r, Z.add_0_r, <- INR_IZR_INZ.
  split; [lra | intro; lia]."""
WINNOW_STEP_HINTS["weight_change_each_variable"] = r"""
  intros M beta n r t w x y U L Y Ht i Hi. specialize (U Ht i Hi).
  destruct U as [U1 [U2 U3]].
  destruct (proj1 (L Ht) i Hi) as [X|X]; destruct (Y Ht) as [Y0|Y1]; rewrite ?X, ?Y0, ?Y1 in *;
  first [ rewrite (U1 (conj eq_refl eq_refl)) | rewrite (U2 (conj eq_refl eq_refl)) | rewrite (U3 eq_refl) ]; ring."""
WINNOW_STEP_HINTS["total_weight_change"] = r"""
  intros M beta n t w x y H M1 M2 Lin Ht. specialize (H Ht).
  specialize (M1 ltac:(intros i Hi; rewrite (H i ltac:(lia)); apply Rle_refl)).
  specialize (M2 ltac:(intros i Hi; rewrite (H i ltac:(lia)); apply Rle_refl)).
  rewrite Lin in M1, M2. lra."""
WINNOW_STEP_HINTS["total_weight_invariant_step"] = r"""
  intros M beta n t w x y H1 Zy Act Y B [Ht0 [HtM [I1 I2]]].
  assert (Ht : (0 <= t)%nat /\ (t < M)%nat) by lia. specialize (H1 Ht). specialize (Zy ltac:(lia)).
  destruct (Act Ht) as [A1 A2]. rewrite Zy. rewrite Nat2Z.inj_add in *.
  destruct (Y Ht) as [Y0|Y1]; rewrite ?Y0, ?Y1 in *.
  - specialize (A2 eq_refl). mb_norm. rewrite H1.
    match type of A2 with ?A >= _ => assert (E : (1 - beta) * (A - INR n) >= 0) by nra end.
    split; [lra | intro G; rewrite Z.add_0_r in G; specialize (I2 G); lra].
  - mb_norm. rewrite H1.
    assert (E : ~ (sum_incl 0 (Z.of_nat n - 1) (fun i : nat => w t i * IZR (x t i)) >= INR n))
      by (intro C; specialize (A1 C); discriminate).
    split; [lra | intros _; lra]."""
WINNOW_STEP_HINTS["demotion_sets_no_relevant_variable"] = r"""
  intros M n r t w x y Rel L Mon Cnt Hr [Ht0 [HtM Y0]].
  specialize (Mon ltac:(intros i Hi; specialize (Rel i ltac:(lia) ltac:(lia));
                        destruct (proj1 (L ltac:(lia)) i ltac:(lia)) as [E|E]; rewrite E in *; [lra | lia])).
  rewrite (Cnt ltac:(lia)), Z.mul_0_l in Mon. exact Mon."""
WINNOW_STEP_HINTS["demotion_keeps_beta_n"] = r"""
  intros M beta n r t w x y D U L Nn Mon Lin B [Ht0 [HtM Y0]].
  specialize (Mon ltac:(intros i Hi; change (INR 0) with 0;
      destruct (proj1 (L ltac:(lia)) i ltac:(lia)) as [X|X]; rewrite X;
      [ destruct (Nn ltac:(lia) i ltac:(lia)); lra
      | destruct (U ltac:(lia) i ltac:(lia)) as [_ [U2 _]]; rewrite (U2 (conj Y0 X)); lra ])).
  rewrite Lin, Z.mul_0_l in Mon. specialize (D ltac:(lia)). mb_split_hyps. nra."""
WINNOW_STEP_HINTS["promotion_keeps_irrelevant_weight"] = r"""
  intros M beta n r t w x y U L Nn Mon [Ht0 [HtM Y1]]. apply Rle_ge, Mon. intros i Hi.
  destruct (U ltac:(lia) i ltac:(lia)) as [U1 [_ U3]]. destruct (Nn ltac:(lia) i ltac:(lia)) as [P _].
  destruct (proj1 (L ltac:(lia)) i ltac:(lia)) as [X|X]; [rewrite (U3 X) | rewrite (U1 (conj Y1 X))]; lra."""
WINNOW_STEP_HINTS["demoted_weight_step"] = r"""
  intros M beta n r t w y D P Zy Y [Ht0 [HtM IH]] Hlt. rewrite (Zy ltac:(lia)) in Hlt.
  destruct (Y ltac:(lia)) as [Y0|Y1]; [apply D; lia|].
  specialize (IH ltac:(lia)). specialize (P ltac:(lia)). lra."""
WINNOW_STEP_HINTS["total_weight_in_units_of_n"] = r"""
  intros M i n r w x y [R1 [Pr [Lg [I1 [I2 [Sp [A0 [B0 [Pos Bb]]]]]]]]] Hn LA LB. rewrite LA, LB.
  assert (Hn' : 1 <= INR n) by (apply (le_INR 1); lia). mb_norm.
  split; [mb_scale_n n; lra | intro G; specialize (I2 G); mb_scale_n n; lra]."""
WINNOW_STEP_HINTS["weights_in_units_of_n"] = r"""
  intros M i n r w x y [R1 [Pr [Lg [I1 [I2 [Sp [A0 [B0 [Pos Bb]]]]]]]]] Hn LA LB. rewrite LA, LB.
  assert (Hn' : 1 <= INR n) by (apply (le_INR 1); lia).
  repeat split; first [ apply mb_div_pos; [lra | lra]
                      | intro G; apply mb_div_ge; [lra | exact (Bb G)]
                      | apply mb_div_pos2; [lra | rewrite <- Sp; apply Rgt_lt, Pos; lra] ]."""
WINNOW_STEP_HINTS["elimination_is_factor_0"] = r"""
  intros M n w x y H t Ht i Hi. destruct (H t Ht i Hi) as [U1 [U2 U3]].
  split; [exact U1 | split; [intro E; rewrite (U2 E); ring | exact U3]]."""
WINNOW_STEP_HINTS["mistake_bound_integer"] = r"""
  intros M n r w y H1 [I1 I2] [A0 [B0 [Bh Pos]]]. mb_norm.
  match type of H1 with IZR ?Y <= _ =>
    destruct (Z_lt_le_dec Y (Z.of_nat M)) as [L|L];
    [ specialize (Bh L); lra | apply IZR_le in L; rewrite <- INR_IZR_INZ in L; pose proof (pos_INR M); lra ] end."""
WINNOW_STEP_HINTS["relevant_doublings_at_most_lg_n"] = r"""
  intros M i l n r w x y [H _] P Mono Hn Hi. destruct (H Hi) as [W1 [W2 W3]]. mb_iR.
  match type of W2 with _ = pow2Z ?e =>
    assert (E : (e <= Z.of_nat l)%Z)
      by (destruct (Z_le_gt_dec e (Z.of_nat l)) as [|C]; [assumption | exfalso; specialize (Mono ltac:(lia)); lra]);
    split; [exact W1 | split; [exact E | intro G; assert (EE : e = Z.of_nat l) by lia;
                                rewrite W2, EE, Hn, mb_pow2_Z; lra]] end."""
WINNOW_STEP_HINTS["relevant_weight_in_units_of_n"] = r"""
  intros M i l n r w x y H Hn Hi. destruct (H Hi) as [W1 [E W3]].
  assert (1 <= INR n) by (apply (le_INR 1); lia).
  split; [apply Rlt_gt, Rmult_lt_0_compat; [apply Rdiv_lt_0_compat; lra | lra]
         | intro G; specialize (W3 G); apply mb_div_ge; [lra | lra]]."""
WINNOW_STEP_HINTS["relevant_variable_charge_halves"] = r"""
  intros M i l n r w x y H1 H2 Hi. destruct (H1 Hi) as [W1 [E W3]]. destruct (H2 Hi) as [V1 V2].
  split; [exact E | split; [exact V1|]]. mb_norm.
  match type of E with (?e <= _)%Z =>
    destruct (Z_ge_lt_dec e (Z.of_nat l)) as [G|G];
    [ specialize (V2 G); assert (Q : IZR e = INR l) by (rewrite INR_IZR_INZ; f_equal; lia); lra
    | assert (Q : (e <= Z.of_nat l - 1)%Z) by lia; apply IZR_le in Q; rewrite minus_IZR, <- INR_IZR_INZ in Q; lra ] end."""
WINNOW_STEP_HINTS["relevant_variable_charge_eliminates"] = WINNOW_STEP_HINTS["relevant_variable_charge_halves"]
WINNOW_STEP_HINTS["charge_summed_halves"] = r"""
  intros M l n r w x y Hall Lin Mon Cnt.
  specialize (Mon ltac:(intros i Hi; destruct (Hall i ltac:(lia) ltac:(lia)) as [_ [_ Hc]]; exact Hc)).
  rewrite (Cnt ltac:(lia)) in Mon. lra."""
WINNOW_STEP_HINTS["charge_summed_eliminates"] = WINNOW_STEP_HINTS["charge_summed_halves"]
WINNOW_STEP_HINTS["mistake_bound_pow2_halving"] = r"""
  intros M l n r w x y Hd [I1 I2] [A0 [B0 [Bh Pos]]] C Hl.
  assert (HL : 1 <= INR l) by (apply (le_INR 1); lia).
  match type of Hd with (?Y <= _)%Z =>
  mb_int_lt; apply IZR_le in Hd; mb_norm;
  destruct (Z_lt_le_dec Y (Z.of_nat M)) as [L1|L1];
  [ specialize (Bh L1); lra
  | destruct (Z_le_gt_dec 1 Y) as [L2|L2];
    [ specialize (I2 (Z.le_ge _ _ L2)); apply IZR_le in L1; rewrite <- INR_IZR_INZ in L1; lra
    | assert (M = 0)%nat by lia; subst M; simpl INR; pose proof (pos_INR r); nra ] ] end."""
WINNOW_STEP_HINTS["mistake_bound_pow2_elimination"] = r"""
  intros M l n r w x y Hd [I1 I2] [A0 [B0 Bh]] C Hl Hr.
  assert (HL : 1 <= INR l) by (apply (le_INR 1); lia). assert (HR : 1 <= INR r) by (apply (le_INR 1); lia).
  match type of Hd with (?Y <= _)%Z =>
  mb_int_lt; apply IZR_le in Hd; mb_norm;
  destruct (Z_le_gt_dec 1 Y) as [L2|L2];
  [ specialize (I2 (Z.le_ge _ _ L2)); lra
  | assert (L3 : (Y <= 0)%Z) by lia; apply IZR_le in L3; nra ] end."""
WINNOW_STEP_HINTS["mistake_bound_tight"] = r"""
  intros M l n r w x y Hd [I1 I2] [A0 [B0 [Bh Pos]]] C [S1 S2] Hr.
  match type of Hd with (?Y <= ?D)%Z =>
  assert (HRL : (Z.of_nat r <= Z.of_nat r * Z.of_nat l)%Z) by lia;
  destruct (Z_lt_le_dec Y (Z.of_nat M)) as [L1|L1];
  [ specialize (Bh L1); destruct (Z_le_gt_dec 1 Y) as [L2|L2];
    [ specialize (I2 (Z.le_ge _ _ L2)); mb_int_lt; apply IZR_le in Hd; mb_norm; lra
    | assert (L3 : (Y <= 0)%Z) by lia; assert (K1 : (1 <= Z.of_nat r * (3 * Z.of_nat l - 2))%Z) by nia;
      mb_int_lt; apply IZR_le in L3; apply IZR_le in Hd; apply IZR_le in K1; mb_norm; lra ]
  | nia ] end."""
WINNOW_STEP_HINTS["lg_n_is_l"] = r"""
intros l n H1 H2. rewrite H1. exact H2."""
WINNOW_STEP_HINTS["mistake_bound_in_lg_n"] = r"""
  intros M l n r H L. apply IZR_le in H. rewrite mult_INR in L. mb_norm. lra."""
WINNOW_STEP_HINTS["relevant_doublings_summed"] = r"""
  intros M l n r w x y Hall Hl M1 C1 M2 C2.
  specialize (M1 ltac:(intros i Hi; destruct (Hall i ltac:(lia) ltac:(lia)) as [E _]; exact E)).
  specialize (M2 ltac:(intros; lia)). rewrite (C1 ltac:(lia)) in M1. rewrite (C2 ltac:(lia)) in M2. split; nia."""
WINNOW_STEP_HINTS["weights_nonneg_at_start"] = r"""
  intros beta n w H i Hi. rewrite (H i Hi). split; intros; lra."""
WINNOW_STEP_HINTS["total_weight_after_M"] = r"""
  intros M beta n r w y Inv Nn Split MA MB Pt Hn Hr.
  destruct (Inv ltac:(lia)) as [I1 I2]. specialize (Nn ltac:(lia)).
  assert (Nw : forall i, (i < n)%nat -> w M i >= 0) by (intros i Hi; apply (proj1 (Nn i ltac:(lia)))).
  specialize (MA ltac:(intros i Hi; apply Nw; lia)). specialize (MB ltac:(intros i Hi; apply Nw; lia)).
  specialize (Pt ltac:(split; [intros i Hi; apply Nw; lia | lia])). specialize (Split ltac:(lia)).
  repeat split; try assumption. intro Bp. destruct (Nn 0%nat ltac:(lia)) as [_ P0]. specialize (P0 Bp). lra."""
WINNOW_STEP_HINTS["demotion_is_irrelevant_weight"] = r"""
  intros M n r t w x y D Split Act Hr [Ht0 [HtM Y0]]. specialize (D ltac:(lia)). specialize (Split ltac:(lia)).
  destruct (Act ltac:(lia)) as [_ A2]. specialize (A2 Y0). lra."""
WINNOW_STEP_HINTS["total_weight_conclusion"] = r"""
  intros M beta n r w y [I1 [I2 [I3 [I4 [I5 I6]]]]] H2.
  repeat split; try assumption. exact (H2 ltac:(lia))."""
