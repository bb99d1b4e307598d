(** * Every deterministic online algorithm errs d times on a class with a shattered tree of depth d
    (Littlestone 1988, section 3: the Littlestone dimension is a lower bound for every learner).
    A mistake tree of depth d is complete, every internal node a point of the domain, and it is
    shattered by a class H (a list of hypotheses, points to labels +1 / -1) when every root-to-leaf
    path -- the points along it, labelled by the branches taken -- is some hypothesis's labelling.
    The adversary walks down the tree and labels each point against the algorithm's prediction:
    d mistakes, on a sequence some hypothesis of H labels.  (learners/littlestone.py finds such a
    tree of depth Ldim(H) for a finite class; adversary/littlestone_worst.py certifies it on the
    truth table and plays the same adversary.) *)
Require Import Coq.Arith.Arith Coq.ZArith.ZArith Coq.Lists.List Lia.
Import ListNotations.

Definition example := (nat * Z)%type.
Definition algorithm := list example -> nat -> Z.

Fixpoint mistakes (alg : algorithm) (hist : list example) (ex : list example) : nat :=
  match ex with
  | [] => 0
  | (x, y) :: rest => (if Z.eqb (alg hist x) y then 0 else 1) + mistakes alg (hist ++ [(x, y)]) rest
  end.

Definition consistent (h : nat -> Z) (ex : list example) : Prop := forall e, In e ex -> h (fst e) = snd e.
Definition realizable (H : list (nat -> Z)) (ex : list example) : Prop := exists h, In h H /\ consistent h ex.

Inductive tree : Type := Leaf | Node (x : nat) (plus minus : tree).

Fixpoint complete (t : tree) (d : nat) {struct d} : Prop :=
  match d, t with
  | 0, _ => True
  | S d', Node _ tp tm => complete tp d' /\ complete tm d'
  | S _, Leaf => False
  end.

Fixpoint paths (t : tree) (d : nat) {struct d} : list (list example) :=
  match d, t with
  | 0, _ => [[]]
  | S d', Node x tp tm => map (cons (x, 1%Z)) (paths tp d') ++ map (cons (x, (-1)%Z)) (paths tm d')
  | S _, Leaf => []
  end.

Definition shattered (H : list (nat -> Z)) (t : tree) (d : nat) : Prop :=
  complete t d /\ forall p, In p (paths t d) -> realizable H p.

(** the label against a prediction: -1 against +1, +1 against anything else *)
Definition against (p : Z) : Z := if Z.eqb p 1 then (-1)%Z else 1%Z.

Lemma against_differs p : Z.eqb p (against p) = false.
Proof. unfold against. destruct (Z.eqb_spec p 1) as [->|N]; [reflexivity|]. apply Z.eqb_neq. exact N. Qed.

Lemma walk (alg : algorithm) (H : list (nat -> Z)) : forall d t hist,
  complete t d -> (forall p, In p (paths t d) -> realizable H (hist ++ p)) ->
  exists ex, length ex = d /\ realizable H (hist ++ ex) /\ mistakes alg hist ex = d.
Proof.
  induction d as [|d IH]; intros t hist C R.
  - exists []. split; [reflexivity|]. split; [exact (R [] (or_introl eq_refl)) | reflexivity].
  - destruct t as [|x tp tm]; [destruct C|]. destruct C as [Cp Cm].
    set (y := against (alg hist x)).
    assert (Step : exists ex, length ex = d /\ realizable H ((hist ++ [(x, y)]) ++ ex) /\
                              mistakes alg (hist ++ [(x, y)]) ex = d).
    { unfold y, against. destruct (Z.eqb (alg hist x) 1).
      - apply (IH tm); [exact Cm|]. intros p Hp. rewrite <- app_assoc. apply R. simpl.
        apply in_or_app. right. apply in_map. exact Hp.
      - apply (IH tp); [exact Cp|]. intros p Hp. rewrite <- app_assoc. apply R. simpl.
        apply in_or_app. left. apply in_map. exact Hp. }
    destruct Step as (ex & L & Rz & M). exists ((x, y) :: ex). split; [simpl; lia|].
    split; [rewrite <- app_assoc in Rz; exact Rz|]. simpl. unfold y. rewrite against_differs.
    fold y. rewrite M. reflexivity.
Qed.

Theorem ldim_lower_bound (alg : algorithm) (H : list (nat -> Z)) (t : tree) (d : nat) :
  shattered H t d -> exists ex, length ex = d /\ realizable H ex /\ mistakes alg [] ex = d.
Proof. intros [C R]. apply (walk alg H d t [] C). exact R. Qed.

(** a small instance, computed: the thresholds x >= k on 4 points (k = 0..4) shatter the tree that
    searches for k -- depth 2 = floor(lg 5) *)
Definition threshold (k : nat) : nat -> Z := fun x => if Nat.leb k x then 1%Z else (-1)%Z.
Example thresholds_depth_2 : paths (Node 1 (Node 0 Leaf Leaf) (Node 2 Leaf Leaf)) 2 =
  [[(1, 1%Z); (0, 1%Z)]; [(1, 1%Z); (0, (-1)%Z)]; [(1, (-1)%Z); (2, 1%Z)]; [(1, (-1)%Z); (2, (-1)%Z)]]%nat.
Proof. reflexivity. Qed.
