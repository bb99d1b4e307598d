"""Passive-Aggressive as a scikit-learn style estimator (``fit``, ``predict``,
``decision_function``, ``coef_``, ``classes_``; see :mod:`learners.estimators`).  No intercept:
the bounds of Crammer et al. (2006) are about w alone (append a constant feature for one)."""
from __future__ import annotations

import numpy as np

from .estimator_base import _Base, _encode, _sk_X
from .passive_aggressive import run_passive_aggressive

__all__ = ["PassiveAggressive"]


class PassiveAggressive(_Base):
    """variant "pa", "pa1" (step capped at C) or "pa2" (step l/(|x|^2 + 1/(2C)))."""

    def __init__(self, variant="pa1", C=1, epochs=1, exact=False):
        self.variant = variant
        self.C = C
        self.epochs = epochs
        self.exact = exact

    def fit(self, X, y):
        X = _sk_X(X)
        ys, classes = _encode(y, None)
        tr = run_passive_aggressive(X, np.asarray(ys).tolist(), variant=self.variant, C=self.C, epochs=self.epochs,
                                    exact=self.exact, record="none")
        self.classes_ = classes
        self.n_features_in_ = tr.n_features
        self.trace_ = tr
        self.mistakes_ = tr.mistakes
        self.coef_ = np.array([list(tr.weights)], dtype=object if self.exact else np.float64)
        self.intercept_ = np.zeros(1, dtype=object if self.exact else np.float64)
        return self

    def decision_function(self, X):
        A = self._check_X(X)
        w = list(self.coef_[0])
        if self.exact:
            return np.array([sum((a * b for a, b in zip(w, r)), 0 * w[0]) for r in A], dtype=object)
        return np.asarray(A @ np.asarray(w, dtype=np.float64))
