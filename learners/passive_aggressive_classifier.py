"""A drop-in for scikit-learn's ``PassiveAggressiveClassifier`` (deprecated in scikit-learn 1.8,
removed in 1.10): the same parameters, the same attributes (``coef_``, ``intercept_``,
``classes_``, ``n_iter_``, ``t_``, ``n_features_in_``), ``fit(X, y, coef_init, intercept_init)``
and ``partial_fit(X, y, classes)``, and the same numbers bit for bit on float64 and on float32 data -- the steps
of PA-I (``loss="hinge"``) and PA-II (``loss="squared_hinge"``) of Crammer, Dekel, Keshet,
Shalev-Shwartz & Singer (2006), "Online Passive-Aggressive Algorithms", JMLR 7, with
scikit-learn's intercept, shuffling, stopping rules, class weights, averaging and one-vs-rest.

The epoch loop is :mod:`learners._sgd_loop`; this module is scikit-learn's Python driver
(``BaseSGDClassifier._fit`` / ``_partial_fit`` / ``fit_binary`` / ``_fit_multiclass``), kept
statement for statement -- the random draws in the same order from the same ``RandomState``, the
stratified validation split drawn as ``StratifiedShuffleSplit`` draws it, the arrays shared
between attributes as scikit-learn shares them -- so that every setting gives scikit-learn's
result (tests/learners/test_learners_passive_aggressive_sklearn.py).  It never imports scikit-learn.

A float32 X is kept as float32, as scikit-learn keeps it: the coefficients are float32 and
computed as ``_plain_sgd32`` computes them; the intercept is a double in the loop, so a binary
problem's ``intercept_`` is float64 and a multiclass one's float32 (stored in the float32 array);
``decision_function`` of float32 data is float32 times float32 plus the intercept.  Any other X
is float64.  ``partial_fit`` keeps the dtype of its first call: data of another dtype is refused
(scikit-learn's loop refuses it too, with a ``TypeError``).

Differences, all outside the numbers: ``coef_init`` is copied, never written to; ``n_jobs`` is accepted and the one-vs-rest
problems run one after the other (the results do not depend on it); ``verbose`` prints nothing.
"""
from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from learners.errors import InputError
from learners.estimator_base import InputTypeError, _as_type_error, _Base, _sk_class, _sk_X, _sk_y
from learners.sparse import is_sparse
from learners.validation import check_matrix

__all__ = ["PassiveAggressiveClassifier", "ConvergenceWarning"]

MAX_INT = np.iinfo(np.int32).max
SPARSE_INTERCEPT_DECAY = 0.01
_NO_RECORD = np.zeros(0)


class ConvergenceWarning(UserWarning):
    """max_iter epochs ran before the stopping rule was met."""


def check_random_state(seed):
    """scikit-learn's ``check_random_state``: None -> numpy's global RandomState, an int -> a new
    ``RandomState(seed)``, a ``RandomState`` -> itself."""
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        return np.random.RandomState(seed)
    if isinstance(seed, np.random.RandomState):
        return seed
    raise InputError(f"{seed!r} cannot be used to seed a numpy.random.RandomState instance")


def _approximate_mode(class_counts, n_draws, rng):
    continuous = class_counts / class_counts.sum() * n_draws
    floored = np.floor(continuous)
    need_to_add = int(n_draws - floored.sum())
    if need_to_add > 0:
        remainder = continuous - floored
        values = np.sort(np.unique(remainder))[::-1]
        for value in values:
            (inds,) = np.where(remainder == value)
            add_now = min(len(inds), need_to_add)
            inds = rng.choice(inds, size=add_now, replace=False)
            floored[inds] += 1
            need_to_add -= add_now
            if need_to_add == 0:
                break
    return floored.astype(int)


