"""The multiclass perceptron's worst case: n orthonormal examples in two classes reach its bound
2 R^2 / gamma^2 (Crammer & Singer 2003; the catalogue's ``multiclass_perceptron_bound``) exactly.

The examples are the unit vectors e_1..e_n, e_i labelled s_i in {0, 1}.  The matrix U with rows
u_0 = -v, u_1 = v, v = sum_i (2 s_i - 1) e_i, separates them with margin u_s.e_i - u_other.e_i = 2
and |U|_F^2 = 2n; with R = 1 the bound 2 R^2 |U|_F^2 / margin^2 (the bound for |U|_F = 1, scaled)
is 2 * 1 * 2n / 4 = n.  ``learners.MulticlassPerceptron`` (exact, no bias) sees every e_i orthogonal
to all its weights so far: both scores 0, a tie, so a mistake -- n mistakes, the bound.  The row is
certified by that exact run and by the margins and norms computed exactly from the data.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners import MulticlassPerceptron

__all__ = ["multiclass_orthonormal", "multiclass_cells"]


def multiclass_orthonormal(n: int) -> dict:
    """The n orthonormal examples, labels alternating 1, 0, 1, ...: n mistakes against the bound n."""
    X = np.eye(n, dtype=np.int64)
    y = np.array([(i + 1) % 2 for i in range(n)])
    s = [2 * int(c) - 1 for c in y]
    U = [[-v for v in s], list(s)]                                   # rows u_0, u_1 (integers)
    rows = [[Fraction(int(v)) for v in r] for r in X.tolist()]
    margins = [sum(Fraction(U[c][j]) * x[j] for j in range(n)) - sum(Fraction(U[1 - c][j]) * x[j] for j in range(n))
               for x, c in zip(rows, y.tolist())]
    gamma = min(margins)
    F2 = sum(Fraction(v * v) for r in U for v in r)
    R2 = max(sum(v * v for v in x) for x in rows)
    bound = 2 * R2 * F2 / gamma**2
    m = MulticlassPerceptron(exact=True, bias=False).fit(X, y)
    ok = gamma > 0 and m.mistakes_ <= bound
    return {"mistakes": m.mistakes_, "bound": bound, "ok": ok,
            "figures": {"n": n, "classes": 2, "margin": gamma, "frobenius_sq": F2, "radius_sq": R2},
            "data": {"X": X.tolist(), "y": y.tolist(), "U": U}}


def multiclass_cells():
    """(algorithm, label, name, builder) for the adversary table's multiclass perceptron row."""
    return [("multiclass_perceptron", "multiclass d=16, 2 classes", "multiclass_orthonormal_d16",
             lambda: multiclass_orthonormal(16))]
