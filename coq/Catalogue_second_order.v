(** * Catalogue: the second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1, the
    form before the logarithms), at the statement printed from the catalogue's formulas.

    N. Cesa-Bianchi, A. Conconi and C. Gentile, 'A second-order perceptron algorithm', SIAM J.
    Computing 34(3):640-668, 2005.  Over the M mistakes k = 0 .. M-1, with q_k = x_k . B_k x_k and
    D = sum_k max(0, gamma - y_k u . x_k):
      M gamma - D <= sqrt((a |u|^2 + sum_k (u . x_k)^2) * sum_k q_k / (1 + q_k)).
    The statement gives B as any function [nat -> Vec -> Vec] constrained only by B_0 z = z / a and
    the Sherman-Morrison step B_{k+1} z = B_k z - (x_k . B_k z / (1 + q_k)) B_k x_k, both as
    equalities in R^dim ([veq]), not of functions: B_k z may take any values beyond coordinate dim,
    so B_k is linear only up to [veq], and everything is proved up to [veq].  (SecondOrderPerceptron.v
    proves the same bound for the learner of LearnersSecondOrder.v, whose B is a map built by
    Sherman-Morrison and linear as a function; here nothing is assumed of B beyond the two
    equations.)

    Proof:
    - [form_ok]: for every k <= M and all z, w, c, B_k (z + c w) = B_k z + c B_k w in R^dim,
      z = w in R^dim gives B_k z = B_k w in R^dim, z . B_k w = w . B_k z and z . B_k z >= 0
      ([start_ok] for B_0, [step_ok] for one Sherman-Morrison step, [sop_forms] for the run).
      Positivity after a step is z . B_k z - (x_k . B_k z)^2 / (1 + q_k) >= 0, Cauchy-Schwarz in the
      B_k form ([form_cs]: the discriminant of t |-> (z - t w) . B_k (z - t w) >= 0);
    - upper: v_{k+1} . B_{k+1} v_{k+1} = v_k . B_k v_k + (2 y_k m - m^2 + q_k) / (1 + q_k), m the
      margin x_k . B_k v_k, and y_k m <= 0 on a mistake, so it grows by at most q_k / (1 + q_k)
      ([upper_step]);
    - lower: u . v_k = sum_{s<k} y_s u . x_s and y_s u . x_s >= gamma - max(0, gamma - y_s u . x_s);
    - A_k u = a u + sum_{j<k} (u . x_j) x_j ([sop_A]) is mapped back to u: B_k (A_k u) = u in R^dim
      ([BA_step]), and u . A_k u = a |u|^2 + sum_{j<k} (u . x_j)^2 ([A_quad]); hence
      u . v_M = (A_M u) . B_M v_M and (A_M u) . B_M (A_M u) = u . A_M u, and Cauchy-Schwarz in the
      B_M form gives (u . v_M)^2 <= (u . A_M u)(v_M . B_M v_M);
    - the chain M gamma - D <= u . v_M <= sqrt((u . A_M u) sum_k q_k / (1 + q_k))
      ([SecondOrderPerceptron.sqrt_chain]). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Mistakebound.KernelPSD Mistakebound.SecondOrderPerceptron.
Require Import Mistakebound.Statements.
Require Import Reals Lra Lia.
Open Scope R_scope.

(** ** A map read as a symmetric positive semidefinite form on R^d, up to equality in R^d *)
Definition form_ok (d : nat) (B : Vec -> Vec) : Prop :=
  (forall z w c, veq d (B (vadd z (smul c w))) (vadd (B z) (smul c (B w)))) /\
  (forall z w, veq d z w -> veq d (B z) (B w)) /\
  (forall z w, dot d z (B w) = dot d w (B z)) /\
  (forall z, 0 <= dot d z (B z)).

