(** * Catalogue: the margin lower bound (Shalev-Shwartz 2012, sec. 3; Blum's 15-859 notes) at the
    statement printed from the catalogue's formulas: on d orthonormal examples, each labelled
    against the learner's prediction, u = (1/sqrt d) sum_s y_s x_s is a unit vector with margin
    1/sqrt d >= gamma on every example, and the learner errs d times. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Import Mistakebound.Catalogue_kernels Mistakebound.Statements.
Require Mistakebound.WinnowAbstract.
Require Import Reals Lra Lia.
Open Scope R_scope.

Lemma sum_delta (n t : nat) (f : nat -> R) : (t < n)%nat ->
  sum_lt n (fun s => f s * INR (if Nat.eqb s t then 1%nat else 0%nat)) = f t.
Proof.
  induction n as [|n IH]; intros H; [lia|]. cbn [sum_lt]. destruct (Nat.eq_dec t n) as [->|N].
  - rewrite Nat.eqb_refl, (sum_lt_ext n _ (fun _ => 0)), sum_lt_zero; [simpl; ring|].
    intros i Hi. destruct (Nat.eqb_spec i n); [lia|]. simpl; ring.
  - rewrite IH by lia. destruct (Nat.eqb_spec n t); [lia|]. simpl; ring.
Qed.

Theorem margin_lower_bound : margin_lower_bound_statement.
Proof.
  intros dim d g p t x y Hd Hg Hdg Hx Hp Hy. rewrite vsum_incl_first, sum_incl_first.
  set (S := vsum_lt d (fun s => smul (y s) (x s))).
  assert (Y2 : forall s, (s < d)%nat -> y s * y s = 1).
  { intros s Hs. rewrite (Hy s ltac:(lia)). pose proof (Hp s ltac:(lia)). nra. }
  assert (K : forall t2, (t2 < d)%nat -> dot dim S (x t2) = y t2).
  { intros t2 Ht2. unfold S. rewrite dot_vsum_l.
    rewrite (sum_lt_ext d _ (fun s => y s * INR (if Nat.eqb s t2 then 1%nat else 0%nat))).
    - apply sum_delta. exact Ht2.
    - intros s Hs. rewrite dot_smul_l, (Hx s t2 ltac:(lia)). reflexivity. }
  assert (Dp : 0 < INR d) by (apply lt_0_INR; lia).
  assert (Sq : 0 < sqrt (INR d)) by (apply sqrt_lt_R0; exact Dp).
  assert (SS : sqrt (INR d) * sqrt (INR d) = INR d) by (apply sqrt_sqrt; lra).
  split; [|split].
  - rewrite dot_smul_l, dot_smul_r. unfold S at 1. rewrite dot_vsum_l.
    rewrite (sum_lt_ext d _ (fun _ => 1)).
    + rewrite sum_lt_const. set (q := sqrt (INR d)) in *. rewrite <- SS. field. lra.
    + intros s Hs. rewrite dot_smul_l, dot_comm, K by exact Hs. apply Y2, Hs.
  - intros Ht. rewrite dot_smul_l, K by lia.
    assert (Gs : g * sqrt (INR d) <= 1).
    { assert (0 <= g * sqrt (INR d)) by nra.
      assert ((g * sqrt (INR d)) ^ 2 <= 1).
      { replace ((g * sqrt (INR d)) ^ 2) with (g ^ 2 * (sqrt (INR d) * sqrt (INR d))) by ring.
        rewrite SS. lra. }
      nra. }
    replace (y t * (1 / sqrt (INR d) * y t)) with (1 / sqrt (INR d)) by (field_simplify_eq; [|lra];
      pose proof (Y2 t ltac:(lia)); nra).
    apply Rle_ge. apply Rmult_le_reg_r with (sqrt (INR d)); [exact Sq|].
    replace (1 / sqrt (INR d) * sqrt (INR d)) with 1 by (field; lra). exact Gs.
  - rewrite (sum_lt_ext d _ (fun _ => 1)); [rewrite sum_lt_const; ring|].
    intros s Hs. rewrite (Hy s ltac:(lia)). pose proof (Hp s ltac:(lia)). nra.
Qed.

(** ** Littlestone (1988), section 5: a binary search over n = 2^l variables labelled against any
    deterministic learner forces l = lg n mistakes, every label given by the disjunction of the one
    variable lo(l) left.  The intervals [lo(m), lo(m) + h(m)) are nested; the whole statement for
    r blocks and every algorithm is DisjunctionLowerBound.disjunction_lower_bound. *)
Lemma disjunction_nested (h lo p : nat -> Z) (l : nat) :
  (forall j : nat, (0 <= j /\ j < l)%nat -> (p j = 0 \/ p j = 1)%Z) ->
  (forall j : nat, (0 <= j /\ j < l)%nat -> (h j = 2 * h (j + 1)%nat /\ h (j + 1)%nat >= 1)%Z) ->
  (forall j : nat, (0 <= j /\ j < l)%nat -> (lo (j + 1)%nat = lo j + p j * h (j + 1)%nat)%Z) ->
  forall m, (m <= l)%nat -> forall j, (j <= m)%nat -> (lo j <= lo m /\ lo m + h m <= lo j + h j)%Z.
Proof.
  intros Hp Hh Ha. induction m as [|m IH]; intros Hm j Hj.
  - replace j with 0%nat by lia. lia.
  - destruct (Nat.eq_dec j (S m)) as [->|Ne]; [lia|].
    destruct (IH ltac:(lia) j ltac:(lia)) as [A B].
    pose proof (Ha m ltac:(lia)) as E. pose proof (Hh m ltac:(lia)) as [H2 H1]. rewrite Nat.add_1_r in E, H2, H1.
    destruct (Hp m ltac:(lia)) as [P|P]; rewrite P in E; lia.
Qed.

Theorem disjunction_lower_bound : disjunction_lower_bound_statement.
Proof.
  intros h j l lo p Hp Hh Hl H0 Ha.
  pose proof (disjunction_nested h lo p l Hp Hh Ha) as N.
  split; [|split; [|split]].
  - intros [_ Hj]. destruct (N l (le_n l) (j + 1)%nat ltac:(lia)) as [A B].
    pose proof (Ha j ltac:(lia)) as E. pose proof (Hh j ltac:(lia)) as [H2 H1].
    destruct (Hp j ltac:(lia)) as [P|P]; rewrite P in *.
    + replace (Z.leb (lo j) (lo l)) with true by (symmetry; apply Z.leb_le; lia).
      replace (Z.ltb (lo l) (lo j + h (j + 1)%nat)) with true by (symmetry; apply Z.ltb_lt; lia).
      reflexivity.
    + replace (Z.ltb (lo l) (lo j + h (j + 1)%nat)) with false by (symmetry; apply Z.ltb_ge; lia).
      rewrite andb_false_r. reflexivity.
  - destruct (N l (le_n l) 0%nat ltac:(lia)) as [A _]. lia.
  - destruct (N l (le_n l) 0%nat ltac:(lia)) as [_ B]. lia.
  - rewrite WinnowAbstract.zsum_incl_first.
    assert (S : forall n, (n <= l)%nat -> zsum_lt n (fun s => ((1 - p s - p s) ^ 2)%Z) = Z.of_nat n).
    { induction n as [|n IH]; intros Hn; [reflexivity|].
      change (zsum_lt (S n) (fun s => ((1 - p s - p s) ^ 2)%Z))
        with (zsum_lt n (fun s => ((1 - p s - p s) ^ 2)%Z) + (1 - p n - p n) ^ 2)%Z.
      rewrite IH, Nat2Z.inj_succ by lia.
      destruct (Hp n ltac:(lia)) as [P|P]; rewrite P; lia. }
    apply S, le_n.
Qed.

(** ** Kivinen, Warmuth & Auer (1997): the perceptron errs on every example of a pairwise orthogonal
    sequence.  Its weight before step t, sum_{s<t} m_s y_s x_s, is orthogonal to x_t: a tie, a
    mistake. *)
Theorem perceptron_orthogonal_run : perceptron_orthogonal_run_statement.
Proof.
  intros dim m n t x y Hn Ho Hm.
  assert (Z : forall t0, (t0 < n)%nat ->
                dot dim (vsum_incl 0 (Z.of_nat t0 - 1) (fun s => smul (m s * y s) (x s))) (x t0) = 0).
  { intros t0 Ht0. rewrite vsum_incl_first, dot_vsum_l.
    rewrite (sum_lt_ext t0 _ (fun _ => 0)); [apply sum_lt_zero|].
    intros s Hs. rewrite dot_smul_l, (Ho s t0 ltac:(lia)). ring. }
  assert (M1 : forall t0, (t0 < n)%nat -> m t0 = 1).
  { intros t0 Ht0. rewrite (Hm t0 ltac:(lia)), (Z t0 Ht0), Rmult_0_r.
    replace (Rle_b 0 0) with true by (symmetry; apply Rle_b_spec; lra). reflexivity. }
  split.
  - intros [_ Ht]. split; [apply Z, Ht|apply M1, Ht].
  - rewrite sum_incl_first, (sum_lt_ext n _ (fun _ => 1)); [rewrite sum_lt_const; ring|].
    intros s Hs. apply M1, Hs.
Qed.
