"""Weighted Majority with beta = 1/2 (Littlestone & Warmuth 1994; Blum's 15-859 notes, "M <= 2.41
(m + lg n)"): the general bound (``weighted_majority_bound``, used as a lemma at beta = 1/2) reads
M <= (m ln 2 + ln n) / ln(4/3) = (m + lg n) / lg(4/3), and 1/lg(4/3) = 2.4094... <= 2.41.

The constant is certified exactly: 100 ln 2 <= 241 ln(4/3), i.e. 2^100 <= (4/3)^241 (they differ
by under 0.1%), from exp(k x) = exp(x)^k built by doubling with exp(a + b) = exp(a) exp(b), then
exp's monotonicity.  lg n is the real with lg n * ln 2 = ln n.
"""
from __future__ import annotations

from fractions import Fraction

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.experts_run import ENCODING, Lb, Ln, T, beta, e, s, sum_to, z
from proofs.language.formula import And, Eq, Real, num
from proofs.language.functions import exp
from proofs.catalogue.sources import LITTLESTONE_WARMUTH
from proofs.language.substitution import subst
from proofs.catalogue.weighted_majority_bound import HYPS as WM_HYPS, Lw

L2 = Real("ln_2", tex=r"\ln 2", text="ln 2")
L43 = Real("ln_4_3", tex=r"\ln\frac{4}{3}", text="ln(4/3)")
lgn = Real("lg_n", tex=r"\lg n", text="lg n")
HALF = {beta: num(Fraction(1, 2)), Lb: L2, Lw: L43}
NAMES = {"log_inv_beta": "log_two", "log_wm": "log_four_thirds"}
M, m = sum_to(z, T), sum_to(e, T)
C = Fraction(241, 100)

HYPS = [(NAMES.get(h, h), subst(f, HALF)) for h, f in WM_HYPS if h != "beta_range"] + [
    ("log2_n", Eq(lgn * L2, Ln))]


def _mult(k, x):
    return x if k == 1 else k * x


def exp_multiple(p, x, base, r, k, memo):
    """exp(k x) = r^k from exp(x) = r (``base``), by doubling: exp(a x + b x) = exp(a x) exp(b x)."""
    if k == 1:
        return base
    if k not in memo:
        a = k // 2
        facts = [exp_multiple(p, x, base, r, a, memo), exp_multiple(p, x, base, r, k - a, memo),
                 p.rule("exp_laws", "exp_add", _mult(a, x), _mult(k - a, x))]
        memo[k] = p.solve(f"exp_{k}_{x.name}", facts, Eq(exp(k * x), num(Fraction(r) ** k)),
                          title=f"exp({k} x) = exp({a} x) exp({k - a} x)")
    return memo[k]


def _proof(p):
    zero = p.rule("exp_laws", "exp_zero")
    two = p.solve("exp_ln_2", [p.hyp("log_two")], Eq(exp(L2), 2), title="exp(ln 2) / 2 = 1")
    four = p.solve("exp_ln_4_3", [p.hyp("log_four_thirds")], Eq(exp(L43), Fraction(4, 3)),
                   title="exp(ln(4/3)) (1 + 1/2) = 2")
    a, b = exp_multiple(p, L2, two, 2, 100, {}), exp_multiple(p, L43, four, Fraction(4, 3), 241, {})
    const = p.solve("constant_241_100", [a, b, p.lemma("exp_monotone", {"a": 100 * L2, "b": 241 * L43})],
                    100 * L2 <= 241 * L43, title="2^100 <= (4/3)^241, so 100 ln 2 <= 241 ln(4/3)")
    pos = p.solve("logs_positive", [two, four, zero, p.hyp("n_pos"), p.hyp("log_n"), p.hyp("log2_n"),
                                    p.lemma("exp_monotone", {"a": L2, "b": num(0)}),
                                    p.lemma("exp_monotone", {"a": L43, "b": num(0)}),
                                    p.lemma("exp_monotone", {"a": num(0), "b": Ln})],
                  And(L2 > 0, L43 > 0, lgn >= 0), title="2, 4/3 > 1 = exp(0) and n >= 1")
    wm = p.lemma("weighted_majority_bound", {"beta": num(Fraction(1, 2)), "ln_inv_beta": L2, "ln_wm": L43})
    exact = p.solve("wm_at_one_half", [wm, pos] + [p.hyp(h) for h, _ in HYPS],
                    M * L43 <= L2 * (m + lgn), title="M <= (m ln 2 + ln n)/ln(4/3), and ln n = ln 2 lg n")
    best = p.solve("best_mistakes_nonneg", [p.rule("finite_sum_linearity", "sum_nonneg", s, 0, T - 1, e(s)),
                                            p.hyp("update_best")], m >= 0, title="m is a count")
    return p.solve("wm_half_mistake_bound", [exact, const, pos, best], p.theorem.conclusion,
                   title="M ln(4/3) <= ln 2 (m + lg n) <= 2.41 ln(4/3) (m + lg n)")


THEOREMS = [
    Theorem(
        id="weighted_majority_half_bound",
        name="Weighted Majority with beta = 1/2: at most 2.41 (m + lg n) mistakes (the constant is 1/lg(4/3))",
        source=Source(LITTLESTONE_WARMUTH, "Littlestone & Warmuth 1994, Theorem 2.1 at beta = 1/2 (Blum, 15-859 "
                      "notes: M <= 2.41 (m + lg n))",
                      "If the best of n experts makes m mistakes, WM halving the wrong experts' weights makes at "
                      "most 2.41 (m + lg n) mistakes."),
        hypotheses=HYPS,
        conclusion=M <= C * (m + lgn),
        proof=_proof, encoding=ENCODING + "; lg n = ln n / ln 2", witness_sizes={T: 2},
    ),
]
