"""No hidden input reaches a student, whatever fails.

A course grades against its own solution (``[contract] oracle``); a hidden input is drawn from the
instructor's secret seed.  Every failure path is walked -- the course's solution raises on a hidden
input, crashes, runs out of time, answers what the contract cannot read; a student's code raises
(quoting its input), runs out of time or answers wrong there; the grader itself fails -- and every
report a student can see (``results.json``, ``feedback.md``, ``summary.csv``, ``junit.xml``) is
searched for every hidden input.  A failing course solution stops the batch with exit 1 and its
text on the instructor's terminal and in ``OUT/course_solution_failed.txt``, never in a report.
"""
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from grading.checks.checks import Grader
from grading.checks.checks_common import fmt_X
from grading.spec.spec import hidden_seed, load_spec
from grading.running.warmup import _NoWorker

MB = [sys.executable, "-m", "mistakebound"]
SEED = "the course's secret seed"
STAFF = "course_solution_failed.txt"

SPEC = """
[assignment]
algorithm = "perceptron"
module = "perceptron"
entry = "train"
[contract]
oracle = "solution"
[hypothesis]
max_examples = 6
max_n = 4
max_d = 2
[tests.one_example]
points = 1
[tests.random]
points = 1
[tests.hidden_random]
points = 2
hidden = true
"""

BODY = '''
def _fit(X, y, epochs):
    w, b = [0.0] * len(X[0]), 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w = [a + t * c for a, c in zip(w, x)]
                b += t
    return w, b


def train(X, y, epochs=1):
    X = [[float(v) for v in row] for row in X]
    if X == HIDDEN:
        {act}
    return _fit(X, y, epochs)
'''

ACTS = {    # what the code does on the hidden input
    "raises": "raise ValueError('MARK cannot handle X = %r' % (X,))",
    "crashes": "import os; os._exit(7)",
    "hangs": "while True: pass",
    "unreadable": "return 'MARK'",
    "too_many": "return [0.0] * (len(X[0]) + 2), 0.0",
    "wrong": "return [123.0] * len(X[0]), 5.0",
    "fine": "pass",
}


def _hidden_cases(spec_path):
    spec = load_spec(spec_path)
    spec.hidden_seed = hidden_seed({"MISTAKEBOUND_HIDDEN_SEED": SEED})[0]
    g = Grader(spec, _NoWorker)
    return [c for c in g.generated_cases(spec.hidden_seed, 2)]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    d = tmp_path_factory.mktemp("course")
    (d / "spec.toml").write_text(SPEC)
    (d / "solution").mkdir()
    (d / "solution" / "perceptron.py").write_text("HIDDEN = None\n" + BODY.format(act="pass"))
    cases = _hidden_cases(str(d / "spec.toml"))
    target = next(X for X, y, e in cases if len(X) >= 2)      # the first hidden input the tests ask with n >= 2
    return SimpleNamespace(dir=d, cases=cases, target=target)


def _code(target, act):
    return f"HIDDEN = {[[float(v) for v in r] for r in target]!r}\n" + BODY.format(act=ACTS[act])


def _grade(c, out, oracle_act, students, gradescope=False):
    d = c.dir
    (d / "solution" / "perceptron.py").write_text(_code(c.target, oracle_act))
    env = dict(os.environ, MISTAKEBOUND_HIDDEN_SEED=SEED)
    if gradescope:
        root = out
        (root / "submission").mkdir(parents=True)
        (root / "submission" / "perceptron.py").write_text(_code(c.target, students[0]))
        args = ["--gradescope", "--gradescope-root", str(root)]
    else:
        paths = []
        for k, act in enumerate(students):
            p = d / f"{out.name}-{k}-{act}.py"
            p.write_text(_code(c.target, act))
            paths.append(str(p))
        args = paths + ["--out", str(out), "--no-progress"]
    return subprocess.run(MB + ["grade", "--assignment", str(d / "spec.toml")] + args, capture_output=True,
                          text=True, env=env, timeout=900)


def _student_texts(out):
    """Every file a student (or a shared summary) may see: all but the staff-only file."""
    texts = {}
    for root, _, files in os.walk(out):
        for f in files:
            if f == STAFF or f == "manifest.csv" or root == str(out) and f == "perceptron.py":
                continue
            p = os.path.join(root, f)
            if "submission" in p.split(os.sep):
                continue
            with open(p, encoding="utf-8") as fh:
                texts[os.path.relpath(p, out)] = fh.read()
    return texts


