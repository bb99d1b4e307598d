"""Differential tests against scikit-learn and River (the ``compare`` extra; the ``test`` extra
installs both).

(a) ``learners.Perceptron(epochs=E, bias=B)`` is *bitwise* scikit-learn's
    ``Perceptron(eta0=1.0, fit_intercept=B, shuffle=False, penalty=None, max_iter=E, tol=None,
    early_stopping=False)`` on dense float64 data -- small integers with many ties, and real-valued
    data (the default path sums every dot product in index order, as scikit-learn does).
(b) the estimators pass scikit-learn's estimator checks that apply; the ones that do not are
    listed below, each with its reason, and run as strict xfails (a check that starts passing is
    reported).
(c) ``AveragedPerceptron`` = ``SGDClassifier(loss="perceptron", average=True, ...)`` (the mean of
    w_1..w_T; scikit-learn's lazy averaging rounds differently, so allclose).
(d) River's ``linear_model.Perceptron`` is the same algorithm (hinge loss with threshold 0 whose
    gradient treats a tie as a violation, SGD with learning rate 1, intercept rate 1), so
    ``learn_one`` / ``predict_one`` are compared step by step.
"""
from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import sklearn
from sklearn.exceptions import ConvergenceWarning, NotFittedError as SkNotFittedError
from sklearn.linear_model import Perceptron as SkPerceptron, SGDClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

import learners
from learners import (AveragedPerceptron, KernelPerceptron, MulticlassPerceptron, PassiveAggressive,
                      PassiveAggressiveClassifier, Perceptron, VotedPerceptron, Winnow)
from learners.estimator_base import sklearn_expected_failed_checks


def _sk_perceptron(E, B):
    return SkPerceptron(eta0=1.0, fit_intercept=B, shuffle=False, penalty=None, max_iter=E, tol=None,
                        early_stopping=False)


def _fit_both(X, y, E, B):
    ours = Perceptron(epochs=E, bias=B).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        theirs = _sk_perceptron(E, B).fit(X, y)
    return ours, theirs


def _assert_bitwise(ours, theirs, X):
    assert ours.coef_.dtype == theirs.coef_.dtype == np.float64
    assert ours.coef_.shape == theirs.coef_.shape
    assert ours.intercept_.shape == theirs.intercept_.shape == (1,)
    # bytes, not ==: bitwise equality (also the sign of zeros)
    assert ours.coef_.tobytes() == theirs.coef_.tobytes(), (ours.coef_, theirs.coef_)
    assert np.asarray(ours.intercept_, dtype=np.float64).tobytes() == theirs.intercept_.tobytes()
    assert np.array_equal(ours.classes_, theirs.classes_)
    assert np.array_equal(ours.predict(X), theirs.predict(X))


# ---------------------------------------------------------------------------------------------
# (a) bitwise equality
LABEL_SETS = [(-1, 1), (0, 1), (3, 7), ("ham", "spam"), (2.0, -1.0), (False, True)]


@pytest.mark.parametrize("E", [1, 2, 5])
@pytest.mark.parametrize("B", [True, False])
@pytest.mark.parametrize("shape", [(1, 1), (7, 1), (40, 3), (200, 10), (120, 37)])
@pytest.mark.parametrize("kind", ["small-int", "normal"])
def test_perceptron_bitwise_equal_to_sklearn(E, B, shape, kind):
    n, d = shape
    rng = np.random.default_rng(1000 * n + d + 7 * E + B)
    if kind == "small-int":
        X = rng.integers(-2, 3, size=(n, d)).astype(np.float64)    # many ties: activations hit 0
    else:
        X = rng.normal(size=(n, d)) * rng.choice([1e-3, 1.0, 1e3], size=d)
    labels = LABEL_SETS[(n + d + E) % len(LABEL_SETS)]
    y = np.array(labels, dtype=object if isinstance(labels[0], str) else None)[rng.integers(0, 2, size=n)]
    if n == 1:
        X = np.vstack([X, -X])
        y = np.array([labels[0], labels[1]])
    elif len(set(y.tolist())) < 2:
        y[0], y[-1] = labels[0], labels[1]
    ours, theirs = _fit_both(X, y, E, B)
    _assert_bitwise(ours, theirs, X)
    if kind == "small-int":
        assert ours.mistakes_ > 0


