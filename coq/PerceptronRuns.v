(** * From the learner to its mistake sequence: every run of [perceptron_run] (over the reals)
    yields sequences w(k), b(k), x(k), y(k) of the weights before the k-th mistake and the k-th
    mistaken example, so every theorem stated over mistake sequences holds for the learner. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners Mistakebound.LearnersBridge Mistakebound.Claims.
Require Import Mistakebound.BlockNovikoff Mistakebound.Hinge.
Open Scope R_scope.

Definition sum_examples (f : Vec -> R -> R) (ex : list (Vec * R)) : R :=
  fold_right (fun e acc => f (fst e) (snd e) + acc) 0 ex.

Lemma perceptron_mistake_sequence (d : nat) (bias : bool) (ex : list (Vec * R)) :
  forall (w0 : Vec) (b0 : R),
  exists (W X : nat -> Vec) (B Y : nat -> R),
    let M := perceptron_mistakes (perceptron_run RN d bias w0 b0 ex) in
    W 0%nat = w0 /\ B 0%nat = b0 /\
    (forall k, (k < M)%nat ->
       W (S k) = vadd (W k) (smul (Y k) (X k)) /\ B (S k) = (if bias then B k + Y k else B k) /\
       Y k * (dot d (W k) (X k) + B k) <= 0 /\ In (X k, Y k) ex) /\
    (forall f : Vec -> R -> R, (forall a c, 0 <= f a c) ->
       sum_lt M (fun k => f (X k) (Y k)) <= sum_examples f ex).
Proof.
  induction ex as [|[x y] rest IH]; intros w0 b0.
  - exists (fun _ => w0), (fun _ => w0), (fun _ => b0), (fun _ => b0). simpl.
    split; [reflexivity|split; [reflexivity|split]].
    + intros k Hk. exfalso. cbv [perceptron_mistakes count_true perceptron_run filter length] in Hk. lia.
    + intros f _. cbv [perceptron_mistakes count_true perceptron_run filter length sum_lt sum_examples fold_right]. lra.
  - simpl. fold (@perceptron_mistakes RN).
    destruct (Rle_b (y * (ndot RN d w0 x + b0)) 0) eqn:Mk.
    + destruct (IH (perc_update RN w0 x y) (if bias then b0 + y else b0)) as (W & X & B & Y & H0 & Hb0 & Hk & Hs).
      exists (fun k => match k with O => w0 | S k' => W k' end), (fun k => match k with O => x | S k' => X k' end),
             (fun k => match k with O => b0 | S k' => B k' end), (fun k => match k with O => y | S k' => Y k' end).
      unfold perceptron_mistakes, count_true in *. cbn [filter ps_mistake length andb].
      split; [reflexivity|split; [reflexivity|split]].
      * intros [|k] Hk'.
        -- rewrite H0, Hb0. split; [reflexivity|split; [destruct bias; reflexivity|split]].
           ++ apply Rle_b_spec in Mk. rewrite ndot_R in Mk. exact Mk.
           ++ left; reflexivity.
        -- destruct (Hk k ltac:(lia)) as (A1 & A2 & A3 & A4). repeat split; auto; right; exact A4.
      * intros f Hf. rewrite sum_lt_shift.
        unfold sum_examples; simpl. fold (sum_examples f rest). simpl. specialize (Hs f Hf). lra.
    + destruct (IH w0 b0) as (W & X & B & Y & H0 & Hb0 & Hk & Hs).
      exists W, X, B, Y.
      assert (Ef : (if false && bias then nadd RN b0 y else b0) = b0) by reflexivity.
      unfold perceptron_mistakes, count_true in *. cbn [filter ps_mistake length andb].
      split; [exact H0|split; [exact Hb0|split]].
      * intros k Hk'. destruct (Hk k Hk') as (A1 & A2 & A3 & A4). repeat split; auto; right; exact A4.
      * intros f Hf. unfold sum_examples; simpl. fold (sum_examples f rest). specialize (Hs f Hf).
        specialize (Hf x y). lra.
Qed.

(** Without a bias the bias stays 0. *)
Lemma nobias_sequence (M : nat) (B : nat -> R) :
  B 0%nat = 0 -> (forall k, (k < M)%nat -> B (S k) = B k) -> forall k, (k <= M)%nat -> B k = 0.
