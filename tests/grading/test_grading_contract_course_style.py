"""Course code written the way public courses write it, graded with a spec and no adapter: a
class keeping the handout's names (theta, theta_0) over lists, a chapter-2 function returning one
numpy vector with the bias first and labels 0/1 (a tie predicts 1), a kernel perceptron counting
mistakes in numpy (np.sign(0) = 0: a tie is a mistake), a Winnow class over boolean arrays.  The
correct code gets full marks; the buggy one loses points with its real cause named."""
import os

import pytest

from grading.running.grader import grade_submission
from grading.spec.spec import load_spec

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "grading", "course_style")
COURSES = {"theta_class": ("bias_never_updated", "bias never updated"),
           "bias_first": ("strict_tie", "ties predicted -1"),
           "counts_kernel": ("signed_alpha", "alpha as signed sums"),
           "bool_winnow": ("eliminates", "elimination instead of halving")}


@pytest.fixture(scope="module")
def graded():
    out = {}
    for course, (bug, _) in COURSES.items():
        spec = load_spec(os.path.join(HERE, course, "spec.toml"))
        out[course] = {k: grade_submission(spec, os.path.join(HERE, course, k)) for k in ("correct", bug)}
    return out


@pytest.mark.parametrize("course", sorted(COURSES))
@pytest.mark.slow
def test_course_style_code_correct_full_marks_buggy_named(graded, course):
    bug, cause = COURSES[course]
    ok, bad = graded[course]["correct"], graded[course][bug]
    assert ok.score == ok.max_score and ok.diagnoses == {}, [(t.kind, t.output) for t in ok.tests if not t.passed]
    assert bad.score < bad.max_score
    assert list(bad.diagnoses) == [cause], bad.diagnoses
    assert any(f"likely mistake: {cause} --" in t.output for t in bad.tests if not t.passed)


@pytest.mark.slow
def test_feedback_speaks_the_handouts_names(graded):
    bad = graded["theta_class"]["bias_never_updated"]
    shown = "\n".join(t.output for t in bad.tests if not t.passed)
    assert "theta_0 = 1" in shown and "expected: theta = " in shown
    assert "theta_0 += y" in bad.diagnoses["bias never updated"]


@pytest.mark.slow
def test_a_tie_bug_in_bias_first_code_costs_the_ties_not_the_algorithm(graded):
    bad = graded["bias_first"]["strict_tie"]
    by = {t.kind: t for t in bad.tests}
    assert by["ties"].score == 0 and by["random"].passed and by["invariants"].passed
    assert bad.score >= bad.max_score - 2
