"""Any course's API through an adapter (``[contract] adapter``): the instructor's few lines run in
the sandbox beside the student's code, call the course's API as the handout does and return the
canonical answer.  Five shipped example courses -- a tuple element picked out, a state passed in
and out and read through predict, the label in the last column of one array, the label in column 0
of a DataFrame, MIT 6.036's d x n data with a (1, 1) bias -- each graded with its correct and its
buggy solution in test_grading_example_courses.py; here, the adapter checked at load time; a submission cannot replace it; the course's
solution as oracle runs through it too."""
import os
import subprocess
import sys

import pytest

from grading.running.grader import grade_submission
from grading.spec.spec import load_spec
from learners.errors import InputError

from example_courses import EX

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
def _spec(tmp_path, contract, extra=""):
    p = tmp_path / "s.toml"
    p.write_text('[assignment]\nalgorithm = "perceptron"\nmodule = "perceptron"\nbias = false\n' + extra +
                 '[contract]\nreturns = "w"\n' + contract + '\n[tests.one_example]\npoints = 1\n'
                 '[tests.random]\npoints = 1\n')
    return str(p)


@pytest.mark.parametrize("contract,words", [
    ('adapter = "nowhere.py"', "cannot read 'nowhere.py'"),
    ('adapter = "adapter.txt"', "must name a .py file"),
    ("adapter = '''\ndef answer(X, y, T)\n    return X\n'''", "contract.adapter: line 1: expected ':'"),
    ("adapter = '''\ndef fit(X, y, T):\n    return X\n'''", "defines no 'answer'"),
    ("adapter = '''\ndef answer(X, y, T):\n    return X\n'''\nsupplied = [\"get_order\"]", "contract.supplied and "
     "contract.adapter together"),
])
def test_a_bad_adapter_is_refused_at_load_in_one_line(tmp_path, contract, words):
    with pytest.raises(InputError) as e:
        load_spec(_spec(tmp_path, contract))
    assert words in str(e.value) and "\n" not in str(e.value)


def test_the_class_style_takes_no_adapter(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[assignment]\nalgorithm = "perceptron"\nstyle = "class"\n[contract]\nadapter = "a.py"\n')
    with pytest.raises(InputError, match="needs assignment.style = .function."):
        load_spec(str(p))


def test_an_inline_adapter_grades_and_a_submission_cannot_replace_it(tmp_path):
    spec = _spec(tmp_path, "adapter = '''\nimport perceptron\n\ndef answer(X, y, T):\n"
                           "    return perceptron.train(X, y, T)[0]\n'''")
    bug = tmp_path / "bug"
    bug.mkdir()
    (bug / "perceptron.py").write_text(open(os.path.join(EX, "tuple_return", "ties_not_mistakes",
                                                         "perceptron.py")).read())
    # the submission's own "adapter" answers the reference's weights whatever its train does
    (bug / "_course_adapter.py").write_text(
        "def answer(X, y, T):\n    w = [0.0] * len(X[0])\n    for _ in range(T):\n        for x, t in zip(X, y):\n"
        "            if t * sum(a * b for a, b in zip(w, x)) <= 0:\n"
        "                w = [a + t * b for a, b in zip(w, x)]\n    return w\n")
    r = grade_submission(spec, str(bug))
    assert r.score < r.max_score and list(r.diagnoses) == ["ties not counted as mistakes"]
    ok = grade_submission(spec, os.path.join(EX, "tuple_return", "correct"))
    assert ok.score == ok.max_score


def test_the_course_solution_as_oracle_runs_through_the_adapter(tmp_path):
    sol = os.path.join(EX, "state_passing", "correct")
    src = open(os.path.join(ROOT, "grading", "assignments", "state_passing.toml")).read()
    src = src.replace('adapter = "../examples/state_passing/adapter.py"',
                      f'adapter = "{os.path.join(EX, "state_passing", "adapter.py")}"\noracle = "{sol}"')
    src = src.replace('solution = "../examples/state_passing/correct"', f'solution = "{sol}"')
    p = tmp_path / "o.toml"
    p.write_text(src)
    with pytest.raises(InputError) as e:      # the step-by-step test is not offered with an oracle: told why
        load_spec(str(p))
    assert "test 'invariants' is not offered under this spec" in str(e.value)
    assert "the expected answers come from the course's solution (contract.oracle)" in str(e.value)
    p.write_text(src.replace("[tests.invariants]\npoints = 1\n", ""))
    spec = load_spec(str(p))
    assert spec.contract.oracle == sol and spec.contract.adapter
    r = grade_submission(spec, os.path.join(EX, "state_passing", "bias_never_updated"))
    assert r.score < r.max_score and list(r.diagnoses) == ["bias never updated"]
    from grading.running.checkspec import check_oracle
    assert check_oracle(spec) > 0


def test_init_writes_the_adapter_into_the_spec(tmp_path):
    out = tmp_path / "mine.toml"
    r = subprocess.run([sys.executable, "-m", "mistakebound", "grade", "--init", "mit_6036", "--out", str(out)],
                       capture_output=True, text=True, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    s = load_spec(str(out))
    assert s.contract.adapter_src == "inline" and "code_for_hw.perceptron(" in s.contract.adapter
