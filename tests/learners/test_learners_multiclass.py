"""More than two classes: one learner per class against the rest, as scikit-learn's
``Perceptron`` does it -- bitwise its coefficients, its ``decision_function`` shape (n, n_classes),
its ``classes_`` order and its argmax prediction (the first class on a tie)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from learners import (AveragedPerceptron, KernelPerceptron, MulticlassPerceptron, PassiveAggressive, Perceptron,
                      VotedPerceptron, Winnow)
from learners import multiclass_perceptron as MP

sklearn = pytest.importorskip("sklearn")
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.linear_model import Perceptron as SkPerceptron  # noqa: E402


@pytest.mark.parametrize("seed", range(12))
def test_multiclass_perceptron_bitwise_equal_to_sklearn(seed):
    rng = np.random.default_rng(seed)
    n, d, k = int(rng.integers(5, 60)), int(rng.integers(1, 6)), int(rng.integers(3, 6))
    X = rng.integers(-2, 3, size=(n, d)).astype(float) if seed % 2 else rng.normal(size=(n, d))
    labels = np.array(["c", "a", "e", "b", "d"][:k] if seed % 3 else [7, -1, 3, 12, 0][:k], dtype=object)
    y = labels[rng.integers(0, k, size=n)]
    y[:k] = labels                                       # every class present
    if not seed % 3:
        y = y.astype(np.int64)
    E, B = int(rng.integers(1, 4)), bool(seed % 4)
    ours = Perceptron(epochs=E, bias=B).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = SkPerceptron(eta0=1.0, fit_intercept=B, shuffle=False, penalty=None, max_iter=E, tol=None).fit(X, y)
    assert list(ours.classes_) == list(sk.classes_)
    assert ours.coef_.shape == sk.coef_.shape == (k, d)
    assert ours.coef_.tobytes() == sk.coef_.tobytes()
    assert np.asarray(ours.intercept_, dtype=float).tobytes() == sk.intercept_.tobytes()
    D = ours.decision_function(X)
    assert D.shape == (n, k) and D.tobytes() == sk.decision_function(X).tobytes()
    assert list(ours.predict(X)) == list(sk.predict(X))


LEARNERS = [
    Perceptron(epochs=2), AveragedPerceptron(epochs=2), VotedPerceptron(epochs=2),
    KernelPerceptron(kernel="poly:c=1,k=2", epochs=2), PassiveAggressive(variant="pa2"),
    Winnow(binarize=0.0, epochs=2), Perceptron(exact=True), VotedPerceptron(exact=True),
]


@pytest.mark.parametrize("est", LEARNERS, ids=repr)
def test_each_column_is_the_binary_learner_of_that_class(est):
    rng = np.random.default_rng(3)
    X = rng.integers(-2, 3, size=(40, 4)).astype(float)
    y = np.array(["x", "y", "z"])[rng.integers(0, 3, size=40)]
    m = type(est)(**est.get_params()).fit(X, y)
    assert list(m.classes_) == ["x", "y", "z"] and len(m.estimators_) == 3
    D = m.decision_function(X)
    assert D.shape == (40, 3)
    for j, c in enumerate(m.classes_):
        b = type(est)(**est.get_params()).fit(X, np.where(y == c, 1, -1))
        if hasattr(b, "coef_"):
            assert list(m.coef_[j]) == list(b.coef_[0])          # the same weights, bitwise
        # (a float linear model computes X coef^T in one product: rounding may differ from X w)
        np.testing.assert_allclose(np.asarray(D[:, j], dtype=float),
                                   np.asarray(b.decision_function(X), dtype=float), rtol=1e-12, atol=1e-12)
        assert m.mistakes_[j] == b.mistakes_
    assert list(m.predict(X)) == list(m.classes_[np.argmax(D, axis=1)])
    # partial_fit in two chunks, the classes declared first, gives the same model
    s = type(est)(**est.get_params())
    if getattr(est, "epochs", 1) == 1 or isinstance(est, Winnow):
        s.partial_fit(X[:15], y[:15], classes=["x", "y", "z"]).partial_fit(X[15:], y[15:])
        one = type(est)(**dict(est.get_params(), epochs=1)).fit(X, y)
        assert list(s.mistakes_) == list(one.mistakes_)


# ---------------------------------------------------------------------------------------------
# the multiclass perceptron (Kesler's construction)
def test_kesler_small_run_by_hand():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0], [1.0, 0.0]])
    y = np.array(["a", "b", "c", "a"])
    m = MulticlassPerceptron(bias=False).fit(X, y)
    # step 0: all scores 0, a tie: w_a += x, w_b (the first other class) -= x
    # step 1: s = (0, 0, 0): w_b += x1, w_a -= x1;  step 2: s = (0, 0, 0): w_c += x2, w_a -= x2
    # step 3: s_a = 2 > max(-1, -1): no mistake
    assert m.mistakes_ == 3
    assert m.coef_.tolist() == [[2.0, 0.0], [-1.0, 1.0], [-1.0, -1.0]]
    assert list(m.predict(X)) == ["a", "b", "c", "a"]


@pytest.mark.parametrize("seed", range(8))
def test_kesler_two_classes_is_the_binary_perceptron(seed):
    # with two classes w_0 = -w_1 at every step and s_1 > s_0 iff w_1.x + b_1 > 0: the perceptron
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 4)) if seed % 2 else rng.integers(-2, 3, size=(60, 4)).astype(float)
    y = np.where(rng.random(60) < 0.5, "p", "q")
    k = MulticlassPerceptron(epochs=3).fit(X, y)
    p = Perceptron(epochs=3).fit(X, y)
    assert k.coef_[1].tobytes() == p.coef_[0].tobytes() and (k.coef_[0] == -k.coef_[1]).all()
    assert k.intercept_[1] == p.intercept_[0] and k.mistakes_ == p.mistakes_
    assert list(k.predict(X)) == list(p.predict(X))


@pytest.mark.parametrize("seed", range(8))
def test_kesler_compiled_python_and_exact_agree(seed):
    rng = np.random.default_rng(seed)
    n, d, K = 150, 5, 4
    X = rng.integers(-3, 4, size=(n, d)).astype(float)        # integers: float sums are exact
    y = rng.integers(0, K, size=n)
    W1, b1 = np.zeros((K, d)), np.zeros(K)
    W2, b2 = np.zeros((K, d)), np.zeros(K)
    order = np.arange(n, dtype=np.int64)
    m1 = MP.kesler_pass(X, y.astype(np.int64), order, W1, b1, True)
    m2 = MP.kesler_pass.py_func(X, y.astype(np.int64), order, W2, b2, True)
    assert m1 == m2 and W1.tobytes() == W2.tobytes() and b1.tobytes() == b2.tobytes()
    e = MulticlassPerceptron(exact=True).fit(X, y)
    assert e.mistakes_ == m1 and np.array_equal(np.array(e.coef_, dtype=float), W1)
    f = MulticlassPerceptron().fit(X, y)
    assert f.mistakes_ == m1 and f.coef_.tobytes() == W1.tobytes()
    assert list(e.predict(X)) == list(f.predict(X))
