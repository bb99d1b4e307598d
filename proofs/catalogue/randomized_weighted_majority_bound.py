"""Randomized Weighted Majority (Littlestone & Warmuth 1994, section 5; Blum's 15-859 notes;
Cesa-Bianchi & Lugosi 2006, ch. 2): predicting with expert i with probability w_i / W, the expected
number of mistakes is sum_t F(t), and E[M] <= (m ln(1/beta) + ln n) / (1 - beta).

The weights do not depend on the coins; step t is a mistake with probability F(t), the fraction of
the weight on wrong experts (``learners.randomized_weighted_majority`` computes it exactly).  The
total weight shrinks by 1 - (1 - beta) F(t) <= exp(-(1 - beta) F(t)) (the tangent line of exp),
so W(T) <= n exp(-(1 - beta) E[M]) while the best expert keeps beta^m <= W(T).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.experts_run import (ENCODING, F, Lb, Ln, T, beta, best_expert_weight, common_hypotheses, during, e,
                          logs_compared, s, sum_to, t, total_weight_bound)
from proofs.language.formula import Sum
from proofs.language.functions import exp
from proofs.catalogue.sources import LITTLESTONE_WARMUTH

EM, m = sum_to(F, T), sum_to(e, T)


def _proof(p):
    best = best_expert_weight(p)
    c = 1 - beta
    factor = p.solve("expected_factor", [p.rule("exp_tangent", "exp_ge_tangent", -(c * F(t)))],
                     during(1 - c * F(t) <= exp(-(c * F(t)))), title="1 - x <= exp(-x)")
    total = total_weight_bound(p, lambda k: c * F(k), factor, "")
    logs = logs_compared(p, best, total, Sum(s, 0, T - 1, c * F(s)), "take_logarithms")
    scale = p.rule("finite_sum_linearity", "sum_scale", s, 0, T - 1, c, F(s))
    return p.solve("rwm_expected_bound", [logs, scale, p.hyp("beta_range")], p.theorem.conclusion,
                   title="(1 - beta) E[M] <= ln(1/beta) m + ln n; divide by 1 - beta > 0")


THEOREMS = [
    Theorem(
        id="randomized_weighted_majority_bound",
        name="Randomized Weighted Majority: E[M] <= (m ln(1/beta) + ln n) / (1 - beta)",
        source=Source(LITTLESTONE_WARMUTH, "Littlestone & Warmuth 1994, section 5 (also Blum, 15-859 notes, "
                      "and Cesa-Bianchi & Lugosi 2006, ch. 2)",
                      "Predicting with an expert drawn with probability proportional to its weight, the expected "
                      "number of mistakes is at most (m ln(1/beta) + ln n) / (1 - beta)."),
        hypotheses=common_hypotheses(),
        conclusion=EM <= (Lb * m + Ln) / (1 - beta),
        proof=_proof, encoding=ENCODING + "; E[M] = sum_t F(t), the expected number of mistakes",
        witness_sizes={T: 2},
    ),
]
