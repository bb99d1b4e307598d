(** * The second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005, 'A second-order perceptron
    algorithm', SIAM J. Computing 34(3), section 3) as a Coq function over the reals, as the
    suite's Python learner runs it: parameter a > 0, vectors of R^d.

    The state after k mistakes is v_k = sum of y_s x_s over the mistake rounds and the linear map
    B_k, the inverse of A_k = a I + sum_s x_s x_s^T, kept as a function [Vec -> Vec] and updated
    by Sherman-Morrison, so that no matrix inverse and no determinant is ever formed:
      B_0 z = z / a,    SM(B, x) z = B z - (B x) (x . B z) / (1 + x . B x).
    At a round with instance x_t the learner looks at B' = SM(B_k, x_t) (x_t's own outer product
    added), its margin is m_t = v_k . B' x_t and it predicts +1 when m_t > 0, else -1.  A mistake is
    y_t m_t <= 0 (a tie counts); then v_{k+1} = v_k + y_t x_t and B_{k+1} = B'; otherwise nothing
    changes.

    [sop_run] returns the run's mistake rounds in order, each as (x_k, y_k, q_k) with
    q_k = x_k . B_{k-1} x_k read on the learner's state before the update; [sop_mistakes] is their
    number.  [SecondOrderPerceptron.v] bounds it. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude.
Require Import List.
Open Scope R_scope.

(** B_0 z = z / a *)
Definition sop_start (a : R) : Vec -> Vec := fun z => smul (/ a) z.

(** Sherman-Morrison: the inverse of A + x x^T from B, the inverse of A. *)
Definition sop_sm (d : nat) (B : Vec -> Vec) (x : Vec) : Vec -> Vec :=
  fun z => vsub (B z) (smul (dot d x (B z) / (1 + dot d x (B x))) (B x)).

(** The margin at instance x: v . SM(B, x) x. *)
Definition sop_margin (d : nat) (v : Vec) (B : Vec -> Vec) (x : Vec) : R := dot d v (sop_sm d B x x).

Definition sop_predict (d : nat) (v : Vec) (B : Vec -> Vec) (x : Vec) : R :=
  if Rlt_b 0 (sop_margin d v B x) then 1 else -1.

(** The run from the state (v, B): its mistake rounds (x, y, q) in order. *)
Fixpoint sop_go (d : nat) (v : Vec) (B : Vec -> Vec) (ex : list (Vec * R)) : list (Vec * R * R) :=
  match ex with
  | nil => nil
  | (x, y) :: rest =>
      if Rle_b (y * sop_margin d v B x) 0
      then (x, y, dot d x (B x)) :: sop_go d (vadd v (smul y x)) (sop_sm d B x) rest
      else sop_go d v B rest
  end.

(** The learner with parameter a on the examples: its mistake rounds, and their number. *)
Definition sop_run (d : nat) (a : R) (ex : list (Vec * R)) : list (Vec * R * R) := sop_go d vzero (sop_start a) ex.

Definition sop_mistakes (d : nat) (a : R) (ex : list (Vec * R)) : nat := length (sop_run d a ex).

(** The state after the run (v_M, B_M). *)
Fixpoint sop_final (d : nat) (v : Vec) (B : Vec -> Vec) (ex : list (Vec * R)) : Vec * (Vec -> Vec) :=
  match ex with
  | nil => (v, B)
  | (x, y) :: rest =>
      if Rle_b (y * sop_margin d v B x) 0
      then sop_final d (vadd v (smul y x)) (sop_sm d B x) rest
      else sop_final d v B rest
  end.

(** Sums over the mistake rounds, and the quantities of the bound read on them:
    sum_k ln(1 + q_k), sum_k q_k / (1 + q_k), sum_k (u . x_k)^2, and the hinge losses
    D = sum_k max(0, gamma - y_k u . x_k). *)
Fixpoint sop_sum (f : Vec -> R -> R -> R) (ms : list (Vec * R * R)) : R :=
  match ms with
  | nil => 0
  | (x, y, q) :: rest => f x y q + sop_sum f rest
  end.

Definition sop_log_sum (ms : list (Vec * R * R)) : R := sop_sum (fun _ _ q => ln (1 + q)) ms.
Definition sop_ratio_sum (ms : list (Vec * R * R)) : R := sop_sum (fun _ _ q => q / (1 + q)) ms.
Definition sop_proj_sum (d : nat) (u : Vec) (ms : list (Vec * R * R)) : R :=
  sop_sum (fun x _ _ => dot d u x ^ 2) ms.
Definition sop_hinge_sum (d : nat) (u : Vec) (g : R) (ms : list (Vec * R * R)) : R :=
  sop_sum (fun x y _ => Rmax 0 (g - y * dot d u x)) ms.
