(** * The kernel perceptron is the perceptron run on phi(x): for a kernel K(x, z) = phi(x).phi(z),
    the dual run (coefficients alpha) and the primal run on the mapped examples have the same
    activations, mistakes and biases at every step, and w = sum_j alpha_j phi(x_j) throughout
    (Blum, 15-859(A) 01/30/06, 'How to kernelize?').  With the explicit feature map of the
    polynomial kernel this is the catalogue's statement for (c + x.x')^k. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners Mistakebound.Kernels Mistakebound.Multinomial.
Open Scope R_scope.

Lemma sum_update_coefficient (n i : nat) (a f : nat -> R) (y : R) : (i < n)%nat ->
  sum_lt n (fun j => (if Nat.eqb j i then a j + y else a j) * f j) = sum_lt n (fun j => a j * f j) + y * f i.
Proof.
  induction n as [|n IH]; intros H; [lia|]. simpl.
  destruct (Nat.eq_dec i n) as [->|Ne].
  - rewrite Nat.eqb_refl.
    assert (E : sum_lt n (fun j => (if Nat.eqb j n then a j + y else a j) * f j) = sum_lt n (fun j => a j * f j)).
    { apply sum_lt_ext. intros j Hj. replace (Nat.eqb j n) with false by (symmetry; apply Nat.eqb_neq; lia). reflexivity. }
    rewrite E. ring.
  - replace (Nat.eqb n i) with false by (symmetry; apply Nat.eqb_neq; lia). rewrite IH by lia. ring.
Qed.

Lemma dual_activation (n D : nat) (phi : Vec -> Vec) (xs : nat -> Vec) (alpha : nat -> R) (w z : Vec) :
  (forall k, (k < D)%nat -> w k = sum_lt n (fun j => alpha j * phi (xs j) k)) ->
  dot D w (phi z) = sum_lt n (fun j => alpha j * dot D (phi (xs j)) (phi z)).
Proof.
  intros Hw. unfold dot.
  transitivity (sum_lt D (fun k => sum_lt n (fun j => alpha j * phi (xs j) k) * phi z k)).
  - apply sum_lt_ext. intros k Hk. rewrite Hw by exact Hk. reflexivity.
  - transitivity (sum_lt D (fun k => sum_lt n (fun j => alpha j * (phi (xs j) k * phi z k)))).
    + apply sum_lt_ext. intros k _. rewrite <- sum_lt_scal_r. apply sum_lt_ext. intros; ring.
    + rewrite sum_lt_swap. apply sum_lt_ext. intros j _. apply sum_lt_scal.
Qed.

Lemma kernel_perceptron_primal (n D : nat) (phi : Vec -> Vec) (xs : nat -> Vec) (ys : nat -> R) (bias : bool)
      (order : list nat) :
  (forall i, In i order -> (i < n)%nat) ->
  forall (alpha : nat -> R) (w : Vec) (b : R),
  (forall k, (k < D)%nat -> w k = sum_lt n (fun j => alpha j * phi (xs j) k)) ->
  let krun := kperceptron_run RN n (fun u v => dot D (phi u) (phi v)) xs ys bias false alpha b order in
  let prun := perceptron_run RN D bias w b (map (fun i => (phi (xs i), ys i)) order) in
  map ks_act krun = map ps_act prun /\ map ks_mistake krun = map ps_mistake prun /\
  map ks_b krun = map ps_b prun /\
  Forall2 (fun (ks : kstep RN) (ps : pstep RN) => forall k, (k < D)%nat -> ps_w ps k = sum_lt n (fun j => ks_alpha ks j * phi (xs j) k)) krun prun.
