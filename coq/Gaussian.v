(** * The Gaussian kernel exp(-c |x - x'|^2), c >= 0, is legal: it is f(x) f(x') exp(2c x.x')
    with f(x) = exp(-c |x|^2), and exp(2c x.x') is the limit of the partial sums
    sum_{k <= N} (2c)^k / k! (x.x')^k, nonnegative combinations of the kernels (x.x')^k; the
    Gram forms of the partial sums are >= 0 and converge, so the limit is >= 0.  The standard
    library's [exp] is defined as the limit of exactly these partial sums. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Kernels.
Open Scope R_scope.

Definition gaussian (d : nat) (c : R) (x z : Vec) : R := exp (- c * dot d (vsub x z) (vsub x z)).

Lemma squared_distance_expand d x z : dot d (vsub x z) (vsub x z) = dot d x x - 2 * dot d x z + dot d z z.
Proof. rewrite !dot_vsub_l, !dot_vsub_r, (dot_comm d z x). ring. Qed.

Lemma gaussian_factorization d c x z :
  gaussian d c x z = exp (- c * dot d x x) * exp (- c * dot d z z) * exp (2 * c * dot d x z).
Proof.
  unfold gaussian. rewrite squared_distance_expand, <- !exp_plus. f_equal. ring.
Qed.

(** exp is the limit of its Taylor sums (the standard library's definition). *)
Lemma exp_taylor (t : R) : Un_cv (fun N => sum_f_R0 (fun k => / INR (fact k) * t ^ k) N) (exp t).
Proof. unfold exp. destruct (exist_exp t) as [l H]. exact H. Qed.

Lemma Un_cv_const (c : R) : Un_cv (fun _ => c) c.
Proof. intros eps He. exists 0%nat. intros n _. unfold R_dist. rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. lra. Qed.

Lemma Un_cv_sum_lt (m : nat) (U : nat -> nat -> R) (l : nat -> R) :
  (forall i, (i < m)%nat -> Un_cv (U i) (l i)) -> Un_cv (fun N => sum_lt m (fun i => U i N)) (sum_lt m l).
Proof.
  induction m as [|m IH]; intros H; simpl.
  - apply Un_cv_const.
  - apply CV_plus; [apply IH; intros; apply H; lia|apply H; lia].
Qed.

Lemma Un_cv_nonneg (U : nat -> R) (l : R) : (forall N, 0 <= U N) -> Un_cv U l -> 0 <= l.
Proof.
  intros Hp Hc. destruct (Rle_lt_dec 0 l) as [L|L]; [exact L|exfalso].
  destruct (Hc (- l) ltac:(lra)) as [N HN]. specialize (HN N (le_n N)). specialize (Hp N).
  unfold R_dist in HN. rewrite Rabs_right in HN by lra. lra.
Qed.

(** The partial sums as kernels: sum_{k <= N} (2c)^k / k! (x.z)^k is a nonnegative combination. *)
Lemma partial_sum_psd (d : nat) (c : R) (N : nat) :
  0 <= c -> psd (fun x z => sum_f_R0 (fun k => / INR (fact k) * (2 * c * dot d x z) ^ k) N).
Proof.
  intros Hc m xs a. unfold gram_form.
  assert (E : forall i j, a i * a j * sum_f_R0 (fun k => / INR (fact k) * (2 * c * dot d (xs i) (xs j)) ^ k) N
                     = sum_lt (S N) (fun k => / INR (fact k) * (2 * c) ^ k * (a i * a j * (dot d (xs i) (xs j)) ^ k))).
  { intros i j. clear. induction N as [|N IH].
    - simpl. field.
    - rewrite tech5. change (sum_lt (S (S N)) ?f) with (sum_lt (S N) f + f (S N)). rewrite <- IH.
      rewrite Rpow_mult_distr. ring. }
  apply Rle_trans with (sum_lt (S N) (fun k => / INR (fact k) * (2 * c) ^ k * gram_form (fun x z => (dot d x z) ^ k) m xs a)).
  - apply sum_lt_nonneg. intros k _. apply Rmult_le_pos.
    + apply Rmult_le_pos; [left; apply Rinv_0_lt_compat, lt_0_INR, lt_O_fact|apply pow_le; lra].
    + apply feature_map_psd, linear_power_feature_map.
  - right. unfold gram_form.
    transitivity (sum_lt (S N) (fun k => sum_lt m (fun i => sum_lt m (fun j =>
                    / INR (fact k) * (2 * c) ^ k * (a i * a j * (dot d (xs i) (xs j)) ^ k))))).
    + apply sum_lt_ext; intros k _. rewrite <- sum_lt_scal. apply sum_lt_ext; intros i _.
      rewrite <- sum_lt_scal. reflexivity.
    + rewrite sum_lt_swap. apply sum_lt_ext; intros i _. rewrite sum_lt_swap.
      apply sum_lt_ext; intros j _. rewrite E. reflexivity.
Qed.

Lemma exp_kernel_psd (d : nat) (c : R) : 0 <= c -> psd (fun x z => exp (2 * c * dot d x z)).
Proof.
  intros Hc m xs a.
  apply Un_cv_nonneg with (U := fun N => gram_form (fun x z => sum_f_R0 (fun k => / INR (fact k) * (2 * c * dot d x z) ^ k) N) m xs a).
  - intros N. apply partial_sum_psd, Hc.
  - unfold gram_form. apply Un_cv_sum_lt. intros i _. apply Un_cv_sum_lt. intros j _.
    apply CV_mult; [apply Un_cv_const|apply exp_taylor].
Qed.

Theorem gaussian_kernel_legal (d : nat) (c : R) : 0 <= c -> psd (gaussian d c).
Proof.
  intros Hc m xs a. pose proof (exp_kernel_psd d c Hc m xs (fun i => a i * exp (- c * dot d (xs i) (xs i)))) as H.
  unfold gram_form in *. eapply Rle_trans; [exact H|]. right.
  apply sum_lt_ext; intros i _. apply sum_lt_ext; intros j _. rewrite gaussian_factorization. ring.
Qed.
