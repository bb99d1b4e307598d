"""The reference under a course's contract: the configured learners and the grader's own loop
agree wherever both apply; the return layouts read what courses return; the child's call plan
(sandbox/_plan_child.py) makes the calls a handout describes."""
import types
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.spec.contract import Contract, visiting_order
from grading.spec.contract_parse import parse_contract
from grading.references.plan import LayoutError, read_answer, request
from grading.references.reference import reference_run

ORDERS = ["index", "get_order", "shuffle:7", "numpy_permutation:3"]


def _contract(alg, **kw):
    c = parse_contract(None, algorithm=alg, style="function", entry="train", bias=kw.pop("bias", alg == "perceptron"),
                       normalize=False, labels="01" if alg == "winnow" else "pm1",
                       kernel="poly:c=1,k=2" if alg == "kernel_perceptron" else "linear", epochs=1, src="t")
    return c.replace(**kw)


def _same_run(a, b):
    assert a.weights == b.weights and a.bias == b.bias and a.mistakes == b.mistakes
    assert [(s.index, s.mistake, s.weights, s.bias) for s in a.steps] == \
        [(s.index, s.mistake, s.weights, s.bias) for s in b.steps]
    assert [s.activation for s in a.steps] == [s.activation for s in b.steps]


def _pm1(draw, max_n=6, max_d=3):
    d = draw(st.integers(1, max_d))
    n = draw(st.integers(1, max_n))
    X = [[draw(st.integers(-6, 6)) / 4 for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    return X, y


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_perceptron_learners_and_loop_agree_under_every_contract(data):
    X, y = _pm1(data.draw)
    c = _contract("perceptron", bias=data.draw(st.booleans()), order=data.draw(st.sampled_from(ORDERS)),
                  learning_rate=data.draw(st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(3)])),
                  init=data.draw(st.sampled_from(["zero", "given"])),
                  stop=data.draw(st.sampled_from(["epochs", "converged"])))
    T = data.draw(st.integers(1, 3))
    _same_run(reference_run(c, X, y, T), reference_run(c, X, y, T, engine="loop"))


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_winnow_learners_and_loop_agree(data):
    m = data.draw(st.integers(1, 5))
    n = data.draw(st.integers(1, 7))
    X = [[data.draw(st.integers(0, 1)) for _ in range(m)] for _ in range(n)]
    y = [data.draw(st.integers(0, 1)) for _ in range(n)]
    variant = data.draw(st.sampled_from(["halve", "eliminate", "winnow2"]))
    c = _contract("winnow", variant=variant, factor=Fraction(3) if variant == "winnow2" else Fraction(2),
                  threshold=data.draw(st.sampled_from(["n", "n/2", "3/2"])), order=data.draw(st.sampled_from(ORDERS)))
    T = data.draw(st.integers(1, 3))
    _same_run(reference_run(c, X, y, T), reference_run(c, X, y, T, engine="loop"))


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_kernel_learners_and_loop_agree_in_both_dual_forms(data):
    X, y = _pm1(data.draw, max_n=5, max_d=2)
    c = _contract("kernel_perceptron", dual=data.draw(st.sampled_from(["signed", "counts"])),
                  kernel_bias=data.draw(st.booleans()), order=data.draw(st.sampled_from(ORDERS)),
                  learning_rate=data.draw(st.sampled_from([Fraction(1), Fraction(1, 2)])))
    T = data.draw(st.integers(1, 3))
    a = reference_run(c, X, y, T)
    _same_run(a, reference_run(c, X, y, T, engine="loop"))
    if c.dual == "counts":      # counts are never negative and count the mistakes on each example
        assert all(v >= 0 for v in a.weights)
        assert sum(a.weights) == c.learning_rate * a.mistakes


def test_the_tie_conventions_differ_exactly_on_ties():
    X, y = [[0.0, 1.0], [0.0, 0.0]], [-1, 1]          # step 1 is a tie on a negative example
    base = _contract("perceptron")
    runs = {t: reference_run(base.replace(ties=t), X, y, 1) for t in ("mistake", "no_mistake", "predict+1",
                                                                   "predict-1")}
    assert runs["mistake"].steps[0].mistake and runs["predict+1"].steps[0].mistake
    assert not runs["no_mistake"].steps[0].mistake and not runs["predict-1"].steps[0].mistake


