"""A course that computes in float (learning rate 0.01): the reference replays its float64
arithmetic in the course's order, so a correct float submission gets full marks; a difference that
is rounding only is called rounding, never "no single change of the reference reproduces your
answers"; the course's float solution as oracle agrees with the contract."""
import os

import pytest

from grading.spec.contract_parse import parse_contract
from grading.running.grader import grade_submission
from grading.references.reference import reference_run
from grading.spec.spec import load_spec

SPEC = """[assignment]
algorithm = "perceptron"
module = "perceptron"
{extra}
[contract]
inputs = "numpy"
learning_rate = 0.01
{contract}
[hypothesis]
max_examples = 40
max_n = 10
max_d = 4
[tests.one_example]
points = 1
[tests.ties]
points = 1
[tests.several_epochs]
points = 1
[tests.negative_fractional]
points = 1
[tests.random]
points = 3
[tests.invariants]
points = 1
[tests.linear_time]
points = 1
"""

FLOAT64 = """import numpy as np


def train(X, y, epochs=1):
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (np.dot(w, x) + b) <= 0:
                w = w + 0.01 * t * x
                b = b + 0.01 * t
    return w{scale}, b{scale}
"""


def _course(tmp_path, contract="", extra="", scale=""):
    (tmp_path / "spec.toml").write_text(SPEC.format(contract=contract, extra=extra))
    sub = tmp_path / "sub"
    sub.mkdir(exist_ok=True)
    (sub / "perceptron.py").write_text(FLOAT64.format(scale=scale))
    return str(tmp_path / "spec.toml"), str(sub)


def test_a_learning_rate_float_cannot_hold_makes_the_arithmetic_float():
    kw = dict(algorithm="perceptron", style="function", entry="train", bias=True, normalize=False, labels="pm1",
              kernel="linear", epochs=1, src="s.toml")
    assert parse_contract({"learning_rate": 0.01}, **kw).arithmetic == "float"
    assert parse_contract({"learning_rate": 0.25}, **kw).arithmetic == "exact"
    assert parse_contract({"learning_rate": 0.25, "arithmetic": "float"}, **kw).arithmetic == "float"
    assert parse_contract({"learning_rate": 0.01, "arithmetic": "exact"}, **kw).arithmetic == "exact"


def test_the_reference_replays_the_float_run_step_by_step():
    c = load_spec("perceptron").contract.replace(learning_rate=__import__("fractions").Fraction(1, 100),
                                                  arithmetic="float")
    X = [[0.5, 1.5], [-1.0, 0.25], [1.5, -0.75], [0.25, 0.5], [-0.75, -1.25], [1.0, 1.0]]
    y = [1, -1, 1, -1, 1, -1]
    w, b, acts = [0.0, 0.0], 0.0, []
    for _ in range(4):          # the course's float64 loop, in its order of operations
        for x, t in zip(X, y):
            a = sum(p * q for p, q in zip(w, x)) + b
            acts.append(a)
            if t * a <= 0:
                w = [p + 0.01 * t * q for p, q in zip(w, x)]
                b = b + 0.01 * t
    run = reference_run(c, X, y, 4)
    assert [s.activation for s in run.steps] == acts          # the same floats, the same decisions
    assert list(run.weights) == w and run.bias == b


def test_a_correct_float_submission_gets_full_marks(tmp_path):
    spec, sub = _course(tmp_path)
    r = grade_submission(spec, sub)
    assert r.score == r.max_score, [(t.kind, t.output) for t in r.tests if not t.passed]


def test_a_difference_of_rounding_only_is_called_rounding(tmp_path):
    spec, sub = _course(tmp_path, scale=" * (1 + 1e-6)")
    r = grade_submission(spec, sub)
    failed = [t for t in r.tests if not t.passed]
    assert failed and r.diagnoses == {}
    for t in failed:
        assert "rounding" in t.output, (t.kind, t.output)
        assert "no single change of the reference" not in t.output, (t.kind, t.output)
    explained = [t for t in failed if "input: X = " in t.output]
    assert explained
    for t in explained:
        assert "cause: rounding -- the only difference is rounding" in t.output, t.output


def test_the_course_float_solution_as_oracle_agrees_with_the_contract(tmp_path):
    spec, sub = _course(tmp_path, contract=f'oracle = "sub"\ntolerance = 1e-9')
    text = open(spec).read().replace("[tests.invariants]\npoints = 1\n", "")
    open(spec, "w").write(text)
    from grading.running.checkspec import check_oracle
    assert check_oracle(load_spec(spec)) > 0
    r = grade_submission(spec, sub)
    assert r.score == r.max_score, [(t.kind, t.output) for t in r.tests if not t.passed]