def stratified_validation_indices(y, test_size, random_state):
    """The validation indices of scikit-learn's ``StratifiedShuffleSplit(test_size=...,
    random_state=...)``'s first split (the same draws from the same generator)."""
    n_samples = y.shape[0]
    n_test = math.ceil(test_size * n_samples)
    n_train = n_samples - n_test
    if n_train == 0:
        raise InputError(f"With n_samples={n_samples}, test_size={test_size} and train_size=None, the resulting "
                         "train set will be empty. Adjust any of the aforementioned parameters.")
    classes, y_indices, class_counts = np.unique(y, return_inverse=True, return_counts=True)
    n_classes = classes.shape[0]
    if np.min(class_counts) < 2:
        raise InputError("The least populated classes in y have only 1 member, which is too few. The minimum "
                         "number of groups for any class cannot be less than 2. Classes with too few members "
                         f"are: {classes[class_counts < 2].tolist()}")
    if n_train < n_classes:
        raise InputError(f"The train_size = {n_train} should be greater or equal to the number of classes = "
                         f"{n_classes}")
    if n_test < n_classes:
        raise InputError(f"The test_size = {n_test} should be greater or equal to the number of classes = "
                         f"{n_classes}")
    class_indices = np.split(np.argsort(y_indices, kind="stable"), np.cumsum(class_counts)[:-1])
    rng = check_random_state(random_state)
    n_i = _approximate_mode(class_counts, n_train, rng)
    class_counts_remaining = class_counts - n_i
    t_i = _approximate_mode(class_counts_remaining, n_test, rng)
    train, test = [], []
    for i in range(n_classes):
        permutation = rng.permutation(class_counts[i])
        perm_indices_class_i = class_indices[i].take(permutation, mode="clip")
        train.extend(perm_indices_class_i[: n_i[i]])
        test.extend(perm_indices_class_i[n_i[i]: n_i[i] + t_i[i]])
    rng.permutation(train)
    return rng.permutation(test)


def compute_class_weight(class_weight, classes, y):
    """scikit-learn's ``compute_class_weight`` (None, "balanced" or a dict)."""
    if set(np.unique(y).tolist()) - set(np.asarray(classes).tolist()):
        raise InputError("classes should include all valid labels that can be in y")
    if class_weight is None or len(class_weight) == 0:
        return np.ones(classes.shape[0], dtype=np.float64)
    if isinstance(class_weight, str):
        if class_weight != "balanced":
            raise InputError(f"class_weight must be None, 'balanced' or a dict, got {class_weight!r}")
        present, y_ind = np.unique(y, return_inverse=True)
        if not np.all(np.isin(classes, present)):
            raise InputError("classes should have valid labels that are in y")
        counts = np.bincount(y_ind, weights=np.ones(y.shape[0], dtype=np.float64))
        recip_freq = np.sum(counts) / (present.size * counts)
        return recip_freq[np.searchsorted(present, classes)]
    weight = np.ones(classes.size, dtype=np.float64)
    unweighted = []
    for i, c in enumerate(classes):
        try:
            c = int(c)
        except ValueError:
            c = str(c)
        if c in class_weight:
            weight[i] = class_weight[c]
        else:
            unweighted.append(c)
    if unweighted and classes.size - len(unweighted) != len(class_weight):
        raise InputError(f"The classes, {np.array(unweighted).tolist()}, are not in class_weight")
    return weight


