(** * The mistake bound of the second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005,
    'A second-order perceptron algorithm', SIAM J. Computing 34(3):640-668, Theorem 1), proved
    about the learner of [LearnersSecondOrder.v], in its determinant-free form: for every u and
    gamma > 0, with M the learner's mistakes, q_k = x_k . B_{k-1} x_k read on its run and
    D = sum_k max(0, gamma - y_k u . x_k),
      M gamma - D <= sqrt((a |u|^2 + sum_k (u . x_k)^2) * sum_k ln(1 + q_k)).
    The paper writes sum_k ln(1 + q_k) as sum_i ln(1 + lambda_i / a), lambda_i the eigenvalues of
    the mistakes' Gram matrix: that identity is the matrix determinant lemma, not proved here.

    Proof (by induction on the run, B as a linear map on [Vec]):
    - B_k is linear, symmetric (w . B z = z . B w) and positive semidefinite; with
      A_k z = a z + sum_s x_s (x_s . z), A_k (B_k z) = z and B_k (A_k z) = z ([sm_linear],
      [sm_symmetric], [sm_psd], [sm_inv_l], [sm_inv_r]; for every k, [Bk_invariants]; on the
      learner's final state, [sop_state]);
    - upper: v_k . B_k v_k <= v_{k-1} . B_{k-1} v_{k-1} + q_k / (1 + q_k), the cross term being
      y_k times the margin, <= 0 on a mistake ([upper_step]); q / (1 + q) <= ln(1 + q)
      ([ratio_le_ln]; on the run, [sop_upper]);
    - lower: u . v_k grows by y_k u . x_k >= gamma - max(0, gamma - y_k u . x_k) ([sop_lower]);
    - Cauchy-Schwarz in the B-form: (u . v)^2 <= (u . A u) (v . B v) ([cs_bform], from the
      discriminant of (A u - s v) . B (A u - s v) >= 0; on the run, [sop_cauchy_schwarz]).
    The learner theorems [sop_bound] and [sop_bound_ratio] join the three. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas.
Require Import Mistakebound.LearnersSecondOrder.
Require Mistakebound.KernelPSD.
Require Import List.
Open Scope R_scope.

(** ** Linear maps on vectors *)
Definition linear (B : Vec -> Vec) : Prop :=
  (forall z w, B (vadd z w) = vadd (B z) (B w)) /\ (forall c z, B (smul c z) = smul c (B z)).
Definition symmetric (d : nat) (B : Vec -> Vec) : Prop := forall z w, dot d w (B z) = dot d z (B w).
Definition psd (d : nat) (B : Vec -> Vec) : Prop := forall z, 0 <= dot d z (B z).

(** A + x x^T, as a map: z |-> A z + x (x . z). *)
Definition sop_grow (d : nat) (A : Vec -> Vec) (x : Vec) : Vec -> Vec := fun z => vadd (A z) (smul (dot d x z) x).

(** A_0 z = a z, B_0 z = z / a; after the instances xs (in order), A and B grown one at a time. *)
Definition sop_A0 (a : R) : Vec -> Vec := fun z => smul a z.
Definition sop_Ak (d : nat) (A : Vec -> Vec) (xs : list Vec) : Vec -> Vec := fold_left (sop_grow d) xs A.
Definition sop_Bk (d : nat) (B : Vec -> Vec) (xs : list Vec) : Vec -> Vec := fold_left (sop_sm d) xs B.
Definition sop_instances (ms : list (Vec * R * R)) : list Vec := map (fun m => fst (fst m)) ms.

(** The invariant of the run: B linear, symmetric and positive semidefinite, A linear, each the
    other's inverse. *)
Definition inv_pair (d : nat) (A B : Vec -> Vec) : Prop :=
  linear A /\ linear B /\ symmetric d B /\ psd d B /\ (forall z, B (A z) = z) /\ (forall z, A (B z) = z).

Lemma linear_add B z w : linear B -> B (vadd z w) = vadd (B z) (B w).
Proof. intros [L _]. apply L. Qed.
Lemma linear_smul B c z : linear B -> B (smul c z) = smul c (B z).
Proof. intros [_ L]. apply L. Qed.

(** ** The start *)
Lemma start_linear a : linear (sop_start a).
Proof.
  split; intros; unfold sop_start; apply functional_extensionality; intros i; unfold vadd, smul; ring.
Qed.

Lemma A0_linear a : linear (sop_A0 a).
Proof.
  split; intros; unfold sop_A0; apply functional_extensionality; intros i; unfold vadd, smul; ring.
Qed.

Lemma start_symmetric d a : symmetric d (sop_start a).
Proof. intros z w. unfold sop_start. rewrite !dot_smul_r, dot_comm. reflexivity. Qed.

Lemma start_psd d a : a > 0 -> psd d (sop_start a).
Proof.
  intros Ha z. unfold sop_start. rewrite dot_smul_r. apply Rmult_le_pos.
  - left. apply Rinv_0_lt_compat. lra.
  - apply dot_self_nonneg.
Qed.

Lemma inv_start d a : a > 0 -> inv_pair d (sop_A0 a) (sop_start a).
Proof.
  intros Ha. split; [apply A0_linear|]. split; [apply start_linear|]. split; [apply start_symmetric|].
  split; [apply start_psd, Ha|].
  split; intros z; unfold sop_start, sop_A0; apply functional_extensionality; intros i; unfold smul; field; lra.
Qed.

(** ** One Sherman-Morrison step keeps B linear, symmetric and positive semidefinite *)
Lemma sm_linear d B x : linear B -> linear (sop_sm d B x).
Proof.
  intros LB. split; intros; unfold sop_sm.
  - rewrite (linear_add B z w LB), dot_vadd_r. apply functional_extensionality; intros i.
    unfold vsub, vadd, smul, Rdiv. ring.
  - rewrite (linear_smul B c z LB), dot_smul_r. apply functional_extensionality; intros i.
    unfold vsub, smul, Rdiv. ring.
Qed.

Lemma sm_symmetric d B x : symmetric d B -> symmetric d (sop_sm d B x).
Proof.
  intros S z w. unfold sop_sm. rewrite !dot_vsub_r, !dot_smul_r.
  rewrite (S z w), (S z x), (S w x). unfold Rdiv. ring.
Qed.

(** Cauchy-Schwarz for a symmetric positive semidefinite form: (z . B w)^2 <= (z . B z) (w . B w),
    the discriminant of t |-> (z - t w) . B (z - t w) >= 0 ([KernelPSD.discriminant]). *)
Lemma psd_cauchy_schwarz d B z w : linear B -> symmetric d B -> psd d B ->
  dot d z (B w) * dot d z (B w) <= dot d z (B z) * dot d w (B w).
Proof.
  intros LB S P. apply KernelPSD.discriminant; [apply P|]. intros t.
  pose proof (P (vadd z (smul (- t) w))) as Q.
  rewrite (linear_add B _ _ LB), (linear_smul B _ _ LB) in Q.
  rewrite !dot_vadd_l, !dot_vadd_r, !dot_smul_l, !dot_smul_r in Q.
  rewrite <- (S w z) in Q. eapply Rle_trans; [exact Q|]. right. ring.
Qed.

Lemma sm_psd d B x : linear B -> symmetric d B -> psd d B -> psd d (sop_sm d B x).
Proof.
  intros LB S P z. unfold sop_sm. rewrite dot_vsub_r, dot_smul_r.
  pose proof (psd_cauchy_schwarz d B x z LB S P) as C.
  pose proof (P x) as Qx. pose proof (P z) as Qz.
  rewrite (S x z). set (p := dot d x (B z)) in *. set (q := dot d x (B x)) in *. set (Z := dot d z (B z)) in *.
  assert (E : Z - p / (1 + q) * p = (Z * (1 + q) - p * p) / (1 + q)) by (field; lra).
  rewrite E. apply div_nonneg; [|lra].
  assert (p * p <= q * Z) by lra. assert (0 <= Z * (1 + q) - q * Z) by (ring_simplify; lra). lra.
Qed.

(** ** A_k (B_k z) = z and B_k (A_k z) = z, kept by one step *)
Lemma grow_linear d A x : linear A -> linear (sop_grow d A x).
Proof.
  intros LA. split; intros; unfold sop_grow.
  - rewrite (linear_add A z w LA), dot_vadd_r. apply functional_extensionality; intros i.
    unfold vadd, smul. ring.
  - rewrite (linear_smul A c z LA), dot_smul_r. apply functional_extensionality; intros i.
    unfold vadd, smul. ring.
Qed.

(** B' (A' z) = z: the inverse of A + x x^T applied to (A + x x^T) z. *)
Lemma sm_inv_l d A B x : linear B -> psd d B -> (forall z, B (A z) = z) ->
  forall z, sop_sm d B x (sop_grow d A x z) = z.
Proof.
  intros LB P BA z. unfold sop_sm, sop_grow.
  rewrite (linear_add B _ _ LB), (linear_smul B _ _ LB), BA, dot_vadd_r, dot_smul_r.
  pose proof (P x) as Q. set (q := dot d x (B x)) in *.
  apply functional_extensionality; intros i. unfold vsub, vadd, smul. field. lra.
Qed.

(** A' (B' z) = z. *)
Lemma sm_inv_r d A B x : linear A -> psd d B -> (forall z, A (B z) = z) ->
  forall z, sop_grow d A x (sop_sm d B x z) = z.
