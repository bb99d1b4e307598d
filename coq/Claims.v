(** * Claim 1 and Claim 2: what one perceptron update does to w.w* and to |w|^2
    (Blum, Perceptron notes; Lin's slides), and the strict form of Claim 2 that is false. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas.
Require Import Mistakebound.Num Mistakebound.Learners Mistakebound.LearnersBridge.
Open Scope R_scope.

(** Claim 1: on every update (mistake or not) w.w* grows by y (u.x) >= gamma. *)
Theorem claim1_correlation_growth (d : nat) (w x u : Vec) (y gamma : R) :
  y * dot d u x >= gamma -> dot d (vadd w (smul y x)) u >= dot d w u + gamma.
Proof. intros H. rewrite dot_update_expand, (dot_comm d x u). lra. Qed.

(** The margin as Blum defines it: gamma = min |w*.x| over examples the target classifies right. *)
Lemma margin_from_min_distance (y xu gamma : R) :
  y ^ 2 = 1 -> y * xu > 0 -> Rabs xu >= gamma -> y * xu >= gamma.
Proof.
  intros Hy Hpos Habs. assert (y = 1 \/ y = -1) as [->| ->] by nra;
  unfold Rabs in Habs; destruct (Rcase_abs xu); lra.
Qed.

(** Lin's two-sided margin: x.w* >= 1 on positives and <= -1 on negatives. *)
Theorem claim1_margin_one (d : nat) (w x u : Vec) (y : R) :
  y * dot d u x >= 1 -> dot d (vadd w (smul y x)) u >= dot d w u + 1.
Proof. apply claim1_correlation_growth. Qed.

Lemma two_sided_margin_is_label_margin (y xu : R) :
  y ^ 2 = 1 -> (y = 1 -> xu >= 1) -> (y = -1 -> xu <= -1) -> y * xu >= 1.
Proof. intros Hy Hp Hn. assert (y = 1 \/ y = -1) as [E|E] by nra; [specialize (Hp E)|specialize (Hn E)]; subst; lra. Qed.

(** Claim 2: on a mistake (a tie counts) |w|^2 grows by at most |x|^2 <= R^2. *)
Theorem claim2_norm_growth (d : nat) (w x : Vec) (y R2 : R) :
  y ^ 2 = 1 -> y * dot d w x <= 0 -> dot d x x <= R2 ->
  dot d (vadd w (smul y x)) (vadd w (smul y x)) <= dot d w w + R2.
Proof. intros Hy Hm Hr. rewrite norm_update_expand, Hy. lra. Qed.

Theorem claim2_unit_examples (d : nat) (w x : Vec) (y : R) :
  y ^ 2 = 1 -> y * dot d w x <= 0 -> dot d x x = 1 ->
  dot d (vadd w (smul y x)) (vadd w (smul y x)) <= dot d w w + 1.
Proof. intros Hy Hm Hr. apply claim2_norm_growth; [exact Hy|exact Hm|lra]. Qed.

(** The erratum: with '<' Claim 2 is false.  The tie w.x = 0 at w = (1,0), x = (0,1), y = +1. *)
Definition vecQ (l : list Q) : nat -> Q := fun i => nth i l 0%Q.
Definition vecR (l : list Q) : Vec := fun i => Q2R (nth i l 0%Q).

Definition claim2_strict_replay : bool :=
  let w := vecQ (1%Q :: 0%Q :: nil) in
  let x := vecQ (0%Q :: 1%Q :: nil) in
  let y := 1%Q in
  let w' := perc_update QN w x y in
  (* a mistake (y w.x <= 0), and |w'|^2 < |w|^2 + 1 fails *)
  andb (Qle_bool (y * ndot QN 2 w x) 0) (Qle_bool (ndot QN 2 w w + 1) (ndot QN 2 w' w')).

Lemma claim2_strict_replay_true : claim2_strict_replay = true.
Proof. vm_compute. reflexivity. Qed.

Lemma Q2R_perc_update (w x : nat -> Q) (y : Q) :
  (fun i => Q2R (perc_update QN w x y i)) = vadd (fun i => Q2R (w i)) (smul (Q2R y) (fun i => Q2R (x i))).
Proof.
  apply functional_extensionality; intro i. unfold perc_update, vadd, smul; simpl.
  rewrite Q2R_plus, Q2R_mult. reflexivity.
Qed.

Theorem erratum_claim2_strict :
  ~ (forall (d : nat) (w x : Vec) (y : R), y ^ 2 = 1 -> y * dot d w x <= 0 -> dot d x x = 1 ->
       dot d (vadd w (smul y x)) (vadd w (smul y x)) < dot d w w + 1).
Proof.
  intros H.
  pose proof claim2_strict_replay_true as E. unfold claim2_strict_replay in E.
  apply andb_prop in E as [E1 E2]. apply Qle_bool_R in E1. apply Qle_bool_R in E2.
  rewrite Q2R_mult, Q2R_ndot, Q2R_1, Q2R_0 in E1.
  rewrite Q2R_plus, !Q2R_ndot, Q2R_1, Q2R_perc_update, Q2R_1 in E2.
  specialize (H 2%nat (vecR (1%Q :: 0%Q :: nil)) (vecR (0%Q :: 1%Q :: nil)) 1).
  assert (Hxx : dot 2 (vecR (0%Q :: 1%Q :: nil)) (vecR (0%Q :: 1%Q :: nil)) = 1).
  { unfold dot, vecR; simpl. rewrite Q2R_0, Q2R_1. lra. }
  specialize (H ltac:(lra) E1 Hxx). change (vecR (1%Q :: 0%Q :: nil)) with (fun i => Q2R (vecQ (1%Q :: 0%Q :: nil) i)) in H.
  change (vecR (0%Q :: 1%Q :: nil)) with (fun i => Q2R (vecQ (0%Q :: 1%Q :: nil) i)) in H.
  lra.
Qed.
