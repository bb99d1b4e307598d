(** * Traces of the rational runs as flat lists of integers, for the comparison with the suite's
    exact Python learners (tests/coq/test_coq_differential.py): a rational is its reduced numerator and
    denominator, a Boolean 0 or 1. *)
Require Import Mistakebound.Axioms Mistakebound.Num Mistakebound.Learners Mistakebound.LearnersPA.

Definition enc_Q (q : Q) : list Z := let r := Qred q in (Qnum r :: Zpos (Qden r) :: nil)%list.
Definition enc_b (b : bool) : list Z := ((if b then 1 else 0)%Z :: nil)%list.
Definition enc_vec (d : nat) (v : nat -> Q) : list Z := flat_map (fun i => enc_Q (v i)) (seq 0 d).

Definition vecQ (l : list Q) : nat -> Q := fun i => nth i l 0%Q.
Definition vecB (l : list bool) : nat -> bool := fun i => nth i l false.

(** Perceptron: per step activation, mistake, weights after, bias after. *)
Definition enc_perceptron (d : nat) (run : list (pstep QN)) : list Z :=
  flat_map (fun s : pstep QN => enc_Q (ps_act s) ++ enc_b (ps_mistake s) ++ enc_vec d (ps_w s) ++ enc_Q (ps_b s)) run.

Definition enc_averaged (d : nat) (wb : (nat -> Q) * Q) : list Z := enc_vec d (fst wb) ++ enc_Q (snd wb).

Definition enc_voted (d : nat) (vs : list ((nat -> Q) * Q * nat)) : list Z :=
  flat_map (fun v : (nat -> Q) * Q * nat => enc_vec d (fst (fst v)) ++ enc_Q (snd (fst v)) ++ (Z.of_nat (snd v) :: nil)) vs.

(** Kernel perceptron: per step activation, mistake, coefficients alpha after, bias after. *)
Definition enc_kperceptron (n : nat) (run : list (kstep QN)) : list Z :=
  flat_map (fun s : kstep QN => enc_Q (ks_act s) ++ enc_b (ks_mistake s) ++ enc_vec n (ks_alpha s) ++ enc_Q (ks_b s)) run.

(** Winnow: per step activation, prediction, mistake, weights after. *)
Definition enc_winnow (n : nat) (run : list (wstep QN)) : list Z :=
  flat_map (fun s : wstep QN => enc_Q (ws_act s) ++ enc_b (ws_pred s) ++ enc_b (ws_mistake s) ++ enc_vec n (ws_w s)) run.

(** Passive-Aggressive: per step activation, mistake, loss, step size, weights after. *)
Definition enc_pa (d : nat) (run : list (pastep QRN)) : list Z :=
  flat_map (fun s : pastep QRN => enc_Q (pa_act s) ++ enc_b (pa_mistake s) ++ enc_Q (pa_loss s) ++ enc_Q (pa_tau s)
                                 ++ enc_vec d (pa_w s)) run.

(** What an estimator keeps after [fit] (coef_ / dual_coef_, intercept_, mistakes_): the state after
    the last step (the start when there is none) and the number of mistakes. *)
Definition enc_final_perceptron (d : nat) (run : list (pstep QN)) : list Z :=
  let s := last run (@PStep QN 0%Q false (fun _ => 0%Q) 0%Q) in
  enc_vec d (ps_w s) ++ enc_Q (ps_b s) ++ (Z.of_nat (perceptron_mistakes run) :: nil).

Definition enc_final_kperceptron (n : nat) (alpha0 : nat -> Q) (run : list (kstep QN)) : list Z :=
  let s := last run (@KStep QN 0%Q false alpha0 0%Q) in
  enc_vec n (ks_alpha s) ++ enc_Q (ks_b s) ++ (Z.of_nat (count_true ks_mistake run) :: nil).

Definition enc_final_winnow (n : nat) (run : list (wstep QN)) : list Z :=
  let s := last run (@WStep QN 0%Q false false (fun _ => 1%Q)) in
  enc_vec n (ws_w s) ++ (Z.of_nat (winnow_mistakes run) :: nil).

Definition enc_final_pa (d : nat) (run : list (pastep QRN)) : list Z :=
  let s := last run (@PAStep QRN 0%Q false 0%Q 0%Q (fun _ => 0%Q)) in
  enc_vec d (pa_w s) ++ (Z.of_nat (count_true pa_mistake run) :: nil).

Fixpoint list_Z_eqb (a b : list Z) : bool :=
  match a, b with
  | nil, nil => true
  | x :: a', y :: b' => Z.eqb x y && list_Z_eqb a' b'
  | _, _ => false
  end.
