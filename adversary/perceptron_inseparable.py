"""Inseparable sequences for the perceptron, against the hinge-loss bound.

The bound M <= R^2 |w|^2 + 2 L(w) holds for *every* w (L = sum over the visits of
max(0, 1 - y w.x)); an adversary's claim is only as strong as the w it is measured against, so
every sequence here is evaluated at the best w we can find: the minimiser of R^2 |w|^2 + 2 L(w),
a convex problem solved by scikit-learn's LinearSVC (hinge loss, no intercept, C = 1/R^2: the
objective is 2 R^2 (|w|^2/2 + C sum xi)), rationalised and then used exactly.  The exact form
(c/2 + sqrt(c^2/4 + L))^2, c^2 = R^2 |w|^2, is reported next to the textbook form by the
certificate (Blum's 1/gamma^2 + (2/gamma) TD_gamma is the same number when R = 1).

* :func:`factor_two` -- orthonormal e_1..e_n with w* = lambda sum e_i: M = n for every lambda in
  (0, 1], bound lambda^2 n + 2n(1 - lambda).  A coefficient k in M <= c^2 + kL must satisfy
  k >= 1 + lambda for this family, so the factor 2 is sharp as lambda -> 1.
* :func:`noisy` -- the separable worst case (orthonormal or the Ex. 9.4 ties) with adaptive
  noise: after a mistake on (x, y) the adversary may repeat x with the label -y, which is again a
  mistake (w.x = |x|^2 > 0 after the update), and then x with y again (a tie: the state is
  restored, so the rest of the separable construction still ties); a fraction ``noise`` of the
  separable steps are followed by such a flip.  Evaluated at the best w (above).
"""
from __future__ import annotations

import random
from fractions import Fraction

from learners.errors import InputError

from adversary.sequence import Sequence

__all__ = ["factor_two", "noisy", "best_hinge_target"]


def factor_two(n: int, lam) -> Sequence:
    from learners.numbers import to_fraction
    lam = to_fraction(lam, what="lambda")
    if not 0 < lam <= 1:
        raise InputError("lambda must be in (0, 1]")
    X = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    return Sequence("perceptron", X, [1] * n, target=[lam] * n, evaluate="hinge",
                    meta={"strategy": "factor_two", "n": n, "lambda": str(lam),
                          "note": "orthonormal, w* = lambda sum e_i: M = n; a coefficient k with M <= c^2 + kL "
                                  "needs k >= 1 + lambda"})


def best_hinge_target(X, y, epochs: int = 1, r_sq=None):
    """argmin_w R^2 |w|^2 + 2 L(w) (approximately, by its box-constrained dual, adversary.convex), rationalised.  Returns a list of
    Fractions (any w is a valid evaluation point: the certificate computes the bound exactly)."""
    import numpy as np
    A = np.array([[float(v) for v in row] for row in X])
    yy = np.array(y)
    if r_sq is None:
        r_sq = float(max((A * A).sum(axis=1)))
    if len(set(y)) < 2:
        # one class: the loss is made 0 by a large multiple of the mean direction
        w = A.mean(axis=0) * yy[0]
        m = min(float(yy[i] * A[i] @ w) for i in range(len(y)))
        w = w / m if m > 0 else w
    else:
        from adversary.convex import min_hinge_objective
        w = min_hinge_objective(A, yy, r_sq, loss_weight=2.0 * epochs)
    return [Fraction(float(v)).limit_denominator(10 ** 6) for v in w]


def noisy(gamma, d: int, noise=Fraction(1, 4), seed: int = 0, flips: int | None = None) -> Sequence:
    """Separable worst case for (gamma, d) with adaptive label flips; target = best hinge w.
    ``flips``: exactly that many flips, evenly spaced (instead of the random rate ``noise``)."""
    from adversary.margin import parse_gamma
    from adversary.perceptron_separable import separable
    from learners.numbers import to_fraction
    gamma = parse_gamma(gamma)
    noise = to_fraction(noise, what="noise")
    if not 0 <= noise <= 1:
        raise InputError("noise must be in [0, 1]")
    base = separable(gamma, d)
    rng = random.Random(seed)
    K = len(base.examples)
    if flips is not None:
        if not 0 <= flips <= K:
            raise InputError(f"flips must be in 0..{K}")
        at = {round((i + 1) * K / (flips + 1)) - 1 for i in range(flips)} if flips else set()
    step = -1
    X, y = [], []
    w = [Fraction(0)] * d
    for x, lab in zip(base.examples, base.labels):
        X.append(list(x))
        y.append(lab)
        if lab * sum(a * b for a, b in zip(w, x)) <= 0:
            w = [a + lab * b for a, b in zip(w, x)]
            step += 1
            if (step in at) if flips is not None else (rng.random() < float(noise)):
                # the same point with the other label: a mistake (w.x = |x|^2 > 0), then once more
                # with the right label: a tie again (a mistake), which restores the state
                X.append(list(x))
                y.append(-lab)
                X.append(list(x))
                y.append(lab)
    target = best_hinge_target(X, y)
    return Sequence("perceptron", X, y, target=target,
                    meta={"strategy": "noisy", "gamma": str(gamma), "dim": d,
                          **({"flips": flips} if flips is not None else {"noise": str(noise), "seed": seed}),
                          "target": "argmin R^2|w|^2 + 2L(w) by LinearSVC (hinge, no intercept, C = 1/R^2), "
                                    "rationalised (limit_denominator 1e6)",
                          "note": "separable worst case + adaptive flips (x, -y) right after a mistake on (x, y)"})
