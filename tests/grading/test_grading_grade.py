"""Grading behaviour: the correct submission scores full, each common mistake is named, hidden
inputs never appear in feedback, a regrade gives the same score."""
import json
import os

import pytest

from grading.running.grader import grade_batch, grade_submission
from grading.output.report import feedback_markdown, results_json
from grading.spec.spec import load_spec

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading", "examples")
PERCEPTRON = sorted(os.listdir(os.path.join(EX, "perceptron")))
EXPECTED_NAME = {
    "learning_rate": "learning rate", "ties_not_mistakes": "ties not counted as mistakes",
    "bias_never_updated": "bias never updated", "label_ignored": "label ignored",
    "wrong_passes": "wrong number of passes", "shuffled": "data shuffled", "modifies_inputs": "inputs modified",
}


@pytest.fixture(scope="module")
def perceptron_results():
    paths = [os.path.join(EX, "perceptron", n) for n in PERCEPTRON]
    results, caps = grade_batch("perceptron", paths, jobs=2)
    return {r.name: r for r in results}


def test_every_sample_is_covered():
    assert set(PERCEPTRON) == set(EXPECTED_NAME) | {"correct", "correct_numpy"}


@pytest.mark.parametrize("name", ["correct", "correct_numpy"])
@pytest.mark.slow
def test_correct_submission_scores_full(perceptron_results, name):
    r = perceptron_results[name]
    assert r.score == r.max_score == load_spec("perceptron").max_score
    assert r.diagnoses == {}


@pytest.mark.parametrize("name", sorted(EXPECTED_NAME))
@pytest.mark.slow
def test_each_common_mistake_is_named(perceptron_results, name):
    r = perceptron_results[name]
    assert r.score < r.max_score
    assert EXPECTED_NAME[name] in r.diagnoses, (name, r.diagnoses)
    # no other mistake is (wrongly) named
    assert list(r.diagnoses) == [EXPECTED_NAME[name]], (name, r.diagnoses)


@pytest.mark.slow
def test_feedback_shows_first_departure_with_both_weight_vectors(perceptron_results):
    r = perceptron_results["ties_not_mistakes"]
    ties = next(t for t in r.tests if t.kind == "ties")
    assert "first departure: step 1" in ties.output
    assert "expected: w = [-1, 1], b = 0" in ties.output and "yours:    w = [0, 0], b = 0" in ties.output
    rnd = next(t for t in r.tests if t.kind == "random")
    assert rnd.output.startswith("smallest failing input found")
    # shrinking: the smallest counterexample is one example with one feature
    assert "input: X = [[" in rnd.output and "]], y = [" in rnd.output and rnd.output.count("[") <= 12


@pytest.mark.slow
def test_hidden_tests_report_pass_fail_and_points_only(perceptron_results):
    for name, r in perceptron_results.items():
        h = [t for t in r.tests if t.hidden]
        assert h and all(t.output in ("passed", "failed (hidden test: its input is not shown)") for t in h)
        js = results_json(r)
        hidden_js = [t for t in js["tests"] if t["name"] == "hidden tests"]
        assert hidden_js[0]["visibility"] == "after_published"


def test_hidden_inputs_never_in_feedback(tmp_path):
    """The hidden test's input (a distinctive one) must not reach the output, even when the
    submission prints every input it receives."""
    spec = tmp_path / "spec.toml"
    spec.write_text("""
[assignment]
algorithm = "perceptron"
[tests.ties]
points = 2
hidden = true
[tests.one_example]
points = 1
""")
    sub = tmp_path / "leaky"
    sub.mkdir()
    (sub / "perceptron.py").write_text('''
def train(X, y, epochs=1):
    print("INPUT", X, y)
    open("seen.txt", "a").write(repr(X))
    w = [0.0] * len(X[0]); b = 0.0
    for x, t in zip(X, y):
        if t * (sum(a * c for a, c in zip(w, x)) + b) < 0:   # ties wrong: fails the hidden test
            w = [a + t * c for a, c in zip(w, x)]; b += t
    return w, b
''')
    r = grade_submission(str(spec), str(sub))
    hidden = next(t for t in r.tests if t.hidden)
    assert not hidden.passed and hidden.score == 0
    text = json.dumps(results_json(r)) + feedback_markdown(r)
    assert "INPUT [[1.0, 2.0]]" in text or "[[1, 2]]" in text          # the visible input may be shown
    for token in ("[[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [0.0, 0.0]]",   # the hidden (ties) input: never,
                  "[[1, 1], [-1, -1], [1, -1], [0, 0]]", "[1, 1, -1, -1]"):  # in any spelling
        assert token not in text


