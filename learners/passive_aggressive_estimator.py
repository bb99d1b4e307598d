"""Passive-Aggressive as a scikit-learn style estimator (``fit``, ``partial_fit``, ``predict``,
``decision_function``, ``coef_``, ``classes_``; see :mod:`learners.estimators`).  No intercept:
the bounds of Crammer et al. (2006) are about w alone (append a constant feature for one).
The drop-in for scikit-learn's ``PassiveAggressiveClassifier`` (with its intercept, shuffling,
stopping rules and averaging) is :class:`learners.passive_aggressive_classifier.PassiveAggressiveClassifier`."""
from __future__ import annotations

import numpy as np

from learners.errors import InputError
from learners.estimator_base import _as_type_error, _Base, _encode, _first_classes, _sk_X, n_cols, n_rows
from learners.passive_aggressive import run_passive_aggressive
from learners.sparse import check_csr, is_sparse
from learners.validation import check_matrix

__all__ = ["PassiveAggressive"]


class PassiveAggressive(_Base):
    """variant "pa", "pa1" (step capped at C) or "pa2" (step l/(|x|^2 + 1/(2C)))."""

    _linear_decision = True

    def __init__(self, variant="pa1", C=1, epochs=1, exact=False):
        self.variant = variant
        self.C = C
        self.epochs = epochs
        self.exact = exact

    def _X(self, X):
        try:
            A = _sk_X(X)
            if is_sparse(A):
                A = check_csr(A).toarray()        # PA's steps are dense updates of w
            return check_matrix(A, exact=self.exact)
        except InputError as e:
            raise _as_type_error(e) from None

    def _fit_binary(self, X, y):
        A = self._X(X)
        ys, classes = _encode(y, n_rows(A))
        self.mistakes_ = 0
        return self._learn(A, ys, classes, self.epochs, None)

    def _partial_fit_binary(self, X, y, classes=None):
        """One pass over (X, y) in the order given, from the current weights (zeros on the first
        call); ``epochs`` applies to ``fit`` only."""
        A = self._X(X)
        if not hasattr(self, "classes_"):
            ys, cl = _first_classes(y, n_rows(A), classes)
            self.mistakes_ = 0
            return self._learn(A, ys, cl, 1, None)
        if n_cols(A) != self.n_features_in_:
            raise InputError(f"X has {n_cols(A)} features, but PassiveAggressive is expecting {self.n_features_in_} "
                             "features as input")
        ys, _ = _encode(y, n_rows(A), classes=self.classes_)
        return self._learn(A, ys, self.classes_, 1, list(self.coef_[0]))

    def _learn(self, A, ys, classes, epochs, w0):
        tr = run_passive_aggressive(A, np.asarray(ys).tolist(), variant=self.variant, C=self.C, epochs=epochs,
                                    exact=self.exact, record="none", w0=w0)
        self.classes_ = classes
        self.n_features_in_ = tr.n_features
        self.trace_ = tr
        self.mistakes_ += tr.mistakes
        self.coef_ = np.array([list(tr.weights)], dtype=object if self.exact else np.float64)
        self.intercept_ = np.zeros(1, dtype=object if self.exact else np.float64)
        return self

    def _decision_binary(self, X):
        A = self._check_X(X)
        w = list(self.coef_[0])
        if self.exact:
            return np.array([sum((a * b for a, b in zip(w, r)), 0 * w[0]) for r in A], dtype=object)
        if is_sparse(A):
            A = A.toarray()
        return np.asarray(A @ np.asarray(w, dtype=np.float64))
