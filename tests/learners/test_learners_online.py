"""Online use: every learner takes examples one at a time (River's ``learn_one`` /
``predict_one`` on dicts of features) and in chunks (``partial_fit``), and any split of a stream
into chunks gives the run of one example at a time -- the same mistakes, the same weights (bit
for bit; the averaged perceptron's mean in float mode within rounding, its trace bit for bit),
the same predictions."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from learners import (AveragedPerceptron, KernelPerceptron, MulticlassPerceptron, PassiveAggressive,
                      PassiveAggressiveClassifier, Perceptron, VotedPerceptron, Winnow)

LEARNERS = [
    Perceptron(), Perceptron(bias=False), Perceptron(exact=True), AveragedPerceptron(),
    AveragedPerceptron(exact=True), VotedPerceptron(), VotedPerceptron(exact=True),
    KernelPerceptron(kernel="poly:c=1,k=2"), KernelPerceptron(kernel="gaussian:c=0.5", bias=True),
    Winnow(binarize=0.0), Winnow(binarize=0.5, variant="winnow2", alpha=1.5, exact=False),
    PassiveAggressive(), PassiveAggressive(variant="pa2", exact=True),
    PassiveAggressiveClassifier(shuffle=False), PassiveAggressiveClassifier(shuffle=False, loss="squared_hinge"),
    MulticlassPerceptron(), MulticlassPerceptron(exact=True, bias=False),
]
# Not here: PassiveAggressiveClassifier(average=...) with an intercept.  scikit-learn, which it
# reproduces bit for bit, restarts the online intercept of every partial_fit call from its value
# when averaging began, so chunks are not one example at a time (docs/migrating-passive-aggressive.md).


def _fresh(est):
    return type(est)(**est.get_params())


def _data(seed, n, k):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, 3)).astype(float)
    labels = np.array(["a", "b", "c", "d"][:k])
    y = labels[rng.integers(0, k, size=n)]
    y[:k] = labels
    return X, y, labels


def _float_average(m):
    # the mean of the weight vectors is summed chunk by chunk: equal within rounding only
    return isinstance(m, AveragedPerceptron) and not m.exact


def _state(m, X):
    out = {"classes": list(m.classes_), "mistakes": np.asarray(m.mistakes_).tolist()}
    if not _float_average(m):
        out["decision"] = np.asarray(m.decision_function(X)).tolist()
    for name in ("coef_", "intercept_", "raw_coef_", "dual_coef_", "support_"):
        if hasattr(m, name) and (name == "raw_coef_" or not _float_average(m)):
            out[name] = np.asarray(getattr(m, name)).tolist()
    if isinstance(m, VotedPerceptron) and not hasattr(m, "estimators_"):
        out["votes"] = m.votes_
    return out


def _close_average(a, b, X):
    if _float_average(a):
        np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.intercept_, b.intercept_, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("est", LEARNERS, ids=repr)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.sampled_from([2, 3]), cuts=st.lists(st.integers(1, 29), max_size=5))
def test_any_split_into_chunks_is_one_example_at_a_time(est, seed, k, cuts):
    X, y, labels = _data(seed, 30, k)
    bounds = [0] + sorted(set(cuts)) + [30]
    chunked = _fresh(est)
    for lo, hi in zip(bounds, bounds[1:]):
        chunked.partial_fit(X[lo:hi], y[lo:hi], classes=labels)
    single = _fresh(est)
    for i in range(30):
        single.partial_fit(X[i:i + 1], y[i:i + 1], classes=labels)
    assert _state(chunked, X) == _state(single, X)
    _close_average(chunked, single, X)
    # River's vocabulary: dicts of features, once the classes are declared
    river = _fresh(est)
    river.partial_fit(X[:1], y[:1], classes=labels)
    for i in range(1, 30):
        river.learn_one({"f0": X[i, 0], "f1": X[i, 1], "f2": X[i, 2]}, y[i])
    assert _state(river, X) == _state(single, X)
    _close_average(river, single, X)
    assert river.predict_one({"f0": 1.0, "f1": 0.0, "f2": -1.0}) == single.predict(np.array([[1.0, 0.0, -1.0]]))[0]


@pytest.mark.parametrize("est", LEARNERS, ids=repr)
def test_learn_one_from_nothing_waits_for_two_labels(est):
    X, y, _ = _data(1, 20, 2)
    m = _fresh(est)
    assert m.predict_one({"f0": 0.0, "f1": 1.0, "f2": 0.0}) is None
    for i in range(20):
        m.learn_one({"f0": X[i, 0], "f1": X[i, 1], "f2": X[i, 2]}, y[i])
    first = int(np.argmax(y != y[0]))                         # the first example of the other label
    ref = _fresh(est).partial_fit(X[:first + 1], y[:first + 1], classes=sorted(set(y[:first + 1])))
    ref.partial_fit(X[first + 1:], y[first + 1:])
    assert _state(m, X) == _state(ref, X)
    with pytest.raises(ValueError):
        m.learn_one({"f0": 1.0, "f1": 1.0, "f2": 1.0}, "zzz")             # not a declared class
