"""Inseparable data: M <= R^2 |w*|^2 + 2 L_hinge(w*, S) for every w* (Lin), and Blum's
M <= R^2/gamma^2 + (2/gamma) TD_gamma with its real R-dependence (the notes take |x| <= 1).

Proof shape: on a mistake w.w* grows by y(x.w*) >= 1 - l_t, where l_t = max(0, 1 - y x.w*) is
the hinge loss at margin 1; by induction w.w* >= M - L_M (L_M = hinge loss summed over the
mistakes <= L) and |w|^2 <= M R^2; Cauchy-Schwarz composes: (M - L)^2 <= M R^2 |w*|^2 when
M >= L, whence M <= R^2 |w*|^2 + 2L - L^2/M.  Encoding: inner products (dimension-free).
"""
from __future__ import annotations

from fractions import Fraction

from ._common import reals
from .core import Obligation, Source, Theorem
from .sources import BLUM_859, LIN_SLIDES

GRAM = "inner products (dimension-free)"


def _progress(td: bool):
    def build():
        import z3
        wu, wu1, xu, y, h, g = reals("wu wu1 xu y h g")
        m = g if td else 1
        return {"hyps": [
            ("update_expansion", wu1 == wu + y * xu),
            ("loss_is_max", h == z3.If(m - y * xu > 0, m - y * xu, 0)),
        ], "goal": wu1 >= wu + m - h}
    return build


def _base(td: bool):
    def build():
        wu, ww, k, Lk, R2, g = reals("wu ww k Lk R2 g")
        m = g if td else 1
        return {"hyps": [("w_starts_at_zero", (wu == 0) & (ww == 0)), ("no_mistakes_yet", (k == 0) & (Lk == 0))],
                "goal": (wu >= k * m - Lk) & (ww <= k * R2)}
    return build


def _step(td: bool):
    def build():
        wu, ww, wu1, ww1, k, Lk, Lk1, h, R2, g = reals("wu ww wu1 ww1 k Lk Lk1 h R2 g")
        m = g if td else 1
        return {"hyps": [
            ("invariant_dot", wu >= k * m - Lk),
            ("invariant_norm", ww <= k * R2),
            ("progress", wu1 >= wu + m - h),
            ("claim2", ww1 <= ww + R2),
            ("loss_accumulates", Lk1 == Lk + h),
        ], "goal": (wu1 >= (k + 1) * m - Lk1) & (ww1 <= (k + 1) * R2)}
    return build


def _mistake_loss_le_total():
    L, Lk, Lrest = reals("L Lk Lrest")
    return {"hyps": [("split", L == Lk + Lrest), ("rest_nonneg", Lrest >= 0)], "goal": Lk <= L,
            "latex": {"Lrest": r"L_{\text{rest}}"}}


def _compose_hinge():
    M, L, wu, ww, uu, R2 = reals("M L wu ww uu R2")
    return {"hyps": [
        ("M_nonneg", M >= 0), ("L_nonneg", L >= 0),
        ("after_M_dot", wu >= M - L),
        ("after_M_norm", ww <= M * R2),
        ("cauchy_schwarz", wu * wu <= ww * uu),
        ("target_norm_nonneg", uu >= 0), ("R2_nonneg", R2 >= 0),
    ], "goal": M <= R2 * uu + 2 * L}


def _compose_td():
    M, TD, wu, ww, uu, R2, g = reals("M TD wu ww uu R2 g")
    return {"hyps": [
        ("M_nonneg", M >= 0), ("TD_nonneg", TD >= 0), ("gamma_pos", g > 0),
        ("after_M_dot", wu >= g * M - TD),
        ("after_M_norm", ww <= M * R2),
        ("cauchy_schwarz", wu * wu <= ww * uu),
        ("unit_target", uu == 1), ("R2_nonneg", R2 >= 0),
    ], "goal": M <= R2 / (g * g) + 2 * TD / g}


def _dropped_square():
    # one example, w starts at 0: the first activation is 0, a tie, hence a mistake: M >= 1
    R, U, xx, xu, uu, y, M, L = reals("R U xx xu uu y M L")
    return {"hyps": [
        ("first_step_is_tie", M == 1),
        ("label_pm1", y * y == 1),
        ("margin_one", y * xu >= 1),
        ("zero_hinge", L == 0),
        ("R_is_norm", (R >= 0) & (R * R == xx)),
        ("U_is_norm", (U >= 0) & (U * U == uu)),
        ("gram_psd", xu * xu <= xx * uu),
    ], "goal": M <= R * R * U + 2 * L}


def _dropped_square_witness():
    x, wstar, y = (Fraction(1, 4),), (Fraction(4),), 1
    act = Fraction(0) * x[0]                       # w = 0 before the first example
    mistake = y * act <= 0                         # a tie is a mistake
    margin = y * sum(a * b for a, b in zip(wstar, x))
    R2, U = x[0] ** 2, abs(wstar[0])
    hinge = max(Fraction(0), 1 - margin)
    bound = R2 * U + 2 * hinge
    return (mistake and margin >= 1 and 1 > bound,
            f"x=(1/4), y=+1, w*=(4): margin {margin}, L=0, R^2|w*| = {bound} < 1 <= M (the first step from w=0 is a mistake)")


