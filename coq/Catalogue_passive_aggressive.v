(** * Catalogue: Passive-Aggressive (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006, Thm 2) at
    the statement printed from the catalogue's formulas: on data separable with margin 1 by u, the
    squared hinge losses sum to at most |u|^2 R^2.  The potential is |w_t - u|^2 (here without the
    constant |u|^2): each step lowers it by at least l_t^2 / R^2. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Import Mistakebound.WinnowAbstract Mistakebound.Statements.
Require Import Reals Lra Lia.
Open Scope R_scope.

(** One step in numbers: m = y w.x, g = y u.x, the step size tau with tau |x|^2 = l. *)
Lemma pa_step_real (l tau xx R2 m g : R) :
  l = Rmax 0 (1 - m) -> tau * xx = l -> tau >= 0 -> xx > 0 -> g >= 1 -> xx <= R2 ->
  l ^ 2 <= R2 * (2 * tau * (g - m) - tau ^ 2 * xx).
Proof.
  intros El Et Tp Xp G XR. unfold Rmax in El. destruct (Rle_dec 0 (1 - m)) as [P|P].
  - assert (Lg : g - m >= l) by lra. assert (L0 : 0 <= l) by lra.
    assert (A : 2 * tau * (g - m) - tau ^ 2 * xx >= tau * l).
    { replace (tau ^ 2 * xx) with (tau * l) by (rewrite <- Et; ring).
      assert (tau * (g - m) >= tau * l) by (apply Rmult_ge_compat_l; lra). lra. }
    assert (B : l ^ 2 <= R2 * (tau * l)).
    { replace (l ^ 2) with (xx * (tau * l)) by (rewrite <- Et; ring).
      apply Rmult_le_compat_r; [apply Rmult_le_pos|]; lra. }
    apply Rle_trans with (R2 * (tau * l)); [exact B|]. apply Rmult_le_compat_l; lra.
  - assert (l = 0) by lra. subst l. assert (tau = 0) by nra. subst tau. nra.
Qed.

Theorem passive_aggressive_bound : passive_aggressive_bound_statement.
Proof.
  intros dim R_ T l tau u w x y H0 Hu Hl Ht Hx Hy Hm Hr. rewrite sum_incl_first.
  set (Phi := fun t => dot dim (w t) (w t) - 2 * dot dim (w t) u).
  assert (I : forall t, (t <= T)%nat -> sum_lt t (fun s => l s ^ 2) <= - R_ ^ 2 * Phi t).
  { induction t as [|t IH]; intros Htt.
    - unfold Phi. rewrite (dot_veq_l _ _ _ (w 0%nat) H0), (dot_veq_l _ _ _ u H0), !dot_vzero_l. cbn [sum_lt]. lra.
    - specialize (IH ltac:(lia)). cbn [sum_lt].
      assert (K : Phi t - Phi (S t)
                  = 2 * tau t * (y t * dot dim (x t) u - y t * dot dim (w t) (x t)) - tau t ^ 2 * dot dim (x t) (x t)).
      { unfold Phi. pose proof (Hu t ltac:(lia)) as E. rewrite Nat.add_1_r in E.
        rewrite (dot_veq_l _ _ _ _ E), (dot_veq_r _ _ _ _ E), (dot_veq_l _ _ _ _ E).
        rewrite norm_update_expand, dot_update_expand.
        assert (Y : (tau t * y t) ^ 2 = tau t ^ 2) by (rewrite Rpow_mult_distr, (Hy t ltac:(lia)); ring).
        rewrite Y. ring. }
      destruct (Ht t ltac:(lia)) as [Et Tp].
      pose proof (pa_step_real (l t) (tau t) (dot dim (x t) (x t)) (R_ ^ 2) (y t * dot dim (w t) (x t))
                    (y t * dot dim (x t) u) (Hl t ltac:(lia)) Et Tp (Hx t ltac:(lia))
                    ltac:(rewrite dot_comm; apply (Hm t); lia) (Hr t ltac:(lia))) as S.
      rewrite <- K in S. clearbody Phi. lra. }
  specialize (I T (le_n T)). unfold Phi in I.
  pose proof (dot_self_nonneg dim (vsub (w T) u)) as N.
  rewrite !dot_vsub_l, !dot_vsub_r, (dot_comm dim u (w T)) in N.
  pose proof (pow2_ge_0 R_). nra.
Qed.

(** ** PA-I and PA-II (Crammer et al. 2006, Theorems 3 and 4), through the paper's Lemma 1: with
    Phi t = |w_t|^2 - 2 w_t.u (|w_t - u|^2 without |u|^2), each step's drop Phi t - Phi (t+1) is
    2 tau y (u.x - w.x) - tau^2 |x|^2 >= tau (2 l - tau |x|^2 - 2 l_u). *)
Lemma pa_phi_drop dim (tau y : R) (u w w' x : Vec) :
  veq dim w' (vadd w (smul (tau * y) x)) -> y ^ 2 = 1 ->
  (dot dim w w - 2 * dot dim w u) - (dot dim w' w' - 2 * dot dim w' u)
  = 2 * tau * (y * dot dim x u - y * dot dim w x) - tau ^ 2 * dot dim x x.
Proof.
  intros E Y. rewrite (dot_veq_l _ _ _ _ E), (dot_veq_r _ _ _ _ E), (dot_veq_l _ _ _ _ E).
  rewrite norm_update_expand, dot_update_expand.
  assert (Y2 : (tau * y) ^ 2 = tau ^ 2) by (rewrite Rpow_mult_distr, Y; ring). rewrite Y2. ring.
Qed.

(** Summing: h_t <= K (Phi t - Phi (t+1) + c_t) at every step gives sum h <= K (|u|^2 + sum c). *)
Lemma pa_sum dim T (K : R) (h c : nat -> R) (u : Vec) (w : nat -> Vec) :
  veq dim (w 0%nat) vzero -> 0 < K ->
  (forall t, (t < T)%nat -> h t <= K * ((dot dim (w t) (w t) - 2 * dot dim (w t) u)
                                        - (dot dim (w (S t)) (w (S t)) - 2 * dot dim (w (S t)) u) + c t)) ->
  sum_lt T h <= K * (dot dim u u + sum_lt T c).
Proof.
  intros H0 Kp Hs. set (Phi := fun t => dot dim (w t) (w t) - 2 * dot dim (w t) u).
  assert (I : forall t, (t <= T)%nat -> sum_lt t h <= K * (- Phi t + sum_lt t c)).
  { induction t as [|t IH]; intros Ht.
    - unfold Phi. rewrite (dot_veq_l _ _ _ (w 0%nat) H0), (dot_veq_l _ _ _ u H0), !dot_vzero_l. simpl. lra.
    - specialize (IH ltac:(lia)). pose proof (Hs t ltac:(lia)) as St. fold (Phi t) (Phi (S t)) in St. simpl. nra. }
  specialize (I T (le_n T)). unfold Phi in I.
  pose proof (dot_self_nonneg dim (vsub (w T) u)) as N.
  rewrite !dot_vsub_l, !dot_vsub_r, (dot_comm dim u (w T)) in N. nra.
Qed.

Lemma IZR_zsum_lt' n f : IZR (zsum_lt n f) = sum_lt n (fun i => IZR (f i)).
Proof. induction n as [|n IH]; simpl; [reflexivity|]. rewrite plus_IZR, IH. reflexivity. Qed.

(** One PA-I step in numbers: m = y w.x, g = y u.x, tau = min(C, l/|x|^2). *)
Lemma pa1_step_real (C R2 xx m g l tau lu z : R) :
  C > 0 -> xx > 0 -> xx <= R2 -> l = Rmax 0 (1 - m) -> lu = Rmax 0 (1 - g) -> tau = Rmin C (l / xx) ->
  (z = 0 \/ z = 1) -> (z = 1 -> m <= 0) ->
  z <= Rmax R2 (1 / C) * (2 * tau * (g - m) - tau ^ 2 * xx + 2 * C * lu).
Proof.
  intros Cp Xp XR El Eu Et Zb Zm.
  assert (L0 : 0 <= l) by (rewrite El; apply Rmax_l). assert (Lm : 1 - m <= l) by (rewrite El; apply Rmax_r).
  assert (U0 : 0 <= lu) by (rewrite Eu; apply Rmax_l). assert (Ug : 1 - g <= lu) by (rewrite Eu; apply Rmax_r).
  assert (T0 : 0 <= tau) by (rewrite Et; apply Rmin_glb; [lra | apply div_nonneg; lra]).
  assert (TC : tau <= C) by (rewrite Et; apply Rmin_l).
  assert (Tl : tau * xx <= l).
  { pose proof (Rmin_r C (l / xx)) as Q. rewrite <- Et in Q.
    apply Rle_trans with (l / xx * xx); [apply Rmult_le_compat_r; lra | right; field; lra]. }
  set (K := Rmax R2 (1 / C)). assert (KR : R2 <= K) by apply Rmax_l. assert (KC : 1 / C <= K) by apply Rmax_r.
  assert (Ci : 0 < 1 / C) by (apply Rdiv_lt_0_compat; lra).
  assert (KCC : 1 <= K * C) by (replace 1 with (1 / C * C) by (field; lra); apply Rmult_le_compat_r; lra).
  assert (Gain : tau * l <= 2 * tau * (g - m) - tau ^ 2 * xx + 2 * C * lu).
  { destruct (Rle_lt_or_eq_dec 0 l L0) as [Lp|Lz].
    - assert (Eq : l = 1 - m) by (rewrite El in Lp |- *; unfold Rmax in *; destruct (Rle_dec 0 (1 - m)); lra).
      assert (A : tau * (g - m) >= tau * (l - lu)) by (apply Rmult_ge_compat_l; lra).
      assert (B : tau ^ 2 * xx <= tau * l) by (replace (tau ^ 2 * xx) with (tau * (tau * xx)) by ring;
                                               apply Rmult_le_compat_l; lra).
      assert (D : tau * lu <= C * lu) by (apply Rmult_le_compat_r; lra). lra.
    - assert (Z0 : tau = 0).
      { destruct (Rle_lt_or_eq_dec 0 tau T0) as [P|P]; [|lra].
        assert (0 < tau * xx) by (apply Rmult_lt_0_compat; lra). lra. }
      rewrite Z0. assert (0 <= C * lu) by (apply Rmult_le_pos; lra). lra. }
  assert (Mis : z <= K * (tau * l)).
  { destruct Zb as [Z|Z]; rewrite Z.
    - assert (0 <= tau * l) by (apply Rmult_le_pos; lra). assert (0 <= K) by lra. nra.
    - specialize (Zm Z). assert (L1 : 1 <= l) by lra. rewrite Et. unfold Rmin.
      destruct (Rle_dec C (l / xx)) as [_|N].
      + assert (C <= C * l) by nra. nra.
      + assert (E : K * (l / xx * l) = (K / xx) * (l * l)) by (field; lra). rewrite E.
        assert (K1 : 1 <= K / xx) by (apply (Rmult_le_reg_r xx); [lra|]; replace (K / xx * xx) with K by (field; lra); lra).
        nra. }
  assert (0 < K) by lra. nra.
Qed.

Theorem passive_aggressive_pa1_bound : passive_aggressive_pa1_bound_statement.
Proof.
  intros dim C_ R_ T l l_u tau u w x y z H0 Hu Hl Hy Hlu Hc Hx Hr Ht Hz.
  rewrite zsum_incl_first, sum_incl_first, IZR_zsum_lt'.
  rewrite <- sum_lt_scal. assert (Kp : 0 < Rmax (R_ ^ 2) (1 / C_)).
  { apply Rlt_le_trans with (1 / C_); [apply Rdiv_lt_0_compat; lra | apply Rmax_r]. }
  apply (pa_sum dim T _ _ _ u w H0 Kp). intros t Tt.
  pose proof (Hu t ltac:(lia)) as E. rewrite Nat.add_1_r in E.
  rewrite (pa_phi_drop dim (tau t) (y t) u (w t) (w (S t)) (x t) E (Hy t ltac:(lia))).
  destruct (Hz t ltac:(lia)) as [Zb Zm].
  assert (Eu : l_u t = Rmax 0 (1 - y t * dot dim (x t) u)) by (rewrite (Hlu t ltac:(lia)), (dot_comm dim u (x t)); reflexivity).
  assert (Zr : IZR (z t) = 0 \/ IZR (z t) = 1) by (destruct Zb as [Z|Z]; rewrite Z; [left|right]; reflexivity).
  assert (Zr' : IZR (z t) = 1 -> y t * dot dim (w t) (x t) <= 0) by (intro Z; apply Zm, eq_IZR, Z).
  exact (pa1_step_real C_ (R_ ^ 2) (dot dim (x t) (x t)) (y t * dot dim (w t) (x t)) (y t * dot dim (x t) u)
           (l t) (tau t) (l_u t) (IZR (z t)) Hc (Hx t ltac:(lia)) (Hr t ltac:(lia)) (Hl t ltac:(lia)) Eu
           (Ht t ltac:(lia)) Zr Zr').
Qed.

(** One PA-II step in numbers: tau = l / q with q = |x|^2 + 1/(2C); 2 tau l* <= tau^2/(2C) + 2C l*^2. *)
Lemma pa2_step_real (C R2 xx m g l tau lu : R) :
  C > 0 -> 0 <= xx -> xx <= R2 -> l = Rmax 0 (1 - m) -> lu = Rmax 0 (1 - g) -> tau = l / (xx + 1 / (2 * C)) ->
  l ^ 2 <= (R2 + 1 / (2 * C)) * (2 * tau * (g - m) - tau ^ 2 * xx + 2 * C * lu ^ 2).
Proof.
  intros Cp X0 XR El Eu Et. set (a := 1 / (2 * C)) in *.
  assert (Ap : 0 < a) by (unfold a; apply Rdiv_lt_0_compat; lra). assert (Aa : a * (2 * C) = 1) by (unfold a; field; lra).
  assert (L0 : 0 <= l) by (rewrite El; apply Rmax_l). assert (Lm : 1 - m <= l) by (rewrite El; apply Rmax_r).
  assert (U0 : 0 <= lu) by (rewrite Eu; apply Rmax_l). assert (Ug : 1 - g <= lu) by (rewrite Eu; apply Rmax_r).
  assert (Tq : tau * (xx + a) = l) by (rewrite Et; field; lra).
  assert (T0 : 0 <= tau) by (rewrite Et; apply div_nonneg; lra).
  assert (A : tau * (g - m) >= tau * (l - lu)).
  { destruct (Rle_lt_or_eq_dec 0 l L0) as [Lp|Lz].
    - assert (l = 1 - m) by (rewrite El in Lp |- *; unfold Rmax in *; destruct (Rle_dec 0 (1 - m)); lra).
      apply Rmult_ge_compat_l; lra.
    - assert (Z0 : tau = 0) by (rewrite Et, <- Lz; unfold Rdiv; ring). rewrite Z0. lra. }
  assert (AM : 2 * tau * lu <= tau ^ 2 * a + 2 * C * lu ^ 2).
  { assert (S : 0 <= a * (tau - 2 * C * lu) ^ 2) by (apply Rmult_le_pos; [lra | apply pow2_ge_0]).
    replace (a * (tau - 2 * C * lu) ^ 2) with (tau ^ 2 * a - 2 * tau * lu * (a * (2 * C)) + (a * (2 * C)) * (2 * C * lu ^ 2))
      in S by ring. rewrite Aa in S. lra. }
  assert (G : tau * l <= 2 * tau * (g - m) - tau ^ 2 * xx + 2 * C * lu ^ 2).
  { replace (tau * l) with (2 * tau * l - tau ^ 2 * (xx + a)) by (rewrite <- Tq; ring). lra. }
  assert (Q : l ^ 2 <= (R2 + a) * (tau * l)).
  { assert (E : l ^ 2 = (xx + a) * (tau * l)) by (rewrite <- Tq; ring). rewrite E.
    apply Rmult_le_compat_r; [apply Rmult_le_pos; lra | lra]. }
  apply Rle_trans with (1 := Q). apply Rmult_le_compat_l; lra.
Qed.

Theorem passive_aggressive_pa2_bound : passive_aggressive_pa2_bound_statement.
Proof.
  intros dim C_ R_ T l l_u tau u w x y H0 Hu Hl Hy Hlu Hc Hr Ht.
  rewrite !sum_incl_first. rewrite <- sum_lt_scal.
  assert (Kp : 0 < R_ ^ 2 + 1 / (2 * C_)).
  { pose proof (pow2_ge_0 R_). assert (0 < 1 / (2 * C_)) by (apply Rdiv_lt_0_compat; lra). lra. }
  apply (pa_sum dim T _ _ _ u w H0 Kp). intros t Tt.
  pose proof (Hu t ltac:(lia)) as E. rewrite Nat.add_1_r in E.
  rewrite (pa_phi_drop dim (tau t) (y t) u (w t) (w (S t)) (x t) E (Hy t ltac:(lia))).
  assert (Eu : l_u t = Rmax 0 (1 - y t * dot dim (x t) u)) by (rewrite (Hlu t ltac:(lia)), (dot_comm dim u (x t)); reflexivity).
  exact (pa2_step_real C_ (R_ ^ 2) (dot dim (x t) (x t)) (y t * dot dim (w t) (x t)) (y t * dot dim (x t) u)
           (l t) (tau t) (l_u t) Hc (dot_self_nonneg dim (x t)) (Hr t ltac:(lia)) (Hl t ltac:(lia)) Eu (Ht t ltac:(lia))).
Qed.
