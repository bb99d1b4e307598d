(** * Theorems about the learners themselves: running the functions of Learners.v (the ones the
    differential test compares with the suite's Python learners) on any sequence that satisfies
    the catalogue's conditions on every example makes at most the catalogue's bound of mistakes.
    The statements are printed from the catalogue's formula objects into LearnerStatements.v
    (generated); each proof reads the learner's run as the sequence of its mistakes
    (PerceptronRuns.v) and applies the catalogue counterpart to it. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners Mistakebound.PerceptronRuns.
Require Mistakebound.KernelPerceptron Mistakebound.WinnowCore Mistakebound.WinnowAbstract Mistakebound.WinnowBounds.
Require Mistakebound.Statements Mistakebound.Catalogue_block_novikoff Mistakebound.Catalogue_hinge.
Require Mistakebound.LearnersExperts Mistakebound.ExpertsRuns Mistakebound.Catalogue_experts Mistakebound.Glue.
Require Mistakebound.DisjunctionLowerBound.
Require Mistakebound.LearnersPA Mistakebound.PARuns Mistakebound.Catalogue_passive_aggressive.
Require Mistakebound.LearnersHedge Mistakebound.HedgeRuns Mistakebound.LittlestoneLowerBound Mistakebound.LittlestoneSOA.
Require Mistakebound.LearnersMulticlass.
Require Mistakebound.LearnersHedgeQ.
Require Mistakebound.KernelPSD.
Require Mistakebound.SecondOrderPerceptron.
Require Import Mistakebound.LearnerStatements.
Open Scope R_scope.

Lemma veq_refl_eq (d : nat) (a b : Vec) : a = b -> veq d a b.
Proof. intros ->. intros i _. reflexivity. Qed.

(** ** The perceptron without a bias: Block-Novikoff, examples of norm at most R, margin gamma *)
Theorem learner_perceptron_radius : learner_perceptron_radius_statement.
Proof.
  intros dim R_ g u ex Hy Hm Hr Hu Hg M.
  destruct (perceptron_sequence_nobias dim ex) as (W & X & Y & H0 & Hk & _).
  apply (Catalogue_block_novikoff.block_novikoff_radius dim M R_ g u W X Y);
    [apply veq_refl_eq, H0| | | | | |exact Hu|exact Hg];
    intros k [_ Hk']; destruct (Hk k Hk') as (A1 & A2 & A3);
    [rewrite Nat.add_1_r; apply veq_refl_eq, A1|exact A2|exact (Hy _ _ A3)|exact (Hm _ _ A3)|exact (Hr _ _ A3)].
Qed.

(** ** The perceptron with a bias: (R^2 + 1)(|u|^2 + bu^2) on examples with y (u.x + bu) >= 1 *)
Theorem learner_perceptron_bias : learner_perceptron_bias_statement.
Proof.
  intros dim R_ bu u ex Hy Hm Hr M.
  destruct (perceptron_mistake_sequence dim true ex vzero 0) as (W & X & B & Y & H0 & Hb0 & Hk & _).
  apply (Catalogue_block_novikoff.block_novikoff_bias dim M R_ B bu u W X Y);
    [apply veq_refl_eq, H0|exact Hb0| | | | | |];
    intros k [_ Hk']; destruct (Hk k Hk') as (A1 & A2 & A3 & A4);
    [rewrite Nat.add_1_r; apply veq_refl_eq, A1|rewrite Nat.add_1_r; exact A2|exact A3
    |exact (Hy _ _ A4)|exact (Hm _ _ A4)|exact (Hr _ _ A4)].
Qed.

(** ** The kernel perceptron: its run is the perceptron's on phi(x) (KernelPerceptron.v), so the
    perceptron's theorem in the feature space bounds its mistakes. *)
Lemma count_true_map {A : Type} (f : A -> bool) (l : list A) : count_true f l = count_true (fun b => b) (map f l).
Proof. unfold count_true. induction l as [|a l IH]; [reflexivity|]. simpl. destruct (f a); simpl; rewrite IH; reflexivity. Qed.

Theorem learner_kernel_perceptron_radius : learner_kernel_perceptron_radius_statement.
Proof.
  intros dim dim_phi K R_ g phi u n xs ys order Hord Hy Hm Hr Hu Hg HK. cbv zeta.
  assert (EK : K = fun a b => dot dim_phi (phi a) (phi b)).
  { apply functional_extensionality; intro a. apply functional_extensionality; intro b. apply HK. }
  destruct (KernelPerceptron.kernel_perceptron_is_feature_perceptron n dim_phi phi xs ys false order Hord)
    as (_ & Emis & _ & _).
  assert (E : count_true ks_mistake (kperceptron_run RN n K xs ys false false (fun _ => 0) 0 order)
              = perceptron_mistakes (perceptron_run RN dim_phi false vzero 0 (map (fun i => (phi (xs i), ys i)) order))).
  { unfold perceptron_mistakes. rewrite count_true_map, (count_true_map ps_mistake). rewrite EK.
    exact (f_equal (count_true (fun b => b)) Emis). }
  rewrite E.
  assert (Hin : forall x y, In (x, y) (map (fun i => (phi (xs i), ys i)) order) ->
                exists x0, x = phi x0 /\ In (x0, y) (map (fun i => (xs i, ys i)) order)).
  { intros x y H. apply in_map_iff in H as (i & E0 & Hi). inversion E0; subst.
    exists (xs i). split; [reflexivity|]. apply in_map_iff. exists i. split; [reflexivity|exact Hi]. }
  apply (learner_perceptron_radius dim_phi R_ g u); [| | |exact Hu|exact Hg];
    intros x y H; destruct (Hin x y H) as (x0 & -> & H0).
  - exact (Hy _ _ H0).
  - exact (Hm _ _ H0).
  - exact (Hr _ _ H0).
Qed.

(** ** Halving Winnow: Blum's Theorem 5 (WinnowBounds.v) for the disjunction of the first r variables *)
Theorem learner_winnow_halving : learner_winnow_halving_statement.
Proof.
  intros n r ex Hlab Hn Hr. cbv zeta.
  assert (Hc : WinnowCore.consistent n (WinnowAbstract.tmask r) ex).
  { intros xb lab H. destruct (Hlab xb lab H) as [Hb Hl].
    set (x0 := fun (_ : nat) (i : nat) => Z.of_nat (if xb i then 1 else 0)%nat).
    set (y0 := fun (_ : nat) => Z.of_nat (if lab then 1 else 0)%nat).
    assert (L : WinnowAbstract.labelled n r 1 x0 y0).
    { intros t _. split; [intros i _; unfold x0; destruct (xb i); simpl; auto|exact Hl]. }
    assert (Ex : WinnowAbstract.xbool x0 0 = xb).
    { apply functional_extensionality; intro i. unfold WinnowAbstract.xbool, x0. destruct (xb i); reflexivity. }
    destruct (WinnowAbstract.label_cases n r 1 x0 y0 0 Hr L ltac:(lia)) as [[Y T]|[Y T]];
      rewrite Ex in T; rewrite T; unfold y0 in Y; destruct lab; simpl in Y; congruence. }
  pose proof (WinnowBounds.winnow_halving_bound n (WinnowAbstract.tmask r) ex ltac:(lia) Hc) as B.
  rewrite WinnowAbstract.count_tmask, Nat.min_r in B by exact Hr. exact B.
Qed.

(** ** Halving Winnow on a disjunction of any r of the n variables, sigma(0), ..., sigma(r - 1): the
    target mask is the image of sigma on [0, r), which has at most r variables, and Blum's Theorem 5
    (WinnowBounds.v) holds for every target mask. *)
Definition image_mask (r : nat) (sigma : nat -> nat) : nat -> bool :=
  fun v => existsb (fun i => Nat.eqb (sigma i) v) (seq 0 r).

Lemma image_mask_true r sigma v : image_mask r sigma v = true <-> exists i, (i < r)%nat /\ sigma i = v.
Proof.
  unfold image_mask. rewrite existsb_exists. split.
  - intros (i & Hi & E). apply in_seq in Hi. apply Nat.eqb_eq in E. exists i. split; [lia|exact E].
  - intros (i & Hi & E). exists i. split; [apply in_seq; lia|apply Nat.eqb_eq; exact E].
Qed.

Lemma target_label_image n r sigma x : (forall i, (i < r)%nat -> (sigma i < n)%nat) ->
  WinnowCore.target_label n (image_mask r sigma) x = WinnowCore.target_label n (WinnowAbstract.tmask r) (fun i => x (sigma i))
  \/ (r > n)%nat.
Proof.
  intros Hs. destruct (Nat.le_gt_cases r n) as [Hr|Hr]; [left|right; exact Hr].
  apply Bool.eq_true_iff_eq. rewrite !WinnowCore.target_label_true. split.
  - intros (v & Hv & T & X). apply image_mask_true in T as (i & Hi & <-). exists i.
    unfold WinnowAbstract.tmask. rewrite Nat.ltb_lt. repeat split; [lia|lia|exact X].
  - intros (i & Hi & T & X). unfold WinnowAbstract.tmask in T. apply Nat.ltb_lt in T.
    exists (sigma i). split; [apply Hs; exact T|]. split; [apply image_mask_true; exists i; auto|exact X].
Qed.

Lemma count_lt_ext n f g : (forall v, f v = g v) -> WinnowCore.count_lt n f = WinnowCore.count_lt n g.
Proof. intros E. induction n as [|n IH]; [reflexivity|]. cbn [WinnowCore.count_lt]. rewrite IH, E. reflexivity. Qed.

Lemma count_lt_orb n f g :
  (WinnowCore.count_lt n (fun v => orb (f v) (g v)) <= WinnowCore.count_lt n f + WinnowCore.count_lt n g)%nat.
Proof. induction n as [|n IH]; [simpl; lia|]. cbn [WinnowCore.count_lt]. destruct (f n), (g n); simpl; lia. Qed.

Lemma count_lt_eqb_below m a : (m <= a)%nat -> WinnowCore.count_lt m (fun v => Nat.eqb a v) = 0%nat.
Proof.
  induction m as [|m IH]; intros H; [reflexivity|]. cbn [WinnowCore.count_lt]. rewrite IH by lia.
  destruct (Nat.eqb a m) eqn:E; [apply Nat.eqb_eq in E; lia|reflexivity].
Qed.

Lemma count_lt_eqb n a : (WinnowCore.count_lt n (fun v => Nat.eqb a v) <= 1)%nat.
Proof.
  induction n as [|n IH]; [simpl; lia|]. cbn [WinnowCore.count_lt].
  destruct (Nat.eqb a n) eqn:E; [|lia]. apply Nat.eqb_eq in E. subst. rewrite count_lt_eqb_below by lia. lia.
Qed.

Lemma count_image n r sigma : (WinnowCore.count_lt n (image_mask r sigma) <= r)%nat.
Proof.
  induction r as [|r IH].
  - rewrite (count_lt_ext n _ (fun _ => false)) by reflexivity. induction n as [|n IHn]; [reflexivity|].
    cbn [WinnowCore.count_lt]. lia.
  - rewrite (count_lt_ext n _ (fun v => orb (image_mask r sigma v) (Nat.eqb (sigma r) v))).
    + pose proof (count_lt_orb n (image_mask r sigma) (fun v => Nat.eqb (sigma r) v)).
      pose proof (count_lt_eqb n (sigma r)). lia.
    + intros v. unfold image_mask. rewrite seq_S, existsb_app. simpl. rewrite Bool.orb_false_r. reflexivity.
Qed.

Theorem learner_winnow_halving_any : learner_winnow_halving_any_statement.
Proof.
  intros n r sigma ex Hs Hlab Hn Hr. cbv zeta.
  assert (Hsig : forall i, (i < r)%nat -> (sigma i < n)%nat) by (intros i Hi; apply Hs; lia).
  assert (Hc : WinnowCore.consistent n (image_mask r sigma) ex).
  { intros xb lab H. destruct (Hlab xb lab H) as [Hb Hl].
    destruct (target_label_image n r sigma xb Hsig) as [Et|Et]; [rewrite Et|lia].
    set (x0 := fun (_ : nat) (i : nat) => Z.of_nat (if xb (sigma i) then 1 else 0)%nat).
    set (y0 := fun (_ : nat) => Z.of_nat (if lab then 1 else 0)%nat).
    assert (L : WinnowAbstract.labelled n r 1 x0 y0).
    { intros t _. split; [intros i _; unfold x0; destruct (xb (sigma i)); simpl; auto|exact Hl]. }
    assert (Ex : WinnowAbstract.xbool x0 0 = (fun i => xb (sigma i))).
    { apply functional_extensionality; intro i. unfold WinnowAbstract.xbool, x0. destruct (xb (sigma i)); reflexivity. }
    destruct (WinnowAbstract.label_cases n r 1 x0 y0 0 Hr L ltac:(lia)) as [[Y T]|[Y T]];
      rewrite Ex in T; rewrite T; unfold y0 in Y; destruct lab; simpl in Y; congruence. }
  pose proof (WinnowBounds.winnow_halving_bound n (image_mask r sigma) ex ltac:(lia) Hc) as B.
  pose proof (count_image n r sigma) as C. apply le_INR in C.
  pose proof (WinnowBounds.lg_nonneg n ltac:(lia)) as G.
  apply Rle_trans with (1 := B). apply Rplus_le_compat_l.
  apply Rmult_le_compat_r; [lra|]. apply Rmult_le_compat_l; lra.
Qed.

Theorem learner_winnow_halving_any_exact : learner_winnow_halving_any_exact_statement.
Proof.
  intros n r sigma ex Hs Hlab Hn Hr. cbv zeta. rewrite <- WinnowBounds.halving_mistakes_Q.
  exact (learner_winnow_halving_any n r sigma ex Hs Hlab Hn Hr).
Qed.

(** ** The same learners run over the rationals: the runs the differential test compares with the
    exact Python learners.  Q2R commutes with every run (LearnersBridge.v). *)
Theorem learner_perceptron_radius_exact : learner_perceptron_radius_exact_statement.
Proof.
  intros dim R_ g u ex Hy Hm Hr Hu Hg. cbv zeta. rewrite <- perceptron_mistakes_Q2R.
  exact (learner_perceptron_radius dim R_ g u _ Hy Hm Hr Hu Hg).
Qed.

Theorem learner_winnow_halving_exact : learner_winnow_halving_exact_statement.
Proof.
  intros n r ex Hlab Hn Hr. cbv zeta. rewrite <- WinnowBounds.halving_mistakes_Q.
  exact (learner_winnow_halving n r ex Hlab Hn Hr).
Qed.


(** ** Freund & Schapire (1999), Thm 2, on the learner: the catalogue's bound sums the squared
    hinge losses over the mistakes; the mistakes are among the examples and every term is >= 0
    (PerceptronRuns.v), and ((R + sqrt D2)/gamma)^2 grows with D2, so the sum over the examples
    bounds the mistakes as well. *)
Lemma fs_bound_mono (M : nat) (R_ g a b : R) :
  R_ >= 0 -> g > 0 -> 0 <= a -> a <= b -> INR M <= ((R_ + sqrt a) / g) ^ 2 -> INR M <= ((R_ + sqrt b) / g) ^ 2.
Proof.
  intros HR Hg Ha Hab B. eapply Rle_trans; [exact B|]. apply pow_incr. split.
  - apply Rmult_le_pos; [pose proof (sqrt_pos a); lra|left; apply Rinv_0_lt_compat; lra].
  - unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|].
    pose proof (sqrt_le_1_alt a b Hab). lra.
Qed.

Theorem learner_freund_schapire : learner_freund_schapire_statement.
Proof.
  intros dim R_ g u ex Hy Hr HR Hu Hg M S0.
  destruct (perceptron_sequence_nobias dim ex) as (W & X & Y & H0 & Hk & Hs).
  pose proof (Catalogue_hinge.freund_schapire_bound dim M R_ g u W X Y (veq_refl_eq _ _ _ H0)) as B.
  rewrite Glue.sum_incl_first in B.
  apply (fs_bound_mono M R_ g _ _ HR Hg
           (sum_lt_nonneg M _ (fun k _ => pow2_ge_0 _))
           (Hs (fun x y => Rmax 0 (g - y * dot dim x u) ^ 2) (fun a c => pow2_ge_0 _))).
  apply B; try assumption; intros k [_ Hk']; destruct (Hk k Hk') as (A1 & A2 & A3).
  - rewrite Nat.add_1_r. apply veq_refl_eq, A1.
  - exact A2.
  - exact (Hy _ _ A3).
  - exact (Hr _ _ A3).
Qed.

Theorem learner_kernel_freund_schapire : learner_kernel_freund_schapire_statement.
Proof.
  intros dim dim_phi K R_ g phi u n xs ys order Hord Hy Hr HR Hu Hg HK. cbv zeta.
  assert (EK : K = fun a b => dot dim_phi (phi a) (phi b)).
  { apply functional_extensionality; intro a. apply functional_extensionality; intro b. apply HK. }
  destruct (KernelPerceptron.kernel_perceptron_is_feature_perceptron n dim_phi phi xs ys false order Hord)
    as (_ & Emis & _ & _).
  assert (E : count_true ks_mistake (kperceptron_run RN n K xs ys false false (fun _ => 0) 0 order)
              = perceptron_mistakes (perceptron_run RN dim_phi false vzero 0 (map (fun i => (phi (xs i), ys i)) order))).
  { unfold perceptron_mistakes. rewrite count_true_map, (count_true_map ps_mistake). rewrite EK.
    exact (f_equal (count_true (fun b => b)) Emis). }
  rewrite E.
  assert (ES : forall o : list nat,
            sum_examples (fun x y => Rmax 0 (g - y * dot dim_phi (phi x) u) ^ 2) (map (fun i => (xs i, ys i)) o)
            = sum_examples (fun x y => Rmax 0 (g - y * dot dim_phi x u) ^ 2) (map (fun i => (phi (xs i), ys i)) o)).
  { intros o. unfold sum_examples. induction o as [|i rest IH]; [reflexivity|]. simpl. f_equal. exact IH. }
  rewrite ES.
  assert (Hin : forall x y, In (x, y) (map (fun i => (phi (xs i), ys i)) order) ->
                exists x0, x = phi x0 /\ In (x0, y) (map (fun i => (xs i, ys i)) order)).
  { intros x y H. apply in_map_iff in H as (i & E0 & Hi). inversion E0; subst.
    exists (xs i). split; [reflexivity|]. apply in_map_iff. exists i. split; [reflexivity|exact Hi]. }
  apply (learner_freund_schapire dim_phi R_ g u); [| |exact HR|exact Hu|exact Hg];
    intros x y H; destruct (Hin x y H) as (x0 & -> & H0).
  - exact (Hy _ _ H0).
  - exact (Hr _ _ H0).
Qed.

Theorem learner_freund_schapire_exact : learner_freund_schapire_exact_statement.
Proof.
  intros dim R_ g u ex Hy Hr HR Hu Hg. cbv zeta. rewrite <- perceptron_mistakes_Q2R.
  exact (learner_freund_schapire dim R_ g u _ Hy Hr HR Hu Hg).
Qed.

(** The side conditions on an advice table, as printed from their formula objects
    (coq/learner_sides.py): row i of expert j read by [nth], the row's length, the label. *)
Definition printed_rows (n : nat) (ex : list (list Z * Z)) : Prop :=
  forall (row : list Z) (lab : Z), In (row, lab) ex ->
    let adv := fun i : nat => nth i row 0%Z in let len_row := length row in
    ((len_row = n)%nat /\ (forall (i : nat), (((0 <= i)%nat /\ (i < n)%nat) -> (((adv (i)%nat) = 1)%Z \/ ((adv (i)%nat) = (-1))%Z)))
     /\ ((lab = 1)%Z \/ (lab = (-1))%Z)).

Lemma rows_of_printed (n : nat) (ex : list (list Z * Z)) : printed_rows n ex -> ExpertsRuns.rows_ok n ex.
Proof.
  intros H row y Hin. destruct (H row y Hin) as (Hl & Ha & Hy). split; [exact Hl|split; [|exact Hy]].
  intros a Hain. destruct (In_nth row a 0%Z Hain) as (k & Hk & <-). apply Ha. lia.
Qed.

(** ** Weighted Majority (LearnersExperts.v): its run gives the total weight, the fraction on wrong
    experts, expert j's weight and mistakes and its own mistakes (ExpertsRuns.v), and Littlestone &
    Warmuth's theorem bounds its mistakes by those of every expert j, in particular the best. *)
Theorem learner_weighted_majority : learner_weighted_majority_statement.
Proof.
  intros beta lib ln_n ln_wm n bq j ex Hq Hj Hrows Hn Hb Hlib Hln Hwm. cbv zeta. cbv zeta in Hq. subst beta.
  apply rows_of_printed in Hrows.
  destruct (ExpertsRuns.wm_run_start bq n j ex (proj1 Hb) Hj Hrows) as (W & F & v & e & z & H0 & Hv0 & Hs & HvW & Hz & He & _).
  pose proof (Catalogue_experts.weighted_majority_bound F (length ex) W (Q2R bq) e lib ln_n ln_wm n v z Hn Hb Hlib
                Hln H0 Hv0 (fun t Ht => proj1 (Hs t Ht)) (fun t Ht => proj1 (proj2 (Hs t Ht)))
                (fun t Ht => proj1 (proj2 (proj2 (Hs t Ht)))) HvW Hwm
                (fun t Ht => proj1 (proj2 (proj2 (proj2 (Hs t Ht))))) (fun t Ht => proj2 (proj2 (proj2 (proj2 (Hs t Ht))))))
    as B.
  rewrite !WinnowAbstract.zsum_incl_first in B.
  change (fun s : nat => z s) with z in B. change (fun s : nat => e s) with e in B.
  rewrite Hz, He, <- !INR_IZR_INZ in B. exact B.
Qed.

(** ** Weighted Majority with beta = 1/2 (the learner run with the rational 1/2): 2.41 (m + lg n). *)
Theorem learner_weighted_majority_half : learner_weighted_majority_half_statement.
Proof.
  intros lg_n l2 l43 ln_n n j ex Hj Hrows Hn H2 Hln H43 Hlg. cbv zeta. apply rows_of_printed in Hrows.
  assert (Eh : Q2R (1 # 2) = 1 / 2) by (unfold Q2R; simpl; field).
  destruct (ExpertsRuns.wm_run_start (1 # 2) n j ex ltac:(rewrite Eh; lra) Hj Hrows)
    as (W & F & v & e & z & H0 & Hv0 & Hs & HvW & Hz & He & _).
  rewrite Eh in Hs.
  pose proof (Catalogue_experts.weighted_majority_half_bound F (length ex) W e lg_n l2 l43 ln_n n v z Hn H2 Hln H0 Hv0
                (fun t Ht => proj1 (Hs t Ht)) (fun t Ht => proj1 (proj2 (Hs t Ht)))
                (fun t Ht => proj1 (proj2 (proj2 (Hs t Ht)))) HvW H43
                (fun t Ht => proj1 (proj2 (proj2 (proj2 (Hs t Ht))))) (fun t Ht => proj2 (proj2 (proj2 (proj2 (Hs t Ht)))))
                Hlg) as B.
  rewrite !WinnowAbstract.zsum_incl_first in B.
  change (fun s : nat => z s) with z in B. change (fun s : nat => e s) with e in B.
  rewrite Hz, He, <- !INR_IZR_INZ in B. exact B.
Qed.

(** ** Randomized Weighted Majority: the same weights; its expected mistakes, sum_t F(t) computed
    over the rationals by [rwm_expected], are bounded by (m ln(1/beta) + ln n) / (1 - beta). *)
Theorem learner_randomized_weighted_majority : learner_randomized_weighted_majority_statement.
Proof.
  intros beta lib ln_n n bq j ex Hq Hj Hrows Hn Hb Hlib Hln. cbv zeta. cbv zeta in Hq. subst beta.
  apply rows_of_printed in Hrows.
  destruct (ExpertsRuns.wm_run_start bq n j ex (proj1 Hb) Hj Hrows) as (W & F & v & e & z & H0 & Hv0 & Hs & HvW & _ & He & HF).
  pose proof (Catalogue_experts.randomized_weighted_majority_bound F (length ex) W (Q2R bq) e lib ln_n n v Hn Hb Hlib
                Hln H0 Hv0 (fun t Ht => proj1 (Hs t Ht)) (fun t Ht => proj1 (proj2 (Hs t Ht)))
                (fun t Ht => proj1 (proj2 (proj2 (Hs t Ht)))) HvW) as B.
  rewrite Glue.sum_incl_first, WinnowAbstract.zsum_incl_first in B.
  change (fun s : nat => F s) with F in B. change (fun s : nat => e s) with e in B.
  rewrite HF, He, <- INR_IZR_INZ in B. exact B.
Qed.

(** ** Halving (Weighted Majority with the penalty 0, LearnersExperts.v) over N hypotheses, one of
    them right on every example: its run read at its mistakes (ExpertsRuns.v) and the catalogue's
    Halving theorem. *)
Theorem learner_halving : learner_halving_statement.
Proof.
  intros N j ex Hj Hrows Hre. cbv zeta. apply rows_of_printed in Hrows.
  destruct (ExpertsRuns.halving_run_start N j ex Hj Hrows Hre) as (V & a & c & H0 & Hs & Hc & Hv & HM).
  exact (Catalogue_experts.halving_bound _ N V a c H0 Hs Hc Hv HM).
Qed.

(** ** The Passive-Aggressive family (LearnersPA.v), Crammer et al. 2006, Theorems 2-4: the run gives
    the catalogue's T steps (PARuns.v), T the number of examples; its step sizes are the
    catalogue's step equations; a sum over the run is the sum over the steps. *)
Theorem learner_passive_aggressive : learner_passive_aggressive_statement.
Proof.
  intros dim R_ u ex Hnz Hy Hsep Hr. cbv zeta.
  destruct (PARuns.pa_run_sequence LearnersPA.PA 0 dim ex vzero) as (W & X & Y & ST & H0 & Hs & Hsum & _).
  rewrite Hsum.
  pose proof (Catalogue_passive_aggressive.passive_aggressive_bound dim R_ (length ex)
                (fun t => LearnersPA.pa_loss (ST t)) (fun t => LearnersPA.pa_tau (ST t)) u W X Y
                (veq_refl_eq _ _ _ H0)) as B.
  rewrite Glue.sum_incl_first in B. apply B; intros t [_ Ht]; destruct (Hs t Ht) as (A1 & A2 & A3 & A4 & A5).
  - rewrite Nat.add_1_r. apply veq_refl_eq, A1.
  - exact A2.
  - rewrite A3. apply PARuns.pa_step_PA; [rewrite A2; apply Rmax_l|exact (Hnz _ _ A5)].
  - exact (Hnz _ _ A5).
  - exact (Hy _ _ A5).
  - exact (Hsep _ _ A5).
  - exact (Hr _ _ A5).
Qed.

Theorem learner_passive_aggressive_1 : learner_passive_aggressive_1_statement.
Proof.
  intros dim C_ R_ u ex Hy Hnz Hr Hc. cbv zeta.
  destruct (PARuns.pa_run_sequence LearnersPA.PA1 C_ dim ex vzero) as (W & X & Y & ST & H0 & Hs & Hsum & Hz).
  rewrite Hsum, Hz.
  pose proof (Catalogue_passive_aggressive.passive_aggressive_pa1_bound dim C_ R_ (length ex)
                (fun t => LearnersPA.pa_loss (ST t)) (fun t => Rmax 0 (1 - Y t * dot dim u (X t)))
                (fun t => LearnersPA.pa_tau (ST t)) u W X Y
                (fun t => if LearnersPA.pa_mistake (ST t) then 1%Z else 0%Z) (veq_refl_eq _ _ _ H0)) as B.
  rewrite WinnowAbstract.zsum_incl_first, Glue.sum_incl_first in B.
  apply B; try exact Hc; intros t [_ Ht]; destruct (Hs t Ht) as (A1 & A2 & A3 & A4 & A5).
  - rewrite Nat.add_1_r. apply veq_refl_eq, A1.
  - exact A2.
  - exact (Hy _ _ A5).
  - reflexivity.
  - exact (Hnz _ _ A5).
  - exact (Hr _ _ A5).
  - rewrite A3. apply PARuns.pa_step_PA1; [rewrite A2; apply Rmax_l|exact (Hnz _ _ A5)|exact Hc].
  - rewrite A4. destruct (Rle_b (Y t * dot dim (W t) (X t)) 0) eqn:E.
    + split; [right; reflexivity|intros _; apply Rle_b_spec, E].
    + split; [left; reflexivity|intros D; discriminate D].
Qed.

Theorem learner_passive_aggressive_2 : learner_passive_aggressive_2_statement.
Proof.
  intros dim C_ R_ u ex Hy Hr Hc. cbv zeta.
  destruct (PARuns.pa_run_sequence LearnersPA.PA2 C_ dim ex vzero) as (W & X & Y & ST & H0 & Hs & Hsum & _).
  rewrite !Hsum.
  pose proof (Catalogue_passive_aggressive.passive_aggressive_pa2_bound dim C_ R_ (length ex)
                (fun t => LearnersPA.pa_loss (ST t)) (fun t => Rmax 0 (1 - Y t * dot dim u (X t)))
                (fun t => LearnersPA.pa_tau (ST t)) u W X Y (veq_refl_eq _ _ _ H0)) as B.
  rewrite !Glue.sum_incl_first in B.
  apply B; try exact Hc; intros t [_ Ht]; destruct (Hs t Ht) as (A1 & A2 & A3 & A4 & A5).
  - rewrite Nat.add_1_r. apply veq_refl_eq, A1.
  - exact A2.
  - exact (Hy _ _ A5).
  - reflexivity.
  - exact (Hr _ _ A5).
  - rewrite A3. apply PARuns.pa_step_PA2; [rewrite A2; apply Rmax_l|exact Hc].
Qed.

(** The rational run in lowest terms (the one compared with the exact Python learner), read through
    Q2R, is the real run (LearnersPA.pa_run_hom). *)
Theorem learner_passive_aggressive_exact : learner_passive_aggressive_exact_statement.
Proof.
  intros dim R_ u ex Hnz Hy Hsep Hr. cbv zeta. rewrite PARuns.pa_run_Q2R, Q2R_0.
  exact (learner_passive_aggressive dim R_ u _ Hnz Hy Hsep Hr).
Qed.

(** ** Every deterministic algorithm on r-literal monotone disjunctions of n = r 2^l variables:
    r l mistakes, by a binary search in each of r blocks (DisjunctionLowerBound.v). *)
Theorem learner_disjunction_lower_bound : learner_disjunction_lower_bound_statement.
Proof. exact DisjunctionLowerBound.disjunction_lower_bound. Qed.

(** blocks of any powers of two, l_1 + ... + l_r mistakes; and every n >= r >= 1: r floor(lg(n/r)),
    sharper r floor(lg(n/r)) + floor(n/2^l) - r with the blocks that fit best *)
Theorem learner_disjunction_lower_bound_blocks : learner_disjunction_lower_bound_blocks_statement.
Proof. exact DisjunctionLowerBound.disjunction_lower_bound_blocks. Qed.

Theorem learner_disjunction_lower_bound_any_n : learner_disjunction_lower_bound_any_n_statement.
Proof. exact DisjunctionLowerBound.disjunction_lower_bound_any_n. Qed.

Theorem learner_disjunction_lower_bound_any_n_sharp : learner_disjunction_lower_bound_any_n_sharp_statement.
Proof. exact DisjunctionLowerBound.disjunction_lower_bound_any_n_sharp. Qed.

(** ** Hedge (LearnersHedge.v) on rows of losses in [0, 1]: Freund & Schapire's bound on its own
    total loss, the run read by HedgeRuns.v *)
Theorem learner_hedge : learner_hedge_statement.
Proof. exact HedgeRuns.learner_hedge. Qed.

(** tuned to the number of rows: regret at most sqrt(2 T ln n) *)
Theorem learner_hedge_regret : learner_hedge_regret_statement.
Proof. exact HedgeRuns.learner_hedge_regret. Qed.

(** run over the rationals (LearnersHedgeQ.v, the run compared with run_hedge(exact=True)) on losses
    k/m, beta = b^m: read through Q2R it is the real learner's run (hq_loss_start), so learner_hedge
    bounds it *)
Theorem learner_hedge_exact : learner_hedge_exact_statement.
Proof.
  intros beta j lib ln_n n b m ex Hrows Hm Hb Hbeta Hn Hj Hbr Hlib Hln. cbv zeta in *.
  rewrite LearnersHedgeQ.hq_loss_start by (assumption || lia). rewrite Hbeta.
  apply (HedgeRuns.learner_hedge beta j lib ln_n n); try assumption.
  intros row Hrow i Hi. unfold LearnersHedgeQ.hq_losses in Hrow.
  apply in_map_iff in Hrow as (row0 & <- & H0).
  rewrite LearnersHedgeQ.nth_losses. unfold LearnersHedgeQ.hq_real.
  pose proof (Hrows row0 H0 i Hi) as K. cbv beta in K. apply le_INR in K.
  assert (Pm : 0 < INR m) by (apply lt_0_INR; lia). pose proof (pos_INR (nth i row0 0%nat)).
  split; [unfold Rdiv; apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]|].
  apply (Rmult_le_reg_r (INR m)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

(** ** Every deterministic algorithm on a mistake tree of depth d that the class shatters: d
    mistakes (LittlestoneLowerBound.v; the Littlestone dimension is a lower bound) *)
Theorem learner_ldim_lower_bound : learner_ldim_lower_bound_statement.
Proof. intros alg H t d S. exact (LittlestoneLowerBound.ldim_lower_bound alg H t d S). Qed.

(** ** SOA (LittlestoneSOA.v) over a finite class: at most Ldim(H) mistakes *)
Theorem learner_soa : learner_soa_statement.
Proof. intros dom H ex h Hh Hc Hd. exact (LittlestoneSOA.soa_mistake_bound dom H ex h Hh Hc Hd). Qed.

(** ** The multiclass perceptron (LearnersMulticlass.v), one vector per class, the first class on a
    tie: at most 2 R^2 / gamma^2 mistakes (Crammer & Singer 2003) *)
Theorem learner_multiclass_perceptron : learner_multiclass_perceptron_statement.
Proof. exact LearnersMulticlass.mc_perceptron_bound. Qed.

(** ** The kernel perceptron with any kernel symmetric and positive semidefinite on the run's points
    (the Gaussian too: no feature map), the comparator given by dual coefficients (KernelPSD.v) *)
Theorem learner_kernel_perceptron_psd : learner_kernel_perceptron_psd_statement.
Proof. exact KernelPSD.kernel_perceptron_psd_learner. Qed.

Theorem learner_kernel_perceptron_psd_norm : learner_kernel_perceptron_psd_norm_statement.
Proof. exact KernelPSD.kernel_perceptron_psd_learner_norm. Qed.

(** ** The second-order perceptron (LearnersSecondOrder.v), B kept by Sherman-Morrison: Theorem 1 of
    Cesa-Bianchi, Conconi & Gentile (2005) in its determinant-free form, with sum_k ln(1 + q_k), and
    the sharper sum_k q_k / (1 + q_k) (SecondOrderPerceptron.v) *)
Theorem learner_second_order_perceptron : learner_second_order_perceptron_statement.
Proof. exact SecondOrderPerceptron.sop_bound. Qed.

Theorem learner_second_order_perceptron_ratio : learner_second_order_perceptron_ratio_statement.
Proof. exact SecondOrderPerceptron.sop_bound_ratio. Qed.
