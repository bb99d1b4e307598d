(** * The rational runs are the real runs: every learner commutes with a [Hom] (here [Q2R]). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.Num Mistakebound.Learners.

Definition map_pstep {A B : Num} (h : Hom A B) (s : pstep A) : pstep B :=
  PStep (h (ps_act s)) (ps_mistake s) (fun i => h (ps_w s i)) (h (ps_b s)).

Lemma perceptron_run_hom {A B : Num} (h : Hom A B) d bias w b ex :
  perceptron_run B d bias (fun i => h (w i)) (h b) (map (fun e => (fun i => h (fst e i), h (snd e))) ex)
  = map (map_pstep h) (perceptron_run A d bias w b ex).
Proof.
  revert w b. induction ex as [|[x y] rest IH]; intros w b; simpl; [reflexivity|].
  rewrite <- (hom_ndot h), <- (hadd h), <- (hmul h), <- (h0 h), (hle h).
  destruct (nle A (nmul A y (nadd A (ndot A d w x) b)) (n0 A)) eqn:M; simpl.
  - unfold map_pstep; simpl. f_equal.
    + f_equal. apply functional_extensionality; intro i. unfold perc_update. rewrite hadd, hmul. reflexivity.
      destruct bias; simpl; [rewrite hadd|]; reflexivity.
    + rewrite <- IH. f_equal.
      * apply functional_extensionality; intro i. unfold perc_update. rewrite hadd, hmul. reflexivity.
      * destruct bias; simpl; [rewrite hadd|]; reflexivity.
  - unfold map_pstep; simpl. f_equal. rewrite <- IH. reflexivity.
Qed.

Definition map_wstep {A B : Num} (h : Hom A B) (s : wstep A) : wstep B :=
  WStep (h (ws_act s)) (ws_pred s) (ws_mistake s) (fun i => h (ws_w s i)).

Lemma hom_winnow_act {A B : Num} (h : Hom A B) n w x :
  h (winnow_act A n w x) = winnow_act B n (fun i => h (w i)) x.
Proof.
  unfold winnow_act. rewrite hom_nsum. f_equal. apply functional_extensionality; intro i.
  destruct (x i); [reflexivity|apply h0].
Qed.

Lemma winnow_run_hom {A B : Num} (h : Hom A B) n up down theta w ex :
  winnow_run B n (h up) (h down) (h theta) (fun i => h (w i)) ex
  = map (map_wstep h) (winnow_run A n up down theta w ex).
Proof.
  revert w. induction ex as [|[x lab] rest IH]; intros w; simpl; [reflexivity|].
  rewrite <- (hom_winnow_act h), (hle h).
  assert (U : forall f, (fun i => h (winnow_update A w x f i)) = winnow_update B (fun i => h (w i)) x (h f)).
  { intro f. apply functional_extensionality; intro i. unfold winnow_update. destruct (x i); [apply hmul|reflexivity]. }
  destruct (negb (Bool.eqb (nle A theta (winnow_act A n w x)) lab)) eqn:M; simpl.
  - unfold map_wstep; simpl.
    replace (if lab then h up else h down) with (h (if lab then up else down)) by (destruct lab; reflexivity).
    rewrite <- U, <- IH. reflexivity.
  - unfold map_wstep; simpl. f_equal. rewrite <- IH. reflexivity.
Qed.

Definition map_kstep {A B : Num} (h : Hom A B) (s : kstep A) : kstep B :=
  KStep (h (ks_act s)) (ks_mistake s) (fun i => h (ks_alpha s i)) (h (ks_b s)).

Lemma kperceptron_run_hom {A B : Num} (h : Hom A B) n KA KB xs ys bias strict alpha b order :
  (forall u v, h (KA u v) = KB (fun i => h (u i)) (fun i => h (v i))) ->
  kperceptron_run B n KB (fun j i => h (xs j i)) (fun j => h (ys j)) bias strict (fun j => h (alpha j)) (h b) order
  = map (map_kstep h) (kperceptron_run A n KA xs ys bias strict alpha b order).
Proof.
  intros HK. revert alpha b. induction order as [|i rest IH]; intros alpha b; simpl; [reflexivity|].
  assert (Ea : kernel_activation B n KB (fun j i0 => h (xs j i0)) (fun j => h (alpha j)) (fun i0 => h (xs i i0))
               = h (kernel_activation A n KA xs alpha (xs i))).
  { unfold kernel_activation. rewrite hom_nsum. f_equal. apply functional_extensionality; intro j.
    rewrite hmul, HK. reflexivity. }
  rewrite Ea, <- (hadd h), <- (hmul h), <- (h0 h).
  assert (Em : (if strict then nlt B (h (nmul A (ys i) (nadd A (kernel_activation A n KA xs alpha (xs i)) b))) (h (n0 A))
                else nle B (h (nmul A (ys i) (nadd A (kernel_activation A n KA xs alpha (xs i)) b))) (h (n0 A)))
               = (if strict then nlt A (nmul A (ys i) (nadd A (kernel_activation A n KA xs alpha (xs i)) b)) (n0 A)
                  else nle A (nmul A (ys i) (nadd A (kernel_activation A n KA xs alpha (xs i)) b)) (n0 A)))
    by (destruct strict; [apply hlt|apply hle]).
  rewrite Em.
  set (m := if strict then _ else _).
  assert (Al : (fun j => h (if Nat.eqb j i then nadd A (alpha j) (ys i) else alpha j))
               = (fun j => if Nat.eqb j i then nadd B (h (alpha j)) (h (ys i)) else h (alpha j))).
  { apply functional_extensionality; intro j. destruct (Nat.eqb j i); [apply hadd|reflexivity]. }
  destruct m eqn:M; simpl.
  - unfold map_kstep; simpl. rewrite <- Al.
    assert (Eb : (if bias then nadd B (h b) (h (ys i)) else h b) = h (if bias then nadd A b (ys i) else b))
      by (destruct bias; [rewrite hadd|]; reflexivity).
    rewrite Eb. f_equal. rewrite <- IH. reflexivity.
  - unfold map_kstep; simpl. f_equal. rewrite <- IH. reflexivity.
Qed.
