"""scikit-learn compatible estimators (``fit``, ``partial_fit``, ``predict``,
``decision_function``, ``coef_`` of shape (1, d), ``intercept_`` of shape (1,), ``classes_`` for
any two labels, ``get_params`` / ``set_params``) and River-style ``learn_one`` / ``predict_one``,
without importing either library.  X may be dense or scipy.sparse (used as CSR: the same results
as the dense matrix).

``Perceptron(epochs=E, bias=B)`` gives bitwise the coefficients of scikit-learn's
``Perceptron(eta0=1.0, fit_intercept=B, shuffle=False, penalty=None, max_iter=E, tol=None,
early_stopping=False)`` on dense float64 data (tests/learners/test_learners_sklearn.py).  With
``exact=True`` every coefficient is a ``Fraction`` (object arrays).

This module holds the perceptron and its averaged and voted forms; the kernel perceptron and
Winnow live in :mod:`learners.kernel_estimator` and :mod:`learners.winnow_estimator` (and are
importable from here too).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners.errors import InputError
from learners.estimator_base import (DataConversionWarning, InputTypeError, NotFittedError, _as_type_error, _Base,
                             _encode, _sk_X, n_cols, n_rows)
from learners.kernel_estimator import KernelPerceptron
from learners.perceptron import averaged_weights, run_perceptron, vote_arrays, voted_weights
from learners.sparse import check_csr, is_sparse
from learners.validation import check_matrix, raise_if_nonfinite
from learners.winnow_estimator import Winnow

SAMPLE_WEIGHT_ONLINE = ("sample_weight is not equivalent to removing/repeating samples: an online learner visits "
                        "a repeated example twice and a weighted one once (scikit-learn declares the same for its "
                        "Perceptron and SGDClassifier)")

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

    def fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        """``coef_init`` / ``intercept_init``: the starting weights, of shape (1, d) / (1,) for two
        classes, (n_classes, d) / (n_classes,) for more (one row per class against the rest).
        ``sample_weight`` (scikit-learn's): a mistake on example i moves w by sw_i y_i x_i (and b
        by sw_i y_i) -- bitwise scikit-learn's ``Perceptron.fit(..., sample_weight=sw)``."""
        return _Base.fit(self, X, y, coef_init=coef_init, intercept_init=intercept_init,
                         sample_weight=sample_weight)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        return _Base.partial_fit(self, X, y, classes=classes, sample_weight=sample_weight)

    def _expected_failed_checks(self):
        out = super()._expected_failed_checks()
        for c in ("check_sample_weight_equivalence_on_dense_data", "check_sample_weight_equivalence_on_sparse_data"):
            out[c] = SAMPLE_WEIGHT_ONLINE
        return out

    def _check_sw(self, sample_weight, n):
        if sample_weight is None:
            return None
        if self.normalize:
            raise InputError("sample_weight is not supported with normalize=True")
        if self.exact:
            from learners.numbers import to_fraction
            a = np.asarray(sample_weight, dtype=object)
            vals = np.full(n, a.item(), dtype=object) if a.ndim == 0 else a
            if vals.ndim != 1 or len(vals) != n:
                raise InputError(f"sample_weight.shape == {vals.shape}, expected ({n},)!")
            out = [to_fraction(v, what="sample_weight") for v in vals.tolist()]
            if not any(out):
                raise InputError("Sample weights must contain at least one non-zero number.")
            return out
        try:
            sw = np.asarray(sample_weight, dtype=np.float64)
        except (TypeError, ValueError):
            raise InputError("sample_weight must be numbers") from None
        if sw.ndim == 0:
            sw = np.full(n, float(sw))
        if sw.ndim != 1 or sw.shape[0] != n:
            raise InputError(f"sample_weight.shape == {sw.shape}, expected ({n},)!")
        if not np.all(np.isfinite(sw)):
            raise InputError("sample_weight contains NaN or infinity")
        if not np.any(sw):
            raise InputError("Sample weights must contain at least one non-zero number.")
        return np.ascontiguousarray(sw)

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

    def _fit_binary(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        A = self._fit_X(X)
        ys, classes = _encode(y, n_rows(A))
        sw = self._check_sw(sample_weight, n_rows(A))
        self.classes_ = classes
        self.n_features_in_ = n_cols(A)
        w0 = None if coef_init is None else np.ravel(np.asarray(coef_init, dtype=object)).tolist()
        b0 = 0 if intercept_init is None else np.ravel(np.asarray(intercept_init, dtype=object))[0]
        self._reset()
        self._learn(A, ys, self.epochs, w0, b0, sw)
        return self

    def _partial_fit_binary(self, X, y, classes=None, sample_weight=None):
        A = self._fit_X(X)
        sw = self._check_sw(sample_weight, n_rows(A))
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
        self._learn(A, ys, 1, w0, b0, sw)
        return self

    def _reset(self):
        self.mistakes_ = 0
        self.n_steps_ = 0

    def _learn(self, A, ys, epochs, w0, b0, sw=None):
        if sw is not None:
            return self._learn_weighted(A, ys, epochs, w0, b0, sw)
        tr = self._run(A, ys, epochs, w0, b0)
        self.trace_ = tr
        self.mistakes_ += tr.mistakes
        self.n_steps_ += tr.n_steps
        self._w = list(tr.weights)
        self._b = tr.bias if tr.bias is not None else (Fraction(0) if self.exact else 0.0)
        self._after_learn(tr)

    def _after_learn(self, tr):
        self._set_coef(self._w, self._b)

    def _learn_weighted(self, A, ys, epochs, w0, b0, sw):
        """The run with sample weights: scikit-learn's SGD loop (hinge at 0, step 1) in float
        mode, a rational loop in exact mode.  ``trace_`` is not kept (the run is not a plain
        perceptron run); ``mistakes_`` counts y (w.x + b) <= 0 as always."""
        from learners.core import visiting_order
        n, d = n_rows(A), n_cols(A)
        order = visiting_order(n, epochs, self.shuffle, self.seed)
        self.__dict__.pop("trace_", None)
        if self.exact:
            rows = check_matrix(A.toarray() if is_sparse(A) else A, exact=True)
            w = [Fraction(0)] * d if w0 is None else [Fraction(v) for v in w0]
            b = Fraction(b0 or 0) if self.bias else Fraction(0)
            w_start, b_start = list(w), b
            rec, mis = [], 0
            for i in order.tolist():
                x, yi = rows[i], int(ys[i])
                a = sum((wj * xj for wj, xj in zip(w, x)), Fraction(0)) + b
                if yi * a <= 0:
                    mis += 1
                    c = yi * sw[i]
                    w = [wj + c * xj for wj, xj in zip(w, x)]
                    if self.bias:
                        b += c
                    rec.append(c)
                else:
                    rec.append(Fraction(0))
        else:
            from learners import _sgd_loop as L
            if is_sparse(A):
                if not np.all(np.isfinite(A.data)):
                    raise InputError("Input X contains NaN or infinity.")
            elif not np.all(np.isfinite(A)):
                raise_if_nonfinite(A)
            w = np.zeros(d) if w0 is None else np.array([float(v) for v in w0], dtype=np.float64)
            b = float(b0 or 0.0) if self.bias else 0.0
            w_start, b_start = w.copy(), b
            st = np.array([b, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0])
            m = np.zeros(1, dtype=np.int64)
            rec = np.zeros(len(order))
            args = (np.asarray(ys, dtype=np.float64), sw, order, np.zeros(n, dtype=np.uint8), w, np.zeros(0), st,
                    L.CONSTANT, 1.0, 0.0, 1.0, 1.0, bool(self.bias), 1.0, 0, False, m, rec)
            if is_sparse(A):
                L.epoch_csr(A.data, A.indices, A.indptr, *args)
            else:
                L.epoch_dense(np.ascontiguousarray(A, dtype=np.float64), *args)
            b, mis = float(st[0]), int(m[0])
            if not (np.all(np.isfinite(w)) and np.isfinite(b)):
                raise InputError("floating-point overflow in the weights (scale the data or the sample weights)")
            rows = A
        self.mistakes_ += mis
        self.n_steps_ += len(order)
        self._w = list(w) if self.exact else w.tolist()
        self._b = b
        self._after_weighted(rows, order, rec, w_start, b_start)

    def _after_weighted(self, rows, order, rec, w_start, b_start):
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
        out = np.asarray(A @ w)
        out += self.intercept_[0]
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
        self._merge_average(avg_w, avg_b, cnt)

    def _after_weighted(self, rows, order, rec, w_start, b_start):
        """The mean of the weight vectors of a weighted run (as :func:`averaged_weights` does:
        the update of step t is in T - t of the vectors w_1..w_T)."""
        T = len(order)
        cnt = T + (1 if (self.include_initial and self._count == 0) else 0)
        steps = [t for t in range(T) if rec[t] != 0]
        if self.exact:
            acc = [cnt * v for v in w_start]
            bacc = cnt * b_start
            for t in steps:
                k, c, x = T - t, rec[t], rows[int(order[t])]
                acc = [a + k * c * xj for a, xj in zip(acc, x)]
                bacc += k * c if self.bias else 0
        else:
            from learners._loops_sparse import update_rows
            steps = np.asarray(steps, dtype=np.int64)
            acc = np.asarray(w_start, dtype=np.float64) * cnt
            coef = (T - steps) * np.asarray(rec)[steps]
            update_rows(rows, order[steps], coef, acc)
            bacc = cnt * b_start + (float(coef.sum()) if self.bias else 0.0)
        self._merge_average([v / cnt for v in acc], bacc / cnt if self.bias else None, cnt)

    def _merge_average(self, avg_w, avg_b, cnt):
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

    def fit(self, X, y, coef_init=None, intercept_init=None):
        """As :meth:`Perceptron.fit` (no ``sample_weight``: the votes count steps)."""
        return _Base.fit(self, X, y, coef_init=coef_init, intercept_init=intercept_init)

    def partial_fit(self, X, y, classes=None):
        return _Base.partial_fit(self, X, y, classes=classes)

    def _expected_failed_checks(self):
        return _Base._expected_failed_checks(self)

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
        from learners import _jit
        from learners._blas import one_thread
        m, K = n_rows(A), len(self._vc)
        out = np.empty(m)
        step = int(max(64, min(8192, (1 << 20) // max(K, 1))))        # products of at most ~8 MiB
        WT = self._W.T
        if _jit.live():
            # numba is loaded: the compiled sign-and-count reduction, one pass over the products
            from learners._loops_sparse import vote_counts
            with one_thread():
                for s0 in range(0, m, step):
                    blk = slice(s0, min(m, s0 + step))
                    vote_counts(np.ascontiguousarray(A[blk] @ WT), self._vb, self._vc, out[blk])
            return out
        # no compilation: the same counts in place in the product's buffer.  w.x + b > 0 iff
        # w.x > -b exactly (a rounded sum of two doubles is 0 only when they cancel exactly), and
        # sum_k c_k sign_k = 2 sum_{k: positive} c_k - sum_k c_k, integers below 2**53: exact
        negb = -self._vb
        c2 = 2.0 * self._vc.astype(np.float64)
        csum = float(self._vc.sum())
        buf = None
        with one_thread():
            for s0 in range(0, m, step):
                blk = slice(s0, min(m, s0 + step))
                if is_sparse(A):
                    S = np.ascontiguousarray(A[blk] @ WT)
                else:
                    if buf is None or buf.shape[0] != blk.stop - s0:
                        buf = np.empty((blk.stop - s0, K))
                    S = np.matmul(A[blk], WT, out=buf)
                np.greater(S, negb, out=S)
                np.matmul(S, c2, out=out[blk])
        out -= csum
        return out
