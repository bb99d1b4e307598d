(** * Lemmas for Rules.v: the sum forms of Prelude.v (inclusive bounds, an integer or a natural
    index), powers of two and lg, each proved from the definitions. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Kernels Mistakebound.Gaussian.
Open Scope R_scope.

Lemma sum_lt_term n f k : (forall i, (i < n)%nat -> 0 <= f i) -> (k < n)%nat -> f k <= sum_lt n f.
Proof.
  induction n as [|n IH]; intros H Hk; [lia|]. simpl.
  assert (0 <= sum_lt n f) by (apply sum_lt_nonneg; intros; apply H; lia).
  destruct (Nat.eq_dec k n) as [E|E]; [subst; lra|].
  assert (f k <= sum_lt n f) by (apply IH; [intros; apply H; lia | lia]). pose proof (H n ltac:(lia)). lra.
Qed.

Lemma inclZ_range lo hi j : (j < Z.to_nat (hi - lo + 1))%nat -> (lo <= lo + Z.of_nat j <= hi)%Z.
Proof. intros; lia. Qed.

Lemma inclN_range (lo : nat) hi j : (j < Z.to_nat (hi + 1) - lo)%nat -> (Z.of_nat (lo + j) <= hi)%Z.
Proof. intros; lia. Qed.

Lemma ln2_pos : 0 < ln 2.
Proof. rewrite <- ln_1. apply ln_increasing; lra. Qed.

Lemma pow2Z_nat (k : nat) : pow2Z (Z.of_nat k) = 2 ^ k.
Proof. unfold pow2Z. rewrite <- pow_powerRZ. reflexivity. Qed.

Lemma pow2Z_add a b : pow2Z (a + b) = pow2Z a * pow2Z b.
Proof. unfold pow2Z. apply powerRZ_add. lra. Qed.

Lemma pow2Z_pos a : 0 < pow2Z a.
Proof. unfold pow2Z. apply powerRZ_lt. lra. Qed.

Lemma pow2Z_ge1 (k : Z) : (0 <= k)%Z -> 1 <= pow2Z k.
Proof.
  intros H. rewrite <- (Z2Nat.id k H), pow2Z_nat. induction (Z.to_nat k) as [|m IH]; simpl; lra.
Qed.

Lemma pow2Z_mono a b : (a <= b)%Z -> pow2Z a <= pow2Z b.
Proof.
  intros H. replace b with (a + (b - a))%Z by ring. rewrite pow2Z_add.
  pose proof (pow2Z_pos a). pose proof (pow2Z_ge1 (b - a) ltac:(lia)). nra.
Qed.

Lemma lg_pow2Z a : lg (pow2Z a) = IZR a.
Proof.
  unfold lg. pose proof ln2_pos.
  assert (E : forall k : nat, ln (2 ^ k) = INR k * ln 2) by (intros; apply ln_pow; lra).
  destruct (Z_le_gt_dec 0 a) as [P|P].
  - rewrite <- (Z2Nat.id a P), pow2Z_nat, E, <- INR_IZR_INZ. field. lra.
  - replace a with (- Z.of_nat (Z.to_nat (- a)))%Z by lia. unfold pow2Z. rewrite powerRZ_neg' by lra.
    rewrite <- pow_powerRZ, ln_Rinv, E, opp_IZR, <- INR_IZR_INZ by (apply pow_lt; lra). field. lra.
Qed.

Lemma lg_lt a b : 0 < a -> a < b -> lg a < lg b.
Proof.
  intros Ha Hb. unfold lg, Rdiv. apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat, ln2_pos|].
  apply ln_increasing; lra.
Qed.

(** Integer-valued sums (zsum_lt), the same laws as for sum_lt. *)
Lemma zsum_lt_ext n f g : (forall i, (i < n)%nat -> f i = g i) -> zsum_lt n f = zsum_lt n g.
Proof.
  induction n as [|n IH]; intros H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

Lemma zsum_lt_add n f g : zsum_lt n (fun i => f i + g i)%Z = (zsum_lt n f + zsum_lt n g)%Z.
Proof. induction n as [|n IH]; simpl; lia. Qed.