Proof.
  intros LA P AB z. unfold sop_sm, sop_grow.
  replace (vsub (B z) (smul (dot d x (B z) / (1 + dot d x (B x))) (B x)))
    with (vadd (B z) (smul (- (dot d x (B z) / (1 + dot d x (B x)))) (B x)))
    by (apply functional_extensionality; intros i; unfold vsub, vadd, smul; ring).
  rewrite (linear_add A _ _ LA), (linear_smul A _ _ LA), !AB, dot_vadd_r, dot_smul_r.
  pose proof (P x) as Q. set (q := dot d x (B x)) in *.
  apply functional_extensionality; intros i. unfold vadd, smul. field. lra.
Qed.

Lemma inv_step d A B x : inv_pair d A B -> inv_pair d (sop_grow d A x) (sop_sm d B x).
Proof.
  intros (LA & LB & S & P & BA & AB).
  split; [apply grow_linear, LA|]. split; [apply sm_linear, LB|]. split; [apply sm_symmetric, S|].
  split; [apply sm_psd; assumption|]. split; [apply sm_inv_l; assumption|apply sm_inv_r; assumption].
Qed.

(** After any instances x_1, ..., x_k: B_k linear, symmetric, positive semidefinite, the inverse of A_k. *)
Lemma inv_after d xs : forall A B, inv_pair d A B -> inv_pair d (sop_Ak d A xs) (sop_Bk d B xs).
Proof.
  induction xs as [|x xs IH]; intros A B I; [exact I|]. apply IH, inv_step, I.