def test_ties_really_happen_and_count_as_mistakes():
    # on all-zero rows the activation is exactly 0 (a tie) at every step: both update every time
    X = np.zeros((6, 3))
    X[::2, 0] = 1.0
    y = np.array([1, -1, 1, -1, 1, -1])
    ours, theirs = _fit_both(X, y, 3, True)
    _assert_bitwise(ours, theirs, X)
    tr = learners.run_perceptron(X, y, epochs=3, bias=True)
    assert tr.steps[0].activation == 0.0 and tr.steps[0].mistake        # w = 0, b = 0: a tie
    assert sum(1 for s in tr.steps if s.activation == 0.0) >= 2
    assert all(s.mistake for s in tr.steps if s.activation == 0.0)
    assert ours.trace_.mistakes == tr.mistakes > 0


def test_shuffle_off_visits_in_given_order_like_sklearn():
    # permuting the rows changes both results the same way (no hidden reordering on either side)
    rng = np.random.default_rng(3)
    X = rng.integers(-3, 4, size=(60, 5)).astype(np.float64)
    y = rng.choice([-1, 1], size=60)
    p = rng.permutation(60)
    a, b = _fit_both(X[p], y[p], 2, True)
    _assert_bitwise(a, b, X)
    c, _ = _fit_both(X, y, 2, True)
    assert c.coef_.tobytes() != a.coef_.tobytes() or c.intercept_[0] != a.intercept_[0]


@settings(max_examples=60)
@given(data=st.data(), E=st.integers(1, 4), B=st.booleans())
def test_perceptron_bitwise_equal_to_sklearn_hypothesis(data, E, B):
    n = data.draw(st.integers(2, 30), label="n")
    d = data.draw(st.integers(1, 6), label="d")
    X = data.draw(hnp.arrays(np.float64, (n, d), elements=st.integers(-3, 3).map(float)), label="X")
    y = data.draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n), label="y")
    y[0], y[-1] = -1, 1
    ours, theirs = _fit_both(X, np.array(y), E, B)
    _assert_bitwise(ours, theirs, X)


@settings(max_examples=40)
@given(data=st.data(), E=st.integers(1, 3), B=st.booleans())
def test_perceptron_bitwise_equal_to_sklearn_hypothesis_real(data, E, B):
    n = data.draw(st.integers(2, 25), label="n")
    d = data.draw(st.integers(1, 5), label="d")
    el = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False, allow_subnormal=False)
    X = data.draw(hnp.arrays(np.float64, (n, d), elements=el), label="X")
    y = data.draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n), label="y")
    y[0], y[-1] = 0, 1
    ours, theirs = _fit_both(X, np.array(y), E, B)
    _assert_bitwise(ours, theirs, X)


def test_large_block_with_mistakes_everywhere_bitwise():
    # the 4-row speculative loop restarts after every mistake: random labels make ~50% mistakes
    rng = np.random.default_rng(11)
    X = rng.normal(size=(3001, 64))
    y = rng.choice(["a", "b"], size=3001)
    ours, theirs = _fit_both(X, y, 3, True)
    _assert_bitwise(ours, theirs, X)
    assert 0.3 < ours.trace_.mistakes / ours.trace_.n_steps < 0.7


def test_fit_does_not_modify_or_copy_requirements():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(50, 4))
    y = rng.choice([-1, 1], size=50)
    X0, y0 = X.copy(), y.copy()
    Perceptron(epochs=3).fit(X, y)
    Perceptron(epochs=3, fast=True).fit(X, y)
    assert X.flags.writeable and np.array_equal(X, X0) and np.array_equal(y, y0)


def test_nan_inf_error_also_with_deferred_check():
    X = np.ones((10, 3))
    X[7, 2] = np.nan
    y = np.array([1, -1] * 5)
    for est in (Perceptron(), Perceptron(fast=True), Perceptron(epochs=2, bias=False)):
        with pytest.raises(ValueError, match=r"X\[7\]\[2\] is nan"):
            est.fit(X, y)
    X[7, 2] = -np.inf
    with pytest.raises(learners.InputError, match=r"X\[7\]\[2\] is -inf"):
        learners.run_perceptron(X, y)


