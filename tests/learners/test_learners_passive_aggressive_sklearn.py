"""``learners.PassiveAggressiveClassifier`` against scikit-learn's (deprecated in 1.8, removed in
1.10): the same coefficients, intercepts, ``n_iter_``, ``t_`` and predictions, bit for bit, over
1,000 random data sets and settings of every parameter (dense and sparse, two to four classes),
and over sequences of ``partial_fit`` calls and warm starts -- on float64 data and, another 1,000
settings, on float32 data, which both keep as float32 (``_plain_sgd32``'s roundings)."""
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
    assert a.coef_.dtype == b.coef_.dtype == (np.float32 if X.dtype == np.float32 else np.float64)
    assert a.intercept_.dtype == b.intercept_.dtype
    assert a.coef_.tobytes() == b.coef_.tobytes()
    assert a.intercept_.tobytes() == b.intercept_.tobytes()
    assert a.decision_function(X).dtype == b.decision_function(X).dtype
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


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("block", range(10))
def test_fit_bitwise_equal_to_sklearn_on_1000_settings(block, dtype):
    rng = np.random.default_rng(7919 * block + 1)
    compared = 0
    for _ in range(100):
        X, y, p = _setting(rng)
        X = X.astype(dtype)
        a, b = _both(lambda cls: cls(**p), X, y)
        if isinstance(a, Exception) or isinstance(b, Exception):
            # both refuse (a validation split too small for a class): the same decision
            assert isinstance(a, Exception) and isinstance(b, Exception), (p, a, b)
            continue
        _same(a, b, X)
        compared += 1
    assert compared >= 90


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("seed", range(40))
def test_partial_fit_sequences_and_warm_starts(seed, dtype):
    rng = np.random.default_rng(seed)
    X, y, p = _setting(rng)
    X = X.astype(dtype)
    p.update(early_stopping=False, class_weight=None if p["class_weight"] == "balanced" else p["class_weight"])
    classes = np.unique(y)
    sk, ours = SkPA(**p), PassiveAggressiveClassifier(**p)
    cuts = sorted(rng.choice(np.arange(1, X.shape[0]), size=3, replace=False).tolist())
    for lo, hi in zip([0] + cuts, cuts + [X.shape[0]]):
        for m in (sk, ours):
            m.partial_fit(X[lo:hi], y[lo:hi], classes=classes)
        _same(sk, ours, X)
    # warm start: fit continues from the current coefficients; coef_init is never written to
    failed = []
    for m in (sk, ours):
        m.set_params(warm_start=True, max_iter=3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                m.fit(X, y)
            except ValueError as e:       # float32 weights may overflow: both must, at the same epoch
                failed.append(str(e))
    if failed:
        assert len(failed) == 2 and failed[0] == failed[1], failed
        return
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


def test_float32_kept_as_scikit_learn_keeps_it():
    """scikit-learn 1.9's dtypes on float32 data: float32 coefficients; a binary intercept_ float64
    (the loop's double), a multiclass one float32; decision_function float32 on float32 data for
    several classes, float64 for two (the float64 intercept) and on float64 data."""
    rng = np.random.default_rng(11)
    X = rng.normal(size=(30, 3)).astype(np.float32)
    for k, intercept, scores in ((2, np.float64, np.float64), (3, np.float32, np.float32)):
        y = np.arange(30) % k
        for m in (SkPA(random_state=0), PassiveAggressiveClassifier(random_state=0)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m.fit(X, y)
            assert m.coef_.dtype == np.float32 and m.intercept_.dtype == intercept
            assert m.decision_function(X).dtype == scores
            assert m.decision_function(X.astype(np.float64)).dtype == np.float64


def test_partial_fit_keeps_the_dtype_of_its_first_call():
    """scikit-learn's loop refuses float64 data for float32 coefficients (a TypeError); so do we,
    with a message that says so, and the coefficients are left as they were."""
    X = np.random.default_rng(2).normal(size=(20, 2)).astype(np.float32)
    y = np.arange(20) % 2
    for m in (SkPA(), PassiveAggressiveClassifier()):
        m.partial_fit(X, y, classes=[0, 1])
        before = m.coef_.copy()
        with pytest.raises(TypeError):
            m.partial_fit(X.astype(np.float64), y)
        assert np.array_equal(m.coef_, before)
    with pytest.raises(TypeError, match="float32"):
        PassiveAggressiveClassifier().partial_fit(X, y, classes=[0, 1]).partial_fit(X.astype(np.float64), y)
