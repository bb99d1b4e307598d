"""Hints for the steps of Hedge's theorems (Freund & Schapire 1997): keyed by (theorem id, step id).
Each instantiates the quantified facts at the step's indices (the options' ranges read as
i <= n - 1), rewrites exp's laws where the solvers use congruence, then closes the arithmetic."""
from __future__ import annotations

__all__ = ["HEDGE_STEP_HINTS", "HEDGE_FAMILIES"]

HEDGE_FAMILIES = frozenset({"hedge_bound"})

_STEPS: dict[str, str] = {
    # exp(ln(1/beta)) exp(-ln(1/beta)) = exp(0) = 1 = exp(ln(1/beta)) beta
    "exp_neg_log_inv_beta": r"""
  intros beta lib H1 H2 H3. replace (lib + - lib) with 0 in H2 by ring. rewrite H3 in H2.
  apply Rmult_eq_reg_l with (exp lib); [lra | pose proof (exp_pos lib); lra].""",
    # the tangent of exp at c = -ln(1/beta) a, read at 0 and at -ln(1/beta)
    "tangent_at_zero": r"""
  intros a lib Add E0 Tan Pos.
  assert (B : exp (- (lib * a)) * exp (- - (lib * a)) = 1) by (rewrite <- Add, <- E0; f_equal; ring).
  apply Rle_trans with (exp (- (lib * a)) * exp (- - (lib * a))); [apply Rmult_le_compat_l; lra | lra].""",
    "tangent_at_beta": r"""
  intros a beta lib Eb Add Tan Pos.
  assert (B : exp (- (lib * a)) * exp (- lib - - (lib * a)) = beta) by (rewrite <- Add, <- Eb; f_equal; ring).
  apply Rle_trans with (exp (- (lib * a)) * exp (- lib - - (lib * a))); [apply Rmult_le_compat_l; lra | lra].""",
    # summed over the options: W(t+1) <= W(t) + (beta - 1) sum_i w l = (1 - (1 - beta) H(t)) W(t)
    "total_weight_step_factor": r"""
  intros H T W beta l n t w Every Mono Lin Nonneg Hn EW EW1 EH Ht.
  assert (Hi : forall i, ((0 <= i)%nat /\ (Z.of_nat i <= Z.of_nat n - 1)%Z) ->
                 (0 <= t)%nat /\ (t < T)%nat /\ (0 <= i)%nat /\ (i < n)%nat) by (intros i Hi'; destruct Ht; lia).
  pose proof (Mono (fun i Hi' => proj1 (Every i Hi' (Hi i Hi')))) as M1. rewrite Lin in M1.
  pose proof (Nonneg (fun i Hi' => proj1 (proj2 (Every i Hi' (Hi i Hi'))))) as N0.
  pose proof (EH Ht) as E2. destruct Ht as [Ht0 Ht1].
  rewrite <- (EW ltac:(lia)) in M1, N0. rewrite <- (EW1 ltac:(lia)) in M1.
  split; [|exact N0]. rewrite <- E2 in M1. lra.""",
    "total_weight_at_start": r"""
  intros T W n w H0 E Mono Cst. rewrite E by lia. rewrite Cst in Mono by lia. rewrite <- INR_IZR_INZ in Mono.
  apply Mono. intros i [Hi0 Hi]. rewrite H0 by lia. lra.""",
    "total_weight_bound_start": "intros H W beta n H0 S E0. rewrite S, Ropp_0, E0. lra.",
    "hedge_exponent_split": "intros H beta t S. rewrite S by lia. f_equal. ring.",
    "option_exponent_split": "intros j l lib t S. rewrite S by lia. f_equal. ring.",
    "option_weight_start": "intros j l lib n w H0 Hj S E0. rewrite S, Rmult_0_r, Ropp_0, E0. apply H0. lia.",
    # one weight of positive weights is at most their sum
    "option_inside_total": r"""
  intros T W j n w P Le E Hj. rewrite E by lia. apply Le. split; [|split; lia].
  intros i Hi. left. apply (P i Hi); lia.""",
}

HEDGE_STEP_HINTS: dict[tuple[str, str], str] = {("hedge_bound", s): tac for s, tac in _STEPS.items()}
