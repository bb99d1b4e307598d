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

from learners.errors import InputError
from learners.sparse import check_csr, is_sparse
from learners.validation import check_matrix, encode_labels

__all__ = ["NotFittedError", "InputTypeError", "DataConversionWarning", "n_rows", "n_cols",
           "sklearn_expected_failed_checks"]


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
        # named as ``ours`` is: a process that never made this class (a test runner's controller
        # reading a worker's warning, an unpickler) finds ``ours`` under the same module and name
        cls = _SK_CLASSES[name] = type(name, (ours, getattr(skx, name)),
                                       {"__module__": ours.__module__, "__qualname__": ours.__qualname__})
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


def _multiclass_labels(y):
    """The sorted classes of y when there are more than two (None otherwise, and for labels the
    binary path words the errors of: None, continuous values, unsortable mixtures)."""
    try:
        y = _sk_y(y)
        if y is None or isinstance(y, (str, bytes)):
            return None
        a = np.asarray(y)
        if a.ndim != 1 or a.size == 0:
            return None
        if a.dtype.kind in "biuf":
            # two values or fewer (the usual case): one vectorised pass, no sort
            ne = a != a[0]
            j = int(np.argmax(ne))
            if not ne[j] or np.all((a == a[j]) | ~ne):
                return None
            if a.dtype.kind == "f" and not np.all(np.isfinite(a) & (a == np.round(a))):
                return None
        cl = np.unique(a)
    except (TypeError, ValueError):
        return None
    return cl if len(cl) > 2 else None


def _sorted_classes(classes):
    cl = np.unique(np.asarray(classes))
    if len(cl) < 2:
        raise InputError(f"classes must hold at least two values, got {len(cl)}")
    return cl


def _check_in_classes(y, classes):
    bad = np.setdiff1d(np.unique(y), classes)
    if len(bad):
        raise InputError(f"labels {bad.tolist()!r} are not in classes {np.asarray(classes).tolist()!r}")


def _first_classes(y, n, classes):
    if classes is None:
        return _encode(y, n)
    cl = np.array(sorted(classes))
    if len(cl) != 2:
        raise InputError(f"classes must be two values, got {len(cl)}")
    return _encode(y, n, classes=cl)