_HINGE = [
    Obligation("hinge_progress", "z3", "on a mistake w.w* grows by >= 1 - l_t", GRAM, _progress(False),
               uses=("claim1_correlation_growth",)),
    Obligation("hinge_invariant_base", "z3", "w = 0: w.w* >= 0 - 0 and |w|^2 <= 0", GRAM, _base(False)),
    Obligation("hinge_invariant_step", "z3", "w.w* >= k - L_k and |w|^2 <= k R^2 carried from k to k+1", GRAM,
               _step(False), uses=("hinge_progress", "claim2_norm_growth")),
    Obligation("mistake_loss_le_total", "z3", "the loss summed over the mistakes is at most L", GRAM,
               _mistake_loss_le_total),
    Obligation("hinge_mistake_bound", "z3", "(M - L)^2 <= M R^2 |w*|^2 gives M <= R^2 |w*|^2 + 2L", GRAM,
               _compose_hinge, role="composition", uses=("hinge_invariant_step", "mistake_loss_le_total",
                                                         "cauchy_schwarz")),
]

THEOREMS = [
    Theorem(
        id="hinge_loss_bound",
        title="Inseparable data: M <= R^2 |w*|^2 + 2 L_hinge(w*, S) for every w*",
        statement="w0 = 0, |x| <= R, any w*  ==>  M <= R^2 |w*|^2 + 2 sum_t max(0, 1 - y_t w*.x_t)",
        latex=r"M \le R^2\,\|w^*\|^2 + 2\,L_{\mathrm{hinge}}(w^*, S),\quad L_{\mathrm{hinge}} = \sum_t \max(0, 1 - y_t\, w^*\cdot x_t)",
        hypotheses=[r"w_0 = 0", r"\|x_t\| \le R", r"w^* \text{ arbitrary}"],
        source=Source(LIN_SLIDES, "Lin, slides 'Inseparable data' (hinge loss theorem)",
                      "On any sequence the perceptron makes at most min over w* of R^2 |w*|^2 + 2 L_hinge(w*, S) mistakes."),
        obligations=_HINGE,
        lemmas=("claim1_correlation_growth", "claim2_norm_growth", "cauchy_schwarz"),
        trusted=("induction", "finite_sum_linearity"),
    ),
    Theorem(
        id="hinge_total_distance",
        title="Inseparable data (Blum): M <= R^2/gamma^2 + (2/gamma) TD_gamma",
        statement="w0 = 0, |x| <= R, |w*| = 1, gamma > 0  ==>  M <= R^2/gamma^2 + (2/gamma) sum_t max(0, gamma - y_t w*.x_t)",
        latex=r"M \le \frac{R^2}{\gamma^2} + \frac{2}{\gamma}\,\mathrm{TD}_\gamma,\quad \mathrm{TD}_\gamma = \sum_t \max(0, \gamma - y_t\, w^*\cdot x_t)",
        hypotheses=[r"w_0 = 0", r"\|x_t\| \le R", r"\|w^*\| = 1", r"\gamma > 0"],
        source=Source(BLUM_859, "Blum, 15-859(A) 01/30/06, 'What if there is no perfect separator?'",
                      "With unit examples, w.w* >= gamma M - TD_gamma after M mistakes, so M <= 1/gamma^2 + (2/gamma) TD_gamma; "
                      "the R-free form is the case R = 1."),
        obligations=[
            Obligation("td_progress", "z3", "on a mistake w.w* grows by >= gamma - t_t", GRAM, _progress(True),
                       uses=("claim1_correlation_growth",)),
            Obligation("td_invariant_base", "z3", "w = 0 satisfies the invariant", GRAM, _base(True)),
            Obligation("td_invariant_step", "z3", "w.w* >= gamma k - TD_k and |w|^2 <= k R^2, k -> k+1", GRAM,
                       _step(True), uses=("td_progress", "claim2_norm_growth")),
            Obligation("mistake_loss_le_total", "z3", "the distance summed over the mistakes is at most TD", GRAM,
                       _mistake_loss_le_total),
            Obligation("td_mistake_bound", "z3", "(gamma M - TD)^2 <= M R^2 gives the bound", GRAM, _compose_td,
                       role="composition", uses=("td_invariant_step", "mistake_loss_le_total", "cauchy_schwarz")),
        ],
        lemmas=("claim1_correlation_growth", "claim2_norm_growth", "cauchy_schwarz"),
        trusted=("induction", "finite_sum_linearity"),
        notes="Equivalently the hinge bound for w*/gamma: its hinge loss at margin 1 is TD_gamma/gamma.",
    ),
    Theorem(
        id="erratum_hinge_dropped_square",
        kind="erratum",
        title="Erratum: M <= R^2 |w*| + 2L (square dropped) is false",
        statement="M <= R^2 |w*| + 2 L_hinge(w*, S)      [FALSE]",
        latex=r"M \le R^2\,\|w^*\| + 2 L_{\mathrm{hinge}}(w^*, S) \quad\text{(false)}",
        hypotheses=[r"w_0 = 0", r"\|x_t\| \le R"],
        source=Source(LIN_SLIDES, "Lin, slides 'Inseparable data' (several frames of the hinge theorem)",
                      "Some frames state the bound as min over w* of R^2 |w*| + 2L(w*, S), without the square."),
        obligations=[Obligation("dropped_square_bound", "z3", "M <= R^2 |w*| + 2L on a one-example run (claimed)",
                                "inner products + the first step (w = 0: a tie, so a mistake)", _dropped_square,
                                expect="refuted", role="claim")],
        counterexample={"x": ["1/4"], "y": 1, "w*": ["4"], "R^2|w*| + 2L": "1/4", "M": 1},
        witness_check=_dropped_square_witness,
        notes="The bound is not scale-invariant: scaling x by s and w* by 1/s keeps M and L but multiplies R^2|w*| by s.",
    ),
]