Proof. intros H0 Hs. induction k; intros Hk; [exact H0|]. rewrite Hs by lia. apply IHk; lia. Qed.

Definition perceptron_mistakes_R (d : nat) (ex : list (Vec * R)) : nat :=
  perceptron_mistakes (perceptron_run RN d false vzero 0 ex).

Lemma perceptron_sequence_nobias (d : nat) (ex : list (Vec * R)) :
  exists (W X : nat -> Vec) (Y : nat -> R),
    let M := perceptron_mistakes_R d ex in
    W 0%nat = vzero /\
    (forall k, (k < M)%nat -> W (S k) = vadd (W k) (smul (Y k) (X k)) /\ Y k * dot d (W k) (X k) <= 0 /\ In (X k, Y k) ex) /\
    (forall f : Vec -> R -> R, (forall a c, 0 <= f a c) -> sum_lt M (fun k => f (X k) (Y k)) <= sum_examples f ex).
Proof.
  destruct (perceptron_mistake_sequence d false ex vzero 0) as (W & X & B & Y & H0 & Hb0 & Hk & Hs).
  exists W, X, Y. unfold perceptron_mistakes_R. split; [exact H0|split; [|exact Hs]].
  intros k Hkm. destruct (Hk k Hkm) as (A1 & A2 & A3 & A4).
  pose proof (nobias_sequence _ B Hb0 (fun j Hj => proj1 (proj2 (Hk j Hj))) k ltac:(lia)) as Bk.
  rewrite Bk, Rplus_0_r in A3. auto.
Qed.

(** ** The theorems for the learner itself *)
Theorem perceptron_learner_block_novikoff (d : nat) (ex : list (Vec * R)) (u : Vec) (R gamma : R) :
  (forall x y, In (x, y) ex -> y ^ 2 = 1 /\ dot d x x <= R ^ 2 /\ y * dot d u x >= gamma) ->
  dot d u u = 1 -> gamma > 0 ->
  INR (perceptron_mistakes_R d ex) <= R ^ 2 / gamma ^ 2.
Proof.
  intros Hex Hu Hg. destruct (perceptron_sequence_nobias d ex) as (W & X & Y & H0 & Hk & _).
  apply (block_novikoff_radius d _ W X Y u R gamma H0); auto;
    intros k Hkm; destruct (Hk k Hkm) as (A1 & A2 & A3); try exact A1; try exact A2;
    apply (Hex _ _ A3).
Qed.

Theorem perceptron_learner_hinge (d : nat) (ex : list (Vec * R)) (u : Vec) (R : R) :
  (forall x y, In (x, y) ex -> y ^ 2 = 1 /\ dot d x x <= R ^ 2) ->
  INR (perceptron_mistakes_R d ex) <= R ^ 2 * dot d u u + 2 * sum_examples (fun x y => hinge (1 - y * dot d u x)) ex.
Proof.
  intros Hex. destruct (perceptron_sequence_nobias d ex) as (W & X & Y & H0 & Hk & Hs).
  pose proof (Hs (fun x y => hinge (1 - y * dot d u x)) (fun a c => hinge_nonneg _)) as HL. simpl in HL.
  eapply Rle_trans; [apply (hinge_loss_bound d _ W X Y u R H0)|]; try lra;
    intros k Hkm; destruct (Hk k Hkm) as (A1 & A2 & A3); try exact A1; try exact A2; apply (Hex _ _ A3).
Qed.

(** ** The dropped-square erratum, replayed on the learner: x = (1/4), y = +1, u = (4).
    The first step from w = 0 is a tie, hence a mistake: M = 1, while R^2 |u| + 2L = 1/4. *)
