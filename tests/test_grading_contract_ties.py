"""The first step's tie under every tie convention a course may declare (kernel perceptron and
perceptron from a zero start), and Winnow's tie rule kept apart from a wrong algorithm.

From alpha = 0 (w = 0) the first step is a tie, y f(x) = 0, and the course's convention alone
decides whether it is a mistake.  For every convention: correct code and code that writes the
same convention another way keep full marks; code resolving the ties otherwise loses the ties
test and keeps the invariants (they take the student's own step at a tie met at the start, and
the contract's convention everywhere after the first update); code that is wrong in the
algorithm loses points with its cause named."""
import textwrap

import pytest

from grading import invariants as inv
from grading.averaging import late_ties
from grading.contract import TIES, Contract
from grading.grader import grade_submission
from grading.problems import make_problem
from grading.reference import reference_run
from grading.spec import load_spec

KSPEC = textwrap.dedent("""\
    [assignment]
    algorithm = "kernel_perceptron"
    module = "kernel_perceptron"
    entry = "train"
    kernel = "poly:c=1,k=2"
    max_epochs = 3
    [contract]
    ties = "{ties}"
    [hypothesis]
    max_examples = 8
    max_n = 6
    max_d = 3
    [tests.one_example]
    points = 1
    [tests.ties]
    points = 2
    [tests.several_epochs]
    points = 2
    [tests.random]
    points = 4
    [tests.invariants]
    points = 2
    """)

HEAD = "import numpy as np\n\n\ndef train(X, y, kernel, epochs=1):\n" \
       "    n = len(X)\n    alpha = [0.0] * n\n" \
       "    G = [[kernel(X[j], X[i]) for i in range(n)] for j in range(n)]\n" \
       "    for _ in range(epochs):\n        for i in range(n):\n" \
       "            f = sum(alpha[j] * G[j][i] for j in range(n))\n"
# the course's own test, and the same convention written the way other courses write it
TESTS = {"mistake": ("y[i] * f <= 0", "np.sign(f) != y[i]"),
         "no_mistake": ("y[i] * f < 0", "(f > 0 and y[i] < 0) or (f < 0 and y[i] > 0)"),
         "predict+1": ("(1 if f >= 0 else -1) != y[i]", "np.where(f >= 0, 1, -1) != y[i]"),
         "predict-1": ("(1 if f > 0 else -1) != y[i]", "(np.sign(f) or -1) != y[i]")}


def _code(test, update="alpha[i] += y[i]"):
    return HEAD + f"            if {test}:\n                {update}\n    return alpha\n"


def _grade(tmp_path, ties, name, code):
    p = tmp_path / f"{name}.toml"
    p.write_text(KSPEC.format(ties=ties))
    d = tmp_path / name
    d.mkdir()
    (d / "kernel_perceptron.py").write_text(code)
    return grade_submission(load_spec(str(p)), str(d))


def _by(r):
    return {t.kind: t for t in r.tests}


@pytest.mark.parametrize("ties", TIES["kernel_perceptron"])
def test_kernel_every_convention_correct_and_its_variant_full_marks(tmp_path, ties):
    for k, test in enumerate(TESTS[ties]):
        r = _grade(tmp_path, ties, f"ok{k}", _code(test))
        assert r.score == r.max_score == 11, (test, [(t.kind, t.output) for t in r.tests if not t.passed])
        assert r.diagnoses == {}


@pytest.mark.parametrize("ties", ["mistake", "predict+1", "predict-1"])
def test_kernel_another_convention_loses_only_the_ties_test(tmp_path, ties):
    """The invariants pass on a run that resolves the start's ties otherwise, and say so."""
    for other in TIES["kernel_perceptron"]:
        if other in (ties, "no_mistake"):
            continue
        r = _grade(tmp_path, ties, f"conv{other}", _code(TESTS[other][0]))
        by = _by(r)
        assert by["ties"].score == 0 and by["invariants"].passed, (other, [(t.kind, t.output) for t in r.tests])
        assert r.score >= r.max_score - 2, (other, [(t.kind, t.score) for t in r.tests])
        X, y, _, _ = make_problem(load_spec(str(tmp_path / f"conv{other}.toml"))).invariant_data()
        if inv.is_mistake(ties, y[0], 0) != inv.is_mistake(other, y[0], 0):
            assert "went the other way from the course's convention" in by["invariants"].output
        assert list(r.diagnoses) == [{"mistake": "ties counted as mistakes", "predict+1": "ties predicted +1",
                                      "predict-1": "ties predicted -1"}[other]], r.diagnoses


@pytest.mark.parametrize("ties", ["mistake", "predict+1", "predict-1"])
def test_kernel_a_wrong_update_loses_points_with_its_cause(tmp_path, ties):
    r = _grade(tmp_path, ties, "label", _code(TESTS[ties][0], "alpha[i] += 1"))
    by = _by(r)
    assert r.score <= r.max_score / 2 and not by["invariants"].passed, [(t.kind, t.score) for t in r.tests]
    assert "label ignored" in r.diagnoses, r.diagnoses
    assert "alpha_i += y_i" in by["invariants"].output or "not a mistake" in by["invariants"].output


