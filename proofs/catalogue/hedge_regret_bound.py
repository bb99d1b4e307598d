"""Hedge tuned to the horizon (Freund & Schapire 1997, section 2.2; Cesa-Bianchi & Lugosi 2006,
ch. 2): with beta = exp(-sqrt(2 ln n / T)), Hedge's regret against every option j over T steps
of losses in [0, 1] is at most sqrt(2 T ln n) -- so also at most Freund & Schapire's
sqrt(2 T ln n) + ln n.

From ``hedge_bound`` (used as a lemma), (1 - beta) L_Hedge <= eta L_j + ln n with
eta = ln(1/beta).  One trusted rule is new, **``exp_quadratic``**: exp(-a) <= 1 - a + a^2/2 for
a >= 0 (Taylor's alternating series stops above; proved in the generated ``Rules.v`` from exp's
Taylor series, the partial sums 1 + a + a^2/2 + a^3/6 <= exp(a)).  So 1 - beta >= eta - eta^2/2,
and with 0 <= L_Hedge <= T (each step's loss is an average of losses in [0, 1]):
L_Hedge - L_j <= eta L_Hedge / 2 + ln n / eta <= eta T / 2 + ln n / eta = eta T, as
eta^2 T = 2 ln n; and eta T = sqrt(2 T ln n).
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.experts_run import exp_neg
from proofs.language.formula import And, Eq, Implies, num
from proofs.language.functions import exp, sqrt
from proofs.catalogue.hedge_bound import (ENCODING, HYPS as HEDGE_HYPS, L_HEDGE, L_J, SUM, T, Lb, Ln, beta, generalize, H, in_range, i, l, n,
                          s, t, w, weights_positive)
from proofs.kernel.rules import REAL, TrustedRule, register
from proofs.catalogue.sources import FREUND_SCHAPIRE_1997

QUADRATIC = register(TrustedRule(
    "exp_quadratic",
    "Below 0 the exponential lies under its second-order Taylor polynomial: exp(-a) <= 1 - a + a^2/2 for every "
    "real a >= 0.",
    "exp is transcendental; the bound enters as instances of this schema (Coq: from exp's Taylor series, "
    "1 + a + a^2/2 + a^3/6 <= exp(a) for a >= 0)",
    {"exp_neg_le_quadratic": ((REAL,), lambda a: Implies(a >= 0, exp(-a) <= 1 - a + a * a / 2))}))

HYPS = HEDGE_HYPS + [
    ("horizon", T >= 1),
    ("tuned", Eq(Lb, sqrt(2 * Ln / T))),
]


def hedge_loss_range(p):
    """0 <= L_Hedge <= T: each step's loss is the weights' average of losses in [0, 1]."""
    pos = weights_positive(p)
    each = p.solve("weighted_loss_range", [p.inst(pos, t), p.inst(p.hyp("losses_range"), t, i)],
                   Implies(in_range(), And(w(t, i) * l(t, i) >= 0, w(t, i) * l(t, i) <= w(t, i), w(t, i) >= 0)),
                   title="0 <= w l <= w for l in [0, 1], w > 0")
    every = generalize(p, each, i, n, "every_weighted_loss_range")
    first = p.inst(p.specialize(pos, {i: num(0)}), t)
    wl = w(t, i) * l(t, i)
    step = p.solve("step_loss_range",
                   [every, first, p.rule(SUM, "sum_nonneg", i, 0, n - 1, wl), p.rule(SUM, "sum_mono", i, 0, n - 1, wl, w(t, i)),
                    p.rule(SUM, "sum_term_le", i, 0, n - 1, w(t, i), num(0)), p.hyp("n_pos"),
                    p.inst(p.hyp("total_weight"), t), p.inst(p.hyp("hedge_loss"), t)],
                   Implies(And(num(0) <= t, t < T), And(0 <= H(t), H(t) <= 1)),
                   title="H(t) W(t) = sum_i w l lies in [0, W(t)], and W(t) >= w(t, 0) > 0")
    steps = generalize(p, step, t, T, "every_step_loss_range")
    return p.solve("hedge_loss_range",
                   [steps, p.rule(SUM, "sum_nonneg", s, 0, T - 1, H(s)), p.rule(SUM, "sum_mono", s, 0, T - 1, H(s), num(1)),
                    p.rule(SUM, "sum_const", s, 0, T - 1, num(1)), p.hyp("horizon")],
                   And(0 <= L_HEDGE, L_HEDGE <= T), title="T losses in [0, 1]")


def _proof(p):
    lemma = p.lemma("hedge_bound")
    hyps = [p.hyp(h) for h, _ in HEDGE_HYPS]
    logs = p.solve("hedge_bound_in_logs", [lemma, p.hyp("beta_range")] + hyps, (1 - beta) * L_HEDGE <= Lb * L_J + Ln,
                   title="Freund & Schapire's bound, times 1 - beta > 0")
    zero = p.rule("exp_laws", "exp_zero")
    ln_n = p.solve("log_n_nonneg", [p.hyp("log_n"), p.hyp("n_pos"), zero, p.lemma("exp_monotone", {"a": num(0), "b": Ln})],
                   Ln >= 0, title="exp(ln n) = n >= 1 = exp(0)")
    rate = p.solve("tuned_rate", [p.hyp("tuned"), p.rule("sqrt_def", "sqrt_sq", 2 * Ln / T), ln_n, p.hyp("horizon")],
                   And(Lb >= 0, Eq(Lb * Lb * T, 2 * Ln)), title="eta = sqrt(2 ln n / T): eta >= 0, eta^2 T = 2 ln n")
    pos = p.solve("rate_positive", [p.hyp("log_inv_beta"), p.hyp("beta_range"), zero,
                                    p.lemma("exp_monotone", {"a": Lb, "b": num(0)})], Lb > 0,
                  title="exp(eta) = 1/beta > 1 = exp(0)")
    eb = exp_neg(p, Lb, "log_inv_beta", beta, "exp_neg_log_inv_beta")
    quad = p.solve("one_minus_beta_quadratic", [eb, p.rule("exp_quadratic", "exp_neg_le_quadratic", Lb), rate],
                   1 - beta >= Lb - Lb * Lb / 2, title="beta = exp(-eta) <= 1 - eta + eta^2/2")
    rng = hedge_loss_range(p)
    f1 = p.solve("regret_in_rate", [logs, quad, rng], (Lb - Lb * Lb / 2) * L_HEDGE <= Lb * L_J + Ln,
                 title="(eta - eta^2/2) L_Hedge <= (1 - beta) L_Hedge")
    f2 = p.solve("regret_times_rate", [f1, pos, rng, rate], Lb * (L_HEDGE - L_J) <= Lb * Lb * T,
                 title="eta (L_Hedge - L_j) <= eta^2 L_Hedge / 2 + ln n <= eta^2 T / 2 + eta^2 T / 2")
    f3 = p.solve("regret_at_most_rate_T", [f2, pos], L_HEDGE - L_J <= Lb * T, title="divide by eta > 0")
    return p.solve("hedge_regret", [f3, rate, p.hyp("horizon"), ln_n, p.rule("sqrt_def", "sqrt_sq", 2 * T * Ln)],
                   p.theorem.conclusion, title="eta T = sqrt(eta^2 T^2) = sqrt(2 T ln n)")


THEOREMS = [
    Theorem(
        id="hedge_regret_bound",
        name="Hedge with beta = exp(-sqrt(2 ln n / T)): regret at most sqrt(2 T ln n) against every option",
        source=Source(FREUND_SCHAPIRE_1997, "Freund & Schapire 1997, section 2.2 (also Cesa-Bianchi & Lugosi 2006, "
                      "ch. 2)",
                      "With beta tuned to the number of steps T, Hedge's total loss exceeds that of the best option "
                      "by at most sqrt(2 T ln N) + ln N."),
        hypotheses=HYPS,
        conclusion=L_HEDGE - L_J <= sqrt(2 * T * Ln),
        proof=_proof, encoding=ENCODING + "; beta tuned to the horizon T", witness_sizes={T: 2, n: 2},
    ),
]
