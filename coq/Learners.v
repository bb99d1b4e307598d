(** * The learners, as Coq functions over any [Num] (rationals for [vm_compute], reals for proofs).

    Conventions are the suite's (docs/learners.md): examples are visited in the given order (the
    caller passes the visited sequence, epochs and shuffles already applied); a perceptron mistake
    is y (w.x + b) <= 0 (a tie is a mistake); on a mistake w += y x and, with a bias, b += y.
    Each run returns one record per step: the activation before the update, whether the step was
    a mistake, and the state after the step. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.Num.

(** ** Perceptron (with and without bias) *)
Record pstep (F : Num) := PStep { ps_act : F; ps_mistake : bool; ps_w : nat -> F; ps_b : F }.
Arguments PStep {F}. Arguments ps_act {F}. Arguments ps_mistake {F}. Arguments ps_w {F}. Arguments ps_b {F}.

Definition perc_update (F : Num) (w x : nat -> F) (y : F) : nat -> F := fun i => nadd F (w i) (nmul F y (x i)).

Fixpoint perceptron_run (F : Num) (d : nat) (bias : bool) (w : nat -> F) (b : F)
         (ex : list ((nat -> F) * F)) : list (pstep F) :=
  match ex with
  | nil => nil
  | (x, y) :: rest =>
      let a := nadd F (ndot F d w x) b in
      let m := nle F (nmul F y a) (n0 F) in
      let w' := if m then perc_update F w x y else w in
      let b' := if andb m bias then nadd F b y else b in
      PStep a m w' b' :: perceptron_run F d bias w' b' rest
  end.

Definition count_true {A : Type} (f : A -> bool) (l : list A) : nat := length (filter f l).
Definition perceptron_mistakes {F} (run : list (pstep F)) : nat := count_true ps_mistake run.

(** ** Averaged perceptron: the mean of the weight vectors after each step (or of w_0..w_T). *)
Definition averaged (F : Num) (d : nat) (bias include_initial : bool) (w0 : nat -> F) (b0 : F)
           (ex : list ((nat -> F) * F)) : (nat -> F) * F :=
  let run := perceptron_run F d bias w0 b0 ex in
  let cnt := if include_initial then S (length run) else length run in
  let inv := ninv F (nof_nat F cnt) in
  let sw i := fold_left (fun acc s => nadd F acc (ps_w s i)) run (if include_initial then w0 i else n0 F) in
  let sb := fold_left (fun acc s => nadd F acc (ps_b s)) run (if include_initial then b0 else n0 F) in
  (fun i => nmul F (sw i) inv, nmul F sb inv).

(** ** Voted perceptron (Freund & Schapire): each vector with the number of steps it survived
    (a vector made by a mistake starts at 1, the initial vector at 0); vectors with count 0
    are dropped. *)
Fixpoint voted_acc {F : Num} (run : list (pstep F)) (w : nat -> F) (b : F) (c : nat)
  : list ((nat -> F) * F * nat) :=
  match run with
  | nil => (w, b, c) :: nil
  | s :: rest =>
      if ps_mistake s then (w, b, c) :: voted_acc rest (ps_w s) (ps_b s) 1
      else voted_acc rest w b (S c)
  end.

Definition voted (F : Num) (d : nat) (bias : bool) (w0 : nat -> F) (b0 : F) (ex : list ((nat -> F) * F))
  : list ((nat -> F) * F * nat) :=
  filter (fun v => negb (Nat.eqb (snd v) 0)) (voted_acc (perceptron_run F d bias w0 b0 ex) w0 b0 0).

