(** * No online algorithm beats r lg(n/r) on r-literal monotone disjunctions (Littlestone 1988,
    section 7; Blum's 15-859 notes): for every deterministic online algorithm -- any function from
    the history of labelled examples and the next example to a prediction -- and n = r 2^l, there
    is a sequence of r l examples over the n variables, labelled by a monotone disjunction of r of
    them, on which it errs every time.  The adversary splits the variables into r blocks of 2^l
    and runs a binary search in each: it shows the left half of the block's remaining interval,
    labels the example against the prediction, and keeps the half that label says holds the
    block's literal.  (adversary/unit_worst.py, [disjunction_forcing], runs the same adversary
    against Winnow and certifies the sequences exactly.) *)
Require Import Coq.Arith.Arith Coq.Lists.List Coq.Bool.Bool Lia.
Import ListNotations.

Definition example := ((nat -> bool) * bool)%type.
Definition algorithm := list example -> (nat -> bool) -> bool.

(** the algorithm's mistakes on [ex], after the history [hist] *)
Fixpoint mistakes (alg : algorithm) (hist : list example) (ex : list example) : nat :=
  match ex with
  | [] => 0
  | (x, y) :: rest => (if Bool.eqb (alg hist x) y then 0 else 1) + mistakes alg (hist ++ [(x, y)]) rest
  end.

(** the monotone disjunction of the variables in [target] *)
Definition disjunction (target : list nat) (x : nat -> bool) : bool := existsb x target.

Lemma mistakes_app (alg : algorithm) (e1 : list example) : forall hist e2,
  mistakes alg hist (e1 ++ e2) = mistakes alg hist e1 + mistakes alg (hist ++ e1) e2.
Proof.
  induction e1 as [|[x y] e1 IH]; intros hist e2; simpl; [rewrite app_nil_r; reflexivity|].
  rewrite IH, <- app_assoc. simpl. lia.
Qed.

(** The binary search in one interval [lo, lo + 2^k): the examples and the variable left. *)
Fixpoint search (alg : algorithm) (hist : list example) (lo k : nat) : list example * nat :=
  match k with
  | 0 => ([], lo)
  | S k' =>
      let x := fun i => (lo <=? i) && (i <? lo + 2 ^ k') in
      let y := negb (alg hist x) in
      let lo' := if y then lo else lo + 2 ^ k' in
      let (rest, fin) := search alg (hist ++ [(x, y)]) lo' k' in
      ((x, y) :: rest, fin)
  end.

Lemma search_props (alg : algorithm) (k : nat) : forall hist lo,
  let (ex, fin) := search alg hist lo k in
  length ex = k /\ lo <= fin < lo + 2 ^ k /\ mistakes alg hist ex = k /\
  (forall x y, In (x, y) ex -> (forall i, x i = true -> lo <= i < lo + 2 ^ k) /\ y = x fin).
Proof.
  induction k as [|k IH]; intros hist lo; simpl.
  - split; [reflexivity|split; [lia|split; [reflexivity|intros x y []]]].
  - set (x := fun i => (lo <=? i) && (i <? lo + 2 ^ k)). set (y := negb (alg hist x)).
    set (lo' := if y then lo else lo + 2 ^ k).
    specialize (IH (hist ++ [(x, y)]) lo'). destruct (search alg (hist ++ [(x, y)]) lo' k) as [rest fin].
    destruct IH as (L & F & Mk & Ex).
    assert (Hlo : lo <= lo' /\ lo' + 2 ^ k <= lo + 2 ^ k + 2 ^ k) by (unfold lo'; destruct y; lia).
    split; [simpl; lia|split; [lia|split]].
    + simpl. rewrite Mk. unfold y. destruct (alg hist x); reflexivity.
    + intros x0 y0 [E|H].
      * inversion E; subst x0 y0. split.
        -- intros i Hi. unfold x in Hi. apply andb_prop in Hi as [A B].
           apply Nat.leb_le in A. apply Nat.ltb_lt in B. lia.
        -- unfold x. destruct y eqn:Ey; unfold lo' in F; symmetry.
           ++ apply andb_true_intro. split; [apply Nat.leb_le|apply Nat.ltb_lt]; lia.
           ++ apply andb_false_intro2. apply Nat.ltb_ge. lia.
      * destruct (Ex x0 y0 H) as [A B]. split; [|exact B]. intros i Hi. specialize (A i Hi). lia.
Qed.

(** r blocks of 2^l variables from block b on; the examples and the literal left in each block. *)
Fixpoint adversary (alg : algorithm) (hist : list example) (b r l : nat) : list example * list nat :=
  match r with
  | 0 => ([], [])
  | S r' =>
      let (e1, f) := search alg hist (b * 2 ^ l) l in
      let (e2, fs) := adversary alg (hist ++ e1) (S b) r' l in
      (e1 ++ e2, f :: fs)
  end.

Lemma adversary_props (alg : algorithm) (l r : nat) : forall hist b,
  let (ex, target) := adversary alg hist b r l in
  length ex = r * l /\ length target = r /\ mistakes alg hist ex = r * l /\
  (forall c, c < r -> (b + c) * 2 ^ l <= nth c target 0 < (b + c + 1) * 2 ^ l) /\
  (forall f, In f target -> b * 2 ^ l <= f < (b + r) * 2 ^ l) /\
  (forall x y, In (x, y) ex -> (forall i, x i = true -> b * 2 ^ l <= i < (b + r) * 2 ^ l) /\ y = disjunction target x).
Proof.
  induction r as [|r IH]; intros hist b; simpl.
  - repeat split; try lia; intros; exfalso; lia || tauto.
  - pose proof (search_props alg l hist (b * 2 ^ l)) as Sr.
    destruct (search alg hist (b * 2 ^ l) l) as [e1 f].
    specialize (IH (hist ++ e1) (S b)). destruct (adversary alg (hist ++ e1) (S b) r l) as [e2 fs].
    destruct Sr as (L1 & F1 & M1 & E1). destruct IH as (L2 & T2 & M2 & N2 & F2 & E2).
    assert (P : 2 ^ l * S b = b * 2 ^ l + 2 ^ l) by lia.
    split; [rewrite app_length; lia|split; [simpl; lia|split; [rewrite mistakes_app; lia|split; [|split]]]].
    + intros [|c] Hc; simpl; [lia|]. specialize (N2 c ltac:(lia)). lia.
    + intros g [<-|Hg]; [lia|]. specialize (F2 g Hg). lia.
    + intros x y Hxy. apply in_app_or in Hxy as [H|H].
      * destruct (E1 x y H) as [A B]. split; [intros i Hi; specialize (A i Hi); lia|].
        unfold disjunction. simpl. rewrite <- B.
        destruct y; [reflexivity|]. simpl. symmetry. apply not_true_is_false. intros X.
        apply existsb_exists in X as (g & Hg & Xg). specialize (A g Xg). specialize (F2 g Hg). lia.
      * destruct (E2 x y H) as [A B]. split; [intros i Hi; specialize (A i Hi); lia|].
        unfold disjunction in *. simpl. rewrite B.
        destruct (x f) eqn:Xf; [|reflexivity]. specialize (A f Xf). lia.
Qed.

Theorem disjunction_lower_bound (alg : algorithm) (r l : nat) :
  exists (ex : list example) (target : list nat),
    length ex = r * l /\ length target = r /\
    (forall c, c < r -> c * 2 ^ l <= nth c target 0 < (c + 1) * 2 ^ l) /\
    (forall x y, In (x, y) ex -> (forall i, x i = true -> i < r * 2 ^ l) /\ y = disjunction target x) /\
    mistakes alg [] ex = r * l.
Proof.
  pose proof (adversary_props alg l r [] 0) as A. destruct (adversary alg [] 0 r l) as [ex target].
  destruct A as (L & T & Mk & N & _ & E). exists ex, target.
  split; [exact L|split; [exact T|split; [|split; [|exact Mk]]]].
  - intros c Hc. exact (N c Hc).
  - intros x y H. destruct (E x y H) as [A B]. split; [intros i Hi; specialize (A i Hi); lia|exact B].
Qed.

(** ** Blocks of any powers of two, and every n (Littlestone 1988: r floor(lg(n/r))).  The blocks
    of 2^(l_1), ..., 2^(l_r) variables, one after the other from variable s on, force
    l_1 + ... + l_r mistakes; with every l_c = floor(lg(n/r)) the r blocks fit in n variables.
    (adversary/disjunction_worst.py, [force_blocks], plays the same adversary with the exponents
    that fit best, some one larger.) *)
Fixpoint blocks (alg : algorithm) (hist : list example) (s : nat) (ls : list nat) : list example * list nat :=
  match ls with
  | [] => ([], [])
  | l :: ls' =>
      let (e1, f) := search alg hist s l in
      let (e2, fs) := blocks alg (hist ++ e1) (s + 2 ^ l) ls' in
      (e1 ++ e2, f :: fs)
  end.

(** the variables the blocks take: 2^(l_1) + ... + 2^(l_r) *)
Definition width (ls : list nat) : nat := fold_right (fun l acc => 2 ^ l + acc) 0 ls.

Lemma blocks_props (alg : algorithm) (ls : list nat) : forall hist s,
  let (ex, target) := blocks alg hist s ls in
  length ex = list_sum ls /\ length target = length ls /\ NoDup target /\ mistakes alg hist ex = list_sum ls /\
  (forall f, In f target -> s <= f < s + width ls) /\
  (forall x y, In (x, y) ex -> (forall i, x i = true -> s <= i < s + width ls) /\ y = disjunction target x).
Proof.
  induction ls as [|l ls IH]; intros hist s; simpl.
  - repeat split; try constructor; intros; exfalso; lia || tauto.
  - pose proof (search_props alg l hist s) as Sr. destruct (search alg hist s l) as [e1 f].
    specialize (IH (hist ++ e1) (s + 2 ^ l)). destruct (blocks alg (hist ++ e1) (s + 2 ^ l) ls) as [e2 fs].
    destruct Sr as (L1 & F1 & M1 & E1). destruct IH as (L2 & T2 & D2 & M2 & F2 & E2).
    split; [rewrite app_length; lia|split; [simpl; lia|split; [|split; [rewrite mistakes_app; lia|split]]]].
    + constructor; [|exact D2]. intros Hf. specialize (F2 f Hf). lia.
    + intros g [<-|Hg]; [lia|]. specialize (F2 g Hg). lia.
    + intros x y Hxy. apply in_app_or in Hxy as [H|H].
      * destruct (E1 x y H) as [A B]. split; [intros i Hi; specialize (A i Hi); lia|].
        unfold disjunction. simpl. rewrite <- B.
        destruct y; [reflexivity|]. simpl. symmetry. apply not_true_is_false. intros X.
        apply existsb_exists in X as (g & Hg & Xg). specialize (A g Xg). specialize (F2 g Hg). lia.
      * destruct (E2 x y H) as [A B]. split; [intros i Hi; specialize (A i Hi); lia|].
        unfold disjunction in *. simpl. rewrite B.
        destruct (x f) eqn:Xf; [|reflexivity]. specialize (A f Xf). lia.
Qed.

(** Every algorithm errs l_1 + ... + l_r times on examples over 2^(l_1) + ... + 2^(l_r) variables,
    labelled by the disjunction of r distinct ones of them (one per block). *)
Theorem disjunction_lower_bound_blocks (alg : algorithm) (ls : list nat) :
  exists (ex : list example) (target : list nat),
    length target = length ls /\ NoDup target /\ (forall f, In f target -> f < width ls) /\
    (forall x y, In (x, y) ex -> (forall i, x i = true -> i < width ls) /\ y = disjunction target x) /\
    mistakes alg [] ex = list_sum ls.
Proof.
  pose proof (blocks_props alg ls [] 0) as B. destruct (blocks alg [] 0 ls) as [ex target].
  destruct B as (_ & T & D & Mk & F & E). exists ex, target.
  split; [exact T|split; [exact D|split; [|split; [|exact Mk]]]].
  - intros f Hf. specialize (F f Hf). lia.
  - intros x y H. destruct (E x y H) as [A B]. split; [intros i Hi; specialize (A i Hi); lia|exact B].
Qed.

Lemma width_repeat (l r : nat) : width (repeat l r) = r * 2 ^ l.
Proof. induction r as [|r IH]; simpl; [reflexivity|]. rewrite IH. lia. Qed.

Lemma list_sum_repeat (l r : nat) : list_sum (repeat l r) = r * l.
Proof. induction r as [|r IH]; simpl; [reflexivity|]. rewrite IH. lia. Qed.

(** For every n and 1 <= r <= n: r floor(lg(n/r)) mistakes on r-literal monotone disjunctions of n
    variables, every algorithm (r blocks of 2^floor(lg(n/r)) <= n/r variables). *)
Theorem disjunction_lower_bound_any_n (alg : algorithm) (n r : nat) :
  1 <= r <= n ->
  exists (ex : list example) (target : list nat),
    length target = r /\ NoDup target /\ (forall f, In f target -> f < n) /\
    (forall x y, In (x, y) ex -> (forall i, x i = true -> i < n) /\ y = disjunction target x) /\
    mistakes alg [] ex = r * Nat.log2 (n / r).
Proof.
  intros [Hr Hn]. set (l := Nat.log2 (n / r)).
  assert (Fit : r * 2 ^ l <= n).
  { assert (P : 0 < n / r) by (apply Nat.div_str_pos; lia).
    destruct (Nat.log2_spec (n / r) P) as [Lo _]. fold l in Lo.
    pose proof (Nat.mul_div_le n r ltac:(lia)) as D. nia. }
  destruct (disjunction_lower_bound_blocks alg (repeat l r)) as (ex & target & T & D & F & E & Mk).
  rewrite repeat_length in T. rewrite width_repeat in F, E. rewrite list_sum_repeat in Mk.
  exists ex, target. split; [exact T|split; [exact D|split; [|split; [|exact Mk]]]].
  - intros f Hf. specialize (F f Hf). lia.
  - intros x y H. destruct (E x y H) as [A B]. split; [intros i Hi; specialize (A i Hi); lia|exact B].
Qed.

Lemma width_app (a b : list nat) : width (a ++ b) = width a + width b.
Proof. induction a as [|l a IH]; simpl; [reflexivity|]. rewrite IH. lia. Qed.

(** Sharper, the blocks that fit best: with l = floor(lg(n/r)), k = floor(n/2^l) - r < r blocks of
    2^(l+1) variables and r - k of 2^l fit in n, and force r l + k mistakes. *)
Theorem disjunction_lower_bound_any_n_sharp (alg : algorithm) (n r : nat) :
  1 <= r <= n ->
  exists (ex : list example) (target : list nat),
    length target = r /\ NoDup target /\ (forall f, In f target -> f < n) /\
    (forall x y, In (x, y) ex -> (forall i, x i = true -> i < n) /\ y = disjunction target x) /\
    mistakes alg [] ex = r * Nat.log2 (n / r) + (n / 2 ^ Nat.log2 (n / r) - r).
Proof.
  intros [Hr Hn]. set (l := Nat.log2 (n / r)). set (q := n / 2 ^ l). set (k := q - r).
  assert (P2 : 0 < 2 ^ l) by (apply Nat.neq_0_lt_0, Nat.pow_nonzero; lia).
  assert (P : 0 < n / r) by (apply Nat.div_str_pos; lia).
  destruct (Nat.log2_spec (n / r) P) as [Lo Up]. fold l in Lo, Up. rewrite Nat.pow_succ_r' in Up.
  pose proof (Nat.mul_div_le n r ltac:(lia)) as D1.
  pose proof (Nat.div_mod n r ltac:(lia)) as D2. pose proof (Nat.mod_upper_bound n r ltac:(lia)) as D3.
  pose proof (Nat.mul_div_le n (2 ^ l) ltac:(lia)) as D4.
  assert (Rq : r <= q).
  { unfold q. apply Nat.div_le_lower_bound; [lia|]. nia. }
  assert (Kr : q < 2 * r).
  { unfold q. apply Nat.div_lt_upper_bound; [lia|]. nia. }
  destruct (disjunction_lower_bound_blocks alg (repeat (S l) k ++ repeat l (r - k)))
    as (ex & target & T & D & F & E & Mk).
  rewrite app_length, !repeat_length in T. rewrite width_app, !width_repeat in F, E.
  rewrite list_sum_app, !list_sum_repeat in Mk.
  assert (W : k * 2 ^ S l + (r - k) * 2 ^ l <= n).
  { rewrite Nat.pow_succ_r'. unfold k. nia. }
  exists ex, target. split; [lia|split; [exact D|split; [|split]]].
  - intros f Hf. specialize (F f Hf). lia.
  - intros x y H. destruct (E x y H) as [A B]. split; [intros i Hi; specialize (A i Hi); lia|exact B].
  - rewrite Mk. unfold k. nia.
Qed.