Proof.
  induction order as [|i rest IH]; intros Hin alpha w b Hw; cbn [kperceptron_run perceptron_run map].
  - repeat split; constructor.
  - assert (Hi : (i < n)%nat) by (apply Hin; left; reflexivity).
    assert (Hrest : forall j, In j rest -> (j < n)%nat) by (intros; apply Hin; right; assumption).
    assert (Ea : kernel_activation RN n (fun u v => dot D (phi u) (phi v)) xs alpha (xs i) = ndot RN D w (phi (xs i))).
    { unfold kernel_activation. rewrite nsum_R, ndot_R. symmetry. apply dual_activation, Hw. }
    rewrite Ea.
    set (m := nle RN (nmul RN (ys i) (nadd RN (ndot RN D w (phi (xs i))) b)) (n0 RN)).
    assert (Hw' : forall k, (k < D)%nat ->
              (if m then perc_update RN w (phi (xs i)) (ys i) else w) k
              = sum_lt n (fun j => (if m then (fun j0 => if Nat.eqb j0 i then nadd RN (alpha j0) (ys i) else alpha j0) else alpha) j
                                   * phi (xs j) k)).
    { intros k Hk. destruct m.
      - unfold perc_update. simpl. rewrite sum_update_coefficient by exact Hi. rewrite Hw by exact Hk. reflexivity.
      - apply Hw, Hk. }
    destruct (IH Hrest _ _ (if andb m bias then nadd RN b (ys i) else b) Hw') as (A1 & A2 & A3 & A4).
    simpl. repeat split; try (f_equal; assumption).
    constructor; [|exact A4]. simpl. exact Hw'.
Qed.

Theorem kernel_perceptron_is_feature_perceptron (n D : nat) (phi : Vec -> Vec) (xs : nat -> Vec) (ys : nat -> R)
        (bias : bool) (order : list nat) :
  (forall i, In i order -> (i < n)%nat) ->
  let krun := kperceptron_run RN n (fun u v => dot D (phi u) (phi v)) xs ys bias false (fun _ => 0) 0 order in
  let prun := perceptron_run RN D bias vzero 0 (map (fun i => (phi (xs i), ys i)) order) in
  map ks_act krun = map ps_act prun /\ map ks_mistake krun = map ps_mistake prun /\
  map ks_b krun = map ps_b prun /\
  Forall2 (fun (ks : kstep RN) (ps : pstep RN) => forall k, (k < D)%nat -> ps_w ps k = sum_lt n (fun j => ks_alpha ks j * phi (xs j) k)) krun prun.
Proof.
  intros Hin. apply kernel_perceptron_primal; [exact Hin|].
  intros k _. unfold vzero. symmetry. transitivity (sum_lt n (fun _ => 0)); [apply sum_lt_ext; intros; ring|apply sum_lt_zero].
Qed.

(** The polynomial kernel (c + x.x')^k, c >= 0, as run by the suite's kernel perceptron. *)
Corollary kernel_perceptron_polynomial (d k : nat) (c : R) (n : nat) (xs : nat -> Vec) (ys : nat -> R)
          (bias : bool) (order : list nat) :
  0 <= c -> (forall i, In i order -> (i < n)%nat) ->
  let krun := kperceptron_run RN n (poly_kernel RN d c k) xs ys bias false (fun _ => 0) 0 order in
  let prun := perceptron_run RN (poly_dim d k) bias vzero 0 (map (fun i => (poly_phi d k c (xs i), ys i)) order) in
  map ks_act krun = map ps_act prun /\ map ks_mistake krun = map ps_mistake prun /\
  map ks_b krun = map ps_b prun /\
  Forall2 (fun (ks : kstep RN) (ps : pstep RN) => forall j, (j < poly_dim d k)%nat ->
                          ps_w ps j = sum_lt n (fun i => ks_alpha ks i * poly_phi d k c (xs i) j)) krun prun.
Proof.
  intros Hc Hin.
  assert (EK : poly_kernel RN d c k = (fun u v => dot (poly_dim d k) (poly_phi d k c u) (poly_phi d k c v))).
  { apply functional_extensionality; intro u. apply functional_extensionality; intro v.
    unfold poly_kernel. rewrite npow_R. simpl nadd. rewrite ndot_R. apply polynomial_kernel_feature_map, Hc. }
  rewrite EK. apply kernel_perceptron_is_feature_perceptron, Hin.
Qed.
