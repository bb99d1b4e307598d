(** * Catalogue: the kernel closure rules, the polynomial kernel's feature map (tensor powers), the
    Gaussian kernel and the kernel perceptron, at the statements printed from the catalogue's
    formulas (a feature map's values live in a space of its own dimension). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Import Mistakebound.Kernels.
Require Mistakebound.Gaussian Mistakebound.Catalogue_hinge.
Require Import Mistakebound.Statements.
Open Scope R_scope.

Theorem kernel_closure_rules : kernel_closure_rules_statement.
Proof.
  intros dim D1 D2 K1 K2 c f phi1 phi2 x xp H1 H2 Hc. rewrite !H1, !H2.
  split; [|split; [|split]].
  - rewrite dot_smul_l, dot_smul_r, <- Rmult_assoc, sqrt_sqrt by lra. reflexivity.
  - rewrite dot_smul_l, dot_smul_r. ring.
  - rewrite dot_concat. reflexivity.
  - rewrite dot_tensor. reflexivity.
Qed.

Lemma dot_tpow (D : nat) (v v' : Vec) (k : nat) : dot (D ^ k) (tpow D v k) (tpow D v' k) = (dot D v v') ^ k.
Proof.
  induction k as [|k IH].
  - simpl. rewrite dot_vec1. ring.
  - replace (D ^ S k)%nat with (D ^ k * D)%nat by (simpl; ring). simpl tpow.
    rewrite dot_tensor, IH. simpl. ring.
Qed.

Theorem polynomial_kernel_feature_map : polynomial_kernel_feature_map_statement.
Proof.
  intros dim c k x xp Hc. rewrite dot_tpow, dot_concat, dot_vec1, sqrt_sqrt by lra. reflexivity.
Qed.

Theorem gaussian_kernel_legal : gaussian_kernel_legal_statement.
Proof.
  intros dim a c n xs Hc. pose proof (Gaussian.gaussian_kernel_legal dim c (Rge_le _ _ Hc) n xs a) as G.
  unfold gram_form, Gaussian.gaussian in G. rewrite sum_incl_first.
  apply Rle_ge. eapply Rle_trans; [exact G|]. right. apply sum_lt_ext. intros i _.
  rewrite sum_incl_first. apply sum_lt_ext. intros j _. reflexivity.
Qed.

(** The kernel perceptron: w(t) is the weighted sum of the phi(x_j), j < t, with the dual
    coefficients, so both learners decide every step alike. *)
Lemma vsum_incl_first (t : nat) (f : nat -> Vec) : vsum_incl 0 (Z.of_nat t - 1) f = vsum_lt t f.
Proof.
  unfold vsum_incl. replace (Z.of_nat t - 1 + 1)%Z with (Z.of_nat t) by ring.
  rewrite Nat2Z.id, Nat.sub_0_r. reflexivity.
Qed.

Lemma dot_vsum_l (D t : nat) (f : nat -> Vec) (p : Vec) :
  dot D (vsum_lt t f) p = sum_lt t (fun j => dot D (f j) p).
Proof. induction t as [|t IH]; simpl; [apply dot_vzero_l|]. rewrite dot_vadd_l, IH. reflexivity. Qed.

Theorem kernel_perceptron_is_feature_perceptron : kernel_perceptron_is_feature_perceptron_statement.
Proof.
  intros dim D K T alpha phi w x y HK H0 Hw Ha.
  set (S t := vsum_lt t (fun j => smul (alpha j) (phi (x j)))).
  assert (Act : forall t, veq D (w t) (S t) ->
            dot D (w t) (phi (x t)) = sum_lt t (fun j => alpha j * K (x j) (x t))).
  { intros t E. rewrite (dot_veq_l D _ _ _ E). unfold S. rewrite dot_vsum_l. apply sum_lt_ext.
    intros j _. rewrite dot_smul_l, HK. reflexivity. }
  assert (Inv : forall t, (t <= T)%nat -> veq D (w t) (S t)).
  { induction t as [|t IH]; intros Ht.
    - exact H0.
    - specialize (IH ltac:(lia)). specialize (Hw t ltac:(lia)). specialize (Ha t ltac:(lia)).
      rewrite sum_incl_first in Ha. rewrite <- (Act t IH) in Ha. rewrite Nat.add_1_r in Hw.
      intros i Hi. rewrite (Hw i Hi). unfold S. simpl vsum_lt. fold (S t). rewrite Ha.
      destruct (Rle_b (y t * dot D (w t) (phi (x t))) 0); unfold vadd, smul; rewrite (IH i Hi); ring. }
  split.
  - intros t [_ Ht]. rewrite vsum_incl_first, sum_incl_first. split; [exact (Inv t Ht)|].
    apply Act, Inv, Ht.
  - intros t [_ Ht]. rewrite sum_incl_first, <- (Act t (Inv t ltac:(lia))). reflexivity.
Qed.

(** Freund & Schapire (1999), Thm 2 and section 6: the kernel perceptron's mistakes, from the linear
    bound (Catalogue_hinge.freund_schapire_bound) in phi's feature space: the kernel activation is
    w(k).phi(z), by induction on k, and K(z, z) = |phi(z)|^2. *)
Theorem kernel_freund_schapire_bound : kernel_freund_schapire_bound_statement.
Proof.
  intros dim D K M R_ g phi u w x y z HK Hx H0 Hu Hm Hy Hr HR Hu1 Hg.
  assert (Act : forall t p, (t <= M)%nat -> dot D (w t) (phi p) = sum_lt t (fun j => y j * K (z j) p)).
  { induction t as [|t IH]; intros p Ht; simpl.
    - rewrite (dot_veq_l D _ _ _ H0). apply dot_vzero_l.
    - assert (Hut := Hu t ltac:(lia)). rewrite Nat.add_1_r in Hut.
      rewrite (dot_veq_l D _ _ _ Hut), dot_vadd_l, dot_smul_l, IH by lia.
      rewrite (dot_veq_l D _ _ _ (Hx t ltac:(lia))), <- HK. reflexivity. }
  apply (Catalogue_hinge.freund_schapire_bound D M R_ g u w x y H0 Hu).
  - intros k Hk. assert (Hmk := Hm k Hk). rewrite sum_incl_first in Hmk.
    rewrite (dot_veq_r D _ _ _ (Hx k Hk)), Act by lia. exact Hmk.
  - exact Hy.
  - intros k Hk. rewrite (dot_veq_l D _ _ _ (Hx k Hk)), (dot_veq_r D _ _ _ (Hx k Hk)), <- HK. exact (Hr k Hk).
  - exact HR.
  - exact Hu1.
  - exact Hg.
Qed.
