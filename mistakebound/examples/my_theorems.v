(* The Coq proof of mistakebound/examples/my_theorems.py: the statement printed by
   `mistakebound verify --file ... --coq-out`, proved from the catalogue's Block-Novikoff lemma.
   Checked by `mistakebound verify --file mistakebound/examples/my_theorems.py --coq`. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Tactics.
Open Scope R_scope.

Require Mistakebound.Catalogue_block_novikoff.

(* perceptron_margin_third_nine_mistakes: With margin at least 1/3 the perceptron makes at most 9 mistakes *)
Definition perceptron_margin_third_nine_mistakes_statement : Prop :=
  forall (dim : nat) (M : nat) (g : R) (u : Vec) (w : nat -> Vec) (x : nat -> Vec) (y : nat -> R),
  (veq dim (w (0)%nat) vzero) ->
  (forall (k : nat), (((0 <= k)%nat /\ (k < M)%nat) -> (veq dim (w ((k + 1))%nat) (vadd (w (k)%nat) (smul (y (k)%nat) (x (k)%nat)))))) ->
  (forall (k : nat), (((0 <= k)%nat /\ (k < M)%nat) -> (((y (k)%nat) * (dot dim (w (k)%nat) (x (k)%nat))) <= 0))) ->
  (forall (k : nat), (((0 <= k)%nat /\ (k < M)%nat) -> (((y (k)%nat) ^ 2) = 1))) ->
  (forall (k : nat), (((0 <= k)%nat /\ (k < M)%nat) -> (((y (k)%nat) * (dot dim (x (k)%nat) u)) >= g))) ->
  (forall (k : nat), (((0 <= k)%nat /\ (k < M)%nat) -> ((dot dim (x (k)%nat) (x (k)%nat)) = 1))) ->
  ((dot dim u u) = 1) ->
  (g > 0) ->
  (g >= (1 / 3)) ->
  (M <= 9)%nat.

Theorem perceptron_margin_third_nine_mistakes : perceptron_margin_third_nine_mistakes_statement.
Proof.
  intros dim M g u w x y H0 Hu Hm Hy Hg Hx Hu1 Hg0 Hthird.
  pose proof (Mistakebound.Catalogue_block_novikoff.block_novikoff_unit dim M g u w x y H0 Hu Hm Hy Hg Hx Hu1 Hg0)
    as HB.
  assert (Hg2 : g ^ 2 >= 1 / 9) by nra.
  assert (H9 : 1 / (g ^ 2) <= 9).
  { unfold Rdiv. rewrite Rmult_1_l. apply (Rmult_le_reg_r (g ^ 2)); [lra|].
    rewrite Rinv_l; lra. }
  assert (HM : INR M <= INR 9) by (simpl; lra).
  apply INR_le. exact HM.
Qed.

