"""The scikit-learn front door shared by the estimators (:mod:`learners.estimators`,
:mod:`learners.kernel_estimator`, :mod:`learners.winnow_estimator`): scikit-learn's wording for
the errors its users meet, label encoding for any two classes, ``get_params`` / ``set_params``,
and River-style ``learn_one`` / ``predict_one`` -- without importing either library.

X may be a dense array-like or a scipy.sparse matrix (used as CSR, :mod:`learners.sparse`).
"""
from __future__ import annotations

import inspect
import sys
import warnings

import numpy as np

from .errors import InputError
from .sparse import check_csr, is_sparse
from .validation import check_matrix, encode_labels

__all__ = ["NotFittedError", "InputTypeError", "DataConversionWarning", "n_rows", "n_cols"]


def n_rows(A) -> int:
    """Number of examples of checked data (array, CSR matrix or list of rows)."""
    return A.shape[0] if hasattr(A, "shape") else len(A)


def n_cols(A) -> int:
    return A.shape[1] if hasattr(A, "shape") else len(A[0])


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
    if is_sparse(X):
        if X.dtype.kind == "c":
            raise InputError(f"Complex data not supported: {what} has dtype {X.dtype}")
        if len(X.shape) == 2 and X.shape[0] == 0:
            raise InputError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required.")
        if len(X.shape) == 2 and X.shape[1] == 0:
            raise InputError(f"{what} has 0 feature(s) (shape=({X.shape[0]}, 0)) while a minimum of 1 is required.")
        return X
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
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags  # pragma: no cover - compare extra
        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(multi_class=False), input_tags=InputTags(sparse=True))

    def _check_fitted(self):
        if not hasattr(self, "classes_"):
            raise _sk_class("NotFittedError", NotFittedError)(
                f"This {type(self).__name__} instance is not fitted yet; call fit first")

    def _check_X(self, X, check_finite=True):
        """X for prediction: a float64 array, a CSR matrix (float mode) or rows of Fractions.
        ``check_finite=False``: a dense array is not scanned for NaN/inf (for callers that find
        them through their results and then call learners.validation.raise_if_nonfinite)."""
        self._check_fitted()
        exact = getattr(self, "exact", False)
        try:
            A = _sk_X(X)
            if is_sparse(A):
                A = check_csr(A)
                if exact:
                    A = check_matrix(A.toarray(), exact=True)
            else:
                A = check_matrix(A, exact=exact, check_finite=check_finite or exact)
        except InputError as e:
            raise _as_type_error(e) from None
        d = n_cols(A)
        if d != self.n_features_in_:
            raise InputError(f"X has {d} features, but {type(self).__name__} is expecting {self.n_features_in_} "
                             "features as input")
        return A

    def predict(self, X):
        s = np.ravel(self.decision_function(X))
        return self.classes_[(s > 0).astype(np.intp)]

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
