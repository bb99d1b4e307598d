(** * Winnow over its sequence of mistakes: the catalogue's statements speak of x(t, i) in {0, 1},
    labels y(t) = min(1, x(t,0) + ... + x(t,r-1)) (the target is the disjunction of the first r
    variables), weights w(t, i) before the t-th mistake, every step a mistake (w(t).x(t) >= n iff
    y(t) = 0) and the update of each coordinate.  Such a sequence carries the run invariant of
    WinnowCore.v, with F = the number of false negatives among the first t mistakes. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners Mistakebound.WinnowCore Mistakebound.WinnowBounds.
Open Scope R_scope.

Definition tmask (r : nat) : nat -> bool := fun i => Nat.ltb i r.
Definition xbool (x : nat -> nat -> Z) (t : nat) : nat -> bool := fun i => Z.eqb (x t i) 1.
Definition promotions (y : nat -> Z) (t : nat) : nat := count_lt t (fun s => Z.eqb (y s) 1).

Lemma count_tmask n r : count_lt n (tmask r) = Nat.min n r.
Proof.
  induction n as [|n IH]; [reflexivity|]. cbn [count_lt]. rewrite IH. unfold tmask.
  destruct (Nat.ltb n r) eqn:E; [apply Nat.ltb_lt in E|apply Nat.ltb_ge in E]; lia.
Qed.

Lemma promotions_le y t : (promotions y t <= t)%nat.
Proof. unfold promotions. apply count_lt_le. Qed.

Lemma zsum_incl_first (n : nat) (f : nat -> Z) : zsum_incl 0 (Z.of_nat n - 1) f = zsum_lt n f.
Proof.
  unfold zsum_incl. replace (Z.of_nat n - 1 + 1)%Z with (Z.of_nat n) by ring.
  rewrite Nat2Z.id, Nat.sub_0_r. reflexivity.
Qed.

Lemma zsum_nonneg n f : (forall i, (i < n)%nat -> (0 <= f i)%Z) -> (0 <= zsum_lt n f)%Z.
Proof. induction n; intros H; simpl; [lia|]. pose proof (H n ltac:(lia)). pose proof (IHn (fun i Hi => H i ltac:(lia))). lia. Qed.

Lemma zsum_pos_some n f : (forall i, (i < n)%nat -> f i = 0%Z \/ f i = 1%Z) -> (1 <= zsum_lt n f)%Z ->
  exists i, (i < n)%nat /\ f i = 1%Z.
Proof.
  induction n as [|n IH]; intros H S; simpl in S; [lia|].
  destruct (H n ltac:(lia)) as [E|E]; [|exists n; split; [lia|exact E]].
  destruct IH as (i & Hi & Ei); [intros; apply H; lia|lia|]. exists i. split; [lia|exact Ei].
Qed.

Lemma zsum_zero_all n f : (forall i, (i < n)%nat -> f i = 0%Z \/ f i = 1%Z) -> zsum_lt n f = 0%Z ->
  forall i, (i < n)%nat -> f i = 0%Z.
Proof.
  induction n as [|n IH]; intros H S i Hi; [lia|]. simpl in S.
  assert (0 <= zsum_lt n f)%Z by (apply zsum_nonneg; intros j Hj; destruct (H j ltac:(lia)); lia).
  destruct (H n ltac:(lia)) as [E|E]; [|lia].
  destruct (Nat.eq_dec i n) as [->|Ne]; [exact E|]. apply IH; [intros; apply H; lia|lia|lia].
Qed.

(** The invariant respects equality on the n coordinates. *)
Lemma winv_ext n t c w w' F D : (forall i, (i < n)%nat -> w i = w' i) -> winv n t c w F D -> winv n t c w' F D.
Proof.
  intros E (Hnn & Hpos & HW & HWs & HI & p & Hp & HF & HF0 & HPhi).
  assert (S : sum_lt n w = sum_lt n w') by (apply sum_lt_ext; exact E).
  assert (SI : Isum n t w = Isum n t w').
  { unfold Isum. apply sum_lt_ext. intros i Hi. rewrite E by exact Hi. reflexivity. }
  unfold winv. rewrite <- S, <- SI.
  split; [intros i Hi; rewrite <- E by exact Hi; auto|].
  split; [intros Hc i Hi; rewrite <- E by exact Hi; auto|].
  split; [exact HW|]. split; [exact HWs|]. split; [exact HI|].
  exists p. split; [|split; [exact HF|split; [exact HF0|exact HPhi]]].
  intros i Hi Ti. rewrite <- E by exact Hi. apply Hp; auto.
Qed.

(** The catalogue's hypotheses, as printed (per-step facts guarded by 0 <= t < M). *)
Definition labelled (n r M : nat) (x : nat -> nat -> Z) (y : nat -> Z) : Prop :=
  forall t : nat, (0 <= t)%nat /\ (t < M)%nat ->
    (forall i : nat, (0 <= i)%nat /\ (i < n)%nat -> (x t i = 0)%Z \/ (x t i = 1)%Z) /\
    (y t = Z.min 1 (zsum_incl 0 (Z.of_nat r - 1) (fun i => x t i)))%Z.

Definition mistakes_at_n (n M : nat) (w : nat -> nat -> R) (x : nat -> nat -> Z) (y : nat -> Z) : Prop :=
  forall t : nat, (0 <= t)%nat /\ (t < M)%nat ->
    (sum_incl 0 (Z.of_nat n - 1) (fun i => w t i * IZR (x t i)) >= INR n <-> (y t = 0)%Z).

Definition updates (n M : nat) (c : R) (w : nat -> nat -> R) (x : nat -> nat -> Z) (y : nat -> Z) : Prop :=
  forall t : nat, (0 <= t)%nat /\ (t < M)%nat -> forall i : nat, (0 <= i)%nat /\ (i < n)%nat ->
    ((y t = 1)%Z /\ (x t i = 1)%Z -> w (t + 1)%nat i = 2 * w t i) /\
    ((y t = 0)%Z /\ (x t i = 1)%Z -> w (t + 1)%nat i = c * w t i) /\
    ((x t i = 0)%Z -> w (t + 1)%nat i = w t i).

Lemma label_cases n r M x y t : (r <= n)%nat -> labelled n r M x y -> (t < M)%nat ->
  ((y t = 1)%Z /\ target_label n (tmask r) (xbool x t) = true) \/
  ((y t = 0)%Z /\ target_label n (tmask r) (xbool x t) = false).
Proof.
  intros Hr H Ht. destruct (H t ltac:(lia)) as [Hx Hy]. rewrite zsum_incl_first in Hy.
  assert (B : forall i, (i < r)%nat -> x t i = 0%Z \/ x t i = 1%Z) by (intros i Hi; apply Hx; lia).
  assert (N : (0 <= zsum_lt r (fun i => x t i))%Z) by (apply zsum_nonneg; intros i Hi; destruct (B i Hi); lia).
  destruct (Z_le_gt_dec 1 (zsum_lt r (fun i => x t i))) as [P|P].
  - left. split; [lia|]. destruct (zsum_pos_some r _ B P) as (i & Hi & Ei).
    apply target_label_true. exists i. split; [lia|]. unfold tmask, xbool. rewrite Ei.
    split; [apply Nat.ltb_lt; lia|reflexivity].
  - right. split; [lia|]. assert (Z0 : zsum_lt r (fun i => x t i) = 0%Z) by lia.
    destruct (target_label n (tmask r) (xbool x t)) eqn:E; [|reflexivity].
    apply target_label_true in E as (i & Hi & Ti & Xi). unfold tmask, xbool in *.
    apply Nat.ltb_lt in Ti. apply Z.eqb_eq in Xi. rewrite (zsum_zero_all r _ B Z0 i Ti) in Xi. discriminate.
Qed.

Lemma activation_bool n (w : nat -> R) (x : nat -> Z) : (forall i, (i < n)%nat -> x i = 0%Z \/ x i = 1%Z) ->
  sum_incl 0 (Z.of_nat n - 1) (fun i => w i * IZR (x i)) = sum_lt n (fun i => if Z.eqb (x i) 1 then w i else 0).
Proof.
  intros B. unfold sum_incl. replace (Z.of_nat n - 1 + 1)%Z with (Z.of_nat n) by ring.
  rewrite Nat2Z.id, Nat.sub_0_r. apply sum_lt_ext. intros i Hi. simpl.
  destruct (B i Hi) as [E|E]; rewrite E; simpl; ring.
Qed.

Theorem winnow_sequence_invariant (n r M : nat) (c : R) (w : nat -> nat -> R) (x : nat -> nat -> Z) (y : nat -> Z) :
  (1 <= n)%nat -> (r <= n)%nat -> 0 <= c <= 1 ->
  labelled n r M x y ->
  (forall i : nat, (0 <= i)%nat /\ (i < n)%nat -> w 0%nat i = 1) ->
  mistakes_at_n n M w x y -> updates n M c w x y ->
  forall T, (T <= M)%nat -> winv n (tmask r) c (w T) (promotions y T) (T - promotions y T).
Proof.
  intros Hn Hr Hc Hl H0 Hm Hu. induction T as [|T IH]; intros HT.
  - apply (winv_ext n _ c (fun _ => 1)); [intros i Hi; symmetry; apply H0; lia|]. apply winv_init, Hn.
  - specialize (IH ltac:(lia)). pose proof (promotions_le y T) as PT.
    destruct (Hl T ltac:(lia)) as [Hx _].
    assert (B : forall i, (i < n)%nat -> x T i = 0%Z \/ x T i = 1%Z) by (intros i Hi; apply Hx; lia).
    pose proof (activation_bool n (w T) (x T) B) as Act. specialize (Hm T ltac:(lia)). rewrite Act in Hm.
    assert (Upd : forall f, (forall i, (i < n)%nat -> x T i = 1%Z -> w (S T) i = f * w T i) ->
                  forall i, (i < n)%nat -> winnow_update RN (w T) (xbool x T) f i = w (S T) i).
    { intros f Hf i Hi. rewrite wupd. unfold xbool. destruct (B i Hi) as [E|E]; rewrite E; simpl.
      - destruct (Hu T ltac:(lia) i ltac:(lia)) as (_ & _ & U). rewrite <- Nat.add_1_r. symmetry. apply U, E.
      - rewrite Hf by auto. ring. }
    destruct (label_cases n r M x y T Hr Hl ltac:(lia)) as [(Y1 & L1)|(Y0 & L0)].
    + (* a false negative: promotion *)
      assert (EP : promotions y (S T) = S (promotions y T)).
      { unfold promotions. cbn [count_lt]. rewrite Y1. simpl. lia. }
      rewrite EP. replace (S T - S (promotions y T))%nat with (T - promotions y T)%nat by lia.
      apply (winv_ext n _ c (winnow_update RN (w T) (xbool x T) (two RN))).
      { apply Upd. intros i Hi E. destruct (Hu T ltac:(lia) i ltac:(lia)) as (U & _ & _).
        rewrite <- Nat.add_1_r, U by auto. simpl. ring. }
      apply winv_fn; auto. apply Rnot_le_lt. intros Hge. apply Rle_ge in Hge. apply Hm in Hge. congruence.
    + (* a false positive: demotion *)
      assert (EP : promotions y (S T) = promotions y T).
      { unfold promotions. cbn [count_lt]. rewrite Y0. simpl. lia. }
      rewrite EP. replace (S T - promotions y T)%nat with (S (T - promotions y T)) by lia.
      apply (winv_ext n _ c (winnow_update RN (w T) (xbool x T) c)).
      { apply Upd. intros i Hi E. destruct (Hu T ltac:(lia) i ltac:(lia)) as (_ & U & _).
        rewrite <- Nat.add_1_r, U by auto. reflexivity. }
      apply winv_fp; auto. apply Rge_le, Hm, Y0.
Qed.

(** The relevant part of the invariant holds for any demotion factor c >= 0. *)
Theorem winnow_sequence_rinv (n r M : nat) (c : R) (w : nat -> nat -> R) (x : nat -> nat -> Z) (y : nat -> Z) :
  (1 <= n)%nat -> (r <= n)%nat -> 0 <= c ->
  labelled n r M x y ->
  (forall i : nat, (0 <= i)%nat /\ (i < n)%nat -> w 0%nat i = 1) ->
  mistakes_at_n n M w x y -> updates n M c w x y ->
  forall T, (T <= M)%nat -> rinv n (tmask r) (w T) (promotions y T).
Proof.
  intros Hn Hr Hc Hl H0 Hm Hu. induction T as [|T IH]; intros HT.
  - apply (rinv_ext n _ (fun _ => 1)); [intros i Hi; symmetry; apply H0; lia|]. apply rinv_init, Hn.
  - specialize (IH ltac:(lia)).
    destruct (Hl T ltac:(lia)) as [Hx _].
    assert (B : forall i, (i < n)%nat -> x T i = 0%Z \/ x T i = 1%Z) by (intros i Hi; apply Hx; lia).
    pose proof (activation_bool n (w T) (x T) B) as Act. specialize (Hm T ltac:(lia)). rewrite Act in Hm.
    assert (Upd : forall f, (forall i, (i < n)%nat -> x T i = 1%Z -> w (S T) i = f * w T i) ->
                  forall i, (i < n)%nat -> winnow_update RN (w T) (xbool x T) f i = w (S T) i).
    { intros f Hf i Hi. rewrite wupd. unfold xbool. destruct (B i Hi) as [E|E]; rewrite E; simpl.
      - destruct (Hu T ltac:(lia) i ltac:(lia)) as (_ & _ & U). rewrite <- Nat.add_1_r. symmetry. apply U, E.
      - rewrite Hf by auto. ring. }
    destruct (label_cases n r M x y T Hr Hl ltac:(lia)) as [(Y1 & L1)|(Y0 & L0)].
    + assert (EP : promotions y (S T) = S (promotions y T)).
      { unfold promotions. cbn [count_lt]. rewrite Y1. simpl. lia. }
      rewrite EP. apply (rinv_ext n _ (winnow_update RN (w T) (xbool x T) (two RN))).
      { apply Upd. intros i Hi E. destruct (Hu T ltac:(lia) i ltac:(lia)) as (U & _ & _).
        rewrite <- Nat.add_1_r, U by auto. simpl. ring. }
      apply rinv_fn; auto. apply Rnot_le_lt. intros Hge. apply Rle_ge in Hge. apply Hm in Hge. congruence.
    + assert (EP : promotions y (S T) = promotions y T).
      { unfold promotions. cbn [count_lt]. rewrite Y0. simpl. lia. }
      rewrite EP. apply (rinv_ext n _ (winnow_update RN (w T) (xbool x T) c)).
      { apply Upd. intros i Hi E. destruct (Hu T ltac:(lia) i ltac:(lia)) as (_ & U & _).
        rewrite <- Nat.add_1_r, U by auto. reflexivity. }
      apply rinv_fp; auto.
Qed.

Lemma promotions_bound_r n t w F : (1 <= n)%nat -> rinv n t w F -> INR F <= INR (count_lt n t) * (1 + lg (INR n)).
Proof.
  intros Hn (_ & p & Hp & HF).
  eapply Rle_trans; [exact HF|]. rewrite <- relsum_const. apply relsum_le.
  intros i Hi Ti. left. apply exponent_below; [exact Hn|apply (Hp i Hi Ti)].
Qed.

(** At the end of the sequence: M = F + D. *)
Corollary winnow_sequence_counts (n r M : nat) (c : R) (w : nat -> nat -> R) (x : nat -> nat -> Z) (y : nat -> Z) :
  (1 <= n)%nat -> (r <= n)%nat -> 0 <= c <= 1 ->
  labelled n r M x y -> (forall i : nat, (0 <= i)%nat /\ (i < n)%nat -> w 0%nat i = 1) ->
  mistakes_at_n n M w x y -> updates n M c w x y ->
  M = (promotions y M + (M - promotions y M))%nat /\ count_lt n (tmask r) = r /\
  winv n (tmask r) c (w M) (promotions y M) (M - promotions y M).
Proof.
  intros. pose proof (promotions_le y M). split; [lia|]. split; [rewrite count_tmask; lia|].
  apply (winnow_sequence_invariant n r M c w x y); auto.
Qed.

(** ** From the invariant to the catalogue's statements *)
Lemma half_R : half RN = 1 / 2.
Proof. unfold half. simpl. field. Qed.

Lemma nat_of_pow2 (n l : nat) : INR n = pow2 l -> n = (2 ^ l)%nat.
Proof. intros H. apply INR_eq. rewrite pow_INR. unfold pow2 in H. replace (INR 2) with 2 by (simpl; ring). exact H. Qed.

Lemma labels_01 n r M x y : (r <= n)%nat -> labelled n r M x y -> forall t, (t < M)%nat -> y t = 0%Z \/ y t = 1%Z.
Proof. intros Hr H t Ht. destruct (label_cases n r M x y t Hr H Ht) as [[E _]|[E _]]; auto. Qed.

Lemma zsum_promotions (y : nat -> Z) (M : nat) : (forall t, (t < M)%nat -> y t = 0%Z \/ y t = 1%Z) ->
  zsum_lt M y = Z.of_nat (promotions y M).
Proof.
  induction M as [|M IH]; intros H; [reflexivity|]. unfold promotions in *. cbn [zsum_lt count_lt].
  rewrite IH by (intros; apply H; lia). rewrite Nat2Z.inj_add.
  destruct (H M ltac:(lia)) as [E|E]; rewrite E; reflexivity.
Qed.

(** The elimination variant's update (a demoted weight is 0) is the update with factor 0. *)
Lemma updates_elim (n M : nat) (w : nat -> nat -> R) (x : nat -> nat -> Z) (y : nat -> Z) :
  (forall t : nat, (0 <= t)%nat /\ (t < M)%nat -> forall i : nat, (0 <= i)%nat /\ (i < n)%nat ->
    ((y t = 1)%Z /\ (x t i = 1)%Z -> w (t + 1)%nat i = 2 * w t i) /\
    ((y t = 0)%Z /\ (x t i = 1)%Z -> w (t + 1)%nat i = 0) /\
    ((x t i = 0)%Z -> w (t + 1)%nat i = w t i)) ->
  updates n M 0 w x y.
Proof.
  intros H t Ht i Hi. destruct (H t Ht i Hi) as (A & B & C). split; [exact A|split; [|exact C]].
  intros P. rewrite Rmult_0_l. exact (B P).
Qed.

Lemma n_pos_of_pow2 (n l : nat) : n = (2 ^ l)%nat -> (1 <= n)%nat.
Proof. intros ->. pose proof (Nat.pow_le_mono_r 2 0 l ltac:(lia) ltac:(lia)). simpl in *. lia. Qed.

(** ** The relevant weights: w(t, i) = 2^(number of promotions with x_i = 1), for i < r *)
Lemma zsum_lt_ext n f g : (forall i, (i < n)%nat -> f i = g i) -> zsum_lt n f = zsum_lt n g.
Proof. induction n; intros H; simpl; [reflexivity|]. rewrite IHn by (intros; apply H; lia). rewrite H by lia. reflexivity. Qed.

Lemma zsum_lt_le n f g : (forall i, (i < n)%nat -> (f i <= g i)%Z) -> (zsum_lt n f <= zsum_lt n g)%Z.
Proof. induction n; intros H; simpl; [lia|]. pose proof (IHn (fun i Hi => H i ltac:(lia))). pose proof (H n ltac:(lia)). lia. Qed.

Lemma zsum_lt_add n f g : zsum_lt n (fun i => f i + g i)%Z = (zsum_lt n f + zsum_lt n g)%Z.
Proof. induction n; simpl; [reflexivity|]. rewrite IHn. ring. Qed.

Lemma zsum_lt_swap n m (f : nat -> nat -> Z) :
  zsum_lt n (fun i => zsum_lt m (fun j => f i j)) = zsum_lt m (fun j => zsum_lt n (fun i => f i j)).
Proof.
  induction n as [|n IH]; simpl.
  - induction m; simpl; [reflexivity|]. rewrite <- IHm. reflexivity.
  - rewrite IH, <- zsum_lt_add. reflexivity.
Qed.

Lemma zsum_lt_scal n c f : zsum_lt n (fun i => c * f i)%Z = (c * zsum_lt n f)%Z.
Proof. induction n; simpl; [ring|]. rewrite IHn. ring. Qed.

Lemma relevant_inactive_on_negatives n r M x y t i : (r <= n)%nat -> labelled n r M x y -> (t < M)%nat ->
  y t = 0%Z -> (i < r)%nat -> x t i = 0%Z.
Proof.
  intros Hr Hl Ht Y Hi. destruct (label_cases n r M x y t Hr Hl Ht) as [(Y1 & _)|(_ & L0)]; [lia|].
  destruct (Hl t ltac:(lia)) as [Hx _]. destruct (Hx i ltac:(lia)) as [E|E]; [exact E|exfalso].
  pose proof (target_label_false n (tmask r) (xbool x t) L0 i ltac:(lia)) as F.
  unfold tmask, xbool in F. rewrite (proj2 (Nat.ltb_lt i r) Hi), E in F. specialize (F eq_refl). discriminate.
Qed.

Lemma relevant_exponent (n r M : nat) (c : R) (w : nat -> nat -> R) (x : nat -> nat -> Z) (y : nat -> Z) :
  (r <= n)%nat -> labelled n r M x y -> (forall i : nat, (0 <= i)%nat /\ (i < n)%nat -> w 0%nat i = 1) ->
  updates n M c w x y ->
  forall T, (T <= M)%nat -> forall i, (i < r)%nat -> w T i = powerRZ 2 (zsum_lt T (fun s => y s * x s i)%Z).
Proof.
  intros Hr Hl H0 Hu. induction T as [|T IH]; intros HT i Hi.
  - simpl. apply H0. lia.
  - cbn [zsum_lt]. rewrite powerRZ_add by lra. rewrite <- IH by lia.
    destruct (Hu T ltac:(lia) i ltac:(lia)) as (U1 & _ & U0). rewrite Nat.add_1_r in U1, U0.
    destruct (labels_01 n r M x y Hr Hl T ltac:(lia)) as [Y|Y].
    + rewrite (relevant_inactive_on_negatives n r M x y T i Hr Hl ltac:(lia) Y Hi) in U0 |- *.
      rewrite U0 by reflexivity. rewrite Z.mul_0_r. simpl. ring.
    + destruct (Hl T ltac:(lia)) as [Hx _]. destruct (Hx i ltac:(lia)) as [E|E]; rewrite E, Y.
      * rewrite U0 by exact E. simpl. ring.
      * rewrite U1 by (split; assumption). simpl. ring.
Qed.

Lemma powerRZ_nat_ge_1 (z : Z) : (0 <= z)%Z -> 1 <= powerRZ 2 z.
Proof.
  intros H. rewrite <- (Z2Nat.id z H), <- pow_powerRZ. apply pow_R1_Rle. lra.
Qed.

(** Each promotion raises the relevant exponents by at least one. *)
Lemma promotions_le_exponents (n r M : nat) (x : nat -> nat -> Z) (y : nat -> Z) :
  (r <= n)%nat -> labelled n r M x y ->
  (zsum_lt M y <= zsum_lt r (fun i => zsum_lt M (fun s => y s * x s i)))%Z.
Proof.
  intros Hr Hl. rewrite zsum_lt_swap. apply zsum_lt_le. intros s Hs.
  rewrite zsum_lt_scal. destruct (Hl s ltac:(lia)) as [Hx Hy]. rewrite zsum_incl_first in Hy.
  change (fun i => x s i) with (x s) in Hy.
  assert (N : (0 <= zsum_lt r (x s))%Z).
  { apply zsum_nonneg. intros i Hi. destruct (Hx i ltac:(lia)); lia. }
  destruct (labels_01 n r M x y Hr Hl s Hs) as [Y|Y]; rewrite Y in *; lia.
Qed.
