"""Reference learners: conventions, exact arithmetic, traces, bounds, bad input."""
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from learners import (AveragedPerceptron, InputError, KernelPerceptron, Perceptron, VotedPerceptron, Winnow,
                      averaged_weights, run_kernel_perceptron, run_perceptron, run_winnow, voted_weights)
from learners.strategies import disjunction_datasets, inseparable_datasets, separable_datasets


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


# --- conventions -------------------------------------------------------------------------------
def test_tie_is_a_mistake_and_update_rule():
    tr = run_perceptron([[1, 0], [0, 1]], [1, -1], exact=True)
    # w = 0: both activations are 0 -> both are mistakes
    assert tr.mistake_flags == [True, True]
    assert tr.weights == (Fraction(1), Fraction(-1))
    assert tr.steps[0].activation == 0 and tr.steps[0].prediction == -1


def test_bias_update_and_initial_weights():
    tr = run_perceptron([[1, 1]], [-1], bias=True, w0=[2, 0], b0=Fraction(1, 2), exact=True)
    assert tr.steps[0].activation == Fraction(5, 2)
    assert tr.weights == (Fraction(1), Fraction(-1)) and tr.bias == Fraction(-1, 2)
    assert tr.initial_weights == (Fraction(2), Fraction(0)) and tr.initial_bias == Fraction(1, 2)


def test_epochs_visit_in_order_and_shuffle_needs_seed():
    tr = run_perceptron([[1], [2], [3]], [1, 1, 1], epochs=2, exact=True)
    assert tr.order == [0, 1, 2, 0, 1, 2] and tr.n_steps == 6
    with pytest.raises(InputError, match="seed"):
        run_perceptron([[1], [2]], [1, 1], shuffle=True)
    a = run_perceptron([[1], [2], [-3]], [1, 1, -1], epochs=4, shuffle=True, seed=5)
    b = run_perceptron([[1], [2], [-3]], [1, 1, -1], epochs=4, shuffle=True, seed=5)
    assert a.order == b.order and sorted(a.order[:3]) == [0, 1, 2]


def test_exact_rationals_no_rounding():
    X = [["1/3", "0.1"], ["-2/7", "1/10"]]
    tr = run_perceptron(X, [1, -1], epochs=3, exact=True)
    for v in tr.weights:
        assert isinstance(v, Fraction)
    # recompute by hand with Fractions
    w = [Fraction(0), Fraction(0)]
    Xf = [[Fraction(1, 3), Fraction(1, 10)], [Fraction(-2, 7), Fraction(1, 10)]]
    for _ in range(3):
        for x, yy in zip(Xf, [1, -1]):
            if yy * dot(w, x) <= 0:
                w = [a + yy * b for a, b in zip(w, x)]
    assert list(tr.weights) == w


