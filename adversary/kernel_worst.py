"""Kernel perceptron worst cases against the feature-space bound R_phi^2 |w*|^2 (R_phi^2 =
max K(x, x), w* = sum_j beta_j phi(x_j) scaled to margin 1).

* :func:`gaussian_spaced` -- n points on a line, consecutive ones ``spacing`` sigma apart
  (K(x, y) = exp(-c |x - y|^2), sigma = 1/sqrt(2c)), labels chosen against the learner's
  prediction; beta = the hard-margin kernel SVM's dual coefficients (rationalised), else y.
  In feature space the points are nearly orthonormal (K = exp(-spacing^2/2) between
  neighbours), so every example is a mistake and the ratio is ~1 for spacing >= 5 and drops as
  the points get closer.  The Gaussian kernel is irrational: the certificate encloses every value
  in a rational interval and checks every decision.
* :func:`poly_simplex` -- (c + x.y)^k with n points v_i = a e_i - 1 (a = (c + n)/2) in R^n:
  v_i . v_j = -c for i != j, so K(v_i, v_j) = 0 and K(v_i, v_i) = (c n)^k... (exactly:
  (c + |v|^2)^k): the points are orthogonal with equal norms in feature space, every step is a tie
  (a mistake) and the ratio is exactly 1.  (For c = 0 the orthonormal basis does the same.)
"""
from __future__ import annotations

import math
from fractions import Fraction

from learners.errors import InputError

from adversary.sequence import Sequence

__all__ = ["gaussian_spaced", "poly_simplex", "kernel_worst"]


def gaussian_spaced(n: int, spacing=5, c=Fraction(1, 2)) -> Sequence:
    from learners.kernels import gaussian
    from learners.numbers import to_fraction
    c = to_fraction(c, what="c")
    spacing = to_fraction(spacing, what="spacing")
    if n < 1 or spacing <= 0 or c <= 0:
        raise InputError("gaussian_spaced needs n >= 1, spacing > 0, c > 0")
    K = gaussian(c)
    # sigma = 1/sqrt(2c); a rational step >= spacing * sigma
    step = Fraction(math.ceil(float(spacing) / math.sqrt(2 * float(c)) * 10 ** 9), 10 ** 9)
    X = [[step * i] for i in range(n)]
    y = []
    for i in range(n):
        f = sum(y[j] * K(X[j], X[i]) for j in range(i))      # the kernel perceptron's value (all mistakes)
        y.append(1 if f <= 0 else -1)
    beta, how = best_dual_target(X, y, K)
    return Sequence("kernel_perceptron", X, y, target=beta, kernel=K.spec(),
                    meta={"strategy": "gaussian_spaced", "n": n, "spacing_sigma": str(spacing), "target": how,
                          "note": "points spacing*sigma apart on a line, labels against the prediction"})


def best_dual_target(X, y, K):
    """beta for w* = sum beta_j phi(x_j): the hard-margin kernel SVM's dual coefficients
    (adversary.convex, float Gram matrix), rationalised; beta = y when that fails to separate in floats.
    Any beta gives a valid bound (the certificate evaluates it exactly / by intervals)."""
    import numpy as np
    A = np.array([[float(v) for v in x] for x in X])
    G = K.gram_float(A)
    yy = np.array(y, dtype=float)
    try:
        from adversary.convex import hard_margin_dual
        b = hard_margin_dual(G, y)
        beta = [Fraction(float(v)).limit_denominator(10 ** 9) for v in b]
        bf = np.array([float(v) for v in beta])
        if len(set(y)) == 2 and np.min(yy * (G @ bf)) > 1e-6:
            return beta, "hard-margin kernel separator (dual solved by adversary.convex), rationalised"
    except Exception:          # solver failure or one class: fall back to beta = y
        pass
    return [Fraction(v) for v in y], "beta = y"


def poly_simplex(n: int, c=1, k=2) -> Sequence:
    from learners.kernels import polynomial
    from learners.numbers import to_fraction
    c = to_fraction(c, what="c")
    K = polynomial(c, k)
    if n < 1:
        raise InputError("poly_simplex needs n >= 1")
    if c == 0:
        X = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    else:
        a = (c + n) / 2
        X = [[a * int(i == j) - 1 for j in range(n)] for i in range(n)]
    y = [1] * n
    return Sequence("kernel_perceptron", X, y, target=[1] * n, kernel=K.spec(),
                    meta={"strategy": "poly_simplex", "n": n,
                          "note": "v_i.v_j = -c (i != j): orthogonal, equal norms in feature space; every step a tie"})


def kernel_worst(kernel: str, n: int, spacing=5) -> Sequence:
    from learners.kernels import parse_kernel
    K = parse_kernel(kernel)
    if K.name == "gaussian":
        return gaussian_spaced(n, spacing, K.params["c"])
    if K.name == "poly":
        return poly_simplex(n, K.params["c"], K.params["k"])
    if K.name == "linear":
        return poly_simplex(n, 0, 1)
    raise InputError(f"no worst-case construction for kernel {kernel!r}")
