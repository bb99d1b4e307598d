(** * The perceptron update is a subgradient step (step size 1) on the loss max(0, -y w.x)
    (notes on the perceptron with bias, closing remark). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Hinge.
Open Scope R_scope.

Definition perceptron_loss (d : nat) (x : Vec) (y : R) (w : Vec) : R := hinge (- (y * dot d w x)).

(** The perceptron's choice of subgradient: -y x where y w.x <= 0 (a tie included), else 0. *)
Definition perceptron_subgradient (d : nat) (x : Vec) (y : R) (w : Vec) : Vec :=
  if Rle_b (y * dot d w x) 0 then smul (- y) x else vzero.

Lemma subgradient_inequality (d : nat) (x : Vec) (y : R) (w v : Vec) :
  perceptron_loss d x y v >= perceptron_loss d x y w + dot d (perceptron_subgradient d x y w) (vsub v w).
Proof.
  unfold perceptron_loss, perceptron_subgradient, hinge.
  rewrite dot_vsub_r.
  destruct (Rle_b (y * dot d w x) 0) eqn:E.
  - apply Rle_b_spec in E. rewrite !dot_smul_l, !(dot_comm d x).
    pose proof (Rmax_r 0 (- (y * dot d v x))). rewrite (Rmax_right 0 (- (y * dot d w x))) by lra. lra.
  - apply Rle_b_false in E. rewrite !dot_vzero_l. pose proof (Rmax_l 0 (- (y * dot d v x))).
    rewrite (Rmax_left 0 (- (y * dot d w x))) by lra. lra.
Qed.

Lemma step_is_update (d : nat) (x : Vec) (y : R) (w : Vec) :
  vsub w (smul 1 (perceptron_subgradient d x y w)) = ite (Rle_b (y * dot d w x) 0) (vadd w (smul y x)) w.
Proof.
  unfold perceptron_subgradient, ite. apply functional_extensionality; intro i.
  destruct (Rle_b (y * dot d w x) 0); unfold vsub, vadd, smul, vzero; ring.
Qed.

Theorem perceptron_is_subgradient_descent (d : nat) (x : Vec) (y : R) (w : Vec) :
  (forall v, perceptron_loss d x y v >= perceptron_loss d x y w + dot d (perceptron_subgradient d x y w) (vsub v w))
  /\ vsub w (smul 1 (perceptron_subgradient d x y w)) = ite (Rle_b (y * dot d w x) 0) (vadd w (smul y x)) w.
Proof. split; [intro v; apply subgradient_inequality|apply step_is_update]. Qed.
