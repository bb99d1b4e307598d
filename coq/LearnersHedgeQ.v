(** * Hedge over the rationals, the run [python -m coq differential] compares with the suite's exact
    Python learner ([learners.run_hedge(exact=True)]).  The real learner of LearnersHedge.v
    multiplies a weight by [Rpower beta l], which [vm_compute] cannot evaluate; here the losses are
    k/m (k, m naturals) and beta = b^m for a rational b, so that beta^(k/m) = b^k is rational, and
    [hq_run] multiplies by [b^k].  [hq_loss_R]: read through Q2R, its total loss is the real
    learner's [hedge_loss (b^m) n] on the same losses -- the run compared with Python is the one
    the theorems (HedgeRuns.v) are about. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.LearnersHedge Mistakebound.LearnersTrace.
Require Import Reals QArith Qreals Lra Lia List.
Import ListNotations.
Open Scope Q_scope.

(** the loss k/m *)
Definition hq_frac (m k : nat) : Q := inject_Z (Z.of_nat k) / inject_Z (Z.of_nat m).

Definition hq_update (b : Q) (w : nat -> Q) (row : list nat) : nat -> Q :=
  fun i => w i * npow QN b (nth i row 0%nat).

Definition hq_step_loss (n m : nat) (w : nat -> Q) (row : list nat) : Q :=
  nsum QN n (fun i => w i * hq_frac m (nth i row 0%nat)) / nsum QN n w.

Fixpoint hq_loss (b : Q) (n m : nat) (w : nat -> Q) (ex : list (list nat)) : Q :=
  match ex with
  | [] => 0
  | row :: rest => hq_step_loss n m w row + hq_loss b n m (hq_update b w row) rest
  end.

(** the option of largest weight among the first k, the first on a tie *)
Fixpoint hq_best (k : nat) (w : nat -> Q) : nat :=
  match k with
  | O => O
  | S k' => let j := hq_best k' w in if Qlt_b (w j) (w k') then k' else j
  end.

(** the trace as the Python learner's steps: the step's loss, the option of largest weight
    before it, whether the loss is positive, the weights after it *)
Fixpoint hq_trace (b : Q) (n m : nat) (w : nat -> Q) (ex : list (list nat)) : list Z :=
  match ex with
  | [] => []
  | row :: rest =>
      let l := hq_step_loss n m w row in
      let w' := hq_update b w row in
      enc_Q l ++ [Z.of_nat (hq_best n w)] ++ enc_b (Qlt_b 0 l) ++ enc_vec n w' ++ hq_trace b n m w' rest
  end.

(** ** The rational run is the real one *)
Open Scope R_scope.
Definition hq_real (m k : nat) : R := INR k / INR m.
Definition hq_losses (m : nat) (ex : list (list nat)) : list (list R) := map (map (hq_real m)) ex.

Lemma hedge_loss_ext beta n ex : forall w w', (forall i, w i = w' i) ->
  hedge_loss beta n w ex = hedge_loss beta n w' ex.
Proof.
  induction ex as [|row ex IH]; intros w w' E; simpl; [reflexivity|].
  unfold hedge_step_loss. rewrite (sum_lt_ext n _ (fun i => w' i * nth i row 0)), (sum_lt_ext n w w').
  - f_equal. apply IH. intros i. unfold hedge_update. rewrite E. reflexivity.
  - intros i _. apply E.
  - intros i _. rewrite E. reflexivity.
Qed.

Lemma Q2R_frac m k : Q2R (hq_frac m k) = hq_real m k.
Proof.
  unfold hq_frac, hq_real, Qdiv. rewrite Q2R_mult, Q2R_inv'. unfold Rdiv. f_equal; [|f_equal];
  unfold Q2R; simpl; rewrite INR_IZR_INZ; field.
Qed.

Lemma nth_losses m row i : nth i (map (hq_real m) row) 0 = hq_real m (nth i row 0%nat).
Proof.
  replace 0 with (hq_real m 0%nat) at 1 by (unfold hq_real; simpl; unfold Rdiv; ring).
  exact (map_nth (hq_real m) row 0%nat i).
Qed.

Lemma Rpower_root (B : R) (m k : nat) : 0 < B -> (0 < m)%nat -> Rpower (B ^ m) (INR k / INR m) = B ^ k.
Proof.
  intros HB Hm. unfold Rpower. rewrite ln_pow by exact HB.
  assert (Pm : INR m <> 0) by (apply not_0_INR; lia).
  replace (INR k / INR m * (INR m * ln B)) with (INR k * ln B) by (field; exact Pm).
  rewrite <- (Rpower_pow k B HB). reflexivity.
Qed.

Lemma Q2R_npow x k : Q2R (npow QN x k) = Q2R x ^ k.
Proof. rewrite <- npow_R. exact (hom_npow Q2R_hom x k). Qed.

Theorem hq_loss_R (b : Q) (n m : nat) : 0 < Q2R b -> (0 < m)%nat -> forall ex w,
  Q2R (hq_loss b n m w ex) = hedge_loss (Q2R b ^ m) n (fun i => Q2R (w i)) (hq_losses m ex).
Proof.
  intros Hb Hm. induction ex as [|row ex IH]; intros w; simpl; [apply Q2R_0|].
  rewrite Q2R_plus, IH. f_equal.
  - unfold hq_step_loss, hedge_step_loss, Qdiv. rewrite Q2R_mult, Q2R_inv', !Q2R_nsum. unfold Rdiv. f_equal.
    apply sum_lt_ext. intros i _. rewrite Q2R_mult, Q2R_frac, nth_losses. reflexivity.
  - apply hedge_loss_ext. intros i. unfold hq_update, hedge_update.
    rewrite Q2R_mult, Q2R_npow, nth_losses. unfold hq_real. rewrite Rpower_root by assumption. reflexivity.
Qed.

(** from the start: every weight 1 *)
Corollary hq_loss_start (b : Q) (n m : nat) (ex : list (list nat)) : 0 < Q2R b -> (0 < m)%nat ->
  Q2R (hq_loss b n m (fun _ => 1%Q) ex) = hedge_loss (Q2R b ^ m) n hedge_start (hq_losses m ex).
Proof.
  intros Hb Hm. rewrite hq_loss_R by assumption. apply hedge_loss_ext. intros i. apply Q2R_1.
Qed.
