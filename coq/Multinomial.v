(** * The polynomial kernel (c + x.x')^k, c >= 0, and its explicit feature map:
    phi_J(x) = sqrt(multinomial(k; j_0, ..., j_d) c^(j_0)) x_1^(j_1) ... x_d^(j_d) over the
    compositions J of k into d + 1 parts, by the multinomial theorem (proved here by induction on
    the number of variables, from the standard library's binomial theorem). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Kernels.
Open Scope R_scope.

Definition lsum {A : Type} (l : list A) (f : A -> R) : R := fold_right (fun a acc => f a + acc) 0 l.

Lemma lsum_app {A} (l1 l2 : list A) f : lsum (l1 ++ l2) f = lsum l1 f + lsum l2 f.
Proof. induction l1; simpl; [lra|unfold lsum in *; simpl; rewrite IHl1; ring]. Qed.

Lemma lsum_flat_map {A B} (g : A -> list B) (l : list A) f :
  lsum (flat_map g l) f = lsum l (fun a => lsum (g a) f).
Proof. induction l as [|a l IH]; [reflexivity|]. simpl. rewrite lsum_app, IH. reflexivity. Qed.

Lemma lsum_map {A B} (g : A -> B) (l : list A) f : lsum (map g l) f = lsum l (fun a => f (g a)).
Proof. induction l as [|a l IH]; [reflexivity|]. unfold lsum in *; simpl. rewrite IH. reflexivity. Qed.

Lemma lsum_ext_in {A} (l : list A) f g : (forall a, In a l -> f a = g a) -> lsum l f = lsum l g.
Proof.
  induction l as [|a l IH]; intros H; [reflexivity|]. unfold lsum in *; simpl.
  rewrite H by (left; reflexivity). rewrite IH; [reflexivity|]. intros; apply H; right; assumption.
Qed.

Lemma lsum_scal {A} (l : list A) c f : lsum l (fun a => c * f a) = c * lsum l f.
Proof. induction l as [|a l IH]; [simpl; ring|]. unfold lsum in *; simpl. rewrite IH. ring. Qed.

Lemma lsum_seq_sum_f_R0 k g : lsum (seq 0 (S k)) g = sum_f_R0 g k.
Proof.
  induction k as [|k IH].
  - unfold lsum; simpl. ring.
  - rewrite seq_S, lsum_app, IH. simpl. unfold lsum; simpl. ring.
Qed.

Lemma lsum_nth {A} (l : list A) (a0 : A) f : sum_lt (length l) (fun i => f (nth i l a0)) = lsum l f.
Proof.
  induction l as [|a l IH]; [reflexivity|]. simpl length. rewrite sum_lt_shift. simpl nth.
  rewrite IH. reflexivity.
Qed.

(** Compositions of k into m parts. *)
Fixpoint comps (m k : nat) : list (list nat) :=
  match m with
  | O => if Nat.eqb k 0 then nil :: nil else nil
  | S m' => flat_map (fun j => map (cons j) (comps m' (k - j))) (seq 0 (S k))
  end.

Lemma comps_sum m k J : In J (comps m k) -> list_sum J = k.
Proof.
  revert k J. induction m as [|m IH]; intros k J H; cbn [comps] in H.
  - destruct (Nat.eqb k 0) eqn:E; [|destruct H]. destruct H as [<-|[]]. apply Nat.eqb_eq in E. simpl. lia.
  - apply in_flat_map in H as (j & Hj & H). apply in_map_iff in H as (J' & <- & H). apply in_seq in Hj.
    apply IH in H. simpl. lia.
Qed.

Fixpoint monomial (J : list nat) (z : nat -> R) : R :=
  match J with
  | nil => 1
  | j :: J' => z 0%nat ^ j * monomial J' (fun i => z (S i))
  end.

(** multinomial(k; j_0, ..., j_m) = C(k, j_0) multinomial(k - j_0; j_1, ..., j_m). *)
Fixpoint multinom (J : list nat) : R :=
  match J with
  | nil => 1
  | j :: J' => C (j + list_sum J') j * multinom J'
  end.

Lemma C_nonneg n p : 0 <= C n p.
Proof.
  unfold C. apply div_nonneg; [apply pos_INR|]. apply Rmult_lt_0_compat; apply lt_0_INR, lt_O_fact.
Qed.

Lemma multinom_nonneg J : 0 <= multinom J.
Proof. induction J; simpl; [lra|]. pose proof (C_nonneg (a + list_sum J) a). nra. Qed.

Theorem multinomial_theorem (m k : nat) (z : nat -> R) :
  (sum_lt m z) ^ k = lsum (comps m k) (fun J => multinom J * monomial J z).
Proof.
  revert k z. induction m as [|m IH]; intros k z.
  - simpl. destruct k; simpl; [unfold lsum; simpl; ring|unfold lsum; simpl; ring].
  - rewrite sum_lt_shift, binomial. cbn [comps]. rewrite lsum_flat_map, lsum_seq_sum_f_R0.
    apply sum_eq. intros j Hj. rewrite lsum_map, IH, <- lsum_scal.
    apply lsum_ext_in. intros J HJ. apply comps_sum in HJ. simpl.
    replace (j + list_sum J)%nat with k by lia. ring.
Qed.

(** ** The explicit feature map of (c + x.x')^k *)
Definition poly_feature (c : R) (J : list nat) (x : Vec) : R :=
  match J with
  | nil => 0
  | j0 :: J' => sqrt (multinom J * c ^ j0) * monomial J' x
  end.

Definition poly_dim (d k : nat) : nat := length (comps (S d) k).
Definition poly_phi (d k : nat) (c : R) (x : Vec) : Vec := fun i => poly_feature c (nth i (comps (S d) k) nil) x.

Lemma monomial_mult J x z : monomial J (fun i => x i * z i) = monomial J x * monomial J z.
Proof.
  revert x z. induction J as [|j J IH]; intros x z; simpl; [ring|].
  rewrite Rpow_mult_distr, (IH (fun i => x (S i)) (fun i => z (S i))). ring.
Qed.

Theorem polynomial_kernel_feature_map (d k : nat) (c : R) :
  0 <= c -> forall x z, (c + dot d x z) ^ k = dot (poly_dim d k) (poly_phi d k c x) (poly_phi d k c z).
Proof.
  intros Hc x z.
  set (v := fun i => match i with O => c | S i' => x i' * z i' end).
  assert (Ev : c + dot d x z = sum_lt (S d) v) by (rewrite sum_lt_shift; reflexivity).
  rewrite Ev, multinomial_theorem. unfold dot, poly_dim, poly_phi.
  rewrite (lsum_nth _ nil (fun J => poly_feature c J x * poly_feature c J z)).
  apply lsum_ext_in. intros J HJ.
  destruct J as [|j0 J']; [cbn [comps] in HJ; apply in_flat_map in HJ as (j & _ & H); apply in_map_iff in H as (? & E & _); discriminate|].
  unfold poly_feature. cbn [monomial].
  change (v 0%nat) with c. change (fun i => v (S i)) with (fun i => x i * z i).
  rewrite monomial_mult.
  assert (0 <= multinom (j0 :: J') * c ^ j0) by (apply Rmult_le_pos; [apply multinom_nonneg|apply pow_le, Hc]).
  transitivity (sqrt (multinom (j0 :: J') * c ^ j0) * sqrt (multinom (j0 :: J') * c ^ j0) * (monomial J' x * monomial J' z));
    [rewrite sqrt_sqrt by exact H; ring|ring].
Qed.

Corollary polynomial_kernel_legal (d k : nat) (c : R) : 0 <= c -> psd (fun x z => (c + dot d x z) ^ k).
Proof.
  intros Hc. apply feature_map_psd. exists (poly_dim d k), (poly_phi d k c).
  apply polynomial_kernel_feature_map, Hc.
Qed.
