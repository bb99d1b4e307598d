(** * Kernels: a kernel is legal when every Gram form is nonnegative; a real feature map makes a
    legal kernel; the closure rules cK (c >= 0), f(x) f(x') K, K1 + K2 and K1 K2, each with its
    feature map (Lin's slides, 'Kernel functions' legality'). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas.
Open Scope R_scope.

Definition gram_form (K : Vec -> Vec -> R) (m : nat) (xs : nat -> Vec) (a : nat -> R) : R :=
  sum_lt m (fun i => sum_lt m (fun j => a i * a j * K (xs i) (xs j))).

Definition psd (K : Vec -> Vec -> R) : Prop := forall m xs a, 0 <= gram_form K m xs a.

Definition has_feature_map (K : Vec -> Vec -> R) : Prop :=
  exists (D : nat) (phi : Vec -> Vec), forall x z, K x z = dot D (phi x) (phi z).

(** The Gram form of a feature-map kernel is the squared norm of sum_i a_i phi(x_i). *)
Lemma gram_form_feature_map (D : nat) (phi : Vec -> Vec) m xs a :
  gram_form (fun x z => dot D (phi x) (phi z)) m xs a
  = dot D (fun k => sum_lt m (fun i => a i * phi (xs i) k)) (fun k => sum_lt m (fun i => a i * phi (xs i) k)).
Proof.
  unfold gram_form, dot.
  transitivity (sum_lt m (fun i => sum_lt m (fun j => sum_lt D (fun k => a i * phi (xs i) k * (a j * phi (xs j) k))))).
  - apply sum_lt_ext; intros i _. apply sum_lt_ext; intros j _. rewrite <- sum_lt_scal. apply sum_lt_ext; intros; ring.
  - transitivity (sum_lt m (fun i => sum_lt D (fun k => sum_lt m (fun j => a i * phi (xs i) k * (a j * phi (xs j) k))))).
    + apply sum_lt_ext; intros i _. apply sum_lt_swap.
    + rewrite sum_lt_swap. apply sum_lt_ext; intros k _. rewrite sum_lt_mul. reflexivity.
Qed.

Theorem feature_map_psd (K : Vec -> Vec -> R) : has_feature_map K -> psd K.
Proof.
  intros (D & phi & H) m xs a.
  assert (E : gram_form K m xs a = gram_form (fun x z => dot D (phi x) (phi z)) m xs a).
  { unfold gram_form. apply sum_lt_ext; intros i _. apply sum_lt_ext; intros j _. rewrite H. reflexivity. }
  rewrite E, gram_form_feature_map. apply dot_self_nonneg.
Qed.

(** ** Closure rules, each with an explicit feature map *)
Lemma scale_feature_map (K : Vec -> Vec -> R) (c : R) :
  0 <= c -> has_feature_map K -> has_feature_map (fun x z => c * K x z).
Proof.
  intros Hc (D & phi & H). exists D, (fun x => smul (sqrt c) (phi x)). intros x z.
  rewrite dot_smul_l, dot_smul_r, H. rewrite <- Rmult_assoc, sqrt_sqrt by exact Hc. reflexivity.
Qed.

Lemma fK_feature_map (K : Vec -> Vec -> R) (f : Vec -> R) :
  has_feature_map K -> has_feature_map (fun x z => f x * f z * K x z).
Proof.
  intros (D & phi & H). exists D, (fun x => smul (f x) (phi x)). intros x z.
  rewrite dot_smul_l, dot_smul_r, H. ring.
Qed.


Lemma sum_feature_map (K1 K2 : Vec -> Vec -> R) :
  has_feature_map K1 -> has_feature_map K2 -> has_feature_map (fun x z => K1 x z + K2 x z).
Proof.
  intros (D1 & phi1 & H1) (D2 & phi2 & H2). exists (D1 + D2)%nat, (fun x => concat D1 (phi1 x) (phi2 x)).
  intros x z. rewrite dot_concat, H1, H2. reflexivity.
Qed.

(** The tensor product of two feature vectors, indexed by i = a D2 + b. *)

Lemma product_feature_map (K1 K2 : Vec -> Vec -> R) :
  has_feature_map K1 -> has_feature_map K2 -> has_feature_map (fun x z => K1 x z * K2 x z).
Proof.
  intros (D1 & phi1 & H1) (D2 & phi2 & H2). exists (D1 * D2)%nat, (fun x => tensor D2 (phi1 x) (phi2 x)).
  intros x z. rewrite dot_tensor, H1, H2. reflexivity.
Qed.

Theorem kernel_closure_rules (K1 K2 : Vec -> Vec -> R) (c : R) (f : Vec -> R) :
  has_feature_map K1 -> has_feature_map K2 -> 0 <= c ->
  (has_feature_map (fun x z => c * K1 x z) /\ psd (fun x z => c * K1 x z)) /\
  (has_feature_map (fun x z => f x * f z * K1 x z) /\ psd (fun x z => f x * f z * K1 x z)) /\
  (has_feature_map (fun x z => K1 x z + K2 x z) /\ psd (fun x z => K1 x z + K2 x z)) /\
  (has_feature_map (fun x z => K1 x z * K2 x z) /\ psd (fun x z => K1 x z * K2 x z)).
Proof.
  intros H1 H2 Hc.
  pose proof (scale_feature_map K1 c Hc H1). pose proof (fK_feature_map K1 f H1).
  pose proof (sum_feature_map K1 K2 H1 H2). pose proof (product_feature_map K1 K2 H1 H2).
  repeat split; try assumption; apply feature_map_psd; assumption.
Qed.

(** Powers of the linear kernel: (x.z)^k has a feature map (product rule, by induction on k). *)
Lemma const_one_feature_map : has_feature_map (fun _ _ => 1).
Proof. exists 1%nat, (fun _ _ => 1). intros x z. unfold dot. simpl. ring. Qed.

Lemma linear_feature_map (d : nat) : has_feature_map (fun x z => dot d x z).
Proof. exists d, (fun x => x). reflexivity. Qed.

Lemma linear_power_feature_map (d k : nat) : has_feature_map (fun x z => (dot d x z) ^ k).
Proof.
  induction k as [|k IH]; [exact const_one_feature_map|].
  destruct (product_feature_map _ _ IH (linear_feature_map d)) as (D & phi & H).
  exists D, phi. intros x z. rewrite <- H. simpl. ring.
Qed.
