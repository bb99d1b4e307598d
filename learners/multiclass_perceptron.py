"""The multiclass perceptron (Kesler's construction, in Duda & Hart 1973, "Pattern Classification
and Scene Analysis", section 5.12; Crammer & Singer 2003, "Ultraconservative Online Algorithms
for Multiclass Problems", JMLR 3): one weight vector per class, predict the class of the largest
score w_k.x + b_k (the first class on a tie).

A **mistake** is the true class's score not strictly above every other class's -- a tie counts
as a mistake, as in the binary perceptron.  On a mistake the true class's vector gains x (its
bias +1) and the highest-scoring other class's vector (the first on a tie) loses x (its bias -1).
Kesler's construction writes this as the binary perceptron on K·d-dimensional vectors, so the
Block-Novikoff bound holds with radius sqrt(2)·R: at most 2 R^2/gamma^2 mistakes, the
catalogue's ``multiclass_perceptron_bound`` (proofs/catalogue/multiclass_perceptron_bound.py).

Float mode sums every score in feature order from 0.0, then + b_k (a compiled loop; a run of at
most ``PY_MAX_WORK`` multiply-adds runs the same operations in Python, without numba); exact mode
keeps every weight a ``Fraction``.  A scipy.sparse X is used as a dense array.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners._jit import compiled
from learners.core import visiting_order
from learners.errors import InputError
from learners.estimator_base import _as_type_error, _Base, _sk_X, _sk_y, n_cols, n_rows
from learners.sparse import check_csr, is_sparse
from learners.validation import check_matrix

__all__ = ["MulticlassPerceptron"]

PY_MAX_WORK = 20_000


@compiled
def kesler_pass(X, c, order, W, b, use_bias):
    """One pass over ``order``: W (K x d) and b updated in place; returns the mistakes."""
    K, d = W.shape
    s = np.empty(K)
    m = 0
    for t in range(order.shape[0]):
        i = order[t]
        for k in range(K):
            acc = 0.0
            for j in range(d):
                acc += W[k, j] * X[i, j]
            s[k] = acc + b[k]
        ci = c[i]
        r = -1
        for k in range(K):
            if k != ci and (r < 0 or s[k] > s[r]):
                r = k
        if not s[ci] > s[r]:
            m += 1
            for j in range(d):
                W[ci, j] += X[i, j]
                W[r, j] -= X[i, j]
            if use_bias:
                b[ci] += 1.0
                b[r] -= 1.0
    return m


class MulticlassPerceptron(_Base):
    """The multiclass perceptron (Kesler's construction): ``coef_`` (n_classes x d), one row per
    class, also for two classes; ``decision_function`` gives one column per class (for two
    classes the score of ``classes_[1]`` minus that of ``classes_[0]``, scikit-learn's binary
    shape).  Parameters: epochs, bias, exact (rational arithmetic), shuffle + seed."""

    def __init__(self, epochs=1, bias=True, exact=False, shuffle=False, seed=None):
        self.epochs = epochs
        self.bias = bias
        self.exact = exact
        self.shuffle = shuffle
        self.seed = seed

    def _X(self, X):
        try:
            A = _sk_X(X)
            if is_sparse(A):
                A = check_csr(A).toarray()
            A = check_matrix(A, exact=self.exact)
        except InputError as e:
            raise _as_type_error(e) from None
        return A if self.exact else np.ascontiguousarray(A, dtype=np.float64)

    @staticmethod
    def _labels(y, n):
        y = _sk_y(y)
        a = np.asarray(y)
        if a.ndim != 1 or a.shape[0] != n:
            raise InputError(f"y must hold one label per example: {n} examples, y of shape {a.shape}")
        if a.dtype.kind == "f" and not np.all(np.isfinite(a) & (a == np.round(a))):
            raise InputError("Unknown label type: continuous labels; the labels must be classes")
        try:
            return np.unique(a, return_inverse=True)
        except TypeError:
            raise InputError("labels of mixed types that cannot be sorted") from None

    def fit(self, X, y):
        A = self._X(X)
        classes, c = self._labels(y, n_rows(A))
        if len(classes) < 2:
            raise InputError(f"only 1 class in the labels ({classes[0]!r}): at least two are needed")
        self._start(classes, n_cols(A))
        return self._learn(A, c.astype(np.int64), self.epochs)

    def partial_fit(self, X, y, classes=None):
        """One pass over (X, y) in the order given, from the current weights; ``classes`` on the
        first call unless that chunk shows every class."""
        A = self._X(X)
        labels, _ = self._labels(y, n_rows(A))
        if not hasattr(self, "classes_"):
            cl = labels if classes is None else np.unique(np.asarray(classes))
            if len(cl) < 2:
                raise InputError(f"classes must hold at least two values, got {len(cl)}")
            self._start(cl, n_cols(A))
        elif n_cols(A) != self.n_features_in_:
            raise InputError(f"X has {n_cols(A)} features, but MulticlassPerceptron is expecting "
                             f"{self.n_features_in_} features as input")
        bad = np.setdiff1d(labels, self.classes_)
        if len(bad):
            raise InputError(f"labels {bad.tolist()!r} are not in classes {self.classes_.tolist()!r}")
        c = np.searchsorted(self.classes_, np.asarray(_sk_y(y)))
        return self._learn(A, c.astype(np.int64), 1)

    def _start(self, classes, d):
        self.classes_ = np.asarray(classes)
        self.n_features_in_ = d
        K = len(classes)
        self.mistakes_ = 0
        if self.exact:
            self.coef_ = np.array([[Fraction(0)] * d for _ in range(K)], dtype=object).reshape(K, d)
            self.intercept_ = np.array([Fraction(0)] * K, dtype=object)
        else:
            self.coef_ = np.zeros((K, d))
            self.intercept_ = np.zeros(K)

    def _learn(self, A, c, epochs):
        n = n_rows(A)
        order = visiting_order(n, epochs, self.shuffle, self.seed)
        if self.exact:
            W = [list(r) for r in self.coef_]
            b = list(self.intercept_)
            for i in order.tolist():
                x, ci = A[i], int(c[i])
                s = [sum((wj * xj for wj, xj in zip(W[k], x)), Fraction(0)) + b[k] for k in range(len(W))]
                r = max((k for k in range(len(W)) if k != ci), key=lambda k: (s[k], -k))
                if not s[ci] > s[r]:
                    self.mistakes_ += 1
                    W[ci] = [wj + xj for wj, xj in zip(W[ci], x)]
                    W[r] = [wj - xj for wj, xj in zip(W[r], x)]
                    if self.bias:
                        b[ci] += 1
                        b[r] -= 1
            self.coef_ = np.array(W, dtype=object).reshape(len(W), self.n_features_in_)
            self.intercept_ = np.array(b, dtype=object)
            return self
        W, b = self.coef_.copy(), self.intercept_.copy()
        run = kesler_pass.py_func if len(order) * W.size <= PY_MAX_WORK else kesler_pass
        self.mistakes_ += int(run(A, c, order, W, b, bool(self.bias)))
        if not (np.all(np.isfinite(W)) and np.all(np.isfinite(b))):
            raise InputError("floating-point overflow in the weights (scale the data)")
        self.coef_, self.intercept_ = W, b
        return self

    def _scores(self, X):
        self._check_fitted()
        A = self._X(X)
        if n_cols(A) != self.n_features_in_:
            raise InputError(f"X has {n_cols(A)} features, but MulticlassPerceptron is expecting "
                             f"{self.n_features_in_} features as input")
        if self.exact:
            return np.array([[sum((wj * xj for wj, xj in zip(w, x)), Fraction(0)) + bk
                              for w, bk in zip(self.coef_, self.intercept_)] for x in A], dtype=object)
        return A @ self.coef_.T + self.intercept_

    def decision_function(self, X):
        S = self._scores(X)
        return S[:, 1] - S[:, 0] if len(self.classes_) == 2 else S

    def predict(self, X):
        S = self._scores(X)
        if self.exact:
            idx = [max(range(S.shape[1]), key=lambda k: (row[k], -k)) for row in S]
            return self.classes_[np.asarray(idx, dtype=np.intp)]
        if len(self.classes_) == 2:
            return self.classes_[(S[:, 1] - S[:, 0] > 0).astype(np.intp)]
        return self.classes_[np.argmax(S, axis=1)]
