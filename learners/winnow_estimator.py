"""Winnow as a scikit-learn compatible estimator (see :mod:`learners.estimators`)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .errors import InputError
from .estimator_base import _Base, _encode, _sk_X
from .sparse import is_sparse
from .winnow import check_binary, raise_if_not_binary, run_winnow

__all__ = ["Winnow"]


class Winnow(_Base):
    """Winnow over {0,1} features; the two labels map to 0/1 (``classes_[1]`` is 1).  X: dense
    0/1 data of any numeric dtype, or a scipy.sparse matrix."""

    def __init__(self, epochs=1, variant="halve", alpha=2, theta=None, exact=True):
        self.epochs = epochs
        self.variant = variant
        self.alpha = alpha
        self.theta = theta
        self.exact = exact

    def __sklearn_tags__(self):  # features are 0/1: non-negative
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags

    def fit(self, X, y):
        X = _sk_X(X)
        ys, classes = _encode(y, None)
        self.mistakes_ = 0
        return self._learn(X, ys, classes, self.epochs, None)

    def partial_fit(self, X, y, classes=None):
        """One pass over (X, y) in the order given, from the current weights (all ones on the first
        call).  scikit-learn's semantics: ``classes`` on the first call (unless that chunk shows both
        labels); ``epochs`` applies to ``fit`` only.  Chunks fed one after the other make the run of
        one ``fit`` pass over all of them."""
        X = _sk_X(X)
        if not hasattr(self, "classes_"):
            if classes is None:
                ys, cl = _encode(y, None)
            else:
                cl = np.array(sorted(classes))
                if len(cl) != 2:
                    raise InputError(f"classes must be two values, got {len(cl)}")
                ys, cl = _encode(y, None, classes=cl)
            self.mistakes_ = 0
            return self._learn(X, ys, cl, 1, None)
        d = X.shape[1] if hasattr(X, "shape") and len(X.shape) == 2 else len(X[0])
        if d != self.n_features_in_:
            raise InputError(f"X has {d} features, but Winnow is expecting {self.n_features_in_} features as input")
        ys, _ = _encode(y, None, classes=self.classes_)
        return self._learn(X, ys, self.classes_, 1, self._state)

    def _learn(self, X, ys, classes, epochs, resume):
        y01 = (np.asarray(ys) == 1).astype(np.int64)
        try:
            tr = run_winnow(X, y01, epochs=epochs, theta=self.theta, variant=self.variant, alpha=self.alpha,
                            exact=self.exact, record="none", resume=resume)
        except InputError:
            # the data check is fused into the compiled pass; scikit-learn's wording for negatives
            neg = X.data < 0 if is_sparse(X) and X.dtype.kind in "iuf" else (
                X < 0 if isinstance(X, np.ndarray) and X.dtype.kind in "iuf" and X.ndim == 2 else None)
            if neg is not None and neg.any():
                raise InputError("Negative values in data passed to Winnow: its features must be 0 or 1") from None
            raise
        self.classes_ = classes
        self.n_features_in_ = tr.n_features
        self.trace_ = tr
        self.mistakes_ += tr.mistakes
        self._state = tr.extras["state"]
        self.coef_ = np.array([list(tr.weights)], dtype=object if self.exact else np.float64)
        th = tr.params["theta"]
        self.theta_ = Fraction(th) if self.exact else float(Fraction(th))
        return self

    def decision_function(self, X):
        """+1 where w.x >= theta (the tie counts positive, as in training), -1 elsewhere."""
        self._check_fitted()
        A = check_binary(_sk_X(X))
        if A.shape[1] != self.n_features_in_:
            raise InputError(f"X has {A.shape[1]} features, but Winnow is expecting {self.n_features_in_} features "
                             "as input")
        if self.exact:
            from .winnow_exact import decide_rows
            pos = decide_rows(A, self.coef_[0], self.theta_) == 1
        else:
            from . import _winnow_loops as WL
            s = np.empty(A.shape[0])
            w = np.ascontiguousarray(self.coef_[0], dtype=np.float64)
            if is_sparse(A):
                WL.csr_sums_seq(A.data, A.indices, A.indptr, w, s)
            elif WL.dense_sums_seq(A, w, s) >= 0:
                raise_if_not_binary(A)
            pos = s >= self.theta_
        return np.where(pos, 1, -1)
