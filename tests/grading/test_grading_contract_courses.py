"""The course's own solution as the oracle (Raschka's perceptron with the start it draws itself),
and a spec the oracle contradicts refused in one line.  (The example courses with contracts beyond
the classic shapes are graded in test_grading_example_courses.py.)"""
import os

import pytest

from grading.running.grader import grade_submission
from grading.spec.spec import load_spec

from example_courses import EX
# --- the course's own solution as the oracle; a start the code draws itself --------------------
@pytest.mark.slow
def test_oracle_course_graded_against_its_solution():
    spec = load_spec("raschka_perceptron")
    assert spec.contract.oracle.endswith(os.path.join("raschka_perceptron", "correct"))
    ok = grade_submission(spec, os.path.join(EX, "raschka_perceptron", "correct"))
    assert ok.score == ok.max_score == 17, [(t.name, t.output) for t in ok.tests if not t.passed]
    bad = grade_submission(spec, os.path.join(EX, "raschka_perceptron", "bias_never_updated"))
    assert bad.score < bad.max_score and list(bad.diagnoses) == ["bias never updated"]
    one = next(t for t in bad.tests if t.kind == "one_example")
    # the start is the classifier's own seeded draw (RandomState(1).normal(0, 0.01, 3): b first)
    assert "the reference starts from w = [-0.00611756, -0.00528172], b = 0.0162435" in one.output


def test_a_spec_the_oracle_contradicts_is_refused(tmp_path):
    import subprocess
    import sys
    text = open(os.path.join(os.path.dirname(EX), "assignments", "raschka_perceptron.toml")).read()
    text = text.replace("learning_rate = 0.02 ", "learning_rate = 0.01 ")
    text = text.replace('"../examples/raschka_perceptron/correct"', f'"{os.path.join(EX, "raschka_perceptron", "correct")}"')
    p = tmp_path / "wrong_eta.toml"
    p.write_text(text)
    for args in (["--check-spec", str(p)],
                 ["--assignment", str(p), os.path.join(EX, "raschka_perceptron", "correct"), "--out", str(tmp_path / "o")]):
        r = subprocess.run([sys.executable, "-m", "mistakebound", "grade"] + args, capture_output=True, text=True,
                           timeout=300)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        line = r.stderr.strip()
        assert "\n" not in line and line.startswith("mistakebound: error: wrong_eta.toml: contract.oracle: the course's "
                                                    "solution disagrees with the contract on X = ")
        assert "(the solution: w = [" in line and "; the contract's reference: w = [" in line
    assert not (tmp_path / "o").exists()
