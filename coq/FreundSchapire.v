(** * Freund & Schapire (1999), Thm 2, the direct way (Shalev-Shwartz 2012, sec. 3.3): the
    perceptron on any sequence, |x| <= R, |u| = 1, makes at most ((R + D)/gamma)^2 mistakes, with
    D^2 the sum of the squared hinge losses max(0, gamma - y u.x)^2 over the mistakes.  The hinge
    induction gives gamma M - L <= w.u <= sqrt(M) R; Cauchy-Schwarz on the sums, L <= sqrt(M) D. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas.
Require Import Mistakebound.BlockNovikoff Mistakebound.Hinge.
Require Import Reals Lra Lia.
Open Scope R_scope.

(** sum_{k<M} l_k <= sqrt(M) sqrt(sum_{k<M} l_k^2) for nonnegative l. *)
Lemma sum_le_sqrt_sum_sq (M : nat) (l : nat -> R) : (forall k, (k < M)%nat -> 0 <= l k) ->
  sum_lt M l <= sqrt (INR M) * sqrt (sum_lt M (fun k => l k ^ 2)).
Proof.
  intros P. pose proof (cauchy_schwarz_sq M l (fun _ => 1)) as C. unfold dot in C.
  rewrite (sum_lt_ext M (fun i => l i * 1) l) in C by (intros; ring).
  rewrite (sum_lt_ext M (fun i => l i * l i) (fun k => l k ^ 2)) in C by (intros; ring).
  rewrite (sum_lt_ext M (fun _ => 1 * 1) (fun _ => 1)), sum_lt_const in C by (intros; ring).
  assert (L0 : 0 <= sum_lt M l) by (apply sum_lt_nonneg; exact P).
  assert (Q0 : 0 <= sum_lt M (fun k => l k ^ 2)) by (apply sum_lt_nonneg; intros; apply pow2_ge_0).
  pose proof (pos_INR M) as M0.
  rewrite <- sqrt_mult by assumption. rewrite <- (sqrt_pow2 (sum_lt M l)) by exact L0.
  apply sqrt_le_1_alt. lra.
Qed.

Theorem freund_schapire (d M : nat) (w x : nat -> Vec) (y : nat -> R) (u : Vec) (R g : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot d (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot d (x k) (x k) <= R ^ 2) ->
  R >= 0 -> dot d u u = 1 -> g > 0 ->
  INR M <= ((R + sqrt (sum_lt M (fun k => hinge (g - y k * dot d u (x k)) ^ 2))) / g) ^ 2.
Proof.
  intros H0 Hu Hm Hy Hx HR Hu1 Hg.
  set (l := fun k => hinge (g - y k * dot d u (x k))).
  destruct (perceptron_potentials d M w x y l u g R H0 Hu Hm Hy Hx) as [P1 P2].
  { intros k Hk. unfold l. pose proof (hinge_ge (g - y k * dot d u (x k))). lra. }
  pose proof (sum_le_sqrt_sum_sq M l ltac:(intros; apply hinge_nonneg)) as CS.
  change (fun k => hinge (g - y k * dot d u (x k)) ^ 2) with (fun k => l k ^ 2). set (L := sum_lt M l) in *. set (D := sqrt (sum_lt M (fun k => l k ^ 2))) in *.
  set (s := sqrt (INR M)) in *.
  assert (S0 : 0 <= s) by apply sqrt_pos. assert (D0 : 0 <= D) by apply sqrt_pos.
  assert (SS : s * s = INR M) by (apply sqrt_sqrt, pos_INR).
  assert (A : INR M * g - L <= s * R).
  { destruct (Rle_dec (INR M * g - L) 0) as [N|N]; [nra|].
    pose proof (potentials_squeeze d (w M) u (INR M * g - L) (INR M * R ^ 2) P1 P2 ltac:(lra)) as Sq.
    rewrite Hu1 in Sq. assert (R0 : 0 <= s * R) by nra.
    destruct (Rle_dec (INR M * g - L) (s * R)) as [ok|nok]; [exact ok|]. exfalso.
    assert ((s * R) * (s * R) < (INR M * g - L) * (INR M * g - L)) by (apply Rmult_le_0_lt_compat; lra).
    rewrite <- SS in Sq at 2. nra. }
  assert (B : g * (s * s) <= s * (R + D)) by (rewrite SS; lra).
  rewrite <- SS. destruct (Req_dec s 0) as [Z|Z].
  - rewrite Z. rewrite Rmult_0_l. apply pow2_ge_0.
  - assert (Sp : 0 < s) by (destruct S0 as [P|P]; [exact P|symmetry in P; contradiction]).
    assert (C : g * s <= R + D).
    { apply Rmult_le_reg_l with s; [exact Sp|]. replace (s * (g * s)) with (g * (s * s)) by ring. exact B. }
    assert (E : s <= (R + D) / g) by (apply Rmult_le_reg_r with g; [lra|]; unfold Rdiv;
                                     rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra; lra).
    replace (s * s) with (s ^ 2) by ring. apply pow_incr. lra.
Qed.
