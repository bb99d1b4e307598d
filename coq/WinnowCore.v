(** * Winnow: the run invariant behind every Winnow bound of the catalogue.

    Halving Winnow (false positive: active weights times c = 1/2) and the elimination variant
    (c = 0), threshold n, weights start at 1, target a monotone disjunction of the variables in the
    mask [t] (r = [count_lt n t] of them).  F counts false negatives (promotions), D false positives
    (demotions).  One invariant carries, through every mistake of the run:

    - the total weight W: W + (1 - c) n D <= n + n F, strictly once F >= 1 (Blum's argument);
    - each relevant weight is 2^(p_i) with 2^(p_i) < 2n, and F <= sum_i p_i;
    - for n = 2^l, the potential Phi = I + sum_i phi(p_i) (I: the irrelevant weight, phi(p):
      the charge sum_{p <= a < l} (n - 2^a) still available to relevant variable i) satisfies
      Phi + (1 - c) n D <= Phi_0, strictly once F >= 1: a false negative adds less than n - w_j to I
      and takes exactly n - w_j from phi for an active relevant j; a false positive removes at least
      (1 - c) n from I.  This is the global charging argument of the tight bound, as a step invariant;
    - after a false positive, I >= c n (the halved weights keep at least n/2). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners.
Open Scope R_scope.

Fixpoint count_lt (n : nat) (f : nat -> bool) : nat :=
  match n with
  | O => O
  | S m => (count_lt m f + (if f m then 1 else 0))%nat
  end.

Definition target_label (n : nat) (t x : nat -> bool) : bool := existsb (fun i => andb (t i) (x i)) (seq 0 n).

Lemma target_label_true n t x : target_label n t x = true <-> exists i, (i < n)%nat /\ t i = true /\ x i = true.
Proof.
  unfold target_label. rewrite existsb_exists. split.
  - intros (i & Hi & E). apply in_seq in Hi. apply andb_prop in E. exists i. split; [lia|tauto].
  - intros (i & Hi & T & X). exists i. split; [apply in_seq; lia|rewrite T, X; reflexivity].
Qed.

Lemma target_label_false n t x : target_label n t x = false -> forall i, (i < n)%nat -> t i = true -> x i = false.
Proof.
  intros E i Hi T. destruct (x i) eqn:X; [|reflexivity].
  assert (target_label n t x = true) by (apply target_label_true; exists i; auto). congruence.
Qed.

Definition consistent (n : nat) (t : nat -> bool) (ex : list ((nat -> bool) * bool)) : Prop :=
  forall x lab, In (x, lab) ex -> lab = target_label n t x.

Definition fn_count (run : list (wstep RN)) : nat := count_true (fun s => andb (ws_mistake s) (negb (ws_pred s))) run.
Definition fp_count (run : list (wstep RN)) : nat := count_true (fun s => andb (ws_mistake s) (ws_pred s)) run.

Lemma mistakes_split (run : list (wstep RN)) : winnow_mistakes run = (fn_count run + fp_count run)%nat.
Proof.
  unfold winnow_mistakes, fn_count, fp_count, count_true.
  induction run as [|s r IH]; [reflexivity|]. simpl.
  destruct (ws_mistake s), (ws_pred s); simpl; rewrite IH; lia.
Qed.

(** ** The generic induction over a run: an invariant kept by every promotion and demotion *)
Lemma winnow_run_inv (n : nat) (up down theta : R) (t : nat -> bool)
      (Inv : (nat -> R) -> nat -> nat -> Prop) :
  (forall w F D x, Inv w F D -> target_label n t x = true -> sum_lt n (fun i => if x i then w i else 0) < theta ->
     Inv (winnow_update RN w x up) (S F) D) ->
  (forall w F D x, Inv w F D -> target_label n t x = false -> theta <= sum_lt n (fun i => if x i then w i else 0) ->
     Inv (winnow_update RN w x down) F (S D)) ->
  forall ex w F D, Inv w F D -> consistent n t ex ->
  exists w', Inv w' (F + fn_count (winnow_run RN n up down theta w ex))%nat
                    (D + fp_count (winnow_run RN n up down theta w ex))%nat.
Proof.
  intros Hfn Hfp ex. induction ex as [|[x lab] rest IH]; intros w F D Hi Hc.
  - exists w. simpl. unfold fn_count, fp_count, count_true. simpl. rewrite !Nat.add_0_r. exact Hi.
  - assert (Hrest : consistent n t rest) by (intros x' l' H; apply Hc; right; exact H).
    assert (Hlab : lab = target_label n t x) by (apply Hc; left; reflexivity).
    cbn [winnow_run]. unfold fn_count, fp_count, count_true in *.
    destruct (nle RN theta (winnow_act RN n w x)) eqn:P;
      unfold winnow_act in P; rewrite nsum_R in P;
      destruct lab eqn:L; cbn [Bool.eqb negb filter andb ws_mistake ws_pred length].
    + (* predicted 1, label 1: no mistake *)
      apply IH; assumption.
    + (* false positive *)
      apply Rle_b_spec in P.
      destruct (IH (winnow_update RN w x down) F (S D)) as [w' Hw']; [apply Hfp; auto|exact Hrest|].
      exists w'. rewrite Nat.add_succ_r. exact Hw'.
    + (* false negative *)
      apply Rle_b_false in P.
      destruct (IH (winnow_update RN w x up) (S F) D) as [w' Hw']; [apply Hfn; auto|exact Hrest|].
      exists w'. rewrite Nat.add_succ_r. exact Hw'.
    + apply IH; assumption.
Qed.

(** ** Sums over the coordinates *)
Definition Isum (n : nat) (t : nat -> bool) (w : nat -> R) : R := sum_lt n (fun i => if t i then 0 else w i).
Definition relsum (n : nat) (t : nat -> bool) (g : nat -> R) : R := sum_lt n (fun i => if t i then g i else 0).

Lemma sum_lt_ge_term n f j : (forall i, (i < n)%nat -> 0 <= f i) -> (j < n)%nat -> f j <= sum_lt n f.
Proof.
  induction n as [|n IH]; intros H Hj; [lia|]. simpl.
  destruct (Nat.eq_dec j n) as [->|Ne].
  - pose proof (sum_lt_nonneg n f (fun i Hi => H i ltac:(lia))). lra.
  - pose proof (IH (fun i Hi => H i ltac:(lia)) ltac:(lia)). pose proof (H n ltac:(lia)). lra.
Qed.

Lemma relsum_const n t c : relsum n t (fun _ => c) = INR (count_lt n t) * c.
Proof.
  unfold relsum. induction n as [|n IH]; simpl; [lra|]. rewrite IH, plus_INR.
  destruct (t n); simpl; lra.
Qed.

Lemma relsum_le n t g h : (forall i, (i < n)%nat -> t i = true -> g i <= h i) -> relsum n t g <= relsum n t h.
Proof. intros H. apply sum_lt_le. intros i Hi. destruct (t i) eqn:T; [apply H; auto|lra]. Qed.

Lemma relsum_nonneg n t g : (forall i, (i < n)%nat -> t i = true -> 0 <= g i) -> 0 <= relsum n t g.
Proof. intros H. apply sum_lt_nonneg. intros i Hi. destruct (t i) eqn:T; [apply H; auto|lra]. Qed.

Lemma count_lt_zero n t : count_lt n t = 0%nat -> forall i, (i < n)%nat -> t i = false.
Proof.
  induction n as [|n IH]; intros H i Hi; [lia|]. simpl in H.
  destruct (t n) eqn:T; [lia|]. rewrite Nat.add_0_r in H.
  destruct (Nat.eq_dec i n) as [->|Ne]; [exact T|apply IH; auto; lia].
Qed.

Lemma count_lt_le n t : (count_lt n t <= n)%nat.
Proof. induction n; simpl; [lia|destruct (t n); lia]. Qed.

(** The update of the active weights by a factor f. *)
Lemma wupd (w : nat -> R) (x : nat -> bool) (f : R) (i : nat) :
  winnow_update RN w x f i = (if x i then w i * f else w i : R).
Proof. reflexivity. Qed.

Lemma update_total (n : nat) (w : nat -> R) (x : nat -> bool) (f : R) :
  sum_lt n (winnow_update RN w x f) = sum_lt n w + (f - 1) * sum_lt n (fun i => if x i then w i else 0).
Proof.
  rewrite <- sum_lt_scal, <- sum_lt_add. apply sum_lt_ext. intros i _.
  rewrite wupd. destruct (x i); ring.
Qed.

Definition irr_active (n : nat) (t x : nat -> bool) (w : nat -> R) : R :=
  sum_lt n (fun i => if t i then 0 else if x i then w i else 0).
Definition rel_active (n : nat) (t x : nat -> bool) (w : nat -> R) : R :=
  sum_lt n (fun i => if t i then (if x i then w i else 0) else 0).

Lemma update_Isum (n : nat) (t : nat -> bool) (w : nat -> R) (x : nat -> bool) (f : R) : Isum n t (winnow_update RN w x f) = Isum n t w + (f - 1) * irr_active n t x w.
Proof.
  unfold Isum, irr_active. rewrite <- sum_lt_scal, <- sum_lt_add. apply sum_lt_ext. intros i _.
  rewrite wupd. destruct (t i), (x i); ring.
Qed.

Lemma act_split (n : nat) (t x : nat -> bool) (w : nat -> R) :
  sum_lt n (fun i => if x i then w i else 0) = irr_active n t x w + rel_active n t x w.
Proof.
  unfold irr_active, rel_active. rewrite <- sum_lt_add. apply sum_lt_ext. intros i _.
  destruct (t i), (x i); ring.
Qed.

Lemma inactive_irr (n : nat) (t x : nat -> bool) (w : nat -> R) : Isum n t w - irr_active n t x w = sum_lt n (fun i => if t i then 0 else if x i then 0 else w i).
Proof.
  unfold Isum, irr_active. rewrite <- sum_lt_sub. apply sum_lt_ext. intros i _. destruct (t i), (x i); ring.
Qed.

(** ** The charge phi(p) = sum_{p <= a < l} (n - 2^a) *)
Definition phi (n l p : nat) : R := sum_lt (l - p) (fun a => INR n - 2 ^ (p + a)).

Lemma phi_step n l p : (p < l)%nat -> phi n l (S p) = phi n l p - (INR n - 2 ^ p).
Proof.
  intros H. unfold phi. replace (l - p)%nat with (S (l - S p)) by lia.
  rewrite sum_lt_shift. rewrite Nat.add_0_r.
  assert (E : sum_lt (l - S p) (fun a => INR n - 2 ^ (S p + a)) = sum_lt (l - S p) (fun k => INR n - 2 ^ (p + S k))).
  { apply sum_lt_ext. intros k _. rewrite Nat.add_succ_r. reflexivity. }
  rewrite E. ring.
Qed.

Lemma pow2_strict_mono (a b : nat) : (a < b)%nat -> 2 ^ a < 2 ^ b.
Proof.
  intros H. replace b with (a + (b - a))%nat by lia. rewrite pow_add.
  assert (1 < 2 ^ (b - a)).
  { destruct (b - a)%nat as [|k] eqn:E; [lia|]. simpl. pose proof (Rle_pow 2 0 k ltac:(lra) ltac:(lia)). simpl in H0. lra. }
  pose proof (pow_lt 2 a ltac:(lra)). nra.
Qed.

Lemma pow2_lt_inv (a b : nat) : 2 ^ a < 2 ^ b -> (a < b)%nat.
Proof.
  intros H. destruct (Nat.lt_ge_cases a b) as [L|L]; [exact L|].
  pose proof (Rle_pow 2 b a ltac:(lra) L). lra.
Qed.

Lemma phi_nonneg n l p : INR n = 2 ^ l -> 0 <= phi n l p.
Proof.
  intros Hn. unfold phi. apply sum_lt_nonneg. intros a Ha. rewrite Hn.
  pose proof (pow2_strict_mono (p + a) l ltac:(lia)). lra.
Qed.

Lemma geometric_pow2 l : sum_lt l (fun a => 2 ^ a) = 2 ^ l - 1.
Proof. induction l as [|l IH]; simpl; [lra|rewrite IH; ring]. Qed.

Lemma phi_zero n l : INR n = 2 ^ l -> phi n l 0 = INR l * INR n - INR n + 1.
Proof.
  intros Hn. unfold phi. rewrite Nat.sub_0_r.
  rewrite sum_lt_sub, sum_lt_const. simpl. rewrite geometric_pow2, Hn. ring.
Qed.

(** ** The invariant *)
Definition winv (n : nat) (t : nat -> bool) (c : R) (w : nat -> R) (F D : nat) : Prop :=
  (forall i, (i < n)%nat -> 0 <= w i) /\
  (0 < c -> forall i, (i < n)%nat -> 0 < w i) /\
  sum_lt n w + (1 - c) * INR n * INR D <= INR n + INR n * INR F /\
  ((1 <= F)%nat -> sum_lt n w + (1 - c) * INR n * INR D < INR n + INR n * INR F) /\
  ((1 <= D)%nat -> c * INR n <= Isum n t w) /\
  exists p : nat -> nat,
    (forall i, (i < n)%nat -> t i = true -> w i = 2 ^ p i /\ 2 ^ p i < 2 * INR n) /\
    INR F <= relsum n t (fun i => INR (p i)) /\
    (F = 0%nat -> forall i, (i < n)%nat -> t i = true -> p i = 0%nat) /\
    (forall l, INR n = 2 ^ l ->
       Isum n t w + relsum n t (fun i => phi n l (p i)) + (1 - c) * INR n * INR D
         <= INR n - INR (count_lt n t) + INR (count_lt n t) * phi n l 0 /\
       ((1 <= F)%nat -> Isum n t w + relsum n t (fun i => phi n l (p i)) + (1 - c) * INR n * INR D
         < INR n - INR (count_lt n t) + INR (count_lt n t) * phi n l 0)).

Lemma winv_init n t c : (1 <= n)%nat -> winv n t c (fun _ => 1) 0 0.
Proof.
  intros Hn. assert (Hn' : 1 <= INR n) by (apply (le_INR 1); exact Hn).
  repeat split.
  - intros; lra.
  - intros; lra.
  - rewrite sum_lt_const. simpl. lra.
  - intros H; lia.
  - intros H; lia.
  - exists (fun _ => 0%nat). split; [|split; [|split]].
    + intros i Hi Ti. simpl. split; lra.
    + rewrite relsum_const. simpl. lra.
    + intros _ i _ _. reflexivity.
    + intros l Hl. split; [|intros H; lia]. unfold Isum. rewrite relsum_const.
      assert (E : sum_lt n (fun i => if t i then 0 else 1) = INR n - INR (count_lt n t)).
      { clear. induction n as [|n IH]; [simpl; lra|]. cbn [sum_lt count_lt]. rewrite IH, plus_INR, S_INR.
        destruct (t n); simpl; lra. }
      rewrite E. simpl. lra.
Qed.

Lemma winv_fn (n : nat) (t : nat -> bool) (c : R) (w : nat -> R) (F D : nat) (x : nat -> bool) :
  0 <= c <= 1 ->
  winv n t c w F D -> target_label n t x = true -> sum_lt n (fun i => if x i then w i else 0) < INR n ->
  winv n t c (winnow_update RN w x (two RN)) (S F) D.
Proof.
  intros Hc (Hnn & Hpos & HW & HWs & HI & p & Hp & HF & HF0 & HPhi) Hlab Hact.
  apply target_label_true in Hlab as (j & Hj & Tj & Xj).
  assert (T2 : two RN = 2) by (simpl; ring).
  set (act := sum_lt n (fun i => if x i then w i else 0)) in *.
  pose proof (act_split n t x w) as AS. fold act in AS.
  assert (Hirr : 0 <= irr_active n t x w).
  { apply sum_lt_nonneg. intros i Hi. destruct (t i), (x i); auto; lra. }
  assert (Hrel_j : w j <= rel_active n t x w).
  { unfold rel_active. set (g := fun i => if t i then (if x i then w i else 0) else 0).
    replace (w j) with (g j) by (unfold g; rewrite Tj, Xj; reflexivity).
    apply sum_lt_ge_term; [|exact Hj]. intros i Hi. unfold g. destruct (t i), (x i); auto; lra. }
  (* every active relevant weight is below n *)
  assert (Hbelow : forall i, (i < n)%nat -> t i = true -> x i = true -> w i < INR n).
  { intros i Hi Ti Xi.
    assert (w i <= rel_active n t x w).
    { unfold rel_active. set (g := fun k => if t k then (if x k then w k else 0) else 0).
      replace (w i) with (g i) by (unfold g; rewrite Ti, Xi; reflexivity).
      apply sum_lt_ge_term; [|exact Hi]. intros k Hk. unfold g. destruct (t k), (x k); auto; lra. }
    lra. }
  assert (Hupd : forall i, winnow_update RN w x (two RN) i = if x i then 2 * w i else w i).
  { intro i. rewrite wupd. simpl. destruct (x i); [ring|reflexivity]. }
  unfold winv. rewrite S_INR.
  repeat split.
  - intros i Hi. rewrite Hupd. specialize (Hnn i Hi). destruct (x i); lra.
  - intros Hc0 i Hi. rewrite Hupd. specialize (Hpos Hc0 i Hi). destruct (x i); lra.
  - rewrite update_total, T2. fold act. pose proof (pos_INR D). pose proof (pos_INR n). nra.
  - intros _. rewrite update_total, T2. fold act. pose proof (pos_INR D). pose proof (pos_INR n). nra.
  - intros HD. rewrite update_Isum, T2. specialize (HI HD). lra.
  - exists (fun i => if x i then S (p i) else p i). split; [|split; [|split]].
    + intros i Hi Ti. rewrite Hupd. destruct (Hp i Hi Ti) as [E B]. destruct (x i) eqn:Xi.
      * pose proof (Hbelow i Hi Ti Xi) as Bi. rewrite E in Bi. simpl. rewrite E. split; lra.
      * split; [exact E|exact B].
    + (* one more doubling of a relevant weight *)
      assert (E : relsum n t (fun i => INR (if x i then S (p i) else p i))
                  = relsum n t (fun i => INR (p i)) + relsum n t (fun i => if x i then 1 else 0)).
      { unfold relsum. rewrite <- sum_lt_add. apply sum_lt_ext. intros i _.
        destruct (t i), (x i); rewrite ?S_INR; ring. }
      rewrite E.
      assert (1 <= relsum n t (fun i => if x i then 1 else 0)).
      { unfold relsum. set (g := fun i => if t i then (if x i then 1 else 0) else 0).
        replace 1 with (g j) at 1 by (unfold g; rewrite Tj, Xj; reflexivity).
        apply sum_lt_ge_term; [|exact Hj]. intros k Hk. unfold g. destruct (t k), (x k); lra. }
      lra.
    + intros E; lia.
    + intros l Hl. split.
      * (* the potential drops *)
      destruct (HPhi l Hl) as [Phi1 _]. left.
      assert (Hpl : forall i, (i < n)%nat -> t i = true -> x i = true -> (p i < l)%nat).
      { intros i Hi Ti Xi. destruct (Hp i Hi Ti) as [E _]. apply pow2_lt_inv. rewrite <- Hl, <- E.
        apply Hbelow; auto. }
      assert (Ephi : relsum n t (fun i => phi n l (if x i then S (p i) else p i))
                     = relsum n t (fun i => phi n l (p i))
                       - sum_lt n (fun i => if t i then (if x i then INR n - w i else 0) else 0)).
      { unfold relsum. rewrite <- sum_lt_sub. apply sum_lt_ext. intros i Hi.
        destruct (t i) eqn:Ti, (x i) eqn:Xi; try ring.
        rewrite phi_step by (apply Hpl; auto). destruct (Hp i Hi Ti) as [E _]. rewrite E. ring. }
      assert (Hcharge : INR n - w j <= sum_lt n (fun i => if t i then (if x i then INR n - w i else 0) else 0)).
      { set (g := fun i => if t i then (if x i then INR n - w i else 0) else 0).
        replace (INR n - w j) with (g j) by (unfold g; rewrite Tj, Xj; reflexivity).
        apply sum_lt_ge_term; [|exact Hj]. intros k Hk. unfold g.
        destruct (t k) eqn:Tk, (x k) eqn:Xk; try lra. pose proof (Hbelow k Hk Tk Xk). lra. }
      rewrite update_Isum, T2, Ephi. lra.
      * intros _. destruct (HPhi l Hl) as [Phi1 _].
      assert (Hpl : forall i, (i < n)%nat -> t i = true -> x i = true -> (p i < l)%nat).
      { intros i Hi Ti Xi. destruct (Hp i Hi Ti) as [E _]. apply pow2_lt_inv. rewrite <- Hl, <- E.
        apply Hbelow; auto. }
      assert (Ephi : relsum n t (fun i => phi n l (if x i then S (p i) else p i))
                     = relsum n t (fun i => phi n l (p i))
                       - sum_lt n (fun i => if t i then (if x i then INR n - w i else 0) else 0)).
      { unfold relsum. rewrite <- sum_lt_sub. apply sum_lt_ext. intros i Hi.
        destruct (t i) eqn:Ti, (x i) eqn:Xi; try ring.
        rewrite phi_step by (apply Hpl; auto). destruct (Hp i Hi Ti) as [E _]. rewrite E. ring. }
      assert (Hcharge : INR n - w j <= sum_lt n (fun i => if t i then (if x i then INR n - w i else 0) else 0)).
      { set (g := fun i => if t i then (if x i then INR n - w i else 0) else 0).
        replace (INR n - w j) with (g j) by (unfold g; rewrite Tj, Xj; reflexivity).
        apply sum_lt_ge_term; [|exact Hj]. intros k Hk. unfold g.
        destruct (t k) eqn:Tk, (x k) eqn:Xk; try lra. pose proof (Hbelow k Hk Tk Xk). lra. }
      rewrite update_Isum, T2, Ephi. lra.
Qed.

Lemma winv_fp (n : nat) (t : nat -> bool) (c : R) (w : nat -> R) (F D : nat) (x : nat -> bool) :
  0 <= c <= 1 ->
  winv n t c w F D -> target_label n t x = false -> INR n <= sum_lt n (fun i => if x i then w i else 0) ->
  winv n t c (winnow_update RN w x c) F (S D).
Proof.
  intros Hc (Hnn & Hpos & HW & HWs & HI & p & Hp & HF & HF0 & HPhi) Hlab Hact.
  pose proof (target_label_false n t x Hlab) as Hoff.
  set (act := sum_lt n (fun i => if x i then w i else 0)) in *.
  assert (Hrel0 : rel_active n t x w = 0).
  { unfold rel_active. transitivity (sum_lt n (fun _ => 0)); [|apply sum_lt_zero].
    apply sum_lt_ext. intros i Hi. destruct (t i) eqn:Ti; [rewrite (Hoff i Hi Ti)|]; reflexivity. }
  pose proof (act_split n t x w) as AS. fold act in AS. rewrite Hrel0, Rplus_0_r in AS.
  assert (Hupd : forall i, winnow_update RN w x c i = if x i then w i * c else w i) by reflexivity.
  assert (Hrel_same : forall i, (i < n)%nat -> t i = true -> winnow_update RN w x c i = w i).
  { intros i Hi Ti. rewrite Hupd, (Hoff i Hi Ti). reflexivity. }
  unfold winv. rewrite S_INR. pose proof (pos_INR n).
  repeat split.
  - intros i Hi. rewrite Hupd. specialize (Hnn i Hi). destruct (x i); nra.
  - intros Hc0 i Hi. rewrite Hupd. specialize (Hpos Hc0 i Hi). destruct (x i); nra.
  - rewrite update_total. fold act. nra.
  - intros HF1. specialize (HWs HF1). rewrite update_total. fold act. nra.
  - intros _. (* the halved active weights keep c * act >= c n *)
    rewrite update_Isum. pose proof (inactive_irr n t x w) as II.
    assert (0 <= sum_lt n (fun i => if t i then 0 else if x i then 0 else w i)).
    { apply sum_lt_nonneg. intros i Hi. destruct (t i), (x i); auto; lra. }
    nra.
  - exists p. split; [|split; [exact HF|split; [exact HF0|]]].
    + intros i Hi Ti. rewrite Hrel_same by auto. apply (Hp i Hi Ti).
    + intros l Hl. destruct (HPhi l Hl) as [Phi1 Phi2]. rewrite update_Isum. split; [nra|].
      intros HF1. specialize (Phi2 HF1). nra.
Qed.

(** The invariant after any run of halving (c = 1/2) or elimination (c = 0) Winnow. *)
Lemma winnow_run_winv n t c ex :
  (1 <= n)%nat -> 0 <= c <= 1 -> consistent n t ex ->
  exists w, winv n t c w (fn_count (winnow_run RN n (two RN) c (nof_nat RN n) (fun _ : nat => n1 RN) ex))
                         (fp_count (winnow_run RN n (two RN) c (nof_nat RN n) (fun _ : nat => n1 RN) ex)).
Proof.
  intros Hn Hc Hcons.
  destruct (winnow_run_inv n (two RN) c (nof_nat RN n) t (winv n t c)) with (ex := ex) (w := fun _ : nat => n1 RN) (F := 0%nat) (D := 0%nat)
    as [w Hw].
  - intros w F D x Hi Hl Ha. rewrite nof_nat_R in Ha. apply winv_fn; auto.
  - intros w F D x Hi Hl Ha. rewrite nof_nat_R in Ha. apply winv_fp; auto.
  - apply winv_init; exact Hn.
  - exact Hcons.
  - exists w. simpl in Hw. exact Hw.
Qed.

(** ** The relevant part alone, for any demotion factor c >= 0 (c > 1 included): nonnegative
    weights, relevant weights 2^(p_i) < 2n, and F <= sum_i p_i. *)
Definition rinv (n : nat) (t : nat -> bool) (w : nat -> R) (F : nat) : Prop :=
  (forall i, (i < n)%nat -> 0 <= w i) /\
  exists p : nat -> nat,
    (forall i, (i < n)%nat -> t i = true -> w i = 2 ^ p i /\ 2 ^ p i < 2 * INR n) /\
    INR F <= relsum n t (fun i => INR (p i)).

Lemma rinv_init n t : (1 <= n)%nat -> rinv n t (fun _ => 1) 0.
Proof.
  intros Hn. assert (Hn' : 1 <= INR n) by (apply (le_INR 1); exact Hn).
  split; [intros; lra|]. exists (fun _ => 0%nat). split.
  - intros i Hi Ti. simpl. split; lra.
  - rewrite relsum_const. simpl. lra.
Qed.

Lemma rinv_fn (n : nat) (t : nat -> bool) (w : nat -> R) (F : nat) (x : nat -> bool) :
  rinv n t w F -> target_label n t x = true -> sum_lt n (fun i => if x i then w i else 0) < INR n ->
  rinv n t (winnow_update RN w x (two RN)) (S F).
Proof.
  intros (Hnn & p & Hp & HF) Hlab Hact.
  apply target_label_true in Hlab as (j & Hj & Tj & Xj).
  assert (Hbelow : forall i, (i < n)%nat -> t i = true -> x i = true -> w i < INR n).
  { intros i Hi Ti Xi.
    assert (w i <= sum_lt n (fun k => if x k then w k else 0)).
    { set (g := fun k => if x k then w k else 0).
      replace (w i) with (g i) by (unfold g; rewrite Xi; reflexivity).
      apply sum_lt_ge_term; [|exact Hi]. intros k Hk. unfold g. destruct (x k); auto; lra. }
    lra. }
  assert (Hupd : forall i, winnow_update RN w x (two RN) i = if x i then 2 * w i else w i).
  { intro i. rewrite wupd. simpl. destruct (x i); [ring|reflexivity]. }
  split; [intros i Hi; rewrite Hupd; specialize (Hnn i Hi); destruct (x i); lra|].
  exists (fun i => if x i then S (p i) else p i). split.
  - intros i Hi Ti. rewrite Hupd. destruct (Hp i Hi Ti) as [E B]. destruct (x i) eqn:Xi.
    + pose proof (Hbelow i Hi Ti Xi) as Bi. rewrite E in Bi. simpl. rewrite E. split; lra.
    + split; [exact E|exact B].
  - assert (E : relsum n t (fun i => INR (if x i then S (p i) else p i))
                = relsum n t (fun i => INR (p i)) + relsum n t (fun i => if x i then 1 else 0)).
    { unfold relsum. rewrite <- sum_lt_add. apply sum_lt_ext. intros i _.
      destruct (t i), (x i); rewrite ?S_INR; ring. }
    rewrite E, S_INR.
    assert (1 <= relsum n t (fun i => if x i then 1 else 0)).
    { unfold relsum. set (g := fun i => if t i then (if x i then 1 else 0) else 0).
      replace 1 with (g j) at 1 by (unfold g; rewrite Tj, Xj; reflexivity).
      apply sum_lt_ge_term; [|exact Hj]. intros k Hk. unfold g. destruct (t k), (x k); lra. }
    lra.
Qed.

Lemma rinv_fp (n : nat) (t : nat -> bool) (c : R) (w : nat -> R) (F : nat) (x : nat -> bool) :
  0 <= c -> rinv n t w F -> target_label n t x = false -> rinv n t (winnow_update RN w x c) F.
Proof.
  intros Hc (Hnn & p & Hp & HF) Hlab.
  pose proof (target_label_false n t x Hlab) as Hoff.
  split; [intros i Hi; rewrite wupd; specialize (Hnn i Hi); destruct (x i); nra|].
  exists p. split; [|exact HF].
  intros i Hi Ti. rewrite wupd, (Hoff i Hi Ti). apply (Hp i Hi Ti).
Qed.

Lemma rinv_ext n t w w' F : (forall i, (i < n)%nat -> w i = w' i) -> rinv n t w F -> rinv n t w' F.
Proof.
  intros E (Hnn & p & Hp & HF). split; [intros i Hi; rewrite <- E by exact Hi; auto|].
  exists p. split; [|exact HF]. intros i Hi Ti. rewrite <- E by exact Hi. apply Hp; auto.
Qed.
