"""State kept between calls is named only when fresh processes confirm it: kept state answers a
fresh process's first call right every time, and its second call as every other fresh process
does; code that shuffles with fresh randomness is right on a first call only by chance, and a
second fresh process shows it.  The processes here are scripted (what each fresh process answers,
call by call), so the test does not depend on what a random shuffle happens to give."""
import os

from grading.checks.checks_common import GradingContext
from grading.checks.diagnose import Diagnoses
from grading.running.grader import grade_submission
from grading.references.problems import make_problem
from grading.references.reference import Answer
from grading.spec.spec import load_spec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
X, Y = [[1.0, 0.5], [-0.5, 1.0], [0.25, -1.0]], [1, -1, 1]


class Scripted(Diagnoses):
    """A grader whose fresh workers answer from a script: ``script[k]`` is the list of answers the
    k-th fresh process gives, call after call."""

    def __init__(self, script):
        spec = load_spec("perceptron")
        super().__init__(GradingContext(spec=spec, problem=make_problem(spec), new_worker=self.new_worker),
                         calls=self)
        self.problem = self.ctx.problem
        self.script = list(script)
        self.started = 0

    def new_worker(self):
        answers = iter(self.script[self.started])
        self.started += 1

        class W:
            def close(self):
                pass
        w = W()
        w.answers = answers
        return w

    def call(self, X, y, e, **kw):
        return next(self.ctx.worker.answers), None


def _cases(P):
    exp = P.expected(X, Y, 1)
    return [(X, Y, 1, exp, None)], exp


def _wrong(exp):
    return Answer(w=[v + 1 for v in exp.w], b=exp.b)


def _other_wrong(exp):
    return Answer(w=[v - 2 for v in exp.w], b=exp.b)


def test_a_shuffle_right_on_one_first_call_by_chance_is_not_called_kept_state():
    g = Scripted([])
    cases, exp = _cases(g.problem)
    # the first fresh process: right, then wrong (what kept state gives); the second: wrong at once
    g.script = [[exp, _wrong(exp)], [_wrong(exp), exp], [exp, exp]]
    assert g._keeps_state(cases) is False
    assert g.started == 2


def test_fresh_processes_that_disagree_on_the_second_answer_are_randomness():
    g = Scripted([])
    cases, exp = _cases(g.problem)
    g.script = [[exp, _wrong(exp)], [exp, _other_wrong(exp)], [exp, _wrong(exp)]]
    assert g._keeps_state(cases) is False


def test_state_kept_between_calls_is_confirmed_by_every_fresh_process():
    g = Scripted([])
    cases, exp = _cases(g.problem)
    g.script = [[exp, _wrong(exp)]] * 3
    assert g._keeps_state(cases) is True
    assert g.started == 3


def test_the_shuffling_example_is_named_as_shuffling_only():
    r = grade_submission("perceptron", os.path.join(ROOT, "grading", "examples", "perceptron", "shuffled"))
    assert r.score < r.max_score
    assert list(r.diagnoses) == ["data shuffled"], r.diagnoses
