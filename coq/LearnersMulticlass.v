(** * The multiclass perceptron (Kesler's construction; Crammer & Singer 2003) as a Coq function
    over the reals, as [learners.MulticlassPerceptron] runs it without a bias: one weight vector
    per class (all 0 at the start), the other class of the largest score the first on a tie, a
    mistake when the true class's score is not strictly above it (a tie counts), and then
    w_c += x, w_r -= x.  Its mistake bound 2 R^2 / gamma^2 on every sequence that a matrix U with
    sum_j |u_j|^2 <= 1 separates with margin gamma (the catalogue's [multiclass_perceptron_bound],
    here on the learner itself): the two potentials sum_j w_j.u_j and sum_j |w_j|^2 by induction
    over the examples, then Cauchy-Schwarz on the stacked vectors. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas.
Require Import List.
Open Scope R_scope.

(** The other class of the largest score among classes 0..K-1, the first on a tie. *)
Fixpoint mc_best (d : nat) (W : nat -> Vec) (x : Vec) (c K : nat) : option nat :=
  match K with
  | O => None
  | S k =>
      let r := mc_best d W x c k in
      if Nat.eqb k c then r else
      match r with
      | None => Some k
      | Some j => if Rlt_b (dot d (W j) x) (dot d (W k) x) then Some k else Some j
      end
  end.

Definition mc_update (W : nat -> Vec) (x : Vec) (c r : nat) : nat -> Vec :=
  fun j => if Nat.eqb j c then vadd (W j) x else if Nat.eqb j r then vsub (W j) x else W j.

(** The weights after the run and its number of mistakes. *)
Fixpoint mc_run (d K : nat) (W : nat -> Vec) (ex : list (Vec * nat)) : (nat -> Vec) * nat :=
  match ex with
  | nil => (W, 0%nat)
  | (x, c) :: rest =>
      match mc_best d W x c K with
      | Some r =>
          if Rle_b (dot d (W c) x) (dot d (W r) x)
          then let '(W', m) := mc_run d K (mc_update W x c r) rest in (W', S m)
          else mc_run d K W rest
      | None => mc_run d K W rest
      end
  end.

Definition mc_mistakes (d K : nat) (ex : list (Vec * nat)) : nat := snd (mc_run d K (fun _ => vzero) ex).

Lemma mc_best_other d W x c K r : mc_best d W x c K = Some r -> (r < K)%nat /\ r <> c.
Proof.
  revert r. induction K as [|k IH]; intros r H; simpl in H; [discriminate|].
  destruct (Nat.eqb k c) eqn:E.
  - destruct (IH r H). split; lia.
  - apply Nat.eqb_neq in E. destruct (mc_best d W x c k) as [j|] eqn:B.
    + destruct (IH j eq_refl). destruct (Rlt_b _ _); injection H; intros <-; split; lia.
    + injection H; intros <-. split; lia.
Qed.

Lemma sum_lt_point K c (f : nat -> R) (a : R) :
  (c < K)%nat -> sum_lt K (fun j => if Nat.eqb j c then a else f j) = sum_lt K f - f c + a.
Proof.
  induction K as [|K IH]; intros Hc; [lia|]. simpl.
  destruct (Nat.eq_dec c K) as [->|N].
  - rewrite Nat.eqb_refl. rewrite (sum_lt_ext K _ f); [ring|].
    intros i Hi. destruct (Nat.eqb_spec i K); [lia|reflexivity].
  - rewrite IH by lia. destruct (Nat.eqb_spec K c); [lia|]. ring.
Qed.

(** A mistake moves the potentials: sum_j w_j.u_j by u_c.x - u_r.x, sum_j |w_j|^2 by
    2 (w_c.x - w_r.x) + 2 |x|^2. *)
Lemma mc_update_potentials d K W U x c r :
  (c < K)%nat -> (r < K)%nat -> r <> c ->
  sum_lt K (fun j => dot d (mc_update W x c r j) (U j)) =
    sum_lt K (fun j => dot d (W j) (U j)) + dot d x (U c) - dot d x (U r) /\
  sum_lt K (fun j => dot d (mc_update W x c r j) (mc_update W x c r j)) =
    sum_lt K (fun j => dot d (W j) (W j)) + 2 * dot d (W c) x - 2 * dot d (W r) x + 2 * dot d x x.
Proof.
  intros Hc Hr N. unfold mc_update. split.
  - rewrite (sum_lt_ext K _ (fun j => if Nat.eqb j c then dot d (vadd (W c) x) (U c)
                                      else if Nat.eqb j r then dot d (vsub (W r) x) (U r) else dot d (W j) (U j)))
      by (intros i _; destruct (Nat.eqb_spec i c); [subst; reflexivity|];
          destruct (Nat.eqb_spec i r); [subst; reflexivity|reflexivity]).
    rewrite sum_lt_point by exact Hc. rewrite (sum_lt_point K r) by exact Hr.
    destruct (Nat.eqb_spec c r); [lia|]. rewrite dot_vadd_l, dot_vsub_l. ring.
  - rewrite (sum_lt_ext K _ (fun j => if Nat.eqb j c then dot d (vadd (W c) x) (vadd (W c) x)
                                      else if Nat.eqb j r then dot d (vsub (W r) x) (vsub (W r) x)
                                      else dot d (W j) (W j)))
      by (intros i _; destruct (Nat.eqb_spec i c); [subst; reflexivity|];
          destruct (Nat.eqb_spec i r); [subst; reflexivity|reflexivity]).
    rewrite sum_lt_point by exact Hc. rewrite (sum_lt_point K r) by exact Hr.
    destruct (Nat.eqb_spec c r); [lia|].
    rewrite !dot_vadd_l, !dot_vadd_r, !dot_vsub_l, !dot_vsub_r, (dot_comm d x (W c)), (dot_comm d x (W r)). ring.
Qed.

Lemma mc_potentials d K U g R_ : forall ex W,
  (forall x c, In (x, c) ex -> (c < K)%nat) ->
  (forall x c, In (x, c) ex -> dot d x x <= R_ ^ 2) ->
  (forall x c j, In (x, c) ex -> (j < K)%nat -> j <> c -> dot d x (U c) - dot d x (U j) >= g) ->
  let '(W', m) := mc_run d K W ex in
  sum_lt K (fun j => dot d (W' j) (U j)) >= sum_lt K (fun j => dot d (W j) (U j)) + INR m * g /\
  sum_lt K (fun j => dot d (W' j) (W' j)) <= sum_lt K (fun j => dot d (W j) (W j)) + 2 * INR m * R_ ^ 2.
Proof.
  induction ex as [|[x c] rest IH]; intros W HK Hx Hg; simpl; [split; lra|].
  assert (HK' : forall x c, In (x, c) rest -> (c < K)%nat) by (intros; eapply HK; right; eassumption).
  assert (Hx' : forall x c, In (x, c) rest -> dot d x x <= R_ ^ 2) by (intros; eapply Hx; right; eassumption).
  assert (Hg' : forall x c j, In (x, c) rest -> (j < K)%nat -> j <> c -> dot d x (U c) - dot d x (U j) >= g)
    by (intros; eapply Hg; [right; eassumption| |]; assumption).
  destruct (mc_best d W x c K) as [r|] eqn:B; [|exact (IH W HK' Hx' Hg')].
  destruct (mc_best_other d W x c K r B) as [Hr N].
  destruct (Rle_b (dot d (W c) x) (dot d (W r) x)) eqn:Ml; [|exact (IH W HK' Hx' Hg')].
  apply Rle_b_spec in Ml.
  specialize (IH (mc_update W x c r) HK' Hx' Hg').
  destruct (mc_run d K (mc_update W x c r) rest) as [W' m] eqn:Run.
  assert (Hc : (c < K)%nat) by (eapply HK; left; reflexivity).
  destruct (mc_update_potentials d K W U x c r Hc Hr N) as [P1 P2].
  pose proof (Hx x c (or_introl eq_refl)). pose proof (Hg x c r (or_introl eq_refl) Hr N).
  rewrite S_INR. destruct IH as [I1 I2]. rewrite P1 in I1. rewrite P2 in I2. split; nra.
Qed.

(** The K weight vectors stacked: sum_j a_j.b_j is an inner product in R^(K d). *)
Definition stack (d : nat) (a : nat -> Vec) : Vec := fun i => a (i / d)%nat (i mod d)%nat.

Lemma dot_stack d K a b : dot (K * d) (stack d a) (stack d b) = sum_lt K (fun j => dot d (a j) (b j)).
Proof.
  unfold dot. rewrite sum_lt_pairs. apply sum_lt_ext; intros j Hj. apply sum_lt_ext; intros i Hi.
  unfold stack. assert (d <> 0%nat) by lia.
  rewrite Nat.div_add_l, Nat.div_small, Nat.add_0_r by lia.
  rewrite Nat.add_comm, Nat.mod_add, Nat.mod_small by lia. reflexivity.
Qed.

Theorem mc_perceptron_bound (d K : nat) (ex : list (Vec * nat)) (U : nat -> Vec) (g R_ : R) :
  (forall x c, In (x, c) ex -> (c < K)%nat) ->
  (forall x c, In (x, c) ex -> dot d x x <= R_ ^ 2) ->
  (forall x c j, In (x, c) ex -> (j < K)%nat -> j <> c -> dot d x (U c) - dot d x (U j) >= g) ->
  sum_lt K (fun j => dot d (U j) (U j)) <= 1 ->
  g > 0 ->
  INR (mc_mistakes d K ex) <= 2 * R_ ^ 2 / g ^ 2.
Proof.
  intros HK Hx Hg HU Hg0. unfold mc_mistakes.
  pose proof (mc_potentials d K U g R_ ex (fun _ => vzero) HK Hx Hg) as P.
  destruct (mc_run d K (fun _ => vzero) ex) as [W m]. simpl. destruct P as [P1 P2].
  replace (sum_lt K (fun j => dot d vzero (U j))) with 0 in P1
    by (rewrite <- (sum_lt_zero K); apply sum_lt_ext; intros; symmetry; apply dot_vzero_l).
  replace (sum_lt K (fun _ => dot d vzero vzero)) with 0 in P2
    by (rewrite <- (sum_lt_zero K); apply sum_lt_ext; intros; symmetry; apply dot_vzero_l).
  rewrite <- !dot_stack in P1, P2, HU.
  pose proof (cauchy_schwarz_sq (K * d) (stack d W) (stack d U)) as CS.
  pose proof (dot_self_nonneg (K * d) (stack d W)). pose proof (pos_INR m) as HM.
  assert (Q : (INR m * g) ^ 2 <= 2 * INR m * R_ ^ 2).
  { apply Rle_trans with ((dot (K * d) (stack d W) (stack d U)) ^ 2); [apply pow_incr; nra|]. nra. }
  assert (Q2 : INR m * g ^ 2 <= 2 * R_ ^ 2).
  { destruct (Req_dec (INR m) 0) as [Z|Z]; [rewrite Z; nra|]. nra. }
  apply Rmult_le_reg_r with (g ^ 2); [nra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by nra. lra.
Qed.