def test_overflow_is_an_error_not_a_result():
    X = np.full((4, 2), 1e308)
    y = np.array([1, 1, -1, 1])
    with pytest.raises(learners.InputError, match="overflow"):
        learners.run_perceptron(X, y, epochs=3)


# ---------------------------------------------------------------------------------------------
# (b) scikit-learn's estimator checks
ESTIMATORS = [
    Perceptron(), Perceptron(bias=False, epochs=3), Perceptron(fast=True),
    AveragedPerceptron(), AveragedPerceptron(include_initial=True, epochs=2), VotedPerceptron(),
    KernelPerceptron(), KernelPerceptron(kernel="poly:c=1,k=2", bias=True), KernelPerceptron(kernel="gaussian:c=0.5"),
    Winnow(), Winnow(binarize=0.5), Winnow(binarize=0.0, exact=False, variant="winnow2", alpha=1.5),
    PassiveAggressive(), PassiveAggressive(variant="pa2", C=0.5, epochs=2),
    PassiveAggressiveClassifier(), PassiveAggressiveClassifier(average=True, random_state=1),
    PassiveAggressiveClassifier(shuffle=False, tol=None, max_iter=20),
    MulticlassPerceptron(), MulticlassPerceptron(bias=False, epochs=3), MulticlassPerceptron(exact=True),
    Perceptron(exact=True), AveragedPerceptron(exact=True), VotedPerceptron(exact=True),
]


def test_expected_failures_are_only_the_declared_domains():
    # every float-mode learner, and Winnow with a binarising threshold: no check is excused
    for est in ESTIMATORS:
        excused = sklearn_expected_failed_checks(est)
        if isinstance(est, Winnow):
            assert bool(excused) == (est.binarize is None)
            assert all("{0,1} features only" in r for r in excused.values())
        else:
            # scikit-learn declares the same two for its own Perceptron and SGDClassifier
            weighted = {c for c, r in excused.items() if "not equivalent to removing/repeating" in r}
            assert weighted == ({"check_sample_weight_equivalence_on_dense_data",
                                 "check_sample_weight_equivalence_on_sparse_data"}
                                if isinstance(est, Perceptron) and not isinstance(est, VotedPerceptron) else set())
            rest = {c: r for c, r in excused.items() if c not in weighted}
            if getattr(est, "exact", False):
                assert rest and all("object arrays of Fraction" in r for r in rest.values())
            else:
                assert rest == {}


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=sklearn_expected_failed_checks, xfail_strict=True)
@pytest.mark.slow
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(estimator)


def test_params_clone_and_repr_follow_sklearn():
    from sklearn.base import clone
    for est in ESTIMATORS:
        c = clone(est)
        assert type(c) is type(est) and c is not est and c.get_params() == est.get_params()
    p = Perceptron(epochs=3)
    assert repr(p) == "Perceptron(epochs=3)" and repr(Winnow()) == "Winnow()"
    assert p.set_params(bias=False) is p and p.bias is False
    with pytest.raises(ValueError, match="Invalid parameter 'nope'"):
        p.set_params(nope=1)


def test_not_fitted_error_is_sklearns_when_sklearn_is_loaded():
    for est in (Perceptron(), KernelPerceptron(), Winnow()):
        with pytest.raises(SkNotFittedError):
            est.predict([[0, 1]])
        with pytest.raises(learners.InputError):      # and still ours (a ValueError)
            est.decision_function([[0, 1]])


def test_winnow_checks_pass_on_binary_data():
    # what the skipped checks test, on data Winnow is defined for
    from sklearn.base import clone
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, size=(80, 6))
    y = np.where(X[:, 0] | X[:, 3], "yes", "no")
    w = Winnow(epochs=3)
    c = clone(w)
    assert c.get_params() == w.get_params() and c is not w
    fitted = w.fit(X, y)
    assert fitted is w and w.n_features_in_ == 6
    assert set(np.unique(w.predict(X))) <= {"no", "yes"}
    assert np.array_equal(w.predict(X[::-1]), w.predict(X)[::-1])          # sample order invariance
    assert np.array_equal(w.predict(X[:10]), w.predict(X)[:10])           # subset invariance
    w2 = pickle.loads(pickle.dumps(w))
    assert np.array_equal(w2.predict(X), w.predict(X))
    assert np.mean(w.predict(X) == y) == 1.0       # a monotone disjunction is learned exactly
    with pytest.raises(ValueError, match="expecting 6 features"):
        w.predict(X[:, :2])


