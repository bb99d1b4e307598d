(** * Numbers for the learners: one definition of each learner, run on rationals ([Q], by
    [vm_compute], to compare with the suite's exact Python learners) and on reals ([R], where the
    theorems are proved).  A [Hom] (here [Q2R]) commutes with every learner (LearnersBridge.v), so
    the rational run is the real run. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude.

Record Num := mkNum {
  carrier :> Type;
  n0 : carrier;
  n1 : carrier;
  nadd : carrier -> carrier -> carrier;
  nsub : carrier -> carrier -> carrier;
  nmul : carrier -> carrier -> carrier;
  ninv : carrier -> carrier;
  nle : carrier -> carrier -> bool;
  nlt : carrier -> carrier -> bool;
}.

Definition Qlt_b (a b : Q) : bool := negb (Qle_bool b a).

Definition QN : Num := mkNum Q 0%Q 1%Q Qplus Qminus Qmult Qinv Qle_bool Qlt_b.
Definition RN : Num := mkNum R 0%R 1%R Rplus Rminus Rmult Rinv Rle_b Rlt_b.

Fixpoint nsum (F : Num) (n : nat) (f : nat -> F) : F :=
  match n with
  | O => n0 F
  | S m => nadd F (nsum F m f) (f m)
  end.

Definition ndot (F : Num) (d : nat) (a b : nat -> F) : F := nsum F d (fun i => nmul F (a i) (b i)).

Fixpoint nof_nat (F : Num) (n : nat) : F :=
  match n with
  | O => n0 F
  | S m => nadd F (nof_nat F m) (n1 F)
  end.

Fixpoint npow (F : Num) (x : F) (k : nat) : F :=
  match k with
  | O => n1 F
  | S m => nmul F (npow F x m) x
  end.

Record Hom (A B : Num) := mkHom {
  hmap :> A -> B;
  h0 : hmap (n0 A) = n0 B;
  h1 : hmap (n1 A) = n1 B;
  hadd : forall a b, hmap (nadd A a b) = nadd B (hmap a) (hmap b);
  hsub : forall a b, hmap (nsub A a b) = nsub B (hmap a) (hmap b);
  hmul : forall a b, hmap (nmul A a b) = nmul B (hmap a) (hmap b);
  hinv : forall a, hmap (ninv A a) = ninv B (hmap a);
  hle : forall a b, nle B (hmap a) (hmap b) = nle A a b;
  hlt : forall a b, nlt B (hmap a) (hmap b) = nlt A a b;
}.
Arguments hmap {A B}.
Arguments h0 {A B}. Arguments h1 {A B}. Arguments hadd {A B}. Arguments hsub {A B}.
Arguments hmul {A B}. Arguments hinv {A B}. Arguments hle {A B}. Arguments hlt {A B}.

Lemma Q2R_inv' (q : Q) : Q2R (/ q) = / Q2R q.
Proof.
  destruct (Qeq_dec q 0%Q) as [E|E].
  - rewrite (Qeq_eqR (/ q) (/ 0)%Q (Qinv_comp q 0%Q E)). rewrite (Qeq_eqR q 0%Q E).
    unfold Q2R; simpl. rewrite Rmult_0_l, Rinv_0. reflexivity.
  - apply Q2R_inv; exact E.
Qed.

Lemma Q2R_le_b (a b : Q) : Rle_b (Q2R a) (Q2R b) = Qle_bool a b.
Proof.
  destruct (Qle_bool a b) eqn:E.
  - apply Rle_b_spec. apply Qle_Rle. apply Qle_bool_iff. exact E.
  - apply Rle_b_false. destruct (Rlt_le_dec (Q2R b) (Q2R a)) as [H|H]; [exact H|].
    apply Rle_Qle, Qle_bool_iff in H. congruence.
Qed.

Lemma Q2R_lt_b (a b : Q) : Rlt_b (Q2R a) (Q2R b) = Qlt_b a b.
Proof.
  unfold Qlt_b. rewrite <- Q2R_le_b.
  destruct (Rle_b (Q2R b) (Q2R a)) eqn:E; simpl.
  - apply Rle_b_spec in E. apply Rlt_b_false. exact E.
  - apply Rle_b_false in E. apply Rlt_b_spec. exact E.
Qed.

Definition Q2R_hom : Hom QN RN.
Proof.
  refine (mkHom QN RN Q2R _ _ _ _ _ _ _ _); simpl.
  - unfold Q2R; simpl; ring.
  - unfold Q2R; simpl; field.
  - exact Q2R_plus.
  - exact Q2R_minus.
  - exact Q2R_mult.
  - exact Q2R_inv'.
  - exact Q2R_le_b.
  - exact Q2R_lt_b.
Defined.

Lemma hom_nsum {A B : Num} (h : Hom A B) n f : h (nsum A n f) = nsum B n (fun i => h (f i)).
Proof. induction n; simpl; [apply h0|rewrite hadd, IHn; reflexivity]. Qed.

Lemma hom_ndot {A B : Num} (h : Hom A B) d a b :
  h (ndot A d a b) = ndot B d (fun i => h (a i)) (fun i => h (b i)).
Proof. unfold ndot. rewrite hom_nsum. f_equal. apply functional_extensionality. intro; apply hmul. Qed.

Lemma hom_nof_nat {A B : Num} (h : Hom A B) n : h (nof_nat A n) = nof_nat B n.
Proof. induction n; simpl; [apply h0|rewrite hadd, IHn, h1; reflexivity]. Qed.

Lemma hom_npow {A B : Num} (h : Hom A B) x k : h (npow A x k) = npow B (h x) k.
Proof. induction k; simpl; [apply h1|rewrite hmul, IHk; reflexivity]. Qed.

(** On the reals the generic operations are the usual ones. *)
Lemma nsum_R n f : nsum RN n f = sum_lt n f.
Proof. induction n; simpl; [reflexivity|rewrite IHn; reflexivity]. Qed.

Lemma ndot_R d a b : ndot RN d a b = dot d a b.
Proof. unfold ndot, dot. apply nsum_R. Qed.

Lemma nof_nat_R n : nof_nat RN n = INR n.
Proof. induction n; simpl nof_nat; [reflexivity|rewrite IHn, S_INR; reflexivity]. Qed.

Lemma npow_R x k : npow RN x k = x ^ k.
Proof. induction k; simpl; [reflexivity|rewrite IHk; ring]. Qed.

Lemma Q2R_0 : Q2R 0 = 0.
Proof. unfold Q2R; simpl; ring. Qed.
Lemma Q2R_1 : Q2R 1 = 1.
Proof. unfold Q2R; simpl; field. Qed.

Lemma Q2R_ndot d a b : Q2R (ndot QN d a b) = dot d (fun i => Q2R (a i)) (fun i => Q2R (b i)).
Proof. rewrite <- ndot_R. exact (hom_ndot Q2R_hom d a b). Qed.

Lemma Q2R_nsum n f : Q2R (nsum QN n f) = sum_lt n (fun i => Q2R (f i)).
Proof. rewrite <- nsum_R. exact (hom_nsum Q2R_hom n f). Qed.

Lemma Qle_bool_R a b : Qle_bool a b = true -> Q2R a <= Q2R b.
Proof. intros H. apply Qle_Rle, Qle_bool_iff, H. Qed.

Lemma Qlt_b_R a b : Qlt_b a b = true -> Q2R a < Q2R b.
Proof. intros H. rewrite <- Q2R_lt_b in H. apply Rlt_b_spec, H. Qed.