@pytest.mark.slow
def test_regrade_gives_the_same_score_and_feedback(tmp_path):
    p = os.path.join(EX, "perceptron", "bias_never_updated")
    a = grade_submission("perceptron", p)
    b = grade_submission("perceptron", p)
    assert [t.score for t in a.tests] == [t.score for t in b.tests]
    # the same feedback, but for the running times the linear-time test measures and shows
    assert [t.output for t in a.tests if t.kind != "linear_time"] == \
        [t.output for t in b.tests if t.kind != "linear_time"]


@pytest.mark.parametrize("assignment,ok,bad,name", [
    ("winnow", "winnow/correct", "winnow/ties_not_mistakes", "ties not counted as mistakes"),
    ("kernel_perceptron", "kernel_perceptron/correct", "kernel_perceptron/label_ignored", "label ignored"),
])
@pytest.mark.slow
def test_other_assignments(assignment, ok, bad, name):
    r = grade_submission(assignment, os.path.join(EX, ok))
    assert r.score == r.max_score > 0, [(t.name, t.output) for t in r.tests if not t.passed]
    r = grade_submission(assignment, os.path.join(EX, bad))
    assert r.score < r.max_score and name in r.diagnoses


def test_class_style(tmp_path):
    r = grade_submission("perceptron_class", os.path.join(EX, "perceptron_class", "correct"))
    assert r.score == r.max_score > 0
    bad = tmp_path / "bad"
    bad.mkdir()
    src = open(os.path.join(EX, "perceptron_class", "correct", "perceptron.py")).read()
    (bad / "perceptron.py").write_text(src.replace("<= 0:", "< 0:"))
    r = grade_submission("perceptron_class", str(bad))
    assert r.score < r.max_score
    failed = [t for t in r.tests if not t.passed and not t.hidden]
    assert any("predict(x) returned" in t.output for t in failed)


def test_invariants_catch_an_update_without_mistake(tmp_path):
    sub = tmp_path / "eager"
    sub.mkdir()
    (sub / "perceptron.py").write_text('''
def train(X, y, epochs=1):
    w = [0.0] * len(X[0]); b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            w = [a + t * c for a, c in zip(w, x)]; b += t      # updates on every example
    return w, b
''')
    r = grade_submission("perceptron", str(sub))
    inv = next(t for t in r.tests if t.kind == "invariants")
    assert not inv.passed and "update only on mistakes" in inv.output


def test_missing_module_and_import_error(tmp_path):
    d = tmp_path / "empty"
    d.mkdir()
    (d / "other.py").write_text("x = 1\n")
    r = grade_submission("perceptron", str(d))
    assert r.score == 0 and "perceptron.py" in r.note
    d2 = tmp_path / "syntax"
    d2.mkdir()
    (d2 / "perceptron.py").write_text("def train(:\n")
    r = grade_submission("perceptron", str(d2))
    assert r.score == 0 and "SyntaxError" in r.tests[0].output


def test_theory_questions_graded_by_the_refutation_engine(tmp_path):
    r = grade_submission("theory", os.path.join(EX, "theory", "correct"))
    assert r.score == r.max_score == 4
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    (wrong / "answers.toml").write_text("[kernel_poly]\nanswer = true\n[kernel_sq_dist]\nanswer = true\n"
                                        "[bound_block_novikoff]\nanswer = 'yes'\n")
    r = grade_submission("theory", str(wrong))
    by = {t.kind: t for t in r.tests}
    assert by["theory:kernel_poly"].passed
    sq = by["theory:kernel_sq_dist"]
    assert not sq.passed and "ILLEGAL" in sq.output and "counterexample" in sq.output
    assert not by["theory:bound_block_novikoff"].passed and "boolean" in by["theory:bound_block_novikoff"].output
    hidden = by["theory:bound_no_square"]
    assert hidden.hidden and not hidden.passed and "R**2" not in hidden.output + hidden.name
