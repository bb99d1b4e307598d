"""The hinge bound in its exact form: with c = R|w*| and L the hinge loss, M - L <= c sqrt(M),
hence M <= (c/2 + sqrt(c^2/4 + L))^2, and c^2 + 2L (the textbook form) is the tangent of that
bound at L = 0 -- so the exact form is never worse and the textbook form follows from it.

Encoding: sqrt(M) and sqrt(c^2/4 + L) are real variables s, q >= 0 with s^2 = M, q^2 = c^2/4 + L
(inner products, dimension-free).
"""
from __future__ import annotations

from ._common import reals
from .core import Obligation, Source, Theorem

GRAM = "inner products, square roots as variables (dimension-free)"


def _linear_in_sqrt():
    M, L, wu, ww, uu, R2, R, U, s = reals("M L wu ww uu R2 R U s")
    return {"hyps": [
        ("M_nonneg", M >= 0), ("L_nonneg", L >= 0),
        ("after_M_dot", wu >= M - L), ("after_M_norm", ww <= M * R2),
        ("cauchy_schwarz", wu * wu <= ww * uu),
        ("R_is_radius", (R >= 0) & (R * R == R2)), ("U_is_norm", (U >= 0) & (U * U == uu)),
        ("s_is_sqrt_M", (s >= 0) & (s * s == M)),
    ], "goal": M - L <= R * U * s}


def _solve_quadratic():
    M, L, c, s, q = reals("M L c s q")
    return {"hyps": [
        ("c_nonneg", c >= 0), ("L_nonneg", L >= 0),
        ("s_is_sqrt_M", (s >= 0) & (s * s == M)),
        ("q_is_root", (q >= 0) & (q * q == c * c / 4 + L)),
        ("M_minus_L_le_c_sqrtM", M - L <= c * s),
    ], "goal": M <= (c / 2 + q) * (c / 2 + q)}


def _below_tangent():
    L, c, q = reals("L c q")
    return {"hyps": [("c_nonneg", c >= 0), ("L_nonneg", L >= 0), ("q_is_root", (q >= 0) & (q * q == c * c / 4 + L))],
            "goal": (c / 2 + q) * (c / 2 + q) <= c * c + 2 * L}


def _tangent_value():
    import sympy as sp
    c = sp.Symbol("c", positive=True)
    L = sp.Symbol("L", nonnegative=True)
    exact = (c / 2 + sp.sqrt(c**2 / 4 + L)) ** 2
    return {"lhs": exact.subs(L, 0), "rhs": c**2}


def _tangent_slope():
    import sympy as sp
    c = sp.Symbol("c", positive=True)
    L = sp.Symbol("L", nonnegative=True)
    exact = (c / 2 + sp.sqrt(c**2 / 4 + L)) ** 2
    return {"lhs": sp.diff(exact, L).subs(L, 0), "rhs": sp.Integer(2)}


THEOREMS = [
    Theorem(
        id="hinge_bound_exact_form",
        title="Exact hinge bound: M <= (c/2 + sqrt(c^2/4 + L))^2 <= c^2 + 2L, c = R|w*|",
        statement="w0 = 0, |x| <= R, any w*, c = R|w*|  ==>  M <= (c/2 + sqrt(c^2/4 + L))^2 <= c^2 + 2L",
        latex=r"M \le \Big(\frac{c}{2} + \sqrt{\frac{c^2}{4} + L}\Big)^2 \le c^2 + 2L,\quad c = R\,\|w^*\|",
        hypotheses=[r"w_0 = 0", r"\|x_t\| \le R", r"L = L_{\mathrm{hinge}}(w^*, S)"],
        source=Source("", "sharpens Lin's hinge theorem (003) and Blum's TD bound (001); not in the notes",
                      "The notes stop at M - 2L + L^2/M <= R^2|w*|^2 and drop L^2/M."),
        obligations=[
            Obligation("mistakes_minus_loss_le_c_sqrt_M", "z3", "M - L <= c sqrt(M)", GRAM, _linear_in_sqrt,
                       uses=("hinge_invariant_step", "cauchy_schwarz")),
            Obligation("solve_quadratic_in_sqrt_M", "z3", "s^2 - c s - L <= 0 gives s <= c/2 + q", GRAM,
                       _solve_quadratic, role="composition", uses=("mistakes_minus_loss_le_c_sqrt_M",)),
            Obligation("exact_below_textbook", "z3", "(c/2 + q)^2 <= c^2 + 2L", GRAM, _below_tangent),
            Obligation("tangent_value_at_zero", "sympy", "the exact bound at L = 0 is c^2", "one scalar", _tangent_value),
            Obligation("tangent_slope_at_zero", "sympy", "its derivative in L at L = 0 is 2", "one scalar", _tangent_slope),
        ],
        lemmas=("hinge_loss_bound", "cauchy_schwarz"),
        trusted=("induction", "finite_sum_linearity"),
    ),
]
