(** * The perceptron in two dimensions: M <= 1 + 1/(2 gamma^2), hence
    M <= floor((1 - gamma^2)/(2 gamma^2)) + 2 -- about half of Block-Novikoff's 1/gamma^2.

    In the orthonormal basis (u, e) of R^2 (e = u rotated by a right angle; a Coq lemma here, not
    a trusted rule) write a_k = w_k.u, b_k = w_k.e and z_k = y_k x_k = (z1, z2) with z1 >= gamma,
    z1^2 + z2^2 <= 1 (examples of length at most 1), so |z2| <= s = sqrt(1 - gamma^2).  A mistake forces b_k z2 <= 0 and
    |b_k| |z2| >= a_k gamma; |b_k| <= s throughout; two consecutive mistakes k, k+1 squeeze the
    lateral coordinate: s^2 >= a_k gamma + s |b_(k+1)| >= (a_k + a_(k+1)) gamma, and Claim 1 gives
    a_k >= k gamma. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas.
Open Scope R_scope.

Definition e_perp (u : Vec) : Vec := fun i => match i with O => - u 1%nat | _ => u 0%nat end.

Lemma dot2 (a b : Vec) : dot 2 a b = a 0%nat * b 0%nat + a 1%nat * b 1%nat.
Proof. unfold dot. simpl. ring. Qed.

Lemma basis_decomposition (u w x : Vec) : dot 2 u u = 1 ->
  dot 2 w x = dot 2 w u * dot 2 u x + dot 2 w (e_perp u) * dot 2 (e_perp u) x.
Proof.
  intros H. rewrite !dot2 in *. unfold e_perp.
  transitivity ((u 0%nat * u 0%nat + u 1%nat * u 1%nat) * (w 0%nat * x 0%nat + w 1%nat * x 1%nat)); [rewrite H; ring|ring].
Qed.

Lemma basis_norm (u x : Vec) : dot 2 u u = 1 -> dot 2 x x = (dot 2 u x) ^ 2 + (dot 2 (e_perp u) x) ^ 2.
Proof.
  intros H. rewrite !dot2 in *. unfold e_perp.
  transitivity ((u 0%nat * u 0%nat + u 1%nat * u 1%nat) * (x 0%nat * x 0%nat + x 1%nat * x 1%nat)); [rewrite H; ring|ring].
Qed.

(** ** Scalar lemmas *)
Lemma abs_le_of_sq (z s : R) : 0 <= s -> z ^ 2 <= s ^ 2 -> Rabs z <= s.
Proof. intros Hs H. unfold Rabs. destruct (Rcase_abs z); nra. Qed.

Lemma lateral_step (b z s : R) : Rabs b <= s -> Rabs z <= s -> b * z <= 0 -> Rabs (b + z) <= s.
Proof. unfold Rabs. intros. destruct (Rcase_abs b), (Rcase_abs z), (Rcase_abs (b + z)); nra. Qed.

Lemma squeeze (a b z s g : R) : 0 <= s -> Rabs b <= s -> Rabs z <= s -> b * z <= 0 -> a * g <= - (b * z) ->
  a * g + s * Rabs (b + z) <= s ^ 2.
Proof.
  unfold Rabs. intros. destruct (Rcase_abs b), (Rcase_abs z), (Rcase_abs (b + z)).
  all: try nra.
Qed.

Lemma next_mistake (a b z s g : R) : Rabs z <= s -> a * g <= - (b * z) -> b * z <= 0 -> a * g <= s * Rabs b.
Proof. unfold Rabs. intros. destruct (Rcase_abs b), (Rcase_abs z); nra. Qed.

(** A mistake with a >= 0 and z1 >= gamma > 0 forces b z2 <= 0 and - b z2 >= a gamma. *)
Lemma mistake_forces_lateral (a b z1 z2 g : R) : g > 0 -> z1 >= g -> 0 <= a -> a * z1 + b * z2 <= 0 ->
  b * z2 <= 0 /\ a * g <= - (b * z2).
Proof. intros. split; nra. Qed.

Theorem two_d_scalar (M : nat) (A B Z1 Z2 : nat -> R) (g : R) :
  A 0%nat = 0 -> B 0%nat = 0 -> g > 0 ->
  (forall k, (k < M)%nat ->
     A (S k) = A k + Z1 k /\ B (S k) = B k + Z2 k /\ Z1 k ^ 2 + Z2 k ^ 2 <= 1 /\
     A k * Z1 k + B k * Z2 k <= 0 /\ Z1 k >= g) ->
  2 * g ^ 2 * (INR M - 1) <= 1.
Proof.
  intros HA0 HB0 Hg H.
  destruct M as [|[|M']].
  - simpl. nra.
  - simpl. nra.
  - set (M := S (S M')) in *.
    destruct (H 0%nat ltac:(unfold M; lia)) as (_ & _ & N0 & _ & G0).
    assert (Hg1 : g ^ 2 <= 1) by nra.
    set (s := sqrt (1 - g ^ 2)).
    assert (Hs0 : 0 <= s) by apply sqrt_pos.
    assert (Hs2 : s ^ 2 = 1 - g ^ 2) by (unfold s; rewrite <- Rsqr_pow2, Rsqr_sqrt; lra).
    assert (Hz2 : forall k, (k < M)%nat -> Rabs (Z2 k) <= s).
    { intros k Hk. destruct (H k Hk) as (_ & _ & N & _ & G). apply abs_le_of_sq; [exact Hs0|]. nra. }
    (* Claim 1 and the lateral bound, for every k <= M *)
    assert (Inv : forall k, (k <= M)%nat -> A k >= INR k * g /\ Rabs (B k) <= s).
    { induction k as [|k IH]; intros Hk.
      - rewrite HA0, HB0, Rabs_R0. simpl. split; lra.
      - destruct IH as [IA IB]; [lia|]. destruct (H k ltac:(lia)) as (EA & EB & N & Mk & G).
        rewrite EA, EB, S_INR. pose proof (pos_INR k).
        destruct (mistake_forces_lateral (A k) (B k) (Z1 k) (Z2 k) g Hg G ltac:(nra) Mk) as [L1 L2].
        split; [lra|]. apply lateral_step; auto. }
    set (k := M').
    destruct (Inv k ltac:(unfold M, k; lia)) as [IAk IBk].
    destruct (Inv (S k) ltac:(unfold M, k; lia)) as [IAk1 IBk1].
    destruct (H k ltac:(unfold M, k; lia)) as (EA & EB & N & Mk & G).
    destruct (H (S k) ltac:(unfold M, k; lia)) as (EA1 & EB1 & N1 & Mk1 & G1).
    pose proof (pos_INR k).
    destruct (mistake_forces_lateral (A k) (B k) (Z1 k) (Z2 k) g Hg G ltac:(nra) Mk) as [L1 L2].
    destruct (mistake_forces_lateral (A (S k)) (B (S k)) (Z1 (S k)) (Z2 (S k)) g Hg G1 ltac:(rewrite S_INR in IAk1; nra) Mk1)
      as [L3 L4].
    pose proof (squeeze (A k) (B k) (Z2 k) s g Hs0 IBk (Hz2 k ltac:(unfold M, k; lia)) L1 L2) as Sq.
    rewrite <- EB in Sq.
    pose proof (next_mistake (A (S k)) (B (S k)) (Z2 (S k)) s g (Hz2 (S k) ltac:(unfold M, k; lia)) L4 L3) as Nx.
    (* s^2 >= (a_k + a_(k+1)) gamma >= (2k + 1) gamma^2 *)
    assert (INR M = INR k + 2) by (unfold M, k; rewrite !S_INR; ring).
    rewrite S_INR in IAk1. nra.
Qed.

(** ** The theorem, over the perceptron's mistake sequence in R^2 *)
Lemma two_d_coordinates (M : nat) (w x : nat -> Vec) (y : nat -> R) (u : Vec) (gamma : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot 2 (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot 2 (x k) (x k) = 1) ->
  (forall k, (k < M)%nat -> y k * dot 2 u (x k) >= gamma) ->
  dot 2 u u = 1 -> gamma > 0 ->
  2 * gamma ^ 2 * (INR M - 1) <= 1.
Proof.
  intros H0 Hu Hm Hy Hx Hg Huu Hg0.
  set (e := e_perp u).
  apply (two_d_scalar M (fun k => dot 2 (w k) u) (fun k => dot 2 (w k) e)
                        (fun k => y k * dot 2 u (x k)) (fun k => y k * dot 2 e (x k)) gamma);
    [rewrite H0; apply dot_vzero_l|rewrite H0; apply dot_vzero_l|exact Hg0|].
  intros k Hk. rewrite Hu by exact Hk. rewrite !dot_update_expand, !(dot_comm 2 (x k)).
  split; [reflexivity|split; [reflexivity|split; [|split]]].
  - apply Req_le. rewrite !Rpow_mult_distr, Hy by exact Hk. rewrite <- Rmult_plus_distr_l, <- basis_norm by exact Huu.
    rewrite Hx by exact Hk. ring.
  - specialize (Hm k Hk). rewrite (basis_decomposition u (w k) (x k) Huu) in Hm. fold e in Hm.
    cbv beta. replace (dot 2 (w k) u * (y k * dot 2 u (x k)) + dot 2 (w k) e * (y k * dot 2 e (x k)))
      with (y k * (dot 2 (w k) u * dot 2 u (x k) + dot 2 (w k) e * dot 2 e (x k))) by ring. exact Hm.
  - apply Hg, Hk.
Qed.

Theorem perceptron_2d_half_bound (M : nat) (w x : nat -> Vec) (y : nat -> R) (u : Vec) (gamma : R) :
  w 0%nat = vzero ->
  (forall k, (k < M)%nat -> w (S k) = vadd (w k) (smul (y k) (x k))) ->
  (forall k, (k < M)%nat -> y k * dot 2 (w k) (x k) <= 0) ->
  (forall k, (k < M)%nat -> y k ^ 2 = 1) ->
  (forall k, (k < M)%nat -> dot 2 (x k) (x k) = 1) ->
  (forall k, (k < M)%nat -> y k * dot 2 u (x k) >= gamma) ->
  dot 2 u u = 1 -> gamma > 0 ->
  INR M <= 1 + 1 / (2 * gamma ^ 2) /\
  (forall F : Z, IZR F <= (1 - gamma ^ 2) / (2 * gamma ^ 2) < IZR F + 1 -> INR M <= IZR F + 2).
Proof.
  intros H0 Hu Hm Hy Hx Hg Huu Hg0.
  pose proof (two_d_coordinates M w x y u gamma H0 Hu Hm Hy Hx Hg Huu Hg0) as Hb.
  assert (Hg2 : 0 < 2 * gamma ^ 2) by nra.
  assert (HM : INR M <= 1 + 1 / (2 * gamma ^ 2)).
  { apply Rmult_le_reg_l with (2 * gamma ^ 2); [exact Hg2|]. field_simplify; [|nra]. nra. }
  split; [exact HM|].
  intros F [HF1 HF2].
  (* M - 2 <= (1 - g^2)/(2 g^2) when M >= 2, and M - 2 is an integer *)
  assert (HX : INR M - 2 < IZR F + 1).
  { apply Rle_lt_trans with ((1 - gamma ^ 2) / (2 * gamma ^ 2)); [|exact HF2].
    assert (E : (1 - gamma ^ 2) / (2 * gamma ^ 2) = 1 / (2 * gamma ^ 2) - 1 / 2) by (field; nra).
    rewrite E. lra. }
  rewrite INR_IZR_INZ in *. rewrite <- minus_IZR, <- plus_IZR in HX. apply lt_IZR in HX.
  rewrite <- plus_IZR. apply IZR_le. lia.
Qed.