class _Base:
    """Shared by every estimator: scikit-learn's parameter protocol (``get_params`` /
    ``set_params`` read and write the constructor's arguments, so ``sklearn.base.clone`` works;
    ``fit`` never changes them), its tags, one-vs-rest for more than two classes, and River's
    ``learn_one`` / ``predict_one``.  A subclass implements ``_fit_binary`` and
    ``_partial_fit_binary`` for two classes (the positive one ``classes_[1]``)."""

    _estimator_type = "classifier"
    _linear_decision = False        # decision_function = X coef_^T + intercept_ (float mode)

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
                raise InputError(f"Invalid parameter {k!r} for estimator {type(self).__name__}. "
                                 f"Valid parameters are: {sorted(valid)!r}.")
            setattr(self, k, v)
        return self

    def __repr__(self):
        # scikit-learn's convention: the parameters that differ from their defaults
        sig = inspect.signature(type(self).__init__)
        args = []
        for k, v in self.get_params().items():
            d = sig.parameters[k].default
            try:
                same = d is v or (type(d) is type(v) and bool(d == v))
            except Exception:
                same = False
            if not same:
                args.append(f"{k}={v!r}")
        return f"{type(self).__name__}({', '.join(args)})"

    def __sklearn_tags__(self):  # used by scikit-learn >= 1.6 when it is installed; not imported here
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags  # pragma: no cover - compare extra
        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(multi_class=True), input_tags=InputTags(sparse=True))

    def _expected_failed_checks(self):
        """See :func:`sklearn_expected_failed_checks`."""
        if getattr(self, "exact", False):
            return {c: EXACT_OBJECT_OUTPUT for c in _EXACT_CHECKS}
        return {}

    # one-vs-rest -------------------------------------------------------------------------
    def fit(self, X, y, **kw):
        """Fit on (X, y).  Two classes: one learner (``classes_[1]`` is the positive class).
        More: one learner per class against the rest, as scikit-learn's ``Perceptron`` does
        (``coef_`` of shape (n_classes, d), ``decision_function`` of shape (n, n_classes),
        ``predict`` the class of the largest score, the first on a tie)."""
        classes = _multiclass_labels(y)
        self._drop_ovr()
        if classes is None:
            return self._fit_binary(X, y, **kw)
        y = np.asarray(_sk_y(y))
        subs = []
        for k, c in enumerate(classes):
            sub = type(self)(**self.get_params())
            sub._fit_binary(X, np.where(y == c, 1, -1), **self._ovr_kwargs(kw, k, len(classes)))
            subs.append(sub)
        self._set_ovr(subs, classes)
        return self

    def partial_fit(self, X, y, classes=None, **kw):
        """One pass over (X, y) in the order given, from the current state (scikit-learn's
        semantics: ``classes`` on the first call unless that chunk shows every label; more than
        two classes: one learner per class against the rest).  Chunks fed one after the other
        make the run of one pass over all of them."""
        if not hasattr(self, "classes_"):
            cl = _multiclass_labels(y) if classes is None else _sorted_classes(classes)
            if cl is None or len(cl) <= 2:
                return self._partial_fit_binary(X, y, classes=classes, **kw)
            y = np.asarray(_sk_y(y))
            _check_in_classes(y, cl)
            subs = []
            for c in cl:
                sub = type(self)(**self.get_params())
                sub._partial_fit_binary(X, np.where(y == c, 1, -1), classes=[-1, 1], **kw)
                subs.append(sub)
            self._set_ovr(subs, cl)
            return self
        if not self._is_ovr():
            return self._partial_fit_binary(X, y, classes=None, **kw)
        y = np.asarray(_sk_y(y))
        _check_in_classes(y, self.classes_)
        for c, sub in zip(self.classes_, self.estimators_):
            sub._partial_fit_binary(X, np.where(y == c, 1, -1), classes=None, **kw)
        self._set_ovr(self.estimators_, self.classes_)
        return self

    def _ovr_kwargs(self, kw, k, n_classes):
        return kw

    def _is_ovr(self):
        return "estimators_" in self.__dict__

    def _drop_ovr(self):
        self.__dict__.pop("estimators_", None)

    def _set_ovr(self, subs, classes):
        """The one-vs-rest model's attributes from its binary learners (``estimators_``)."""
        keep = {"estimators_", "_river_keys", "_river_pending"}
        for k in [k for k in self.__dict__ if k.endswith("_") and not k.startswith("__") and k not in keep]:
            del self.__dict__[k]
        self.estimators_ = list(subs)
        self.classes_ = np.asarray(classes)
        self.n_features_in_ = subs[0].n_features_in_
        self.mistakes_ = np.array([s.mistakes_ for s in subs], dtype=np.int64)
        for name in ("coef_", "intercept_", "raw_coef_"):
            if all(hasattr(s, name) for s in subs):
                parts = [np.asarray(getattr(s, name)) for s in subs]
                setattr(self, name, np.concatenate(parts, axis=0))
        if all(hasattr(s, "n_iter_") for s in subs):
            self.n_iter_ = max(s.n_iter_ for s in subs)

    def decision_function(self, X):
        """Two classes: the score of ``classes_[1]``, shape (n,).  More: one column per class."""
        if not self._is_ovr():
            return self._decision_binary(X)
        self._check_fitted()
        if self._linear_decision and not getattr(self, "exact", False):
            # one product X coef^T + intercept, as scikit-learn computes it (the same bits)
            A = self._check_X(X)
            out = A @ self.coef_.T + self.intercept_
            return np.asarray(out)
        cols = [s._decision_binary(X) for s in self.estimators_]
        return np.column_stack(cols)

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
        s = self.decision_function(X)
        if self._is_ovr():
            return self.classes_[np.argmax(s, axis=1)]
        return self.classes_[(np.ravel(s) > 0).astype(np.intp)]

    def score(self, X, y, sample_weight=None):
        """Mean accuracy (weighted by ``sample_weight`` when given), as scikit-learn's."""
        hit = self.predict(X) == np.asarray(y)
        return float(np.average(hit, weights=sample_weight))

    # River-style -----------------------------------------------------------------------
    def _x_from_dict(self, x):
        """The row of a dict of features.  The features are named by the first dict (a model
        fitted on arrays takes the first dict's keys, in their order, as its columns); a later
        dict may leave features out (0, River's convention for sparse dicts) but not add any."""
        if not isinstance(x, dict):
            raise InputError("learn_one/predict_one take a dict of feature -> value")
        keys = getattr(self, "_river_keys", None)
        if keys is None:
            if hasattr(self, "classes_") and len(x) != self.n_features_in_:
                raise InputError(f"the first dict has {len(x)} features, but {type(self).__name__} was fitted on "
                                 f"{self.n_features_in_} columns")
            keys = self._river_keys = [] if not hasattr(self, "classes_") else list(x)
        for k in x:
            if k not in keys:
                if hasattr(self, "classes_"):
                    raise InputError(f"feature {k!r} was not seen in the first example")
                keys.append(k)
        return [[x.get(k, 0) for k in keys]]

    def learn_one(self, x, y):
        X = self._x_from_dict(x)
        if hasattr(self, "classes_"):
            _check_in_classes(np.asarray([y]), self.classes_)
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


