"""Float-faithful references beyond the perceptron: a Winnow2 course whose factor float64 cannot
hold (1.1), a Weighted Majority course whose penalty it cannot hold (0.3) and a Passive-Aggressive
course that says ``arithmetic = "float"`` are graded against a replay of the course's float64 loop
in its order: a correct float submission gets full marks, a difference of rounding only is called
rounding, and the typical mistake of each shipped course is still named."""
import glob
import os
import re

import pytest

from grading.spec.contract_parse import parse_contract
from grading.running.grader import grade_submission
from grading.references.reference import reference_run
from grading.spec.spec import load_spec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "grading", "examples")
COURSES = {"winnow_float": "strict_threshold", "weighted_majority_float": "update_only_on_mistakes",
           "passive_aggressive_float": "step_not_capped"}
NAMED = {"strict_threshold": "ties not counted as mistakes", "update_only_on_mistakes": "penalizes only on mistakes",
         "step_not_capped": "step not capped at C"}


def _parse(alg, d):
    return parse_contract(d, algorithm=alg, style="function", entry="train", bias=False, normalize=False,
                          labels="01" if alg == "winnow" else "pm1", kernel="linear", epochs=1, src="s.toml")


def test_a_rate_float64_cannot_hold_makes_the_arithmetic_float():
    assert _parse("weighted_majority", {"penalty": 0.3}).arithmetic == "float"
    assert _parse("weighted_majority", {"penalty": 0.25}).arithmetic == "exact"
    assert _parse("weighted_majority", {}).arithmetic == "exact"
    assert _parse("winnow", {"variant": "winnow2", "factor": 1.1}).arithmetic == "float"
    assert _parse("winnow", {"variant": "winnow2", "factor": 3}).arithmetic == "float"     # w / 3 is rounded
    assert _parse("winnow", {"variant": "winnow2", "factor": 4}).arithmetic == "exact"
    assert _parse("winnow", {}).arithmetic == "exact"
    assert _parse("passive_aggressive", {}).arithmetic == "exact"
    assert _parse("passive_aggressive", {"arithmetic": "float"}).arithmetic == "float"
    assert _parse("winnow", {"variant": "winnow2", "factor": 1.1, "arithmetic": "exact"}).arithmetic == "exact"
    from learners.errors import InputError
    with pytest.raises(InputError, match="arithmetic"):
        parse_contract({"arithmetic": "float"}, algorithm="kernel_perceptron", style="function", entry="train",
                       bias=False, normalize=False, labels="pm1", kernel="linear", epochs=1, src="s.toml")


def _winnow_loop(X, y, T, alpha):
    """Winnow2 as the course writes it in float64: threshold d, w * alpha on a missed 1, w / alpha
    on a false 1."""
    d = len(X[0])
    w, acts = [1.0] * d, []
    for _ in range(T):
        for x, t in zip(X, y):
            s = 0.0
            for wj, xj in zip(w, x):
                if xj:
                    s += wj
            acts.append(s)
            if (1 if s >= d else 0) != t:
                w = [wj * alpha if xj and t == 1 else wj / alpha if xj else wj for wj, xj in zip(w, x)]
    return w, acts


def test_the_winnow_reference_replays_the_float_run_step_by_step():
    c = load_spec("winnow_float").contract
    assert c.arithmetic == "float"
    X = [[1, 1, 0], [0, 1, 1], [1, 0, 1], [1, 1, 1], [0, 0, 1], [1, 0, 0]]
    y = [1, 0, 1, 1, 0, 1]
    w, acts = _winnow_loop(X, y, 5, 1.1)
    run = reference_run(c, X, y, 5)
    assert [s.activation for s in run.steps] == acts          # the same floats (exact 11/10 powers differ)
    assert list(run.weights) == w


# a run on which the float64 sums W(+1), W(-1) decide a tie the other way from exact arithmetic
WM_TIE_X = [[-1, -1, -1, -1, -1, 1], [-1, -1, -1, 1, 1, -1], [-1, -1, 1, 1, 1, -1], [-1, 1, 1, 1, 1, -1],
            [1, -1, -1, -1, 1, 1]]
WM_TIE_Y = [1, -1, -1, 1, -1]


def _wm_loop(X, y, beta):
    w, mistakes, acts = [1.0] * len(X[0]), 0, []
    for adv, lab in zip(X, y):
        plus = sum(wi for wi, a in zip(w, adv) if a == 1)
        minus = sum(wi for wi, a in zip(w, adv) if a != 1)
        acts.append(plus - minus)
        mistakes += (1 if plus >= minus else -1) != lab
        w = [wi * beta if a != lab else wi for wi, a in zip(w, adv)]
    return w, mistakes, acts


