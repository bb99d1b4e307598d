(** * Weighted Majority (Littlestone & Warmuth 1994) over the rationals, computable by
    [vm_compute]; Halving is the penalty beta = 0.  Every expert starts with weight 1; a step
    predicts the label whose experts carry more weight (a tie predicts +1) and multiplies the weight
    of every expert that was wrong by beta.  [wm_trace] flattens the run the way the suite's Python
    learner is flattened for the comparison (coq/differential.py): per step, W(+1) - W(-1) as a
    reduced fraction, the prediction, the mistake flag, and every weight after the step.
    It needs no real numbers: it requires the rationals and integers only, not Axioms.v (whose
    reals and Psatz are most of a coqc run's loading). *)
Require Import QArith ZArith List Lia.
Import ListNotations.
Open Scope Q_scope.

(** W(+1) - W(-1), one addition at a time in index order. *)
Definition wm_activation (w : list Q) (row : list Z) : Q :=
  fold_left (fun acc p => if Z.eqb (snd p) 1 then acc + fst p else acc - fst p) (combine w row) 0.

Definition wm_predict (w : list Q) (row : list Z) : Z :=
  if Qle_bool 0 (wm_activation w row) then 1%Z else (-1)%Z.

(** The penalty: every expert whose advice differs from the label loses the factor beta. *)
Definition wm_update (beta : Q) (w : list Q) (row : list Z) (y : Z) : list Q :=
  map (fun p => if Z.eqb (snd p) y then fst p else fst p * beta) (combine w row).

Fixpoint wm_weights (beta : Q) (w : list Q) (ex : list (list Z * Z)) : list Q :=
  match ex with
  | [] => w
  | (row, y) :: rest => wm_weights beta (wm_update beta w row y) rest
  end.

Fixpoint wm_mistakes (beta : Q) (w : list Q) (ex : list (list Z * Z)) : nat :=
  match ex with
  | [] => 0
  | (row, y) :: rest =>
      (if Z.eqb (wm_predict w row) y then 0 else 1) + wm_mistakes beta (wm_update beta w row y) rest
  end.

Definition qenc (q : Q) : list Z := let r := Qred q in [Qnum r; Zpos (Qden r)].

Fixpoint wm_trace (beta : Q) (w : list Q) (ex : list (list Z * Z)) : list Z :=
  match ex with
  | [] => []
  | (row, y) :: rest =>
      let p := wm_predict w row in
      let w' := wm_update beta w row y in
      qenc (wm_activation w row) ++ [p; if Z.eqb p y then 0%Z else 1%Z] ++ flat_map qenc w'
        ++ wm_trace beta w' rest
  end.

(** The mistakes of expert j alone (its advice is column j of every row). *)
Fixpoint expert_mistakes (j : nat) (ex : list (list Z * Z)) : nat :=
  match ex with
  | [] => 0
  | (row, y) :: rest => (if Z.eqb (nth j row 0%Z) y then 0 else 1) + expert_mistakes j rest
  end.

(** Randomized Weighted Majority (Littlestone & Warmuth 1994, section 5) keeps the same weights and
    predicts with an expert drawn by weight: its expected number of mistakes is the sum over the
    steps of the fraction of the weight on the wrong experts. *)
Definition wm_total (w : list Q) : Q := fold_right Qplus 0 w.
Definition wm_wrong (w : list Q) (row : list Z) (y : Z) : Q :=
  fold_right (fun p acc => (if Z.eqb (snd p) y then 0 else fst p) + acc) 0 (combine w row).

Fixpoint rwm_expected (beta : Q) (w : list Q) (ex : list (list Z * Z)) : Q :=
  match ex with
  | [] => 0
  | (row, y) :: rest => wm_wrong w row y / wm_total w + rwm_expected beta (wm_update beta w row y) rest
  end.

(** The run from weight 1 on each of n experts. *)
Definition wm_start (n : nat) : list Q := repeat 1 n.

(** Halving keeps exactly the experts consistent with every label so far: with beta = 0 the
    weights after a run are 1 on those and 0 elsewhere (a small check by computation). *)
Example halving_two_experts :
  wm_weights 0 (wm_start 2) [([1%Z; (-1)%Z], 1%Z); ([1%Z; 1%Z], (-1)%Z)] = [0; 0].
Proof. vm_compute. reflexivity. Qed.

Example wm_half : wm_mistakes (1 # 2) (wm_start 3)
  [([1%Z; (-1)%Z; 1%Z], 1%Z); ([1%Z; 1%Z; (-1)%Z], (-1)%Z); ([(-1)%Z; 1%Z; 1%Z], 1%Z)] = 1%nat.
Proof. vm_compute. reflexivity. Qed.
