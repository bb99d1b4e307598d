(** * Perceptron convergence (Block 1962, Novikoff 1962) in the catalogue's four forms, stated
    over the sequence of mistakes: w(k), x(k), y(k) are the weights before the k-th mistake and
    the k-th mistaken example and label (k < M).  The induction over mistakes and Cauchy-Schwarz,
    trusted rules in the solver proofs, are Coq proofs here. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners Mistakebound.Claims.
Open Scope R_scope.

(** The two potentials after k mistakes: w.u grows by at least g - l(k) per mistake, |w|^2 by at
    most R2 (Claim 1 with a loss term, Claim 2). *)
Lemma potentials_after (d M : nat) (w : nat -> Vec) (u : Vec) (g R2 : R) (l : nat -> R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> dot d (w (S k)) u >= dot d (w k) u + g - l k) ->
  (forall k, (k < M)%nat -> dot d (w (S k)) (w (S k)) <= dot d (w k) (w k) + R2) ->
  dot d (w M) u >= INR M * g - sum_lt M l /\ dot d (w M) (w M) <= INR M * R2.
Proof.
  intros H0 H1 H2. induction M as [|M IH].
  - rewrite H0, !dot_vzero_l. simpl. split; lra.
  - destruct IH as [IH1 IH2]; [intros; apply H1; lia|intros; apply H2; lia|].
    specialize (H1 M (Nat.lt_succ_diag_r M)). specialize (H2 M (Nat.lt_succ_diag_r M)).
    rewrite S_INR. simpl sum_lt. split; lra.
Qed.

(** From the potentials and Cauchy-Schwarz: (M g - L)^2 <= M R2 |u|^2 when M g - L >= 0. *)
Lemma potentials_squeeze (d : nat) (wM u : Vec) (A B : R) :
  dot d wM u >= A -> dot d wM wM <= B -> 0 <= A -> A ^ 2 <= B * dot d u u.
Proof.
  intros H1 H2 HA. pose proof (cauchy_schwarz_sq d wM u). pose proof (dot_self_nonneg d u).
  apply Rle_trans with ((dot d wM u) ^ 2); [apply pow_incr; lra|].
  apply Rle_trans with (dot d wM wM * dot d u u); [exact H|]. apply Rmult_le_compat_r; lra.
Qed.

(** The perceptron's mistake sequence gives the two potentials (Claims 1 and 2 at every mistake). *)
Lemma perceptron_potentials (d M : nat) (w x : nat -> Vec) (y l : nat -> R) (u : Vec) (g R : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot d (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot d (x k) (x k) <= R ^ 2) ->
  (forall k, (k < M)%nat -> y k * dot d u (x k) >= g - l k) ->
  dot d (w M) u >= INR M * g - sum_lt M l /\ dot d (w M) (w M) <= INR M * R ^ 2.
Proof.
  intros H0 Hu Hm Hy Hx Hg. apply potentials_after; [exact H0| |].
  - intros k Hk. rewrite Hu by exact Hk.
    pose proof (claim1_correlation_growth d (w k) (x k) u (y k) (g - l k) (Hg k Hk)). lra.
  - intros k Hk. rewrite Hu by exact Hk. apply claim2_norm_growth; auto.
Qed.

Theorem block_novikoff_margin_one (d M : nat) (w x : nat -> Vec) (y : nat -> R) (u : Vec) (R : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot d (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot d (x k) (x k) <= R ^ 2) ->
  (forall k, (k < M)%nat -> y k * dot d u (x k) >= 1) ->
  INR M <= R ^ 2 * dot d u u.
Proof.
  intros H0 Hu Hm Hy Hx Hg.
  destruct (perceptron_potentials d M w x y (fun _ => 0) u 1 R H0 Hu Hm Hy Hx) as [P1 P2];
    [intros k Hk; specialize (Hg k Hk); lra|].
  rewrite sum_lt_zero in P1. pose proof (pos_INR M). pose proof (dot_self_nonneg d u).
  pose proof (potentials_squeeze d (w M) u (INR M) (INR M * R ^ 2) ltac:(lra) P2 H).
  destruct (Req_dec (INR M) 0) as [Z|Z]; [rewrite Z; nra|].
  assert (INR M * INR M <= INR M * (R ^ 2 * dot d u u)) by nra.
  apply Rmult_le_reg_l with (INR M); lra.
Qed.

Theorem block_novikoff_radius (d M : nat) (w x : nat -> Vec) (y : nat -> R) (u : Vec) (R gamma : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot d (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot d (x k) (x k) <= R ^ 2) ->
  (forall k, (k < M)%nat -> y k * dot d u (x k) >= gamma) ->
  dot d u u = 1 -> gamma > 0 ->
  INR M <= R ^ 2 / gamma ^ 2.
Proof.
  intros H0 Hu Hm Hy Hx Hg Hu1 Hg0.
  destruct (perceptron_potentials d M w x y (fun _ => 0) u gamma R H0 Hu Hm Hy Hx) as [P1 P2];
    [intros k Hk; specialize (Hg k Hk); lra|].
  rewrite sum_lt_zero in P1. pose proof (pos_INR M).
  pose proof (potentials_squeeze d (w M) u (INR M * gamma) (INR M * R ^ 2) ltac:(lra) P2 ltac:(nra)) as S.
  rewrite Hu1 in S.
  apply Rmult_le_reg_r with (gamma ^ 2); [nra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by nra.
  destruct (Req_dec (INR M) 0) as [Z|Z]; [rewrite Z; nra|].
  assert (INR M * (INR M * gamma ^ 2) <= INR M * R ^ 2) by nra.
  apply Rmult_le_reg_l with (INR M); lra.
Qed.

Theorem block_novikoff_unit (d M : nat) (w x : nat -> Vec) (y : nat -> R) (u : Vec) (gamma : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot d (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot d (x k) (x k) = 1) ->
  (forall k, (k < M)%nat -> y k * dot d u (x k) >= gamma) ->
  dot d u u = 1 -> gamma > 0 ->
  INR M <= 1 / gamma ^ 2.
Proof.
  intros H0 Hu Hm Hy Hx Hg Hu1 Hg0.
  assert (E : 1 / gamma ^ 2 = 1 ^ 2 / gamma ^ 2) by (f_equal; ring). rewrite E.
  apply (block_novikoff_radius d M w x y u 1 gamma); auto.
  intros k Hk. rewrite Hx by exact Hk. lra.
Qed.

(** With a bias: the augmented vectors (w, b) and (x, 1). *)
Theorem block_novikoff_bias (d M : nat) (w x : nat -> Vec) (b y : nat -> R) (u : Vec) (bu R : R) :
  w 0%nat = vzero -> b 0%nat = 0 ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> b (S k) = b k + y k) ->
  (forall k, (k < M)%nat -> y k * (dot d (w k) (x k) + b k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot d (x k) (x k) <= R ^ 2) ->
  (forall k, (k < M)%nat -> y k * (dot d u (x k) + bu) >= 1) ->
  INR M <= (R ^ 2 + 1) * (dot d u u + bu ^ 2).
Proof.
  intros Hw0 Hb0 Hu Hbu Hm Hy Hx Hg.
  assert (P : forall K, (K <= M)%nat ->
              dot d (w K) u + b K * bu >= INR K /\ dot d (w K) (w K) + b K ^ 2 <= INR K * (R ^ 2 + 1)).
  { induction K as [|K IH]; intros HK.
    - rewrite Hw0, Hb0, !dot_vzero_l. simpl. split; lra.
    - destruct IH as [I1 I2]; [lia|]. assert (HK' : (K < M)%nat) by lia.
      rewrite Hu, Hbu, S_INR by exact HK'. rewrite dot_update_expand, norm_update_expand.
      specialize (Hm K HK'). specialize (Hy K HK'). specialize (Hx K HK'). specialize (Hg K HK').
      rewrite (dot_comm d (x K) u). rewrite Hy. split; nra. }
  destruct (P M (le_n M)) as [P1 P2]. pose proof (pos_INR M).
  set (A := dot d (w M) u + b M * bu) in *.
  (* Cauchy-Schwarz in dimension d + 1 *)
  assert (CS : A ^ 2 <= (dot d (w M) (w M) + b M ^ 2) * (dot d u u + bu ^ 2)).
  { pose proof (cauchy_schwarz_sq (S d) (fun i => if Nat.eqb i d then b M else w M i)
                                         (fun i => if Nat.eqb i d then bu else u i)) as C.
    rewrite !dot_S, Nat.eqb_refl in C.
    assert (E : forall a c : Vec, dot d (fun i => if Nat.eqb i d then b M else a i)
                                        (fun i => if Nat.eqb i d then bu else c i) = dot d a c).
    { intros a c. apply dot_ext; intros i Hi; replace (Nat.eqb i d) with false by (symmetry; apply Nat.eqb_neq; lia);
      reflexivity. }
    assert (E1 : dot d (fun i => if Nat.eqb i d then b M else w M i) (fun i => if Nat.eqb i d then b M else w M i)
                 = dot d (w M) (w M)).
    { apply dot_ext; intros i Hi; replace (Nat.eqb i d) with false by (symmetry; apply Nat.eqb_neq; lia); reflexivity. }
    assert (E2 : dot d (fun i => if Nat.eqb i d then bu else u i) (fun i => if Nat.eqb i d then bu else u i)
                 = dot d u u).
    { apply dot_ext; intros i Hi; replace (Nat.eqb i d) with false by (symmetry; apply Nat.eqb_neq; lia); reflexivity. }
    rewrite E, E1, E2 in C. unfold A. nra. }
  pose proof (dot_self_nonneg d u).
  assert (INR M ^ 2 <= INR M * (R ^ 2 + 1) * (dot d u u + bu ^ 2)).
  { apply Rle_trans with (A ^ 2); [apply pow_incr; lra|].
    apply Rle_trans with ((dot d (w M) (w M) + b M ^ 2) * (dot d u u + bu ^ 2)); [exact CS|].
    apply Rmult_le_compat_r; nra. }
  destruct (Req_dec (INR M) 0) as [Z|Z]; [rewrite Z; nra|].
  apply Rmult_le_reg_l with (INR M); nra.
Qed.

(** The erratum of the bias notes: y x.x written as y |x|.  At x = (2, 0): x.x = 4 but |x| = 2. *)
Definition bias_norm_replay : bool :=
  let x := vecQ (2%Q :: 0%Q :: nil) in
  (* x.x = 4 and 2 * 2 = 4 with 2 >= 0, so |x| = sqrt 4 = 2 <> 4 *)
  andb (Qeq_bool (ndot QN 2 x x) 4) (negb (Qeq_bool 2 4)).

Lemma bias_norm_replay_true : bias_norm_replay = true.
Proof. vm_compute. reflexivity. Qed.

Theorem erratum_bias_notes_unsquared_norm :
  ~ (forall (d : nat) (x : Vec), dot d x x = sqrt (dot d x x)).
Proof.
  intros H. pose proof bias_norm_replay_true as E. unfold bias_norm_replay in E.
  apply andb_prop in E as [E1 _]. apply Qeq_bool_iff, Qeq_eqR in E1.
  rewrite Q2R_ndot in E1. specialize (H 2%nat (fun i => Q2R (vecQ (2%Q :: 0%Q :: nil) i))).
  rewrite E1 in H. replace (Q2R 4) with (2 * 2) in H by (unfold Q2R; simpl; lra).
  rewrite sqrt_square in H by lra. lra.
Qed.