Qed.

Theorem Bk_invariants d a xs : a > 0 ->
  let A := sop_Ak d (sop_A0 a) xs in let B := sop_Bk d (sop_start a) xs in
  linear B /\ symmetric d B /\ psd d B /\ (forall z, A (B z) = z) /\ (forall z, B (A z) = z).
Proof.
  intros Ha A B. destruct (inv_after d xs _ _ (inv_start d a Ha)) as (_ & LB & S & P & BA & AB).
  repeat split; assumption || apply LB.
Qed.

(** u . A_k u = a |u|^2 + sum_s (u . x_s)^2 *)
Lemma grow_quad d A x u : dot d u (sop_grow d A x u) = dot d u (A u) + dot d u x ^ 2.
Proof. unfold sop_grow. rewrite dot_vadd_r, dot_smul_r, (dot_comm d x u). ring. Qed.

Lemma Ak_quad d u ms : forall A,
  dot d u (sop_Ak d A (sop_instances ms) u) = dot d u (A u) + sop_proj_sum d u ms.
Proof.
  unfold sop_Ak, sop_proj_sum in *.
  induction ms as [|[[x y] q] ms IH]; intros A; cbn [sop_instances map fold_left sop_sum fst]; [ring|].
  rewrite IH, grow_quad. ring.
Qed.

(** ** The upper bound: one mistake adds at most q / (1 + q) to v . B v *)
Lemma sm_quad_le d B x v : symmetric d B -> psd d B -> dot d v (sop_sm d B x v) <= dot d v (B v).
Proof.
  intros S P. unfold sop_sm. rewrite dot_vsub_r, dot_smul_r, (S v x).
  pose proof (P x) as Q. set (p := dot d v (B x)). set (q := dot d x (B x)) in *.
  assert (0 <= p / (1 + q) * p) by (assert (E : p / (1 + q) * p = (p * p) / (1 + q)) by (field; lra);
                                    rewrite E; apply div_nonneg; nra).
  lra.
Qed.

Lemma sm_self d B x : psd d B -> dot d x (sop_sm d B x x) = dot d x (B x) / (1 + dot d x (B x)).
Proof.
  intros P. unfold sop_sm. rewrite dot_vsub_r, dot_smul_r. pose proof (P x). field. lra.
