"""partial_fit of the kernel perceptron and Winnow (one pass per chunk, scikit-learn's semantics),
and a user kernel written with numpy operators, in both modes."""
from fractions import Fraction

import numpy as np
import pytest

import learners
from learners import KernelPerceptron, Winnow


def _data(n=240, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(float)
    y = np.where(X @ np.arange(1, d + 1) % 3 == 0, "a", "b")      # not separable: many mistakes
    return X, y


def poly2(a, b):
    return (1 + a @ b) ** 2


@pytest.mark.parametrize("exact", [False, True])
def test_user_kernel_with_numpy_operators_fits_and_predicts(exact):
    X = np.array([[1.0, 2], [2, 0], [-1, -1], [0, -2]])
    y = [1, 1, -1, -1]
    m = KernelPerceptron(kernel=lambda a, b: (1 + a @ b) ** 2, exact=exact).fit(X, y)
    assert list(m.predict(X)) == y
    f = m.decision_function(X)
    assert list(f) == [23, 7, -14, -25]                  # 1 example made support: (1 + x.x1)^2
    if exact:
        assert all(isinstance(v, Fraction) for v in f)
    ref = KernelPerceptron(kernel="poly:c=1,k=2", exact=exact).fit(X, y)
    assert list(ref.decision_function(X)) == list(f)


@pytest.mark.parametrize("kernel", ["linear", "poly:c=1,k=2", "gaussian:c=0.25", poly2])
@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.slow
def test_kernel_chunks_make_the_decisions_of_one_fit_pass(kernel, exact, bias):
    if exact and kernel == "gaussian:c=0.25":
        pytest.skip("the Gaussian kernel has no exact mode")
    X, y = _data(90 if exact else 240)
    whole = KernelPerceptron(kernel=kernel, exact=exact, bias=bias).fit(X, y)
    streamed = KernelPerceptron(kernel=kernel, exact=exact, bias=bias)
    for a in range(0, len(X), 35):
        streamed.partial_fit(X[a:a + 35], y[a:a + 35], classes=["a", "b"])
    sv = [int(j) for j in whole.support_]
    assert whole.mistakes_ > 15
    assert streamed.mistakes_ == whole.mistakes_
    assert list(streamed.support_) == sv                     # positions in the stream
    assert list(streamed.dual_coef_) == list(whole.dual_coef_[sv])
    assert streamed.intercept_[0] == whole.intercept_[0]
    assert len(streamed.support_vectors_) == len(sv) < len(X)   # only the support vectors are kept
    assert list(streamed.decision_function(X)) == list(whole.decision_function(X))   # bitwise
    assert list(streamed.predict(X)) == list(whole.predict(X))
    # fit, then partial_fit on more data: the same as one pass over both
    cont = KernelPerceptron(kernel=kernel, exact=exact, bias=bias).fit(X[:50], y[:50]).partial_fit(X[50:], y[50:])
    assert list(cont.support_) == sv and cont.mistakes_ == whole.mistakes_


def test_kernel_partial_fit_errors():
    X, y = _data(20)
    three = KernelPerceptron().partial_fit(X, y, classes=["a", "b", "c"])      # one vs rest
    assert list(three.classes_) == ["a", "b", "c"] and three.decision_function(X).shape == (20, 3)
    with pytest.raises(learners.InputError, match="not in classes"):
        KernelPerceptron().partial_fit(X, y, classes=["a", "c", "d"])
    with pytest.raises(learners.InputError, match="exactly two values"):
        KernelPerceptron().partial_fit(X[:1], y[:1])            # one label and no classes=
    with pytest.raises(learners.InputError, match="precomputed"):
        KernelPerceptron(kernel="precomputed").partial_fit(X @ X.T, y, classes=["a", "b"])
    m = KernelPerceptron().partial_fit(X, y, classes=["a", "b"])
    with pytest.raises(learners.InputError, match="expecting 5 features"):
        m.partial_fit(X[:, :2], y)
    with pytest.raises(learners.InputError):
        m.partial_fit(X, ["a"] * 19 + ["c"])                   # a label outside the classes
    assert m.mistakes_ == KernelPerceptron().fit(X, y).mistakes_     # nothing half-learned


@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize("variant", ["halve", "eliminate", "winnow2"])
def test_winnow_chunks_make_the_run_of_one_fit_pass(exact, variant):
    rng = np.random.default_rng(1)
    X = (rng.random((400, 30)) < 0.2).astype(np.int64)
    y = np.where(X[:, [1, 4, 7]].any(axis=1), "p", "n")
    whole = Winnow(exact=exact, variant=variant, alpha=3).fit(X, y)
    streamed = Winnow(exact=exact, variant=variant, alpha=3)
    for a in range(0, len(X), 90):
        streamed.partial_fit(X[a:a + 90], y[a:a + 90], classes=["n", "p"])
    assert whole.mistakes_ > 5 and streamed.mistakes_ == whole.mistakes_
    assert list(streamed.coef_[0]) == list(whole.coef_[0])
    assert list(streamed.predict(X)) == list(whole.predict(X))
    # the recorded trace of a resumed run starts from the weights it resumed from
    tr = learners.run_winnow(X[:90], (y[:90] == "p").astype(int), exact=exact, variant=variant, alpha=3)
    tr2 = learners.run_winnow(X[90:], (y[90:] == "p").astype(int), exact=exact, variant=variant, alpha=3,
                              resume=tr.extras["state"])
    assert tr2.initial_weights == tr.weights and tr2.weights == tuple(whole.coef_[0])
    assert tr2.steps[-1].weights == tr2.weights


def test_winnow_partial_fit_errors():
    X = np.array([[1, 0], [0, 1]])
    w = Winnow().partial_fit(X, [1, 0], classes=[0, 1])
    with pytest.raises(learners.InputError, match="expecting 2 features"):
        w.partial_fit([[1, 0, 1]], [1])
    with pytest.raises(learners.InputError, match="cannot resume"):
        learners.run_winnow(X, [1, 0], exact=False, resume=w.trace_.extras["state"])
