"""scikit-learn compatible estimators (``fit``, ``partial_fit``, ``predict``,
``decision_function``, ``coef_`` of shape (1, d), ``intercept_`` of shape (1,), ``classes_`` for
any two labels, ``get_params`` / ``set_params``) and River-style ``learn_one`` / ``predict_one``,
without importing either library.

``Perceptron(epochs=E, bias=B)`` gives bitwise the coefficients of scikit-learn's
``Perceptron(eta0=1.0, fit_intercept=B, shuffle=False, penalty=None, max_iter=E, tol=None,
early_stopping=False)`` on dense float64 data (tests/test_learners_sklearn.py).  With
``exact=True`` every coefficient is a ``Fraction`` (object arrays).
"""
from __future__ import annotations

import inspect
import sys
import warnings
from fractions import Fraction

import numpy as np

from .errors import InputError
from .kernel_perceptron import run_kernel_perceptron
from .perceptron import averaged_weights, run_perceptron, voted_weights
from .validation import check_matrix, encode_labels
from .winnow import run_winnow

__all__ = ["Perceptron", "AveragedPerceptron", "VotedPerceptron", "KernelPerceptron", "Winnow"]


class NotFittedError(InputError, AttributeError):
    """The estimator is used before ``fit``."""


class InputTypeError(InputError, TypeError):
    """A value of X is not a number (also a ``TypeError``, as scikit-learn expects)."""


class DataConversionWarning(UserWarning):
    """y was a column vector (n, 1) and was flattened."""


_SK_CLASSES = {}


def _sk_class(name, ours):
    """``ours``, or -- when the *caller* has already imported scikit-learn (never imported here) --
    a subclass that is also scikit-learn's exception/warning class of that name, so that code
    written against scikit-learn catches it."""
    skx = sys.modules.get("sklearn.exceptions")
    if skx is None or not hasattr(skx, name):
        return ours
    cls = _SK_CLASSES.get(name)
    if cls is None:
        cls = _SK_CLASSES[name] = type(name, (ours, getattr(skx, name)), {"__module__": __name__})
    return cls


def _sk_X(X, what="X"):
    """The estimators' front door for X (scikit-learn wording for the errors scikit-learn users
    meet); the data checks proper stay in learners.validation."""
    if X is None:
        raise InputError(f"{what} is None: expected a 2-D array-like of numbers")
    mod = type(X).__module__ or ""
    if mod.startswith("scipy.sparse") or (hasattr(X, "toarray") and hasattr(X, "nnz")):
        raise InputError("sparse input is not supported: pass a dense array (X.toarray())")
    if not isinstance(X, np.ndarray) and hasattr(X, "__array__"):
        X = np.asarray(X)
    if isinstance(X, np.ndarray):
        if X.dtype.kind == "c":
            raise InputError(f"Complex data not supported: {what} has dtype {X.dtype}")
        if X.ndim == 1:
            raise InputError(f"{what} must be 2-D, got a 1-D array: Reshape your data with X.reshape(-1, 1) "
                             "for a single feature or X.reshape(1, -1) for a single example")
        if X.ndim == 2 and X.shape[0] == 0:
            raise InputError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required.")
        if X.ndim == 2 and X.shape[1] == 0:
            raise InputError(f"{what} has 0 feature(s) (shape=({X.shape[0]}, 0)) while a minimum of 1 is required.")
    return X


def _as_type_error(e: InputError):
    if "not a number" in str(e) or "not a real number" in str(e):
        return InputTypeError(str(e) + "; argument must be a string or a number")
    return e


def _sk_y(y):
    if y is None:
        raise InputError("requires y to be passed, but the target y is None")
    if not isinstance(y, np.ndarray) and hasattr(y, "__array__") and not isinstance(y, (str, bytes)):
        y = np.asarray(y)
    if isinstance(y, np.ndarray):
        if y.dtype.kind == "c":
            raise InputError("Complex data not supported: y is complex")
        if y.ndim == 2 and y.shape[1] == 1:
            warnings.warn(_sk_class("DataConversionWarning", DataConversionWarning)(
                "A column-vector y was passed when a 1d array was expected; y was flattened"), stacklevel=3)
            y = y.ravel()
    return y


def _encode(y, n, classes=None):
    """encode_labels with scikit-learn's wording for the two usual mistakes (one class, or more
    than two / continuous labels)."""
    y = _sk_y(y)
    try:
        return encode_labels(y, n, classes=classes)
    except InputError as e:
        if "exactly two values" not in str(e):
            raise
        vals = np.asarray(y).ravel()
        try:
            k = len(np.unique(vals))
        except TypeError:
            raise e from None
        if k == 1:
            raise InputError(f"only 1 class in the labels ({vals[0]!r}): the labels must take exactly two "
                             "values") from None
        if vals.dtype.kind == "f" and not np.all(vals == np.round(vals)):
            raise InputError(f"Unknown label type: continuous labels ({k} distinct values); "
                             "the labels must take exactly two values") from None
        raise InputError(f"Only binary classification is supported: the labels must take exactly two values, "
                         f"got {k}") from None


