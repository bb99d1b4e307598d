(** * Catalogue: Passive-Aggressive (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006, Thm 2) at
    the statement printed from the catalogue's formulas: on data separable with margin 1 by u, the
    squared hinge losses sum to at most |u|^2 R^2.  The potential is |w_t - u|^2 (here without the
    constant |u|^2): each step lowers it by at least l_t^2 / R^2. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Import Mistakebound.Statements.
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
