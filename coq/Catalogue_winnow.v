(** * Catalogue: Winnow's bounds and errata, at the statements printed from the catalogue's formulas
    (the run described by its mistakes, the target the disjunction of the first r variables). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners Mistakebound.WinnowCore Mistakebound.WinnowBounds Mistakebound.WinnowAbstract.
Require Import Mistakebound.Statements.
Open Scope R_scope.

(** The halving sequence's invariant and M = F + D. *)
Ltac halving_counts n r M w x y Hn Hr Hl H0 Hm Hu :=
  change (updates n M (1 / 2) w x y) in Hu; rewrite <- half_R in Hu;
  let EM := fresh "EM" in let Er := fresh "Er" in let Hw := fresh "Hw" in
  destruct (winnow_sequence_counts n r M (half RN) w x y Hn Hr ltac:(rewrite half_R; lra) Hl H0 Hm Hu)
    as (EM & Er & Hw); rewrite EM; rewrite <- Er.

Ltac elimination_counts n r M w x y Hn Hr Hl H0 Hm Hu :=
  apply updates_elim in Hu;
  let EM := fresh "EM" in let Er := fresh "Er" in let Hw := fresh "Hw" in
  destruct (winnow_sequence_counts n r M 0 w x y Hn Hr ltac:(lra) Hl H0 Hm Hu) as (EM & Er & Hw);
  rewrite EM; rewrite <- Er.

Theorem winnow_halving_bound_integer : winnow_halving_bound_integer_statement.
Proof.
  intros M n r w x y Hn Hr Hl H0 Hm Hu. halving_counts n r M w x y Hn Hr Hl H0 Hm Hu.
  apply (bound_halving_integer n (tmask r) (w M)); assumption.
Qed.

Theorem winnow_halving_bound : winnow_halving_bound_statement.
Proof.
  intros M n r w x y Hn Hr Hl H0 Hm Hu. halving_counts n r M w x y Hn Hr Hl H0 Hm Hu.
  pose proof (bound_halving_integer n (tmask r) (w M) _ _ Hn Hw). lra.
Qed.

Theorem winnow_elimination_bound : winnow_elimination_bound_statement.
Proof.
  intros M n r w x y Hn Hr Hl H0 Hm Hu. elimination_counts n r M w x y Hn Hr Hl H0 Hm Hu.
  apply (bound_elimination n (tmask r) (w M)); assumption.
Qed.

Theorem winnow_halving_pow2 : winnow_halving_pow2_statement.
Proof.
  intros M l n r w x y Hn Hr Hl H0 Hm Hu Hp Hl1. apply nat_of_pow2 in Hp.
  halving_counts n r M w x y Hn Hr Hl H0 Hm Hu.
  apply (bound_halving_pow2 n l (tmask r) (w M)); assumption.
Qed.

Theorem winnow_halving_pow2_tight : winnow_halving_pow2_tight_statement.
Proof.
  intros M l n r w x y Hn Hr Hl H0 Hm Hu Hp Hl1 Hr1. apply nat_of_pow2 in Hp.
  halving_counts n r M w x y Hn Hr Hl H0 Hm Hu.
  apply (bound_halving_pow2_tight n l (tmask r) (w M)); try assumption. rewrite Er. lia.
Qed.

Theorem winnow_elimination_pow2 : winnow_elimination_pow2_statement.
Proof.
  intros M l n r w x y Hn Hr Hl H0 Hm Hu Hp Hl1 Hr1. apply nat_of_pow2 in Hp.
  elimination_counts n r M w x y Hn Hr Hl H0 Hm Hu.
  apply (bound_elimination_pow2 n l (tmask r) (w M)); try assumption. rewrite Er. lia.
Qed.

(** The errata: each false claim at the counterexample of the catalogue entry. *)
Lemma lg_1 : lg (INR 1) = 0.
Proof. unfold lg. simpl (INR 1). rewrite ln_1. unfold Rdiv. ring. Qed.

Lemma lg_2 : lg (INR 2) = 1.
Proof. unfold lg. replace (INR 2) with 2 by (simpl; ring). field. pose proof ln2_pos. lra. Qed.

(* n = 1, r = 1: no run at all (M = 0); the bound 1 + r(3 lg 1 - 2) is -1 *)
Theorem erratum_winnow_pow2_halving_n1 : ~ erratum_winnow_pow2_halving_n1_statement.
Proof.
  intros H.
  assert (C := H 0%nat 0%nat 1%nat 1%nat (fun _ _ => 1) (fun _ _ => 0%Z) (fun _ => 0%Z)
                 ltac:(lia) ltac:(lia) ltac:(intros t [_ Ht]; lia) ltac:(intros; reflexivity)
                 ltac:(intros t [_ Ht]; lia) ltac:(intros t [_ Ht]; lia) ltac:(unfold pow2; simpl; reflexivity)).
  rewrite lg_1 in C. simpl in C. lra.
Qed.

(* n = 2, r = 0 (the target is always 0), one example x = (1, 1) with label 0: w.x = 2 >= 2, a false
   positive, so M = 1 > 0 = r(2 lg n - 1); the weights after it are 0 (elimination) or 1/2 (halving) *)
Lemma r0_labelled : labelled 2 0 1 (fun _ _ => 1%Z) (fun _ => 0%Z).
Proof. intros t [_ Ht]. split; [intros; right; reflexivity|reflexivity]. Qed.

Lemma r0_mistake (w : nat -> nat -> R) : w 0%nat 0%nat = 1 -> w 0%nat 1%nat = 1 ->
  mistakes_at_n 2 1 w (fun _ _ => 1%Z) (fun _ => 0%Z).
Proof.
  intros A B t [_ Ht]. replace t with 0%nat by lia. unfold sum_incl. simpl. rewrite A, B.
  split; [reflexivity|intros _; lra].
Qed.

Theorem erratum_winnow_pow2_elimination_r0 : ~ erratum_winnow_pow2_elimination_r0_statement.
Proof.
  intros H. set (w := fun t (i : nat) => match t with O => 1 | S _ => 0 end).
  assert (C := H 1%nat 1%nat 2%nat 0%nat w (fun _ _ => 1%Z) (fun _ => 0%Z)
                 ltac:(lia) ltac:(lia) r0_labelled ltac:(intros; reflexivity) (r0_mistake w eq_refl eq_refl)).
  simpl INR in C. rewrite Rmult_0_l in C.
  enough (1 <= 0) by lra.
  apply C.
  - intros t [_ Ht] i _. replace t with 0%nat by lia. unfold w.
    repeat split; intros P; first [ reflexivity | (destruct P as [E _]; discriminate) | discriminate P ].
  - unfold pow2. simpl. ring.
  - lia.
Qed.

Theorem erratum_winnow_pow2_tight_r0 : ~ erratum_winnow_pow2_tight_r0_statement.
Proof.
  intros H. set (w := fun t (i : nat) => match t with O => 1 | S _ => 1 / 2 end).
  assert (C := H 1%nat 1%nat 2%nat 0%nat w (fun _ _ => 1%Z) (fun _ => 0%Z)
                 ltac:(lia) ltac:(lia) r0_labelled ltac:(intros; reflexivity) (r0_mistake w eq_refl eq_refl)).
  simpl INR in C. rewrite Rmult_0_l in C.
  enough (1 <= 0) by lra.
  apply C.
  - intros t [_ Ht] i _. replace t with 0%nat by lia. unfold w. simpl.
    repeat split; intros P; first [ ring | (destruct P as [E _]; discriminate) | discriminate P ].
  - unfold pow2. simpl. ring.
  - lia.
Qed.

(** ** The relevant weights and the total weight, as the catalogue states them *)
Lemma sum_incl_from (r n : nat) (f : nat -> R) : (r <= n)%nat ->
  sum_incl r (Z.of_nat n - 1) f = sum_lt (n - r) (fun j => f (r + j)%nat).
Proof.
  intros H. unfold sum_incl. replace (Z.of_nat n - 1 + 1)%Z with (Z.of_nat n) by ring. rewrite Nat2Z.id.
  reflexivity.
Qed.

Lemma sum_incl_all (n : nat) (f : nat -> R) : sum_incl 0 (Z.of_nat n - 1) f = sum_lt n f.
Proof. rewrite sum_incl_from by lia. rewrite Nat.sub_0_r. reflexivity. Qed.

Lemma sum_split_at (r n : nat) (f : nat -> R) : (r <= n)%nat ->
  sum_lt n f = sum_lt r f + sum_lt (n - r) (fun j => f (r + j)%nat).
Proof. intros H. replace n with (r + (n - r))%nat at 1 by lia. apply sum_lt_split. Qed.

Lemma Isum_tmask (r n : nat) (f : nat -> R) : (r <= n)%nat ->
  Isum n (tmask r) f = sum_lt (n - r) (fun j => f (r + j)%nat).
Proof.
  intros H. unfold Isum. rewrite (sum_split_at r n) by exact H.
  replace (sum_lt r (fun i => if tmask r i then 0 else f i)) with (sum_lt r (fun _ => 0)).
  - rewrite sum_lt_zero, Rplus_0_l. apply sum_lt_ext. intros j Hj. unfold tmask.
    replace (Nat.ltb (r + j) r) with false by (symmetry; apply Nat.ltb_ge; lia). reflexivity.
  - apply sum_lt_ext. intros i Hi. unfold tmask. rewrite (proj2 (Nat.ltb_lt i r) Hi). reflexivity.
Qed.

Theorem winnow_relevant_weights : winnow_relevant_weights_statement.
Proof.
  intros M beta i n r w x y Hn Hr Hl H0 Hm Hu B0.
  pose proof (winnow_sequence_rinv n r M beta w x y Hn Hr B0 Hl H0 Hm Hu M (le_n M)) as Hw.
  assert (Er : count_lt n (tmask r) = r) by (rewrite count_tmask; lia).
  pose proof (zsum_promotions y M (labels_01 n r M x y Hr Hl)) as ZP.
  rewrite !zsum_incl_first. split; [|split].
  - intros Hi.
    pose proof (relevant_exponent n r M beta w x y Hr Hl H0 Hu M (le_n M) i Hi) as E.
    destruct Hw as (_ & p & Hp & _).
    destruct (Hp i ltac:(lia) ltac:(unfold tmask; apply Nat.ltb_lt; exact Hi)) as [E1 E2].
    split; [|split].
    + rewrite E. apply Rle_ge, powerRZ_nat_ge_1, zsum_nonneg. intros s Hs.
      destruct (labels_01 n r M x y Hr Hl s Hs) as [Y|Y]; rewrite Y; [lia|].
      destruct (Hl s ltac:(lia)) as [Hx _]. destruct (Hx i ltac:(lia)); lia.
    + exact E.
    + rewrite mult_INR. simpl (INR 2). rewrite E1. lra.
  - rewrite (zsum_lt_ext r _ (fun i => zsum_lt M (fun s => y s * x s i)%Z)) by (intros; apply zsum_incl_first).
    apply (promotions_le_exponents n r M x y Hr Hl).
  - change (fun s => y s) with y. rewrite ZP, <- INR_IZR_INZ. rewrite <- Er.
    apply (promotions_bound_r n (tmask r) (w M) _ Hn Hw).
Qed.

Theorem winnow_total_weight : winnow_total_weight_statement.
Proof.
  intros M beta n r w x y Hn Hr Hl H0 Hm Hu [B0 B1].
  destruct (winnow_sequence_counts n r M beta w x y Hn Hr ltac:(lra) Hl H0 Hm Hu) as (EM & Er & Hw).
  pose proof (zsum_promotions y M (labels_01 n r M x y Hr Hl)) as ZP.
  pose proof (promotions_le y M) as PM.
  set (F := promotions y M) in *.
  rewrite !zsum_incl_first. change (fun s => y s) with y. rewrite ZP.
  rewrite !sum_incl_all, (sum_incl_from r n) by exact Hr. change (fun i => w M i) with (w M).
  rewrite minus_IZR, plus_IZR, mult_IZR, <- !INR_IZR_INZ, <- minus_INR by lia.
  pose proof (Isum_tmask r n (w M) Hr) as IS.
  pose proof (sum_split_at r n (w M) Hr) as SP.
  destruct Hw as (Hnn & Hpos & HW & HWs & HI & _).
  split; [exact HW|]. split; [intros HF; apply HWs; lia|].
  split; [exact SP|]. split; [apply Rle_ge, sum_lt_nonneg; intros i Hi; apply Hnn; lia|].
  split; [apply Rle_ge, sum_lt_nonneg; intros j Hj; apply Hnn; lia|].
  split.
  - intros Hb. apply Rlt_gt. apply Rlt_le_trans with (w M 0%nat); [apply Hpos; [exact Hb|lia]|].
    apply (sum_lt_ge_term n (w M) 0%nat); [exact Hnn|lia].
  - intros HD. rewrite <- IS. apply Rle_ge, HI. lia.
Qed.
