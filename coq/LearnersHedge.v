(** * Hedge (Freund & Schapire 1997, section 2) over the reals: n options, each starting at weight
    1; a step plays the weights' distribution, suffers the losses of the row averaged by the
    weights, and multiplies the weight of option i by beta^(l_i) ([Rpower]).  A row is a list of
    losses, option i's the i-th (0 beyond the row).  [hedge_loss] is Hedge's total loss,
    [option_loss j] option j's; the suite's Python learner is [learners.run_hedge]. *)
Require Import Mistakebound.Prelude.
Require Import Reals List.
Import ListNotations.
Open Scope R_scope.

Definition hedge_start : nat -> R := fun _ => 1.

Definition hedge_update (beta : R) (w : nat -> R) (row : list R) : nat -> R :=
  fun i => w i * Rpower beta (nth i row 0).

(** the losses of the row averaged by the weights: sum_i w_i l_i / sum_i w_i *)
Definition hedge_step_loss (n : nat) (w : nat -> R) (row : list R) : R :=
  sum_lt n (fun i => w i * nth i row 0) / sum_lt n w.

Fixpoint hedge_loss (beta : R) (n : nat) (w : nat -> R) (ex : list (list R)) : R :=
  match ex with
  | [] => 0
  | row :: rest => hedge_step_loss n w row + hedge_loss beta n (hedge_update beta w row) rest
  end.

Fixpoint option_loss (j : nat) (ex : list (list R)) : R :=
  match ex with
  | [] => 0
  | row :: rest => nth j row 0 + option_loss j rest
  end.

(** the weights before step t *)
Fixpoint hedge_weights (beta : R) (w : nat -> R) (ex : list (list R)) (t : nat) {struct t} : nat -> R :=
  match t with
  | O => w
  | S t' => match ex with
            | row :: rest => hedge_weights beta (hedge_update beta w row) rest t'
            | [] => w
            end
  end.
