(** * Catalogue: the perceptron in the plane, M <= 1 + 1/(2 gamma^2) and M <= floor(...) + 2, at the
    statement printed from the catalogue's formulas (coordinates in the basis (w*, e)). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Mistakebound.Perceptron2D.
Require Import Mistakebound.Statements.
Open Scope R_scope.

Theorem perceptron_2d_half_bound : perceptron_2d_half_bound_statement.
Proof.
  intros F M a b g z1 z2 [A0 B0] Hu Hm Hn Hg [G0 G1] F2.
  assert (Hb : 2 * g ^ 2 * (INR M - 1) <= 1).
  { apply (Perceptron2D.two_d_scalar M a b z1 z2 g A0 B0 G0).
    intros k Hk. destruct (Hu k) as [E1 E2]; [lia|]. rewrite Nat.add_1_r in E1, E2.
    repeat split; auto; first [apply Hm | apply Hn | apply Hg]; lia. }
  assert (Hg2 : 0 < 2 * g ^ 2) by nra.
  assert (HM : INR M <= 1 + 1 / (2 * g ^ 2)).
  { apply Rplus_le_reg_r with (-1). apply Rmult_le_reg_l with (2 * g ^ 2); [exact Hg2|].
    field_simplify; [|nra]. nra. }
  split; [exact HM|].
  (* M - 2 <= (1 - g^2)/(2 g^2) < F + 1, and M, F are integers *)
  assert (HX : INR M - 2 < IZR F + 1).
  { apply Rle_lt_trans with ((1 - g ^ 2) / (2 * g ^ 2)); [|rewrite plus_IZR in F2; exact F2].
    assert (E : (1 - g ^ 2) / (2 * g ^ 2) = 1 / (2 * g ^ 2) - 1 / 2) by (field; nra).
    rewrite E. lra. }
  rewrite INR_IZR_INZ in HX. rewrite <- minus_IZR, <- plus_IZR in HX. apply lt_IZR in HX. lia.
Qed.
