"""Course contracts beyond the classic shapes, each with a shipped example course (a correct
solution and one with a typical mistake, in grading/examples/): Winnow on float features with a
margin and a factor passed as an argument, a new permutation every epoch from the seeded global
generator, passes fixed inside the call, a kernel chosen by name with a bias, parameters in a
dict and weights in a returned dict, a step size per example, passes until one makes no mistake
(with no maximum: separable test data).  Correct code gets full marks; the mistake loses points with
its cause named."""
import os

import pytest

from grading.running.grader import grade_submission
from grading.spec.spec import load_spec

from example_courses import EX, grade_examples
COURSES = {"ucl_winnow": ("ties_not_updated", "ties not updated"),
           "utah_perceptron": ("ties_not_mistakes", "ties not counted as mistakes"),
           "fixed_passes": ("bias_never_updated", "bias never updated"),
           "kernel_by_name": ("bias_sign_flipped", "bias sign flipped"),
           "dict_params": ("eliminates", "elimination instead of halving"),
           "decaying_step": ("constant_step", "step size not per example"),
           "until_no_mistake": ("one_pass", "stops early")}


@pytest.fixture(scope="module")
def courses():
    return grade_examples(COURSES)


def test_every_example_course_has_a_correct_and_a_buggy_solution():
    for spec, (bug, _) in COURSES.items():
        assert sorted(os.listdir(os.path.join(EX, spec))) == sorted(["correct", bug])
        assert load_spec(spec).solution.endswith(os.path.join(spec, "correct"))


@pytest.mark.parametrize("spec", sorted(COURSES))
@pytest.mark.slow
def test_correct_course_code_gets_full_marks(courses, spec):
    r = courses[spec]["correct"]
    assert r.score == r.max_score == load_spec(spec).max_score, [(t.name, t.output) for t in r.tests if not t.passed]
    assert r.diagnoses == {}


@pytest.mark.parametrize("spec", sorted(COURSES))
@pytest.mark.slow
def test_the_mistake_loses_points_with_its_cause(courses, spec):
    r = courses[spec]["bug"]
    assert r.score < r.max_score
    assert list(r.diagnoses) == [COURSES[spec][1]], r.diagnoses
    shown = [t.output for t in r.tests if not t.passed and not t.hidden]
    assert any(f"likely mistake: {COURSES[spec][1]} --" in o for o in shown)
    assert not any("cause: not named" in o for o in shown)


@pytest.mark.slow
def test_per_pass_orders_drop_the_step_by_step_tests(courses):
    kinds = {t.kind for t in courses["utah_perceptron"]["correct"].tests}
    assert "invariants" not in kinds and "default_arguments" in kinds and "linear_time" in kinds
    from grading.checks.checks import test_kinds
    assert "invariants" not in test_kinds(load_spec("fixed_passes"))
    assert "invariants" not in test_kinds(load_spec("until_no_mistake"))
    assert "invariants" in test_kinds(load_spec("perceptron"))


@pytest.mark.slow
def test_convention_credit_is_never_paid_to_a_run_that_never_leaves_its_start(courses):
    """Utah's tie bug ("a tie is not a mistake") from w = 0 never updates at all: its answers are
    the start itself, the same as code that returns zeros, so it earns no convention credit (a
    no-op must not score); a bias bug (a wrong algorithm) keeps nothing either."""
    tie = {t.kind: t for t in courses["utah_perceptron"]["bug"].tests}
    assert tie["ties"].score == 0
    assert tie["random"].score == 0 and "partial credit" not in tie["random"].output
    assert tie["hidden_random"].score == 0
    wrong = courses["fixed_passes"]["bug"]
    assert all(t.score == 0 for t in wrong.tests if not t.passed)


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
