"""Hints for the steps of the online-learning unit's theorems (Halving, exp's monotonicity, the
two-experts lower bound): keyed by (theorem id, step id).  Each one instantiates the quantified
facts the SMT solvers instantiate by themselves at the step's index, then closes the arithmetic;
exp's monotonicity is proved from the standard library's exp_increasing."""
from __future__ import annotations

__all__ = ["UNIT_STEP_HINTS", "UNIT_FAMILIES"]

# The unit's families whose every step closes in Coq (by a hint here or the default tactic).
UNIT_FAMILIES = frozenset({"halving_bound", "exp_monotone", "two_experts_lower_bound"})

UNIT_STEP_HINTS: dict[tuple[str, str], str] = {
    # V(0) = |H| and 2^0 = 1
    ("halving_bound", "halving_start"): "intros N V H0 P. rewrite P, H0, <- INR_IZR_INZ. lra.",
    # a mistake keeps at most half of V: 2 V(k+1) <= 2 c(k) <= a(k) + c(k) = V(k)
    ("halving_bound", "halving_step"): r"""
  intros M N V a c k H1 H2 H3 Hp Hpos [Hk0 [HkM IH]].
  destruct (H1 (conj Hk0 HkM)) as (E & Ea & Ec). specialize (H2 (conj Hk0 HkM)).
  specialize (H3 (conj Hk0 HkM)). apply IZR_le in H2. apply IZR_le in H3.
  apply (f_equal IZR) in E. rewrite plus_IZR in E. rewrite Hp.
  assert (pow2 k * (IZR (V k) - 2 * IZR (V (k + 1)%nat)) >= 0) by (apply Rle_ge, Rmult_le_pos; lra).
  lra.""",
    # 2^M <= 2^M V(M) <= |H| with V(M) >= 1 (the target is never eliminated)
    ("halving_bound", "two_to_the_M"): r"""
  intros M N V H HV Hp. specialize (H (conj (Nat.le_0_l M) (le_n M))). apply Z.ge_le, IZR_le in HV.
  assert (pow2 M * (IZR (V M) - 1) >= 0) by (apply Rle_ge, Rmult_le_pos; lra). lra.""",
    # lg is increasing: 2^M < |H| or 2^M = |H|
    ("halving_bound", "halving_mistake_bound"): r"""
  intros M N H1 H2 H3 H4. destruct (Rle_lt_or_eq_dec _ _ H1) as [Lt|Eq];
  [specialize (H4 (conj H3 Lt)); lra | rewrite <- Eq; lra].""",
    ("exp_monotone", "exp_monotone"): r"""
  intros a b _ _ _ _ _ _. split; intro H.
  - destruct (Rle_or_lt a b) as [|L]; [assumption|]. apply exp_increasing in L. lra.
  - destruct (Req_dec a b) as [E|E]; [subst; lra|]. left. apply exp_increasing. lra.""",
    # y = -p and p^2 = 1: every step is a mistake, (1 - y p)/2 = 1
    ("two_experts_lower_bound", "every_step_one_expert_wrong"): r"""
  intros T p y Hp Hy s [Hs0 Hs]. rewrite (Hy s ltac:(lia)). pose proof (Hp s ltac:(lia)). nra.""",
    ("two_experts_lower_bound", "summed"): "intros T p y H1 H2 H3. specialize (H2 H1). lra.",
    ("two_experts_lower_bound", "two_experts_bound"): r"""
  intros T p y H. match goal with |- 2 * Rmin ?A ?B <= _ => pose proof (Rmin_l A B); pose proof (Rmin_r A B) end.
  lra.""",
}
