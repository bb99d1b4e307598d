(** * The kernel perceptron with any positive semidefinite kernel: a mistake bound in the dual.

    No feature map is assumed (the Gaussian kernel has no finite one).  On the n points xs 0, ...,
    xs (n - 1) the kernel K defines the bilinear form Q(a, b) = sum_i sum_j a_i b_j K(x_i, x_j) on
    coefficient vectors; K symmetric and positive semidefinite on those points makes Q a symmetric
    form with Q(a, a) >= 0, hence Cauchy-Schwarz Q(a, b)^2 <= Q(a, a) Q(b, b) (the discriminant of
    t |-> Q(a - t b, a - t b) >= 0).  The comparator is u = sum_j beta_j phi(x_j) given by its dual
    coefficients beta: |u|^2 = Q(beta, beta) <= W^2, margin y_t sum_j beta_j K(x_j, x_t) >= gamma.
    With alpha the learner's dual coefficients, Q(beta, alpha) grows by at least gamma per mistake
    and Q(alpha, alpha) by at most R^2 (the mistake makes the cross term <= 0), so
    M gamma <= Q(beta, alpha) <= W sqrt(M R^2) and M <= R^2 W^2 / gamma^2 (Novikoff 1962 read in the
    reproducing-kernel space, Aizerman, Braverman & Rozonoer 1964; Freund & Schapire 1999,
    'Large margin classification using the perceptron algorithm', section 2). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners.
Open Scope R_scope.

(** The form on coefficient vectors. *)
Definition kform (n : nat) (K : Vec -> Vec -> R) (xs : nat -> Vec) (a b : nat -> R) : R :=
  sum_lt n (fun i => a i * sum_lt n (fun j => b j * K (xs i) (xs j))).

(** K symmetric and positive semidefinite on the points xs 0, ..., xs (n - 1). *)
Definition psd_on (n : nat) (K : Vec -> Vec -> R) (xs : nat -> Vec) : Prop :=
  (forall i j, (i < n)%nat -> (j < n)%nat -> K (xs i) (xs j) = K (xs j) (xs i)) /\
  (forall c : nat -> R, 0 <= sum_lt n (fun i => sum_lt n (fun j => c i * c j * K (xs i) (xs j)))).

Lemma kform_psd n K xs a : psd_on n K xs -> 0 <= kform n K xs a a.
Proof.
  intros [_ P]. specialize (P a). unfold kform.
  replace (sum_lt n (fun i => a i * sum_lt n (fun j => a j * K (xs i) (xs j))))
    with (sum_lt n (fun i => sum_lt n (fun j => a i * a j * K (xs i) (xs j)))); [exact P|].
  apply sum_lt_ext. intros i _. rewrite <- sum_lt_scal. apply sum_lt_ext. intros; ring.
Qed.

Lemma kform_lin_l n K xs a b c t :
  kform n K xs (fun i => a i + t * b i) c = kform n K xs a c + t * kform n K xs b c.
Proof.
  unfold kform. rewrite <- sum_lt_scal, <- sum_lt_add. apply sum_lt_ext. intros; ring.
Qed.

Lemma kform_lin_r n K xs a b c t :
  kform n K xs c (fun i => a i + t * b i) = kform n K xs c a + t * kform n K xs c b.
Proof.
  unfold kform. rewrite <- sum_lt_scal, <- sum_lt_add. apply sum_lt_ext. intros i _.
  replace (sum_lt n (fun j => (a j + t * b j) * K (xs i) (xs j)))
    with (sum_lt n (fun j => a j * K (xs i) (xs j)) + t * sum_lt n (fun j => b j * K (xs i) (xs j))).
  - ring.
  - rewrite <- sum_lt_scal, <- sum_lt_add. apply sum_lt_ext. intros; ring.
Qed.

Lemma kform_sym n K xs a b : psd_on n K xs -> kform n K xs a b = kform n K xs b a.
Proof.
  intros [S _]. unfold kform.
  transitivity (sum_lt n (fun i => sum_lt n (fun j => a i * b j * K (xs i) (xs j)))).
  { apply sum_lt_ext. intros i _. rewrite <- sum_lt_scal. apply sum_lt_ext. intros; ring. }
  rewrite sum_lt_swap. apply sum_lt_ext. intros j Hj. rewrite <- sum_lt_scal. apply sum_lt_ext.
  intros i Hi. rewrite (S i j Hi Hj). ring.
Qed.

(** The discriminant: a quadratic A - 2 t B + t^2 C >= 0 for every t, C >= 0, has B^2 <= A C. *)
Lemma discriminant (A B C : R) : 0 <= C -> (forall t, 0 <= A - 2 * t * B + t * t * C) -> B * B <= A * C.
Proof.
  intros HC H. destruct (Rle_lt_or_eq_dec 0 C HC) as [Cp|C0].
  - specialize (H (B / C)).
    assert (E : A - 2 * (B / C) * B + B / C * (B / C) * C = (A * C - B * B) / C) by (field; lra).
    rewrite E in H. apply Rmult_le_compat_r with (r := C) in H; [|lra].
    unfold Rdiv in H. rewrite Rmult_assoc, Rinv_l, Rmult_1_r, Rmult_0_l in H by lra. lra.
  - subst C. destruct (Req_dec B 0) as [B0|B0]; [subst B; lra|].
    specialize (H ((A + 1) / (2 * B))).
    assert (E : A - 2 * ((A + 1) / (2 * B)) * B + (A + 1) / (2 * B) * ((A + 1) / (2 * B)) * 0 = -1)
      by (field; exact B0).
    rewrite E in H. lra.
Qed.

Lemma kform_cauchy_schwarz n K xs a b : psd_on n K xs ->
  kform n K xs a b * kform n K xs a b <= kform n K xs a a * kform n K xs b b.
Proof.
  intros P. apply discriminant; [apply kform_psd, P|]. intros t.
  pose proof (kform_psd n K xs (fun i => a i + (- t) * b i) P) as H.
  rewrite kform_lin_l, !kform_lin_r, (kform_sym n K xs b a P) in H. nra.
Qed.

(** The unit coefficient vector e_c. *)
Definition unit_at (c : nat) : nat -> R := fun j => if Nat.eqb j c then 1 else 0.

Lemma sum_unit_at n c f : (c < n)%nat -> sum_lt n (fun j => unit_at c j * f j) = f c.
Proof.
  induction n as [|n IH]; intros Hc; [lia|]. simpl. unfold unit_at at 2.
  destruct (Nat.eq_dec c n) as [->|Ne].
  - rewrite Nat.eqb_refl.
    replace (sum_lt n (fun j => unit_at n j * f j)) with (sum_lt n (fun _ => 0)); [rewrite sum_lt_zero; ring|].
    apply sum_lt_ext. intros j Hj. unfold unit_at. replace (Nat.eqb j n) with false by (symmetry; apply Nat.eqb_neq; lia). ring.
  - replace (Nat.eqb n c) with false by (symmetry; apply Nat.eqb_neq; lia). rewrite IH by lia. ring.
Qed.

Lemma update_is_unit (alpha : nat -> R) (c : nat) (y : R) :
  (fun j => if Nat.eqb j c then alpha j + y else alpha j) = (fun j => alpha j + y * unit_at c j).
Proof.
  apply functional_extensionality. intro j. unfold unit_at. destruct (Nat.eqb j c); ring.
Qed.

Lemma kform_unit_r n K xs a c : (c < n)%nat -> kform n K xs a (unit_at c) = sum_lt n (fun i => a i * K (xs i) (xs c)).
Proof. intros Hc. unfold kform. apply sum_lt_ext. intros i _. rewrite sum_unit_at by exact Hc. reflexivity. Qed.

Lemma kform_unit_unit n K xs c : (c < n)%nat -> kform n K xs (unit_at c) (unit_at c) = K (xs c) (xs c).
Proof.
  intros Hc. unfold kform.
  rewrite (sum_unit_at n c (fun i => sum_lt n (fun j => unit_at c j * K (xs i) (xs j)))) by exact Hc.
  apply (sum_unit_at n c (fun j => K (xs c) (xs j))), Hc.
Qed.

(** Along a run without a bias, from any coefficients alpha: the two potentials. *)
Lemma kperceptron_potentials (n : nat) (K : Vec -> Vec -> R) (xs : nat -> Vec) (ys : nat -> R)
      (beta : nat -> R) (g R_ : R) (order : list nat) :
  psd_on n K xs ->
  (forall i, In i order -> (i < n)%nat) ->
  (forall i, In i order -> ys i = 1 \/ ys i = -1) ->
  (forall i, In i order -> K (xs i) (xs i) <= R_ ^ 2) ->
  (forall i, In i order -> ys i * sum_lt n (fun j => beta j * K (xs j) (xs i)) >= g) ->
  forall alpha : nat -> R,
  exists alpha' : nat -> R,
    let M := count_true ks_mistake (kperceptron_run RN n K xs ys false false alpha 0 order) in
    kform n K xs beta alpha' >= kform n K xs beta alpha + INR M * g /\
    kform n K xs alpha' alpha' <= kform n K xs alpha alpha + INR M * R_ ^ 2.
Proof.
  intros P. induction order as [|i rest IH]; intros Hin Hy HR Hm alpha.
  - exists alpha. simpl. lra.
  - assert (Hi : (i < n)%nat) by (apply Hin; left; reflexivity).
    assert (Hyi : ys i = 1 \/ ys i = -1) by (apply Hy; left; reflexivity).
    assert (HRi : K (xs i) (xs i) <= R_ ^ 2) by (apply HR; left; reflexivity).
    assert (Hmi : ys i * sum_lt n (fun j => beta j * K (xs j) (xs i)) >= g) by (apply Hm; left; reflexivity).
    specialize (IH (fun j Hj => Hin j (or_intror Hj)) (fun j Hj => Hy j (or_intror Hj))
                   (fun j Hj => HR j (or_intror Hj)) (fun j Hj => Hm j (or_intror Hj))).
    cbn [kperceptron_run count_true].
    unfold kernel_activation. rewrite nsum_R.
    change (nadd RN) with Rplus. change (nmul RN) with Rmult. change (n0 RN) with 0.
    change (sum_lt n (fun j => alpha j * K (xs j) (xs i)) + 0) with (sum_lt n (fun j => alpha j * K (xs j) (xs i)) + 0).
    set (act := sum_lt n (fun j => alpha j * K (xs j) (xs i))).
    change (nle RN) with Rle_b.
    destruct (Rle_b (ys i * (act + 0)) 0) eqn:Em.
    + apply Rle_b_spec in Em. rewrite Bool.andb_false_r, update_is_unit.
      destruct (IH (fun j => alpha j + ys i * unit_at i j)) as [a' [A1 A2]].
      exists a'. unfold count_true in *. cbn [filter length ks_mistake]. rewrite S_INR.
      rewrite kform_lin_r, kform_unit_r in A1 by exact Hi.
      rewrite kform_lin_l, !kform_lin_r, kform_unit_r, kform_unit_unit, (kform_sym n K xs (unit_at i) alpha P),
        kform_unit_r in A2 by exact Hi.
      fold act in A2. split; [|destruct Hyi as [Hyi|Hyi]; rewrite Hyi in *]; nra.
    + destruct (IH alpha) as [a' [A1 A2]]. exists a'. unfold count_true in *. cbn [filter length ks_mistake]. split; assumption.
Qed.

(** The bound: at most R^2 W^2 / gamma^2 mistakes from the zero coefficients. *)
Theorem kernel_perceptron_psd_bound (n : nat) (K : Vec -> Vec -> R) (xs : nat -> Vec) (ys : nat -> R)
        (order : list nat) (beta : nat -> R) (g R_ W : R) :
  psd_on n K xs ->
  (forall i, In i order -> (i < n)%nat) ->
  (forall i, In i order -> ys i = 1 \/ ys i = -1) ->
  (forall i, In i order -> K (xs i) (xs i) <= R_ ^ 2) ->
  kform n K xs beta beta <= W ^ 2 ->
  (forall i, In i order -> ys i * sum_lt n (fun j => beta j * K (xs j) (xs i)) >= g) ->
  g > 0 ->
  INR (count_true ks_mistake (kperceptron_run RN n K xs ys false false (fun _ => 0) 0 order)) <= R_ ^ 2 * W ^ 2 / g ^ 2.
Proof.
  intros P Hin Hy HR HW Hm Hg.
  destruct (kperceptron_potentials n K xs ys beta g R_ order P Hin Hy HR Hm (fun _ => 0)) as [a [A1 A2]].
  set (M := INR (count_true ks_mistake (kperceptron_run RN n K xs ys false false (fun _ => 0) 0 order))) in *.
  assert (Z : forall b, kform n K xs b (fun _ => 0) = 0).
  { intros b. unfold kform. transitivity (sum_lt n (fun _ => 0)); [|apply sum_lt_zero].
    apply sum_lt_ext. intros i _. rewrite (sum_lt_ext n _ (fun _ => 0)), sum_lt_zero; [ring|intros; ring]. }
  rewrite Z in A1, A2.
  pose proof (kform_cauchy_schwarz n K xs beta a P) as CS.
  pose proof (kform_psd n K xs beta P) as Pb. pose proof (kform_psd n K xs a P) as Pa.
  assert (M0 : 0 <= M) by apply pos_INR.
  set (c := kform n K xs beta a) in *. set (qb := kform n K xs beta beta) in *. set (qa := kform n K xs a a) in *.
  assert (Mg : 0 <= M * g) by nra.
  assert (Sq : (M * g) * (M * g) <= W ^ 2 * (M * R_ ^ 2)).
  { apply Rle_trans with (c * c); [nra|]. apply Rle_trans with (qb * qa); [lra|].
    apply Rmult_le_compat; lra. }
  assert (G2 : 0 < g ^ 2) by nra.
  apply Rmult_le_reg_r with (g ^ 2); [exact G2|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra.
  destruct (Rle_lt_or_eq_dec 0 M M0) as [Mp|M0'].
  - apply Rmult_le_reg_l with M; [exact Mp|]. nra.
  - rewrite <- M0'. pose proof (pow2_ge_0 R_). pose proof (pow2_ge_0 W). nra.
Qed.

(** The unit comparator, |u|^2 <= 1: at most R^2 / gamma^2 mistakes. *)
Corollary kernel_perceptron_psd_unit_bound (n : nat) (K : Vec -> Vec -> R) (xs : nat -> Vec) (ys : nat -> R)
          (order : list nat) (beta : nat -> R) (g R_ : R) :
  psd_on n K xs ->
  (forall i, In i order -> (i < n)%nat) ->
  (forall i, In i order -> ys i = 1 \/ ys i = -1) ->
  (forall i, In i order -> K (xs i) (xs i) <= R_ ^ 2) ->
  kform n K xs beta beta <= 1 ->
  (forall i, In i order -> ys i * sum_lt n (fun j => beta j * K (xs j) (xs i)) >= g) ->
  g > 0 ->
  INR (count_true ks_mistake (kperceptron_run RN n K xs ys false false (fun _ => 0) 0 order)) <= R_ ^ 2 / g ^ 2.
Proof.
  intros P Hin Hy HR HW Hm Hg.
  replace (R_ ^ 2 / g ^ 2) with (R_ ^ 2 * 1 ^ 2 / g ^ 2) by (field; lra).
  apply (kernel_perceptron_psd_bound n K xs ys order beta g R_ 1); try assumption. lra.
Qed.

(** ** As the learner theorems state it (coq.learner_theorems_psd): the conditions read on the visited
    examples (x, y) = (xs i, ys i), the Gram sums written out. *)
Lemma on_visited (P : Vec -> R -> Prop) (xs : nat -> Vec) (ys : nat -> R) (order : list nat) :
  (forall (x : Vec) (y : R), In (x, y) (map (fun i => (xs i, ys i)) order) -> P x y) ->
  forall i, In i order -> P (xs i) (ys i).
Proof. intros H i Hi. apply H. apply (in_map (fun i => (xs i, ys i))), Hi. Qed.

Lemma kform_gram n K xs a :
  kform n K xs a a = sum_lt n (fun i => sum_lt n (fun j => a i * a j * K (xs i) (xs j))).
Proof. unfold kform. apply sum_lt_ext. intros i _. rewrite <- sum_lt_scal. apply sum_lt_ext. intros; ring. Qed.

Theorem kernel_perceptron_psd_learner_norm :
  forall (K : Vec -> Vec -> R) (n : nat) (xs : nat -> Vec) (ys : nat -> R) (order : list nat) (beta : nat -> R) (g R_ W : R),
  (forall (i : nat), In i order -> (i < n)%nat) ->
  (forall (i j : nat), (i < n)%nat -> (j < n)%nat -> K (xs i) (xs j) = K (xs j) (xs i)) ->
  (forall (c : nat -> R), 0 <= sum_lt n (fun i => sum_lt n (fun j => c i * c j * K (xs i) (xs j)))) ->
  (forall (x : Vec) (y : R), In (x, y) (map (fun i => (xs i, ys i)) order) -> y ^ 2 = 1) ->
  (forall (x : Vec) (y : R), In (x, y) (map (fun i => (xs i, ys i)) order) -> K x x <= R_ ^ 2) ->
  sum_lt n (fun i => sum_lt n (fun j => beta i * beta j * K (xs i) (xs j))) <= W ^ 2 ->
  (forall (x : Vec) (y : R), In (x, y) (map (fun i => (xs i, ys i)) order) -> y * sum_lt n (fun j => beta j * K (xs j) x) >= g) ->
  g > 0 ->
  let M : nat := Mistakebound.Learners.count_true Mistakebound.Learners.ks_mistake (Mistakebound.Learners.kperceptron_run RN n K xs ys false false (fun _ => 0) 0 order) in
  INR M <= R_ ^ 2 * W ^ 2 / g ^ 2.
Proof.
  intros K n xs ys order beta g R_ W Hin S P Hy HR HW Hm Hg M.
  apply (kernel_perceptron_psd_bound n K xs ys order beta g R_ W).
  - split; assumption.
  - exact Hin.
  - intros i Hi. pose proof (on_visited (fun _ y => y ^ 2 = 1) xs ys order Hy i Hi) as E. simpl in E. nra.
  - exact (on_visited (fun x _ => K x x <= R_ ^ 2) xs ys order HR).
  - rewrite kform_gram. exact HW.
  - exact (on_visited (fun x y => y * sum_lt n (fun j => beta j * K (xs j) x) >= g) xs ys order Hm).
  - exact Hg.
Qed.

Theorem kernel_perceptron_psd_learner :
  forall (K : Vec -> Vec -> R) (n : nat) (xs : nat -> Vec) (ys : nat -> R) (order : list nat) (beta : nat -> R) (g R_ : R),
  (forall (i : nat), In i order -> (i < n)%nat) ->
  (forall (i j : nat), (i < n)%nat -> (j < n)%nat -> K (xs i) (xs j) = K (xs j) (xs i)) ->
  (forall (c : nat -> R), 0 <= sum_lt n (fun i => sum_lt n (fun j => c i * c j * K (xs i) (xs j)))) ->
  (forall (x : Vec) (y : R), In (x, y) (map (fun i => (xs i, ys i)) order) -> y ^ 2 = 1) ->
  (forall (x : Vec) (y : R), In (x, y) (map (fun i => (xs i, ys i)) order) -> K x x <= R_ ^ 2) ->
  sum_lt n (fun i => sum_lt n (fun j => beta i * beta j * K (xs i) (xs j))) <= 1 ->
  (forall (x : Vec) (y : R), In (x, y) (map (fun i => (xs i, ys i)) order) -> y * sum_lt n (fun j => beta j * K (xs j) x) >= g) ->
  g > 0 ->
  let M : nat := Mistakebound.Learners.count_true Mistakebound.Learners.ks_mistake (Mistakebound.Learners.kperceptron_run RN n K xs ys false false (fun _ => 0) 0 order) in
  INR M <= R_ ^ 2 / g ^ 2.
Proof.
  intros K n xs ys order beta g R_ Hin S P Hy HR HW Hm Hg M.
  replace (R_ ^ 2 / g ^ 2) with (R_ ^ 2 * 1 ^ 2 / g ^ 2) by (field; lra).
  apply (kernel_perceptron_psd_learner_norm K n xs ys order beta g R_ 1); try assumption. lra.
Qed.
