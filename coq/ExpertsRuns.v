(** * From the Weighted Majority learner (LearnersExperts.v, the function the differential test
    compares with the suite's Python learner) to the sequences the catalogue's expert theorems speak
    of: every run of [wm_mistakes] from positive weights yields the total weight W(t) before step
    t, the fraction F(t) of it on wrong experts, the weight v(t) of one expert j and its mistakes
    e(t), and the learner's mistakes z(t), satisfying the update equations of Littlestone &
    Warmuth's analysis (1994, Theorem 2.1); sum z is the learner's count, sum e expert j's, and
    sum F the randomized form's expected mistakes ([rwm_expected], section 5).  Halving (the
    penalty 0) is read at its mistakes below. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.Num Mistakebound.LearnersExperts.
Import ListNotations.
Open Scope R_scope.

Definition rsum (w : list Q) : R := fold_right (fun q acc => Q2R q + acc) 0 w.
Definition lsum (l : list (Q * Z)) : R := fold_right (fun p acc => Q2R (fst p) + acc) 0 l.
(** the weight of the experts whose advice differs from y *)
Definition lwrong (l : list (Q * Z)) (y : Z) : R :=
  fold_right (fun p acc => (if Z.eqb (snd p) y then 0 else Q2R (fst p)) + acc) 0 l.
Definition lact (l : list (Q * Z)) : R :=
  fold_right (fun p acc => (if Z.eqb (snd p) 1 then Q2R (fst p) else - Q2R (fst p)) + acc) 0 l.
Definition pm1 (l : list (Q * Z)) : Prop := forall p, In p l -> snd p = 1%Z \/ snd p = (-1)%Z.
Definition nonneg (w : list Q) : Prop := forall q, In q w -> 0 <= Q2R q.

Lemma act_R (w : list Q) (row : list Z) : Q2R (wm_activation w row) = lact (combine w row).
Proof.
  unfold wm_activation. rewrite <- (Rplus_0_l (lact _)), <- Q2R_0 at 1. generalize 0%Q.
  induction (combine w row) as [|[q a] l IH]; intros acc; simpl; [ring|].
  rewrite IH. destruct (Z.eqb a 1); [rewrite Q2R_plus|rewrite Q2R_minus]; ring.
Qed.

Lemma pm1_cons p l : pm1 (p :: l) -> (snd p = 1%Z \/ snd p = (-1)%Z) /\ pm1 l.
Proof. intros H. split; [apply H; left; reflexivity|intros q Hq; apply H; right; exact Hq]. Qed.

Lemma act_split l : pm1 l -> lact l = lsum l - 2 * lwrong l 1.
Proof.
  induction l as [|[q a] l IH]; intros H; simpl; [ring|].
  destruct (pm1_cons _ _ H) as [[E|E] P]; simpl in E; subst a; simpl; rewrite IH by exact P; ring.
Qed.

Lemma wrong_neg l : pm1 l -> lwrong l (-1) = lsum l - lwrong l 1.
Proof.
  induction l as [|[q a] l IH]; intros H; simpl; [ring|].
  destruct (pm1_cons _ _ H) as [[E|E] P]; simpl in E; subst a; simpl; rewrite IH by exact P; ring.
Qed.

Lemma wrong_bounds l y : (forall p, In p l -> 0 <= Q2R (fst p)) -> 0 <= lwrong l y <= lsum l.
Proof.
  induction l as [|[q a] l IH]; intros H; simpl; [lra|].
  assert (Q : 0 <= Q2R q) by exact (H (q, a) (or_introl eq_refl)).
  destruct (IH (fun p Hp => H p (or_intror Hp))). destruct (Z.eqb a y); lra.
Qed.

Lemma lsum_combine (w : list Q) : forall row : list Z, length w = length row -> lsum (combine w row) = rsum w.
Proof.
  induction w as [|q w IH]; intros [|a row] H; simpl in *; try discriminate; [reflexivity|].
  rewrite IH by lia. reflexivity.
Qed.

Lemma nonneg_combine (w : list Q) (row : list Z) : nonneg w -> forall p, In p (combine w row) -> 0 <= Q2R (fst p).
Proof. intros H [q a] Hp. apply H, (in_combine_l _ _ _ _ Hp). Qed.

Lemma pm1_combine (w : list Q) (row : list Z) :
  (forall a, In a row -> a = 1%Z \/ a = (-1)%Z) -> pm1 (combine w row).
Proof. intros H [q a] Hp. apply H, (in_combine_r _ _ _ _ Hp). Qed.

Lemma update_sum (beta : Q) (y : Z) (w : list Q) : forall row : list Z, length w = length row ->
  rsum (wm_update beta w row y) = rsum w - (1 - Q2R beta) * lwrong (combine w row) y.
Proof.
  unfold wm_update. induction w as [|q w IH]; intros [|a row] H; simpl in *; try discriminate; [ring|].
  rewrite IH by lia. destruct (Z.eqb a y); [|rewrite Q2R_mult]; ring.
Qed.

Lemma update_length (beta : Q) (y : Z) (w : list Q) (row : list Z) :
  length w = length row -> length (wm_update beta w row y) = length w.
Proof. intros H. unfold wm_update. rewrite map_length, combine_length, H. apply Nat.min_id. Qed.

Lemma update_nonneg (beta : Q) (y : Z) (w : list Q) (row : list Z) :
  0 <= Q2R beta -> nonneg w -> nonneg (wm_update beta w row y).
Proof.
  intros B H q Hq. unfold wm_update in Hq. apply in_map_iff in Hq as ([a b] & <- & Hin).
  pose proof (H a (in_combine_l _ _ _ _ Hin)). simpl. destruct (Z.eqb b y); [assumption|].
  rewrite Q2R_mult. apply Rmult_le_pos; assumption.
Qed.

Lemma update_nth (beta : Q) (y : Z) (w : list Q) : forall (row : list Z) (j : nat),
  length w = length row -> (j < length w)%nat ->
  nth j (wm_update beta w row y) 0%Q = if Z.eqb (nth j row 0%Z) y then nth j w 0%Q else (nth j w 0%Q * beta)%Q.
Proof.
  unfold wm_update. induction w as [|q w IH]; intros [|a row] j H Hj; simpl in *; try lia.
  destruct j as [|j]; [reflexivity|]. apply IH; lia.
Qed.

Lemma nth_le_rsum (w : list Q) : forall j, nonneg w -> Q2R (nth j w 0%Q) <= rsum w.
Proof.
  induction w as [|q w IH]; intros j H; simpl.
  - destruct j; rewrite Q2R_0; lra.
  - assert (N : nonneg w) by (intros a Ha; apply H; right; exact Ha).
    pose proof (H q (or_introl eq_refl)). assert (0 <= rsum w).
    { pose proof (IH (length w) N) as X. rewrite nth_overflow in X by lia. rewrite Q2R_0 in X. exact X. }
    destruct j as [|j]; [lra|]. pose proof (IH j N). lra.
Qed.

(** A mistake: the experts that agreed with the learner carry at least half the weight. *)
Lemma mistake_majority (w : list Q) (row : list Z) (y : Z) :
  length w = length row -> (forall a, In a row -> a = 1%Z \/ a = (-1)%Z) -> (y = 1%Z \/ y = (-1)%Z) ->
  wm_predict w row <> y -> rsum w <= 2 * lwrong (combine w row) y.
Proof.
  intros L Hrow Hy Hp. pose proof (pm1_combine w row Hrow) as P.
  rewrite <- (lsum_combine w row L). unfold wm_predict in Hp.
  pose proof (act_split _ P) as A. pose proof (wrong_neg _ P) as Wn. rewrite <- act_R in A.
  destruct (Qle_bool 0 (wm_activation w row)) eqn:E.
  - apply Qle_bool_iff, Qle_Rle in E. rewrite Q2R_0 in E.
    destruct Hy as [->| ->]; [congruence|]. lra.
  - assert (N : ~ (0 <= wm_activation w row)%Q) by (intros X; apply Qle_bool_iff in X; congruence).
    apply Qnot_le_lt, Qlt_Rlt in N. rewrite Q2R_0 in N.
    destruct Hy as [->| ->]; [lra|congruence].
Qed.

Lemma rsum_total (w : list Q) : Q2R (wm_total w) = rsum w.
Proof. induction w as [|q w IH]; simpl; [apply Q2R_0|]. rewrite Q2R_plus, IH. reflexivity. Qed.

Lemma wrong_R (w : list Q) (row : list Z) (y : Z) : Q2R (wm_wrong w row y) = lwrong (combine w row) y.
Proof.
  unfold wm_wrong. induction (combine w row) as [|[q a] l IH]; simpl; [apply Q2R_0|].
  rewrite Q2R_plus, IH. destruct (Z.eqb a y); [rewrite Q2R_0|]; reflexivity.
Qed.

Lemma sum_lt_shift' (T : nat) (f g : nat -> R) : (forall k, g k = f (S k)) ->
  sum_lt (S T) f = f 0%nat + sum_lt T g.
Proof.
  intros H. induction T as [|T IH]; simpl in *; [ring|]. rewrite IH, H. ring.
Qed.

Lemma zsum_lt_shift (T : nat) (f : nat -> Z) : zsum_lt (S T) f = (f 0%nat + zsum_lt T (fun k => f (S k)))%Z.
Proof. induction T as [|T IH]; simpl in *; [lia|]. rewrite IH. lia. Qed.

Lemma zsum_lt_shift' (T : nat) (f g : nat -> Z) : (forall k, g k = f (S k)) ->
  zsum_lt (S T) f = (f 0%nat + zsum_lt T g)%Z.
Proof.
  intros H. rewrite zsum_lt_shift. f_equal. induction T as [|T IH]; simpl; [reflexivity|]. rewrite IH, H. reflexivity.
Qed.

Lemma frac_01 (a b : R) : 0 <= a <= b -> 0 < b -> 0 <= a / b <= 1.
Proof.
  intros [A B] P. unfold Rdiv. pose proof (Rinv_0_lt_compat b P). split; [nra|].
  apply Rle_trans with (b * / b); [apply Rmult_le_compat_r; lra|rewrite Rinv_r; lra].
Qed.

Definition rows_ok (n : nat) (ex : list (list Z * Z)) : Prop :=
  forall row y, In (row, y) ex -> length row = n /\ (forall a, In a row -> a = 1%Z \/ a = (-1)%Z) /\ (y = 1%Z \/ y = (-1)%Z).

Lemma wm_run (beta : Q) (n j : nat) (ex : list (list Z * Z)) :
  0 < Q2R beta -> (j < n)%nat -> rows_ok n ex ->
  forall w0 : list Q, length w0 = n -> nonneg w0 -> 0 < Q2R (nth j w0 0%Q) ->
  exists (W F v : nat -> R) (e z : nat -> Z),
    W 0%nat = rsum w0 /\ v 0%nat = Q2R (nth j w0 0%Q) /\
    (forall t, (t < length ex)%nat ->
       W (S t) = (1 - (1 - Q2R beta) * F t) * W t /\ (F t >= 0 /\ F t <= 1) /\
       ((e t = 0%Z \/ e t = 1%Z) /\ v (S t) = (1 - (1 - Q2R beta) * IZR (e t)) * v t) /\
       (z t = 1%Z -> 2 * F t >= 1) /\ (z t = 0%Z \/ z t = 1%Z)) /\
    v (length ex) <= W (length ex) /\
    zsum_lt (length ex) z = Z.of_nat (wm_mistakes beta w0 ex) /\
    zsum_lt (length ex) e = Z.of_nat (expert_mistakes j ex) /\
    sum_lt (length ex) F = Q2R (rwm_expected beta w0 ex).
Proof.
  intros Bp Hj Hex. induction ex as [|[row y] rest IH]; intros w0 Hl Hn Hv.
  - exists (fun _ => rsum w0), (fun _ => 0), (fun _ => Q2R (nth j w0 0%Q)), (fun _ => 0%Z), (fun _ => 0%Z).
    split; [reflexivity|split; [reflexivity|split; [intros t Ht; simpl in Ht; lia|]]].
    split; [apply nth_le_rsum, Hn|split; [reflexivity|split; [reflexivity|simpl; rewrite Q2R_0; reflexivity]]].
  - destruct (Hex row y (or_introl eq_refl)) as (Lr & Hrow & Hy).
    assert (Hex' : rows_ok n rest) by (intros r' y' H; apply Hex; right; exact H).
    set (w1 := wm_update beta w0 row y).
    assert (L01 : length w0 = length row) by lia.
    assert (L1 : length w1 = n) by (unfold w1; rewrite update_length; lia).
    assert (N1 : nonneg w1) by (apply update_nonneg; [lra|exact Hn]).
    assert (J1 : Q2R (nth j w1 0%Q) = (1 - (1 - Q2R beta) * (if Z.eqb (nth j row 0%Z) y then 0 else 1))
                                        * Q2R (nth j w0 0%Q)).
    { unfold w1. rewrite update_nth by lia. destruct (Z.eqb (nth j row 0%Z) y); [|rewrite Q2R_mult]; ring. }
    assert (V1 : 0 < Q2R (nth j w1 0%Q)).
    { rewrite J1. destruct (Z.eqb (nth j row 0%Z) y); nra. }
    destruct (IH Hex' w1 L1 N1 V1) as (W & F & v & e & z & HW0 & Hv0 & Hs & HvW & Hz & He & HF).
    set (W0 := rsum w0). set (wr := lwrong (combine w0 row) y).
    assert (P0 : 0 < W0) by (pose proof (nth_le_rsum w0 j Hn); unfold W0; lra).
    destruct (wrong_bounds (combine w0 row) y (nonneg_combine w0 row Hn)) as [Wr0 Wr1].
    rewrite (lsum_combine w0 row L01) in Wr1. fold wr in Wr0, Wr1.
    exists (fun t => match t with O => W0 | S t' => W t' end), (fun t => match t with O => wr / W0 | S t' => F t' end),
           (fun t => match t with O => Q2R (nth j w0 0%Q) | S t' => v t' end),
           (fun t => match t with O => if Z.eqb (nth j row 0%Z) y then 0%Z else 1%Z | S t' => e t' end),
           (fun t => match t with O => if Z.eqb (wm_predict w0 row) y then 0%Z else 1%Z | S t' => z t' end).
    cbn [length wm_mistakes expert_mistakes]. fold w1.
    split; [reflexivity|split; [reflexivity|split; [|split; [exact HvW|split]]]].
    + intros [|t] Ht.
      * split; [|split; [|split; [|split]]].
        -- rewrite HW0. unfold w1. rewrite update_sum by exact L01. fold W0 wr. field. lra.
        -- pose proof (frac_01 wr W0 (conj Wr0 Wr1) P0). lra.
        -- split; [destruct (Z.eqb (nth j row 0%Z) y); auto|].
           rewrite Hv0, J1. destruct (Z.eqb (nth j row 0%Z) y); simpl; ring.
        -- destruct (Z.eqb_spec (wm_predict w0 row) y) as [_|Np]; [discriminate|intros _].
           pose proof (mistake_majority w0 row y L01 Hrow Hy Np) as X. fold W0 wr in X.
           apply Rle_ge. replace (2 * (wr / W0)) with ((2 * wr) / W0) by (field; lra).
           apply Rmult_le_reg_r with W0; [exact P0|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
        -- destruct (Z.eqb (wm_predict w0 row) y); auto.
      * exact (Hs t ltac:(simpl in Ht; lia)).
    + rewrite (zsum_lt_shift' _ _ z), Hz by reflexivity. unfold w1.
      destruct (Z.eqb (wm_predict w0 row) y); rewrite Nat2Z.inj_add; simpl; lia.
    + split; [rewrite (zsum_lt_shift' _ _ e), He by reflexivity;
              destruct (Z.eqb (nth j row 0%Z) y); rewrite Nat2Z.inj_add; simpl; lia|].
      rewrite (sum_lt_shift' _ _ F), HF by reflexivity. cbn [rwm_expected]. fold w1.
      rewrite Q2R_plus. unfold Qdiv. rewrite Q2R_mult, Q2R_inv', rsum_total, wrong_R. reflexivity.
Qed.

(** From weight 1 on each of the n experts. *)
Lemma rsum_start (n : nat) : rsum (wm_start n) = INR n.
Proof.
  unfold wm_start. induction n as [|n IH]; [reflexivity|]. cbn [repeat rsum fold_right].
  fold (rsum (repeat 1%Q n)). rewrite IH, Q2R_1, S_INR. ring.
Qed.

Lemma nth_start (n j : nat) : (j < n)%nat -> nth j (wm_start n) 0%Q = 1%Q.
Proof. unfold wm_start. revert j. induction n as [|n IH]; intros [|j] H; simpl; try lia; [reflexivity|apply IH; lia]. Qed.

Lemma wm_run_start (beta : Q) (n j : nat) (ex : list (list Z * Z)) :
  0 < Q2R beta -> (j < n)%nat -> rows_ok n ex ->
  exists (W F v : nat -> R) (e z : nat -> Z),
    W 0%nat = INR n /\ v 0%nat = 1 /\
    (forall t, (0 <= t)%nat /\ (t < length ex)%nat ->
       W (t + 1)%nat = (1 - (1 - Q2R beta) * F t) * W t /\ (F t >= 0 /\ F t <= 1) /\
       ((e t = 0%Z \/ e t = 1%Z) /\ v (t + 1)%nat = (1 - (1 - Q2R beta) * IZR (e t)) * v t) /\
       (z t = 1%Z -> 2 * F t >= 1) /\ (z t = 0%Z \/ z t = 1%Z)) /\
    v (length ex) <= W (length ex) /\
    zsum_lt (length ex) z = Z.of_nat (wm_mistakes beta (wm_start n) ex) /\
    zsum_lt (length ex) e = Z.of_nat (expert_mistakes j ex) /\
    sum_lt (length ex) F = Q2R (rwm_expected beta (wm_start n) ex).
Proof.
  intros Bp Hj Hex.
  assert (Nn : nonneg (wm_start n)) by (intros q Hq; apply repeat_spec in Hq; subst q; rewrite Q2R_1; lra).
  assert (V : Q2R (nth j (wm_start n) 0%Q) = 1) by (rewrite nth_start, Q2R_1 by exact Hj; reflexivity).
  destruct (wm_run beta n j ex Bp Hj Hex (wm_start n) (repeat_length _ _) Nn ltac:(rewrite V; lra))
    as (W & F & v & e & z & H0 & Hv0 & Hs & R).
  exists W, F, v, e, z. rewrite H0, Hv0, rsum_start, V. split; [reflexivity|split; [reflexivity|split; [|exact R]]].
  intros t [_ Ht]. rewrite Nat.add_1_r. exact (Hs t Ht).
Qed.

(** ** Halving: the penalty beta = 0.  Every weight is 0 or 1, the total weight is the size of the
    version space, and the run read at its mistakes gives the sequences of the catalogue's Halving
    theorem: V(k) the size before the k-th mistake (at least the size at that mistake), c(k) the
    hypotheses voting for the right label there, at most half of them. *)
Definition zcount (w : list Q) : Z := fold_right (fun q acc => ((if Qeq_bool q 1 then 1 else 0) + acc)%Z) 0%Z w.
Definition bits01 (w : list Q) : Prop := forall q, In q w -> Q2R q = 0 \/ Q2R q = 1.

Lemma zcount_rsum (w : list Q) : bits01 w -> IZR (zcount w) = rsum w.
Proof.
  induction w as [|q w IH]; intros H; [reflexivity|]. simpl. rewrite plus_IZR, IH by (intros a Ha; apply H; right; exact Ha).
  destruct (H q (or_introl eq_refl)) as [E|E]; destruct (Qeq_bool q 1) eqn:B.
  - apply Qeq_bool_iff, Qeq_eqR in B. rewrite Q2R_1 in B. lra.
  - rewrite E. simpl. ring.
  - rewrite E. simpl. ring.
  - exfalso. rewrite <- Q2R_1 in E. apply eqR_Qeq, Qeq_bool_iff in E. congruence.
Qed.

Lemma bits01_nonneg (w : list Q) : bits01 w -> nonneg w.
Proof. intros H q Hq. destruct (H q Hq) as [E|E]; lra. Qed.

Lemma update_bits01 (y : Z) (w : list Q) (row : list Z) : bits01 w -> bits01 (wm_update 0 w row y).
Proof.
  intros H q Hq. unfold wm_update in Hq. apply in_map_iff in Hq as ([a b] & <- & Hin). simpl.
  destruct (Z.eqb b y); [exact (H a (in_combine_l _ _ _ _ Hin))|]. left. rewrite Q2R_mult, Q2R_0. ring.
Qed.

Definition realizable (j : nat) (ex : list (list Z * Z)) : Prop := forall row y, In (row, y) ex -> nth j row 0%Z = y.

Lemma halving_run (n j : nat) (ex : list (list Z * Z)) :
  (j < n)%nat -> rows_ok n ex -> realizable j ex ->
  forall w0 : list Q, length w0 = n -> bits01 w0 -> Q2R (nth j w0 0%Q) = 1 ->
  exists V c : nat -> Z,
    IZR (V 0%nat) = rsum w0 /\
    (forall k, (k < wm_mistakes 0 w0 ex)%nat -> (0 <= c k /\ 2 * c k <= V k /\ V (S k) <= c k)%Z) /\
    (V (wm_mistakes 0 w0 ex) >= 1)%Z.
Proof.
  intros Hj Hex Hre. induction ex as [|[row y] rest IH]; intros w0 Hl Hb Hv.
  - exists (fun _ => zcount w0), (fun _ => 0%Z). simpl. rewrite zcount_rsum by exact Hb.
    split; [reflexivity|split; [intros k Hk; lia|]].
    apply Z.le_ge, le_IZR. rewrite zcount_rsum by exact Hb. pose proof (nth_le_rsum w0 j (bits01_nonneg _ Hb)). lra.
  - destruct (Hex row y (or_introl eq_refl)) as (Lr & Hrow & Hy).
    assert (Hex' : rows_ok n rest) by (intros r' y' H; apply Hex; right; exact H).
    assert (Hre' : realizable j rest) by (intros r' y' H; apply Hre; right; exact H).
    assert (Ej : nth j row 0%Z = y) by (apply Hre; left; reflexivity).
    set (w1 := wm_update 0 w0 row y).
    assert (L01 : length w0 = length row) by lia.
    assert (L1 : length w1 = n) by (unfold w1; rewrite update_length; lia).
    assert (B1 : bits01 w1) by (apply update_bits01, Hb).
    assert (V1 : Q2R (nth j w1 0%Q) = 1) by (unfold w1; rewrite update_nth, Ej, Z.eqb_refl by lia; exact Hv).
    destruct (IH Hex' Hre' w1 L1 B1 V1) as (V & c & HV0 & Hs & HM).
    set (wr := lwrong (combine w0 row) y).
    assert (S1 : rsum w1 = rsum w0 - wr) by (unfold w1, wr; rewrite update_sum, Q2R_0 by exact L01; ring).
    destruct (wrong_bounds (combine w0 row) y (nonneg_combine w0 row (bits01_nonneg _ Hb))) as [Wr0 _]. fold wr in Wr0.
    assert (P1 : 0 <= rsum w1) by (pose proof (nth_le_rsum w1 j (bits01_nonneg _ B1)); lra).
    assert (Z0 : IZR (zcount w0) = rsum w0) by (apply zcount_rsum, Hb).
    cbn [wm_mistakes]. fold w1.
    destruct (Z.eqb_spec (wm_predict w0 row) y) as [Ok|Np].
    + (* no mistake: the version space only shrinks before the next mistake *)
      simpl. exists (fun k => match k with O => zcount w0 | S k' => V (S k') end), c.
      split; [exact Z0|split].
      * intros [|k] Hk.
        -- destruct (Hs 0%nat Hk) as (A & B & C). split; [exact A|split; [|exact C]].
           apply IZR_le in B. rewrite mult_IZR, HV0, S1 in B.
           cut (IZR (2 * c 0%nat) <= IZR (zcount w0)); [apply le_IZR|]. rewrite mult_IZR, Z0. lra.
        -- exact (Hs (S k) Hk).
      * destruct (wm_mistakes 0 w1 rest) as [|k] eqn:E; [|exact HM].
        apply Z.ge_le, IZR_le in HM. rewrite HV0, S1 in HM. apply Z.le_ge, le_IZR. rewrite Z0. lra.
    + (* a mistake: the experts that voted for the right label, at most half, survive *)
      simpl. exists (fun k => match k with O => zcount w0 | S k' => V k' end),
                    (fun k => match k with O => V 0%nat | S k' => c k' end).
      split; [exact Z0|split; [|exact HM]].
      intros [|k] Hk.
      * pose proof (mistake_majority w0 row y L01 Hrow Hy Np) as X. fold wr in X.
        split; [apply le_IZR; lra|split; [|lia]].
        cut (IZR (2 * V 0%nat) <= IZR (zcount w0)); [apply le_IZR|]. rewrite mult_IZR, Z0, HV0, S1. lra.
      * exact (Hs k ltac:(lia)).
Qed.

Lemma halving_run_start (n j : nat) (ex : list (list Z * Z)) :
  (j < n)%nat -> rows_ok n ex -> realizable j ex ->
  exists V a c : nat -> Z,
    V 0%nat = Z.of_nat n /\
    (forall k, (0 <= k)%nat /\ (k < wm_mistakes 0 (wm_start n) ex)%nat ->
       (V k = a k + c k /\ a k >= 0 /\ c k >= 0)%Z) /\
    (forall k, (0 <= k)%nat /\ (k < wm_mistakes 0 (wm_start n) ex)%nat -> (c k <= a k)%Z) /\
    (forall k, (0 <= k)%nat /\ (k < wm_mistakes 0 (wm_start n) ex)%nat -> (V (k + 1)%nat <= c k)%Z) /\
    (V (wm_mistakes 0 (wm_start n) ex) >= 1)%Z.
Proof.
  intros Hj Hex Hre.
  assert (B : bits01 (wm_start n)) by (intros q Hq; apply repeat_spec in Hq; subst q; right; apply Q2R_1).
  destruct (halving_run n j ex Hj Hex Hre (wm_start n) (repeat_length _ _) B
              ltac:(rewrite nth_start, Q2R_1 by exact Hj; reflexivity)) as (V & c & H0 & Hs & HM).
  exists V, (fun k => V k - c k)%Z, c. rewrite rsum_start, INR_IZR_INZ in H0. apply eq_IZR in H0.
  split; [exact H0|split; [|split; [|split; [|exact HM]]]]; intros k [_ Hk]; destruct (Hs k Hk) as (A1 & A2 & A3); rewrite ?Nat.add_1_r; lia.
Qed.
