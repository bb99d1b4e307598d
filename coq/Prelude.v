(** * Prelude: the vocabulary of the suite's formula objects, given a meaning in Coq.

    A vector of R^d is a function [nat -> R]; only its first [d] coordinates matter, and the
    dimension is an argument of [dot], so a statement quantified over [d] needs no length side
    conditions.  Finite sums are [sum_lt n f] = f 0 + ... + f (n-1). *)
Require Import Mistakebound.Axioms.
Open Scope R_scope.

Definition Vec := nat -> R.

Fixpoint sum_lt (n : nat) (f : nat -> R) : R :=
  match n with
  | O => 0
  | S m => sum_lt m f + f m
  end.

(** sum over lo <= k < hi *)
Definition sum_range (lo hi : nat) (f : nat -> R) : R := sum_lt (hi - lo) (fun k => f (lo + k)%nat).

(** sum_{i = lo}^{hi} f i, inclusive bounds, empty when hi < lo (the formulas' [Sum]). *)
Definition sum_incl (lo : nat) (hi : Z) (f : nat -> R) : R :=
  sum_lt (Z.to_nat (hi + 1) - lo) (fun j => f (lo + j)%nat).
Definition sum_inclZ (lo hi : Z) (f : Z -> R) : R :=
  sum_lt (Z.to_nat (hi - lo + 1)) (fun j => f (lo + Z.of_nat j)%Z).

Fixpoint zsum_lt (n : nat) (f : nat -> Z) : Z :=
  match n with
  | O => 0%Z
  | S m => (zsum_lt m f + f m)%Z
  end.
Definition zsum_incl (lo : nat) (hi : Z) (f : nat -> Z) : Z :=
  zsum_lt (Z.to_nat (hi + 1) - lo) (fun j => f (lo + j)%nat).

Definition dot (d : nat) (a b : Vec) : R := sum_lt d (fun i => a i * b i).
Definition vzero : Vec := fun _ => 0.
Definition vadd (a b : Vec) : Vec := fun i => a i + b i.
Definition vsub (a b : Vec) : Vec := fun i => a i - b i.
Definition smul (c : R) (a : Vec) : Vec := fun i => c * a i.

(** Equality of vectors of R^d: their first d coordinates agree. *)
Definition veq (d : nat) (a b : Vec) : Prop := forall i, (i < d)%nat -> a i = b i.

(** Vectors of several spaces: (t), the concatenation (a, b) with a in R^D1, the tensor product
    a (x) b with b in R^D2 (coordinate a_i b_j at i D2 + j), the tensor power v^{(x)k} of v in
    R^D, and finite sums of vectors. *)
Definition vec1 (t : R) : Vec := fun _ => t.
Definition concat (D1 : nat) (a b : Vec) : Vec := fun i => if Nat.ltb i D1 then a i else b (i - D1)%nat.
Definition tensor (D2 : nat) (a b : Vec) : Vec := fun i => a (i / D2)%nat * b (i mod D2)%nat.
Fixpoint tpow (D : nat) (v : Vec) (k : nat) : Vec :=
  match k with
  | O => vec1 1
  | S m => tensor D (tpow D v m) v
  end.
Fixpoint vsum_lt (n : nat) (f : nat -> Vec) : Vec :=
  match n with
  | O => vzero
  | S m => vadd (vsum_lt m f) (f m)
  end.
Definition vsum_incl (lo : nat) (hi : Z) (f : nat -> Vec) : Vec :=
  vsum_lt (Z.to_nat (hi + 1) - lo) (fun j => f (lo + j)%nat).

(** Interpreted functions. *)
Definition lg (x : R) : R := ln x / ln 2.
Definition pow2 (n : nat) : R := 2 ^ n.
Definition pow2Z (n : Z) : R := powerRZ 2 n.
Definition factorial (n : nat) : R := INR (fact n).
Definition rmax (a b : R) : R := Rmax a b.

(** Decidable comparisons, for [ite] conditions. *)
Definition Rle_b (a b : R) : bool := if Rle_dec a b then true else false.
Definition Rlt_b (a b : R) : bool := if Rlt_dec a b then true else false.
Definition Req_b (a b : R) : bool := if Req_EM_T a b then true else false.
Definition ite {A : Type} (c : bool) (a b : A) : A := if c then a else b.

Lemma Rle_b_spec a b : Rle_b a b = true <-> a <= b.
Proof. unfold Rle_b; destruct (Rle_dec a b); split; intros; try congruence; tauto. Qed.
Lemma Rlt_b_spec a b : Rlt_b a b = true <-> a < b.
Proof. unfold Rlt_b; destruct (Rlt_dec a b); split; intros; try congruence; tauto. Qed.
Lemma Req_b_spec a b : Req_b a b = true <-> a = b.
Proof. unfold Req_b; destruct (Req_EM_T a b); split; intros; try congruence; tauto. Qed.
Lemma Rle_b_false a b : Rle_b a b = false <-> b < a.
Proof. unfold Rle_b; destruct (Rle_dec a b); split; intros; try congruence; lra. Qed.
Lemma Rlt_b_false a b : Rlt_b a b = false <-> b <= a.
Proof. unfold Rlt_b; destruct (Rlt_dec a b); split; intros; try congruence; lra. Qed.
Lemma Req_b_false a b : Req_b a b = false <-> a <> b.
Proof. unfold Req_b; destruct (Req_EM_T a b); split; intros; try congruence; tauto. Qed.