class PassiveAggressiveClassifier(_Base):
    """Passive-Aggressive classifier (PA-I for ``loss="hinge"``, PA-II for
    ``loss="squared_hinge"``, Crammer et al. 2006), scikit-learn's parameters and results.

    Parameters are scikit-learn's: ``C`` (PA-I's largest step; PA-II's 1/(2C) regulariser),
    ``fit_intercept``, ``max_iter``, ``tol`` (stop when the mean hinge loss of an epoch is not
    ``tol`` below the best one ``n_iter_no_change`` times in a row; None: never),
    ``early_stopping`` with ``validation_fraction`` (the rule on the accuracy of a stratified
    held-out part instead), ``shuffle`` with ``random_state``, ``average`` (True, or the step
    at which averaging starts), ``warm_start``, ``class_weight`` (dict or "balanced"),
    ``n_jobs``, ``verbose``."""

    _linear_decision = True

    def __init__(self, *, C=1.0, fit_intercept=True, max_iter=1000, tol=1e-3, early_stopping=False,
                 validation_fraction=0.1, n_iter_no_change=5, shuffle=True, verbose=0, loss="hinge", n_jobs=None,
                 random_state=None, warm_start=False, class_weight=None, average=False):
        self.C = C
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.verbose = verbose
        self.loss = loss
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.warm_start = warm_start
        self.class_weight = class_weight
        self.average = average

    # parameters ---------------------------------------------------------------------------
    def _validate_params(self, for_partial_fit=False):
        def real(name, lo, lo_closed, hi=None, hi_closed=False, allow_none=False):
            v = getattr(self, name)
            if v is None and allow_none:
                return
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or math.isnan(v):
                raise InputError(f"The '{name}' parameter must be a real number, got {v!r}")
            if (v < lo or (v == lo and not lo_closed)) or (hi is not None and (v > hi or (v == hi and not hi_closed))):
                raise InputError(f"The '{name}' parameter is out of range, got {v!r}")

        def integer(name, lo):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < lo:
                raise InputError(f"The '{name}' parameter must be an int >= {lo}, got {v!r}")

        real("C", 0, False)
        integer("max_iter", 1)
        real("tol", 0, True, allow_none=True)
        real("validation_fraction", 0, False, 1, False)
        integer("n_iter_no_change", 1)
        for b in ("fit_intercept", "early_stopping", "shuffle", "warm_start"):
            if not isinstance(getattr(self, b), (bool, np.bool_)):
                raise InputError(f"The '{b}' parameter must be a bool, got {getattr(self, b)!r}")
        if self.loss not in ("hinge", "squared_hinge"):
            raise InputError(f"The 'loss' parameter must be 'hinge' or 'squared_hinge', got {self.loss!r}")
        a = self.average
        if not isinstance(a, (bool, np.bool_)) and (not isinstance(a, numbers.Integral) or a <= 0):
            raise InputError(f"The 'average' parameter must be a bool or an int > 0, got {a!r}")
        cw = self.class_weight
        if not (cw is None or cw == "balanced" or isinstance(cw, dict)):
            raise InputError(f"The 'class_weight' parameter must be None, 'balanced' or a dict, got {cw!r}")
        if self.early_stopping and for_partial_fit:
            raise InputError("early_stopping should be False with partial_fit")

    # scikit-learn's driver ---------------------------------------------------------------------
    def fit(self, X, y, coef_init=None, intercept_init=None):
        """Fit on (X, y) from zeros (or ``coef_init`` / ``intercept_init``, or the current
        coefficients with ``warm_start=True``), at most ``max_iter`` epochs."""
        self._validate_params()
        if hasattr(self, "classes_"):
            delattr(self, "classes_")
        y = self._check_y(y)
        classes = np.unique(y)
        if self.warm_start and hasattr(self, "coef_"):
            if coef_init is None:
                coef_init = self.coef_
            if intercept_init is None:
                intercept_init = self.intercept_
        else:
            if coef_init is not None:       # a copy, never written to; its dtype becomes X's below
                coef_init = np.array(coef_init, dtype=np.result_type(np.asarray(coef_init).dtype, np.float32),
                                     order="C")
            if intercept_init is not None:
                intercept_init = np.array(intercept_init, dtype=np.result_type(np.asarray(intercept_init).dtype,
                                                                               np.float32), order="C")
            self.coef_ = None
            self.intercept_ = None
        if self.average > 0:
            self._standard_coef = self.coef_
            self._standard_intercept = self.intercept_
            self._average_coef = None
            self._average_intercept = None
        self.t_ = 1.0
        self._partial_fit(X, y, self.max_iter, classes, coef_init, intercept_init)
        if self.tol is not None and self.tol > -np.inf and self.n_iter_ == self.max_iter:
            warnings.warn(_sk_class("ConvergenceWarning", ConvergenceWarning)(
                "Maximum number of iteration reached before convergence. Consider increasing max_iter to "
                "improve the fit."), stacklevel=2)
        return self

    def partial_fit(self, X, y, classes=None):
        """One epoch over (X, y) in the order given (``shuffle`` applies); ``classes`` is needed
        on the first call."""
        if not hasattr(self, "classes_"):
            self._validate_params(for_partial_fit=True)
            if self.class_weight == "balanced":
                raise InputError("class_weight 'balanced' is not supported for partial_fit: compute the weights "
                                 "from the class frequencies and pass them as a dict")
        return self._partial_fit(X, self._check_y(y), 1, classes, None, None)

    def _check_y(self, y):
        y = _sk_y(y)
        if y is None:
            raise InputError("requires y to be passed, but the target y is None")
        y = np.asarray(y)
        if y.ndim != 1:
            raise InputError(f"y should be a 1d array, got an array of shape {y.shape} instead.")
        if y.dtype.kind == "f" and y.size and (not np.all(np.isfinite(y)) or not np.all(y == np.round(y))):
            if not np.all(np.isfinite(y)):
                raise InputError("Input y contains NaN or infinity.")
            raise InputError("Unknown label type: continuous. Maybe you are trying to fit a classifier, which "
                             "expects discrete classes on a regression target with continuous values.")
        if y.dtype.kind == "O":
            try:
                np.unique(y)
            except TypeError:
                raise InputError("y has labels of mixed types that cannot be sorted") from None
        return y

    def _check_X(self, X, reset=False):
        """X as scikit-learn's validation leaves it: float32 stays float32, anything else float64."""
        try:
            A = _sk_X(X)
            if is_sparse(A):
                A = A.tocsr()
                if A.dtype not in (np.float64, np.float32):
                    A = A.astype(np.float64)
                if A.indices.dtype != np.int32 or A.indptr.dtype != np.int32:
                    A = A.copy()
                    A.indices, A.indptr = A.indices.astype(np.int32), A.indptr.astype(np.int32)
                if not np.all(np.isfinite(A.data)):
                    raise InputError("Input X contains NaN or infinity.")
            else:
                keep32 = getattr(A, "dtype", None) == np.float32
                A = check_matrix(A, exact=False)
                A = np.ascontiguousarray(A, dtype=np.float32 if keep32 else np.float64)
        except InputError as e:
            raise _as_type_error(e) from None
        if not reset and hasattr(self, "n_features_in_") and A.shape[1] != self.n_features_in_:
            raise InputError(f"X has {A.shape[1]} features, but PassiveAggressiveClassifier is expecting "
                             f"{self.n_features_in_} features as input")
        return A

    def _partial_fit(self, X, y, max_iter, classes, coef_init, intercept_init):
        first_call = not hasattr(self, "classes_")
        X = self._check_X(X, reset=first_call)
        if X.shape[0] != y.shape[0]:
            raise InputError(f"Found input variables with inconsistent numbers of samples: [{X.shape[0]}, "
                             f"{y.shape[0]}]")
        n_samples, n_features = X.shape
        if first_call:
            if classes is None:
                raise InputError("classes must be passed on the first call to partial_fit.")
            self.classes_ = np.unique(np.asarray(classes))
            self.n_features_in_ = n_features
        elif classes is not None and not np.array_equal(self.classes_, np.unique(np.asarray(classes))):
            raise InputError(f"`classes={classes!r}` is not the same as on last call to partial_fit, was: "
                             f"{self.classes_!r}")
        n_classes = self.classes_.shape[0]
        self._expanded_class_weight = compute_class_weight(self.class_weight, self.classes_, y)
        sample_weight = np.ones(n_samples, dtype=X.dtype)
        if getattr(self, "coef_", None) is None or coef_init is not None:
            self._allocate_parameter_mem(n_classes, n_features, coef_init, intercept_init, X.dtype)
        elif n_features != self.coef_.shape[-1]:
            raise InputError(f"Number of features {n_features} does not match previous data "
                             f"{self.coef_.shape[-1]}.")
        elif self.coef_.dtype != X.dtype:
            raise InputTypeError(f"X is {X.dtype.name}, but the coefficients were fitted on {self.coef_.dtype.name} "
                                 f"data: partial_fit keeps one dtype (convert X to {self.coef_.dtype.name})")
        if not hasattr(self, "t_"):
            self.t_ = 1.0
        if not hasattr(self, "mistakes_"):
            self.mistakes_ = 0
        if n_classes > 2:
            self._fit_multiclass(X, y, sample_weight, max_iter)
        elif n_classes == 2:
            self._fit_two_classes(X, y, sample_weight, max_iter)
        else:
            raise InputError(f"The number of classes has to be greater than one; got {n_classes} class")
        return self

    def _allocate_parameter_mem(self, n_classes, n_features, coef_init, intercept_init, dtype=np.float64):
        if n_classes > 2:
            if coef_init is not None:
                coef_init = np.asarray(coef_init, dtype=dtype, order="C")
                if coef_init.shape != (n_classes, n_features):
                    raise InputError("Provided ``coef_`` does not match dataset. ")
                self.coef_ = coef_init
            else:
                self.coef_ = np.zeros((n_classes, n_features), dtype=dtype, order="C")
            if intercept_init is not None:
                intercept_init = np.asarray(intercept_init, order="C", dtype=dtype)
                if intercept_init.shape != (n_classes,):
                    raise InputError("Provided intercept_init does not match dataset.")
                self.intercept_ = intercept_init
            else:
                self.intercept_ = np.zeros(n_classes, dtype=dtype, order="C")
        else:
            if coef_init is not None:
                coef_init = np.asarray(coef_init, dtype=dtype, order="C").ravel()
                if coef_init.shape != (n_features,):
                    raise InputError("Provided coef_init does not match dataset.")
                self.coef_ = coef_init
            else:
                self.coef_ = np.zeros(n_features, dtype=dtype, order="C")
            if intercept_init is not None:
                intercept_init = np.asarray(intercept_init, dtype=dtype)
                if intercept_init.shape != (1,) and intercept_init.shape != ():
                    raise InputError("Provided intercept_init does not match dataset.")
                self.intercept_ = intercept_init.reshape(1)
            else:
                self.intercept_ = np.zeros(1, dtype=dtype, order="C")
        if self.average > 0:
            self._standard_coef = self.coef_
            self._average_coef = np.zeros(self.coef_.shape, dtype=dtype, order="C")
            self._standard_intercept = self.intercept_
            self._average_intercept = np.zeros(self._standard_intercept.shape, dtype=dtype, order="C")

    def _validation_mask(self, y, sample_mask):
        mask = np.zeros(y.shape[0], dtype=np.bool_)
        if not self.early_stopping:
            return mask
        idx_val = stratified_validation_indices(y, self.validation_fraction, self.random_state)
        if not np.any(sample_mask[idx_val]):
            raise InputError("The sample weights for validation set are all zero, consider using a different "
                             "random state.")
        if idx_val.shape[0] == 0 or idx_val.shape[0] == y.shape[0]:
            raise InputError(f"Splitting {y.shape[0]} samples into a train set and a validation set with "
                             f"validation_fraction={self.validation_fraction!r} led to an empty set. Please "
                             "either change validation_fraction, increase number of samples, or disable "
                             "early_stopping.")
        mask[idx_val] = True
        return mask

    def _fit_one(self, i, X, y, max_iter, pos_weight, neg_weight, sample_weight, validation_mask, random_state):
        """scikit-learn's ``fit_binary``: class i against the rest, in place in the coefficients."""
        y_i = np.ones(y.shape, dtype=X.dtype, order="C")
        y_i[y != self.classes_[i]] = -1.0
        average_intercept = 0.0
        average_coef = None
        if len(self.classes_) == 2:
            if not self.average:
                coef, intercept = self.coef_.ravel(), self.intercept_[0]
            else:
                coef, intercept = self._standard_coef.ravel(), self._standard_intercept[0]
                average_coef, average_intercept = self._average_coef.ravel(), self._average_intercept[0]
        else:
            if not self.average:
                coef, intercept = self.coef_[i], self.intercept_[i]
            else:
                coef, intercept = self._standard_coef[i], self._standard_intercept[i]
                average_coef, average_intercept = self._average_coef[i], self._average_intercept[i]
        random_state = check_random_state(random_state)
        random_state.randint(1, np.iinfo(np.int32).max)            # make_dataset's draw (unused by SGD)
        decay = SPARSE_INTERCEPT_DECAY if is_sparse(X) else 1.0
        if validation_mask is None:
            validation_mask = self._validation_mask(y_i, sample_weight > 0)
        seed = random_state.randint(MAX_INT)
        tol = self.tol if self.tol is not None else -np.inf
        intercept, average_intercept, n_iter = self._plain_sgd(
            coef, float(intercept), average_coef, float(average_intercept), X, y_i, sample_weight, validation_mask,
            max_iter, tol, int(seed), float(pos_weight), float(neg_weight), decay)
        if self.average:
            if len(self.classes_) == 2:
                self._average_intercept[0] = average_intercept
            else:
                self._average_intercept[i] = average_intercept
        return coef, intercept, n_iter

    def _plain_sgd(self, w, intercept, aw, average_intercept, X, y, sw, vmask, max_iter, tol, seed, wpos, wneg,
                   decay):
        from learners import _sgd_loop as L
        lr = L.PA1 if self.loss == "hinge" else L.PA2
        average = int(self.average)
        n = y.shape[0]
        order = np.arange(n, dtype=np.int64)
        train_count = np.uint32(n - int(np.sum(vmask)))
        f32 = w.dtype == np.float32
        aw_arr = aw if aw is not None else np.zeros(0, dtype=w.dtype)
        st = np.array([intercept, average_intercept, 0.0, 1.0, self.t_, 0.0, 0.0])
        mis = np.zeros(1, dtype=np.int64)
        vm = vmask.view(np.uint8)
        sparse = is_sparse(X)
        if self.early_stopping:
            X_val, y_val, sw_val = X[vmask], y[vmask], sw[vmask]
        best_objective, best_score, no_improvement = np.inf, -np.inf, 0
        epoch = 0
        for epoch in range(max_iter):
            if self.shuffle:
                L.shuffle_order(order, seed)
            args = (y, sw, order, vm, w, aw_arr, st, lr, float(self.C), 1.0, wpos, wneg,
                    bool(self.fit_intercept), decay, average, not self.early_stopping, mis, _NO_RECORD, bool(f32))
            if sparse:
                L.epoch_csr(X.data, X.indices, X.indptr, *args)
            else:
                L.epoch_dense(X, *args)
            if not math.isfinite(st[0]) or not np.all(np.isfinite(w)):
                raise InputError(f"Floating-point under-/overflow occurred at epoch #{epoch + 1}. Scaling input "
                                 "data with StandardScaler or MinMaxScaler might help.")
            if self.early_stopping:
                scores = X_val @ w.reshape(1, -1).T + np.atleast_1d(st[0])
                scores = scores.reshape(-1)
                pred = np.array([-1.0, 1.0])[(scores > 0).astype(np.intp)]
                score = float(np.average(y_val == pred, weights=sw_val))
                if tol > -np.inf and score < best_score + tol:
                    no_improvement += 1
                else:
                    no_improvement = 0
                if score > best_score:
                    best_score = score
            else:
                objective = st[5] / train_count
                if tol > -np.inf and objective > best_objective - tol:
                    no_improvement += 1
                else:
                    no_improvement = 0
                if objective < best_objective:
                    best_objective = objective
            if no_improvement >= self.n_iter_no_change:
                break
        if aw is not None:                          # the lazy average, corrected once (reset_wscale)
            from scipy.linalg.blas import daxpy, saxpy
            a_a, a_b = st[2], st[3]
            aw[:] = (saxpy if f32 else daxpy)(w, aw, a=a_a)
            aw *= aw.dtype.type(1.0 / a_b)          # _scal: the factor in the weights' dtype
        self.mistakes_ = self.mistakes_ + int(mis[0])
        return float(st[0]), float(st[1]), epoch + 1

    def _fit_two_classes(self, X, y, sample_weight, max_iter):
        coef, intercept, n_iter_ = self._fit_one(1, X, y, max_iter, self._expanded_class_weight[1],
                                                 self._expanded_class_weight[0], sample_weight, None,
                                                 self.random_state)
        self.t_ += n_iter_ * X.shape[0]
        self.n_iter_ = n_iter_
        if self.average > 0:
            if self.average <= self.t_ - 1:
                self.coef_ = self._average_coef.reshape(1, -1)
                self.intercept_ = self._average_intercept
            else:
                self.coef_ = self._standard_coef.reshape(1, -1)
                self._standard_intercept = np.atleast_1d(intercept)
                self.intercept_ = self._standard_intercept
        else:
            self.coef_ = coef.reshape(1, -1)
            self.intercept_ = np.atleast_1d(intercept)

    def _fit_multiclass(self, X, y, sample_weight, max_iter):
        validation_mask = self._validation_mask(y, sample_weight > 0)
        random_state = check_random_state(self.random_state)
        seeds = random_state.randint(MAX_INT, size=len(self.classes_))
        result = [self._fit_one(i, X, y, max_iter, self._expanded_class_weight[i], 1.0, sample_weight,
                                validation_mask, seed) for i, seed in enumerate(seeds)]
        n_iter_ = 0.0
        for i, (_, intercept, n_iter_i) in enumerate(result):
            self.intercept_[i] = intercept
            n_iter_ = max(n_iter_, n_iter_i)
        self.t_ += n_iter_ * X.shape[0]
        self.n_iter_ = n_iter_
        if self.average > 0:
            if self.average <= self.t_ - 1.0:
                self.coef_ = self._average_coef
                self.intercept_ = self._average_intercept
            else:
                self.coef_ = self._standard_coef
                self._standard_intercept = np.atleast_1d(self.intercept_)
                self.intercept_ = self._standard_intercept

    # prediction --------------------------------------------------------------------------------
    def _is_ovr(self):
        return hasattr(self, "classes_") and len(self.classes_) > 2

    def decision_function(self, X):
        """X coef_^T + intercept_: shape (n,) for two classes, (n, n_classes) for more."""
        self._check_fitted()
        A = self._check_X(X)
        scores = A @ self.coef_.T + self.intercept_
        scores = np.asarray(scores)
        return scores.reshape(-1) if scores.ndim > 1 and scores.shape[1] == 1 else scores

