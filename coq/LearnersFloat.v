(** * The learners of Learners.v run in IEEE-754 binary64: Coq's primitive floats ([PrimFloat],
    computed by [vm_compute]) as a [Num].  The comparison with the suite's Python learners
    (coq/differential.py) runs the perceptron's float64 path (every dot product summed in index
    order from 0.0, then the bias added) on inputs that round (1/3, 1/10, ...) against
    [perceptron_run FN]: the same function the theorems speak of, over binary64 instead of the
    reals, so every rounding must fall where the Python learner's falls.  A float is encoded as
    the reduced fraction it is exactly (zero as 0/1, infinities and NaN as 0/0).  Only the
    operations, the comparisons and [FloatOps.Prim2SF] are used, not the axioms of
    [FloatAxioms] (nothing here is a theorem). *)
Require Import Mistakebound.Axioms Mistakebound.Num Mistakebound.Learners Mistakebound.LearnersTrace.
From Coq Require Import PrimFloat FloatOps SpecFloat Uint63.

(** The float num / 2^k, exact for |num| < 2^53 (the inputs are written this way). *)
Definition fl (num : Z) (k : Z) : float :=
  let f := PrimFloat.ldshiftexp (PrimFloat.of_uint63 (Uint63.of_Z (Z.abs num))) (Uint63.of_Z (2101 - k)) in
  if Z.ltb num 0 then PrimFloat.opp f else f.

Definition FN : Num := mkNum float (fl 0 0) (fl 1 0) PrimFloat.add PrimFloat.sub PrimFloat.mul
  (fun x => PrimFloat.div (fl 1 0) x) PrimFloat.leb PrimFloat.ltb.

Definition enc_F (f : float) : list Z :=
  match Prim2SF f with
  | S754_zero _ => (0%Z :: 1%Z :: nil)%list
  | S754_finite s m e =>
      let num := if s then Zneg m else Zpos m in
      if Z.leb 0 e then enc_Q (inject_Z (num * 2 ^ e)%Z) else enc_Q (Qmake num (Z.to_pos (2 ^ (- e))%Z))
  | _ => (0%Z :: 0%Z :: nil)%list
  end.

Definition vecF (l : list float) : nat -> float := fun i => nth i l (fl 0 0).
Definition enc_vecF (d : nat) (v : nat -> float) : list Z := flat_map (fun i => enc_F (v i)) (seq 0 d).

Definition enc_perceptron_F (d : nat) (run : list (pstep FN)) : list Z :=
  flat_map (fun s : pstep FN => enc_F (ps_act s) ++ enc_b (ps_mistake s) ++ enc_vecF d (ps_w s) ++ enc_F (ps_b s)) run.

Definition enc_voted_F (d : nat) (vs : list ((nat -> float) * float * nat)) : list Z :=
  flat_map (fun v : (nat -> float) * float * nat =>
              enc_vecF d (fst (fst v)) ++ enc_F (snd (fst v)) ++ (Z.of_nat (snd v) :: nil)) vs.