def _no_hidden_input(texts, cases):
    assert texts
    for name, text in texts.items():
        assert "MARK" not in text, name
        for X, y, e in cases:
            if len(X) < 2:
                continue       # one-example inputs are the visible edge cases too
            for shown in (fmt_X(X), repr(X), str([[float(v) for v in r] for r in X])):
                assert shown not in text, (name, shown)


@pytest.mark.parametrize("act", ["raises", "crashes", "hangs", "unreadable", "too_many"])
def test_a_failing_course_solution_stops_the_batch_and_stays_with_the_course(course, tmp_path, act):
    out = tmp_path / "out"
    r = _grade(course, out, act, ["fine", "fine"])
    assert r.returncode == 1, r.stderr
    assert "the course's solution" in r.stderr and "grading stopped" in r.stderr
    assert "Traceback" not in r.stderr
    staff = (out / STAFF).read_text()
    assert fmt_X(course.target) in staff                   # the instructor reads where it failed
    assert fmt_X(course.target) in r.stderr
    texts = _student_texts(out)
    if texts:
        _no_hidden_input(texts, course.cases)
    for name, text in texts.items():                        # nobody was graded against a failing solution
        assert "grader failed" not in text, name


def test_a_failing_course_solution_on_gradescope_says_not_graded_only(course, tmp_path):
    root = tmp_path / "gs"
    r = _grade(course, root, "raises", ["fine"], gradescope=True)
    assert r.returncode == 1, r.stderr
    res = json.loads((root / "results" / "results.json").read_text())
    assert "not graded" in res["output"] and "instructor" in res["output"]
    _no_hidden_input(_student_texts(root / "results"), course.cases)
    assert fmt_X(course.target) in (root / STAFF).read_text()


def test_students_failing_a_hidden_input_never_see_it(course, tmp_path):
    out = tmp_path / "out"
    r = _grade(course, out, "fine", ["raises", "hangs", "wrong", "too_many", "unreadable", "fine"])
    assert r.returncode == 0, r.stderr
    assert not (out / STAFF).exists()
    texts = _student_texts(out)
    _no_hidden_input(texts, course.cases)
    summary = texts["summary.csv"]
    for k in range(5):                                     # each failed the hidden test only
        row = next(line for line in summary.splitlines() if line.startswith(f"out-{k}-"))
        assert ",2,4," in row, row
    assert ",4,4," in next(line for line in summary.splitlines() if line.startswith("out-5-"))


def test_a_grader_fault_names_its_kind_never_its_text(course, tmp_path, monkeypatch):
    from grading.running import grader
    X = course.target

    def broken(*a, **k):
        raise RuntimeError(f"the grader tripped on X = {fmt_X(X)}")
    monkeypatch.setattr(grader, "grade_submission", broken)
    p = tmp_path / "s.py"
    p.write_text(_code(X, "fine"))
    from grading.output.report import feedback_markdown, results_text, summary_csv
    res, _ = grader.grade_batch(str(course.dir / "spec.toml"), [str(p)], jobs=1, caps={}, shared=False)
    assert fmt_X(X) in res[0].fault                        # the instructor's
    texts = {"feedback.md": feedback_markdown(res[0]), "results.json": results_text(res[0]),
             "summary.csv": summary_csv(res)}
    assert "internal error: RuntimeError" in texts["feedback.md"]
    _no_hidden_input(texts, course.cases)


@pytest.mark.parametrize("act", ["raises", "unreadable"])
def test_the_warm_up_stops_the_batch_before_any_submission_runs(course, act):
    """The batch's warm-up (grading.running.warmup) asks the course's solution every input the tests
    will ask, hidden ones included: a failure there stops the batch at once, with the instructor's
    text -- the input it failed on -- whether the helper process (the hidden draws) or the grading
    parent found it."""
    from grading.checks.oracle import CourseSolutionFailed
    from grading.running import warmup
    from grading.running.batch import pool_context
    (course.dir / "solution" / "perceptron.py").write_text(_code(course.target, act))
    spec = load_spec(str(course.dir / "spec.toml"))
    spec.hidden_seed = hidden_seed({"MISTAKEBOUND_HIDDEN_SEED": SEED})[0]
    for pack in (lambda: warmup.packed(spec), lambda: warmup.packed_in_two(spec, pool_context())):
        with pytest.raises(CourseSolutionFailed) as e:
            pack()
        assert fmt_X(course.target) in e.value.staff_text
    (course.dir / "solution" / "perceptron.py").write_text(_code(course.target, "fine"))
    spec = load_spec(str(course.dir / "spec.toml"))
    spec.hidden_seed = hidden_seed({"MISTAKEBOUND_HIDDEN_SEED": SEED})[0]
    assert len(warmup.packed_in_two(spec, pool_context())) > 1000        # a solution that answers: no stop
    warmup.clear()