class _Base:
    _estimator_type = "classifier"

    @classmethod
    def _get_param_names(cls):
        sig = inspect.signature(cls.__init__)
        return [p for p in sig.parameters if p != "self"]

    def get_params(self, deep=True):
        return {k: getattr(self, k) for k in self._get_param_names()}

    def set_params(self, **params):
        valid = self._get_param_names()
        for k, v in params.items():
            if k not in valid:
                raise InputError(f"invalid parameter {k!r} for {type(self).__name__}")
            setattr(self, k, v)
        return self

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    def __sklearn_tags__(self):  # used by scikit-learn >= 1.6 when it is installed; not imported here
        from sklearn.utils import ClassifierTags, Tags, TargetTags  # pragma: no cover - compare extra only
        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(multi_class=False))

    def _check_fitted(self):
        if not hasattr(self, "classes_"):
            raise _sk_class("NotFittedError", NotFittedError)(
                f"This {type(self).__name__} instance is not fitted yet; call fit first")

    def _check_X(self, X):
        self._check_fitted()
        try:
            A = check_matrix(_sk_X(X), exact=getattr(self, "exact", False))
        except InputError as e:
            raise _as_type_error(e) from None
        d = len(A[0])
        if d != self.n_features_in_:
            raise InputError(f"X has {d} features, but {type(self).__name__} is expecting {self.n_features_in_} "
                             "features as input")
        return A

    def predict(self, X):
        s = self.decision_function(X)
        idx = np.array([1 if v > 0 else 0 for v in np.ravel(s)], dtype=int)
        return self.classes_[idx]

    def score(self, X, y):
        return float(np.mean(self.predict(X) == np.asarray(y)))

    # River-style -----------------------------------------------------------------------
    def _x_from_dict(self, x):
        if not isinstance(x, dict):
            raise InputError("learn_one/predict_one take a dict of feature -> value")
        keys = getattr(self, "_river_keys", None)
        if keys is None:
            keys = self._river_keys = []
        for k in x:
            if k not in keys:
                if hasattr(self, "classes_"):
                    raise InputError(f"feature {k!r} was not seen in the first example")
                keys.append(k)
        return [[x.get(k, 0) for k in keys]]

    def learn_one(self, x, y):
        X = self._x_from_dict(x)
        if not hasattr(self, "classes_"):
            self._river_pending = getattr(self, "_river_pending", [])
            self._river_pending.append((X[0], y))
            labels = {lab for _, lab in self._river_pending}
            if len(labels) < 2:
                return self
            Xs = [r for r, _ in self._river_pending]
            ys = [lab for _, lab in self._river_pending]
            del self._river_pending
            self.partial_fit(Xs, ys, classes=sorted(labels))
            return self
        self.partial_fit(X, [y])
        return self

    def predict_one(self, x):
        if not hasattr(self, "classes_"):
            pend = getattr(self, "_river_pending", [])
            return pend[0][1] if pend else None
        return self.predict(self._x_from_dict(x))[0]