Lemma zsum_lt_scal n c f : zsum_lt n (fun i => c * f i)%Z = (c * zsum_lt n f)%Z.
Proof. induction n as [|n IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma zsum_lt_le n f g : (forall i, (i < n)%nat -> f i <= g i)%Z -> (zsum_lt n f <= zsum_lt n g)%Z.
Proof.
  induction n as [|n IH]; intros H; simpl; [lia|].
  assert (zsum_lt n f <= zsum_lt n g)%Z by (apply IH; intros; apply H; lia). pose proof (H n ltac:(lia)). lia.
Qed.

Lemma zsum_lt_nonneg n f : (forall i, (i < n)%nat -> 0 <= f i)%Z -> (0 <= zsum_lt n f)%Z.
Proof.
  intros H. replace 0%Z with (zsum_lt n (fun _ => 0%Z)) by (clear; induction n; simpl; lia).
  apply zsum_lt_le. exact H.
Qed.

Lemma zsum_lt_const n c : zsum_lt n (fun _ => c) = (Z.of_nat n * c)%Z.
Proof. induction n as [|n IH]; cbn [zsum_lt]; [reflexivity|]. rewrite IH, Nat2Z.inj_succ. ring. Qed.

Lemma zsum_lt_term n f k : (forall i, (i < n)%nat -> 0 <= f i)%Z -> (k < n)%nat -> (f k <= zsum_lt n f)%Z.
Proof.
  induction n as [|n IH]; intros H Hk; [lia|]. simpl.
  assert (0 <= zsum_lt n f)%Z by (apply zsum_lt_nonneg; intros; apply H; lia).
  destruct (Nat.eq_dec k n) as [E|E]; [subst; lia|].
  assert (f k <= zsum_lt n f)%Z by (apply IH; [intros; apply H; lia | lia]). pose proof (H n ltac:(lia)). lia.
Qed.

Lemma zsum_lt_split n m f : zsum_lt (n + m) f = (zsum_lt n f + zsum_lt m (fun i => f (n + i)%nat))%Z.
Proof.
  induction m as [|m IH]; simpl; [rewrite Nat.add_0_r; ring|].
  rewrite Nat.add_succ_r. simpl. rewrite IH. ring.
Qed.

(** The Gram forms of exp(s x.x'), s >= 0, over an index range from 0 (Gaussian.v: the kernel is
    the limit of its Taylor sums). *)
Lemma gram_exp_nonneg d s m (b : nat -> R) (x : nat -> Vec) :
  0 <= s -> 0 <= sum_lt m (fun i => sum_lt m (fun j => b i * b j * exp (s * dot d (x i) (x j)))).
Proof.
  intros Hs. pose proof (exp_kernel_psd d (s / 2) ltac:(lra) m x b) as H. unfold gram_form in H.
  replace (2 * (s / 2)) with s in H by field. exact H.
Qed.

(** The sums respect pointwise equality of their terms (for [setoid_rewrite] under the term's
    binder, e.g. [Z.to_nat (Z.of_nat i) = i] when a schema's term over the integers is read at a
    natural-number index). *)
Require Import Setoid Morphisms.

Lemma vsum_lt_ext n (f g : nat -> Vec) : (forall i, f i = g i) -> vsum_lt n f = vsum_lt n g.
Proof. intros H; induction n as [|n IH]; simpl; [reflexivity | rewrite IH, H; reflexivity]. Qed.

#[global] Instance sum_incl_pointwise lo hi : Proper (pointwise_relation nat eq ==> eq) (sum_incl lo hi).
Proof. intros f g H; unfold sum_incl; apply sum_lt_ext; intros; apply H. Qed.

#[global] Instance zsum_incl_pointwise lo hi : Proper (pointwise_relation nat eq ==> eq) (zsum_incl lo hi).
Proof. intros f g H; unfold zsum_incl; apply zsum_lt_ext; intros; apply H. Qed.

#[global] Instance sum_inclZ_pointwise lo hi : Proper (pointwise_relation Z eq ==> eq) (sum_inclZ lo hi).
Proof. intros f g H; unfold sum_inclZ; apply sum_lt_ext; intros; apply H. Qed.

#[global] Instance vsum_incl_pointwise lo hi : Proper (pointwise_relation nat eq ==> eq) (vsum_incl lo hi).
Proof. intros f g H; unfold vsum_incl; apply vsum_lt_ext; intros; apply H. Qed.

(** * Bridging a rule lemma to a printed instance

    [mbr_bridge H]: the goal is a rule instance as the step lemma prints it, [H] the Rules.v lemma
    specialised at the arguments the kernel kept.  The two can differ in how terms are written
    (an integer sum under [IZR] or a real sum of [IZR] terms, [INR n] or [IZR (Z.of_nat n)],
    [Z.to_nat 0] or [0], a product re-associated inside a sum's term) and in their premises (the
    lemma's [lo >= 0], a termwise premise over [Z]-bounds where the instance bounds a natural).
    Both sides are rewritten to one form, each premise of [H] is proved from the instance's
    premises ([lia], [lra], or a termwise premise applied and its bounds by [lia]), and the
    conclusion closes by [exact], [lia], [lra] or [ring] once the sums' terms are shown equal
    pointwise by [ring].  Every tactic is a decision procedure on a small goal or a bounded
    rewrite; a bridge that does not close fails, and the instance is then not derived. *)
Lemma mbr_sum_incl_ext lo hi f g : (forall i, f i = g i) -> sum_incl lo hi f = sum_incl lo hi g.
Proof. intros H; unfold sum_incl; apply sum_lt_ext; intros; apply H. Qed.

Lemma mbr_zsum_incl_ext lo hi f g : (forall i, f i = g i) -> zsum_incl lo hi f = zsum_incl lo hi g.
Proof. intros H; unfold zsum_incl; apply zsum_lt_ext; intros; apply H. Qed.

Lemma mbr_sum_inclZ_ext lo hi f g : (forall i, f i = g i) -> sum_inclZ lo hi f = sum_inclZ lo hi g.
Proof. intros H; unfold sum_inclZ; apply sum_lt_ext; intros; apply H. Qed.

Lemma mbr_zsum_IZR lo hi f : IZR (zsum_incl lo hi f) = sum_incl lo hi (fun i => IZR (f i)).
Proof.
  unfold zsum_incl, sum_incl. generalize (Z.to_nat (hi + 1) - lo)%nat. intros n.
  induction n as [|n IH]; simpl; [reflexivity | rewrite plus_IZR, IH; reflexivity].
Qed.

Ltac mbr_norm_in H :=
  change (Z.to_nat 0) with 0%nat in H; change (Z.of_nat 0) with 0%Z in H; change (Z.of_nat 1) with 1%Z in H;
  try (rewrite_strat (topdown (choice INR_IZR_INZ (choice mult_IZR (choice plus_IZR (choice minus_IZR
    (choice opp_IZR (choice mbr_zsum_IZR Nat2Z.inj_add))))))) in H);
  cbv beta in H.

Ltac mbr_norm :=
  change (Z.to_nat 0) with 0%nat; change (Z.of_nat 0) with 0%Z; change (Z.of_nat 1) with 1%Z;
  try (rewrite_strat (topdown (choice INR_IZR_INZ (choice mult_IZR (choice plus_IZR (choice minus_IZR
    (choice opp_IZR (choice mbr_zsum_IZR Nat2Z.inj_add))))))));
  cbv beta.


(* the same forms by plain rewriting: the terms outside binders, or under them without the bound
   variable; cheap, and enough for most instances.  Repeated until nothing changes: a sum pushed out
   of IZR (mbr_zsum_IZR) exposes terms the earlier lemmas rewrite, as in Winnow's charge summed over
   the relevant weights, IZR (zsum (fun i => 3 * l - 2)) (otherwise left to mbr_norm's rewriting
   under binders, ~1 s each). *)
Ltac mbr_light_in H :=
  change (Z.to_nat 0) with 0%nat in H; change (Z.of_nat 0) with 0%Z in H; change (Z.of_nat 1) with 1%Z in H;
  repeat progress rewrite ?INR_IZR_INZ, ?mult_IZR, ?plus_IZR, ?minus_IZR, ?opp_IZR, ?mbr_zsum_IZR, ?Nat2Z.inj_add in H;
  cbv beta in H.

Ltac mbr_light :=
  change (Z.to_nat 0) with 0%nat; change (Z.of_nat 0) with 0%Z; change (Z.of_nat 1) with 1%Z;
  repeat progress rewrite ?INR_IZR_INZ, ?mult_IZR, ?plus_IZR, ?minus_IZR, ?opp_IZR, ?mbr_zsum_IZR, ?Nat2Z.inj_add;
  cbv beta.

(* two sums over the same range are equal when their terms are, pointwise, by ring (nested sums
   too), the terms' casts first pushed inward by plain rewriting (the bound variable now free: an
   IZR of a product inside a sum's term, which [mbr_light] cannot reach under the binder and
   [mbr_norm]'s rewriting under binders reaches at ~1 s a call) *)
Ltac mbr_term_eq := first [ ring | (mbr_light; ring) ].

Ltac mbr_sum_eq :=
  first [ reflexivity
        | apply mbr_sum_incl_ext; intro; cbv beta; first [ mbr_term_eq | mbr_sum_eq ]
        | apply mbr_zsum_incl_ext; intro; cbv beta; first [ mbr_term_eq | mbr_sum_eq ]
        | apply mbr_sum_inclZ_ext; intro; cbv beta; first [ mbr_term_eq | mbr_sum_eq ] ].

(* one sum of H replaced by the goal's sum over the same range with terms equal to its own *)
Ltac mbr_match_sum H :=
  match goal with
  | H' : context [sum_incl ?a ?b ?f] |- context [sum_incl ?a ?b ?g] =>
      constr_eq H' H; assert_fails (constr_eq f g);
      let E := fresh in assert (E : sum_incl a b f = sum_incl a b g) by mbr_sum_eq; rewrite E in H; clear E
  | H' : context [zsum_incl ?a ?b ?f] |- context [zsum_incl ?a ?b ?g] =>
      constr_eq H' H; assert_fails (constr_eq f g);
      let E := fresh in assert (E : zsum_incl a b f = zsum_incl a b g) by mbr_sum_eq; rewrite E in H; clear E
  | H' : context [sum_inclZ ?a ?b ?f] |- context [sum_inclZ ?a ?b ?g] =>
      constr_eq H' H; assert_fails (constr_eq f g);
      let E := fresh in assert (E : sum_inclZ a b f = sum_inclZ a b g) by mbr_sum_eq; rewrite E in H; clear E
  end.

(* at most n such replacements (two sums of the goal equal pointwise cannot make it loop) *)
Ltac mbr_match_sums_n H n :=
  lazymatch n with
  | O => idtac
  | S ?m => first [ mbr_match_sum H; mbr_match_sums_n H m | idtac ]
  end.

Ltac mbr_match_sums H := mbr_match_sums_n H 8%nat.

(* a termwise premise (for all i in the range, ...) from the instance's termwise premise at the
   same i, its range by lia *)
Ltac mbr_termwise :=
  let j := fresh "j" in let Hj := fresh "Hj" in intros j Hj;
  match goal with
  | X : forall _ : nat, _ -> _ |- _ =>
      let Y := fresh in pose proof (X j) as Y; cbv beta in Y;
      first [ apply Y; lia | let W := fresh in assert (W := Y ltac:(lia)); first [ exact W | lia | lra ] ]
  | X : forall _ : Z, _ -> _ |- _ =>
      let Y := fresh in pose proof (X j) as Y; cbv beta in Y;
      first [ apply Y; lia | let W := fresh in assert (W := Y ltac:(lia)); first [ exact W | lia | lra ] ]
  end.

(* a premise of the lemma, from the instance's premises in the context *)
Ltac mbr_prem :=
  repeat split; first [ assumption | mbr_termwise | lia | lra ].

Ltac mbr_arith H := first [ (rewrite H; ring) | (rewrite <- H; ring) | lia | lra ].

Ltac mbr_close H :=
  first [ exact H | (rewrite H; ring) | (mbr_match_sums H; first [ exact H | mbr_arith H ]) | lia | lra
        | (etransitivity; [ | exact H ]; f_equal; ring) | (etransitivity; [ exact H | ]; f_equal; ring) ].

(* no hypothesis but the variables: lia and lra then read small contexts *)
Ltac mbr_clear_props := repeat match goal with X : ?T |- _ => lazymatch type of T with Prop => clear X end end.

Ltac mbr_finish H :=
  intros;
  repeat match goal with X : _ /\ _ |- _ => destruct X end;
  repeat match type of H with
         | ?A -> _ => let P := fresh "mbP" in assert (P : A) by mbr_prem; specialize (H P)
         end;
  mbr_close H.

(* the goal: the printed instance; H: the lemma at the kernel's arguments *)
Ltac mbr_bridge H :=
  unfold pow2 in *; rewrite <- ?pow2Z_nat in *;
  first [ mbr_light_in H; mbr_light; mbr_finish H | mbr_norm_in H; mbr_norm; mbr_finish H ].