def test_learning_rate_scales_the_run_and_a_start_is_honoured():
    X, y = [[1.0, 2.0], [-1.0, 0.5], [0.5, -1.0]], [1, -1, -1]
    c = _contract("perceptron")
    one = reference_run(c, X, y, 2)
    half = reference_run(c.replace(learning_rate=Fraction(1, 2)), X, y, 2)
    assert half.weights == tuple(v / 2 for v in one.weights) and half.bias == one.bias / 2
    given = reference_run(c.replace(init="given"), X, y, 2)
    assert given.initial_weights != one.initial_weights and given.initial_bias == Fraction(1, 4)


def test_get_order_is_the_handouts():
    import random
    random.seed(1)
    idx = list(range(10))
    random.shuffle(idx)
    assert visiting_order("get_order", 10) == idx
    assert sorted(visiting_order("numpy_permutation:3", 9)) == list(range(9))


# --- return layouts -------------------------------------------------------------------------
@pytest.mark.parametrize("returns,weights,bias,ok,w,b", [
    ("w_b", "return", None, {"ret_n": 2, "ret_0": [1.0, 2.0], "ret_1": 3.0}, [1.0, 2.0], 3.0),
    ("w_b", "return", None, {"ret_n": 2, "ret_0": [[1.0], [2.0]], "ret_1": 3.0}, [1.0, 2.0], 3.0),  # a column
    ("w_bias_first", "return", None, {"ret": [3.0, 1.0, 2.0]}, [1.0, 2.0], 3.0),
    ("w_bias_last", "return", None, {"ret": [1.0, 2.0, 3.0]}, [1.0, 2.0], 3.0),
    ("w_b", "coef_", "intercept_", {"attr_w": [[1.0, 2.0]], "attr_b": [3.0]}, [1.0, 2.0], 3.0),  # scikit-learn
    ("w_bias_last", "w_", None, {"attr_w": [1.0, 2.0, 3.0]}, [1.0, 2.0], 3.0),
    ("w_b", "return", None, {"ret": [1.0, float("nan")]}, [1.0, float("nan")], None),
])
def test_layouts(returns, weights, bias, ok, w, b):
    c = _contract("perceptron", returns=returns)
    c = c.replace(call=c.call.__class__(method="fit", object="P" if weights != "return" else None, weights=weights,
                                        bias=bias))
    a = read_answer(c, ok, 2)
    assert [repr(v) for v in a.w] == [repr(v) for v in w] and a.b == b


@pytest.mark.parametrize("returns,ok,msg", [
    ("w_bias_last", {"ret": [1.0, 2.0]}, "expected 3 numbers (the 2 weights with the bias last), got 2"),
    ("w_b", {"ret": 2.0}, "expected a vector of numbers"),
    ("w_b", {"ret_n": 2, "ret_0": [[1.0, 2.0], [3.0, 4.0]], "ret_1": 1.0}, "expected a vector of numbers, got a matrix"),
    ("w_b", {"ret": None}, "returned None"),
    ("w_b", {"ret_n": 3, "ret_0": 1.0}, "malformed answer"),
])
def test_bad_layouts_say_what_was_expected(returns, ok, msg):
    c = _contract("perceptron", returns=returns)
    with pytest.raises(LayoutError, match=msg.replace("(", r"\(").replace(")", r"\)")):
        read_answer(c, ok, 2)


# --- the child's call plan, in this process (it is standard library only) -----------------------
def _child_run(c, mod, X, y, T, **kw):
    import sandbox._plan_child as child
    req = request(c, X, y, T, **kw)

    class Bad(Exception):
        pass
    return child.run(mod, "m", req, lambda spec: (lambda a, b: sum(p * q for p, q in zip(a, b))), Bad)


class _Keeps:
    """The same estimator without the write into X."""
    def __init__(self, eta0=1.0, max_iter=5):
        self.eta0, self.max_iter = eta0, max_iter

    def fit(self, X, y):
        import numpy as np
        self.coef_ = np.ones((1, X.shape[1])) * self.max_iter
        self.intercept_ = np.array([self.eta0])
        return self


