(** * Glue: small adapters between the generated statements' shapes (per-step hypotheses
    "for all k with 0 <= k < M", the successor written k + 1, inner products in either order) and
    the shapes of the family theorems. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas.
Open Scope R_scope.

Lemma below {P : nat -> Prop} {M : nat} :
  (forall k : nat, (0 <= k)%nat /\ (k < M)%nat -> P k) -> forall k, (k < M)%nat -> P k.
Proof. intros H k Hk. apply H. lia. Qed.

Lemma below_succ {T : Type} {M : nat} (w : nat -> T) (f : nat -> T) :
  (forall k : nat, (0 <= k)%nat /\ (k < M)%nat -> w (k + 1)%nat = f k) -> forall k, (k < M)%nat -> w (S k) = f k.
Proof. intros H k Hk. rewrite <- Nat.add_1_r. apply H. lia. Qed.

Lemma below_dot_comm {M : nat} (d : nat) (x : nat -> Vec) (u : Vec) (y : nat -> R) (c : R) :
  (forall k : nat, (0 <= k)%nat /\ (k < M)%nat -> y k * dot d (x k) u >= c) ->
  forall k, (k < M)%nat -> y k * dot d u (x k) >= c.
Proof. intros H k Hk. rewrite dot_comm. apply H. lia. Qed.

(** The formulas' inclusive sum over the first M mistakes is the development's [sum_lt M]. *)
Lemma sum_incl_first (M : nat) (f : nat -> R) : sum_incl 0 (Z.of_nat M - 1) f = sum_lt M f.
Proof.
  unfold sum_incl. replace (Z.of_nat M - 1 + 1)%Z with (Z.of_nat M) by ring.
  rewrite Nat2Z.id, Nat.sub_0_r. apply sum_lt_ext. intros; reflexivity.
Qed.