Definition dropped_square_example : list ((nat -> Q) * Q) := (vecQ ((1 # 4)%Q :: nil), 1%Q) :: nil.

Definition dropped_square_replay : bool :=
  let run := perceptron_run QN 1 false (fun _ => 0%Q) 0%Q dropped_square_example in
  let u := vecQ (4%Q :: nil) in
  let x := vecQ ((1 # 4)%Q :: nil) in
  (* M = 1; margin y u.x = 1 so the hinge loss is 0; |u| = 4 since 4 * 4 = u.u; R = 1/4 = |x| *)
  andb (Nat.eqb (perceptron_mistakes run) 1)
       (andb (Qeq_bool (ndot QN 1 u x) 1)
             (andb (Qeq_bool (ndot QN 1 u u) (4 * 4))
                   (andb (Qeq_bool (ndot QN 1 x x) ((1 # 4) * (1 # 4))) (Qlt_b ((1 # 4) * (1 # 4) * 4) 1)))).

Lemma dropped_square_replay_true : dropped_square_replay = true.
Proof. vm_compute. reflexivity. Qed.

Lemma perceptron_mistakes_Q2R (d : nat) (ex : list ((nat -> Q) * Q)) :
  perceptron_mistakes_R d (map (fun e => (fun i => Q2R (fst e i), Q2R (snd e))) ex)
  = perceptron_mistakes (perceptron_run QN d false (fun _ => 0%Q) 0%Q ex).
Proof.
  unfold perceptron_mistakes_R, perceptron_mistakes, count_true.
  assert (E : perceptron_run RN d false vzero 0 (map (fun e => (fun i => Q2R (fst e i), Q2R (snd e))) ex)
              = perceptron_run RN d false (fun i => Q2R_hom 0%Q) (Q2R_hom 0%Q)
                  (map (fun e => (fun i => Q2R_hom (fst e i), Q2R_hom (snd e))) ex)).
  { simpl. rewrite Q2R_0. reflexivity. }
  rewrite E, (perceptron_run_hom Q2R_hom). rewrite <- (map_length (map_pstep Q2R_hom)).
  f_equal. clear E. induction (perceptron_run QN d false (fun _ => 0%Q) 0%Q ex) as [|s r IH]; [reflexivity|].
  simpl. destruct (ps_mistake s); simpl; f_equal; exact IH.
Qed.

Theorem erratum_hinge_dropped_square :
  ~ (forall (d : nat) (ex : list (Vec * R)) (u : Vec) (R : R),
       R >= 0 -> (forall x y, In (x, y) ex -> y ^ 2 = 1 /\ dot d x x <= R ^ 2) ->
       INR (perceptron_mistakes_R d ex) <= R ^ 2 * sqrt (dot d u u) + 2 * sum_examples (fun x y => hinge (1 - y * dot d u x)) ex).
Proof.
  intros H. pose proof dropped_square_replay_true as E. unfold dropped_square_replay in E.
  repeat (apply andb_prop in E as [? E]).
  rename H0 into M1, H1 into Hm, H2 into Huu, H3 into Hxx.
  apply Nat.eqb_eq in M1. apply Qeq_bool_iff, Qeq_eqR in Hm, Huu, Hxx. apply Qlt_b_R in E.
  rewrite Q2R_ndot in Hm, Huu, Hxx. rewrite !Q2R_mult in Huu, Hxx, E.
  set (ex := map (fun e => (fun i => Q2R (fst e i), Q2R (snd e))) dropped_square_example).
  specialize (H 1%nat ex (fun i => Q2R (vecQ (4%Q :: nil) i)) (Q2R (1 # 4))).
  unfold ex in H. rewrite perceptron_mistakes_Q2R, M1 in H.
  rewrite Huu, sqrt_square in H by (unfold Q2R; simpl; lra).
  unfold sum_examples in H; simpl in H. rewrite Q2R_1 in H.
  rewrite Hm, Q2R_1 in H. unfold hinge in H. rewrite (Rmax_left 0 (1 - 1 * 1)) in H by lra.
  rewrite !Q2R_mult, Q2R_1 in E.
  assert (Q4 : Q2R (1 # 4) = 1 / 4) by (unfold Q2R; simpl; lra).
  assert (F4 : Q2R 4 = 4) by (unfold Q2R; simpl; lra).
  rewrite Q4 in H, E, Hxx. rewrite F4 in E, H.
  assert (Hin : forall x y, (fun i => Q2R (vecQ ((1 # 4)%Q :: nil) i), 1) = (x, y) \/ False ->
                y * (y * 1) = 1 /\ dot 1 x x <= 1 / 4 * (1 / 4 * 1)).
  { intros x y [Eq|[]]. inversion Eq; subst. split; [lra|]. rewrite Hxx. lra. }
  specialize (H ltac:(lra) Hin). lra.
Qed.
