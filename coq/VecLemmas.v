(** * Finite sums and inner products: linearity, and Cauchy-Schwarz by Lagrange's identity. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude.
Open Scope R_scope.

Lemma sum_lt_ext n f g : (forall i, (i < n)%nat -> f i = g i) -> sum_lt n f = sum_lt n g.
Proof.
  induction n as [|n IH]; intros H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite H by lia. reflexivity.
Qed.

Lemma sum_lt_add n f g : sum_lt n (fun i => f i + g i) = sum_lt n f + sum_lt n g.
Proof. induction n; simpl; [lra|rewrite IHn; lra]. Qed.

Lemma sum_lt_sub n f g : sum_lt n (fun i => f i - g i) = sum_lt n f - sum_lt n g.
Proof. induction n; simpl; [lra|rewrite IHn; lra]. Qed.

Lemma sum_lt_scal n c f : sum_lt n (fun i => c * f i) = c * sum_lt n f.
Proof. induction n; simpl; [lra|rewrite IHn; lra]. Qed.

Lemma sum_lt_scal_r n c f : sum_lt n (fun i => f i * c) = sum_lt n f * c.
Proof. induction n; simpl; [lra|rewrite IHn; lra]. Qed.

Lemma sum_lt_const n c : sum_lt n (fun _ => c) = INR n * c.
Proof. induction n; simpl sum_lt; [simpl; lra|rewrite IHn, S_INR; lra]. Qed.

Lemma sum_lt_zero n : sum_lt n (fun _ => 0) = 0.
Proof. induction n; simpl; [lra|rewrite IHn; lra]. Qed.

Lemma sum_lt_le n f g : (forall i, (i < n)%nat -> f i <= g i) -> sum_lt n f <= sum_lt n g.
Proof.
  induction n as [|n IH]; intros H; simpl; [lra|].
  assert (sum_lt n f <= sum_lt n g) by (apply IH; intros; apply H; lia).
  specialize (H n (Nat.lt_succ_diag_r n)). lra.
Qed.

Lemma sum_lt_nonneg n f : (forall i, (i < n)%nat -> 0 <= f i) -> 0 <= sum_lt n f.
Proof. intros H. apply Rle_trans with (sum_lt n (fun _ => 0)); [rewrite sum_lt_zero; lra|apply sum_lt_le; exact H]. Qed.

Lemma sum_lt_split n m f : sum_lt (n + m) f = sum_lt n f + sum_lt m (fun i => f (n + i)%nat).
Proof.
  induction m as [|m IH]; simpl.
  - rewrite Nat.add_0_r. lra.
  - rewrite Nat.add_succ_r. simpl. rewrite IH. lra.
Qed.

Lemma sum_lt_swap n m (f : nat -> nat -> R) :
  sum_lt n (fun i => sum_lt m (fun j => f i j)) = sum_lt m (fun j => sum_lt n (fun i => f i j)).
Proof.
  induction n as [|n IH]; simpl.
  - rewrite sum_lt_zero. reflexivity.
  - rewrite IH, <- sum_lt_add. reflexivity.
Qed.

Lemma sum_lt_mul n m (f g : nat -> R) :
  sum_lt n f * sum_lt m g = sum_lt n (fun i => sum_lt m (fun j => f i * g j)).
Proof.
  rewrite <- sum_lt_scal_r. apply sum_lt_ext. intros i _. rewrite <- sum_lt_scal. reflexivity.
Qed.

(** Inner products. *)
Lemma dot_comm d a b : dot d a b = dot d b a.
Proof. unfold dot. apply sum_lt_ext. intros; ring. Qed.

Lemma dot_vadd_l d a b c : dot d (vadd a b) c = dot d a c + dot d b c.
Proof. unfold dot, vadd. rewrite <- sum_lt_add. apply sum_lt_ext. intros; ring. Qed.

Lemma dot_vadd_r d a b c : dot d c (vadd a b) = dot d c a + dot d c b.
Proof. unfold dot, vadd. rewrite <- sum_lt_add. apply sum_lt_ext. intros; ring. Qed.

Lemma dot_vsub_l d a b c : dot d (vsub a b) c = dot d a c - dot d b c.
Proof. unfold dot, vsub. rewrite <- sum_lt_sub. apply sum_lt_ext. intros; ring. Qed.

Lemma dot_vsub_r d a b c : dot d c (vsub a b) = dot d c a - dot d c b.
Proof. unfold dot, vsub. rewrite <- sum_lt_sub. apply sum_lt_ext. intros; ring. Qed.

Lemma dot_smul_l d k a b : dot d (smul k a) b = k * dot d a b.
Proof. unfold dot, smul. rewrite <- sum_lt_scal. apply sum_lt_ext. intros; ring. Qed.

Lemma dot_smul_r d k a b : dot d a (smul k b) = k * dot d a b.
Proof. unfold dot, smul. rewrite <- sum_lt_scal. apply sum_lt_ext. intros; ring. Qed.

Lemma dot_vzero_l d a : dot d vzero a = 0.
Proof.
  unfold dot, vzero. transitivity (sum_lt d (fun _ => 0)); [apply sum_lt_ext; intros; ring|apply sum_lt_zero].
Qed.

Lemma dot_vzero_r d a : dot d a vzero = 0.
Proof. rewrite dot_comm. apply dot_vzero_l. Qed.

Lemma dot_self_nonneg d a : 0 <= dot d a a.
Proof. unfold dot. apply sum_lt_nonneg. intros. nra. Qed.

Lemma dot_S d a b : dot (S d) a b = dot d a b + a d * b d.
Proof. reflexivity. Qed.

Lemma dot_ext d a a' b b' : (forall i, (i < d)%nat -> a i = a' i) -> (forall i, (i < d)%nat -> b i = b' i) ->
  dot d a b = dot d a' b'.
Proof. intros Ha Hb. unfold dot. apply sum_lt_ext. intros i Hi. rewrite Ha, Hb by exact Hi. reflexivity. Qed.

Lemma dot_veq_l d a b c : veq d a b -> dot d a c = dot d b c.
Proof. intros H. apply dot_ext; intros i Hi; [apply H, Hi|reflexivity]. Qed.

Lemma dot_veq_r d a b c : veq d a b -> dot d c a = dot d c b.
Proof. intros H. rewrite !(dot_comm d c). apply dot_veq_l, H. Qed.

(** Inner products of concatenations and tensor products. *)
Lemma dot_concat D1 D2 a b a' b' : dot (D1 + D2) (concat D1 a b) (concat D1 a' b') = dot D1 a a' + dot D2 b b'.
Proof.
  unfold dot. rewrite sum_lt_split. f_equal.
  - apply sum_lt_ext. intros i Hi. unfold concat. replace (Nat.ltb i D1) with true by (symmetry; apply Nat.ltb_lt; lia).
    reflexivity.
  - apply sum_lt_ext. intros i Hi. unfold concat. replace (Nat.ltb (D1 + i) D1) with false by (symmetry; apply Nat.ltb_ge; lia).
    replace (D1 + i - D1)%nat with i by lia. reflexivity.
Qed.

Lemma sum_lt_pairs D1 D2 f : sum_lt (D1 * D2) f = sum_lt D1 (fun a => sum_lt D2 (fun b => f (a * D2 + b)%nat)).
Proof.
  induction D1 as [|D1 IH]; [reflexivity|].
  rewrite Nat.mul_succ_l, sum_lt_split, IH. simpl. f_equal.
Qed.

Lemma dot_tensor D1 D2 a b a' b' : dot (D1 * D2) (tensor D2 a b) (tensor D2 a' b') = dot D1 a a' * dot D2 b b'.
Proof.
  unfold dot. rewrite sum_lt_pairs, sum_lt_mul. apply sum_lt_ext; intros i Hi. apply sum_lt_ext; intros j Hj.
  unfold tensor. assert (D2 <> 0%nat) by lia.
  rewrite Nat.div_add_l, Nat.div_small, Nat.add_0_r by lia.
  rewrite Nat.add_comm, Nat.mod_add, Nat.mod_small by lia. ring.
Qed.

Lemma dot_vec1 (s t : R) : dot 1 (vec1 s) (vec1 t) = s * t.
Proof. unfold dot, vec1. simpl. ring. Qed.

(** The perceptron update, expanded. *)
Lemma dot_update_expand d w x u y : dot d (vadd w (smul y x)) u = dot d w u + y * dot d x u.
Proof. rewrite dot_vadd_l, dot_smul_l. reflexivity. Qed.

Lemma norm_update_expand d w x y :
  dot d (vadd w (smul y x)) (vadd w (smul y x)) = dot d w w + 2 * y * dot d w x + y ^ 2 * dot d x x.
Proof.
  rewrite !dot_vadd_l, !dot_vadd_r, !dot_smul_l, !dot_smul_r, (dot_comm d x w). ring.
Qed.

(** Lagrange's identity: |a|^2 |b|^2 - (a.b)^2 = sum_{i<j} (a_i b_j - a_j b_i)^2. *)
Definition lagrange_sum (d : nat) (a b : Vec) : R :=
  sum_lt d (fun j => sum_lt j (fun i => (a i * b j - a j * b i) ^ 2)).

Lemma lagrange_identity d a b : dot d a a * dot d b b - (dot d a b) ^ 2 = lagrange_sum d a b.
Proof.
  induction d as [|d IH].
  - unfold dot, lagrange_sum; simpl; ring.
  - unfold lagrange_sum in *. rewrite !dot_S. cbn [sum_lt].
    rewrite <- IH.
    assert (E : sum_lt d (fun i => (a i * b d - a d * b i) ^ 2)
                = b d ^ 2 * dot d a a + a d ^ 2 * dot d b b - 2 * a d * b d * dot d a b).
    { unfold dot. rewrite <- !sum_lt_scal, <- sum_lt_add, <- sum_lt_sub.
      apply sum_lt_ext. intros; ring. }
    rewrite E. ring.
Qed.

Lemma lagrange_sum_nonneg d a b : 0 <= lagrange_sum d a b.
Proof.
  unfold lagrange_sum. apply sum_lt_nonneg. intros j _. apply sum_lt_nonneg. intros i _.
  apply pow2_ge_0.
Qed.

Theorem cauchy_schwarz_sq d a b : (dot d a b) ^ 2 <= dot d a a * dot d b b.
Proof. pose proof (lagrange_identity d a b). pose proof (lagrange_sum_nonneg d a b). lra. Qed.

Lemma div_nonneg (a b : R) : 0 <= a -> 0 < b -> 0 <= a / b.
Proof. intros Ha Hb. unfold Rdiv. apply Rmult_le_pos; [exact Ha|left; apply Rinv_0_lt_compat, Hb]. Qed.

Lemma sum_lt_shift n f : sum_lt (S n) f = f 0%nat + sum_lt n (fun k => f (S k)).
Proof. induction n as [|n IH]; [simpl; ring|]. change (sum_lt (S (S n)) f) with (sum_lt (S n) f + f (S n)).
  rewrite IH. simpl. ring. Qed.
