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
