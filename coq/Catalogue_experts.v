(** * Catalogue: prediction with expert advice — Halving (Shalev-Shwartz 2012, sec. 1.2; Blum's
    15-859 notes), Weighted Majority and its randomized form (Littlestone & Warmuth 1994, Thm 2.1 and
    sec. 5), the two-experts lower bound (Cesa-Bianchi & Lugosi 2006, ch. 2) — at the statements
    printed from the catalogue's formulas. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Import Mistakebound.WinnowAbstract Mistakebound.Statements.
Require Import Reals Lra Lia.
Open Scope R_scope.

Lemma ln2_pos : 0 < ln 2.
Proof. rewrite <- ln_1. apply ln_increasing; lra. Qed.

(** lg is the inverse of 2^M on the naturals: 2^M <= N gives M <= lg N. *)
Lemma le_lg_of_pow (M : nat) (N : R) : 2 ^ M <= N -> INR M <= lg N.
Proof.
  intros H. pose proof ln2_pos as L. assert (P : 0 < 2 ^ M) by (apply pow_lt; lra).
  assert (H2 : ln (2 ^ M) <= ln N).
  { destruct (Rle_lt_or_eq_dec _ _ H) as [Lt|Eq]; [left; apply ln_increasing; assumption|rewrite Eq; lra]. }
  clear H. rename H2 into H. rewrite ln_pow in H by lra.
  unfold lg, Rdiv. apply Rmult_le_reg_r with (ln 2); [exact L|].
  rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. exact H.
Qed.

Lemma lg_2 : lg 2 = 1.
Proof. unfold lg. field. pose proof ln2_pos. lra. Qed.

Lemma lg_1 : lg 1 = 0.
Proof. unfold lg. rewrite ln_1. field. pose proof ln2_pos. lra. Qed.

(** Halving: every mistake keeps at most half of the version space V, which never loses the target. *)
Theorem halving_bound : halving_bound_statement.
Proof.
  intros M N V a c H0 Hs Hc Hv HM.
  assert (I : forall k, (k <= M)%nat -> 2 ^ k * IZR (V k) <= INR N).
  { induction k as [|k IH]; intros Hk.
    - rewrite H0, <- INR_IZR_INZ. simpl. lra.
    - destruct (Hs k ltac:(lia)) as (E & Ea & Ec). pose proof (Hc k ltac:(lia)) as C.
      pose proof (Hv k ltac:(lia)) as D. rewrite Nat.add_1_r in D.
      apply IZR_le in C. apply Z.ge_le, IZR_le in Ea. apply IZR_le in D.
      apply (f_equal IZR) in E. rewrite plus_IZR in E.
      specialize (IH ltac:(lia)). assert (P : 0 <= 2 ^ k) by (apply pow_le; lra).
      simpl. apply Rle_trans with (2 ^ k * IZR (V k)); [|exact IH].
      replace (2 * 2 ^ k * IZR (V (S k))) with (2 ^ k * (2 * IZR (V (S k)))) by ring.
      apply Rmult_le_compat_l; [exact P|]. lra. }
  specialize (I M (le_n M)). apply Z.ge_le, IZR_le in HM.
  apply le_lg_of_pow. assert (P : 0 < 2 ^ M) by (apply pow_lt; lra).
  apply Rle_trans with (2 ^ M * IZR (V M)); [|exact I].
  rewrite <- (Rmult_1_r (2 ^ M)) at 1. apply Rmult_le_compat_l; lra.
Qed.

(** |H| = 2 and one mistake: the bound lg |H| = 1 is attained, so "M < lg |H|" is false. *)
Theorem erratum_halving_strict : ~ erratum_halving_strict_statement.
Proof.
  intros H.
  specialize (H 1%nat 2%nat (fun k => if Nat.eqb k 0 then 2%Z else 1%Z) (fun _ => 1%Z) (fun _ => 1%Z)).
  assert (X : INR 1 < lg (INR 2)).
  { apply H; [reflexivity | | |
            | simpl; lia];
    intros k Hk; replace k with 0%nat by lia; simpl; lia. }
  simpl in X. replace (1 + 1) with 2 in X by ring. rewrite lg_2 in X. lra.
Qed.

(** |H| = 1 and a hypothesis inconsistent with the label: one mistake, lg |H| = 0. *)
Theorem erratum_halving_unrealizable : ~ erratum_halving_unrealizable_statement.
Proof.
  intros H.
  specialize (H 1%nat 1%nat (fun k => if Nat.eqb k 0 then 1%Z else 0%Z) (fun _ => 1%Z) (fun _ => 0%Z)).
  assert (X : INR 1 <= lg (INR 1)).
  { apply H; [reflexivity | | | ]; intros k Hk; replace k with 0%nat by lia; simpl; lia. }
  simpl in X. rewrite lg_1 in X. lra.
Qed.

Theorem exp_monotone : exp_monotone_statement.
Proof.
  intros a b. split; intros H.
  - destruct (Rle_or_lt a b) as [|L]; [assumption|]. apply exp_increasing in L. lra.
  - destruct (Req_dec a b) as [E|E]; [subst; lra|]. left. apply exp_increasing. lra.
Qed.

(** The adversary labels every step against the learner: each step is a mistake, and the two
    experts (always +1, always -1) share the T steps between them. *)
Theorem two_experts_lower_bound : two_experts_lower_bound_statement.
Proof.
  intros T p y Hp Hy. rewrite !sum_incl_first.
  replace (sum_lt T (fun s => (1 - y s * p s) / 2))
    with (sum_lt T (fun s => (1 - y s) / 2) + sum_lt T (fun s => (1 + y s) / 2)).
  - pose proof (Rmin_l (sum_lt T (fun s => (1 - y s) / 2)) (sum_lt T (fun s => (1 + y s) / 2))).
    pose proof (Rmin_r (sum_lt T (fun s => (1 - y s) / 2)) (sum_lt T (fun s => (1 + y s) / 2))).
    lra.
  - rewrite <- sum_lt_add. apply sum_lt_ext. intros i Hi.
    pose proof (Hp i ltac:(lia)) as P. rewrite (Hy i ltac:(lia)). nra.
Qed.

(** ** Weighted Majority and its randomized form *)

Lemma IZR_zsum_lt n f : IZR (zsum_lt n f) = sum_lt n (fun i => IZR (f i)).
Proof. induction n as [|n IH]; simpl; [reflexivity|]. rewrite plus_IZR, IH. reflexivity. Qed.

Lemma exp_gt1_pos a : 1 < exp a -> 0 < a.
Proof.
  intros H. destruct (Rlt_or_le 0 a) as [|L]; [assumption|]. exfalso.
  destruct (Rle_lt_or_eq_dec _ _ L) as [Lt|Eq].
  - apply exp_increasing in Lt. rewrite exp_0 in Lt. lra.
  - rewrite Eq, exp_0 in H. lra.
Qed.

Lemma exp_le_inv' a b : exp a <= exp b -> a <= b.
Proof. intros H. destruct (Rle_or_lt a b) as [|L]; [assumption|]. apply exp_increasing in L. lra. Qed.

(** A weight that keeps at most exp(-r t) of itself at each step: W T <= W 0 exp(-sum r). *)
Lemma weight_decay (T : nat) (W r : nat -> R) :
  0 <= W 0%nat -> (forall t, (t < T)%nat -> 0 <= W t -> 0 <= W (S t) /\ W (S t) <= exp (- r t) * W t) ->
  forall t, (t <= T)%nat -> 0 <= W t /\ W t <= W 0%nat * exp (- sum_lt t r).
Proof.
  intros H0 HS. induction t as [|t IH]; intros Ht.
  - simpl. rewrite Ropp_0, exp_0. lra.
  - destruct (IH ltac:(lia)) as [P Q]. destruct (HS t ltac:(lia) P) as [P' Q']. split; [exact P'|].
    simpl. rewrite Ropp_plus_distr, exp_plus.
    apply Rle_trans with (exp (- r t) * W t); [exact Q'|].
    replace (W 0%nat * (exp (- sum_lt t r) * exp (- r t))) with (exp (- r t) * (W 0%nat * exp (- sum_lt t r))) by ring.
    apply Rmult_le_compat_l; [left; apply exp_pos | exact Q].
Qed.

(** Both expert bounds: the best expert's weight exp(-ln(1/beta) m) stays inside the total weight,
    which keeps at most exp(-r t) of itself at step t: so sum r <= m ln(1/beta) + ln n. *)
Lemma experts_core (T n : nat) (W v F r : nat -> R) (e : nat -> Z) (beta lib ln_n : R) :
  (beta > 0 /\ beta < 1) -> exp lib * beta = 1 -> exp ln_n = INR n -> W 0%nat = INR n -> v 0%nat = 1 ->
  (forall t, (0 <= t)%nat /\ (t < T)%nat -> W (t + 1)%nat = (1 - (1 - beta) * F t) * W t) ->
  (forall t, (0 <= t)%nat /\ (t < T)%nat -> F t >= 0 /\ F t <= 1) ->
  (forall t, (0 <= t)%nat /\ (t < T)%nat ->
     (e t = 0%Z \/ e t = 1%Z) /\ v (t + 1)%nat = (1 - (1 - beta) * IZR (e t)) * v t) ->
  v T <= W T ->
  (forall t, (t < T)%nat -> 1 - (1 - beta) * F t <= exp (- r t)) ->
  sum_lt T r <= lib * IZR (zsum_lt T e) + ln_n.
Proof.
  intros Hb Hlib Hln HW0 Hv0 HW HF He HvW Hr.
  assert (Eb : exp (- lib) = beta).
  { rewrite exp_Ropp. pose proof (exp_pos lib). field_simplify_eq; [lra | lra]. }
  assert (V : forall t, (t <= T)%nat -> v t = exp (- lib * IZR (zsum_lt t e))).
  { induction t as [|t IH]; intros Ht.
    - simpl. rewrite Rmult_0_r, exp_0. exact Hv0.
    - destruct (He t ltac:(lia)) as [[E|E] Ev]; rewrite Nat.add_1_r in Ev; rewrite Ev, IH by lia;
        simpl; rewrite E, plus_IZR; simpl.
      + replace (- lib * (IZR (zsum_lt t e) + 0)) with (- lib * IZR (zsum_lt t e)) by ring. ring.
      + replace (- lib * (IZR (zsum_lt t e) + 1)) with (- lib * IZR (zsum_lt t e) + - lib) by ring.
        rewrite exp_plus, Eb. ring. }
  assert (HS : forall t, (t < T)%nat -> 0 <= W t -> 0 <= W (S t) /\ W (S t) <= exp (- r t) * W t).
  { intros t Ht P. destruct (HF t ltac:(lia)) as [F0 F1]. pose proof (Hr t Ht) as R1.
    rewrite <- Nat.add_1_r, (HW t ltac:(lia)). split; [apply Rmult_le_pos; nra|].
    apply Rmult_le_compat_r; assumption. }
  destruct (weight_decay T W r ltac:(rewrite HW0; apply pos_INR) HS T (le_n T)) as [_ B].
  rewrite (V T (le_n T)) in HvW. rewrite HW0, <- Hln, <- exp_plus in B.
  assert (X := Rle_trans _ _ _ HvW B). apply exp_le_inv' in X. lra.
Qed.

Lemma le_div_of_mul (a b c : R) : 0 < c -> a * c <= b -> a <= b / c.
Proof.
  intros P H. apply Rmult_le_reg_r with c; [exact P|]. unfold Rdiv.
  rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. exact H.
Qed.

(** Weighted Majority: a mistake (the majority's weight, at least half, was wrong) keeps at most
    (1 + beta)/2 = exp(-ln(2/(1+beta))) of the total weight. *)
Theorem weighted_majority_bound : weighted_majority_bound_statement.
Proof.
  intros F T W beta e lib ln_n ln_wm n v z Hn Hb Hlib Hln HW0 Hv0 HW HF He HvW Hwm Hz1 Hz.
  rewrite !zsum_incl_first.
  assert (Lw : 0 < ln_wm) by (apply exp_gt1_pos; pose proof (exp_pos ln_wm); nra).
  assert (Ew : exp (- ln_wm) = (1 + beta) / 2).
  { rewrite exp_Ropp. pose proof (exp_pos ln_wm). field_simplify_eq; lra. }
  pose proof (experts_core T n W v F (fun t => ln_wm * IZR (z t)) e beta lib ln_n Hb Hlib Hln HW0 Hv0
                HW HF He HvW) as C.
  rewrite sum_lt_scal, <- IZR_zsum_lt in C. apply le_div_of_mul; [exact Lw|]. rewrite Rmult_comm. apply C.
  intros t Ht. destruct (HF t ltac:(lia)) as [F0 F1].
  destruct (Hz t ltac:(lia)) as [E|E]; rewrite E.
  - rewrite Rmult_0_r, Ropp_0, exp_0. nra.
  - pose proof (Hz1 t ltac:(lia) E). rewrite Rmult_1_r, Ew. nra.
Qed.

(** Randomized Weighted Majority: the expected mistake F(t) keeps 1 - (1 - beta) F(t) <=
    exp(-(1 - beta) F(t)) of the weight. *)
Theorem randomized_weighted_majority_bound : randomized_weighted_majority_bound_statement.
Proof.
  intros F T W beta e lib ln_n n v Hn Hb Hlib Hln HW0 Hv0 HW HF He HvW.
  rewrite sum_incl_first, zsum_incl_first.
  pose proof (experts_core T n W v F (fun t => (1 - beta) * F t) e beta lib ln_n Hb Hlib Hln HW0 Hv0
                HW HF He HvW) as C.
  rewrite sum_lt_scal in C. apply le_div_of_mul; [lra|]. rewrite Rmult_comm. apply C.
  intros t Ht. pose proof (exp_ineq1_le (- ((1 - beta) * F t))). lra.
Qed.

(** Weighted Majority at beta = 1/2: the general bound, and 1/lg(4/3) <= 2.41, i.e.
    2^100 3^241 <= 4^241 (computed on the integers). *)
Lemma exp_nat_mult (k : nat) (x : R) : exp (INR k * x) = exp x ^ k.
Proof.
  induction k as [|k IH]; [simpl; rewrite Rmult_0_l, exp_0; reflexivity|].
  rewrite S_INR, Rmult_plus_distr_r, Rmult_1_l, exp_plus, IH. simpl. ring.
Qed.

Lemma wm_half_constant (l2 l43 : R) : exp l2 = 2 -> exp l43 = 4 / 3 -> 100 * l2 <= 241 * l43.
Proof.
  intros E2 E43. apply exp_le_inv'.
  replace (100 * l2) with (INR 100 * l2) by (rewrite INR_IZR_INZ; reflexivity).
  replace (241 * l43) with (INR 241 * l43) by (rewrite INR_IZR_INZ; reflexivity).
  rewrite !exp_nat_mult, E2, E43.
  assert (Z : (2 ^ Z.of_nat 100 * 3 ^ Z.of_nat 241 <= 4 ^ Z.of_nat 241)%Z)
    by (apply Z.leb_le; vm_compute; reflexivity).
  apply IZR_le in Z. rewrite mult_IZR, <- !pow_IZR in Z.
  replace (4 ^ 241) with ((4 / 3) ^ 241 * 3 ^ 241) in Z by (rewrite <- Rpow_mult_distr; f_equal; field).
  apply Rmult_le_reg_r with (3 ^ 241); [apply pow_lt; lra | exact Z].
Qed.

Theorem weighted_majority_half_bound : weighted_majority_half_bound_statement.
Proof.
  intros F T W e lg_n l2 l43 ln_n n v z Hn H2 Hln HW0 Hv0 HW HF He HvW H43 Hz1 Hz Hlg.
  pose proof (weighted_majority_bound F T W (1 / 2) e l2 ln_n l43 n v z Hn ltac:(lra) H2 Hln HW0 Hv0 HW HF He
                HvW H43 Hz1 Hz) as B.
  rewrite !zsum_incl_first in *.
  assert (E2 : exp l2 = 2) by lra. assert (E43 : exp l43 = 4 / 3) by lra.
  pose proof (wm_half_constant l2 l43 E2 E43) as K.
  assert (P43 : 0 < l43) by (apply exp_gt1_pos; lra).
  assert (P2 : 0 < l2) by (apply exp_gt1_pos; lra).
  assert (Ln0 : 0 <= ln_n).
  { destruct (Rle_or_lt 0 ln_n) as [|L]; [assumption|]. apply exp_increasing in L.
    rewrite exp_0, Hln in L. apply le_INR in Hn. simpl in Hn. lra. }
  assert (G : 0 <= lg_n) by nra.
  assert (Mk : forall k, (k <= T)%nat -> 0 <= IZR (zsum_lt k e)).
  { induction k as [|k IH]; intros Hk; simpl; [lra|]. rewrite plus_IZR.
    destruct (He k ltac:(lia)) as [[E|E] _]; rewrite E; specialize (IH ltac:(lia)); lra. }
  pose proof (Mk T (le_n T)) as m0. rewrite <- Hlg in B.
  set (m := IZR (zsum_lt T e)) in *.
  replace ((l2 * m + lg_n * l2) / l43) with (l2 * (m + lg_n) / l43) in B by (field; lra).
  apply Rle_trans with (1 := B). apply Rmult_le_reg_r with l43; [lra|].
  replace (l2 * (m + lg_n) / l43 * l43) with (l2 * (m + lg_n)) by (field; lra). nra.
Qed.
