"""The kernel perceptron as a scikit-learn compatible estimator (see :mod:`learners.estimators`)."""
from __future__ import annotations

import numpy as np

from .errors import InputError
from .estimator_base import _as_type_error, _Base, _encode, _sk_X, n_cols, n_rows
from .kernel_perceptron import run_kernel_perceptron
from .kernels import parse_kernel
from .sparse import check_csr, is_sparse
from .validation import check_matrix

__all__ = ["KernelPerceptron"]


class KernelPerceptron(_Base):
    """The kernel perceptron in dual form: ``dual_coef_`` (alpha, one per training example),
    ``support_vectors_`` (the training examples), ``support_`` (the indices of the examples with
    alpha != 0, in the order they became support vectors), decision
    f(x) = sum_j alpha_j K(x_j, x) + b.

    Float mode with a built-in kernel fits and predicts in blocks, without the n x n Gram matrix
    (:mod:`learners.kernel_fast`).  ``kernel="precomputed"``: X is the kernel matrix (n x n for
    ``fit``, m x n_train for ``predict``), as in scikit-learn."""

    def __init__(self, kernel="linear", epochs=1, bias=False, exact=False, blum_start=False, shuffle=False,
                 seed=None):
        self.kernel = kernel
        self.epochs = epochs
        self.bias = bias
        self.exact = exact
        self.blum_start = blum_start
        self.shuffle = shuffle
        self.seed = seed

    def fit(self, X, y):
        K = parse_kernel(self.kernel)
        try:
            A = _sk_X(X)
            if is_sparse(A):
                A = check_csr(A)
                if self.exact or K.name in ("callable", "precomputed"):
                    A = check_matrix(A.toarray(), exact=self.exact)
            else:
                A = check_matrix(A, exact=self.exact)
        except InputError as e:
            raise _as_type_error(e) from None
        ys, classes = _encode(y, n_rows(A))
        tr = run_kernel_perceptron(A, ys, K, epochs=self.epochs, bias=self.bias, exact=self.exact,
                                   blum_start=self.blum_start, shuffle=self.shuffle, seed=self.seed, record="none")
        self.classes_ = classes
        self.n_features_in_ = n_cols(A)
        self.trace_ = tr
        self.mistakes_ = tr.mistakes
        dt = object if self.exact else np.float64
        self.dual_coef_ = np.array(tr.weights, dtype=dt)
        self.support_vectors_ = A
        self.support_ = tr.extras["support"]
        self.intercept_ = np.array([tr.bias if tr.bias is not None else 0], dtype=dt)
        self._K = tr.extras["kernel"]
        if tr.params.get("engine") == "blocked":
            sup = self.support_
            self._sv = sup if K.name == "precomputed" else A[sup]
            self._sv_alpha = self.dual_coef_[sup]
            self._sv_sq = tr.extras["_sv_sq"]
        return self

    # No partial_fit: the dual coefficients are tied to the training set (scikit-learn's checks
    # detect partial_fit support with hasattr, so the method is absent rather than raising).

    def decision_function(self, X):
        A = self._check_X(X)
        b = self.intercept_[0]
        if getattr(self, "_sv", None) is not None and not self.exact:
            from .kernel_fast import decision_blocked
            return decision_blocked(self._sv, self._sv_alpha, self._sv_sq, A, self._K, float(b))
        K = self._K
        sv = self.support_vectors_
        idx = [int(j) for j in self.support_]
        alpha = self.dual_coef_
        out = []
        if K.name == "precomputed":
            for x in A:
                out.append(sum(alpha[j] * x[j] for j in idx) + b)
        else:
            rows = {j: list(sv[j]) for j in idx}
            for x in A:
                xs = list(x)
                out.append(sum(alpha[j] * K(rows[j], xs) for j in idx) + b)
        return np.array(out, dtype=object if self.exact else np.float64)
