"""Small convex solvers for choosing targets (scipy's L-BFGS-B on box-constrained duals).

The targets they return are only *evaluation points*: every bound is recomputed exactly by
``adversary.certify`` at the rationalised target, so a solver that stops early costs tightness,
never soundness.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = ["min_hinge_objective", "hard_margin_dual", "rationalise"]


def rationalise(v, max_den=10 ** 6):
    return [Fraction(float(x)).limit_denominator(max_den) for x in v]


def _box_qp_max(Q, lin, upper):
    """max lin.a - 1/2 a^T Q a  subject to 0 <= a <= upper (upper may be None)."""
    from scipy.optimize import minimize
    n = len(lin)

    def f(a):
        Qa = Q @ a
        return 0.5 * a @ Qa - lin @ a, Qa - lin

    bounds = [(0.0, upper)] * n
    res = minimize(f, np.zeros(n), jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": 20000, "ftol": 1e-15, "gtol": 1e-12})
    return res.x


def min_hinge_objective(A, y, r_sq, loss_weight=2.0):
    """argmin_w  r_sq |w|^2 + loss_weight * sum_i max(0, 1 - y_i w.x_i), through its dual
    max sum a_i - |sum a_i y_i x_i|^2 / (4 r_sq), 0 <= a_i <= loss_weight;  w = sum a_i y_i x_i / (2 r_sq)."""
    A = np.asarray(A, dtype=float)
    yy = np.asarray(y, dtype=float)
    Z = A * yy[:, None]
    Q = (Z @ Z.T) / (2.0 * r_sq)
    a = _box_qp_max(Q, np.ones(len(yy)), float(loss_weight))
    return (Z.T @ a) / (2.0 * r_sq)


def hard_margin_dual(G, y):
    """Hard-margin separator without bias on a Gram matrix G: max sum b_i - 1/2 sum b_i b_j y_i y_j G_ij,
    b >= 0.  Returns the dual coefficients beta_i = b_i y_i (w = sum beta_i phi(x_i))."""
    G = np.asarray(G, dtype=float)
    yy = np.asarray(y, dtype=float)
    Q = G * np.outer(yy, yy)
    b = _box_qp_max(Q, np.ones(len(yy)), None)
    return b * yy
