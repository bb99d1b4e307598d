"""The perceptron is stochastic subgradient descent, step size 1, on l_t(w) = max(0, -y_t w.x_t).

Obligations: the gradient of the active branch -y w.x is -y x (sympy, differentiated coordinate
by coordinate in dimension 3, compared through a generic linear functional c); g = -y x is a
subgradient wherever y w.x <= 0 (including the tie, where 0 is one too -- choosing -y x there
is the 'tie is a mistake' convention) and 0 where y w.x > 0 (z3, inner products); and the SGD
step w - g equals the perceptron step coordinate by coordinate (z3).
"""
from __future__ import annotations

from ._common import reals
from .core import Obligation, Source, Theorem
from .sources import BIAS_NOTES

GRAM = "inner products (dimension-free)"


def _gradient():
    import sympy as sp
    d = 3
    w = sp.symbols(f"w1:{d + 1}")
    x = sp.symbols(f"x1:{d + 1}")
    c = sp.symbols(f"c1:{d + 1}")
    y = sp.Symbol("y")
    loss = -y * sum(wi * xi for wi, xi in zip(w, x))
    step = [w[j] - 1 * sp.diff(loss, w[j]) for j in range(d)]      # w - eta * grad, eta = 1
    perceptron = [w[j] + y * x[j] for j in range(d)]
    return {"lhs": sum(ci * s for ci, s in zip(c, step)), "rhs": sum(ci * p for ci, p in zip(c, perceptron))}


def _loss(z3, y, a):
    return z3.If(-y * a > 0, -y * a, 0)


def _subgradient_on_mistake():
    import z3
    wx, vx, y = reals("wx vx y")
    return {"hyps": [("mistake", y * wx <= 0)],
            "goal": _loss(z3, y, vx) >= _loss(z3, y, wx) + (-y) * (vx - wx),
            "latex": {"vx": r"v\cdot x"}}


def _zero_subgradient_when_correct():
    import z3
    wx, vx, y = reals("wx vx y")
    return {"hyps": [("correct", y * wx > 0)], "goal": _loss(z3, y, vx) >= _loss(z3, y, wx) + 0,
            "latex": {"vx": r"v\cdot x"}}


def _step_equals_update():
    import z3
    wj, xj, wx, y = reals("wj xj wx y")
    g = z3.If(y * wx <= 0, -y * xj, 0)                 # the subgradient chosen (coordinate j)
    sgd = wj - 1 * g
    perceptron = z3.If(y * wx <= 0, wj + y * xj, wj)
    return {"hyps": [("label_pm1", y * y == 1)], "goal": sgd == perceptron,
            "latex": {"wj": "w_j", "xj": "x_j"}}


THEOREMS = [
    Theorem(
        id="perceptron_is_subgradient_descent",
        title="The perceptron update is a subgradient step (step size 1) on max(0, -y w.x)",
        statement="w - g_t = (w + y x if y w.x <= 0 else w),  g_t in subdifferential of max(0, -y w.x) at w",
        latex=r"w - g_t = \begin{cases} w + y_t x_t & y_t\, w\cdot x_t \le 0 \\ w & \text{otherwise}\end{cases},"
              r"\quad g_t \in \partial_w \max(0, -y_t\, w\cdot x_t)",
        hypotheses=[r"y_t \in \{-1, +1\}", r"\text{step size } \eta = 1"],
        source=Source(BIAS_NOTES, "notes on the perceptron with bias, closing remark",
                      "The perceptron can be read as stochastic subgradient descent on a modified hinge loss."),
        obligations=[
            Obligation("active_branch_gradient", "sympy", "w - grad(-y w.x) = w + y x (d = 3, generic functional)",
                       "coordinates in dimension 3", _gradient),
            Obligation("subgradient_on_mistake", "z3", "-y x is a subgradient where y w.x <= 0 (tie included)",
                       GRAM, _subgradient_on_mistake),
            Obligation("zero_subgradient_when_correct", "z3", "0 is a subgradient where y w.x > 0", GRAM,
                       _zero_subgradient_when_correct),
            Obligation("sgd_step_is_perceptron_update", "z3", "the SGD step equals the perceptron update", "one coordinate",
                       _step_equals_update, role="composition",
                       uses=("active_branch_gradient", "subgradient_on_mistake", "zero_subgradient_when_correct")),
        ],
        notes="At a tie both 0 and -y x are subgradients; the perceptron's choice -y x is what makes a tie a mistake.",
    ),
]
