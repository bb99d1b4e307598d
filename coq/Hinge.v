(** * Inseparable data: the hinge-loss bound (Lin's slides), Blum's TD_gamma bound, the exact
    (quadratic) form of the hinge bound, and the erratum with the square dropped. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Num.
Require Import Mistakebound.Learners Mistakebound.Claims Mistakebound.BlockNovikoff.
Open Scope R_scope.

Definition hinge (m : R) : R := Rmax 0 m.

Lemma hinge_nonneg m : 0 <= hinge m.
Proof. apply Rmax_l. Qed.
Lemma hinge_ge m : m <= hinge m.
Proof. apply Rmax_r. Qed.

Lemma sum_hinge_nonneg M f : 0 <= sum_lt M (fun k => hinge (f k)).
Proof. apply sum_lt_nonneg. intros; apply hinge_nonneg. Qed.

(** (M - L)^2 <= M c with M, L, c >= 0 gives M <= c + 2L, and M <= (c'/2 + sqrt(c'^2/4 + L))^2
    with c = c'^2. *)
Lemma quadratic_bound (M L c : R) : 0 <= M -> 0 <= L -> 0 <= c -> (M - L <= 0 \/ (M - L) ^ 2 <= M * c) ->
  M <= c + 2 * L.
Proof.
  intros HM HL Hc [H|H]; [lra|].
  destruct (Req_dec M 0) as [Z|Z]; [lra|].
  assert (M * M <= M * (c + 2 * L)) by nra. apply Rmult_le_reg_l with M; lra.
Qed.

Theorem hinge_loss_bound (d M : nat) (w x : nat -> Vec) (y : nat -> R) (u : Vec) (R : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot d (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot d (x k) (x k) <= R ^ 2) ->
  INR M <= R ^ 2 * dot d u u + 2 * sum_lt M (fun k => hinge (1 - y k * dot d u (x k))).
Proof.
  intros H0 Hu Hm Hy Hx.
  set (l := fun k => hinge (1 - y k * dot d u (x k))).
  destruct (perceptron_potentials d M w x y l u 1 R H0 Hu Hm Hy Hx) as [P1 P2].
  { intros k Hk. unfold l. pose proof (hinge_ge (1 - y k * dot d u (x k))). lra. }
  pose proof (sum_hinge_nonneg M (fun k => 1 - y k * dot d u (x k))) as HL. cbv beta in HL. fold l in HL.
  pose proof (pos_INR M). pose proof (dot_self_nonneg d u).
  apply quadratic_bound; [lra|lra|apply Rmult_le_pos; [apply pow2_ge_0|lra]|].
  destruct (Rle_dec (INR M - sum_lt M l) 0) as [N|N]; [left; exact N|right].
  pose proof (potentials_squeeze d (w M) u (INR M * 1 - sum_lt M l) (INR M * R ^ 2) P1 P2 ltac:(lra)).
  replace (INR M - sum_lt M l) with (INR M * 1 - sum_lt M l) by ring. nra.
Qed.

Theorem hinge_total_distance (d M : nat) (w x : nat -> Vec) (y : nat -> R) (u : Vec) (R gamma : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot d (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot d (x k) (x k) <= R ^ 2) ->
  dot d u u = 1 -> gamma > 0 ->
  INR M <= R ^ 2 / gamma ^ 2 + 2 / gamma * sum_lt M (fun k => hinge (gamma - y k * dot d u (x k))).
Proof.
  intros H0 Hu Hm Hy Hx Hu1 Hg.
  set (l := fun k => hinge (gamma - y k * dot d u (x k))).
  destruct (perceptron_potentials d M w x y l u gamma R H0 Hu Hm Hy Hx) as [P1 P2].
  { intros k Hk. unfold l. pose proof (hinge_ge (gamma - y k * dot d u (x k))). lra. }
  pose proof (sum_hinge_nonneg M (fun k => gamma - y k * dot d u (x k))) as HL. cbv beta in HL. fold l in HL.
  set (T := sum_lt M l) in *. pose proof (pos_INR M).
  (* scale by gamma: with M' = M, L' = T / gamma and c = R^2 / gamma^2 *)
  assert (E : R ^ 2 / gamma ^ 2 + 2 / gamma * T = R ^ 2 / gamma ^ 2 + 2 * (T / gamma)) by (field; lra).
  rewrite E. apply quadratic_bound; try lra.
  - apply div_nonneg; lra.
  - apply div_nonneg; [apply pow2_ge_0|apply pow_lt; lra].
  - destruct (Rle_dec (INR M * gamma - T) 0) as [N|N].
    + left. assert (INR M <= T / gamma); [|lra].
      apply Rmult_le_reg_r with gamma; [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. lra.
    + right. pose proof (potentials_squeeze d (w M) u (INR M * gamma - T) (INR M * R ^ 2) P1 P2 ltac:(lra)) as S.
      rewrite Hu1 in S.
      assert (E2 : (INR M - T / gamma) ^ 2 = (INR M * gamma - T) ^ 2 / gamma ^ 2) by (field; lra).
      assert (E3 : INR M * (R ^ 2 / gamma ^ 2) = INR M * R ^ 2 / gamma ^ 2) by (field; lra).
      rewrite E2, E3. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat, pow_lt; lra|lra].
Qed.

(** The exact form: with c = R |u|, s = sqrt M and M - L <= c s, s is at most the positive root
    of s^2 - c s - L, so M <= (c/2 + sqrt(c^2/4 + L))^2, which is at most c^2 + 2L. *)
Lemma exact_from_quadratic (M L c : R) : 0 <= M -> 0 <= L -> 0 <= c -> M - L <= c * sqrt M ->
  M <= (c / 2 + sqrt (c ^ 2 / 4 + L)) ^ 2.
Proof.
  intros HM HL Hc H.
  set (s := sqrt M). set (q := sqrt (c ^ 2 / 4 + L)).
  assert (Hs : s * s = M) by (apply sqrt_sqrt; lra). assert (s0 : 0 <= s) by apply sqrt_pos.
  assert (Hq : q * q = c ^ 2 / 4 + L) by (apply sqrt_sqrt; nra). assert (q0 : 0 <= q) by apply sqrt_pos.
  assert (s <= c / 2 + q).
  { destruct (Rle_dec s (c / 2 + q)) as [T|T]; [exact T|exfalso].
    assert (G : s - c / 2 > q) by lra.
    assert (G2 : (s - c / 2) * (s - c / 2) > q * q) by (apply Rmult_le_0_lt_compat; lra) || nra.
    assert (E : (s - c / 2) * (s - c / 2) = s * s - c * s + c ^ 2 / 4) by field.
    change (sqrt M) with s in H. lra. }
  rewrite <- Hs. nra.
Qed.

Lemma exact_below_textbook (L c : R) : 0 <= L -> 0 <= c ->
  (c / 2 + sqrt (c ^ 2 / 4 + L)) ^ 2 <= c ^ 2 + 2 * L.
Proof.
  intros HL Hc. set (q := sqrt (c ^ 2 / 4 + L)).
  assert (Hq : q * q = c ^ 2 / 4 + L) by (apply sqrt_sqrt; nra). assert (q0 : 0 <= q) by apply sqrt_pos.
  (* (c/2 + q)^2 = c^2/2 + L + c q and c q <= c^2/2 + L because (c/2)^2 <= q^2 and ... *)
  assert (c * q <= c ^ 2 / 2 + L) by nra. nra.
Qed.

Theorem hinge_bound_exact_form (d M : nat) (w x : nat -> Vec) (y : nat -> R) (u : Vec) (R : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot d (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot d (x k) (x k) <= R ^ 2) ->
  R >= 0 ->
  let L := sum_lt M (fun k => hinge (1 - y k * dot d u (x k))) in
  let c := R * sqrt (dot d u u) in
  INR M <= (c / 2 + sqrt (c ^ 2 / 4 + L)) ^ 2 /\ (c / 2 + sqrt (c ^ 2 / 4 + L)) ^ 2 <= c ^ 2 + 2 * L.
Proof.
  intros H0 Hu Hm Hy Hx HR L c.
  pose proof (sum_hinge_nonneg M (fun k => 1 - y k * dot d u (x k))) as HL. cbv beta in HL. fold L in HL.
  pose proof (dot_self_nonneg d u) as Huu. pose proof (sqrt_pos (dot d u u)) as Hsu.
  assert (Hc : 0 <= c) by (unfold c; nra).
  split; [|apply exact_below_textbook; lra].
  set (l := fun k => hinge (1 - y k * dot d u (x k))) in L.
  destruct (perceptron_potentials d M w x y l u 1 R H0 Hu Hm Hy Hx) as [P1 P2].
  { intros k Hk. unfold l. pose proof (hinge_ge (1 - y k * dot d u (x k))). lra. }
  fold L in P1. pose proof (pos_INR M).
  apply exact_from_quadratic; try lra.
  destruct (Rle_dec (INR M - L) 0) as [N|N].
  - pose proof (sqrt_pos (INR M)). nra.
  - pose proof (potentials_squeeze d (w M) u (INR M * 1 - L) (INR M * R ^ 2) P1 P2 ltac:(lra)) as S.
    (* (M - L)^2 <= M R^2 |u|^2 = (c sqrt M)^2, both sides nonnegative *)
    assert (E : (c * sqrt (INR M)) ^ 2 = INR M * R ^ 2 * dot d u u).
    { unfold c. rewrite !Rpow_mult_distr. rewrite <- !Rsqr_pow2, !Rsqr_sqrt by lra. unfold Rsqr. ring. }
    assert (0 <= c * sqrt (INR M)) by (pose proof (sqrt_pos (INR M)); nra).
    apply Rsqr_incr_0_var; [unfold Rsqr; replace (INR M - L) with (INR M * 1 - L) by ring; nra|lra].
Qed.
