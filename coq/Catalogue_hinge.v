(** * Catalogue: the hinge-loss and TD_gamma bounds, the exact hinge form, the dropped-square
    erratum and the subgradient reading, at the statements printed from the catalogue's formulas. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Mistakebound.Hinge Mistakebound.Subgradient Mistakebound.FreundSchapire.
Require Import Mistakebound.Statements.
Open Scope R_scope.

Lemma hinge_sum_comm (d M : nat) (x : nat -> Vec) (y : nat -> R) (u : Vec) (m : R) :
  sum_lt M (fun i => Rmax 0 (m - y i * dot d (x i) u))
  = sum_lt M (fun k => Hinge.hinge (m - y k * dot d u ((fun k => trunc d (x k)) k))).
Proof. apply sum_lt_ext; intros; unfold Hinge.hinge; rewrite dot_trunc_r, dot_comm; reflexivity. Qed.

Theorem hinge_loss_bound : hinge_loss_bound_statement.
Proof.
  intros dim M R_ u w x y H0 Hu Hm Hy Hr. rewrite sum_incl_first, hinge_sum_comm.
  destruct (run_trunc dim M w x y H0 Hu) as [T0 TS].
  apply (Hinge.hinge_loss_bound dim M (fun k => trunc dim (w k)) (fun k => trunc dim (x k)) y u R_ T0 TS);
    [below_tr Hm | exact (below Hy) | below_tr Hr].
Qed.

Theorem hinge_total_distance : hinge_total_distance_statement.
Proof.
  intros dim M R_ g u w x y H0 Hu Hm Hy Hr Hu1 Hg. rewrite sum_incl_first, hinge_sum_comm.
  destruct (run_trunc dim M w x y H0 Hu) as [T0 TS].
  apply (Hinge.hinge_total_distance dim M (fun k => trunc dim (w k)) (fun k => trunc dim (x k)) y u R_ g T0 TS);
    [below_tr Hm | exact (below Hy) | below_tr Hr | exact Hu1 | exact Hg].
Qed.

Theorem hinge_bound_exact_form : hinge_bound_exact_form_statement.
Proof.
  intros dim M R_ u w x y H0 Hu Hm Hy Hr HR. rewrite !sum_incl_first, !hinge_sum_comm.
  destruct (run_trunc dim M w x y H0 Hu) as [T0 TS].
  apply (Hinge.hinge_bound_exact_form dim M (fun k => trunc dim (w k)) (fun k => trunc dim (x k)) y u R_ T0 TS);
    [below_tr Hm | exact (below Hy) | below_tr Hr | exact HR].
Qed.

(** The counterexample: one example x = (1/4), y = +1, w* = (4): the first step from w = 0 is a tie,
    hence a mistake (M = 1), the margin is 1 (no hinge loss) and R^2 |w*| = 1/4 < 1. *)
Theorem erratum_hinge_dropped_square : ~ erratum_hinge_dropped_square_statement.
Proof.
  intros H.
  specialize (H 1%nat 1%nat (1 / 4) (fun _ => 4) (fun k => match k with O => vzero | _ => fun _ => 1 / 4 end)
                (fun _ _ => 1 / 4) (fun _ => 1)).
  assert (D : forall a b : Vec, dot 1 a b = a 0%nat * b 0%nat) by (intros; unfold dot; simpl; ring).
  rewrite !D in H. unfold vzero in H.
  assert (S16 : sqrt (4 * 4) = 4) by (apply sqrt_square; lra).
  rewrite S16, sum_incl_first in H. simpl sum_lt in H. simpl INR in H.
  assert (E : Rmax 0 (1 - 1 * (1 / 4 * 4)) = 0) by (apply Rmax_left; lra).
  assert (C : (1 / 4) ^ 2 * 4 + 2 * (0 + 0) = 1 / 4) by field.
  rewrite E, C in H.
  enough (1 <= 1 / 4) by lra.
  apply H.
  - intros i _. reflexivity.
  - intros k Hk. replace k with 0%nat by lia. intros i _.
    unfold vadd, smul. simpl. lra.
  - intros k Hk. replace k with 0%nat by lia. rewrite D. lra.
  - intros k Hk. lra.
  - intros k Hk. lra.
Qed.

Theorem perceptron_is_subgradient_descent : perceptron_is_subgradient_descent_statement.
Proof.
  intros dim v w x y. rewrite !(dot_comm dim x).
  destruct (Rle_b (y * dot dim w x) 0) eqn:E; split.
  - apply Rle_b_spec in E. rewrite dot_smul_l, dot_vsub_r, !(dot_comm dim x).
    rewrite (Rmax_right 0 (- y * dot dim w x)) by lra. pose proof (Rmax_r 0 (- y * dot dim v x)). lra.
  - intros i _. unfold vsub, vadd, smul. ring.
  - apply Rle_b_false in E. rewrite dot_vzero_l, (Rmax_left 0 (- y * dot dim w x)) by lra.
    pose proof (Rmax_l 0 (- y * dot dim v x)). lra.
  - intros i _. unfold vsub, vzero. ring.
Qed.

(** Freund & Schapire (1999), Thm 2: the perceptron on any sequence makes at most ((R + D)/gamma)^2
    mistakes (FreundSchapire.v). *)
Theorem freund_schapire_bound : freund_schapire_bound_statement.
Proof.
  intros dim M R_ g u w x y H0 Hu Hm Hy Hr HR Hu1 Hg. rewrite sum_incl_first.
  rewrite (sum_lt_ext M _ (fun k => Hinge.hinge (g - y k * dot dim u (trunc dim (x k))) ^ 2))
    by (intros; unfold Hinge.hinge; rewrite dot_trunc_r, dot_comm; reflexivity).
  destruct (run_trunc dim M w x y H0 Hu) as [T0 TS].
  apply (FreundSchapire.freund_schapire dim M (fun k => trunc dim (w k)) (fun k => trunc dim (x k)) y u R_ g
           T0 TS); [below_tr Hm | exact (below Hy) | below_tr Hr | exact HR | exact Hu1 | exact Hg].
Qed.
