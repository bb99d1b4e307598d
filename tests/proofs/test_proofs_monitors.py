"""Runtime monitors on real learner traces (exact arithmetic)."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from learners import run_perceptron, run_winnow
from proofs.catalogue.monitors import check_perceptron_trace, check_winnow_trace


@st.composite
def separable(draw):
    d = draw(st.integers(1, 3))
    u = draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d).filter(any))
    n = draw(st.integers(1, 8))
    X, y = [], []
    for _ in range(n):
        x = draw(st.lists(st.integers(-4, 4), min_size=d, max_size=d))
        m = sum(a * b for a, b in zip(u, x))
        if m == 0:
            x = list(u)
            m = sum(a * a for a in u)
        X.append(x)
        y.append(1 if m > 0 else -1)
    return X, y, u


@settings(max_examples=40)
@given(separable(), st.booleans(), st.integers(1, 3))
def test_claims_and_bound_hold_on_perceptron_runs(data, bias, epochs):
    X, y, u = data
    tr = run_perceptron(X, y, epochs=epochs, exact=True, bias=bias, target=u, target_bias=0 if bias else None)
    rep = check_perceptron_trace(tr, X, y, u, 0 if bias else None)
    assert rep.ok, [str(v) for v in rep.violations]
    assert rep.checked_mistakes == tr.mistakes
    assert rep.margin > 0 and tr.mistakes <= rep.bound


@settings(max_examples=25)
@given(separable(), st.lists(st.integers(-3, 3), min_size=3, max_size=3))
def test_hinge_bound_with_any_target(data, v):
    X, y, u = data
    d = len(X[0])
    w = v[:d]
    tr = run_perceptron(X, y, epochs=2, exact=True, record="mistakes")
    rep = check_perceptron_trace(tr, X, y, w)
    assert rep.ok, [str(x) for x in rep.violations]


def test_tie_gives_equality_in_claim2():
    # the erratum in a real run: from w = 0 the first activation is 0, a mistake, and |w|^2 grows by exactly |x|^2
    X, y = [[1, 0], [0, 1]], [1, 1]
    tr = run_perceptron(X, y, exact=True, target=[1, 1])
    s0 = tr.steps[0]
    assert s0.mistake and s0.activation == 0 and s0.w_norm_sq == 1   # = |w|^2 + |x|^2, not less
    assert check_perceptron_trace(tr, X, y, [1, 1]).ok


def test_corrupted_trace_is_caught():
    X, y = [[1, 2], [2, -1], [-1, -3]], [1, 1, -1]
    tr = run_perceptron(X, y, epochs=2, exact=True)
    k = next(i for i, s in enumerate(tr.steps) if s.mistake)
    s = tr.steps[k]
    tr.steps[k] = type(s)(**{**s.__dict__, "weights": tuple(w + 1 for w in s.weights)})
    rep = check_perceptron_trace(tr, X, y, [1, 1])
    assert not rep.ok and any(v.check == "update" for v in rep.violations)


def test_bound_violation_is_reported():
    # a target that separates with a huge margin claims a tiny bound the run exceeds
    X, y = [[1, 0], [0, 1], [-1, 0]], [1, 1, -1]
    tr = run_perceptron(X, y, epochs=3, exact=True)
    rep = check_perceptron_trace(tr, X, y, [Fraction(1), Fraction(1)])
    assert rep.ok
    X2 = [[Fraction(1, 10), 0]]
    tr2 = run_perceptron(X2, [1], exact=True)
    rep2 = check_perceptron_trace(tr2, X2, [1], [100, 0])
    # R^2 |w*|^2 / gamma^2 = (1/100)(10000)/(100) = 1 >= M = 1: holds with equality
    assert rep2.ok and rep2.bound == 1


def test_bad_inputs():
    X, y = [[1, 0]], [1]
    with pytest.raises(ValueError):
        check_perceptron_trace(run_perceptron(X, y), X, y, [1, 0])          # float trace
    with pytest.raises(ValueError):
        check_perceptron_trace(run_perceptron(X, y, exact=True), X, y, [1, 0, 0])


@settings(max_examples=30)
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.sets(st.integers(0, n - 1), min_size=1, max_size=n),
    st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=1, max_size=12))),
    st.sampled_from(["halve", "eliminate"]))
def test_winnow_lemmas_and_bound(data, variant):
    n, rel, X = data
    y = [1 if any(x[i] for i in rel) else 0 for x in X]
    tr = run_winnow(X, y, epochs=3, variant=variant)
    rep = check_winnow_trace(tr, X, y, rel)
    assert rep.ok, [str(v) for v in rep.violations]


def _unit(t):
    t = Fraction(t)
    return [(1 - t * t) / (1 + t * t), 2 * t / (1 + t * t)]      # a rational point on the unit circle


@settings(max_examples=60)
@given(st.lists(st.tuples(st.fractions(Fraction(-3), Fraction(3), max_denominator=7), st.booleans()),
                min_size=1, max_size=14), st.integers(1, 4))
def test_two_d_bound_on_exact_runs(pts, epochs):
    # unit examples in R^2, w* = (1, 0): the proved 2-D bound M <= 1 + 1/(2 gamma^2) holds on exact runs
    X, y = [], []
    for t, flip in pts:
        z = _unit(t)
        if z[0] <= 0:
            z = [-z[0], -z[1]]
        if z[0] == 0:
            continue
        lab = -1 if flip else 1
        X.append([lab * z[0], lab * z[1]])       # y x = z has positive first coordinate
        y.append(lab)
    if not X:
        return
    tr = run_perceptron(X, y, epochs=epochs, exact=True, target=[1, 0])
    rep = check_perceptron_trace(tr, X, y, [1, 0])
    assert rep.ok
    gamma = rep.margin
    assert gamma > 0
    assert tr.mistakes <= 1 + 1 / (2 * gamma * gamma)
