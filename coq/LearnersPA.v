(** * The Passive-Aggressive learners (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006), as
    Coq functions over any [Num], with the suite's conventions (learners/passive_aggressive.py):
    the hinge loss l = max(0, 1 - y w.x); the step size tau = 0 when l = 0, else
    l / |x|^2 (PA), min(C, l / |x|^2) (PA-I; C when x = 0) or l / (|x|^2 + 1/(2C)) (PA-II);
    then w += (tau y) x.  A step is a prediction mistake when y w.x <= 0 (a tie is a mistake).
    Each run returns one record per step: the activation, the mistake, the loss, the step size and
    the weights after the step. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.Num.

Inductive pa_variant := PA | PA1 | PA2.

Record pastep (F : Num) := PAStep { pa_act : F; pa_mistake : bool; pa_loss : F; pa_tau : F; pa_w : nat -> F }.
Arguments PAStep {F}. Arguments pa_act {F}. Arguments pa_mistake {F}. Arguments pa_loss {F}.
Arguments pa_tau {F}. Arguments pa_w {F}.

(** max(0, 1 - m) *)
Definition pa_hinge (F : Num) (m : F) : F :=
  let l := nsub F (n1 F) m in if nle F l (n0 F) then n0 F else l.

Definition pa_step_size (F : Num) (v : pa_variant) (C l xx : F) : F :=
  if nle F l (n0 F) then n0 F else
  match v with
  | PA => nmul F l (ninv F xx)
  | PA1 => if nle F xx (n0 F) then C else
           let q := nmul F l (ninv F xx) in if nle F C q then C else q
  | PA2 => nmul F l (ninv F (nadd F xx (ninv F (nadd F C C))))
  end.

Fixpoint pa_run (F : Num) (v : pa_variant) (C : F) (d : nat) (w : nat -> F)
         (ex : list ((nat -> F) * F)) : list (pastep F) :=
  match ex with
  | nil => nil
  | (x, y) :: rest =>
      let a := ndot F d w x in
      let l := pa_hinge F (nmul F y a) in
      let tau := pa_step_size F v C l (ndot F d x x) in
      let w' := fun i => nadd F (w i) (nmul F (nmul F tau y) (x i)) in
      PAStep a (nle F (nmul F y a) (n0 F)) l tau w' :: pa_run F v C d w' rest
  end.

Definition pa_mistakes {F} (run : list (pastep F)) : nat := length (filter pa_mistake run).

(** ** Rationals kept in lowest terms: PA divides at every step, and without [Qred] the numerators
    and denominators of [QN] grow with every step (the suite's Python learner uses reduced
    fractions).  [Qred q] is [q] as a real number, so this is the same run (Q2R_red_hom). *)
Definition QRN : Num := mkNum Q 0%Q 1%Q (fun a b => Qred (a + b)) (fun a b => Qred (a - b))
                              (fun a b => Qred (a * b)) (fun a => Qred (/ a)) Qle_bool Qlt_b.

Lemma Q2R_Qred (q : Q) : Q2R (Qred q) = Q2R q.
Proof. apply Qeq_eqR, Qred_correct. Qed.

Definition Q2R_red_hom : Hom QRN RN.
Proof.
  refine (mkHom QRN RN Q2R _ _ _ _ _ _ _ _); intros; cbn [QRN RN nadd nsub nmul ninv nle nlt n0 n1]; rewrite ?Q2R_Qred.
  - unfold Q2R; simpl; ring.
  - unfold Q2R; simpl; field.
  - exact (Q2R_plus _ _).
  - exact (Q2R_minus _ _).
  - exact (Q2R_mult _ _).
  - exact (Q2R_inv' _).
  - exact (Q2R_le_b _ _).
  - exact (Q2R_lt_b _ _).
Defined.

(** ** The rational run is the real run: [pa_run] commutes with a [Hom] (here [Q2R]). *)
Definition map_pastep {A B : Num} (h : Hom A B) (s : pastep A) : pastep B :=
  PAStep (h (pa_act s)) (pa_mistake s) (h (pa_loss s)) (h (pa_tau s)) (fun i => h (pa_w s i)).

Lemma hom_pa_hinge {A B : Num} (h : Hom A B) m : h (pa_hinge A m) = pa_hinge B (h m).
Proof.
  unfold pa_hinge. replace (nsub B (n1 B) (h m)) with (h (nsub A (n1 A) m)) by (rewrite hsub, h1; reflexivity).
  replace (n0 B) with (h (n0 A)) by apply h0. rewrite (hle h).
  destruct (nle A (nsub A (n1 A) m) (n0 A)); reflexivity.
Qed.

Lemma hom_pa_step_size {A B : Num} (h : Hom A B) v C l xx :
  h (pa_step_size A v C l xx) = pa_step_size B v (h C) (h l) (h xx).
Proof.
  unfold pa_step_size. replace (n0 B) with (h (n0 A)) by apply h0. rewrite !(hle h).
  destruct (nle A l (n0 A)); [reflexivity|].
  destruct v.
  - rewrite hmul, hinv. reflexivity.
  - destruct (nle A xx (n0 A)); [reflexivity|]. cbv zeta.
    replace (nmul B (h l) (ninv B (h xx))) with (h (nmul A l (ninv A xx))) by (rewrite hmul, hinv; reflexivity).
    rewrite (hle h). destruct (nle A C (nmul A l (ninv A xx))); reflexivity.
  - rewrite hmul, hinv, hadd, hinv, hadd. reflexivity.
Qed.

Lemma pa_run_hom {A B : Num} (h : Hom A B) v C d w ex :
  pa_run B v (h C) d (fun i => h (w i)) (map (fun e => (fun i => h (fst e i), h (snd e))) ex)
  = map (map_pastep h) (pa_run A v C d w ex).
Proof.
  revert w. induction ex as [|[x y] rest IH]; intros w; simpl; [reflexivity|].
  rewrite <- (hom_ndot h), <- (hmul h), <- (hom_pa_hinge h), <- (hom_ndot h), <- (hom_pa_step_size h).
  replace (n0 B) with (h (n0 A)) by apply h0. rewrite (hle h).
  assert (U : (fun i => nadd B (h (w i)) (nmul B (nmul B (h (pa_step_size A v C (pa_hinge A (nmul A y (ndot A d w x)))
                                                                     (ndot A d x x))) (h y)) (h (x i))))
              = (fun i => h (nadd A (w i) (nmul A (nmul A (pa_step_size A v C (pa_hinge A (nmul A y (ndot A d w x)))
                                                                             (ndot A d x x)) y) (x i))))).
  { apply functional_extensionality; intro i. rewrite hadd, !hmul. reflexivity. }
  rewrite U, IH. reflexivity.
Qed.
