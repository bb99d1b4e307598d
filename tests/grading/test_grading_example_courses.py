"""The shipped example courses, graded as written: each course's correct solution gets full marks
and its one typical mistake loses points with that cause named (grading/examples/<course>/correct
and /<mistake>).  One table for every course that ships a correct and a buggy solution, graded
once on two processes:

* the classic shapes, graded with a spec and no adapter (MIT's visiting order, scikit-learn's
  ``Perceptron`` class, a Winnow homework, the dual kernel form);
* contracts beyond them (Winnow on float features, a new permutation every epoch, passes fixed
  inside the call, a kernel chosen by name, parameters in a dict, a step size per example, passes
  until one makes no mistake);
* any course's API through an adapter (a tuple element, a state passed in and out, the label
  inside the data, MIT 6.036's d x n data);
* averaged and voted perceptrons as courses write them."""
import os

import pytest

from grading.spec.spec import load_spec

from example_courses import EX, grade_examples

# course: (its buggy example's folder, the cause the diagnosis must name)
SHAPES = {"mit_perceptron": ("index_order", "visits data in a different order"),
          "sklearn_perceptron": ("eta_ignored", "learning rate ignored"),
          "winnow_hw": ("strict_threshold", "ties not counted as mistakes"),
          "dual_kernel": ("signed_alpha", "alpha as signed sums")}
CONTRACTS = {"ucl_winnow": ("ties_not_updated", "ties not updated"),
             "utah_perceptron": ("ties_not_mistakes", "ties not counted as mistakes"),
             "fixed_passes": ("bias_never_updated", "bias never updated"),
             "kernel_by_name": ("bias_sign_flipped", "bias sign flipped"),
             "dict_params": ("eliminates", "elimination instead of halving"),
             "decaying_step": ("constant_step", "step size not per example"),
             "until_no_mistake": ("one_pass", "stops early")}
ADAPTERS = {"tuple_return": ("ties_not_mistakes", "ties not counted as mistakes"),
            "state_passing": ("bias_never_updated", "bias never updated"),
            "packed_labels": ("bias_sign_flipped", "bias sign flipped"),
            "frame_labels": ("bias_missing_from_activation", "bias missing from the activation"),
            "mit_6036": ("label_ignored", "label ignored")}
AVERAGES = {"averaged_perceptron": ("counter_per_epoch", "averaging counter per epoch"),
            "voted_perceptron": ("first_count_zero", "first count starts at 0")}
COURSES = {**SHAPES, **CONTRACTS, **ADAPTERS, **AVERAGES}


@pytest.fixture(scope="module")
def courses():
    return grade_examples(COURSES)


def test_every_example_course_has_a_correct_and_a_buggy_solution_and_its_adapter():
    assert len(COURSES) == len(SHAPES) + len(CONTRACTS) + len(ADAPTERS) + len(AVERAGES)
    for spec, (bug, _) in COURSES.items():
        s = load_spec(spec)
        adapter = ["adapter.py"] if spec in ADAPTERS else []
        assert sorted(os.listdir(os.path.join(EX, spec))) == sorted(["correct", bug] + adapter), spec
        if spec in ADAPTERS:
            assert s.contract.adapter_src == os.path.join(EX, spec, "adapter.py")
            assert "def answer(X, y, T)" in s.contract.adapter
        else:
            assert s.solution.endswith(os.path.join(spec, "correct")), spec


@pytest.mark.parametrize("spec", sorted(COURSES))
@pytest.mark.slow
def test_correct_course_code_gets_full_marks(courses, spec):
    r = courses[spec]["correct"]
    assert r.score == r.max_score == load_spec(spec).max_score > 0, [(t.name, t.output) for t in r.tests
                                                                     if not t.passed]
    assert r.diagnoses == {}


@pytest.mark.parametrize("spec", sorted(COURSES))
@pytest.mark.slow
def test_the_mistake_loses_points_with_its_cause_named(courses, spec):
    r = courses[spec]["bug"]
    cause = COURSES[spec][1]
    assert r.score < r.max_score
    assert list(r.diagnoses) == [cause], r.diagnoses
    shown = [t.output for t in r.tests if not t.passed and not t.hidden]
    assert any(f"likely mistake: {cause} --" in o for o in shown)
    assert not any("cause: not named" in o for o in shown)
    assert not any("data shuffled" in o for o in shown)          # deterministic code is never told so


@pytest.mark.slow
def test_mit_order_feedback_and_invariants_under_get_order(courses):
    r = courses["mit_perceptron"]["bug"]
    inv = next(t for t in r.tests if t.kind == "invariants")
    assert inv.passed            # the update rule is right: the step-by-step runs feed the course's order
    edge = next(t for t in r.tests if t.kind == "several_epochs")
    assert "first departure: none when the examples are fed one by one in the course's visiting order" in edge.output


@pytest.mark.slow
def test_learning_rate_note_instead_of_a_failure(courses):
    inv = next(t for t in courses["sklearn_perceptron"]["correct"].tests if t.kind == "invariants")
    assert inv.passed and "learning rate 1/2: Claims 1 and 2 are stated for eta = 1" in inv.output
    dflt = next(t for t in courses["sklearn_perceptron"]["correct"].tests if t.kind == "default_arguments")
    assert dflt.passed and "Perceptron().fit(X, y)" in dflt.output


@pytest.mark.slow
def test_per_pass_orders_drop_the_step_by_step_tests(courses):
    kinds = {t.kind for t in courses["utah_perceptron"]["correct"].tests}
    assert "invariants" not in kinds and "default_arguments" in kinds and "linear_time" in kinds
    from grading.spec.offered import test_kinds
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
