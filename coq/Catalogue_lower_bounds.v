(** * Catalogue: the margin lower bound (Shalev-Shwartz 2012, sec. 3; Blum's 15-859 notes) at the
    statement printed from the catalogue's formulas: on d orthonormal examples, each labelled
    against the learner's prediction, u = (1/sqrt d) sum_s y_s x_s is a unit vector with margin
    1/sqrt d >= gamma on every example, and the learner errs d times. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Import Mistakebound.Catalogue_kernels Mistakebound.Statements.
Require Import Reals Lra Lia.
Open Scope R_scope.

Lemma sum_delta (n t : nat) (f : nat -> R) : (t < n)%nat ->
  sum_lt n (fun s => f s * INR (if Nat.eqb s t then 1%nat else 0%nat)) = f t.
Proof.
  induction n as [|n IH]; intros H; [lia|]. cbn [sum_lt]. destruct (Nat.eq_dec t n) as [->|N].
  - rewrite Nat.eqb_refl, (sum_lt_ext n _ (fun _ => 0)), sum_lt_zero; [simpl; ring|].
    intros i Hi. destruct (Nat.eqb_spec i n); [lia|]. simpl; ring.
  - rewrite IH by lia. destruct (Nat.eqb_spec n t); [lia|]. simpl; ring.
Qed.

Theorem margin_lower_bound : margin_lower_bound_statement.
Proof.
  intros dim d g p t x y Hd Hg Hdg Hx Hp Hy. rewrite vsum_incl_first, sum_incl_first.
  set (S := vsum_lt d (fun s => smul (y s) (x s))).
  assert (Y2 : forall s, (s < d)%nat -> y s * y s = 1).
  { intros s Hs. rewrite (Hy s ltac:(lia)). pose proof (Hp s ltac:(lia)). nra. }
  assert (K : forall t2, (t2 < d)%nat -> dot dim S (x t2) = y t2).
  { intros t2 Ht2. unfold S. rewrite dot_vsum_l.
    rewrite (sum_lt_ext d _ (fun s => y s * INR (if Nat.eqb s t2 then 1%nat else 0%nat))).
    - apply sum_delta. exact Ht2.
    - intros s Hs. rewrite dot_smul_l, (Hx s t2 ltac:(lia)). reflexivity. }
  assert (Dp : 0 < INR d) by (apply lt_0_INR; lia).
  assert (Sq : 0 < sqrt (INR d)) by (apply sqrt_lt_R0; exact Dp).
  assert (SS : sqrt (INR d) * sqrt (INR d) = INR d) by (apply sqrt_sqrt; lra).
  split; [|split].
  - rewrite dot_smul_l, dot_smul_r. unfold S at 1. rewrite dot_vsum_l.
    rewrite (sum_lt_ext d _ (fun _ => 1)).
    + rewrite sum_lt_const. set (q := sqrt (INR d)) in *. rewrite <- SS. field. lra.
    + intros s Hs. rewrite dot_smul_l, dot_comm, K by exact Hs. apply Y2, Hs.
  - intros Ht. rewrite dot_smul_l, K by lia.
    assert (Gs : g * sqrt (INR d) <= 1).
    { assert (0 <= g * sqrt (INR d)) by nra.
      assert ((g * sqrt (INR d)) ^ 2 <= 1).
      { replace ((g * sqrt (INR d)) ^ 2) with (g ^ 2 * (sqrt (INR d) * sqrt (INR d))) by ring.
        rewrite SS. lra. }
      nra. }
    replace (y t * (1 / sqrt (INR d) * y t)) with (1 / sqrt (INR d)) by (field_simplify_eq; [|lra];
      pose proof (Y2 t ltac:(lia)); nra).
    apply Rle_ge. apply Rmult_le_reg_r with (sqrt (INR d)); [exact Sq|].
    replace (1 / sqrt (INR d) * sqrt (INR d)) with 1 by (field; lra). exact Gs.
  - rewrite (sum_lt_ext d _ (fun _ => 1)); [rewrite sum_lt_const; ring|].
    intros s Hs. rewrite (Hy s ltac:(lia)). pose proof (Hp s ltac:(lia)). nra.
Qed.