# scikit-learn's estimator checks that cannot apply, with the reason --------------------------
WINNOW_BINARY_ONLY = ("the check fits on real-valued features; Winnow(binarize=None) is defined on {0,1} "
                      "features only (Littlestone 1988) and refuses any other value by design; "
                      "Winnow(binarize=t) takes real values and passes this check")
_WINNOW_CHECKS = (
    "check_fit_score_takes_y", "check_estimators_overwrite_params", "check_dont_overwrite_parameters",
    "check_estimators_fit_returns_self", "check_readonly_memmap_input", "check_n_features_in_after_fitting",
    "check_estimators_dtypes", "check_dtype_object", "check_pipeline_consistency", "check_estimators_nan_inf",
    "check_estimators_pickle", "check_f_contiguous_array_estimator", "check_classifier_data_not_an_array",
    "check_classifiers_classes", "check_classifiers_train", "check_supervised_y_2d",
    "check_methods_sample_order_invariance", "check_methods_subset_invariance", "check_fit2d_1feature",
    "check_dict_unchanged", "check_fit_idempotent", "check_fit_check_is_fitted", "check_n_features_in",
    "check_fit2d_predict1d", "check_estimator_sparse_tag", "check_estimator_sparse_array",
    "check_estimator_sparse_matrix", "check_estimators_partial_fit_n_features",
)
EXACT_OBJECT_OUTPUT = ("exact mode answers with object arrays of Fraction (every number exact, by design); "
                       "the check compares outputs with numpy float ufuncs (allclose) that do not take object "
                       "arrays; the float mode of the same learner passes it")
_EXACT_CHECKS = ("check_estimators_pickle", "check_methods_sample_order_invariance",
                 "check_methods_subset_invariance", "check_fit_idempotent")


def sklearn_expected_failed_checks(estimator) -> dict:
    """{check name: reason} of scikit-learn's estimator checks that do not apply to this
    estimator's settings -- the ``expected_failed_checks`` argument of scikit-learn's
    ``check_estimator`` / ``parametrize_with_checks`` (scikit-learn >= 1.6).  Empty for every
    float-mode learner and for ``Winnow(binarize=t)``: those pass every check."""
    return dict(estimator._expected_failed_checks())