def test_the_weighted_majority_reference_replays_a_tie_rounding_decides():
    c = load_spec("weighted_majority_float").contract
    assert c.arithmetic == "float"
    w, mistakes, acts = _wm_loop(WM_TIE_X, WM_TIE_Y, 0.3)
    run = reference_run(c, WM_TIE_X, WM_TIE_Y, 1)
    assert [s.activation for s in run.steps] == acts
    assert list(run.weights) == w and run.mistakes == mistakes
    exact = reference_run(c.replace(arithmetic="exact"), WM_TIE_X, WM_TIE_Y, 1)
    assert exact.mistakes != mistakes       # exact arithmetic sees a tie there; the course's float code does not


def test_the_shipped_float_weighted_majority_agrees_with_the_reference_at_that_tie():
    import importlib.util
    path = os.path.join(EX, "weighted_majority_float", "correct", "weighted_majority.py")
    spec = importlib.util.spec_from_file_location("wm_float_correct", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    w, mistakes = mod.train(WM_TIE_X, WM_TIE_Y, 0.3)
    run = reference_run(load_spec("weighted_majority_float").contract, WM_TIE_X, WM_TIE_Y, 1)
    assert (w, mistakes) == (list(run.weights), run.mistakes)


def test_the_passive_aggressive_reference_replays_the_float_run_step_by_step():
    c = load_spec("passive_aggressive_float").contract
    assert c.arithmetic == "float"
    X = [[0.1, 0.7, -0.3], [1.3, -0.2, 0.0], [-0.6, 0.4, 0.9], [0.0, 0.0, 0.0], [0.3, 0.3, 0.3], [2.5, -1.0, 0.1]]
    y = [1, -1, 1, 1, -1, 1]
    w, acts = [0.0] * 3, []
    for _ in range(3):
        for x, t in zip(X, y):
            a = sum(p * q for p, q in zip(w, x))
            acts.append(a)
            loss = max(0.0, 1.0 - t * a)
            sq = sum(v * v for v in x)
            if loss > 0 and sq > 0:
                tau = min(1.0, loss / sq)
                w = [p + tau * t * q for p, q in zip(w, x)]
    run = reference_run(c, X, y, 3)
    assert [s.activation for s in run.steps] == acts
    assert list(run.weights) == w


@pytest.mark.parametrize("course", sorted(COURSES))
def test_the_shipped_float_courses_grade_their_examples(course):
    spec = os.path.join(ROOT, "grading", "assignments", f"{course}.toml")
    r = grade_submission(spec, os.path.join(EX, course, "correct"))
    assert r.score == r.max_score, [(t.kind, t.output) for t in r.tests if not t.passed]
    bug = COURSES[course]
    r = grade_submission(spec, os.path.join(EX, course, bug))
    assert r.score < r.max_score
    assert list(r.diagnoses) == [NAMED[bug]], r.diagnoses


SCALED = {"winnow_float": ("return w\n", "return w * (1 + 1e-6)\n"),
          "weighted_majority_float": ("return w, mistakes\n", "return [v * (1 + 1e-6) for v in w], mistakes\n"),
          "passive_aggressive_float": ("return w\n", "return w * (1 + 1e-6)\n")}


@pytest.mark.parametrize("course", sorted(COURSES))
def test_a_difference_of_rounding_only_is_called_rounding(course, tmp_path):
    src = glob.glob(os.path.join(EX, course, "correct", "*.py"))[0]
    old, new = SCALED[course]
    text = open(src).read()
    assert text.count(old) == 1
    (tmp_path / os.path.basename(src)).write_text(text.replace(old, new))
    text = open(os.path.join(ROOT, "grading", "assignments", f"{course}.toml")).read()
    text = re.sub(r'solution = "[^"]*"\n', "", text)
    (tmp_path / "spec.toml").write_text(text)
    r = grade_submission(str(tmp_path / "spec.toml"), str(tmp_path))
    failed = [t for t in r.tests if not t.passed and not t.hidden]
    assert failed and r.diagnoses == {}
    explained = [t for t in failed if "input: X = " in t.output]
    assert explained
    for t in explained:
        assert "cause: rounding -- the only difference is rounding" in t.output, t.output
        assert "no single change of the reference" not in t.output, t.output


def test_the_suites_own_solution_agrees_at_that_tie():
    """grade --check-spec grades the suite's solution from the contract: its Weighted Majority sums
    W(+1) and W(-1) as a course's float loop does, so it meets the rounding-decided tie alike."""
    from grading.references.synth import solution_source
    c = load_spec("weighted_majority_float").contract
    ns = {}
    exec(solution_source(c), ns)
    w, mistakes = ns["train"](WM_TIE_X, WM_TIE_Y, 0.3)
    run = reference_run(c, WM_TIE_X, WM_TIE_Y, 1)
    assert (w, mistakes) == (list(run.weights), run.mistakes)
