(** * Winnow's mistake bounds: Blum's Theorem 5 (halving, 2 + 3r(1 + lg n)) and the elimination
    variant (1 + 2r(1 + lg n)), the integer form 1 + 3r(1 + lg n), the n = 2^l forms
    1 + r(3 lg n - 2) and r(2 lg n - 1), the tight r(3 lg n - 2), and the three boundary errata
    replayed by [vm_compute] on the rational learner. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners Mistakebound.LearnersBridge Mistakebound.WinnowCore.
Open Scope R_scope.

Definition halving_mistakes (n : nat) (ex : list ((nat -> bool) * bool)) : nat :=
  winnow_mistakes (winnow_halving RN n ex).
Definition elimination_mistakes (n : nat) (ex : list ((nat -> bool) * bool)) : nat :=
  winnow_mistakes (winnow_elimination RN n ex).

Lemma ln2_pos : 0 < ln 2.
Proof. rewrite <- ln_1. apply ln_increasing; lra. Qed.

Lemma lg_pow2 (l : nat) : lg (INR (2 ^ l)) = INR l.
Proof.
  unfold lg. rewrite pow_INR. simpl (INR 2). replace (1 + 1) with 2 by ring.
  rewrite ln_pow by lra. field. pose proof ln2_pos. lra.
Qed.

Lemma lg_nonneg (n : nat) : (1 <= n)%nat -> 0 <= lg (INR n).
Proof.
  intros Hn. unfold lg. apply div_nonneg; [|apply ln2_pos].
  destruct (Nat.eq_dec n 1) as [->|Ne]; [simpl; rewrite ln_1; lra|].
  left. rewrite <- ln_1. apply ln_increasing; [lra|]. apply (lt_INR 1); lia.
Qed.

(** A relevant weight 2^p < 2n: p < 1 + lg n. *)
Lemma exponent_below (n p : nat) : (1 <= n)%nat -> 2 ^ p < 2 * INR n -> INR p < 1 + lg (INR n).
Proof.
  intros Hn H. assert (Hn' : 0 < INR n) by (apply (lt_INR 0); lia).
  pose proof ln2_pos.
  assert (ln (2 ^ p) < ln (2 * INR n)) by (apply ln_increasing; [apply pow_lt; lra|exact H]).
  rewrite ln_pow, ln_mult in H1 by lra. unfold lg.
  apply Rmult_lt_reg_r with (ln 2); [exact H0|]. unfold Rdiv. rewrite Rmult_plus_distr_r, Rmult_assoc, Rinv_l by lra. lra.
Qed.

Lemma exponent_below_pow2 (n l p : nat) : n = (2 ^ l)%nat -> 2 ^ p < 2 * INR n -> (p <= l)%nat.
Proof.
  intros -> H. rewrite pow_INR in H. simpl (INR 2) in H. replace (1 + 1) with 2 in H by ring.
  change (2 * 2 ^ l) with (2 ^ S l) in H. apply pow2_lt_inv in H. lia.
Qed.

(** What the invariant gives at the end of a run. *)
Lemma promotions_bound n t c w F D :
  (1 <= n)%nat -> winv n t c w F D -> INR F <= INR (count_lt n t) * (1 + lg (INR n)).
Proof.
  intros Hn (_ & _ & _ & _ & _ & p & Hp & HF & _).
  eapply Rle_trans; [exact HF|]. rewrite <- relsum_const. apply relsum_le.
  intros i Hi Ti. left. apply exponent_below; [exact Hn|apply (Hp i Hi Ti)].
Qed.

Lemma promotions_bound_pow2 n l t c w F D :
  n = (2 ^ l)%nat -> winv n t c w F D -> (F <= count_lt n t * l)%nat.
Proof.
  intros Hnl (_ & _ & _ & _ & _ & p & Hp & HF & _).
  apply INR_le. rewrite mult_INR. eapply Rle_trans; [exact HF|]. rewrite <- relsum_const. apply relsum_le.
  intros i Hi Ti. apply le_INR. apply (exponent_below_pow2 n l); [exact Hnl|apply (Hp i Hi Ti)].
Qed.

Lemma total_weight_pos n t c w F D : (1 <= n)%nat -> 0 < c -> winv n t c w F D -> 0 < sum_lt n w.
Proof.
  intros Hn Hc (Hnn & Hpos & _). apply Rlt_le_trans with (w 0%nat); [apply Hpos; auto; lia|].
  apply (sum_lt_ge_term n w 0%nat); [|lia]. exact Hnn.
Qed.

Lemma demotions_halving n t w F D : (1 <= n)%nat -> winv n t (half RN) w F D -> (D <= 1 + 2 * F)%nat.
Proof.
  intros Hn Hi. assert (Hh : half RN = / 2) by (unfold half; simpl; f_equal; ring).
  assert (0 < half RN) by (rewrite Hh; lra).
  pose proof (total_weight_pos n t _ w F D Hn H Hi) as W.
  destruct Hi as (_ & _ & HW & _). rewrite Hh in HW. assert (Hn' : 1 <= INR n) by (apply (le_INR 1); lia).
  assert (INR D < 2 + 2 * INR F).
  { apply Rmult_lt_reg_l with (INR n / 2); [lra|]. nra. }
  apply Nat.lt_succ_r. apply INR_lt. rewrite S_INR, plus_INR, mult_INR. simpl. lra.
Qed.

Lemma demotions_elimination n t w F D : (1 <= n)%nat -> winv n t 0 w F D -> (D <= 1 + F)%nat.
Proof.
  intros Hn (Hnn & _ & HW & _). assert (Hn' : 1 <= INR n) by (apply (le_INR 1); lia).
  pose proof (sum_lt_nonneg n w Hnn).
  assert (INR D <= 1 + INR F) by (apply Rmult_le_reg_l with (INR n); nra).
  apply INR_le. rewrite plus_INR. simpl. lra.
Qed.

Lemma demotions_elimination_strict n t w F D : (1 <= n)%nat -> (1 <= F)%nat -> winv n t 0 w F D -> (D <= F)%nat.
Proof.
  intros Hn HF (Hnn & _ & _ & HWs & _). specialize (HWs HF). assert (Hn' : 1 <= INR n) by (apply (le_INR 1); lia).
  pose proof (sum_lt_nonneg n w Hnn).
  assert (INR D < 1 + INR F) by (apply Rmult_lt_reg_l with (INR n); nra).
  apply Nat.lt_succ_r. apply INR_lt. rewrite S_INR. lra.
Qed.

Lemma run_counts_halving n t ex : (1 <= n)%nat -> consistent n t ex ->
  exists w, winv n t (half RN) w (fn_count (winnow_halving RN n ex)) (fp_count (winnow_halving RN n ex)).
Proof.
  intros Hn Hc. apply winnow_run_winv; auto. unfold half; simpl.
  split; [left; apply Rinv_0_lt_compat; lra|]. rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
Qed.

Lemma run_counts_elimination n t ex : (1 <= n)%nat -> consistent n t ex ->
  exists w, winv n t 0 w (fn_count (winnow_elimination RN n ex)) (fp_count (winnow_elimination RN n ex)).
Proof. intros Hn Hc. apply (winnow_run_winv n t 0 ex); auto. lra. Qed.

(** ** Blum's bounds and the integer form *)
Lemma bound_halving_integer (n : nat) (t : nat -> bool) (w : nat -> R) (F D : nat) :
  (1 <= n)%nat -> winv n t (half RN) w F D -> INR (F + D) <= 1 + 3 * INR (count_lt n t) * (1 + lg (INR n)).
Proof.
  intros Hn Hw.
  pose proof (promotions_bound _ _ _ _ _ _ Hn Hw) as HP. pose proof (demotions_halving _ _ _ _ _ Hn Hw) as HD.
  apply le_INR in HD. rewrite plus_INR, mult_INR in HD. simpl in HD. rewrite plus_INR. lra.
Qed.

Lemma bound_elimination (n : nat) (t : nat -> bool) (w : nat -> R) (F D : nat) :
  (1 <= n)%nat -> winv n t 0 w F D -> INR (F + D) <= 1 + 2 * INR (count_lt n t) * (1 + lg (INR n)).
Proof.
  intros Hn Hw.
  pose proof (promotions_bound _ _ _ _ _ _ Hn Hw) as HP. pose proof (demotions_elimination _ _ _ _ _ Hn Hw) as HD.
  apply le_INR in HD. rewrite plus_INR in HD. simpl in HD. rewrite plus_INR. lra.
Qed.

Theorem winnow_halving_bound_integer (n : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)) :
  (1 <= n)%nat -> consistent n t ex ->
  INR (halving_mistakes n ex) <= 1 + 3 * INR (count_lt n t) * (1 + lg (INR n)).
Proof.
  intros Hn Hc. destruct (run_counts_halving n t ex Hn Hc) as [w Hw].
  unfold halving_mistakes. rewrite mistakes_split. exact (bound_halving_integer n t w _ _ Hn Hw).
Qed.

Theorem winnow_halving_bound (n : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)) :
  (1 <= n)%nat -> consistent n t ex ->
  INR (halving_mistakes n ex) <= 2 + 3 * INR (count_lt n t) * (1 + lg (INR n)).
Proof. intros Hn Hc. pose proof (winnow_halving_bound_integer n t ex Hn Hc). lra. Qed.

Theorem winnow_elimination_bound (n : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)) :
  (1 <= n)%nat -> consistent n t ex ->
  INR (elimination_mistakes n ex) <= 1 + 2 * INR (count_lt n t) * (1 + lg (INR n)).
Proof.
  intros Hn Hc. destruct (run_counts_elimination n t ex Hn Hc) as [w Hw].
  unfold elimination_mistakes. rewrite mistakes_split. exact (bound_elimination n t w _ _ Hn Hw).
Qed.

(** ** n = 2^l: the tight bound and the elimination bound, by the potential Phi *)
Lemma Phi_zero n l t : INR n = 2 ^ l ->
  INR n - INR (count_lt n t) + INR (count_lt n t) * phi n l 0 = INR n + INR (count_lt n t) * INR n * (INR l - 1).
Proof. intros Hl. rewrite (phi_zero n l Hl). ring. Qed.

Lemma relsum_phi_nonneg n l t p : INR n = 2 ^ l -> 0 <= relsum n t (fun i => phi n l (p i)).
Proof. intros Hl. apply relsum_nonneg. intros; apply phi_nonneg; exact Hl. Qed.

Lemma Isum_nonneg n t w : (forall i, (i < n)%nat -> 0 <= w i) -> 0 <= Isum n t w.
Proof. intros H. apply sum_lt_nonneg. intros i Hi. destruct (t i); [lra|auto]. Qed.

Lemma pow2_INR (l : nat) : INR (2 ^ l) = 2 ^ l.
Proof. rewrite pow_INR. replace (INR 2) with 2 by (simpl; ring). reflexivity. Qed.

Lemma bound_halving_pow2_tight (n l : nat) (t : nat -> bool) (w : nat -> R) (F D : nat) :
  n = (2 ^ l)%nat -> (1 <= l)%nat -> (1 <= count_lt n t)%nat -> winv n t (half RN) w F D ->
  INR (F + D) <= INR (count_lt n t) * (3 * lg (INR n) - 2).
Proof.
  intros Hnl Hl Hr Hw.
  assert (Hn : (1 <= n)%nat) by (subst n; pose proof (Nat.pow_le_mono_r 2 0 l ltac:(lia) ltac:(lia)); simpl in *; lia).
  assert (HnR : INR n = 2 ^ l) by (subst n; apply pow2_INR).
  assert (Hlg : lg (INR n) = INR l) by (subst n; apply lg_pow2).
  rewrite Hlg.
  pose proof (promotions_bound_pow2 n l t _ w F D Hnl Hw) as HP.
  assert (Hh : half RN = / 2) by (unfold half; simpl; f_equal; ring).
  destruct Hw as (Hnn & _ & _ & _ & HI & p & Hp & HF & HF0 & HPhi).
  rewrite Hh in HI, HPhi. destruct (HPhi l HnR) as [Phi1 Phi2]. rewrite Phi_zero in Phi1, Phi2 by exact HnR.
  pose proof (relsum_phi_nonneg n l t p HnR) as Hphi. pose proof (Isum_nonneg n t w Hnn) as HIn.
  assert (Hn2 : 2 <= INR n) by (rewrite HnR; pose proof (Rle_pow 2 1 l ltac:(lra) Hl) as Q; rewrite pow_1 in Q; exact Q).
  assert (HrR : 1 <= INR (count_lt n t)) by (apply (le_INR 1); exact Hr). assert (HlR : 1 <= INR l) by (apply (le_INR 1); exact Hl).
  apply le_INR in HP. rewrite mult_INR in HP. rewrite plus_INR. set (r := count_lt n t) in *.
  destruct D as [|D'].
  - (* no false positive: M = F <= r l <= r (3l - 2) *)
    simpl. nra.
  - assert (HI' : / 2 * INR n <= Isum n t w) by (apply HI; lia).
    destruct F as [|F'].
    + (* no promotion at all: every relevant weight is still 1 *)
      exfalso.
      assert (E : relsum n t (fun i => phi n l (p i)) = INR r * phi n l 0).
      { unfold r. rewrite <- relsum_const. unfold relsum. apply sum_lt_ext. intros i Hi.
        destruct (t i) eqn:Ti; [rewrite (HF0 eq_refl i Hi Ti)|]; reflexivity. }
      rewrite E, (phi_zero n l HnR) in Phi1. rewrite S_INR in Phi1. pose proof (pos_INR D'). nra.
    + specialize (Phi2 ltac:(lia)).
      (* n/2 + D n/2 < n + r n (l - 1), so D <= 2 r (l - 1) *)
      assert (HD : INR (S D') < 1 + 2 * INR r * (INR l - 1)).
      { apply Rmult_lt_reg_l with (INR n / 2); [lra|]. nra. }
      assert (HDn : (S D' <= 2 * r * (l - 1))%nat).
      { apply Nat.lt_succ_r. apply INR_lt. rewrite !S_INR, !mult_INR, minus_INR by lia. simpl (INR 2).
        rewrite S_INR in HD. simpl (INR 1). lra. }
      apply le_INR in HDn. rewrite !mult_INR, minus_INR in HDn by lia. simpl (INR 2) in HDn. simpl (INR 1) in HDn.
      nra.
Qed.

Theorem winnow_halving_pow2_tight (n l : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)) :
  n = (2 ^ l)%nat -> (1 <= l)%nat -> (1 <= count_lt n t)%nat -> consistent n t ex ->
  INR (halving_mistakes n ex) <= INR (count_lt n t) * (3 * lg (INR n) - 2).
Proof.
  intros Hnl Hl Hr Hc.
  assert (Hn : (1 <= n)%nat) by (subst n; pose proof (Nat.pow_le_mono_r 2 0 l ltac:(lia) ltac:(lia)); simpl in *; lia).
  destruct (run_counts_halving n t ex Hn Hc) as [w Hw].
  unfold halving_mistakes. rewrite mistakes_split. exact (bound_halving_pow2_tight n l t w _ _ Hnl Hl Hr Hw).
Qed.

Lemma bound_elimination_pow2 (n l : nat) (t : nat -> bool) (w : nat -> R) (F D : nat) :
  n = (2 ^ l)%nat -> (1 <= l)%nat -> (1 <= count_lt n t)%nat -> winv n t 0 w F D ->
  INR (F + D) <= INR (count_lt n t) * (2 * lg (INR n) - 1).
Proof.
  intros Hnl Hl Hr Hw.
  assert (Hn : (1 <= n)%nat) by (subst n; pose proof (Nat.pow_le_mono_r 2 0 l ltac:(lia) ltac:(lia)); simpl in *; lia).
  assert (HnR : INR n = 2 ^ l) by (subst n; apply pow2_INR).
  assert (Hlg : lg (INR n) = INR l) by (subst n; apply lg_pow2).
  rewrite Hlg.
  pose proof (promotions_bound_pow2 n l t _ w F D Hnl Hw) as HP.
  destruct Hw as (Hnn & _ & _ & _ & _ & p & Hp & HF & HF0 & HPhi).
  destruct (HPhi l HnR) as [Phi1 Phi2]. rewrite Phi_zero in Phi1, Phi2 by exact HnR.
  pose proof (relsum_phi_nonneg n l t p HnR) as Hphi. pose proof (Isum_nonneg n t w Hnn) as HIn.
  assert (Hn2 : 2 <= INR n) by (rewrite HnR; pose proof (Rle_pow 2 1 l ltac:(lra) Hl) as Q; rewrite pow_1 in Q; exact Q).
  assert (HrR : 1 <= INR (count_lt n t)) by (apply (le_INR 1); exact Hr). assert (HlR : 1 <= INR l) by (apply (le_INR 1); exact Hl).
  apply le_INR in HP. rewrite mult_INR in HP. rewrite plus_INR. set (r := count_lt n t) in *.
  destruct F as [|F'].
  - (* no promotion: the relevant charge is untouched, so n D <= n - r < n and D = 0 *)
    assert (E : relsum n t (fun i => phi n l (p i)) = INR r * phi n l 0).
    { unfold r. rewrite <- relsum_const. unfold relsum. apply sum_lt_ext. intros i Hi.
      destruct (t i) eqn:Ti; [rewrite (HF0 eq_refl i Hi Ti)|]; reflexivity. }
    rewrite E, (phi_zero n l HnR) in Phi1.
    assert (INR D < 1) by (apply Rmult_lt_reg_l with (INR n); nra).
    assert (D = 0%nat) by (change 1 with (INR 1) in H; apply INR_lt in H; lia). rewrite H0. simpl. nra.
  - specialize (Phi2 ltac:(lia)).
    assert (HD : INR D < 1 + INR r * (INR l - 1)) by (apply Rmult_lt_reg_l with (INR n); nra).
    assert (HDn : (D <= r * (l - 1))%nat).
    { apply Nat.lt_succ_r. apply INR_lt. rewrite !S_INR, !mult_INR, minus_INR by lia. simpl (INR 1). lra. }
    apply le_INR in HDn. rewrite !mult_INR, minus_INR in HDn by lia. simpl (INR 1) in HDn. nra.
Qed.

Theorem winnow_elimination_pow2 (n l : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)) :
  n = (2 ^ l)%nat -> (1 <= l)%nat -> (1 <= count_lt n t)%nat -> consistent n t ex ->
  INR (elimination_mistakes n ex) <= INR (count_lt n t) * (2 * lg (INR n) - 1).
Proof.
  intros Hnl Hl Hr Hc.
  assert (Hn : (1 <= n)%nat) by (subst n; pose proof (Nat.pow_le_mono_r 2 0 l ltac:(lia) ltac:(lia)); simpl in *; lia).
  destruct (run_counts_elimination n t ex Hn Hc) as [w Hw].
  unfold elimination_mistakes. rewrite mistakes_split. exact (bound_elimination_pow2 n l t w _ _ Hnl Hl Hr Hw).
Qed.

Lemma bound_halving_pow2 (n l : nat) (t : nat -> bool) (w : nat -> R) (F D : nat) :
  n = (2 ^ l)%nat -> (1 <= l)%nat -> winv n t (half RN) w F D ->
  INR (F + D) <= 1 + INR (count_lt n t) * (3 * lg (INR n) - 2).
Proof.
  intros Hnl Hl Hw.
  assert (Hn : (1 <= n)%nat) by (subst n; pose proof (Nat.pow_le_mono_r 2 0 l ltac:(lia) ltac:(lia)); simpl in *; lia).
  destruct (count_lt n t) as [|r'] eqn:Er.
  - (* no relevant variable: no false negative, and at most one false positive *)
    pose proof (promotions_bound_pow2 n l t _ w _ _ Hnl Hw) as HP. rewrite Er in HP. simpl in HP.
    pose proof (demotions_halving _ _ _ _ _ Hn Hw) as HD. assert (E0 : F = 0%nat) by lia.
    rewrite E0 in HD |- *. simpl in HD. apply le_INR in HD. rewrite plus_INR. simpl (INR 0). simpl (INR 1) in HD.
    rewrite Rmult_0_l, Rplus_0_l, Rplus_0_r. exact HD.
  - pose proof (bound_halving_pow2_tight n l t w F D Hnl Hl ltac:(rewrite Er; lia) Hw) as T. rewrite Er in T. lra.
Qed.

Theorem winnow_halving_pow2 (n l : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)) :
  n = (2 ^ l)%nat -> (1 <= l)%nat -> consistent n t ex ->
  INR (halving_mistakes n ex) <= 1 + INR (count_lt n t) * (3 * lg (INR n) - 2).
Proof.
  intros Hnl Hl Hc.
  assert (Hn : (1 <= n)%nat) by (subst n; pose proof (Nat.pow_le_mono_r 2 0 l ltac:(lia) ltac:(lia)); simpl in *; lia).
  destruct (run_counts_halving n t ex Hn Hc) as [w Hw].
  unfold halving_mistakes. rewrite mistakes_split. exact (bound_halving_pow2 n l t w _ _ Hnl Hl Hw).
Qed.

(** ** The errata, replayed on the rational learner *)
Definition vecB (l : list bool) : nat -> bool := fun i => nth i l false.

Lemma winnow_mistakes_map {A B : Num} (h : Hom A B) (run : list (wstep A)) :
  winnow_mistakes (map (map_wstep h) run) = winnow_mistakes run.
Proof.
  unfold winnow_mistakes, count_true. induction run as [|s r IH]; [reflexivity|].
  simpl. destruct (ws_mistake s); simpl; rewrite ?IH; reflexivity.
Qed.

Lemma halving_mistakes_Q n ex : halving_mistakes n ex = winnow_mistakes (winnow_halving QN n ex).
Proof.
  unfold halving_mistakes, winnow_halving.
  rewrite <- (winnow_mistakes_map Q2R_hom). rewrite <- winnow_run_hom. f_equal. f_equal.
  - unfold two. rewrite (hadd Q2R_hom), (h1 Q2R_hom). reflexivity.
  - unfold half. rewrite (hinv Q2R_hom), (hadd Q2R_hom), (h1 Q2R_hom). reflexivity.
  - rewrite (hom_nof_nat Q2R_hom). reflexivity.
  - apply functional_extensionality; intro; rewrite (h1 Q2R_hom); reflexivity.
Qed.

Lemma elimination_mistakes_Q n ex : elimination_mistakes n ex = winnow_mistakes (winnow_elimination QN n ex).
Proof.
  unfold elimination_mistakes, winnow_elimination.
  rewrite <- (winnow_mistakes_map Q2R_hom). rewrite <- winnow_run_hom. f_equal. f_equal.
  - unfold two. rewrite (hadd Q2R_hom), (h1 Q2R_hom). reflexivity.
  - rewrite (h0 Q2R_hom). reflexivity.
  - rewrite (hom_nof_nat Q2R_hom). reflexivity.
  - apply functional_extensionality; intro; rewrite (h1 Q2R_hom); reflexivity.
Qed.

(** n = 2, r = 0 (the target is always 0), x = (1, 1): w.x = 2 >= 2 predicts 1, a mistake. *)
Definition r0_example : list ((nat -> bool) * bool) := (vecB (true :: true :: nil), false) :: nil.
Definition r0_target : nat -> bool := fun _ => false.

Lemma r0_replay_halving : winnow_mistakes (winnow_halving QN 2 r0_example) = 1%nat.
Proof. vm_compute. reflexivity. Qed.
Lemma r0_replay_elimination : winnow_mistakes (winnow_elimination QN 2 r0_example) = 1%nat.
Proof. vm_compute. reflexivity. Qed.

Lemma r0_consistent : consistent 2 r0_target r0_example.
Proof. intros x lab [E|[]]. inversion E. reflexivity. Qed.

Theorem erratum_winnow_pow2_elimination_r0 :
  ~ (forall (n l : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)),
       n = (2 ^ l)%nat -> (1 <= l)%nat -> consistent n t ex ->
       INR (elimination_mistakes n ex) <= INR (count_lt n t) * (2 * lg (INR n) - 1)).
Proof.
  intros H. specialize (H 2%nat 1%nat r0_target r0_example eq_refl (le_n 1) r0_consistent).
  rewrite elimination_mistakes_Q, r0_replay_elimination in H. simpl in H. lra.
Qed.

Theorem erratum_winnow_pow2_tight_r0 :
  ~ (forall (n l : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)),
       n = (2 ^ l)%nat -> (1 <= l)%nat -> consistent n t ex ->
       INR (halving_mistakes n ex) <= INR (count_lt n t) * (3 * lg (INR n) - 2)).
Proof.
  intros H. specialize (H 2%nat 1%nat r0_target r0_example eq_refl (le_n 1) r0_consistent).
  rewrite halving_mistakes_Q, r0_replay_halving in H. simpl in H. lra.
Qed.

(** n = 1 (l = 0), r = 1: the bound 1 + r(3 lg 1 - 2) = -1 is below every mistake count. *)
Definition n1_example : list ((nat -> bool) * bool) := (vecB (true :: nil), true) :: nil.
Definition n1_target : nat -> bool := fun i => Nat.eqb i 0.

Lemma n1_replay : winnow_mistakes (winnow_halving QN 1 n1_example) = 0%nat.
Proof. vm_compute. reflexivity. Qed.

Lemma n1_consistent : consistent 1 n1_target n1_example.
Proof. intros x lab [E|[]]. inversion E. reflexivity. Qed.

Theorem erratum_winnow_pow2_halving_n1 :
  ~ (forall (n l : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)),
       n = (2 ^ l)%nat -> consistent n t ex ->
       INR (halving_mistakes n ex) <= 1 + INR (count_lt n t) * (3 * lg (INR n) - 2)).
Proof.
  intros H. specialize (H 1%nat 0%nat n1_target n1_example eq_refl n1_consistent).
  rewrite halving_mistakes_Q, n1_replay in H.
  replace (INR 1) with (INR (2 ^ 0)) in H by reflexivity. rewrite lg_pow2 in H. simpl in H. lra.
Qed.