# ---------------------------------------------------------------------------------------------
# (c) averaged perceptron vs SGDClassifier(average=True)
@pytest.mark.parametrize("E", [1, 3])
@pytest.mark.parametrize("B", [True, False])
@pytest.mark.parametrize("kind", ["small-int", "normal"])
def test_averaged_matches_sgd_average(E, B, kind):
    rng = np.random.default_rng(E * 10 + B)
    n, d = 150, 6
    X = rng.integers(-2, 3, size=(n, d)).astype(float) if kind == "small-int" else rng.normal(size=(n, d))
    w_true = rng.normal(size=d)
    y = np.where(X @ w_true + 0.3 * rng.normal(size=n) > 0, "pos", "neg")
    ours = AveragedPerceptron(epochs=E, bias=B).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sgd = SGDClassifier(loss="perceptron", eta0=1.0, learning_rate="constant", penalty=None, average=True,
                            shuffle=False, max_iter=E, tol=None, fit_intercept=B).fit(X, y)
    np.testing.assert_allclose(ours.coef_, sgd.coef_, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, sgd.intercept_, rtol=1e-9, atol=1e-9)
    assert np.array_equal(ours.classes_, sgd.classes_)
    # the other convention (w_0..w_T) is a different vector: the test can tell them apart
    other = AveragedPerceptron(epochs=E, bias=B, include_initial=True).fit(X, y)
    assert not np.allclose(other.coef_, sgd.coef_, rtol=1e-9, atol=1e-9)
    # and raw_coef_ (the last weights) is the plain perceptron, bitwise sklearn's Perceptron
    _, sk = _fit_both(X, y, E, B)
    assert ours.raw_coef_.tobytes() == sk.coef_.tobytes()