@pytest.mark.parametrize("ties", ["mistake", "predict+1", "predict-1"])
def test_kernel_never_leaving_alpha_zero_fails_the_invariants(tmp_path, ties):
    """The start's ties are free only for a run that does update: code that never leaves
    alpha = 0 (the strict test from a zero start) fails the invariants, whatever the convention."""
    r = _grade(tmp_path, ties, "strict", _code(TESTS["no_mistake"][0]))
    by = _by(r)
    assert not by["invariants"].passed and "never leaves alpha = 0" in by["invariants"].output
    assert "ties not counted as mistakes" in r.diagnoses


def test_no_mistake_course_is_graded_by_its_own_convention(tmp_path):
    """Under "a tie is not a mistake" the run never leaves alpha = 0 -- that is the course's
    algorithm; code counting ties as mistakes is the named bug there."""
    r = _grade(tmp_path, "no_mistake", "tiebug", _code(TESTS["mistake"][0]))
    assert r.score < r.max_score and list(r.diagnoses) == ["ties counted as mistakes"], r.diagnoses


@pytest.mark.parametrize("kernel", ["linear", "poly:c=1,k=2", "poly:c=0,k=2", "poly:c=0,k=3", "poly:c=1,k=3",
                                    "gaussian:c=1"])
def test_the_kernel_invariant_data_meet_only_the_first_steps_tie(tmp_path, kernel):
    p = tmp_path / "k.toml"
    p.write_text(KSPEC.format(ties="mistake").replace("poly:c=1,k=2", kernel))
    X, y, _, _ = make_problem(load_spec(str(p))).invariant_data()
    for bias in (False, True):
        for t in TIES["kernel_perceptron"]:
            run = reference_run(Contract("kernel_perceptron", kernel=kernel, kernel_bias=bias, ties=t), X, y, 1)
            assert not late_ties(run), (bias, t)
            assert run.steps[0].activation == 0
            assert t == "no_mistake" or sum(s.mistake for s in run.steps) >= 3


def _kernel_states(ties, X, y, alpha_update=None):
    run = reference_run(Contract("kernel_perceptron", kernel="linear", ties=ties), X, y, 1)
    states, alpha = [[]], []
    for s in run.steps:
        alpha.append(0)
        if s.mistake:
            alpha[-1] = y[s.index] if alpha_update is None else alpha_update
        states.append(list(alpha))
    return states


def test_kernel_checker_takes_the_students_step_only_at_the_start():
    """Unit level: every convention's run passes under every course convention (with the start's
    ties reported), a run resolving a later tie otherwise fails, the start is free only there."""
    from learners.kernels import parse_kernel
    K = parse_kernel("linear")
    X, y = [[-0.25, 0.25], [-0.5, -0.75], [1.0, 0.25], [0.75, 1.0]], [-1, 1, -1, -1]
    for course in TIES["kernel_perceptron"]:
        for student in ("mistake", "predict+1", "predict-1"):
            seen = []
            probs = inv.check_kernel_run(X, y, _kernel_states(student, X, y), K, ties=course, start_ties=seen)
            assert probs == [], (course, student, probs)
            assert bool(seen) == (inv.is_mistake(course, y[0], 0) != inv.is_mistake(student, y[0], 0)) or \
                seen == [2]
            # without the isolation the course's convention decides step 1
            strict = inv.check_kernel_run(X, y, _kernel_states(student, X, y), K, ties=course)
            assert (strict == []) == (_kernel_states(student, X, y) == _kernel_states(course, X, y))
    # a later tie: x3 orthogonal to x1 after the update on x1 -- judged by the course's convention
    X2, y2 = [[1.0, 0.0], [0.0, 1.0]], [1, 1]
    states = [[], [1], [1, 0]]                      # step 2: f = 0, not updated
    assert inv.check_kernel_run(X2, y2, states, K, ties="mistake", start_ties=[])
    assert inv.check_kernel_run(X2, y2, states, K, ties="predict+1", start_ties=[]) == []
    # an update at the start must still be alpha_i += y_i
    assert inv.check_kernel_run(X2, [-1, 1], [[], [1], [1, 0]], K, ties="predict-1", start_ties=[])


@pytest.mark.parametrize("kernel", ["linear", "poly:c=1,k=2", "gaussian:c=1"])
def test_the_kernel_probes_tell_a_tie_convention_from_one_pass_more(tmp_path, kernel):
    p = tmp_path / "k.toml"
    p.write_text(KSPEC.format(ties="mistake").replace("poly:c=1,k=2", kernel))
    probes = make_problem(load_spec(str(p))).probes()
    ans = lambda c, X, y, e: (reference_run(c, X, y, e).weights, reference_run(c, X, y, e).bias)  # noqa: E731
    for bias in (False, True):
        for course in TIES["kernel_perceptron"]:
            C = Contract("kernel_perceptron", kernel=kernel, kernel_bias=bias, ties=course)
            for other in TIES["kernel_perceptron"]:
                if other != course:
                    assert any(ans(C, X, y, e + 1) != ans(C.replace(ties=other), X, y, e)
                               for X, y, e in (pr[:3] for pr in probes)), (bias, course, other)
