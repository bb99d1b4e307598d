(** * The Littlestone dimension of a finite class and the Standard Optimal Algorithm (Littlestone
    1988, section 3), computable ([vm_compute]).  A class is a list of hypotheses (points to labels
    +1 / -1) over a finite domain [dom]; [ldim dom V] follows the recursion of
    learners/littlestone.py -- -1 for the empty class, else the best 1 + min(Ldim(V_x^+), Ldim(V_x^-))
    over the points x of [dom] that split V (0 if none) -- run with as much fuel as V has
    hypotheses, which is enough ([ldim_fuel_any]).  It is monotone under taking a sub-class
    ([ldim_monotone]) and meets its recursion ([ldim_split]); SOA predicts the side of larger
    dimension (a tie predicts +1, as [learners.run_soa]) and keeps the hypotheses that agree with
    the label, so a mistake lowers the dimension of the version space by one:
    [soa_mistake_bound], at most Ldim(H) mistakes on any sequence over [dom] a hypothesis of H
    labels. *)
Require Import Coq.Arith.Arith Coq.ZArith.ZArith Coq.Lists.List Coq.Bool.Bool Lia.
Import ListNotations.

Definition hyp := nat -> Z.
Definition side (x : nat) (y : Z) (h : hyp) : bool := Z.eqb (h x) y.
Definition restrict (V : list hyp) (x : nat) (y : Z) : list hyp := filter (side x y) V.
Definition nonempty {A} (l : list A) : bool := match l with [] => false | _ => true end.

Definition split_value (rec : list hyp -> Z) (V : list hyp) (x : nat) : Z :=
  let a := restrict V x 1 in let b := restrict V x (-1) in
  if nonempty a && nonempty b then 1 + Z.min (rec a) (rec b) else 0.

Fixpoint ldim_f (k : nat) (dom : list nat) (V : list hyp) : Z :=
  match V with
  | [] => (-1)%Z
  | _ => match k with
         | 0 => 0%Z
         | S k' => fold_right Z.max 0%Z (map (split_value (ldim_f k' dom) V) dom)
         end
  end.

Lemma fold_max_ge0 (l : list Z) : (0 <= fold_right Z.max 0%Z l)%Z.
Proof. induction l as [|a l IH]; simpl; lia. Qed.

