(** * Tactics for the catalogue's step obligations (Steps_*.v, generated from the very formulas z3
    and cvc5 check).  A solver step treats inner products, vector operations, sums and interpreted
    functions as opaque terms, exactly as the SMT encoding does, so after the propositional
    bookkeeping (split conjunctions, discharge the guards of per-step facts, rewrite with vector
    equations, case-split |.|, max and min) arithmetic decision procedures close most of them.  An
    identity over vectors is proved coordinatewise through the inner-product lemmas (here Coq proves
    what the suite's rule finite_sum_linearity trusts).  A step whose proof needs more carries its
    own tactic (coq/hints.py). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas.
Open Scope R_scope.

(** 0 <= INR n for every natural number the context mentions (the SMT encoding's Nat >= 0). *)
Ltac mb_nat_facts :=
  repeat match goal with
  | |- context [INR ?n] =>
      lazymatch goal with
      | _ : 0 <= INR n |- _ => fail
      | _ => pose proof (pos_INR n)
      end
  | _ : context [INR ?n] |- _ =>
      lazymatch goal with
      | _ : 0 <= INR n |- _ => fail
      | _ => pose proof (pos_INR n)
      end
  end.

Lemma mb_INR0 : INR 0 = 0. Proof. reflexivity. Qed.
Lemma mb_INR1 : INR 1 = 1. Proof. reflexivity. Qed.

(** Push IZR and INR inwards (IZR over +, *, -, opposite and Z.of_nat; INR over +, * and S; INR 0
    is 0): each redex found by matching, then rewritten in the one place it occurs, until none is
    left.  (Matching costs little; a [rewrite ?lemma in *] for each lemma over every hypothesis was
    most of a solver step's time.) *)
Ltac mb_norm :=
  repeat match goal with
  | |- context [IZR (Z.add ?a ?b)] => rewrite (plus_IZR a b)
  | |- context [IZR (Z.mul ?a ?b)] => rewrite (mult_IZR a b)
  | |- context [IZR (Z.sub ?a ?b)] => rewrite (minus_IZR a b)
  | |- context [IZR (Z.opp ?a)] => rewrite (opp_IZR a)
  | |- context [IZR (Z.of_nat ?n)] => rewrite <- (INR_IZR_INZ n)
  | |- context [INR (Nat.add ?a ?b)] => rewrite (plus_INR a b)
  | |- context [INR (Nat.mul ?a ?b)] => rewrite (mult_INR a b)
  | |- context [INR (S ?n)] => rewrite (S_INR n)
  | |- context [INR O] => rewrite mb_INR0
  | H : context [IZR (Z.add ?a ?b)] |- _ => rewrite (plus_IZR a b) in H
  | H : context [IZR (Z.mul ?a ?b)] |- _ => rewrite (mult_IZR a b) in H
  | H : context [IZR (Z.sub ?a ?b)] |- _ => rewrite (minus_IZR a b) in H
  | H : context [IZR (Z.opp ?a)] |- _ => rewrite (opp_IZR a) in H
  | H : context [IZR (Z.of_nat ?n)] |- _ => rewrite <- (INR_IZR_INZ n) in H
  | H : context [INR (Nat.add ?a ?b)] |- _ => rewrite (plus_INR a b) in H
  | H : context [INR (Nat.mul ?a ?b)] |- _ => rewrite (mult_INR a b) in H
  | H : context [INR (S ?n)] |- _ => rewrite (S_INR n) in H
  | H : context [INR O] |- _ => rewrite mb_INR0 in H
  end.

(** Split every conjunction among the hypotheses. *)
Ltac mb_split_hyps :=
  repeat match goal with
  | H : _ /\ _ |- _ => destruct H
  end.

(** A hypothesis "A -> C" whose premise holds: keep C.  Conjunctive premises are proved piecewise. *)
Ltac mb_conj := repeat match goal with |- ?A /\ ?B => apply conj end.
Ltac mb_premise := mb_conj; first [ assumption | lia | lra | nra ].
Ltac mb_discharge :=
  repeat match goal with
  | H : ?A -> ?C |- _ =>
      lazymatch type of A with
      | Prop =>
          let HA := fresh "HA" in
          assert (HA : A) by mb_premise; specialize (H HA); clear HA
      end
  end.

(** The vector equations among the hypotheses (equality in R^d), used as the SMT encoding's
    congruence: an inner product of the left side is that of the right side. *)
Ltac mb_vec_eqs :=
  repeat match goal with
  | H : @eq Vec ?a ?b |- _ => rewrite H in *; clear H
  end;
  repeat match goal with
  | H : veq ?d ?a ?b |- context [dot ?d ?a ?c] => rewrite (dot_veq_l d a b c H)
  | H : veq ?d ?a ?b |- context [dot ?d ?c ?a] => rewrite (dot_veq_r d a b c H)
  | H : veq ?d ?a ?b, H' : context [dot ?d ?a ?c] |- _ => rewrite (dot_veq_l d a b c H) in H'
  | H : veq ?d ?a ?b, H' : context [dot ?d ?c ?a] |- _ => rewrite (dot_veq_r d a b c H) in H'
  end.

(** Case splits on |t|, max and min: one split per term, rewritten everywhere it occurs (the goal
    and every hypothesis), so that no branch splits the same term twice. *)
Ltac mb_cases :=
  repeat match goal with
  | |- context [Rabs ?t] => let E := fresh "mbA" in destruct (Rle_lt_dec 0 t) as [E|E];
        [rewrite (Rabs_pos_eq t E) in * | rewrite (Rabs_left t E) in *]
  | _ : context [Rabs ?t] |- _ => let E := fresh "mbA" in destruct (Rle_lt_dec 0 t) as [E|E];
        [rewrite (Rabs_pos_eq t E) in * | rewrite (Rabs_left t E) in *]
  | |- context [Rmax ?a ?b] => let E := fresh "mbA" in destruct (Rle_lt_dec a b) as [E|E];
        [rewrite (Rmax_right a b E) in * | rewrite (Rmax_left a b (Rlt_le _ _ E)) in *]
  | _ : context [Rmax ?a ?b] |- _ => let E := fresh "mbA" in destruct (Rle_lt_dec a b) as [E|E];
        [rewrite (Rmax_right a b E) in * | rewrite (Rmax_left a b (Rlt_le _ _ E)) in *]
  | |- context [Rmin ?a ?b] => let E := fresh "mbA" in destruct (Rle_lt_dec a b) as [E|E];
        [rewrite (Rmin_left a b E) in * | rewrite (Rmin_right a b (Rlt_le _ _ E)) in *]
  | _ : context [Rmin ?a ?b] |- _ => let E := fresh "mbA" in destruct (Rle_lt_dec a b) as [E|E];
        [rewrite (Rmin_left a b E) in * | rewrite (Rmin_right a b (Rlt_le _ _ E)) in *]
  end.

Ltac mb_arith :=
  first [ assumption | reflexivity | lra | lia | nra | psatz R 2 | psatz R 3 | (field; lra) | (field; nra) | ring ].

(** The goal, after its own premises are introduced. *)
Ltac mb_goal :=
  repeat match goal with
  | |- ?A /\ ?B => apply conj
  | |- ?A -> ?B => intro
  end.

(** An inner product equal to a constant (a unit vector) is replaced by the constant. *)
Ltac mb_const_dots :=
  repeat match goal with
  | H : dot ?d ?a ?b = IZR ?c |- _ => rewrite H in *; clear H
  end.

(** From A^2 <= B and A >= C >= 0: C^2 <= A^2 (squares are monotone on the nonnegatives). *)
Ltac mb_squares :=
  repeat match goal with
  | H1 : ?A ^ 2 <= _, H2 : ?A >= ?C |- _ =>
      lazymatch goal with
      | _ : C ^ 2 <= A ^ 2 |- _ => fail
      | _ => assert (C ^ 2 <= A ^ 2) by (apply pow_incr; split; nra)
      end
  end.

(** The condition of an if-then-else, decided (the reals' order is decidable). *)
Ltac mb_ifs :=
  repeat match goal with
  | |- context [Rle_b ?a ?b] =>
      let E := fresh "mbE" in destruct (Rle_b a b) eqn:E; [apply Rle_b_spec in E | apply Rle_b_false in E]
  | H : context [Rle_b ?a ?b] |- _ =>
      let E := fresh "mbE" in destruct (Rle_b a b) eqn:E; [apply Rle_b_spec in E | apply Rle_b_false in E]
  | |- context [Rlt_b ?a ?b] =>
      let E := fresh "mbE" in destruct (Rlt_b a b) eqn:E; [apply Rlt_b_spec in E | apply Rlt_b_false in E]
  | H : context [Rlt_b ?a ?b] |- _ =>
      let E := fresh "mbE" in destruct (Rlt_b a b) eqn:E; [apply Rlt_b_spec in E | apply Rlt_b_false in E]
  end.

(** A hypothesis "A -> C" whose premise is an integer comparison the context does not decide:
    case split on it (in one branch it is discharged, in the other its negation is a fact). *)
Ltac mb_case_premises :=
  repeat match goal with
  | H : (?a >= ?b)%Z -> _ |- _ =>
      lazymatch goal with
      | _ : (a >= b)%Z |- _ => fail | _ : (a < b)%Z |- _ => fail
      | _ => destruct (Z_ge_lt_dec a b)
      end
  | H : (?a <= ?b)%Z -> _ |- _ =>
      lazymatch goal with
      | _ : (a <= b)%Z |- _ => fail | _ : (a > b)%Z |- _ => fail
      | _ => destruct (Z_le_gt_dec a b)
      end
  | H : (?a <= ?b)%nat -> _ |- _ =>
      lazymatch goal with
      | _ : (a <= b)%nat |- _ => fail | _ : (b < a)%nat |- _ => fail
      | _ => destruct (le_lt_dec a b)
      end
  | H : ?a >= ?b -> _ |- _ =>
      lazymatch type of a with R =>
      lazymatch goal with
      | _ : a >= b |- _ => fail | _ : b <= a |- _ => fail | _ : a < b |- _ => fail
      | _ => destruct (Rlt_le_dec a b)
      end end
  end.

(** A hypothesis with a premise "not (a <= b)": decide a <= b (the reals' order is decidable). *)
Ltac mb_decide :=
  repeat match goal with
  | H : context [~ (?a <= ?b)] |- _ =>
      lazymatch goal with
      | _ : a <= b |- _ => fail
      | _ : ~ (a <= b) |- _ => fail
      | _ => destruct (Rle_dec a b)
      end
  end.

(** A solver step: hypotheses => goal, over opaque terms. *)
Ltac mb_prep :=
  intros; mb_split_hyps; mb_goal; mb_split_hyps; mb_ifs; mb_decide; mb_norm; mb_nat_facts; mb_discharge;
  mb_split_hyps; mb_case_premises; mb_discharge; mb_split_hyps; mb_vec_eqs; mb_norm;
  mb_nat_facts; mb_cases; mb_const_dots.

(** 0 <= |t| for every |t| in the context. *)
Ltac mb_abs_pos :=
  repeat match goal with
  | |- context [Rabs ?t] =>
      lazymatch goal with _ : 0 <= Rabs t |- _ => fail | _ => pose proof (Rabs_pos t) end
  | _ : context [Rabs ?t] |- _ =>
      lazymatch goal with _ : 0 <= Rabs t |- _ => fail | _ => pose proof (Rabs_pos t) end
  end.

(** The same bookkeeping without the case splits on |.|, max and min (they stay opaque atoms). *)
Ltac mb_prep_atoms :=
  intros; mb_split_hyps; mb_goal; mb_split_hyps; mb_ifs; mb_decide; mb_norm; mb_nat_facts; mb_discharge;
  mb_split_hyps; mb_case_premises; mb_discharge; mb_split_hyps; mb_vec_eqs; mb_norm; mb_nat_facts;
  mb_const_dots.

(** Helpers for the hints: a <= b / c from a c <= b (c > 0), and cancelling a factor x >= 0 that
    may be 0 (the usual "M = 0 is trivial, else divide by M"). *)
Lemma mb_le_div (a b c : R) : 0 < c -> a * c <= b -> a <= b / c.
Proof. intros Hc H. apply Rmult_le_reg_r with c; [exact Hc|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. exact H. Qed.

Lemma mb_le_plus_div (a b c d : R) : 0 < c -> (a - b) * c <= d -> a <= b + d / c.
Proof. intros Hc H. assert (a - b <= d / c) by (apply mb_le_div; assumption). lra. Qed.

(** Clear a division by a positive term on the right of <=, then nonlinear arithmetic. *)
Ltac mb_div :=
  match goal with
  | |- _ <= _ + _ / _ => apply mb_le_plus_div; [nra|nra]
  | |- _ <= _ / _ => apply mb_le_div; [nra|nra]
  end.

Ltac mb_cancel x :=
  let Z := fresh "mbZ" in
  destruct (Req_dec x 0) as [Z|Z]; [rewrite Z in *; nra | apply (Rmult_le_reg_l x); [lra|nra]].

(** The same solvers as mb_arith, with the division step tried before psatz: psatz fails on
    "a <= b / c" only after its semidefinite search (csdp, 1-2 s a call), and mb_div's two nra calls
    close such a goal (Weighted Majority's mistake bound, RWM's expected bound). *)
Ltac mb_solve := mb_prep; first [ assumption | reflexivity | lra | lia | nra | mb_div | psatz R 2 | psatz R 3
                                | (field; lra) | (field; nra) | ring ].

(** A vector identity: expand inner products of sums and multiples, then ring over the inner
    products of the remaining vectors (their order made canonical by the generated rewrites). *)
Ltac mb_expand :=
  repeat rewrite ?dot_vadd_l, ?dot_vadd_r, ?dot_vsub_l, ?dot_vsub_r, ?dot_smul_l, ?dot_smul_r,
                 ?dot_vzero_l, ?dot_vzero_r, ?dot_concat, ?dot_tensor, ?dot_vec1.

Ltac mb_identity :=
  intros; first [ (mb_expand; ring)
                | (let i := fresh "i" in let Hi := fresh "Hi" in
                   intros i Hi; unfold vsub, vadd, smul, vzero, vec1; ring) ].

(** (M - L)^2 <= M c with M, L, c >= 0 gives M <= c + 2L (the hinge bound's last step). *)
Lemma mb_td_bound (M T g R2 : R) : 0 <= M -> 0 <= T -> g > 0 -> 0 <= R2 ->
  (g * M >= T -> (g * M - T) ^ 2 <= M * R2) -> M <= R2 / g ^ 2 + 2 / g * T.
Proof.
  intros HM HT Hg HR H. destruct (Rle_lt_dec (g * M) T) as [A|A].
  - assert (M <= T / g) by (apply Rmult_le_reg_r with g; [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra; lra).
    assert (0 <= R2 / g ^ 2) by (apply div_nonneg; [lra|apply pow_lt; lra]).
    assert (T / g = 1 / g * T) by (field; lra). assert (0 <= 1 / g * T) by (apply Rmult_le_pos; [apply div_nonneg; lra|lra]).
    assert (2 / g * T = 2 * (1 / g * T)) by (field; lra). lra.
  - specialize (H ltac:(lra)). destruct (Req_dec M 0) as [Z|Z]; [rewrite Z; apply Rplus_le_le_0_compat;
      [apply div_nonneg; [lra|apply pow_lt; lra]|apply Rmult_le_pos; [apply div_nonneg; lra|lra]]|].
    assert (g ^ 2 * M <= R2 + 2 * g * T) by (apply Rmult_le_reg_l with M; nra).
    apply Rmult_le_reg_l with (g ^ 2); [apply pow_lt; lra|].
    replace (g ^ 2 * (R2 / g ^ 2 + 2 / g * T)) with (R2 + 2 * g * T) by (field; lra). lra.
Qed.

Lemma mb_quadratic_bound (M L c : R) : 0 <= M -> 0 <= L -> 0 <= c -> (M >= L -> (M - L) ^ 2 <= M * c) ->
  M <= c + 2 * L.
Proof.
  intros HM HL Hc H. destruct (Rle_lt_dec M L) as [A|A]; [lra|]. specialize (H ltac:(lra)).
  destruct (Req_dec M 0) as [Z|Z]; [lra|].
  assert (M * M <= M * (c + 2 * L)) by nra. apply Rmult_le_reg_l with M; lra.
Qed.

(** Congruence over exp, as the SMT encoding has it for an uninterpreted function: an equation of
    arguments, or one whose left side is an exp term of the goal, is rewritten into the goal. *)
Ltac mb_fun_eqs :=
  repeat match goal with
  | H : ?a = ?b |- context [exp ?a] => progress rewrite H
  | H : exp ?a = ?b |- context [exp ?a] => progress rewrite H
  end.

(** Helpers for the Winnow family's hints: 2^n of a natural number as 2^n of the integer (the SMT
    encoding has one pow2 over Int), INR of products and of 2, weights in units of n (dividing an
    inequality by n >= 1), and an integer inequality from a strict real one one unit wider. *)
Lemma mb_pow2_Z n : pow2 n = pow2Z (Z.of_nat n).
Proof. unfold pow2, pow2Z. rewrite <- pow_powerRZ. reflexivity. Qed.

Ltac mb_iR := rewrite ?mult_INR, ?plus_INR in *; change (INR 2) with (1 + 1) in *.

Lemma mb_div_ge (n B c : R) : 1 <= n -> B >= c * n -> 1 / n * B >= c.
Proof. intros Hn H. apply Rle_ge. apply (Rmult_le_reg_l n); [lra|]. replace (n * (1 / n * B)) with B by (field; lra). lra. Qed.
Lemma mb_div_pos (n A : R) : 1 <= n -> 0 <= A -> 0 <= 1 / n * A.
Proof. intros Hn H. apply Rmult_le_pos; [apply Rlt_le, Rdiv_lt_0_compat; lra | exact H]. Qed.
Lemma mb_div_pos2 (n A B : R) : 1 <= n -> 0 < A + B -> 0 < 1 / n * A + 1 / n * B.
Proof. intros Hn H. rewrite <- Rmult_plus_distr_l. apply Rmult_lt_0_compat; [apply Rdiv_lt_0_compat; lra | exact H]. Qed.

Ltac mb_scale_n n := match goal with
  | |- 1 / INR n * ?A + 1 / INR n * ?B + ?X <= ?R => apply (Rmult_le_reg_l (INR n)); [lra|];
       replace (INR n * (1 / INR n * A + 1 / INR n * B + X)) with (A + B + INR n * X) by (field; lra)
  | |- 1 / INR n * ?A + 1 / INR n * ?B + ?X < ?R => apply (Rmult_lt_reg_l (INR n)); [lra|];
       replace (INR n * (1 / INR n * A + 1 / INR n * B + X)) with (A + B + INR n * X) by (field; lra)
  end.

(** (a <= b)%Z from IZR a < IZR b + 1. *)
Ltac mb_int_lt := apply Z.lt_succ_r, lt_IZR; rewrite succ_IZR.

(** A step that applies a lemma instance (or an earlier fact) whose conclusion is the goal: its
    premises are facts of the step, or arithmetic. *)
Ltac mb_instance :=
  intros; match goal with H : _ -> ?G |- ?G => apply H; mb_conj; first [ assumption | lia | lra ] end.

(** A step that applies several lemma instances whose conclusions together make the goal: each
    instance's premises are facts of the step or arithmetic; the goal's conjuncts are then among the
    instances' conclusions. *)
Ltac mb_instances :=
  intros;
  repeat match goal with
  | H : ?A -> ?G |- _ =>
      lazymatch type of A with Prop => idtac end;
      let P := fresh "P" in
      assert (P : G) by (apply H; mb_conj; first [ assumption | lia | lra ]); clear H
  end;
  mb_split_hyps; mb_conj; assumption.

(** Either, each on every goal. *)
Ltac mb_step := first [ mb_identity | mb_solve ].

(** A rule instance from its lemma in Rules.v (L, of type S, a generated statement): the instance's
    premises are its own hypotheses; the instance's terms are found by unification. *)
Ltac mb_rule L S :=
  let R := fresh "R" in pose proof L as R; unfold S in R;
  first [ solve [ intros; eapply R; eassumption ] | solve [ intros; apply R ] | solve [ intros; eapply R; eauto ]
        | solve [ intros; eapply R; mb_conj; eassumption ] ].

(** A vector equation read coordinate by coordinate: the guards of the facts discharged, inner
    products rewritten through the vector equations, every vector equation taken at coordinate i,
    each coordinate's equation rewritten into the goal, then ring (or arithmetic).  B_k of the
    second-order perceptron is a function of its argument only up to [veq]: nothing here rewrites
    under it. *)
Ltac mb_rewrite_coords :=
  repeat match goal with
  | H : ?a = ?b |- context [?a] => lazymatch b with context [a] => fail | _ => rewrite H end
  end.

Ltac mb_pointwise :=
  intros; mb_split_hyps; mb_discharge; mb_split_hyps; mb_vec_eqs;
  let i := fresh "i" in let Hi := fresh "Hi" in intros i Hi;
  repeat match goal with H : veq _ _ _ |- _ => specialize (H i Hi) end;
  unfold vadd, vsub, smul, vzero in *; mb_rewrite_coords; first [ ring | lra | nra | (field; nra) ].