def test_exact_python_int_fallback_agrees_with_int64():
    big = 10 ** 12
    X = [[big, -big + 1], [-big, big + 3], [big + 7, big]]
    y = [1, -1, 1]
    tr = run_perceptron(X, y, epochs=50, exact=True, bias=True)
    assert tr.params["exact_engine"] == "python-int"
    small = run_perceptron([[v // 10 ** 10 for v in r] for r in X], y, epochs=5, exact=True)
    assert small.params["exact_engine"] == "int64"
    # the python-int engine against a direct Fraction loop
    w, b = [0, 0], 0
    for _ in range(50):
        for x, yy in zip(X, y):
            if yy * (dot(w, x) + b) <= 0:
                w = [a + yy * c for a, c in zip(w, x)]
                b += yy
    assert list(tr.weights) == w and tr.bias == b


def test_normalize_exact_and_float():
    tr = run_perceptron([[3, 4], [0, -2]], [1, -1], normalize=True, exact=True)
    assert tr.weights == (Fraction(3, 5), Fraction(4, 5))
    with pytest.raises(InputError, match="not the square of a rational"):
        run_perceptron([[1, 1]], [1], normalize=True, exact=True)
    tf = run_perceptron([[1.0, 1.0]], [1], normalize=True)
    assert math.isclose(tf.weights[0], 1 / math.sqrt(2))


# --- traces and potentials ---------------------------------------------------------------------
@settings(max_examples=60)
@given(separable_datasets(max_n=8, max_d=3), st.integers(1, 3), st.booleans())
def test_trace_weights_and_potentials_are_consistent(data, epochs, bias):
    tr = run_perceptron(data.X, data.y, epochs=epochs, bias=bias, exact=True, target=data.target)
    w = list(tr.initial_weights)
    b = tr.initial_bias or 0
    for s in tr.steps:
        x = data.X[s.index]
        assert s.activation == dot(w, x) + b
        if s.mistake:
            w = [a + s.label * c for a, c in zip(w, x)]
            if bias:
                b += s.label
        assert list(s.weights) == w
        assert s.w_norm_sq == dot(w, w) + (b * b if bias else 0)
        assert s.w_dot_target == dot(w, data.target)
    assert tr.mistakes == sum(s.mistake for s in tr.steps)
    mt = run_perceptron(data.X, data.y, epochs=epochs, bias=bias, exact=True, record="mistakes")
    assert [s for s in tr.steps if s.mistake] == [
        s.__class__(**{**s.__dict__, "w_dot_target": tr.steps[s.t].w_dot_target}) for s in mt.steps]


@settings(max_examples=80)
@given(separable_datasets(max_n=10, max_d=4), st.integers(1, 4))
def test_block_novikoff_and_claims_on_separable_data(data, epochs):
    tr = run_perceptron(data.X, data.y, epochs=epochs, exact=True, target=data.target, record="mistakes")
    prev_wt, prev_n = Fraction(0), Fraction(0)
    for s in tr.steps:
        x = data.X[s.index]
        assert s.w_dot_target - prev_wt >= data.margin          # Claim 1
        assert s.w_norm_sq - prev_n <= dot(x, x)                 # Claim 2 (non-strict)
        prev_wt, prev_n = s.w_dot_target, s.w_norm_sq
    assert tr.mistakes <= data.bound                             # Block-Novikoff


@settings(max_examples=60)
@given(inseparable_datasets(max_n=8, max_d=3), st.integers(1, 3))
def test_hinge_loss_bound(data, epochs):
    # the bound counts mistakes of one pass over a sequence; several epochs are one longer sequence
    X = data.X * epochs
    y = data.y * epochs
    tr = run_perceptron(X, y, exact=True)
    assert tr.mistakes <= data.R_sq * dot(data.target, data.target) + 2 * epochs * data.hinge_loss


@settings(max_examples=60)
@given(disjunction_datasets(max_vars=10, max_r=3, max_n=40), st.sampled_from(["halve", "eliminate"]))
def test_winnow_mistake_bound(data, variant):
    tr = run_winnow(data.X, data.y, variant=variant)
    n, r, M = data.n, data.r, tr.mistakes
    # M <= 2 + 3r(1 + lg n)  <=>  2^(M - 2 - 3r) <= n^(3r)  (exact, no logarithms)
    if variant == "halve":
        assert M < 2 + 3 * r or 2 ** (M - 2 - 3 * r) <= n ** (3 * r)
    else:
        assert M < 1 + 2 * r or 2 ** (M - 1 - 2 * r) <= n ** (2 * r)
    for j in data.relevant:        # a relevant weight is never demoted
        assert tr.weights[j] >= 1


def test_winnow_rules():
    X = [[1, 0, 0, 0], [1, 1, 1, 1], [0, 1, 0, 0]]
    tr = run_winnow(X, [1, 0, 0])
    # x0 only: 1 < 4 -> false negative, x0 doubled; all ones: 2+1+1+1 = 5 >= 4 -> false positive, all halved
    assert tr.weights == (Fraction(1), Fraction(1, 2), Fraction(1, 2), Fraction(1, 2))
    te = run_winnow(X, [1, 0, 0], variant="eliminate")
    assert te.weights == (0, 0, 0, 0)
    t2 = run_winnow(X, [1, 0, 0], variant="winnow2", alpha="3/2")
    assert t2.weights[0] == 1 and t2.weights[1] == Fraction(2, 3)
    tf = run_winnow(X, [1, 0, 0], exact=False)
    assert [float(v) for v in tr.weights] == list(tf.weights)


# --- kernel perceptron ---------------------------------------------------------------------------
@settings(max_examples=40)
@given(separable_datasets(max_n=7, max_d=3), st.integers(1, 3))
def test_linear_kernel_equals_primal(data, epochs):
    p = run_perceptron(data.X, data.y, epochs=epochs, exact=True)
    k = run_kernel_perceptron(data.X, data.y, "linear", epochs=epochs, exact=True)
    assert p.mistake_flags == k.mistake_flags
    w = [sum(a * x[j] for a, x in zip(k.weights, data.X)) for j in range(len(data.X[0]))]
    assert w == list(p.weights)


def test_poly_kernel_equals_explicit_feature_map():
    X = [[1, 2], [-1, 1], [2, -1], [0, 1], [1, 1]]
    y = [1, -1, 1, -1, 1]

    def phi(x):  # (1 + x.z)^2 in 2-D
        a, b = x
        r2 = math.sqrt(2)
        return [1, r2 * a, r2 * b, a * a, b * b, r2 * a * b]
    k = run_kernel_perceptron(X, y, "poly:c=1,k=2", epochs=3)
    p = run_perceptron([phi(x) for x in X], y, epochs=3)
    assert k.mistake_flags == p.mistake_flags
    ke = run_kernel_perceptron(X, y, "poly:c=1,k=2", epochs=3, exact=True)
    assert ke.mistake_flags == k.mistake_flags


def test_kernel_potentials_and_blum_variant():
    X = [[1, 0], [0, 1], [1, 1], [-1, 2]]
    y = [-1, 1, 1, 1]
    tr = run_kernel_perceptron(X, y, "poly:c=1,k=2", exact=True, epochs=2, target_alpha=[0, 1, 1, 0])
    K = lambda a, b: (1 + dot(a, b)) ** 2  # noqa: E731
    for s in tr.steps:
        al = s.weights
        assert s.w_norm_sq == sum(al[i] * al[j] * K(X[i], X[j]) for i in range(4) for j in range(4))
    bl = run_kernel_perceptron(X, y, "linear", exact=True, blum_start=True)
    assert bl.initial_weights == (0, 1, 0, 0)
    # strict tests: w = (0, 1) gives w.x = 0 on the negative (1, 0): not a mistake in Blum's variant
    assert bl.mistake_flags[0] is False
    with pytest.raises(InputError, match="irrational"):
        run_kernel_perceptron(X, y, "gaussian:c=1", exact=True)


def test_kernel_callable_returning_non_number():
    with pytest.raises(InputError, match="non-number"):
        run_kernel_perceptron([[1], [2]], [1, -1], lambda a, b: "x")
    with pytest.raises(InputError, match="nan"):
        run_kernel_perceptron([[1], [2]], [1, -1], lambda a, b: float("nan"))


# --- averaged and voted ---------------------------------------------------------------------------
def test_averaged_conventions():
    X = [[1, 0], [0, 1], [-1, -1]]
    y = [1, 1, -1]
    tr = run_perceptron(X, y, exact=True, record="all")
    ws = [s.weights for s in tr.steps]
    w_after, _ = averaged_weights(tr)
    assert list(w_after) == [sum(w[j] for w in ws) / 3 for j in range(2)]
    w_incl, _ = averaged_weights(tr, include_initial=True)
    assert list(w_incl) == [sum(w[j] for w in ws) / 4 for j in range(2)]
    est = AveragedPerceptron(exact=True, bias=False).fit(X, y)
    assert list(est.coef_[0]) == list(w_after)


def test_voted_counts_cover_every_step():
    X = [[1, 0], [0, 1], [-1, -1], [2, 1]]
    y = [1, 1, -1, 1]
    tr = run_perceptron(X, y, epochs=3, exact=True)
    v = voted_weights(tr)
    assert sum(c for _, _, c in v) == tr.n_steps
    assert len(v) == tr.mistakes  # the initial vector never survives the first (tie) step
    est = VotedPerceptron(epochs=3, exact=True).fit(X, y)
    assert list(est.predict(X)) == y


# --- estimators -----------------------------------------------------------------------------------
def test_estimator_api_any_two_labels():
    X = np.array([[1., 2.], [-1., 0.], [0., 1.], [2., -1.]])
    y = np.array(["spam", "ham", "spam", "ham"])
    p = Perceptron(epochs=3, bias=True).fit(X, y)
    assert p.coef_.shape == (1, 2) and p.intercept_.shape == (1,)
    assert list(p.classes_) == ["ham", "spam"]
    assert list(p.predict(X)) == list(y)
    assert p.get_params()["epochs"] == 3
    p.set_params(epochs=1)
    assert p.epochs == 1
    with pytest.raises(InputError):
        p.set_params(nope=1)
    q = Perceptron(epochs=1, bias=True)
    for _ in range(3):
        q.partial_fit(X, y, classes=["ham", "spam"])
    assert np.array_equal(q.coef_, Perceptron(epochs=3, bias=True).fit(X, y).coef_)
    with pytest.raises(InputError, match="features"):
        p.predict([[1, 2, 3]])
    assert KernelPerceptron("poly:c=1,k=2", epochs=3).fit(X, y).score(X, y) == 1.0
    w = Winnow(epochs=2).fit([[1, 0, 0], [0, 1, 0], [0, 0, 1]], ["no", "yes", "no"])
    assert list(w.predict([[0, 1, 0], [1, 0, 0]])) == ["yes", "no"]


def test_learn_one_predict_one():
    m = Perceptron(bias=False)
    for x, yy in [({"a": 1, "b": 2}, 1), ({"a": -1, "b": 0}, -1), ({"a": 0, "b": 1}, 1)]:
        m.learn_one(x, yy)
    assert m.predict_one({"a": 2, "b": 1}) == 1


# --- bad input ------------------------------------------------------------------------------------
@pytest.mark.parametrize("X,y,match", [
    ([[1, float("nan")]], [1], "NaN"),
    ([[1, float("inf")]], [1], "infinity"),
    ([[1, 2], [1]], [1, -1], "ragged"),
    ([], [], "empty"),
    ([[1], [2]], [1], "mismatched"),
    ([[1], [2]], [1, 0], "label 1"),
    ([[1], ["x"]], [1, -1], "not a number"),
])
def test_bad_input_one_line_errors(X, y, match):
    with pytest.raises(InputError, match=match) as ei:
        run_perceptron(X, y)
    assert "\n" not in str(ei.value)
    assert isinstance(ei.value, ValueError)


def test_estimator_label_set_needs_two_values_and_more_are_one_vs_rest():
    with pytest.raises(InputError, match="only 1 class"):
        Perceptron().fit([[1], [2], [3]], [1, 1, 1])
    with pytest.raises(InputError, match="continuous"):
        Perceptron().fit([[1], [2], [3]], [0.5, 1.5, 2.25])
    m = Perceptron().fit([[1], [2], [3]], [1, 2, 3])
    assert list(m.classes_) == [1, 2, 3] and m.coef_.shape == (3, 1)


def test_winnow_needs_binary_features():
    with pytest.raises(InputError, match="must be 0 or 1"):
        run_winnow([[0, 2]], [1])
    with pytest.raises(InputError, match="0 or 1"):
        run_winnow([[0, 1]], [-1])


def test_inputs_never_modified():
    X = np.array([[1.0, 2.0], [-1.0, 0.5]])
    Xc = X.copy()
    y = [1, -1]
    run_perceptron(X, y, epochs=3, normalize=True, bias=True)
    Perceptron(epochs=2).fit(X, y)
    assert np.array_equal(X, Xc) and y == [1, -1]
    L = [[1, 2], [3, 4]]
    run_perceptron(L, [1, -1], exact=True, normalize=False, w0=[1, 1])
    assert L == [[1, 2], [3, 4]]


def test_trace_jsonl_exact_strings():
    tr = run_perceptron([["1/2", 1]], [1], exact=True, target=[1, 0])
    lines = list(tr.to_jsonl_lines())
    head = json.loads(lines[0])["trace"]
    assert head["weights"] == ["1/2", "1"] and head["mistakes"] == 1
    step = json.loads(lines[1])
    assert step["mistake"] is True and step["w_dot_target"] == "1/2"