def test_averaged_exact_equals_float_average_on_integers():
    rng = np.random.default_rng(9)
    X = rng.integers(-2, 3, size=(40, 3))
    y = rng.choice([-1, 1], size=40)
    a = AveragedPerceptron(epochs=2, exact=True).fit(X, y)
    f = AveragedPerceptron(epochs=2).fit(X.astype(float), y)
    np.testing.assert_allclose(np.array(a.coef_, dtype=float), f.coef_, rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# (d) River
def test_river_perceptron_is_the_same_algorithm_step_by_step():
    from river import linear_model
    rng = np.random.default_rng(4)
    n, d = 300, 4
    X = rng.integers(-3, 4, size=(n, d))
    y = (X @ np.array([1, -2, 0, 1]) + rng.integers(-1, 2, size=n)) > 0     # noisy: many mistakes
    keys = [f"f{j}" for j in range(d)]
    riv = linear_model.Perceptron()
    ours = Perceptron(bias=True)
    agree = 0
    known = False
    for t in range(n):
        x = {k: int(v) for k, v in zip(keys, X[t])}
        label = bool(y[t])
        if known:
            assert ours.predict_one(x) == riv.predict_one(x), t
            agree += 1
        riv.learn_one(x, label)
        ours.learn_one(x, label)
        known = hasattr(ours, "classes_")
        if known:
            w_r = np.array([riv.weights.get(k, 0.0) for k in keys])
            assert np.array_equal(ours.coef_[0], w_r), t
            assert ours.intercept_[0] == riv.intercept, t
    assert agree > n - 10
    assert ours.mistakes_ > 20


def test_learn_one_equals_partial_fit_and_fit():
    rng = np.random.default_rng(8)
    X = rng.integers(-2, 3, size=(50, 3)).astype(float)
    y = rng.choice(["a", "b"], size=50)
    y[0], y[1] = "a", "b"
    one = Perceptron()
    for row, lab in zip(X, y):
        one.learn_one({"x": row[0], "y": row[1], "z": row[2]}, lab)
    full = Perceptron().fit(X, y)
    assert one.coef_.tobytes() == full.coef_.tobytes() and one.intercept_[0] == full.intercept_[0]
    assert one.predict_one({"x": 1.0, "y": 0.0, "z": -1.0}) == full.predict([[1.0, 0.0, -1.0]])[0]
    with pytest.raises(learners.InputError):
        one.learn_one({"w": 1.0}, "a")


# ---------------------------------------------------------------------------------------------
# (e) sample weights: bitwise scikit-learn's Perceptron(sample_weight=...), binary and multiclass
@pytest.mark.parametrize("seed", range(30))
def test_sample_weight_bitwise_equal_to_sklearn(seed):
    rng = np.random.default_rng(seed)
    n, d, k = int(rng.integers(5, 40)), int(rng.integers(1, 6)), int(rng.choice([2, 3]))
    X = rng.normal(size=(n, d)) if seed % 2 else rng.integers(-2, 3, size=(n, d)).astype(float)
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)
    sw = rng.choice([0.0, 0.5, 1.0, 2.0, 3.3], size=n)
    sw[0] = 1.0
    E, B = int(rng.integers(1, 4)), bool(seed % 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = _sk_perceptron(E, B).fit(X, y, sample_weight=sw)
        sgd = SGDClassifier(loss="perceptron", eta0=1.0, learning_rate="constant", penalty=None, average=True,
                            shuffle=False, max_iter=E, tol=None, fit_intercept=B).fit(X, y, sample_weight=sw)
    ours = Perceptron(epochs=E, bias=B).fit(X, y, sample_weight=sw)
    assert ours.coef_.tobytes() == sk.coef_.tobytes()
    assert np.asarray(ours.intercept_, dtype=float).tobytes() == sk.intercept_.tobytes()
    ones = Perceptron(epochs=E, bias=B).fit(X, y, sample_weight=np.ones(n))      # = no weights, bitwise
    assert ones.coef_.tobytes() == Perceptron(epochs=E, bias=B).fit(X, y).coef_.tobytes()
    avg = AveragedPerceptron(epochs=E, bias=B).fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(avg.coef_, sgd.coef_, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(avg.intercept_, sgd.intercept_, rtol=1e-9, atol=1e-9)
    if seed % 2 == 0:           # integer data, dyadic weights: float arithmetic is exact, so exact mode agrees
        sw2 = rng.choice([0.0, 0.5, 1.0, 2.0], size=n)
        sw2[0] = 1.0
        exact = AveragedPerceptron(epochs=E, bias=B, exact=True).fit(X, y, sample_weight=sw2)
        flt = AveragedPerceptron(epochs=E, bias=B).fit(X, y, sample_weight=sw2)
        np.testing.assert_allclose(np.array(exact.coef_, dtype=float), flt.coef_, rtol=1e-12, atol=1e-12)
        assert list(exact.mistakes_ if np.ndim(exact.mistakes_) else [exact.mistakes_]) == \
            list(flt.mistakes_ if np.ndim(flt.mistakes_) else [flt.mistakes_])
    # CSR data: the dense run (no intercept: scikit-learn damps a sparse intercept by 0.01)
    import scipy.sparse as sps
    Xs = sps.csr_matrix(np.where(rng.random(X.shape) < 0.4, 0.0, X))
    a = Perceptron(epochs=E, bias=False).fit(Xs, y, sample_weight=sw)
    b = Perceptron(epochs=E, bias=False).fit(Xs.toarray(), y, sample_weight=sw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        c = _sk_perceptron(E, False).fit(Xs, y, sample_weight=sw)
    assert a.coef_.tobytes() == b.coef_.tobytes() == c.coef_.tobytes()


def test_sample_weight_zero_is_skipped_and_bad_weights_are_refused():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    y = np.array([1, -1, -1])
    m = Perceptron().fit(X, y, sample_weight=[0.0, 2.0, 1.0])
    # example 0 is a mistake (a tie) with weight 0: it counts and moves nothing
    assert m.mistakes_ == 2 and list(m.coef_[0]) == [0.0, -2.0] and m.intercept_[0] == -2.0
    for bad in ([1.0, 2.0], [np.nan, 1.0, 1.0], [0.0, 0.0, 0.0]):
        with pytest.raises(ValueError):
            Perceptron().fit(X, y, sample_weight=bad)