Qed.

Lemma upper_step d B x v y : linear B -> symmetric d B -> psd d B -> y ^ 2 = 1 ->
  y * sop_margin d v B x <= 0 ->
  dot d (vadd v (smul y x)) (sop_sm d B x (vadd v (smul y x)))
    <= dot d v (B v) + dot d x (B x) / (1 + dot d x (B x)).
Proof.
  intros LB S P Y M. unfold sop_margin in M.
  pose proof (sm_linear d B x LB) as L'. pose proof (sm_symmetric d B x S) as S'.
  rewrite (linear_add _ _ _ L'), (linear_smul _ _ _ L'), !dot_vadd_l, !dot_vadd_r, !dot_smul_l, !dot_smul_r.
  rewrite (S' v x), sm_self by exact P.
  pose proof (sm_quad_le d B x v S P).
  set (r := dot d x (B x) / (1 + dot d x (B x))).
  replace (y * (y * r)) with (y ^ 2 * r) by ring. rewrite Y. lra.
Qed.

Lemma ln_le_mono x y : 0 < x -> x <= y -> ln x <= ln y.
Proof. intros Hx H. destruct (Rle_lt_or_eq_dec x y H) as [L|E]; [left; apply ln_increasing; lra|subst; lra]. Qed.

(** q / (1 + q) <= ln(1 + q) for q >= 0: 1 - t <= exp(-t) at t = q / (1 + q). *)
Lemma ratio_le_ln q : 0 <= q -> q / (1 + q) <= ln (1 + q).
Proof.
  intros Q. set (t := q / (1 + q)).
  pose proof (exp_ineq1_le (- t)) as E.
  assert (T : 1 + - t = / (1 + q)) by (unfold t; field; lra).
  rewrite T in E. apply ln_le_mono in E; [|apply Rinv_0_lt_compat; lra].
  rewrite ln_exp, ln_Rinv in E by lra. lra.
Qed.

(** ** Cauchy-Schwarz in the B-form: (u . v)^2 <= (u . A u) (v . B v) *)
Lemma cs_bform d A B u v : inv_pair d A B -> dot d u v * dot d u v <= dot d u (A u) * dot d v (B v).
Proof.
  intros (LA & LB & S & P & BA & AB).
  pose proof (psd_cauchy_schwarz d B (A u) v LB S P) as C.
  rewrite BA in C. rewrite (S v (A u)), BA, (dot_comm d (A u) u), (dot_comm d v u) in C. exact C.
Qed.

(** ** The run *)
Lemma sum_nonneg f ms : (forall x y q, In (x, y, q) ms -> 0 <= f x y q) -> 0 <= sop_sum f ms.
Proof.
  induction ms as [|[[x y] q] ms IH]; intros H; simpl; [lra|].
  pose proof (H x y q (or_introl eq_refl)). assert (0 <= sop_sum f ms) by (apply IH; intros; eapply H; right; eassumption).
  lra.
Qed.

Lemma sum_le f g ms : (forall x y q, In (x, y, q) ms -> f x y q <= g x y q) -> sop_sum f ms <= sop_sum g ms.
Proof.
  induction ms as [|[[x y] q] ms IH]; intros H; simpl; [lra|].
  pose proof (H x y q (or_introl eq_refl)). assert (sop_sum f ms <= sop_sum g ms) by (apply IH; intros; eapply H; right; eassumption).
  lra.
Qed.

(** The run from a state (v, B) with inv_pair d A B: the state it ends in is B grown by its mistakes'
    instances, the pair stays inverse, u . v grows by y_k u . x_k, v . B v by at most q_k / (1 + q_k),
    and every q_k >= 0. *)
Lemma sop_go_spec d ex : forall v B A,
  inv_pair d A B -> (forall x y, In (x, y) ex -> y ^ 2 = 1) ->
  let ms := sop_go d v B ex in
  let fin := sop_final d v B ex in
  snd fin = sop_Bk d B (sop_instances ms) /\
  inv_pair d (sop_Ak d A (sop_instances ms)) (snd fin) /\
  (forall u, dot d u (fst fin) = dot d u v + sop_sum (fun x y _ => y * dot d u x) ms) /\
  dot d (fst fin) (snd fin (fst fin)) <= dot d v (B v) + sop_ratio_sum ms /\
  (forall x y q, In (x, y, q) ms -> 0 <= q).
Proof.
  induction ex as [|[x y] rest IH]; intros v B A I Y ms fin.
  - subst ms fin. cbn [sop_go sop_final fst snd sop_instances map sop_Bk sop_Ak fold_left].
    split; [reflexivity|]. split; [exact I|]. split; [intros; cbn [sop_sum]; ring|].
    split; [unfold sop_ratio_sum; cbn [sop_sum]; lra|intros _ _ _ []].
  - subst ms fin. cbn [sop_go sop_final].
    assert (Y' : forall x' y', In (x', y') rest -> y' ^ 2 = 1) by (intros x' y' H; apply (Y x' y'); right; exact H).
    destruct (Rle_b (y * sop_margin d v B x) 0) eqn:E.
    + apply Rle_b_spec in E.
      destruct (IH (vadd v (smul y x)) (sop_sm d B x) (sop_grow d A x) (inv_step d A B x I) Y')
        as (EB & I' & Hu & Hv & Hq).
      destruct I as (LA & LB & S & P & BA & AB).
      pose proof (upper_step d B x v y LB S P (Y x y (or_introl eq_refl)) E) as U.
      split; [exact EB|]. split; [exact I'|]. split; [|split].
      * intros u. rewrite Hu, dot_vadd_r, dot_smul_r. cbn [sop_sum]. ring.
      * unfold sop_ratio_sum in *. cbn [sop_sum]. lra.
      * intros x' y' q' [Eq|In']; [injection Eq; intros <- _ _; apply P|eapply Hq; exact In'].
    + apply IH; assumption.
Qed.

(** The lower bound: sum_k y_k u . x_k >= M gamma - D. *)
Lemma lower_sum d u g ms :
  INR (length ms) * g - sop_hinge_sum d u g ms <= sop_sum (fun x y _ => y * dot d u x) ms.
Proof.
  induction ms as [|[[x y] q] ms IH]; unfold sop_hinge_sum in *; cbn [sop_sum length]; [simpl; lra|].
  rewrite S_INR. pose proof (Rmax_r 0 (g - y * dot d u x)). lra.
Qed.

Lemma ratio_le_log ms : (forall x y q, In (x, y, q) ms -> 0 <= q) -> sop_ratio_sum ms <= sop_log_sum ms.
Proof. intros H. apply sum_le. intros x y q I. apply ratio_le_ln. eapply H. exact I. Qed.

(** ** The three bounds on the learner's final state (v_M, B_M) *)
Definition sop_v (d : nat) (a : R) (ex : list (Vec * R)) : Vec := fst (sop_final d vzero (sop_start a) ex).
Definition sop_B (d : nat) (a : R) (ex : list (Vec * R)) : Vec -> Vec := snd (sop_final d vzero (sop_start a) ex).

(** B_M is B_0 grown by Sherman-Morrison over the mistakes' instances, the inverse of
    A_M = a I + sum_k x_k x_k^T. *)
Theorem sop_state : forall d a ex, a > 0 -> (forall x y, In (x, y) ex -> y ^ 2 = 1) ->
  let xs := sop_instances (sop_run d a ex) in
  sop_B d a ex = sop_Bk d (sop_start a) xs /\ inv_pair d (sop_Ak d (sop_A0 a) xs) (sop_B d a ex).
Proof.
  intros d a ex Ha Y xs.
  destruct (sop_go_spec d ex vzero (sop_start a) (sop_A0 a) (inv_start d a Ha) Y) as (EB & I & _).
  split; [exact EB|exact I].
Qed.

(** Lower: M gamma - D <= u . v_M. *)
Theorem sop_lower : forall d a g u ex, a > 0 -> (forall x y, In (x, y) ex -> y ^ 2 = 1) ->
  let ms := sop_run d a ex in
  INR (length ms) * g - sop_hinge_sum d u g ms <= dot d u (sop_v d a ex).
Proof.
  intros d a g u ex Ha Y ms.
  destruct (sop_go_spec d ex vzero (sop_start a) (sop_A0 a) (inv_start d a Ha) Y) as (_ & _ & Hu & _).
  unfold sop_v. rewrite Hu, dot_vzero_r, Rplus_0_l. apply lower_sum.
Qed.

(** Upper: v_M . B_M v_M <= sum_k q_k / (1 + q_k) <= sum_k ln(1 + q_k). *)
Theorem sop_upper : forall d a ex, a > 0 -> (forall x y, In (x, y) ex -> y ^ 2 = 1) ->
  let ms := sop_run d a ex in
  dot d (sop_v d a ex) (sop_B d a ex (sop_v d a ex)) <= sop_ratio_sum ms /\ sop_ratio_sum ms <= sop_log_sum ms.
Proof.
  intros d a ex Ha Y ms.
  destruct (sop_go_spec d ex vzero (sop_start a) (sop_A0 a) (inv_start d a Ha) Y) as (_ & _ & _ & Hv & Hq).
  rewrite dot_vzero_l, Rplus_0_l in Hv. split; [exact Hv|apply ratio_le_log, Hq].
Qed.

(** Cauchy-Schwarz in the B-form: (u . v_M)^2 <= (a |u|^2 + sum_k (u . x_k)^2) (v_M . B_M v_M). *)
Theorem sop_cauchy_schwarz : forall d a u ex, a > 0 -> (forall x y, In (x, y) ex -> y ^ 2 = 1) ->
  let ms := sop_run d a ex in
  dot d u (sop_v d a ex) ^ 2
    <= (a * dot d u u + sop_proj_sum d u ms) * dot d (sop_v d a ex) (sop_B d a ex (sop_v d a ex)).
Proof.
  intros d a u ex Ha Y ms.
  destruct (sop_state d a ex Ha Y) as (_ & I).
  pose proof (cs_bform d _ _ u (sop_v d a ex) I) as C.
  rewrite Ak_quad in C. unfold sop_A0 in C. rewrite dot_smul_r in C. fold ms in C. lra.
Qed.

(** ** The theorem, with sum_k q_k / (1 + q_k) and with sum_k ln(1 + q_k) *)
Lemma sqrt_chain (X P Q V L : R) : X <= P -> 0 <= V -> 0 <= Q -> P ^ 2 <= Q * V -> V <= L -> X <= sqrt (Q * L).
Proof.
  intros XP V0 Q0 C VL.
  destruct (Rle_or_lt X 0) as [N|Pos]; [apply Rle_trans with 0; [exact N|apply sqrt_pos]|].
  rewrite <- (sqrt_square X) by lra. apply sqrt_le_1_alt.
  apply Rle_trans with (P ^ 2); [simpl; rewrite Rmult_1_r; apply Rmult_le_compat; lra|].
  apply Rle_trans with (1 := C). apply Rmult_le_compat_l; assumption.
Qed.

Lemma gram_nonneg d a u ms : a > 0 -> 0 <= a * dot d u u + sop_proj_sum d u ms.
Proof.
  intros Ha. apply Rplus_le_le_0_compat; [apply Rmult_le_pos; [lra|apply dot_self_nonneg]|].
  apply sum_nonneg. intros. apply pow2_ge_0.
Qed.

Theorem sop_bound_ratio : forall (d : nat) (a g : R) (u : Vec) (ex : list (Vec * R)),
  a > 0 -> g > 0 ->
  (forall x y, In (x, y) ex -> y ^ 2 = 1) ->
  let ms := sop_run d a ex in
  let M := length ms in
  INR M * g - sop_hinge_sum d u g ms <= sqrt ((a * dot d u u + sop_proj_sum d u ms) * sop_ratio_sum ms).
Proof.
  intros d a g u ex Ha Hg Y ms M.
  destruct (sop_state d a ex Ha Y) as (_ & (_ & _ & _ & P & _)).
  apply (sqrt_chain _ (dot d u (sop_v d a ex)) _ (dot d (sop_v d a ex) (sop_B d a ex (sop_v d a ex)))).
  - apply sop_lower; assumption.
  - apply P.
  - apply gram_nonneg, Ha.
  - apply sop_cauchy_schwarz; assumption.
  - apply sop_upper; assumption.
Qed.

Theorem sop_bound : forall (d : nat) (a g : R) (u : Vec) (ex : list (Vec * R)),
  a > 0 -> g > 0 ->
  (forall x y, In (x, y) ex -> y ^ 2 = 1) ->
  let ms := sop_run d a ex in
  let M := length ms in
  INR M * g - sop_hinge_sum d u g ms <= sqrt ((a * dot d u u + sop_proj_sum d u ms) * sop_log_sum ms).
Proof.
  intros d a g u ex Ha Hg Y ms M.
  apply Rle_trans with (1 := sop_bound_ratio d a g u ex Ha Hg Y). apply sqrt_le_1_alt.
  apply Rmult_le_compat_l; [apply gram_nonneg, Ha|apply sop_upper; assumption].
Qed.
