(** * Catalogue: the multiclass perceptron (Crammer & Singer 2003; Collins 2002, Theorem 1), at
    the statement printed from the catalogue's formulas (Statements.v, generated).
    Kesler's construction: the K weight vectors stacked into one vector W, the example x put into
    block j by phi(x, j).  Each mistake (w_c.x <= w_r.x, r <> c) adds u_c.x - u_r.x >= gamma to
    W.U and 2 (w_c.x - w_r.x) + 2 |x|^2 <= 2 R^2 to |W|^2; Cauchy-Schwarz with |U| <= 1 gives
    (M gamma)^2 <= 2 M R^2. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas.
Require Import Mistakebound.Statements.
Open Scope R_scope.

(** The two potentials after k mistakes of a run in Kesler's form. *)
Lemma kesler_potentials (D DX M : nat) (W : nat -> Vec) (U : Vec) (phi : Vec -> nat -> Vec)
      (x : nat -> Vec) (c r : nat -> nat) (g R_ : R) :
  (forall v j, dot D (phi v j) (phi v j) = dot DX v v) ->
  (forall v i j, i <> j -> dot D (phi v i) (phi v j) = 0) ->
  veq D (W 0%nat) vzero ->
  (forall k, (k < M)%nat -> veq D (W (S k)) (vsub (vadd (W k) (phi (x k) (c k))) (phi (x k) (r k)))) ->
  (forall k, (k < M)%nat -> r k <> c k) ->
  (forall k, (k < M)%nat -> dot D (W k) (phi (x k) (c k)) <= dot D (W k) (phi (x k) (r k))) ->
  (forall k, (k < M)%nat -> dot D (phi (x k) (c k)) U - dot D (phi (x k) (r k)) U >= g) ->
  (forall k, (k < M)%nat -> dot DX (x k) (x k) <= R_ ^ 2) ->
  forall k, (k <= M)%nat -> dot D (W k) U >= INR k * g /\ dot D (W k) (W k) <= 2 * INR k * R_ ^ 2.
Proof.
  intros Hn Ho H0 Hu Hrc Hm Hg Hr. induction k as [|k IH]; intros Hk.
  - rewrite (dot_veq_l _ _ _ _ H0), (dot_veq_l _ _ _ _ H0), !dot_vzero_l. simpl. lra.
  - destruct (IH ltac:(lia)) as [I1 I2]. assert (Hk' : (k < M)%nat) by lia.
    pose proof (Hu k Hk') as E. rewrite (dot_veq_l _ _ _ _ E), (dot_veq_l _ _ _ _ E), (dot_veq_r _ _ _ _ E).
    rewrite !dot_vsub_l, !dot_vadd_l, !dot_vsub_r, !dot_vadd_r.
    pose proof (dot_comm D (phi (x k) (c k)) (W k)). pose proof (dot_comm D (phi (x k) (r k)) (W k)).
    pose proof (dot_comm D (phi (x k) (r k)) (phi (x k) (c k))).
    pose proof (Hn (x k) (c k)) as Na. pose proof (Hn (x k) (r k)) as Nb.
    pose proof (Ho (x k) (c k) (r k) (fun e => Hrc k Hk' (eq_sym e))) as Oab.
    specialize (Hm k Hk'). specialize (Hg k Hk'). specialize (Hr k Hk').
    rewrite S_INR. split; nra.
Qed.

Theorem multiclass_perceptron_bound : multiclass_perceptron_bound_statement.
Proof.
  intros D DX M R_ U W c g phi r x Hn Ho H0 Hu Hrc Hm Hg Hr HU Hg0.
  destruct (kesler_potentials D DX M W U phi x c r g R_ Hn Ho H0
              (fun k Hk => eq_ind _ (fun n => veq D (W n) _) (Hu k ltac:(lia)) _ (Nat.add_1_r k))
              (fun k Hk => Hrc k ltac:(lia)) (fun k Hk => Hm k ltac:(lia)) (fun k Hk => Hg k ltac:(lia))
              (fun k Hk => Hr k ltac:(lia)) M (le_n M)) as [P1 P2].
  pose proof (cauchy_schwarz_sq D (W M) U) as CS. pose proof (dot_self_nonneg D (W M)) as WW.
  pose proof (pos_INR M) as HM.
  assert (Q : (INR M * g) ^ 2 <= 2 * INR M * R_ ^ 2).
  { apply Rle_trans with ((dot D (W M) U) ^ 2); [apply pow_incr; nra|]. nra. }
  assert (Q2 : INR M * g ^ 2 <= 2 * R_ ^ 2).
  { destruct (Req_dec (INR M) 0) as [Z|Z]; [rewrite Z; nra|]. nra. }
  apply Rmult_le_reg_r with (g ^ 2); [nra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by nra. lra.
Qed.