(** ** Kernel perceptron (dual form): alpha_i is the net signed number of updates on example i;
    f(x) = sum_j alpha_j K(x_j, x) + b.  [strict]: Blum's variant (updates only on y f(x) < 0). *)
Record kstep (F : Num) := KStep { ks_act : F; ks_mistake : bool; ks_alpha : nat -> F; ks_b : F }.
Arguments KStep {F}. Arguments ks_act {F}. Arguments ks_mistake {F}. Arguments ks_alpha {F}. Arguments ks_b {F}.

Definition kernel_activation (F : Num) (n : nat) (K : (nat -> F) -> (nat -> F) -> F) (xs : nat -> nat -> F)
           (alpha : nat -> F) (z : nat -> F) : F :=
  nsum F n (fun j => nmul F (alpha j) (K (xs j) z)).

Fixpoint kperceptron_run (F : Num) (n : nat) (K : (nat -> F) -> (nat -> F) -> F) (xs : nat -> nat -> F)
         (ys : nat -> F) (bias strict : bool) (alpha : nat -> F) (b : F) (order : list nat)
  : list (kstep F) :=
  match order with
  | nil => nil
  | i :: rest =>
      let a := nadd F (kernel_activation F n K xs alpha (xs i)) b in
      let ya := nmul F (ys i) a in
      let m := if strict then nlt F ya (n0 F) else nle F ya (n0 F) in
      let alpha' := if m then (fun j => if Nat.eqb j i then nadd F (alpha j) (ys i) else alpha j) else alpha in
      let b' := if andb m bias then nadd F b (ys i) else b in
      KStep a m alpha' b' :: kperceptron_run F n K xs ys bias strict alpha' b' rest
  end.

Definition linear_kernel (F : Num) (d : nat) (x z : nat -> F) : F := ndot F d x z.
Definition poly_kernel (F : Num) (d : nat) (c : F) (k : nat) (x z : nat -> F) : F :=
  npow F (nadd F c (ndot F d x z)) k.

(** ** Winnow over {0,1}^n: weights start at 1, predict 1 iff w.x >= theta; on a false negative
    the active weights are multiplied by [up] (2), on a false positive by [down]
    (1/2: halving; 0: elimination; 1/alpha: Winnow2). *)
Record wstep (F : Num) := WStep { ws_act : F; ws_pred : bool; ws_mistake : bool; ws_w : nat -> F }.
Arguments WStep {F}. Arguments ws_act {F}. Arguments ws_pred {F}. Arguments ws_mistake {F}. Arguments ws_w {F}.

Definition winnow_act (F : Num) (n : nat) (w : nat -> F) (x : nat -> bool) : F :=
  nsum F n (fun i => if x i then w i else n0 F).

Definition winnow_update (F : Num) (w : nat -> F) (x : nat -> bool) (f : F) : nat -> F :=
  fun i => if x i then nmul F (w i) f else w i.

Fixpoint winnow_run (F : Num) (n : nat) (up down theta : F) (w : nat -> F)
         (ex : list ((nat -> bool) * bool)) : list (wstep F) :=
  match ex with
  | nil => nil
  | (x, lab) :: rest =>
      let a := winnow_act F n w x in
      let p := nle F theta a in
      let m := negb (Bool.eqb p lab) in
      let w' := if m then winnow_update F w x (if lab then up else down) else w in
      WStep a p m w' :: winnow_run F n up down theta w' rest
  end.

Definition winnow_mistakes {F} (run : list (wstep F)) : nat := count_true ws_mistake run.

Definition half (F : Num) : F := ninv F (nadd F (n1 F) (n1 F)).
Definition two (F : Num) : F := nadd F (n1 F) (n1 F).

(** Halving Winnow (Blum's simple version) and the elimination variant, threshold n. *)
Definition winnow_halving (F : Num) (n : nat) (ex : list ((nat -> bool) * bool)) : list (wstep F) :=
  winnow_run F n (two F) (half F) (nof_nat F n) (fun _ => n1 F) ex.
Definition winnow_elimination (F : Num) (n : nat) (ex : list ((nat -> bool) * bool)) : list (wstep F) :=
  winnow_run F n (two F) (n0 F) (nof_nat F n) (fun _ => n1 F) ex.