def test_plan_builds_objects_reads_attributes_and_sees_modified_inputs():
    np = pytest.importorskip("numpy")
    src = """
import numpy as np
class P:
    def __init__(self, eta0=1.0, max_iter=5):
        self.eta0, self.max_iter = eta0, max_iter
    def fit(self, X, y):
        assert isinstance(X, np.ndarray) and y.dtype == bool
        self.coef_ = np.ones((1, X.shape[1])) * self.max_iter
        self.intercept_ = np.array([self.eta0])
        X[0, 0] = 99.0
        return self
"""
    mod = types.ModuleType("m")
    exec(src, mod.__dict__)
    doc = {"inputs": "numpy", "call": {"object": "P", "init_kwargs": {"eta0": "eta", "max_iter": "T"}, "method": "fit",
                                      "args": ["X", "y"], "weights": "coef_", "bias": "intercept_",
                                      "defaults": {"max_iter": 5}}, "learning_rate": "1/2"}
    c = parse_contract(doc, algorithm="perceptron", style="function", entry="P", bias=True, normalize=False,
                       labels="bool", kernel="linear", epochs=1, src="t")
    out = _child_run(c, mod, [[1.0, 2.0]], [1], 3)
    # the grader decides from the bytes of the inputs as the call left them (the worker echoes
    # them) against its own digests of what it sent
    from sandbox import _digest
    from sandbox.worker import _modified
    after = {k: _digest.echo(v) for k, v in out["watched"].items()}
    assert _modified(request(c, [[1.0, 2.0]], [1], 3), after) is True
    untouched = _child_run(c, types.SimpleNamespace(P=_Keeps), [[1.0, 2.0]], [1], 3)
    assert _modified(request(c, [[1.0, 2.0]], [1], 3),
                     {k: _digest.echo(v) for k, v in untouched["watched"].items()}) is False
    assert read_answer(c, out["ok"], 2).w == [3.0, 3.0] and read_answer(c, out["ok"], 2).b == 0.5
    out = _child_run(c, mod, [[1.0, 2.0]], [1], 3, omit=["max_iter"])       # the handout's default
    assert read_answer(c, out["ok"], 2).w == [5.0, 5.0]
    assert np is not None


def test_plan_supplies_helpers_and_restores_the_students_own():
    mod = types.ModuleType("m")
    exec("def get_order(n):\n    return list(range(n))[::-1]\n"
         "def train(X, y, T):\n    return [float(i) for i in get_order(len(X))], 0.0\n", mod.__dict__)
    doc = {"order": "get_order", "supplied": ["get_order"], "call": {"args": ["X", "y", "T"]}}
    c = parse_contract(doc, algorithm="perceptron", style="function", entry="train", bias=True, normalize=False,
                       labels="pm1", kernel="linear", epochs=1, src="t")
    X, y = [[1.0]] * 6, [1] * 6
    assert read_answer(c, _child_run(c, mod, X, y, 1)["ok"], 1).w == [float(i) for i in visiting_order("get_order", 6)]
    assert read_answer(c, _child_run(c, mod, X, y, 1, order_override=True)["ok"], 1).w == [0.0, 1, 2, 3, 4, 5]
    c2 = c.replace(supplied=())
    assert read_answer(c2, _child_run(c2, mod, X, y, 1)["ok"], 1).w == [5.0, 4, 3, 2, 1, 0]   # the student's own


def test_contract_defaults_are_todays_assignment():
    c = _contract("perceptron")
    assert isinstance(c, Contract)
    assert (c.inputs, c.labels, c.order, c.ties, c.learning_rate, c.init, c.stop, c.returns) == \
        ("lists", "pm1", "index", "mistake", 1, "zero", "epochs", "w_b")
    assert c.call.signature() == "train(X, y, epochs=T)" and c.call.defaults == (("epochs", 1),)


def test_supplied_single_step_helper_follows_the_contract():
    pytest.importorskip("numpy")
    mod = types.ModuleType("m")
    exec("import numpy as np\n"
         "def perceptron(feature_matrix, labels, T):\n"
         "    theta, theta_0 = np.zeros(feature_matrix.shape[1]), 0.0\n"
         "    for _ in range(T):\n"
         "        for i in range(feature_matrix.shape[0]):\n"
         "            theta, theta_0 = perceptron_single_step_update(feature_matrix[i], labels[i], theta, theta_0)\n"
         "    return theta, theta_0\n", mod.__dict__)
    doc = {"inputs": "numpy", "ties": "predict+1", "learning_rate": "1/2",
           "supplied": ["perceptron_single_step_update"], "call": {"args": ["X", "y", "T"]}}
    c = parse_contract(doc, algorithm="perceptron", style="function", entry="perceptron", bias=True,
                       normalize=False, labels="pm1", kernel="linear", epochs=1, src="t")
    X, y = [[0.0, 1.0], [1.0, 0.0], [0.0, 0.0], [-1.0, 2.0]], [-1, 1, 1, -1]
    got = read_answer(c, _child_run(c, mod, X, y, 2)["ok"], 2)
    ref = reference_run(c, X, y, 2)
    assert got.w == [float(v) for v in ref.weights] and got.b == float(ref.bias)


@pytest.mark.parametrize("order", ORDERS)
def test_the_worker_helpers_visit_the_contract_orders(order):
    import sandbox._plan_child as child
    for n in (1, 2, 7, 30):
        assert child.order_rule(order, n) == visiting_order(order, n)
