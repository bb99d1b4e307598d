"""Per-step Coq tactics: the steps of the catalogue whose Coq proof needs more than the default
(``mb_step``: the propositional bookkeeping, then lra / nra / psatz; or, for an identity, the
inner-product expansion and ring).  Keyed by (theorem id, step id).  A step not listed here gets
the default; a listed step whose statement changed simply fails in Coq and is reported."""
from __future__ import annotations

from coq.hints_unit import UNIT_FAMILIES, UNIT_STEP_HINTS
from coq.hints_winnow import WINNOW_FAMILIES, WINNOW_STEP_HINTS
from coq.hints_hedge import HEDGE_FAMILIES, HEDGE_STEP_HINTS
from coq.hints_second_order import SECOND_ORDER_FAMILIES, SECOND_ORDER_STEP_HINTS

__all__ = ["HINTS", "hint", "COVERED_FAMILIES"]

# The theorem families whose every step closes in Coq (by the default tactic or a hint above): a
# failing step of one of them fails `verify --coq`.  The steps of other families are re-checked and
# reported too, but their tactics are not written yet.
COVERED_FAMILIES = frozenset({
    "cauchy_schwarz", "claim1_correlation_growth", "claim2_norm_growth", "block_novikoff",
    "multiclass_perceptron_bound",
    "inseparable_hinge", "hinge_exact_form", "subgradient_descent", "perceptron_2d",
    "kernel_closure", "polynomial_kernel", "gaussian_kernel", "kernel_perceptron",
}) | WINNOW_FAMILIES | UNIT_FAMILIES

_DIV_BY_M = "mb_prep; mb_squares; mb_cancel (INR M)"
_DIV_BY_G2_M = "mb_prep; mb_squares; apply mb_le_div; [nra|]; mb_cancel (INR M)"