(** B' is B after one Sherman-Morrison step with the instance x. *)
Definition sm_step (d : nat) (B B' : Vec -> Vec) (x : Vec) : Prop :=
  forall z, veq d (B' z) (vsub (B z) (smul ((1 / (1 + dot d x (B x))) * dot d x (B z)) (B x))).

Lemma form_psd d B z : form_ok d B -> 0 <= dot d z (B z).
Proof. intros (_ & _ & _ & P). apply P. Qed.

Lemma form_sym d B z w : form_ok d B -> dot d z (B w) = dot d w (B z).
Proof. intros (_ & _ & S & _). apply S. Qed.

Lemma form_ext d B z w : form_ok d B -> veq d z w -> veq d (B z) (B w).
Proof. intros (_ & E & _ & _). apply E. Qed.

Lemma form_quad d B z w c : form_ok d B ->
  dot d (vadd z (smul c w)) (B (vadd z (smul c w)))
  = dot d z (B z) + 2 * c * dot d z (B w) + c * c * dot d w (B w).
Proof.
  intros (L & _ & S & _). rewrite (dot_veq_r d _ _ _ (L z w c)).
  rewrite !dot_vadd_l, !dot_vadd_r, !dot_smul_l, !dot_smul_r, (S w z). ring.
Qed.

(** Cauchy-Schwarz in the form: (z . B w)^2 <= (z . B z) (w . B w), the discriminant of
    t |-> (z - t w) . B (z - t w) >= 0. *)
Lemma form_cs d B z w : form_ok d B -> dot d z (B w) * dot d z (B w) <= dot d z (B z) * dot d w (B w).
Proof.
  intros F. apply KernelPSD.discriminant; [apply form_psd, F|]. intros t.
  pose proof (form_psd d B (vadd z (smul (- t) w)) F) as Q. rewrite form_quad in Q by exact F.
  eapply Rle_trans; [exact Q|]. right. ring.
Qed.

(** B_0 z = z / a is such a form. *)
Lemma start_ok d a B : a > 0 -> (forall z, veq d (B z) (smul (1 / a) z)) -> form_ok d B.
Proof.
  intros Ha H0. split; [|split; [|split]].
  - intros z w c i Hi.
    pose proof (H0 (vadd z (smul c w)) i Hi) as E1. pose proof (H0 z i Hi) as E2. pose proof (H0 w i Hi) as E3.
    unfold vadd, smul in *. rewrite E1, E2, E3. ring.
  - intros z w E i Hi. rewrite (H0 z i Hi), (H0 w i Hi). unfold smul. rewrite (E i Hi). reflexivity.
  - intros z w. rewrite (dot_veq_r d _ _ _ (H0 w)), (dot_veq_r d _ _ _ (H0 z)), !dot_smul_r, dot_comm.
    reflexivity.
  - intros z. rewrite (dot_veq_r d _ _ _ (H0 z)), dot_smul_r. apply Rmult_le_pos; [|apply dot_self_nonneg].
    apply div_nonneg; lra.
Qed.

(** The inner products of B' read from those of B. *)
Lemma sm_dot d B B' x z w : sm_step d B B' x ->
  dot d z (B' w) = dot d z (B w) - (1 / (1 + dot d x (B x)) * dot d x (B w)) * dot d z (B x).
Proof. intros H. rewrite (dot_veq_r d _ _ _ (H w)), dot_vsub_r, dot_smul_r. reflexivity. Qed.

(** One Sherman-Morrison step keeps the form linear, a function on R^d, symmetric and positive
    semidefinite; positivity is Cauchy-Schwarz in the old form: (x . B z)^2 <= (x . B x)(z . B z). *)
Lemma step_ok d B B' x : form_ok d B -> sm_step d B B' x -> form_ok d B'.
Proof.
  intros F H. pose proof (form_psd d B x F) as Q. set (q := dot d x (B x)) in *.
  destruct F as (L & E & S & P).
  split; [|split; [|split]].
  - intros z w c i Hi.
    pose proof (H (vadd z (smul c w)) i Hi) as E1. pose proof (H z i Hi) as E2. pose proof (H w i Hi) as E3.
    pose proof (L z w c i Hi) as E4.
    rewrite (dot_veq_r d _ _ _ (L z w c)), dot_vadd_r, dot_smul_r in E1. fold q in E1, E2, E3.
    unfold vadd, vsub, smul in *. rewrite E1, E2, E3, E4. ring.
  - intros z w Ezw i Hi. rewrite (H z i Hi), (H w i Hi). unfold vsub, smul.
    rewrite (form_ext d B z w (conj L (conj E (conj S P))) Ezw i Hi).
    rewrite (dot_veq_r d _ _ _ (E z w Ezw)). reflexivity.
  - intros z w. rewrite (sm_dot d B B' x z w H), (sm_dot d B B' x w z H).
    rewrite (S z w), (S x w), (S x z). ring.
  - intros z. rewrite (sm_dot d B B' x z z H). fold q. rewrite (S z x).
    pose proof (form_cs d B x z (conj L (conj E (conj S P)))) as C. fold q in C.
    pose proof (P z) as Pz. set (p := dot d x (B z)) in *. set (Z := dot d z (B z)) in *.
    assert (R : Z - 1 / (1 + q) * p * p = (Z * (1 + q) - p * p) / (1 + q)) by (field; lra).
    rewrite R. apply div_nonneg; [|lra]. nra.
Qed.

(** ** The run, k = 0 .. M *)
Lemma sop_forms dim (B : nat -> Vec -> Vec) M a (x : nat -> Vec) : a > 0 ->
  (forall zz, veq dim (B 0%nat zz) (smul (1 / a) zz)) ->
  (forall k, (k < M)%nat -> sm_step dim (B k) (B (S k)) (x k)) ->
  forall k, (k <= M)%nat -> form_ok dim (B k).
Proof.
  intros Ha H0 HS. induction k as [|k IH]; intros Hk.
  - apply (start_ok dim a), H0. exact Ha.
  - apply (step_ok dim (B k) _ (x k)); [apply IH; lia|apply HS; lia].
Qed.

(** The upper bound: one mistake (y m <= 0, y^2 = 1, m = v . B x) adds
    (2 y m - m^2 + q) / (1 + q) <= q / (1 + q) to v . B v. *)
Lemma upper_step d B B' x v v' y : form_ok d B -> sm_step d B B' x -> veq d v' (vadd v (smul y x)) ->
  y * dot d v (B x) <= 0 -> y ^ 2 = 1 ->
  dot d v' (B' v') <= dot d v (B v) + dot d x (B x) / (1 + dot d x (B x)).
Proof.
  intros F H Ev M Y. pose proof (step_ok d B B' x F H) as F'.
  rewrite (dot_veq_r d _ _ _ (form_ext d B' _ _ F' Ev)), (dot_veq_l d _ _ _ Ev), form_quad by exact F'.
  rewrite !(sm_dot d B B' x _ _ H), (form_sym d B v x F). rewrite (form_sym d B v x F) in M.
  pose proof (form_psd d B x F) as Q.
  set (q := dot d x (B x)) in *. set (m := dot d x (B v)) in *. set (Z := dot d v (B v)).
  assert (R : Z - 1 / (1 + q) * m * m + 2 * y * (m - 1 / (1 + q) * q * m) + y * y * (q - 1 / (1 + q) * q * q)
              = Z + q / (1 + q) + (2 * (y * m) - m * m + (y ^ 2 - 1) * q) / (1 + q)) by (field; lra).
  rewrite R, Y. assert ((2 * (y * m) - m * m + (1 - 1) * q) / (1 + q) <= 0); [|lra].
  assert (0 < / (1 + q)) by (apply Rinv_0_lt_compat; lra).
  assert (2 * (y * m) - m * m + (1 - 1) * q <= 0) by nra. unfold Rdiv. nra.
Qed.

(** A_k u = a u + sum_{j<k} (u . x_j) x_j, mapped back to u by B_k. *)
Definition sop_A (a : R) (d : nat) (u : Vec) (x : nat -> Vec) (k : nat) : Vec :=
  vadd (smul a u) (vsum_lt k (fun j => smul (dot d u (x j)) (x j))).

Lemma dot_vsum_r d t (f : nat -> Vec) p : dot d p (vsum_lt t f) = sum_lt t (fun j => dot d p (f j)).
Proof. induction t as [|t IH]; simpl; [apply dot_vzero_r|]. rewrite dot_vadd_r, IH. reflexivity. Qed.

Lemma A_quad a d u x k : dot d u (sop_A a d u x k) = a * dot d u u + sum_lt k (fun j => dot d u (x j) ^ 2).
Proof.
  unfold sop_A. rewrite dot_vadd_r, dot_smul_r, dot_vsum_r. f_equal. apply sum_lt_ext. intros j _.
  rewrite dot_smul_r. ring.
Qed.

Lemma A_succ a d u x k : veq d (sop_A a d u x (S k)) (vadd (sop_A a d u x k) (smul (dot d u (x k)) (x k))).
Proof. intros i _. unfold sop_A. simpl vsum_lt. unfold vadd, smul. ring. Qed.

Lemma BA_step d B B' x A u c : form_ok d B -> sm_step d B B' x -> veq d (B A) u -> c = dot d u x ->
  veq d (B' (vadd A (smul c x))) u.
Proof.
  intros F H BA Ec. pose proof (step_ok d B B' x F H) as F'. destruct F' as (L' & _ & _ & _).
  pose proof (form_psd d B x F) as Q.
  intros i Hi. rewrite (L' A x c i Hi). unfold vadd, smul. rewrite (H A i Hi), (H x i Hi).
  rewrite (dot_veq_r d _ _ _ BA), (dot_comm d x u), <- Ec. unfold vsub, smul. rewrite (BA i Hi).
  field. lra.
Qed.

(** ** The theorem *)
Theorem second_order_perceptron_bound : second_order_perceptron_bound_statement.
Proof.
  intros dim B M a g u v x y Ha H0 HB0 HBS Hv Hm Hy.
  assert (HS : forall k, (k < M)%nat -> sm_step dim (B k) (B (S k)) (x k)).
  { intros k Hk z. rewrite <- Nat.add_1_r. apply HBS. lia. }
  assert (HV : forall k, (k < M)%nat -> veq dim (v (S k)) (vadd (v k) (smul (y k) (x k)))).
  { intros k Hk. rewrite <- Nat.add_1_r. apply Hv. lia. }
  pose proof (sop_forms dim B M a x Ha HB0 HS) as F.
  rewrite !sum_incl_first.
  (* upper: v_k . B_k v_k <= sum_{s<k} q_s / (1 + q_s) *)
  assert (Up : forall k, (k <= M)%nat ->
            dot dim (v k) (B k (v k))
            <= sum_lt k (fun s => dot dim (x s) (B s (x s)) / (1 + dot dim (x s) (B s (x s))))).
  { induction k as [|k IH]; intros Hk.
    - simpl. rewrite (dot_veq_l dim _ _ _ H0), dot_vzero_l. lra.
    - simpl sum_lt. pose proof (IH ltac:(lia)).
      pose proof (upper_step dim (B k) (B (S k)) (x k) (v k) (v (S k)) (y k) (F k ltac:(lia)) (HS k ltac:(lia))
                    (HV k ltac:(lia)) (Hm k ltac:(lia)) (Hy k ltac:(lia))). lra. }
  (* lower: u . v_k = sum_{s<k} y_s u . x_s *)
  assert (Lo : forall k, (k <= M)%nat -> dot dim u (v k) = sum_lt k (fun s => y s * dot dim u (x s))).
  { induction k as [|k IH]; intros Hk.
    - simpl. rewrite (dot_veq_r dim _ _ _ H0). apply dot_vzero_r.
    - simpl sum_lt. rewrite (dot_veq_r dim _ _ _ (HV k ltac:(lia))), dot_vadd_r, dot_smul_r, IH by lia.
      reflexivity. }
  (* B_k (A_k u) = u *)
  assert (BA : forall k, (k <= M)%nat -> veq dim (B k (sop_A a dim u x k)) u).
  { induction k as [|k IH]; intros Hk.
    - intros i Hi. rewrite (HB0 _ i Hi). unfold sop_A. simpl vsum_lt. unfold smul, vadd, vzero. field. lra.
    - pose proof (form_ext dim (B (S k)) _ _ (F (S k) Hk) (A_succ a dim u x k)) as E.
      intros i Hi. rewrite (E i Hi).
      apply (BA_step dim (B k) (B (S k)) (x k)); [apply F; lia|apply HS; lia|apply IH; lia|reflexivity|exact Hi]. }
  (* Cauchy-Schwarz in the B_M form: (u . v)^2 <= (u . A u) (v . B v) *)
  set (AM := sop_A a dim u x M). set (VM := v M). set (BM := B M).
  assert (CS : dot dim u VM ^ 2 <= dot dim u AM * dot dim VM (BM VM)).
  { pose proof (form_cs dim BM AM VM (F M (Nat.le_refl M))) as C.
    assert (E1 : dot dim AM (BM VM) = dot dim u VM).
    { rewrite (form_sym dim BM AM VM (F M (Nat.le_refl M))), (dot_veq_r dim _ _ _ (BA M (Nat.le_refl M))).
      apply dot_comm. }
    assert (E2 : dot dim AM (BM AM) = dot dim u AM).
    { rewrite (dot_veq_r dim _ _ _ (BA M (Nat.le_refl M))). apply dot_comm. }
    rewrite E1, E2 in C. simpl. lra. }
  unfold AM in CS. rewrite A_quad in CS.
  apply (SecondOrderPerceptron.sqrt_chain _ (dot dim u VM) _ (dot dim VM (BM VM))).
  - unfold VM. rewrite (Lo M (Nat.le_refl M)), <- sum_lt_const, <- sum_lt_sub. apply sum_lt_le.
    intros s _. pose proof (Rmax_r 0 (g - y s * dot dim u (x s))). lra.
  - apply form_psd, F, Nat.le_refl.
  - apply Rplus_le_le_0_compat; [apply Rmult_le_pos; [lra|apply dot_self_nonneg]|].
    apply sum_lt_nonneg. intros. apply pow2_ge_0.
  - exact CS.
  - apply Up, Nat.le_refl.
Qed.
