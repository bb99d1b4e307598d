"""Winnow as a scikit-learn compatible estimator (see :mod:`learners.estimators`)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners.errors import InputError
from learners.estimator_base import _WINNOW_CHECKS, WINNOW_BINARY_ONLY, _as_type_error, _Base, _encode, _sk_X
from learners.sparse import check_csr, is_sparse
from learners.validation import check_matrix
from learners.winnow import check_binary, raise_if_not_binary, run_winnow

__all__ = ["Winnow"]


class Winnow(_Base):
    """Winnow over {0,1} features; the two labels map to 0/1 (``classes_[1]`` is 1).  X: dense
    0/1 data of any numeric dtype, or a scipy.sparse matrix.

    ``binarize`` (scikit-learn's ``BernoulliNB`` convention): None (the default) takes {0,1}
    features only and refuses any other value -- Littlestone's mistake bounds are about {0,1}
    features; a number t maps every feature to 1 where it is > t and to 0 elsewhere (NaN and
    infinities are refused), so real-valued data can be fed.  A sparse X needs t >= 0 (zeros stay
    zeros)."""

    def __init__(self, epochs=1, variant="halve", alpha=2, theta=None, exact=True, binarize=None):
        self.epochs = epochs
        self.variant = variant
        self.alpha = alpha
        self.theta = theta
        self.exact = exact
        self.binarize = binarize

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = self.binarize is None       # features are 0/1: non-negative
        # a positive-weight threshold over binarised features is not meant to fit any data set
        # (scikit-learn's accuracy check on Gaussian blobs): Winnow learns monotone disjunctions
        tags.classifier_tags.poor_score = True
        return tags

    def _expected_failed_checks(self):
        # exact mode answers with +1/-1 integers, never Fractions: only the {0,1} domain matters
        return {c: WINNOW_BINARY_ONLY for c in _WINNOW_CHECKS} if self.binarize is None else {}

    def _binary_X(self, X):
        """X as Winnow's {0,1} data: as given (checked by the run) or binarised at ``binarize``."""
        X = _sk_X(X)
        t = self.binarize
        if t is None:
            return X
        if isinstance(t, bool) or not isinstance(t, (int, float, np.integer, np.floating)) or not np.isfinite(t):
            raise InputError(f"binarize must be None or a finite number, got {t!r}")
        try:
            if is_sparse(X):
                if t < 0:
                    raise InputError(f"Cannot binarize a sparse matrix with threshold < 0 (binarize={t!r})")
                A = check_csr(X).copy()
                A.data = (A.data > t).astype(np.uint8)
                A.eliminate_zeros()
                return A
            A = check_matrix(X, exact=False)
        except InputError as e:
            raise _as_type_error(e) from None
        return (A > t).astype(np.uint8)

    def _fit_binary(self, X, y):
        X = self._binary_X(X)
        ys, classes = _encode(y, None)
        self.mistakes_ = 0
        return self._learn(X, ys, classes, self.epochs, None)

    def _partial_fit_binary(self, X, y, classes=None):
        """One pass over (X, y) in the order given, from the current weights (all ones on the first
        call).  scikit-learn's semantics: ``classes`` on the first call (unless that chunk shows both
        labels); ``epochs`` applies to ``fit`` only.  Chunks fed one after the other make the run of
        one ``fit`` pass over all of them."""
        X = self._binary_X(X)
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

    def _decision_binary(self, X):
        """+1 where w.x >= theta (the tie counts positive, as in training), -1 elsewhere."""
        self._check_fitted()
        A = check_binary(self._binary_X(X))
        if A.shape[1] != self.n_features_in_:
            raise InputError(f"X has {A.shape[1]} features, but Winnow is expecting {self.n_features_in_} features "
                             "as input")
        if self.exact:
            from learners.winnow_exact import decide_rows
            pos = decide_rows(A, self.coef_[0], self.theta_) == 1
        else:
            from learners import _winnow_loops as WL
            s = np.empty(A.shape[0])
            w = np.ascontiguousarray(self.coef_[0], dtype=np.float64)
            if is_sparse(A):
                WL.csr_sums_seq(A.data, A.indices, A.indptr, w, s)
            elif WL.dense_sums_seq(A, w, s) >= 0:
                raise_if_not_binary(A)
            pos = s >= self.theta_
        return np.where(pos, 1, -1)