HINTS: dict[tuple[str, str], str] = {
    # (a.b)^2 <= |a|^2 |b|^2 from the discriminant at t = a.b/|b|^2, and, when |b|^2 = 0, at
    # t = (|a|^2 + 1)/(2 a.b) (which makes a.b = 0)
    ("cauchy_schwarz", "cauchy_schwarz_from_discriminant"): """
  intros dim a b H1 H2 H3; set (A := dot dim a a) in *; set (B := dot dim b b) in *; set (C := dot dim a b) in *;
  destruct (Req_dec B 0) as [E|E];
  [ rewrite E in *; destruct (Req_dec C 0) as [F|F];
    [ rewrite F; nra
    | exfalso;
      replace (A - 2 * ((A + 1) / (2 * C)) * C + (A + 1) / (2 * C) * ((A + 1) / (2 * C)) * 0) with (-1) in H2
        by (field; exact F);
      lra ]
  | assert (P : 0 < B) by lra;
    replace (A - 2 * (C / B) * C + C / B * (C / B) * B) with ((A * B - C ^ 2) / B) in H1 by (field; lra);
    assert (0 <= A * B - C ^ 2); [|lra];
    apply Rmult_le_reg_r with (/ B); [apply Rinv_0_lt_compat, P|]; rewrite Rmult_0_l; exact (Rge_le _ _ H1) ]""",
    # (M - L)^2 <= M c with L >= 0 gives M <= c + 2L
    ("hinge_loss_bound", "hinge_mistake_bound"):
        "mb_prep; match goal with |- INR ?M <= ?c + 2 * ?L => apply (mb_quadratic_bound (INR M) L c); "
        "[lra | lra | apply Rmult_le_pos; [apply pow2_ge_0 | lra] | intro; lra] end",
    # (gamma M - TD)^2 <= M R^2 gives M <= R^2/gamma^2 + (2/gamma) TD
    ("hinge_total_distance", "td_mistake_bound"):
        "mb_prep; mb_squares; match goal with |- INR ?M <= ?R2 / ?g ^ 2 + 2 / ?g * ?T => "
        "apply (mb_td_bound (INR M) T g R2); [lra | lra | lra | nra | intro; nra] end",
    # M - L <= c sqrt(M): both sides squared, (M - L)^2 <= (w.w*)^2 <= |w|^2 |w*|^2 <= M R^2 |w*|^2
    ("hinge_bound_exact_form", "mistakes_minus_loss_le_c_sqrt_M"):
        """mb_prep; mb_squares;
  match goal with |- ?X <= ?Rr * sqrt ?U * sqrt (INR ?M) =>
    assert (HY : 0 <= Rr * sqrt U * sqrt (INR M))
      by (apply Rmult_le_pos; [apply Rmult_le_pos; [lra|apply sqrt_pos]|apply sqrt_pos]);
    destruct (Rle_lt_dec X 0); [lra|];
    apply Rsqr_incr_0_var; [|exact HY]; unfold Rsqr;
    replace (Rr * sqrt U * sqrt (INR M) * (Rr * sqrt U * sqrt (INR M)))
      with (Rr ^ 2 * (sqrt U * sqrt U) * (sqrt (INR M) * sqrt (INR M))) by ring;
    rewrite sqrt_sqrt by lra; rewrite sqrt_sqrt by lra; nra
  end""",
    # s^2 - c s - L <= 0 with s = sqrt(M): s is at most the positive root
    ("hinge_bound_exact_form", "solve_quadratic_in_sqrt_M"):
        "mb_prep; match goal with |- INR ?M <= (?c / 2 + sqrt (?c ^ 2 / 4 + ?L)) ^ 2 => "
        "apply (Hinge.exact_from_quadratic (INR M) L c); lra end",
    ("block_novikoff_margin_one", "one_mistake_bound"): _DIV_BY_M,
    # M >= 2: two consecutive mistakes squeeze; M <= 1: nothing to prove (the integer fact, in R)
    ("perceptron_2d_half_bound", "two_d_mistake_bound"):
        "mb_prep; [lra | match goal with H : (Z.of_nat ?M - 2 < 0)%Z |- _ => "
        "assert (INR M <= 1) by (change 1 with (INR 1); apply le_INR; lia) end; nra]",
    # (s - |b|)(s + |z2|) >= 0, with |.| kept opaque (no case split needed)
    ("perceptron_2d_half_bound", "squeeze_no_flip"):
        "mb_prep_atoms; mb_abs_pos; nra",
    ("perceptron_2d_half_bound", "squeeze"): "mb_prep_atoms; lra",
    # a mistake (a z1 + b z2 <= 0) with a >= 0 and z1 >= g > 0: b z2 <= -a z1 <= -a g, and
    # z2^2 <= 1 - z1^2 <= 1 - g^2; the three products named, then linear or nonlinear arithmetic
    # (the default reaches the same by psatz of degree 3, ~2 s of csdp each)
    ("perceptron_2d_half_bound", "mistake_forces_lateral_weight"):
        "mb_prep; assert (mbP : 0 <= a k) by nra; assert (mbQ : a k * z1 k >= a k * g) by "
        "(apply Rmult_ge_compat_l; lra); assert (mbS : z1 k ^ 2 >= g ^ 2) by nra; first [ lra | nra ]",
    ("perceptron_2d_half_bound", "two_d_real_form"):
        "mb_prep; replace ((1 - g ^ 2) / (2 * g ^ 2) + 1 / 2) with (1 / (2 * g ^ 2)) by (field; lra); "
        "apply mb_le_div; nra",
    # M - 1 <= X + 1/2 < F + 3/2 and M, F are integers: M <= F + 2
    ("perceptron_2d_half_bound", "two_d_floor_form"):
        "mb_prep; assert (HX : IZR (Z.of_nat M - F) < IZR 3) by (rewrite minus_IZR, <- INR_IZR_INZ; lra); "
        "apply lt_IZR in HX; lia",
    ("block_novikoff_unit", "unit_mistake_bound"): _DIV_BY_G2_M,
    ("block_novikoff_radius", "radius_mistake_bound"): _DIV_BY_G2_M,
    ("multiclass_perceptron_bound", "multiclass_mistake_bound"): _DIV_BY_G2_M,
    ("block_novikoff_bias", "cross_term_squared"):
        "mb_prep; assert (0 <= b M ^ 2 * bu ^ 2) by (apply Rmult_le_pos; apply pow2_ge_0); nra",
    ("block_novikoff_bias", "bias_mistake_bound"): _DIV_BY_M,
    # v^{(x)0} lives in R^((d+1)^0) = R^1, v^{(x)m+1} in R^((d+1)^m (d+1)): the dimension terms made
    # syntactically equal first, so the vector equations rewrite inside the inner products
    ("polynomial_kernel_feature_map", "power_zero"): "intros; rewrite ?Nat.pow_0_r in *; mb_solve",
    ("polynomial_kernel_feature_map", "power_step"):
        "intros; rewrite ?Nat.pow_add_r, ?Nat.pow_1_r in *; mb_prep; nra",
    ("kernel_perceptron_is_feature_perceptron", "same_mistakes"):
        "intros dim dp K T alpha phi w x y H; split; [exact H | intros t Ht; "
        "destruct (H t ltac:(lia)) as [_ E]; rewrite E; tauto]",
    # exp of equal arguments, then exp's law on each factor (congruence, as in the SMT encoding)
    ("gaussian_kernel_legal", "gaussian_factorization"): "mb_prep; mb_fun_eqs; ring",
    # w(t+1) = sum_{j<=t} alpha(j) phi(x(j)) coordinatewise, in either case of the mistake test (the
    # test reads the same value through dot(w(t), phi(x(t))) = the kernel sum), then its inner product
    ("kernel_perceptron_is_feature_perceptron", "runs_step_equal"): r"""
  intros dim dp K T alpha phi t w x y H1 H2 H3 H4 H5 [_ [Ht [Hw Hd]]];
  specialize (H1 (conj (Nat.le_0_l t) Ht)); specialize (H2 (conj (Nat.le_0_l t) Ht));
  specialize (H3 ltac:(lia)); specialize (H5 ltac:(split; lia)); rewrite Hd in H1;
  match goal with |- veq _ _ ?S /\ _ => assert (Hv : veq dp (w (t + 1)%nat) S) end;
  [ intros i Hi; specialize (H1 i Hi); specialize (H3 i Hi); specialize (H4 i Hi); specialize (Hw i Hi);
    revert H1 H2; destruct (Rle_b _ _); intros H1 H2; unfold vadd, smul in *; cbv beta in *;
    rewrite H1, H3, H2; lra
  | split; [exact Hv | rewrite (dot_veq_l _ _ _ _ Hv); exact H5] ]""",
}

HINTS.update(UNIT_STEP_HINTS)   # the online-learning unit's steps (hints_unit.py)
HINTS.update(HEDGE_STEP_HINTS)  # Hedge's steps (hints_hedge.py)
HINTS.update(SECOND_ORDER_STEP_HINTS)  # the second-order perceptron's steps (hints_second_order.py)
COVERED_FAMILIES = (COVERED_FAMILIES | HEDGE_FAMILIES | SECOND_ORDER_FAMILIES
                    | frozenset({"soa_bound"}))   # SOA: the default tactics


def hint(theorem_id: str, step_id: str, family: str | None = None) -> str | None:
    """The tactic of a step: its own hint, else (a Winnow theorem) the Winnow hint of its step id."""
    own = HINTS.get((theorem_id, step_id))
    if own is None and family in WINNOW_FAMILIES:
        return WINNOW_STEP_HINTS.get(step_id)
    return own
