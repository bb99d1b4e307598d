(** * Catalogue: Hedge (Freund & Schapire 1997, Theorem 2) under losses in [0, 1] — the statement
    printed from the catalogue's formulas.  [hedge_core] is the argument on any run given by its
    weights: beta^l <= 1 - (1 - beta) l on [0, 1] (exp under its chord, from two tangents), summed
    over the options, then [Catalogue_experts.weight_decay] and the weight of option j inside the
    total; [LearnerTheorems.v] applies it to the Hedge learner of [HedgeRuns.v]. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Import Mistakebound.Statements Mistakebound.Catalogue_experts.
Require Mistakebound.Gaussian.
Require Import Reals Lra Lia.
Open Scope R_scope.

(** exp(c) (1 + x - c) <= exp(x): the tangent of exp at c. *)
Lemma exp_tangent_at (c x : R) : exp c * (1 + x - c) <= exp x.
Proof.
  replace (exp x) with (exp c * exp (x - c)) by (rewrite <- exp_plus; f_equal; ring).
  apply Rmult_le_compat_l; [left; apply exp_pos|]. pose proof (exp_ineq1_le (x - c)). lra.
Qed.

(** beta^a = exp(-ln(1/beta) a) <= 1 - (1 - beta) a for 0 <= a <= 1: the chord of exp. *)
Lemma hedge_chord (beta lib a : R) : exp lib * beta = 1 -> 0 <= a <= 1 ->
  exp (- (lib * a)) <= 1 - (1 - beta) * a.
Proof.
  intros Hb Ha. set (c := - (lib * a)).
  assert (Eb : exp (- lib) = beta).
  { rewrite exp_Ropp. pose proof (exp_pos lib). field_simplify_eq; lra. }
  pose proof (exp_tangent_at c 0) as A. pose proof (exp_tangent_at c (- lib)) as B.
  rewrite exp_0 in A. rewrite Eb in B.
  assert (A' : (1 - a) * (exp c * (1 + 0 - c)) <= (1 - a) * 1) by (apply Rmult_le_compat_l; lra).
  assert (B' : a * (exp c * (1 + - lib - c)) <= a * beta) by (apply Rmult_le_compat_l; lra).
  assert (E : (1 - a) * (exp c * (1 + 0 - c)) + a * (exp c * (1 + - lib - c)) = exp c) by (unfold c; ring).
  lra.
Qed.

Lemma sum_lt_term_le n (f : nat -> R) k : (forall i, (i < n)%nat -> 0 <= f i) -> (k < n)%nat -> f k <= sum_lt n f.
Proof.
  induction n as [|n IH]; intros P K; [lia|]. simpl.
  destruct (Nat.eq_dec k n) as [->|D].
  - pose proof (sum_lt_nonneg n f (fun i Hi => P i ltac:(lia))). lra.
  - pose proof (IH (fun i Hi => P i ltac:(lia)) ltac:(lia)). pose proof (P n ltac:(lia)). lra.
Qed.

(** Freund & Schapire's argument on a run given by its weights: (1 - beta) L_Hedge <= ln(1/beta) L_j + ln n. *)
Lemma hedge_core (T n j : nat) (w l : nat -> nat -> R) (H W : nat -> R) (beta lib ln_n : R) :
  (n >= 1)%nat -> (j < n)%nat -> (beta > 0 /\ beta < 1) -> exp lib * beta = 1 -> exp ln_n = INR n ->
  (forall i, (i < n)%nat -> w 0%nat i = 1) ->
  (forall t i, (t < T)%nat -> (i < n)%nat -> 0 <= l t i <= 1) ->
  (forall t i, (t < T)%nat -> (i < n)%nat -> w (S t) i = w t i * exp (- (lib * l t i))) ->
  (forall t, (t <= T)%nat -> W t = sum_lt n (w t)) ->
  (forall t, (t < T)%nat -> H t * W t = sum_lt n (fun i => w t i * l t i)) ->
  (1 - beta) * sum_lt T H <= lib * sum_lt T (fun s => l s j) + ln_n.
Proof.
  intros Hn Hj Hb Hlib Hln H0 Hl Hu HW HH.
  assert (P : forall t, (t <= T)%nat -> forall i, (i < n)%nat -> 0 < w t i).
  { induction t as [|t IH]; intros Ht i Hi; [rewrite H0 by exact Hi; lra|].
    rewrite Hu by lia. apply Rmult_lt_0_compat; [apply IH; lia | apply exp_pos]. }
  assert (S : forall t, (t < T)%nat -> 0 <= W t -> 0 <= W (S t) /\ W (S t) <= exp (- ((1 - beta) * H t)) * W t).
  { intros t Ht _.
    assert (Le : sum_lt n (w (S t)) <= sum_lt n (fun i => w t i + (beta - 1) * (w t i * l t i))).
    { apply sum_lt_le. intros i Hi. rewrite Hu by lia.
      pose proof (hedge_chord beta lib (l t i) Hlib (Hl t i Ht Hi)) as C. pose proof (P t ltac:(lia) i Hi).
      apply Rle_trans with (w t i * (1 - (1 - beta) * l t i)); [apply Rmult_le_compat_l; lra | lra]. }
    rewrite sum_lt_add, sum_lt_scal, <- HH in Le by lia.
    assert (E0 : sum_lt n (w t) = W t) by (rewrite HW by lia; reflexivity).
    assert (E1 : sum_lt n (w (S t)) = W (S t)) by (rewrite HW by lia; reflexivity).
    rewrite E0, E1 in Le.
    assert (W0 : 0 <= W t) by (rewrite HW by lia; apply sum_lt_nonneg; intros i Hi; left; apply P; lia).
    split; [rewrite HW by lia; apply sum_lt_nonneg; intros i Hi; left; apply P; lia|].
    pose proof (exp_ineq1_le (- ((1 - beta) * H t))).
    apply Rle_trans with (1 := Le). replace (W t + (beta - 1) * (H t * W t)) with ((1 - (1 - beta) * H t) * W t) by ring.
    apply Rmult_le_compat_r; [exact W0 | lra]. }
  assert (W0 : W 0%nat = INR n).
  { rewrite HW by lia. rewrite (sum_lt_ext n _ (fun _ => 1)) by (intros; apply H0; assumption).
    rewrite sum_lt_const. ring. }
  destruct (weight_decay T W (fun t => (1 - beta) * H t) ltac:(rewrite W0; apply pos_INR) S T (le_n T)) as [_ B].
  assert (V : forall t, (t <= T)%nat -> w t j = exp (- (lib * sum_lt t (fun s => l s j)))).
  { induction t as [|t IH]; intros Ht; [simpl; rewrite Rmult_0_r, Ropp_0, exp_0; apply H0, Hj|].
    rewrite Hu, IH by lia. simpl. rewrite <- exp_plus. f_equal. ring. }
  assert (In : w T j <= W T).
  { rewrite HW by lia. apply sum_lt_term_le; [intros i Hi; left; apply P; lia | exact Hj]. }
  rewrite V in In by lia. rewrite W0, <- Hln, <- exp_plus, sum_lt_scal in B.
  pose proof (exp_le_inv' _ _ (Rle_trans _ _ _ In B)). lra.
Qed.

Theorem hedge_bound : hedge_bound_statement.
Proof.
  intros H T W beta j l lib ln_n n w Hn Hj Hb Hlib Hln H0 Hl Hu HW HH.
  rewrite !sum_incl_first.
  apply le_div_of_mul; [lra|]. rewrite Rmult_comm.
  apply (hedge_core T n j w l H W beta lib ln_n Hn Hj Hb Hlib Hln).
  - intros i Hi. apply H0. lia.
  - intros t i Ht Hi. destruct (Hl t i ltac:(lia)). lra.
  - intros t i Ht Hi. rewrite <- Nat.add_1_r. apply Hu. lia.
  - intros t Ht. rewrite HW by lia. rewrite sum_incl_first. reflexivity.
  - intros t Ht. rewrite HH by lia. rewrite sum_incl_first. reflexivity.
Qed.

(** ** Tuned to the horizon: regret at most sqrt(2 T ln n) *)

(** exp(-a) <= 1 - a + a^2/2 for a >= 0, from exp's Taylor series (1 + a + a^2/2 + a^3/6 <= exp a). *)
Lemma exp_neg_quadratic (a : R) : a >= 0 -> exp (- a) <= 1 - a + a * a / 2.
Proof.
  intros H.
  pose (f := fun k => / INR (fact k) * a ^ k).
  assert (Fpos : forall k, 0 <= f k)
    by (intros k; unfold f; apply Rmult_le_pos; [left; apply Rinv_0_lt_compat, INR_fact_lt_0 | apply pow_le; lra]).
  assert (Mono : forall k, sum_f_R0 f 3 <= sum_f_R0 f (3 + k)).
  { intros k. induction k as [|k IH]; [rewrite Nat.add_0_r; lra|].
    replace (3 + S k)%nat with (S (3 + k)) by lia. change (sum_f_R0 f (S (3 + k))) with (sum_f_R0 f (3 + k) + f (S (3 + k))).
    pose proof (Fpos (S (3 + k))); lra. }
  assert (S3 : sum_f_R0 f 3 = 1 + a + a * a / 2 + a * a * a / 6) by (unfold f; simpl; field).
  assert (T3 : 1 + a + a * a / 2 + a * a * a / 6 <= exp a).
  { rewrite <- S3. destruct (Rle_or_lt (sum_f_R0 f 3) (exp a)) as [|L]; [assumption|exfalso].
    destruct (Mistakebound.Gaussian.exp_taylor a (sum_f_R0 f 3 - exp a) ltac:(lra)) as [N HN].
    specialize (HN (3 + N)%nat ltac:(lia)). specialize (Mono N). unfold R_dist in HN. fold f in HN.
    apply Rabs_def2 in HN. lra. }
  rewrite exp_Ropp. assert (P : 0 < 1 + a + a * a / 2 + a * a * a / 6) by nra.
  apply Rle_trans with (/ (1 + a + a * a / 2 + a * a * a / 6)); [apply Rinv_le_contravar; lra|].
  apply Rmult_le_reg_l with (1 + a + a * a / 2 + a * a * a / 6); [exact P|]. rewrite Rinv_r by lra.
  assert (0 <= a * a * a * (2 + a + a * a)) by (apply Rmult_le_pos; [apply Rmult_le_pos; [apply Rmult_le_pos|]|]; nra).
  nra.
Qed.

(** Each step's loss is an average of losses in [0, 1]: 0 <= L_Hedge <= T. *)
Lemma hedge_loss_range (T n : nat) (w l : nat -> nat -> R) (H W : nat -> R) (lib : R) :
  (n >= 1)%nat -> (forall i, (i < n)%nat -> w 0%nat i = 1) ->
  (forall t i, (t < T)%nat -> (i < n)%nat -> 0 <= l t i <= 1) ->
  (forall t i, (t < T)%nat -> (i < n)%nat -> w (S t) i = w t i * exp (- (lib * l t i))) ->
  (forall t, (t <= T)%nat -> W t = sum_lt n (w t)) ->
  (forall t, (t < T)%nat -> H t * W t = sum_lt n (fun i => w t i * l t i)) ->
  0 <= sum_lt T H <= INR T.
Proof.
  intros Hn H0 Hl Hu HW HH.
  assert (P : forall t, (t <= T)%nat -> forall i, (i < n)%nat -> 0 < w t i).
  { induction t as [|t IH]; intros Ht i Hi; [rewrite H0 by exact Hi; lra|].
    rewrite Hu by lia. apply Rmult_lt_0_compat; [apply IH; lia | apply exp_pos]. }
  assert (R1 : forall t, (t < T)%nat -> 0 <= H t <= 1).
  { intros t Ht. pose proof (HH t Ht) as E. rewrite HW in E by lia.
    assert (Wp : 0 < sum_lt n (w t)).
    { apply Rlt_le_trans with (w t 0%nat); [apply P; lia|].
      apply sum_lt_term_le; [intros i Hi; left; apply P; lia | lia]. }
    assert (A : 0 <= sum_lt n (fun i => w t i * l t i)).
    { apply sum_lt_nonneg. intros i Hi. destruct (Hl t i Ht Hi). pose proof (P t ltac:(lia) i Hi). nra. }
    assert (B : sum_lt n (fun i => w t i * l t i) <= sum_lt n (w t)).
    { apply sum_lt_le. intros i Hi. destruct (Hl t i Ht Hi). pose proof (P t ltac:(lia) i Hi). nra. }
    split; nra. }
  assert (G : forall k, (k <= T)%nat -> 0 <= sum_lt k H <= INR k).
  { induction k as [|k IH]; intros Hk; [simpl; lra|]. destruct (IH ltac:(lia)). destruct (R1 k ltac:(lia)).
    change (sum_lt (S k) H) with (sum_lt k H + H k). rewrite S_INR. lra. }
  apply G. lia.
Qed.

Theorem hedge_regret_bound : hedge_regret_bound_statement.
Proof.
  intros H T W beta j l lib ln_n n w Hn Hj Hb Hlib Hln H0 Hl Hu HW HH HT Htune.
  rewrite !sum_incl_first.
  assert (H0' : forall i, (i < n)%nat -> w 0%nat i = 1) by (intros i Hi; apply H0; lia).
  assert (Hl' : forall t i, (t < T)%nat -> (i < n)%nat -> 0 <= l t i <= 1)
    by (intros t i Ht Hi; destruct (Hl t i ltac:(lia)); lra).
  assert (Hu' : forall t i, (t < T)%nat -> (i < n)%nat -> w (S t) i = w t i * exp (- (lib * l t i)))
    by (intros t i Ht Hi; rewrite <- Nat.add_1_r; apply Hu; lia).
  assert (HW' : forall t, (t <= T)%nat -> W t = sum_lt n (w t))
    by (intros t Ht; rewrite HW by lia; rewrite sum_incl_first; reflexivity).
  assert (HH' : forall t, (t < T)%nat -> H t * W t = sum_lt n (fun i => w t i * l t i))
    by (intros t Ht; rewrite HH by lia; rewrite sum_incl_first; reflexivity).
  pose proof (hedge_core T n j w l H W beta lib ln_n Hn Hj Hb Hlib Hln H0' Hl' Hu' HW' HH') as C.
  destruct (hedge_loss_range T n w l H W lib Hn H0' Hl' Hu' HW' HH') as [L0 L1].
  set (LH := sum_lt T H) in *. set (Lj := sum_lt T (fun s => l s j)) in *.
  assert (Tp : 0 < INR T) by (apply lt_0_INR; lia).
  assert (Ln0 : 0 <= ln_n).
  { destruct (Rle_or_lt 0 ln_n) as [|L]; [assumption|]. apply exp_increasing in L.
    rewrite exp_0, Hln in L. apply le_INR in Hn. simpl in Hn. lra. }
  assert (Q : 0 <= 2 * ln_n / INR T) by (apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  assert (L2 : lib * lib * INR T = 2 * ln_n).
  { rewrite Htune, sqrt_sqrt by exact Q. field. lra. }
  assert (Lp : 0 < lib) by (apply exp_gt1_pos; pose proof (exp_pos lib); nra).
  assert (Eb : exp (- lib) = beta) by (rewrite exp_Ropp; pose proof (exp_pos lib); field_simplify_eq; lra).
  pose proof (exp_neg_quadratic lib ltac:(lra)) as Qd. rewrite Eb in Qd.
  assert (F1 : (lib - lib * lib / 2) * LH <= lib * Lj + ln_n).
  { apply Rle_trans with ((1 - beta) * LH); [apply Rmult_le_compat_r; lra | exact C]. }
  assert (F2 : lib * (LH - Lj) <= lib * (lib * INR T)).
  { assert (lib * lib * LH <= lib * lib * INR T) by (apply Rmult_le_compat_l; nra). nra. }
  assert (F3 : LH - Lj <= lib * INR T) by (apply Rmult_le_reg_l with lib; lra).
  replace (INR (2 * T) * ln_n) with ((lib * INR T) * (lib * INR T)) by (rewrite mult_INR; simpl INR; nra).
  rewrite sqrt_square by (apply Rmult_le_pos; lra). exact F3.
Qed.
