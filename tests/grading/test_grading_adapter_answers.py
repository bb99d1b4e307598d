"""Adapters that return more than weights (``[contract] answer``): a course whose API returns
(w, b, mistakes) -- a count or the steps of the mistakes -- or only its predictions is graded on
what it returns, against the reference run's mistakes and predictions."""
import os

import pytest

from grading.running.grader import grade_submission
from grading.references.plan import LayoutError, read_answer
from grading.spec.spec import load_spec
from learners.errors import InputError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "grading", "examples")


def _spec(name):
    return os.path.join(ROOT, "grading", "assignments", f"{name}.toml")


@pytest.mark.parametrize("course, bug, named", [("mistake_log", "checked_after_update", None),
                                                ("online_predictions", "sign_zero_negative", "ties predicted -1")])
def test_the_shipped_courses_grade_what_their_adapter_returns(course, bug, named):
    r = grade_submission(_spec(course), os.path.join(EX, course, "correct"))
    assert r.score == r.max_score, [(t.kind, t.output) for t in r.tests if not t.passed]
    r = grade_submission(_spec(course), os.path.join(EX, course, bug))
    assert r.score < r.max_score
    assert list(r.diagnoses) == ([named] if named else []), r.diagnoses


def test_right_weights_and_a_wrong_log_of_mistakes_fail_on_the_mistakes():
    r = grade_submission(_spec("mistake_log"), os.path.join(EX, "mistake_log", "checked_after_update"))
    failed = [t for t in r.tests if not t.passed and not t.hidden]
    assert failed
    for t in failed:
        assert "your mistakes are at steps" in t.output, t.output
        exp = next(line for line in t.output.splitlines() if line.startswith("expected:"))
        yours = next(line for line in t.output.splitlines() if line.startswith("yours:"))
        assert exp.split(", mistakes")[0][len("expected:"):].strip() == yours.split(", mistakes")[0][len("yours:"):].strip()


COUNT_SPEC = """[assignment]
algorithm = "perceptron"
module = "perceptron"
[contract]
adapter = '''
import perceptron


def answer(X, y, T):
    w, b, mistakes = perceptron.train(X, y, T)
    return w, b, mistakes
'''
answer = "weights_mistakes"
[hypothesis]
max_examples = 20
max_n = 6
max_d = 3
[tests.ties]
points = 1
[tests.several_epochs]
points = 1
[tests.random]
points = 2
"""

COUNTING = """def train(X, y, T):
    w, b, k = [0.0] * len(X[0]), 0.0, 0
    for _ in range(T):
        for x, t in zip(X, y):
            a = t * (sum(p * q for p, q in zip(w, x)) + b)
            if a <= 0:
                k += {count}
                w = [p + t * q for p, q in zip(w, x)]
                b += t
    return w, b, k
"""


@pytest.mark.parametrize("count, full", [("1", True), ("1 if a < 0 else 0", False)])
def test_a_count_of_mistakes_is_graded(tmp_path, count, full):
    (tmp_path / "spec.toml").write_text(COUNT_SPEC)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "perceptron.py").write_text(COUNTING.format(count=count))
    r = grade_submission(str(tmp_path / "spec.toml"), str(sub))
    if full:
        assert r.score == r.max_score, [(t.kind, t.output) for t in r.tests if not t.passed]
    else:
        assert r.score < r.max_score
        assert any("the number of mistakes is" in t.output for t in r.tests if not t.passed)


def test_answers_are_read_as_the_contract_says():
    c = load_spec("mistake_log").contract
    a = read_answer(c, {"ret_n": 3, "ret_0": [1.0, 2.0], "ret_1": 1.0, "ret_2": [0, 2]}, 2)
    assert (a.w, a.b, a.mistakes, a.mistake_steps) == ([1.0, 2.0], 1.0, 2, [0, 2])
    a = read_answer(c, {"ret_n": 3, "ret_0": [1.0, 2.0], "ret_1": 1.0, "ret_2": 4}, 2)
    assert (a.mistakes, a.mistake_steps) == (4, None)
    with pytest.raises(LayoutError, match="mistakes"):
        read_answer(c, {"ret_n": 3, "ret_0": [1.0, 2.0], "ret_1": 1.0, "ret_2": [0.5]}, 2)
    with pytest.raises(LayoutError, match=r"\(w, b, mistakes\)"):
        read_answer(c, {"ret_n": 2, "ret_0": [1.0, 2.0], "ret_1": 1.0}, 2)
    p = load_spec("online_predictions").contract
    assert read_answer(p, {"ret": [1, -1, 1.0]}, 2).predictions == [True, False, True]
    with pytest.raises(LayoutError, match="prediction"):
        read_answer(p, {"ret": [1, 0]}, 2)


def test_the_answer_key_needs_an_adapter_and_predictions_have_no_invariants(tmp_path):
    bad = {'[contract]\nanswer = "mistakes"\n': "is what an adapter returns",
           '[contract]\nadapter = "a.py"\nanswer = "predictions"\n[tests.invariants]\npoints = 1\n':
               "'invariants' is not offered"}
    (tmp_path / "a.py").write_text("def answer(X, y, T):\n    return []\n")
    for extra, msg in bad.items():
        p = tmp_path / "s.toml"
        p.write_text('[assignment]\nalgorithm = "perceptron"\n' + extra + "[tests.ties]\npoints = 1\n")
        with pytest.raises(InputError, match=msg):
            load_spec(str(p))
