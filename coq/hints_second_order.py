"""Per-step Coq tactics of the second-order perceptron's catalogue proof (its steps the default
tactics do not close).  The map B of the statement is any Coq function constrained only up to
``veq`` (the first dim coordinates), so a step that the SMT encoding closes by congruence through
B reads, in Coq, the instance of the invariant "equal points, equal images" that the step lists
among its facts; an inner product is rewritten through a ``veq`` with ``dot_veq_l``/``dot_veq_r``."""
from __future__ import annotations

__all__ = ["SECOND_ORDER_FAMILIES", "SECOND_ORDER_STEP_HINTS"]

SECOND_ORDER_FAMILIES = frozenset({"second_order_perceptron"})

_T = "second_order_perceptron_bound"

# a "for all" invariant read at the points a step lists: each conjunct from one of the facts
_INSTANCES = ("intros; repeat match goal with H : _ /\\ _ |- _ => destruct H end; repeat split; "
              "match goal with H : _ -> forall _, _ |- _ => apply H; lia end")

# the induction step of a "for all" invariant, from its generalized step fact
_FORALL_STEP = "intros dim B M k x G [H0 [H1 IH]]; intros; apply G; repeat split; try assumption; apply IH"

SECOND_ORDER_STEP_HINTS: dict[tuple[str, str], str] = {
    # B_0 and Sherman-Morrison read coordinate by coordinate
    (_T, "linear_at_start"): "mb_pointwise",
    (_T, "linear_after_update"): "mb_pointwise",
    (_T, "function_at_start"): "mb_pointwise",
    (_T, "function_after_update"): """
  intros dim B M k w x z H1 H2 [G0 [G1 E]] V; specialize (H1 (conj G0 G1)); specialize (H2 (conj G0 G1));
  specialize (E V); intros i Hi; rewrite (H1 i Hi), (H2 i Hi); unfold vsub, smul;
  rewrite (E i Hi), (dot_veq_r dim _ _ (x k) E); reflexivity""",
    (_T, "symmetric_step"): _FORALL_STEP,
    (_T, "nonnegative_step"): _FORALL_STEP,
    (_T, "symmetric_at_z_x"): _INSTANCES,
    (_T, "upper_level_k"): _INSTANCES,
    (_T, "inverse_level_k"): _INSTANCES,
    (_T, "final_form_points"): _INSTANCES,
    # z.(z/a) = |z|^2/a >= 0
    (_T, "nonnegative_at_start"): """
  intros dim B a zz H1 H2 H3 H4; rewrite (dot_veq_r dim _ _ zz H1), H2;
  assert (0 < 1 / a) by (unfold Rdiv; rewrite Rmult_1_l; apply Rinv_0_lt_compat; lra); nra""",
    # S - h p^2 >= 0 from S - 2 h p^2 + h^2 p^2 q >= 0 (the form at z + t x, t = -h p) and h (1 + q) = 1
    (_T, "nonnegative_after_update"): """
  intros dim B M k x z SM LIN SYM DS DQ [G0 [G1 [Q P]]];
  specialize (SM (conj G0 G1)); specialize (LIN (conj G0 (Nat.lt_le_incl _ _ G1))); specialize (SYM (conj G0 G1));
  rewrite (dot_veq_r dim _ _ z SM), DS; rewrite (dot_veq_r dim _ _ _ LIN), DQ in P; rewrite SYM in *;
  set (q := dot dim (x k) (B k (x k))) in *; set (p := dot dim (x k) (B k z)) in *; set (S := dot dim z (B k z)) in *;
  assert (Hq : 1 / (1 + q) * q = 1 - 1 / (1 + q)) by (field; lra);
  assert (Hp : 0 < 1 / (1 + q)) by (unfold Rdiv; rewrite Rmult_1_l; apply Rinv_0_lt_compat; lra);
  set (h := 1 / (1 + q)) in *; assert (0 <= h * h * p * p) by nra; nra""",
    # v_{k+1}.B_{k+1} v_{k+1}, read through v_{k+1} = v + y x, Sherman-Morrison and B_k linear
    (_T, "upper_step_expand"): """
  intros dim B M k v x y L1 LIN EXT SM UPD DL EXP [G0 G1];
  assert (G2 : (0 <= k + 1)%nat /\\ (k + 1 <= M)%nat) by lia; assert (G3 : (0 <= k)%nat /\\ (k <= M)%nat) by lia;
  destruct (L1 (conj G0 G1)) as [S Q]; specialize (LIN G3);
  specialize (UPD (conj G0 G1)); specialize (EXT G2 UPD); specialize (SM (conj G0 G1));
  rewrite (dot_veq_l dim _ _ _ UPD), (dot_veq_r dim _ _ _ EXT), (dot_veq_r dim _ _ _ SM);
  rewrite dot_vsub_r in *; repeat rewrite (dot_veq_r dim _ _ _ LIN) in *; rewrite EXP; rewrite DL in *;
  rewrite S; ring""",
    # (2 y m + y^2 q) - H (m + y q)^2 - q H = H (2 y m - m^2) when y^2 = 1 and H (1 + q) = 1
    (_T, "upper_gain"): """
  intros H m q y [Y [Ym [Q Hq]]];
  assert (E : (2 * y * m + y ^ 2 * q) - H * (m + y * q) ^ 2 - q * H
              = H * (2 * y * m - m * m) + (y ^ 2 - 1) * (q - H * q * q) + (H * (1 + q) - 1) * (- 2 * m * y - q)) by ring;
  rewrite Y, Hq in E; assert (0 < H) by nra; assert (0 <= H * (m * m)) by (apply Rmult_le_pos; nra);
  assert (H * (y * m) <= 0) by nra; nra""",
    # B_0 (a u + 0) = u and u.(a u + 0) = a |u|^2
    (_T, "inverse_start"): """
  intros dim B a u x E0 B0 SC ONE DZ Ha S0; change (- 1)%Z with (-1)%Z in *; split;
  [ intros i Hi; rewrite (B0 i Hi); specialize (E0 i Hi); unfold smul, vadd, vzero in *; rewrite E0; field; lra
  | rewrite S0, dot_vadd_r, (dot_veq_r dim _ _ u E0), dot_vzero_r, dot_smul_r; ring ]""",
    # B_{k+1}(A_k u + r x) = u + r B_k x - h (r + r q) B_k x = u
    (_T, "inverse_step"): """
  intros dim B M a k u x E1 ASSOC PX LIN EXT SM DL1 CANCEL COMM DL2 SUMS [G0 [G1 [IH1 IH2]]];
  assert (G2 : (0 <= k + 1)%nat /\\ (k + 1 <= M)%nat) by lia; assert (G3 : (0 <= k)%nat /\\ (k <= M)%nat) by lia;
  assert (G4 : (Z.of_nat k - 1 >= - 1)%Z) by lia;
  specialize (E1 G4); specialize (PX (conj G0 G1)); specialize (LIN G3); specialize (SM (conj G0 G1));
  specialize (SUMS G4);
  match type of EXT with _ -> veq _ ?A1 ?G -> _ => assert (A : veq dim A1 G) end;
  [ intros i Hi; specialize (E1 i Hi); specialize (ASSOC i Hi); unfold vadd, smul in *; rewrite <- ASSOC, E1;
    reflexivity | ];
  specialize (EXT G2 A);
  match type of LIN with veq _ (B k ?G) (vadd (B k ?O) (smul ?r (B k ?X))) =>
    assert (L2 : veq dim (B k G) (vadd u (smul r (B k X))))
      by (intros i Hi; specialize (LIN i Hi); specialize (IH1 i Hi); unfold vadd, smul in *; rewrite LIN, IH1;
          reflexivity) end;
  split;
  [ rewrite (dot_veq_r dim _ _ _ L2), DL1, COMM in SM; intros i Hi; specialize (EXT i Hi); specialize (SM i Hi);
    specialize (L2 i Hi); unfold vsub, vadd, smul in *; rewrite EXT, SM, L2; field; lra
  | rewrite (dot_veq_r dim _ _ u A), DL2, IH2, SUMS; ring ]""",
    # the discriminant: at t = -(u.v)/(u.A u) when u.A u > 0; when u.A u = 0 the other point forces u.v = 0
    (_T, "final_cauchy_schwarz"): """
  intros dim B M a u v x [Q1 Q2] HU F;
  destruct (F (conj (Nat.le_0_l M) (le_n M))) as [_ [P0 _]];
  match goal with |- ?m * ?m <= ?U * ?Phi => set (mm := m) in *; set (UU := U) in *; set (PP := Phi) in * end;
  destruct (Req_dec UU 0) as [Z|Z];
  [ destruct (Req_dec mm 0) as [Zm|Zm]; [rewrite Zm; nra|]; exfalso; rewrite Z in Q2;
    assert (E : PP + 2 * (- ((PP + 1) / (2 * mm))) * mm + (- ((PP + 1) / (2 * mm))) * (- ((PP + 1) / (2 * mm))) * 0
                = -1) by (field; exact Zm); lra
  | assert (E : PP + 2 * (- (mm / UU)) * mm + (- (mm / UU)) * (- (mm / UU)) * UU = PP - mm * mm / UU)
      by (field; exact Z);
    rewrite E in Q1; assert (mm * mm = UU * (mm * mm / UU)) by (field; exact Z); nra ]""",
}