class Perceptron(_Base):
    """The perceptron: mistake iff y (w.x + b) <= 0; update w += y x, b += y.

    Parameters: epochs (passes over the data), bias, exact (rational arithmetic), normalize
    (scale examples to unit length, Blum's notes), shuffle + seed (reshuffle each epoch), fast
    (float mode: reorder dot-product sums for speed).
    """

    _algorithm = "perceptron"

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
            if self.exact:
                if (not self.normalize and type(X) is np.ndarray and X.ndim == 2 and X.dtype.kind in "iuf"
                        and X.shape[0] > 0 and X.shape[1] > 0):
                    return X      # run_perceptron checks it (check_int_matrix: one compiled pass)
                return check_matrix(X, exact=True)
            return check_matrix(X, exact=False, check_finite=False)
        except InputError as e:
            raise _as_type_error(e) from None

    def fit(self, X, y, coef_init=None, intercept_init=None):
        A = self._fit_X(X)
        ys, classes = _encode(y, len(A))
        self.classes_ = classes
        self.n_features_in_ = len(A[0])
        w0 = None if coef_init is None else np.ravel(np.asarray(coef_init, dtype=object)).tolist()
        b0 = 0 if intercept_init is None else np.ravel(np.asarray(intercept_init, dtype=object))[0]
        self._reset()
        self._learn(A, ys, self.epochs, w0, b0)
        return self

    def partial_fit(self, X, y, classes=None):
        A = self._fit_X(X)
        if not hasattr(self, "classes_"):
            if classes is None:
                ys, cl = _encode(y, len(A))
            else:
                cl = np.array(sorted(classes))
                if len(cl) != 2:
                    raise InputError(f"classes must be two values, got {len(cl)}")
                ys, cl = _encode(y, len(A), classes=cl)
            self.classes_ = cl
            self.n_features_in_ = len(A[0])
            self._reset()
            w0, b0 = None, 0
        else:
            if len(A[0]) != self.n_features_in_:
                raise InputError(f"X has {len(A[0])} features, but {type(self).__name__} is expecting "
                                 f"{self.n_features_in_} features as input")
            ys, _ = _encode(y, len(A), classes=self.classes_)
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

    def decision_function(self, X):
        A = self._check_X(X)
        if self.exact:
            w, b = self.coef_[0], self.intercept_[0]
            return np.array([sum(wi * xi for wi, xi in zip(w, x)) + b for x in A], dtype=object)
        return A @ self.coef_[0] + self.intercept_[0]


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
    ``coef_`` is the last weight vector."""

    _algorithm = "voted"

    def _reset(self):
        super()._reset()
        self.votes_ = []

    def _after_learn(self, tr):
        v = voted_weights(tr)
        if self.votes_ and v:
            w_last, b_last, c_last = self.votes_[-1]
            w0, b0, c0 = v[0]
            if list(w0) == list(w_last) and b0 == b_last:
                self.votes_[-1] = (w_last, b_last, c_last + c0)
                v = v[1:]
        self.votes_.extend(v)
        self._set_coef(self._w, self._b)

    def decision_function(self, X):
        A = self._check_X(X)
        out = []
        for x in A:
            s = 0
            for w, b, c in self.votes_:
                a = sum(wi * xi for wi, xi in zip(w, x)) + (b or 0)
                s += c * (1 if a > 0 else -1)
            out.append(s)
        return np.array(out, dtype=object if self.exact else np.float64)


class KernelPerceptron(_Base):
    """The kernel perceptron in dual form: ``dual_coef_`` (alpha, one per training example),
    ``support_vectors_`` (the training examples), decision f(x) = sum_j alpha_j K(x_j, x) + b."""

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
        try:
            A = check_matrix(_sk_X(X), exact=self.exact)
        except InputError as e:
            raise _as_type_error(e) from None
        ys, classes = _encode(y, len(A))
        tr = run_kernel_perceptron(A, ys, self.kernel, epochs=self.epochs, bias=self.bias, exact=self.exact,
                                   blum_start=self.blum_start, shuffle=self.shuffle, seed=self.seed, record="none")
        self.classes_ = classes
        self.n_features_in_ = len(A[0])
        self.trace_ = tr
        self.mistakes_ = tr.mistakes
        self.dual_coef_ = np.array(tr.weights, dtype=object if self.exact else np.float64)
        self.support_vectors_ = A
        self.intercept_ = np.array([tr.bias if tr.bias is not None else 0], dtype=object if self.exact else float)
        self._K = tr.extras["kernel"]
        return self

    # No partial_fit: the dual coefficients are tied to the training set (scikit-learn's checks
    # detect partial_fit support with hasattr, so the method is absent rather than raising).

    def decision_function(self, X):
        A = self._check_X(X)
        K = self._K
        sv = self.support_vectors_
        idx = [j for j, a in enumerate(self.dual_coef_) if a != 0]
        out = []
        for x in A:
            xs = list(x)
            out.append(sum(self.dual_coef_[j] * K(list(sv[j]), xs) for j in idx) + self.intercept_[0])
        return np.array(out, dtype=object if self.exact else np.float64)


class Winnow(_Base):
    """Winnow over {0,1} features; the two labels map to 0/1 (``classes_[1]`` is 1)."""

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
        if isinstance(X, np.ndarray) and X.dtype.kind in "iuf" and X.ndim == 2 and (X < 0).any():
            raise InputError("Negative values in data passed to Winnow: its features must be 0 or 1")
        y01 = [1 if v == 1 else 0 for v in ys]
        tr = run_winnow(X, y01, epochs=self.epochs, theta=self.theta, variant=self.variant, alpha=self.alpha,
                        exact=self.exact, record="none")
        self.classes_ = classes
        self.n_features_in_ = tr.n_features
        self.trace_ = tr
        self.mistakes_ = tr.mistakes
        self.coef_ = np.array([list(tr.weights)], dtype=object if self.exact else np.float64)
        th = tr.params["theta"]
        self.theta_ = Fraction(th) if self.exact else float(Fraction(th))
        return self

    def decision_function(self, X):
        self._check_fitted()
        from .validation import check_binary_matrix
        A = check_binary_matrix(_sk_X(X))
        if A.shape[1] != self.n_features_in_:
            raise InputError(f"X has {A.shape[1]} features, but Winnow is expecting {self.n_features_in_} features "
                             "as input")
        w = self.coef_[0]
        # >= theta predicts 1: shift so that predict's "> 0" rule matches (ties at theta count positive)
        out = []
        for row in A:
            s = sum(w[j] for j in np.flatnonzero(row))
            out.append(1 if s >= self.theta_ else -1)
        return np.array(out)
