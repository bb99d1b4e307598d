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

(** Vector equations in the statements mean equality in R^d (the first d coordinates); the family
    theorems speak of equal functions.  Cutting every vector to zero beyond d bridges the two:
    inner products over d do not see the cut. *)
Definition trunc (d : nat) (v : Vec) : Vec := fun i => if Nat.ltb i d then v i else 0.

Lemma dot_trunc_l d a b : dot d (trunc d a) b = dot d a b.
Proof. apply dot_ext; intros i Hi; [unfold trunc; rewrite (proj2 (Nat.ltb_lt i d) Hi)|]; reflexivity. Qed.

Lemma dot_trunc_r d a b : dot d a (trunc d b) = dot d a b.
Proof. rewrite dot_comm, dot_trunc_l, dot_comm. reflexivity. Qed.

Lemma trunc_veq d a b : veq d a b -> trunc d a = trunc d b.
Proof.
  intros H. apply functional_extensionality; intro i. unfold trunc.
  destruct (Nat.ltb i d) eqn:E; [apply H, Nat.ltb_lt, E|reflexivity].
Qed.

Lemma trunc_vadd_smul d a c b : trunc d (vadd a (smul c b)) = vadd (trunc d a) (smul c (trunc d b)).
Proof. apply functional_extensionality; intro i. unfold trunc, vadd, smul. destruct (Nat.ltb i d); ring. Qed.

Lemma trunc_vzero d : trunc d vzero = vzero.
Proof. apply functional_extensionality; intro i. unfold trunc, vzero. destruct (Nat.ltb i d); reflexivity. Qed.

(** The perceptron's mistake sequence, cut to R^d: its vector equations become equalities. *)
Lemma run_trunc (d M : nat) (w x : nat -> Vec) (y : nat -> R) :
  veq d (w 0%nat) vzero ->
  (forall k : nat, (0 <= k)%nat /\ (k < M)%nat -> veq d (w (k + 1)%nat) (vadd (w k) (smul (y k) (x k)))) ->
  trunc d (w 0%nat) = vzero /\
  forall k, (k < M)%nat -> trunc d (w (S k)) = vadd (trunc d (w k)) (smul (y k) (trunc d (x k))).
Proof.
  intros H0 Hu. split; [rewrite (trunc_veq _ _ _ H0); apply trunc_vzero|].
  intros k Hk. rewrite <- Nat.add_1_r, (trunc_veq _ _ _ (Hu k ltac:(lia))). apply trunc_vadd_smul.
Qed.

Lemma run_trunc_bias (d M : nat) (b : nat -> R) (y : nat -> R) :
  (forall k : nat, (0 <= k)%nat /\ (k < M)%nat -> b (k + 1)%nat = b k + y k) ->
  forall k, (k < M)%nat -> b (S k) = b k + y k.
Proof. intros H k Hk. rewrite <- Nat.add_1_r. apply H. lia. Qed.

Lemma veq_of_eq d a b : a = b -> veq d a b.
Proof. intros ->. intros i _. reflexivity. Qed.

(** A per-step hypothesis about the cut sequences, from the statement's. *)
Ltac below_tr H :=
  let k := fresh "k" in let Hk := fresh "Hk" in
  intros k Hk; cbv beta; rewrite ?dot_trunc_l, ?dot_trunc_r;
  first [ apply H | rewrite dot_comm; apply H ]; lia.
