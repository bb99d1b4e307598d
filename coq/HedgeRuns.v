(** * The Hedge learner ([LearnersHedge.v]) read as the run of the catalogue's [hedge_bound]: the
    weights before step t, the losses of row t, the total weight and the step's averaged loss
    satisfy the catalogue's update equations, so [Catalogue_hedge.hedge_core] bounds the learner's
    own total loss (Freund & Schapire 1997, Theorem 2). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Import Mistakebound.LearnersHedge Mistakebound.Catalogue_experts Mistakebound.Catalogue_hedge.
Require Import Reals Lra Lia List.
Import ListNotations.
Open Scope R_scope.

Lemma sum_lt_shift n (f : nat -> R) : sum_lt (S n) f = f 0%nat + sum_lt n (fun i => f (S i)).
Proof. induction n as [|n IH]; simpl in *; [ring|]. rewrite IH. ring. Qed.

Lemma weights_succ beta w ex t : (t < length ex)%nat ->
  hedge_weights beta w ex (S t) = hedge_update beta (hedge_weights beta w ex t) (nth t ex []).
Proof.
  revert w t. induction ex as [|row rest IH]; intros w t Ht; simpl in Ht; [lia|].
  destruct t as [|t]; [reflexivity|]. simpl. apply IH. lia.
Qed.

Lemma loss_as_sum beta n w ex :
  hedge_loss beta n w ex = sum_lt (length ex) (fun t => hedge_step_loss n (hedge_weights beta w ex t) (nth t ex [])).
Proof.
  revert w. induction ex as [|row rest IH]; intros w; [reflexivity|].
  simpl length. rewrite sum_lt_shift. simpl. rewrite IH. reflexivity.
Qed.

Lemma option_as_sum j ex : option_loss j ex = sum_lt (length ex) (fun t => nth j (nth t ex []) 0).
Proof.
  induction ex as [|row rest IH]; [reflexivity|].
  simpl length. rewrite sum_lt_shift. simpl. rewrite IH. reflexivity.
Qed.

Lemma weights_pos beta ex : beta > 0 -> forall t i, 0 < hedge_weights beta hedge_start ex t i.
Proof.
  intros B. assert (G : forall w, (forall i, 0 < w i) -> forall t i, 0 < hedge_weights beta w ex t i).
  { induction ex as [|row rest IH]; intros w P t i; destruct t; simpl; try apply P.
    apply IH. intros k. unfold hedge_update. apply Rmult_lt_0_compat; [apply P | apply exp_pos]. }
  apply G. intros; unfold hedge_start; lra.
Qed.

Theorem learner_hedge :
  forall (beta : R) (j : nat) (ln_inv_beta ln_n : R) (n : nat) (ex : list (list R)),
  (forall row, In row ex -> forall i, (0 <= i)%nat /\ (i < n)%nat -> 0 <= nth i row 0 <= 1) ->
  (n >= 1)%nat -> (j < n)%nat -> (beta > 0 /\ beta < 1) -> exp ln_inv_beta * beta = 1 -> exp ln_n = INR n ->
  hedge_loss beta n hedge_start ex <= (ln_inv_beta * option_loss j ex + ln_n) / (1 - beta).
Proof.
  intros beta j lib ln_n n ex Hrows Hn Hj Hb Hlib Hln.
  set (T := length ex).
  set (w := fun t i => hedge_weights beta hedge_start ex t i).
  set (l := fun t i => nth i (nth t ex []) 0).
  set (W := fun t => sum_lt n (w t)).
  set (H := fun t => hedge_step_loss n (w t) (nth t ex [])).
  assert (Lib : ln beta = - lib).
  { assert (E : beta = exp (- lib)) by (rewrite exp_Ropp; pose proof (exp_pos lib); field_simplify_eq; lra).
    rewrite E, ln_exp. reflexivity. }
  assert (Wpos : forall t, 0 < W t).
  { intros t. unfold W. destruct n as [|m]; [lia|]. rewrite sum_lt_shift.
    pose proof (weights_pos beta ex (proj1 Hb) t 0). assert (0 <= sum_lt m (fun i => w t (S i))).
    { apply sum_lt_nonneg. intros i _. left. apply weights_pos, Hb. } unfold w in *. lra. }
  rewrite loss_as_sum, option_as_sum. fold T.
  replace (sum_lt T (fun t => hedge_step_loss n (hedge_weights beta hedge_start ex t) (nth t ex []))) with (sum_lt T H)
    by reflexivity.
  replace (sum_lt T (fun t => nth j (nth t ex []) 0)) with (sum_lt T (fun s => l s j)) by reflexivity.
  apply le_div_of_mul; [lra|]. rewrite Rmult_comm.
  apply (hedge_core T n j w l H W beta lib ln_n Hn Hj Hb Hlib Hln).
  - intros i Hi. reflexivity.
  - intros t i Ht Hi. apply Hrows; [apply nth_In; exact Ht | split; [apply Nat.le_0_l | exact Hi]].
  - intros t i Ht Hi. unfold w. rewrite weights_succ by exact Ht. unfold hedge_update, Rpower.
    rewrite Lib. f_equal. f_equal. unfold l. ring.
  - intros t Ht. reflexivity.
  - intros t Ht. unfold H, hedge_step_loss, l. fold (W t). pose proof (Wpos t). field. lra.
Qed.

(** Tuned to its number of rows T, beta = exp(-sqrt(2 ln n / T)): the learner's regret against every
    option is at most sqrt(2 T ln n) ([Catalogue_hedge.hedge_regret_bound] on the learner's run). *)
Theorem learner_hedge_regret :
  forall (beta : R) (j : nat) (ln_inv_beta ln_n : R) (n : nat) (ex : list (list R)),
  (forall row, In row ex -> forall i, (0 <= i)%nat /\ (i < n)%nat -> 0 <= nth i row 0 <= 1) ->
  (n >= 1)%nat -> (j < n)%nat -> (beta > 0 /\ beta < 1) -> exp ln_inv_beta * beta = 1 -> exp ln_n = INR n ->
  let T : nat := length ex in
  (T >= 1)%nat -> ln_inv_beta = sqrt (2 * ln_n / INR T) ->
  hedge_loss beta n hedge_start ex - option_loss j ex <= sqrt (INR (2 * T) * ln_n).
Proof.
  intros beta j lib ln_n n ex Hrows Hn Hj Hb Hlib Hln T HT Htune.
  assert (TE : T = length ex) by reflexivity.
  set (w := fun t i => hedge_weights beta hedge_start ex t i).
  set (l := fun t i => nth i (nth t ex []) 0).
  set (W := fun t => sum_lt n (w t)).
  set (H := fun t => hedge_step_loss n (w t) (nth t ex [])).
  assert (Lib : ln beta = - lib).
  { assert (E : beta = exp (- lib)) by (rewrite exp_Ropp; pose proof (exp_pos lib); field_simplify_eq; lra).
    rewrite E, ln_exp. reflexivity. }
  assert (Wpos : forall t, 0 < W t).
  { intros t. unfold W. destruct n as [|m]; [lia|]. rewrite sum_lt_shift.
    pose proof (weights_pos beta ex (proj1 Hb) t 0). assert (0 <= sum_lt m (fun i => w t (S i))).
    { apply sum_lt_nonneg. intros i _. left. apply weights_pos, Hb. } unfold w in *. lra. }
  pose proof (Catalogue_hedge.hedge_regret_bound H T W beta j l lib ln_n n w Hn Hj Hb Hlib Hln) as B.
  rewrite !Glue.sum_incl_first in B.
  rewrite loss_as_sum, option_as_sum. fold T.
  replace (sum_lt T (fun t => hedge_step_loss n (hedge_weights beta hedge_start ex t) (nth t ex []))) with (sum_lt T H)
    by reflexivity.
  replace (sum_lt T (fun t => nth j (nth t ex []) 0)) with (sum_lt T (fun s => l s j)) by reflexivity.
  apply B; [| | | | |exact HT|exact Htune].
  - intros i Hi. reflexivity.
  - intros t i Ht. assert (Ht1 : (t < length ex)%nat) by lia. assert (Hi : (i < n)%nat) by lia.
    destruct (Hrows (nth t ex []) ltac:(apply nth_In; exact Ht1) i (conj (Nat.le_0_l i) Hi)). unfold l. lra.
  - intros t i Ht. unfold w. rewrite Nat.add_1_r, weights_succ by lia. unfold hedge_update, Rpower.
    rewrite Lib. f_equal. f_equal. unfold l. ring.
  - intros t Ht. rewrite Glue.sum_incl_first. reflexivity.
  - intros t Ht. rewrite Glue.sum_incl_first. unfold H, hedge_step_loss, l. fold (W t). pose proof (Wpos t). field. lra.
Qed.