Lemma fold_max_mono {A} (g g' : A -> Z) (dom : list A) :
  (forall x, In x dom -> (g x <= g' x)%Z) -> (fold_right Z.max 0%Z (map g dom) <= fold_right Z.max 0%Z (map g' dom))%Z.
Proof.
  induction dom as [|a dom IH]; intros H; simpl; [lia|].
  pose proof (H a (or_introl eq_refl)). pose proof (IH (fun x Hx => H x (or_intror Hx))). lia.
Qed.

Lemma fold_max_term {A} (g : A -> Z) (dom : list A) x : In x dom -> (g x <= fold_right Z.max 0%Z (map g dom))%Z.
Proof.
  induction dom as [|a dom IH]; intros H; [destruct H|]. simpl. destruct H as [->|H]; [lia|]. specialize (IH H). lia.
Qed.

Lemma fold_max_ext {A} (g g' : A -> Z) (dom : list A) :
  (forall x, In x dom -> g x = g' x) -> fold_right Z.max 0%Z (map g dom) = fold_right Z.max 0%Z (map g' dom).
Proof. intros H. f_equal. apply map_ext_in. exact H. Qed.

Lemma ldim_nil k dom : ldim_f k dom [] = (-1)%Z.
Proof. destruct k; reflexivity. Qed.

Lemma ldim_ge k dom V : (-1 <= ldim_f k dom V)%Z.
Proof. destruct V; [rewrite ldim_nil; lia|]. destruct k; simpl; [lia|]. pose proof (fold_max_ge0 (map (split_value (ldim_f k dom) (h :: V)) dom)). lia. Qed.

Lemma ldim_nonneg k dom V : V <> [] -> (0 <= ldim_f k dom V)%Z.
Proof.
  intros N. destruct V as [|h V]; [contradiction|]. destruct k; simpl; [lia|]. apply fold_max_ge0.
Qed.

Lemma nonempty_true {A} (l : list A) : nonempty l = true <-> l <> [].
Proof. destruct l; simpl; split; intros H; try congruence; discriminate. Qed.

Lemma filter_comm (f g : hyp -> bool) (V : list hyp) : filter f (filter g V) = filter g (filter f V).
Proof.
  induction V as [|h V IH]; [reflexivity|]. simpl.
  destruct (g h) eqn:G, (f h) eqn:F; simpl; rewrite ?G, ?F, IH; reflexivity.
Qed.

Lemma filter_nil_sub (f : hyp -> bool) V : V = [] -> filter f V = [].
Proof. intros ->. reflexivity. Qed.

Lemma split_value_nonneg k dom V x : (0 <= split_value (ldim_f k dom) V x)%Z.
Proof.
  unfold split_value. destruct (nonempty (restrict V x 1)) eqn:A, (nonempty (restrict V x (-1))) eqn:B; cbn [andb]; try lia.
  apply nonempty_true in A, B. pose proof (ldim_nonneg k dom _ A). pose proof (ldim_nonneg k dom _ B). lia.
Qed.

(** monotone under taking a sub-class, at a fixed fuel *)
Lemma ldim_mono k dom : forall (f : hyp -> bool) V, (ldim_f k dom (filter f V) <= ldim_f k dom V)%Z.
Proof.
  induction k as [|k IH]; intros f V.
  - destruct V as [|h V]; [simpl; lia|]. destruct (filter f (h :: V)) eqn:E; simpl; lia.
  - destruct V as [|h V]; [simpl; lia|]. destruct (filter f (h :: V)) as [|h' V'] eqn:E.
    { rewrite ldim_nil. pose proof (ldim_ge (S k) dom (h :: V)). lia. }
    rewrite <- E. change (ldim_f (S k) dom (h :: V)) with
      (fold_right Z.max 0%Z (map (split_value (ldim_f k dom) (h :: V)) dom)).
    replace (ldim_f (S k) dom (filter f (h :: V))) with
      (fold_right Z.max 0%Z (map (split_value (ldim_f k dom) (filter f (h :: V))) dom)) by (rewrite E; reflexivity).
    apply fold_max_mono. intros x _. unfold split_value at 1. unfold restrict.
    rewrite !(filter_comm _ f).
    destruct (nonempty (filter f (filter (side x 1) (h :: V)))) eqn:A, (nonempty (filter f (filter (side x (-1)) (h :: V)))) eqn:B;
      cbn [andb]; try apply split_value_nonneg.
    unfold split_value, restrict.
    assert (A' : nonempty (filter (side x 1) (h :: V)) = true).
    { apply nonempty_true. intros Z. apply nonempty_true in A. apply A. rewrite Z. reflexivity. }
    assert (B' : nonempty (filter (side x (-1)) (h :: V)) = true).
    { apply nonempty_true. intros Z. apply nonempty_true in B. apply B. rewrite Z. reflexivity. }
    rewrite A', B'. cbn [andb].
    pose proof (IH f (filter (side x 1) (h :: V))). pose proof (IH f (filter (side x (-1)) (h :: V))). lia.
Qed.

Lemma filter_length_le (f : hyp -> bool) V : (length (filter f V) <= length V)%nat.
Proof. induction V as [|h V IH]; simpl; [lia|]. destruct (f h); simpl; lia. Qed.

Lemma sides_length x V : (length (restrict V x 1) + length (restrict V x (-1)) <= length V)%nat.
Proof.
  unfold restrict, side. induction V as [|h V IH]; simpl; [lia|].
  destruct (Z.eqb_spec (h x) 1) as [E|E]; destruct (Z.eqb_spec (h x) (-1)) as [E'|E']; simpl; try lia.
Qed.

Lemma length_pos {A} (l : list A) : l <> [] -> (1 <= length l)%nat.
Proof. destruct l; simpl; [congruence | lia]. Qed.

(** more fuel than the class has hypotheses changes nothing *)
Lemma ldim_fuel dom : forall k V, (length V <= k)%nat -> ldim_f k dom V = ldim_f (S k) dom V.
Proof.
  induction k as [|k IH]; intros V L.
  - destruct V; [reflexivity | simpl in L; lia].
  - destruct V as [|h V]; [reflexivity|].
    change (fold_right Z.max 0%Z (map (split_value (ldim_f k dom) (h :: V)) dom) =
            fold_right Z.max 0%Z (map (split_value (ldim_f (S k) dom) (h :: V)) dom)).
    apply fold_max_ext. intros x _. unfold split_value.
    destruct (nonempty (restrict (h :: V) x 1)) eqn:A, (nonempty (restrict (h :: V) x (-1))) eqn:B; cbn [andb];
      try reflexivity.
    apply nonempty_true in A, B. pose proof (sides_length x (h :: V)). pose proof (length_pos _ A).
    pose proof (length_pos _ B). rewrite (IH (restrict (h :: V) x 1)), (IH (restrict (h :: V) x (-1))) by (simpl in *; lia).
    reflexivity.
Qed.

Lemma ldim_fuel_ge dom V : forall j, ldim_f (length V + j) dom V = ldim_f (length V) dom V.
Proof.
  induction j as [|j IH]; [rewrite Nat.add_0_r; reflexivity|].
  rewrite Nat.add_succ_r, <- ldim_fuel by lia. exact IH.
Qed.

Lemma ldim_fuel_any dom V k : (length V <= k)%nat -> ldim_f k dom V = ldim_f (length V) dom V.
Proof. intros L. replace k with (length V + (k - length V))%nat by lia. apply ldim_fuel_ge. Qed.

(** The Littlestone dimension of a version space over the domain [dom]. *)
Definition ldim (dom : list nat) (V : list hyp) : Z := ldim_f (length V) dom V.

Lemma ldim_monotone dom (f : hyp -> bool) V : (ldim dom (filter f V) <= ldim dom V)%Z.
Proof.
  unfold ldim. rewrite <- (ldim_fuel_any dom (filter f V) (length V)) by apply filter_length_le.
  apply ldim_mono.
Qed.

Lemma ldim_split dom V x : In x dom -> restrict V x 1 <> [] -> restrict V x (-1) <> [] ->
  (1 + Z.min (ldim dom (restrict V x 1)) (ldim dom (restrict V x (-1))) <= ldim dom V)%Z.
Proof.
  intros D A B. pose proof (sides_length x V). pose proof (length_pos _ A). pose proof (length_pos _ B).
  unfold ldim. destruct V as [|h V]; [simpl in *; lia|].
  remember (length (h :: V)) as k eqn:K. simpl in K. subst k.
  change (ldim_f (S (length V)) dom (h :: V)) with
    (fold_right Z.max 0%Z (map (split_value (ldim_f (length V) dom) (h :: V)) dom)).
  eapply Z.le_trans; [|apply (fold_max_term _ _ x D)]. unfold split_value.
  apply nonempty_true in A, B. rewrite A, B. cbn [andb]. apply nonempty_true in A, B.
  rewrite (ldim_fuel_any dom (restrict (h :: V) x 1) (length V)), (ldim_fuel_any dom (restrict (h :: V) x (-1)) (length V))
    by (simpl in *; lia).
  lia.
Qed.

Lemma ldim_nonempty dom V : V <> [] -> (0 <= ldim dom V)%Z.
Proof. apply ldim_nonneg. Qed.

Lemma ldim_empty dom : ldim dom [] = (-1)%Z.
Proof. reflexivity. Qed.

(** ** The Standard Optimal Algorithm: predict the side of larger dimension (a tie predicts +1),
    keep the hypotheses that agree with the label. *)
Definition soa_predict (dom : list nat) (V : list hyp) (x : nat) : Z :=
  if Z.leb (ldim dom (restrict V x (-1))) (ldim dom (restrict V x 1)) then 1%Z else (-1)%Z.

Fixpoint soa_mistakes (dom : list nat) (V : list hyp) (ex : list (nat * Z)) : nat :=
  match ex with
  | [] => 0
  | (x, y) :: rest => (if Z.eqb (soa_predict dom V x) y then 0 else 1) + soa_mistakes dom (restrict V x y) rest
  end.

Lemma soa_run dom : forall ex V h, In h V -> (forall e, In e ex -> h (fst e) = snd e) ->
  (forall e, In e ex -> In (fst e) dom /\ (snd e = 1 \/ snd e = -1)%Z) ->
  (Z.of_nat (soa_mistakes dom V ex) <= ldim dom V)%Z.
Proof.
  induction ex as [|[x y] ex IH]; intros V h Hh Hc Hd.
  - simpl. apply ldim_nonempty. intros E. rewrite E in Hh. destruct Hh.
  - simpl. assert (Hy : h x = y) by exact (Hc (x, y) (or_introl eq_refl)).
    destruct (Hd (x, y) (or_introl eq_refl)) as [Dx Yv]. simpl in Dx, Yv.
    assert (In' : In h (restrict V x y)) by (apply filter_In; split; [exact Hh | unfold side; rewrite Hy; apply Z.eqb_refl]).
    pose proof (IH (restrict V x y) h In' (fun e He => Hc e (or_intror He)) (fun e He => Hd e (or_intror He))) as R.
    assert (Ny : restrict V x y <> []) by (intros E; rewrite E in In'; destruct In').
    pose proof (ldim_nonempty dom _ Ny) as Ly.
    destruct (Z.eqb (soa_predict dom V x) y) eqn:P.
    + pose proof (ldim_monotone dom (side x y) V). unfold restrict in *. rewrite Nat.add_0_l. lia.
    + unfold soa_predict in P. destruct (Z.leb_spec (ldim dom (restrict V x (-1))) (ldim dom (restrict V x 1))) as [S|S].
      * destruct Yv as [-> | ->]; [discriminate P|].
        assert (N1 : restrict V x 1 <> []) by (intros E; rewrite E, ldim_empty in S; lia).
        pose proof (ldim_split dom V x Dx N1 Ny). rewrite Nat2Z.inj_add. simpl Z.of_nat. lia.
      * destruct Yv as [-> | ->]; [|discriminate P].
        assert (N1 : restrict V x (-1) <> []) by (intros E; rewrite E, ldim_empty in S; lia).
        pose proof (ldim_split dom V x Dx Ny N1). rewrite Nat2Z.inj_add. simpl Z.of_nat. lia.
Qed.

(** SOA on a sequence over [dom] that a hypothesis of H labels: at most Ldim(H) mistakes. *)
Theorem soa_mistake_bound (dom : list nat) (H : list hyp) (ex : list (nat * Z)) (h : hyp) :
  In h H -> (forall e, In e ex -> h (fst e) = snd e) ->
  (forall e, In e ex -> In (fst e) dom /\ (snd e = 1 \/ snd e = -1)%Z) ->
  (Z.of_nat (soa_mistakes dom H ex) <= ldim dom H)%Z.
Proof. apply soa_run. Qed.

(** the thresholds x >= k on 4 points (k = 0..4): Ldim 2 = floor(lg 5), as learners.littlestone
    computes; SOA errs twice on the sequence labelled by x >= 3 (run_soa likewise) *)
Definition threshold (k : nat) : hyp := fun x => if Nat.leb k x then 1%Z else (-1)%Z.
Example thresholds_ldim : ldim [0; 1; 2; 3]%nat (map threshold [0; 1; 2; 3; 4]%nat) = 2%Z.
Proof. vm_compute. reflexivity. Qed.
Example thresholds_soa : soa_mistakes [0; 1; 2; 3]%nat (map threshold [0; 1; 2; 3; 4]%nat)
  [(1%nat, (-1)%Z); (3%nat, 1%Z); (2%nat, (-1)%Z)] = 2%nat.
Proof. vm_compute. reflexivity. Qed.
