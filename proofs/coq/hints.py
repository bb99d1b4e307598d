"""Per-step Coq tactics: the steps of the catalogue whose Coq proof needs more than the default
(``mb_step``: the propositional bookkeeping, then lra / nra / psatz; or, for an identity, the
inner-product expansion and ring).  Keyed by (theorem id, step id).  A step not listed here gets
the default; a listed step whose statement changed simply fails in Coq and is reported."""
from __future__ import annotations

__all__ = ["HINTS", "hint"]

_DIV_BY_M = "mb_prep; mb_squares; mb_cancel (INR M)"
_DIV_BY_G2_M = "mb_prep; mb_squares; apply mb_le_div; [nra|]; mb_cancel (INR M)"

HINTS: dict[tuple[str, str], str] = {
    # (a.b)^2 <= |a|^2 |b|^2 from the discriminant at t = a.b/|b|^2, and, when |b|^2 = 0, at
    # t = (|a|^2 + 1)/(2 a.b) (which makes a.b = 0)
    ("cauchy_schwarz", "cauchy_schwarz_from_discriminant"): """
  intros dim a b H1 H2 H3. set (A := dot dim a a) in *. set (B := dot dim b b) in *. set (C := dot dim a b) in *.
  destruct (Req_dec B 0) as [E|E].
  - rewrite E in *. destruct (Req_dec C 0) as [F|F].
    + rewrite F. nra.
    + exfalso.
      replace (A - 2 * ((A + 1) / (2 * C)) * C + (A + 1) / (2 * C) * ((A + 1) / (2 * C)) * 0) with (-1) in H2
        by (field; exact F).
      lra.
  - assert (P : 0 < B) by lra.
    replace (A - 2 * (C / B) * C + C / B * (C / B) * B) with ((A * B - C ^ 2) / B) in H1 by (field; lra).
    assert (0 <= A * B - C ^ 2); [|lra].
    apply Rmult_le_reg_r with (/ B); [apply Rinv_0_lt_compat, P|]. rewrite Rmult_0_l. exact (Rge_le _ _ H1).""",
    ("block_novikoff_margin_one", "one_mistake_bound"): _DIV_BY_M,
    ("block_novikoff_unit", "unit_mistake_bound"): _DIV_BY_G2_M,
    ("block_novikoff_radius", "radius_mistake_bound"): _DIV_BY_G2_M,
    ("block_novikoff_bias", "cross_term_squared"):
        "mb_prep; assert (0 <= b M ^ 2 * bu ^ 2) by (apply Rmult_le_pos; apply pow2_ge_0); nra",
    ("block_novikoff_bias", "bias_mistake_bound"): _DIV_BY_M,
}


def hint(theorem_id: str, step_id: str) -> str | None:
    return HINTS.get((theorem_id, step_id))
