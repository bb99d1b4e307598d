"""scikit-learn compatible estimators (``fit``, ``partial_fit``, ``predict``,
``decision_function``, ``coef_`` of shape (1, d), ``intercept_`` of shape (1,), ``classes_`` for
any two labels, ``get_params`` / ``set_params``) and River-style ``learn_one`` / ``predict_one``,
without importing either library.  X may be dense or scipy.sparse (used as CSR: the same results
as the dense matrix).

``Perceptron(epochs=E, bias=B)`` gives bitwise the coefficients of scikit-learn's
``Perceptron(eta0=1.0, fit_intercept=B, shuffle=False, penalty=None, max_iter=E, tol=None,
early_stopping=False)`` on dense float64 data (tests/test_learners_sklearn.py).  With
``exact=True`` every coefficient is a ``Fraction`` (object arrays).

This module holds the perceptron and its averaged and voted forms; the kernel perceptron and
Winnow live in :mod:`learners.kernel_estimator` and :mod:`learners.winnow_estimator` (and are
importable from here too).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .errors import InputError
from .estimator_base import (DataConversionWarning, InputTypeError, NotFittedError, _as_type_error, _Base,
                             _encode, _sk_X, n_cols, n_rows)
from .kernel_estimator import KernelPerceptron
from .perceptron import averaged_weights, run_perceptron, vote_arrays, voted_weights
from .sparse import check_csr, is_sparse
from .validation import check_matrix, raise_if_nonfinite
from .winnow_estimator import Winnow

__all__ = ["Perceptron", "AveragedPerceptron", "VotedPerceptron", "KernelPerceptron", "Winnow", "NotFittedError",
           "InputTypeError", "DataConversionWarning"]


class Perceptron(_Base):
    """The perceptron: mistake iff y (w.x + b) <= 0; update w += y x, b += y.

    Parameters: epochs (passes over the data), bias, exact (rational arithmetic), normalize
    (scale examples to unit length, Blum's notes), shuffle + seed (reshuffle each epoch), fast
    (float mode: reorder dot-product sums for speed).
    """

    _algorithm = "perceptron"
    _linear_decision = True

    def __init__(self, epochs=1, bias=True, exact=False, normalize=False, shuffle=False, seed=None, fast=False):
        self.epochs = epochs
        self.bias = bias
        self.exact = exact
        self.normalize = normalize
        self.shuffle = shuffle
        self.seed = seed
        self.fast = fast

    def _run(self, X, ys, epochs, w0, b0):
        return run_perceptron(X, ys, epochs=epochs, bias=self.bias, normalize=self.normalize, w0=w0, b0=b0,
                              shuffle=self.shuffle, seed=self.seed, exact=self.exact, fast=self.fast,
                              record="none", algorithm=self._algorithm)

    def _fit_X(self, X):
        """X checked for fitting, without an O(n d) pass where the learner does the checking:
        float mode leaves the NaN/inf scan to the compiled loop; exact mode keeps an integer numpy
        array as int64 (no Fraction per entry)."""
        X = _sk_X(X)
        try:
            if is_sparse(X):
                return check_csr(X)       # run_perceptron takes CSR in both modes
            if self.exact:
                if (not self.normalize and type(X) is np.ndarray and X.ndim == 2 and X.dtype.kind in "iuf"
                        and X.shape[0] > 0 and X.shape[1] > 0):
                    return X      # run_perceptron checks it (check_int_matrix: one compiled pass)
                return check_matrix(X, exact=True)
            return check_matrix(X, exact=False, check_finite=False)
        except InputError as e:
            raise _as_type_error(e) from None

    def fit(self, X, y, coef_init=None, intercept_init=None):
        """``coef_init`` / ``intercept_init``: the starting weights, of shape (1, d) / (1,) for two
        classes, (n_classes, d) / (n_classes,) for more (one row per class against the rest)."""
        return _Base.fit(self, X, y, coef_init=coef_init, intercept_init=intercept_init)

    def partial_fit(self, X, y, classes=None):
        return _Base.partial_fit(self, X, y, classes=classes)

    def _ovr_kwargs(self, kw, k, n_classes):
        out = dict(kw)
        for name in ("coef_init", "intercept_init"):
            v = kw.get(name)
            if v is not None:
                a = np.asarray(v, dtype=object)
                if a.ndim == 0 or a.shape[0] != n_classes:
                    raise InputError(f"{name} must have one row per class ({n_classes}), got shape {a.shape}")
                out[name] = a[k]
        return out

    def _fit_binary(self, X, y, coef_init=None, intercept_init=None):
        A = self._fit_X(X)
        ys, classes = _encode(y, n_rows(A))
        self.classes_ = classes
        self.n_features_in_ = n_cols(A)
        w0 = None if coef_init is None else np.ravel(np.asarray(coef_init, dtype=object)).tolist()
        b0 = 0 if intercept_init is None else np.ravel(np.asarray(intercept_init, dtype=object))[0]
        self._reset()
        self._learn(A, ys, self.epochs, w0, b0)
        return self

    def _partial_fit_binary(self, X, y, classes=None):
        A = self._fit_X(X)
        if not hasattr(self, "classes_"):
            if classes is None:
                ys, cl = _encode(y, n_rows(A))
            else:
                cl = np.array(sorted(classes))
                if len(cl) != 2:
                    raise InputError(f"classes must be two values, got {len(cl)}")
                ys, cl = _encode(y, n_rows(A), classes=cl)
            self.classes_ = cl
            self.n_features_in_ = n_cols(A)
            self._reset()
            w0, b0 = None, 0
        else:
            if n_cols(A) != self.n_features_in_:
                raise InputError(f"X has {n_cols(A)} features, but {type(self).__name__} is expecting "
                                 f"{self.n_features_in_} features as input")
            ys, _ = _encode(y, n_rows(A), classes=self.classes_)
            w0, b0 = self._w, (self._b if self.bias else 0)
        self._learn(A, ys, 1, w0, b0)
        return self

    def _reset(self):
        self.mistakes_ = 0
        self.n_steps_ = 0

    def _learn(self, A, ys, epochs, w0, b0):
        tr = self._run(A, ys, epochs, w0, b0)
        self.trace_ = tr
        self.mistakes_ += tr.mistakes
        self.n_steps_ += tr.n_steps
        self._w = list(tr.weights)
        self._b = tr.bias if tr.bias is not None else (Fraction(0) if self.exact else 0.0)
        self._after_learn(tr)

    def _after_learn(self, tr):
        self._set_coef(self._w, self._b)

    def _set_coef(self, w, b):
        dt = object if self.exact else np.float64
        self.coef_ = np.array([list(w)], dtype=dt)
        self.intercept_ = np.array([b if self.bias else (Fraction(0) if self.exact else 0.0)], dtype=dt)

    def _decision_binary(self, X):
        # float mode: one product.  A NaN/inf in a row makes its value non-finite, so X is
        # scanned (to name it) only then -- or first, when a zero weight could let a BLAS skip it
        self._check_fitted()
        w = self.coef_[0]
        A = self._check_X(X, check_finite=bool(self.exact) or bool((w == 0).any()))
        if self.exact:
            b = self.intercept_[0]
            return np.array([sum(wi * xi for wi, xi in zip(w, x)) + b for x in A], dtype=object)
        out = A @ w + self.intercept_[0]
        if not is_sparse(A) and not np.isfinite(out).all():
            raise_if_nonfinite(A)
        return out


class AveragedPerceptron(Perceptron):
    """The averaged perceptron: predicts with the mean of the weight vectors.

    ``include_initial=False`` (default, scikit-learn's ``SGDClassifier(average=True)``
    convention): the mean of w_1..w_T, the weights after each of the T steps;
    ``include_initial=True``: the mean of w_0..w_T.  ``raw_coef_`` holds the last weights.
    """

    _algorithm = "averaged"

    def __init__(self, epochs=1, bias=True, exact=False, normalize=False, shuffle=False, seed=None, fast=False,
                 include_initial=False):
        super().__init__(epochs=epochs, bias=bias, exact=exact, normalize=normalize, shuffle=shuffle, seed=seed,
                         fast=fast)
        self.include_initial = include_initial

    def _reset(self):
        super()._reset()
        self._sum_w = None
        self._sum_b = 0
        self._count = 0

    def _after_learn(self, tr):
        avg_w, avg_b = averaged_weights(tr, include_initial=self.include_initial and self._count == 0)
        cnt = tr.n_steps + (1 if (self.include_initial and self._count == 0) else 0)
        sw = [v * cnt for v in avg_w]
        sb = (avg_b or 0) * cnt
        if self._sum_w is None:
            self._sum_w, self._sum_b = sw, sb
        else:
            self._sum_w = [a + c for a, c in zip(self._sum_w, sw)]
            self._sum_b = self._sum_b + sb
        self._count += cnt
        self.raw_coef_ = np.array([self._w], dtype=object if self.exact else np.float64)
        self._set_coef([v / self._count for v in self._sum_w], self._sum_b / self._count)


class VotedPerceptron(Perceptron):
    """Freund & Schapire's voted perceptron: every weight vector met during training votes with
    the number of steps it survived; ``votes_`` is the list of (weights, bias, count).
    ``coef_`` is the last weight vector.

    Float mode keeps the votes as a (votes x d) matrix (the prefix sums of the updates), so that
    ``decision_function`` on m points is one (m x d) by (d x votes) product and a compiled
    sign-and-count reduction (counts are integers: summed exactly)."""

    _algorithm = "voted"
    _linear_decision = False

    def _reset(self):
        super()._reset()
        self._votes = []                 # exact mode: (weights, bias, count) tuples
        self._W = self._vb = self._vc = None

    def _after_learn(self, tr):
        if self.exact:
            v = voted_weights(tr)
            if self._votes and v:
                w_last, b_last, c_last = self._votes[-1]
                w0, b0, c0 = v[0]
                if list(w0) == list(w_last) and b0 == b_last:
                    self._votes[-1] = (w_last, b_last, c_last + c0)
                    v = v[1:]
            self._votes.extend(v)
        else:
            W, b, c = vote_arrays(tr)
            keep = c > 0
            W, b, c = W[keep], (np.zeros(len(c)) if b is None else b)[keep], c[keep]
            if (self._W is not None and len(c) and len(self._vc) and np.array_equal(W[0], self._W[-1])
                    and b[0] == self._vb[-1]):
                self._vc[-1] += c[0]                 # the same vector goes on voting
                W, b, c = W[1:], b[1:], c[1:]
            if self._W is None:
                self._W, self._vb, self._vc = W, b, c
            else:
                self._W = np.vstack([self._W, W])
                self._vb = np.concatenate([self._vb, b])
                self._vc = np.concatenate([self._vc, c])
        self._set_coef(self._w, self._b)

    @property
    def votes_(self):
        if self.exact or self._W is None:
            return list(self._votes)
        bias = self.bias
        return [(tuple(w), float(b) if bias else None, int(c))
                for w, b, c in zip(self._W.tolist(), self._vb.tolist(), self._vc.tolist())]

    def _decision_binary(self, X):
        A = self._check_X(X)
        if self.exact:
            out = []
            for x in A:
                s = 0
                for w, b, c in self._votes:
                    a = sum(wi * xi for wi, xi in zip(w, x)) + (b or 0)
                    s += c * (1 if a > 0 else -1)
                out.append(s)
            return np.array(out, dtype=object)
        from ._blas import one_thread
        from ._loops_sparse import vote_counts
        m, K = n_rows(A), len(self._vc)
        out = np.empty(m)
        step = int(max(64, min(8192, (1 << 20) // max(K, 1))))        # products of at most ~8 MiB
        with one_thread():
            for s0 in range(0, m, step):
                blk = slice(s0, min(m, s0 + step))
                S = A[blk] @ self._W.T
                vote_counts(np.ascontiguousarray(S), self._vb, self._vc, out[blk])
        return out
