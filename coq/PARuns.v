(** * From the Passive-Aggressive learner (LearnersPA.v) to the catalogue's run: every run of
    [pa_run] over the reals gives the weights w(t) before step t, the step's example x(t), y(t) and
    its record (loss, step size, mistake), with the update equations of the catalogue's statements
    (Crammer et al. 2006: w(t+1) = w(t) + tau(t) y(t) x(t), l(t) = max(0, 1 - y(t) w(t).x(t))), so
    every theorem stated over a run of T steps holds for the learner, T the number of examples.
    A sum over the run ([pa_sum], [pa_zsum]: each step record with its example) is the sum over
    the T steps. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.LearnersPA.
Open Scope R_scope.

Fixpoint pa_sum (f : pastep RN -> Vec -> R -> R) (run : list (pastep RN)) (ex : list (Vec * R)) : R :=
  match run, ex with
  | s :: r, (x, y) :: e => f s x y + pa_sum f r e
  | _, _ => 0
  end.

Fixpoint pa_zsum (f : pastep RN -> Vec -> R -> Z) (run : list (pastep RN)) (ex : list (Vec * R)) : Z :=
  match run, ex with
  | s :: r, (x, y) :: e => (f s x y + pa_zsum f r e)%Z
  | _, _ => 0%Z
  end.

Lemma pa_zsum_lt_shift (T : nat) (f : nat -> Z) : zsum_lt (S T) f = (f 0%nat + zsum_lt T (fun k => f (S k)))%Z.
Proof. induction T as [|T IH]; simpl in *; [lia|]. rewrite IH. lia. Qed.

Lemma pa_hinge_R (m : R) : pa_hinge RN m = Rmax 0 (1 - m).
Proof.
  unfold pa_hinge. cbn [nsub n1 n0 nle RN]. destruct (Rle_b (1 - m) 0) eqn:E.
  - apply Rle_b_spec in E. rewrite Rmax_left by lra. reflexivity.
  - apply Rle_b_false in E. rewrite Rmax_right by lra. reflexivity.
Qed.

Definition pa_default (w : Vec) : pastep RN := @PAStep RN 0 false 0 0 w.

Lemma pa_run_sequence (v : pa_variant) (C : R) (d : nat) (ex : list (Vec * R)) :
  forall w0 : Vec,
  exists (W X : nat -> Vec) (Y : nat -> R) (ST : nat -> pastep RN),
    W 0%nat = w0 /\
    (forall t, (t < length ex)%nat ->
       W (S t) = vadd (W t) (smul (pa_tau (ST t) * Y t) (X t)) /\
       pa_loss (ST t) = Rmax 0 (1 - Y t * dot d (W t) (X t)) /\
       pa_tau (ST t) = pa_step_size RN v C (pa_loss (ST t)) (dot d (X t) (X t)) /\
       pa_mistake (ST t) = Rle_b (Y t * dot d (W t) (X t)) 0 /\
       In (X t, Y t) ex) /\
    (forall f, pa_sum f (pa_run RN v C d w0 ex) ex = sum_lt (length ex) (fun t => f (ST t) (X t) (Y t))) /\
    (forall f, pa_zsum f (pa_run RN v C d w0 ex) ex = zsum_lt (length ex) (fun t => f (ST t) (X t) (Y t))).
Proof.
  induction ex as [|[x y] rest IH]; intros w0.
  - exists (fun _ => w0), (fun _ => w0), (fun _ => 0), (fun _ => pa_default w0).
    split; [reflexivity|split; [intros t Ht; simpl in Ht; lia|split; intros f; reflexivity]].
  - set (a := ndot RN d w0 x).
    set (l := pa_hinge RN (nmul RN y a)).
    set (tau := pa_step_size RN v C l (ndot RN d x x)).
    set (w1 := fun i => nadd RN (w0 i) (nmul RN (nmul RN tau y) (x i))).
    destruct (IH w1) as (W & X & Y & ST & H0 & Hs & Hsum & Hz).
    exists (fun k => match k with O => w0 | S k' => W k' end), (fun k => match k with O => x | S k' => X k' end),
           (fun k => match k with O => y | S k' => Y k' end),
           (fun k => match k with O => PAStep a (nle RN (nmul RN y a) (n0 RN)) l tau w1 | S k' => ST k' end).
    split; [reflexivity|split; [|split]].
    + intros [|t] Ht.
      * cbn [pa_tau pa_loss pa_mistake]. rewrite H0.
        assert (Ea : a = dot d w0 x) by (unfold a; apply ndot_R).
        split; [reflexivity|]. repeat split.
        -- unfold l. rewrite pa_hinge_R, Ea. reflexivity.
        -- unfold tau. rewrite ndot_R. reflexivity.
        -- rewrite Ea. reflexivity.
        -- left; reflexivity.
      * simpl in Ht. destruct (Hs t ltac:(lia)) as (A1 & A2 & A3 & A4 & A5).
        repeat split; auto. right; exact A5.
    + intros f. simpl pa_run. cbn [pa_sum]. fold w1. rewrite Hsum. simpl length. rewrite sum_lt_shift. reflexivity.
    + intros f. simpl pa_run. cbn [pa_zsum]. fold w1. rewrite Hz. simpl length. rewrite pa_zsum_lt_shift. reflexivity.
Qed.

(** ** The step sizes, read as the catalogue's step equations (l >= 0, the hinge loss). *)
Lemma pa_step_PA (C l xx : R) : 0 <= l -> xx > 0 ->
  pa_step_size RN PA C l xx * xx = l /\ pa_step_size RN PA C l xx >= 0.
Proof.
  intros L X. unfold pa_step_size. cbn [nle n0 nmul ninv RN]. destruct (Rle_b l 0) eqn:E.
  - apply Rle_b_spec in E. split; lra.
  - apply Rle_b_false in E. split; [field; lra|].
    apply Rle_ge, Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra].
Qed.

Lemma pa_step_PA1 (C l xx : R) : 0 <= l -> xx > 0 -> C > 0 -> pa_step_size RN PA1 C l xx = Rmin C (l / xx).
Proof.
  intros L X Cp. unfold pa_step_size. cbn [nle n0 nmul ninv RN]. destruct (Rle_b l 0) eqn:E.
  - apply Rle_b_spec in E. replace l with 0 by lra. unfold Rdiv. rewrite Rmult_0_l, Rmin_right by lra. reflexivity.
  - destruct (Rle_b xx 0) eqn:F; [apply Rle_b_spec in F; lra|].
    unfold Rmin. destruct (Rle_dec C (l / xx)) as [P|P]; destruct (Rle_b C (l * / xx)) eqn:G;
      try reflexivity; [apply Rle_b_false in G | apply Rle_b_spec in G]; unfold Rdiv in P; lra.
Qed.

Lemma pa_step_PA2 (C l xx : R) : 0 <= l -> C > 0 -> pa_step_size RN PA2 C l xx = l / (xx + 1 / (2 * C)).
Proof.
  intros L Cp. unfold pa_step_size. cbn [nle n0 nmul ninv nadd RN]. destruct (Rle_b l 0) eqn:E.
  - apply Rle_b_spec in E. replace l with 0 by lra. unfold Rdiv. rewrite Rmult_0_l. reflexivity.
  - unfold Rdiv. rewrite Rmult_1_l. replace (C + C) with (2 * C) by ring. reflexivity.
Qed.

(** ** The rational run (the one compared with the Python learner) read as the real run. *)
Lemma pa_run_Q2R (v : pa_variant) (C : Q) (d : nat) (ex : list ((nat -> Q) * Q)) :
  map (map_pastep Q2R_red_hom) (pa_run QRN v C d (fun _ => 0%Q) ex)
  = pa_run RN v (Q2R C) d vzero (map (fun e => (fun i => Q2R (fst e i), Q2R (snd e))) ex).
Proof.
  rewrite <- (pa_run_hom Q2R_red_hom). cbv beta.
  assert (Z : (fun _ : nat => Q2R_red_hom 0%Q) = vzero) by (apply functional_extensionality; intros; apply Q2R_0).
  rewrite Z. reflexivity.
Qed.
