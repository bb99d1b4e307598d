"""Weighted Majority (Littlestone & Warmuth 1994, Theorem 2.1; Blum's 15-859 notes): with penalty
beta in (0, 1), n experts and m the mistakes of the best one, the learner makes at most
(m ln(1/beta) + ln n) / ln(2/(1 + beta)) mistakes.

On a mistake the experts that agreed with the learner carry at least half the weight (the
majority was wrong: F >= 1/2), so the total shrinks by (1 - (1 - beta) F) <= (1 + beta)/2; it
never grows.  So W(T) <= n ((1 + beta)/2)^M, while the best expert keeps beta^m <= W(T).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.experts_run import (ENCODING, F, Lb, Ln, T, beta, best_expert_weight, bit, common_hypotheses, during, e, exp_neg,
                          logs_compared, s, sum_to, t, total_weight_bound, z)
from proofs.language.formula import Eq, Implies, Real, Sum, forall_below, num
from proofs.language.functions import exp
from proofs.catalogue.sources import LITTLESTONE_WARMUTH

Lw = Real("ln_wm", tex=r"\ln\frac{2}{1+\beta}", text="ln(2/(1+beta))")
M, m = sum_to(z, T), sum_to(e, T)

HYPS = common_hypotheses() + [
    ("log_wm", Eq(exp(Lw) * (1 + beta), 2)),
    ("majority_wrong_on_mistake", forall_below(t, T, Implies(Eq(z(t), 1), 2 * F(t) >= 1))),
    ("mistake_bits", forall_below(t, T, bit(z(t)))),
]


def wm_logs(p):
    """ln(2/(1 + beta)) M <= ln(1/beta) m + ln n, and ln(2/(1 + beta)) > 0."""
    best = best_expert_weight(p)
    ec = exp_neg(p, Lw, "log_wm", (1 + beta) / 2, "exp_neg_log_wm")
    factor = p.solve("mistake_factor", [ec, p.rule("exp_laws", "exp_zero"), p.inst(p.hyp("wrong_fraction"), t),
                                        p.inst(p.hyp("majority_wrong_on_mistake"), t),
                                        p.inst(p.hyp("mistake_bits"), t), p.hyp("beta_range")],
                     during(1 - (1 - beta) * F(t) <= exp(-(Lw * z(t)))),
                     title="a mistake keeps at most (1 + beta)/2 of the weight, any step at most all of it")
    total = total_weight_bound(p, lambda k: Lw * z(k), factor, "")
    logs = logs_compared(p, best, total, Sum(s, 0, T - 1, Lw * z(s)), "take_logarithms")
    scale = p.rule("finite_sum_linearity", "sum_scale", s, 0, T - 1, Lw, z(s))
    pos = p.solve("ln_wm_positive", [p.hyp("log_wm"), p.hyp("beta_range"), p.rule("exp_laws", "exp_zero"),
                                     p.lemma("exp_monotone", {"a": Lw, "b": num(0)})], Lw > 0,
                  title="exp(ln(2/(1 + beta))) = 2/(1 + beta) > 1 = exp(0)")
    return p.solve("wm_in_logs", [logs, scale], Lw * M <= Lb * m + Ln, title="sum_t ln(2/(1+beta)) z(t) = "
                   "ln(2/(1+beta)) M"), pos


def _proof(p):
    logs, pos = wm_logs(p)
    return p.solve("wm_mistake_bound", [logs, pos], p.theorem.conclusion, title="divide by ln(2/(1 + beta)) > 0")


THEOREMS = [
    Theorem(
        id="weighted_majority_bound",
        name="Weighted Majority with penalty beta: at most (m ln(1/beta) + ln n) / ln(2/(1+beta)) mistakes",
        source=Source(LITTLESTONE_WARMUTH, "Littlestone & Warmuth 1994, Theorem 2.1 (also Blum, 15-859 notes; "
                      "Cesa-Bianchi & Lugosi 2006, ch. 2)",
                      "If the best of n experts makes m mistakes, WM with penalty beta makes at most "
                      "(m log(1/beta) + log n) / log(2/(1 + beta)) mistakes."),
        hypotheses=HYPS,
        conclusion=M <= (Lb * m + Ln) / Lw,
        proof=_proof, encoding=ENCODING, witness_sizes={T: 2},
    ),
]
