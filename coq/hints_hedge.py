"""Hints for the steps of Hedge's theorems (Freund & Schapire 1997): keyed by (theorem id, step id).
Each instantiates the quantified facts at the step's indices (the options' ranges read as
i <= n - 1), rewrites exp's laws where the solvers use congruence, then closes the arithmetic."""
from __future__ import annotations

__all__ = ["HEDGE_STEP_HINTS", "HEDGE_FAMILIES"]

HEDGE_FAMILIES = frozenset({"hedge_bound", "hedge_regret_bound"})

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
  pose proof (Mono (fun i Hi' => proj1 (Every i ltac:(lia) ltac:(lia)))) as M1. rewrite Lin in M1.
  pose proof (Nonneg (fun i Hi' => proj1 (proj2 (Every i ltac:(lia) ltac:(lia))))) as N0.
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
  intros i Hi. left. apply (P i); lia.""",
}

# the tuned bound: Freund & Schapire's bound as a lemma, 0 <= L_Hedge <= T, eta = sqrt(2 ln n / T)
_REGRET: dict[str, str] = {
    "exp_neg_log_inv_beta": _STEPS["exp_neg_log_inv_beta"],
    "hedge_bound_in_logs": r"""
  intros H T W beta j l lib ln_n n w L [Hb0 Hb1]. intros. assert (B := L ltac:(repeat apply conj; assumption)).
  match type of B with ?x <= ?y / ?z =>
    apply Rmult_le_compat_l with (r := z) in B; [|lra];
    replace (z * (y / z)) with y in B by (field; lra); lra end.""",
    "log_n_nonneg": "intros ln_n n E Hn E0 Iff. apply Rle_ge, Iff. rewrite E0, E. change 1 with (INR 1). apply le_INR. lia.",
    "tuned_rate": r"""
  intros T lib ln_n E S L HT. assert (Tp : 0 < INR T) by (apply lt_0_INR; lia).
  assert (Q : 2 * ln_n / INR T >= 0) by (apply Rle_ge, Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  destruct (S Q) as [S0 S1]. rewrite E. split; [exact S0|]. rewrite S1. field. lra.""",
    "step_loss_range": r"""
  intros H T W l n t w Every Pos Nonneg Mono Term Hn EW EH Ht.
  assert (E : forall i, (0 <= i)%nat /\ (Z.of_nat i <= Z.of_nat n - 1)%Z ->
                w t i * l t i >= 0 /\ w t i * l t i <= w t i /\ w t i >= 0) by (intros i Hi; apply Every; lia).
  pose proof (Nonneg (fun i Hi => proj1 (E i Hi))) as A.
  pose proof (Mono (fun i Hi => proj1 (proj2 (E i Hi)))) as B.
  assert (Rg : (0 <= 0)%nat /\ (0 <= Z.of_nat n - 1)%Z) by lia.
  pose proof (Term (conj (fun i Hi => proj2 (proj2 (E i Hi))) Rg)) as C.
  pose proof (Pos ltac:(lia) ltac:(lia)) as P. pose proof (EH Ht) as F.
  rewrite <- (EW ltac:(lia)) in B, C. rewrite <- F in A, B. split; nra.""",
    "hedge_loss_range": r"""
  intros H T Every Nonneg Mono Cst HT.
  pose proof (Nonneg (fun s Hs => proj1 (Every s ltac:(lia) ltac:(lia)))) as A.
  pose proof (Mono (fun s Hs => proj2 (Every s ltac:(lia) ltac:(lia)))) as B.
  rewrite Cst, <- INR_IZR_INZ in B by lia. split; assumption.""",
}

HEDGE_STEP_HINTS: dict[tuple[str, str], str] = {("hedge_bound", s): tac for s, tac in _STEPS.items()}
HEDGE_STEP_HINTS.update({("hedge_regret_bound", s): tac for s, tac in _REGRET.items()})
