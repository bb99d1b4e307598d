"""The kernel perceptron as a scikit-learn compatible estimator (see :mod:`learners.estimators`)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners.errors import InputError
from learners.estimator_base import _as_type_error, _Base, _encode, _first_classes, _sk_X, n_cols, n_rows
from learners.kernel_perceptron import run_kernel_perceptron
from learners.kernels import _check_value, as_kernel_arg, parse_kernel
from learners.sparse import check_csr, is_sparse
from learners.validation import check_matrix

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

    def _fit_binary(self, X, y):
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
        self.__dict__.pop("_stream", None)
        self._sv = None
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

    def _partial_fit_binary(self, X, y, classes=None):
        """One pass over (X, y) in the order given, continuing from the current support vectors
        (scikit-learn's semantics: ``classes`` on the first call, unless that chunk shows both
        labels; ``epochs`` and ``shuffle`` apply to ``fit`` only).  The examples that never
        became support vectors are not kept: afterwards ``support_vectors_`` holds the support
        vectors only, ``dual_coef_`` their alphas and ``support_`` their positions in the stream.
        Chunks fed one after the other make the decisions of one ``fit`` pass over all of them."""
        K = parse_kernel(self.kernel)
        if K.name == "precomputed":
            raise InputError("partial_fit needs the examples themselves: a precomputed kernel matrix cannot grow")
        if self.blum_start:
            raise InputError("partial_fit does not support blum_start (Blum's variant starts from a whole data set)")
        try:
            A = _sk_X(X)
            if is_sparse(A):
                A = check_csr(A).toarray()
            A = check_matrix(A, exact=self.exact)
        except InputError as e:
            raise _as_type_error(e) from None
        n, d = n_rows(A), n_cols(A)
        first = not hasattr(self, "classes_")
        if first:
            ys, classes = _first_classes(y, n, classes)
        else:
            if d != self.n_features_in_:
                raise InputError(f"X has {d} features, but KernelPerceptron is expecting {self.n_features_in_} "
                                 "features as input")
            ys, _ = _encode(y, n, classes=self.classes_)
        rows, alpha, pos, b, seen, mistakes = self._stream_state(K) if not first else (
            [], [], [], (Fraction(0) if self.exact else 0.0), 0, 0)
        ys = np.asarray(ys, dtype=np.int64)
        if self.exact or K.name == "callable":
            new, b, m = _walk(K, rows, alpha, b, A, ys.tolist(), self.bias, self.exact)
        else:
            new, b, m = _walk_blocked(K, rows, alpha, b, A, ys, self.bias)
        for i, a in new:
            rows.append(A[i] if not self.exact else tuple(A[i]))
            alpha.append(a)
            pos.append(seen + i)
        if first:
            self.classes_ = classes
            self.n_features_in_ = d
        self._set_stream(K, rows, alpha, pos, b, seen + n, mistakes + m)
        return self

    def _stream_state(self, K):
        """(support rows, their alphas, stream positions, b, examples seen, mistakes) of a fitted model."""
        if hasattr(self, "_stream"):
            st = self._stream
            return list(st["rows"]), list(st["alpha"]), list(st["pos"]), st["b"], st["seen"], self.mistakes_
        sup = [int(j) for j in self.support_]
        A = self.support_vectors_
        rows = [(A[j].toarray()[0] if is_sparse(A) else A[j]) for j in sup]
        return (rows, [self.dual_coef_[j] for j in sup], sup, self.intercept_[0], n_rows(A), self.mistakes_)

    def _set_stream(self, K, rows, alpha, pos, b, seen, mistakes):
        dt = object if self.exact else np.float64
        self._stream = {"rows": rows, "alpha": alpha, "pos": pos, "b": b, "seen": seen}
        self.mistakes_ = mistakes
        self.__dict__.pop("trace_", None)
        self.dual_coef_ = np.array(alpha, dtype=dt)
        self.support_ = np.array(pos, dtype=np.int64)
        self.intercept_ = np.array([b], dtype=dt)
        self._K = K
        if self.exact:
            self.support_vectors_ = list(rows)
        else:
            self.support_vectors_ = np.array(rows, dtype=np.float64).reshape(len(rows), self.n_features_in_)
        self._sv = None
        if not self.exact and K.name != "callable":
            from learners._loops_sparse import row_norms
            S = np.ascontiguousarray(self.support_vectors_)
            self._sv, self._sv_alpha = S, np.array(alpha, dtype=np.float64)
            self._sv_sq = row_norms(S) if K.name == "gaussian" else np.zeros(len(rows))

    def _decision_binary(self, X):
        A = self._check_X(X)
        b = self.intercept_[0]
        if getattr(self, "_sv", None) is not None and not self.exact:
            from learners.kernel_fast import decision_blocked
            return decision_blocked(self._sv, self._sv_alpha, self._sv_sq, A, self._K, float(b))
        K = self._K
        if hasattr(self, "_stream"):
            pairs = list(zip(self._stream["alpha"], self._stream["rows"]))
            if K.name == "precomputed":
                raise InputError("a precomputed kernel cannot predict after partial_fit")  # pragma: no cover
        else:
            sv = self.support_vectors_
            pairs = [(self.dual_coef_[int(j)], sv[int(j)]) for j in self.support_]
        out = []
        if K.name == "precomputed":
            idx = [int(j) for j in self.support_]
            alpha = self.dual_coef_
            for x in A:
                out.append(sum(alpha[j] * x[j] for j in idx) + b)
        else:
            pairs = [(a, as_kernel_arg(r)) for a, r in pairs]
            for x in A:
                xs = as_kernel_arg(x)
                out.append(sum(a * K(r, xs) for a, r in pairs) + b)
        return np.array(out, dtype=object if self.exact else np.float64)


def _walk(K, rows, alpha, b, A, ys, bias, exact):
    """One pass in rational (exact) or float arithmetic with the kernel called on each pair, as
    the reference loop does: the score sums alpha_j K(x_j, x) in support-vector order from 0."""
    zero = Fraction(0) if exact else 0.0
    sv = [as_kernel_arg(r) for r in rows]
    co = list(alpha)
    new, m = [], 0
    for i in range(n_rows(A)):
        x = as_kernel_arg(A[i])
        s = zero
        for a, r in zip(co, sv):
            s += a * _check_value(K(r, x), len(sv), i, exact=exact)
        yi = ys[i]
        if yi * (s + b) <= 0:
            m += 1
            sv.append(x)
            co.append(Fraction(yi) if exact else float(yi))
            new.append((i, co[-1]))
            if bias:
                b += yi
    return new, b, m


def _walk_blocked(K, rows, alpha, b, A, ys, bias):
    """One pass of the compiled blocked loop over A, the old support vectors stacked above it."""
    from learners.kernel_fast import fit_blocked
    k = len(rows)
    X = np.ascontiguousarray(np.vstack([np.asarray(rows, dtype=np.float64).reshape(k, A.shape[1]), A]))
    y = np.concatenate([np.ones(k, dtype=np.int64), ys])
    r = fit_blocked(X, y, np.arange(k, k + A.shape[0], dtype=np.int64), K, bias=bias, strict=False,
                    init=(np.arange(k), np.asarray(alpha, dtype=np.float64), float(b)))
    new = [(int(j) - k, float(r["alpha"][j])) for j in r["sv"][k:]]
    return new, r["b"], int(np.count_nonzero(r["mis"]))
