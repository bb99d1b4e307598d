"""``learners.PassiveAggressiveClassifier`` against scikit-learn's (deprecated in 1.8, removed in
1.10): the same coefficients, intercepts, ``n_iter_``, ``t_`` and predictions, bit for bit, over
1,000 random data sets and settings of every parameter (dense and sparse, two to four classes),
and over sequences of ``partial_fit`` calls and warm starts."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from learners import PassiveAggressiveClassifier

_lm = pytest.importorskip("sklearn.linear_model")
if not hasattr(_lm, "PassiveAggressiveClassifier"):
    pytest.skip("the installed scikit-learn has no PassiveAggressiveClassifier (removed in 1.10)",
                allow_module_level=True)
SkPA = _lm.PassiveAggressiveClassifier


def _setting(rng):
    n, d, k = int(rng.integers(10, 40)), int(rng.integers(1, 6)), int(rng.choice([2, 2, 3, 4]))
    X = rng.normal(size=(n, d)) * rng.choice([0.1, 1.0, 10.0])
    if rng.random() < 0.3:
        X = np.round(X)                                   # zero rows, ties, exact margins of 1
    labels = np.array(["b", "a", "d", "c"])[:k] if rng.random() < 0.3 else np.arange(k)
    y = labels[rng.integers(0, k, size=n)]
    y[:2 * k] = np.tile(labels, 2)
    cw = [None, "balanced", "dict"][int(rng.integers(0, 3))]
    if cw == "dict":
        cw = {(c.item() if hasattr(c, "item") else c): float(rng.choice([0.5, 1.0, 2.0])) for c in labels}
    p = dict(C=float(rng.choice([0.01, 0.5, 1.0, 3.0])), fit_intercept=bool(rng.random() < 0.7),
             max_iter=int(rng.integers(1, 30)), tol=[None, 1e-3, 0.1][int(rng.integers(0, 3))],
             shuffle=bool(rng.random() < 0.7), loss=str(rng.choice(["hinge", "squared_hinge"])),
             random_state=int(rng.integers(0, 1000)), average=[False, True, 3, 25][int(rng.integers(0, 4))],
             early_stopping=bool(rng.random() < 0.25), n_iter_no_change=int(rng.integers(1, 6)),
             validation_fraction=float(rng.choice([0.2, 0.3])), class_weight=cw,
             n_jobs=[None, 2][int(rng.integers(0, 2))])
    if rng.random() < 0.25:
        X = sp.csr_matrix(np.where(rng.random(X.shape) < 0.5, 0.0, X))
    return X, y, p


def _same(a, b, X):
    assert a.coef_.dtype == b.coef_.dtype == np.float64
    assert a.coef_.tobytes() == b.coef_.tobytes()
    assert a.intercept_.tobytes() == b.intercept_.tobytes()
    assert a.n_iter_ == b.n_iter_ and a.t_ == b.t_
    assert list(a.classes_) == list(b.classes_)
    assert a.decision_function(X).tobytes() == b.decision_function(X).tobytes()
    assert list(a.predict(X)) == list(b.predict(X))


def _both(make, X, y, **kw):
    out = []
    for cls in (SkPA, PassiveAggressiveClassifier):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:     # copies: scikit-learn writes its result into a float64 coef_init it is given
                out.append(make(cls).fit(X, y, **{k: v.copy() for k, v in kw.items()}))
            except ValueError as e:
                out.append(e)
    return out


@pytest.mark.parametrize("block", range(10))
def test_fit_bitwise_equal_to_sklearn_on_1000_settings(block):
    rng = np.random.default_rng(7919 * block + 1)
    compared = 0
    for _ in range(100):
        X, y, p = _setting(rng)
        a, b = _both(lambda cls: cls(**p), X, y)
        if isinstance(a, Exception) or isinstance(b, Exception):
            # both refuse (a validation split too small for a class): the same decision
            assert isinstance(a, Exception) and isinstance(b, Exception), (p, a, b)
            continue
        _same(a, b, X)
        compared += 1
    assert compared >= 90


@pytest.mark.parametrize("seed", range(40))
def test_partial_fit_sequences_and_warm_starts(seed):
    rng = np.random.default_rng(seed)
    X, y, p = _setting(rng)
    p.update(early_stopping=False, class_weight=None if p["class_weight"] == "balanced" else p["class_weight"])
    classes = np.unique(y)
    sk, ours = SkPA(**p), PassiveAggressiveClassifier(**p)
    cuts = sorted(rng.choice(np.arange(1, X.shape[0]), size=3, replace=False).tolist())
    for lo, hi in zip([0] + cuts, cuts + [X.shape[0]]):
        for m in (sk, ours):
            m.partial_fit(X[lo:hi], y[lo:hi], classes=classes)
        _same(sk, ours, X)
    # warm start: fit continues from the current coefficients; coef_init is never written to
    for m in (sk, ours):
        m.set_params(warm_start=True, max_iter=3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m.fit(X, y)
    _same(sk, ours, X)
    k = len(classes)
    init = rng.normal(size=(1 if k == 2 else k, X.shape[1]))
    init0 = init.copy()
    a, b = _both(lambda cls: cls(**dict(p, warm_start=False)), X, y, coef_init=init,
                 intercept_init=np.ones(1 if k == 2 else k))
    _same(a, b, X)
    PassiveAggressiveClassifier(**p).fit(X, y, coef_init=init)
    assert np.array_equal(init, init0)


def test_random_state_instances_draw_alike():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 4))
    y = rng.integers(0, 3, size=60)
    sk = SkPA(random_state=np.random.RandomState(3), max_iter=5, early_stopping=True, validation_fraction=0.2)
    ours = PassiveAggressiveClassifier(random_state=np.random.RandomState(3), max_iter=5, early_stopping=True,
                                       validation_fraction=0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(3):                                 # the shared generator moves on alike
            sk.fit(X, y)
            ours.fit(X, y)
            _same(sk, ours, X)


def test_parameters_are_sklearns():
    assert sorted(SkPA().get_params()) == sorted(PassiveAggressiveClassifier().get_params())
    for name, v in SkPA().get_params().items():
        assert PassiveAggressiveClassifier().get_params()[name] == v, name
    with pytest.raises(ValueError, match="early_stopping"):
        PassiveAggressiveClassifier(early_stopping=True).partial_fit([[0.0], [1.0]], [0, 1], classes=[0, 1])
    with pytest.raises(ValueError, match="classes"):
        PassiveAggressiveClassifier().partial_fit([[0.0], [1.0]], [0, 1])
