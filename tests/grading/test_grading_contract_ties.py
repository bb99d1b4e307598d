"""The first step's tie under every tie convention a course may declare (kernel perceptron and
perceptron from a zero start), and Winnow's tie rule kept apart from a wrong algorithm.

From alpha = 0 (w = 0) the first step is a tie, y f(x) = 0, and the course's convention alone
decides whether it is a mistake.  For every convention: correct code and code that writes the
same convention another way keep full marks; code resolving the ties otherwise loses the ties
test and keeps the invariants (they take the student's own step at a tie met at the start, and
the contract's convention everywhere after the first update); code that is wrong in the
algorithm loses points with its cause named."""
import textwrap
from fractions import Fraction

import pytest

from grading.checks import invariants as inv
from grading.references.averaging import late_ties
from grading.spec.contract import TIES, Contract
from grading.running.grader import grade_submission
from grading.references.problems import make_problem
from grading.references.reference import reference_run
from grading.spec.spec import load_spec

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
@pytest.mark.slow
def test_kernel_every_convention_correct_and_its_variant_full_marks(tmp_path, ties):
    for k, test in enumerate(TESTS[ties]):
        r = _grade(tmp_path, ties, f"ok{k}", _code(test))
        assert r.score == r.max_score == 11, (test, [(t.kind, t.output) for t in r.tests if not t.passed])
        assert r.diagnoses == {}


@pytest.mark.parametrize("ties", ["mistake", "predict+1", "predict-1"])
@pytest.mark.slow
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
@pytest.mark.slow
def test_kernel_a_wrong_update_loses_points_with_its_cause(tmp_path, ties):
    r = _grade(tmp_path, ties, "label", _code(TESTS[ties][0], "alpha[i] += 1"))
    by = _by(r)
    assert r.score <= r.max_score / 2 and not by["invariants"].passed, [(t.kind, t.score) for t in r.tests]
    assert "label ignored" in r.diagnoses, r.diagnoses
    assert "alpha_i += y_i" in by["invariants"].output or "not a mistake" in by["invariants"].output


@pytest.mark.parametrize("ties", ["mistake", "predict+1", "predict-1"])
@pytest.mark.slow
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


# --- Winnow: the tie rule alone, told from a wrong algorithm ------------------------------------
WSPEC = textwrap.dedent("""\
    [assignment]
    algorithm = "winnow"
    module = "winnow"
    entry = "train"
    labels = "01"
    max_epochs = 3
    [contract]
    ties = "{ties}"
    [hypothesis]
    max_examples = 20
    max_n = 8
    max_d = 4
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
    [tests.hidden_random]
    points = 2
    hidden = true
    """)
WINNOW = '''import numpy as np


def train(X, y, epochs=1):
    X = np.asarray(X, dtype=float)
    m = X.shape[1]
    w = np.ones(m)
    for _ in range(epochs):
        for x, t in zip(X, y):
            active = x != 0
            pred = 1 if w[active].sum() {cmp} m else 0
            if pred != t:
                if t == 1:
                    w[active] *= 2
                else:
                    w[active] {down}
    return w.tolist()
'''
WTIE = {"predict+1": ">=", "predict-1": ">"}
WCAUSE = {"predict+1": "ties predict 1", "predict-1": "ties not counted as mistakes"}


def _wgrade(tmp_path, ties, name, cmp, down="/= 2"):
    p = tmp_path / f"{name}.toml"
    p.write_text(WSPEC.format(ties=ties))
    d = tmp_path / name
    d.mkdir()
    (d / "winnow.py").write_text(WINNOW.format(cmp=cmp, down=down))
    return grade_submission(load_spec(str(p)), str(d))


@pytest.mark.parametrize("ties", ["predict+1", "predict-1"])
@pytest.mark.slow
def test_winnow_the_tie_rule_alone_is_named_and_costs_only_the_ties(tmp_path, ties):
    ok = _wgrade(tmp_path, ties, "ok", WTIE[ties])
    assert ok.score == ok.max_score == 13 and ok.diagnoses == {}, [(t.kind, t.output) for t in ok.tests if not t.passed]
    other = "predict-1" if ties == "predict+1" else "predict+1"
    bug = _wgrade(tmp_path, ties, "tie", WTIE[other])
    by = _by(bug)
    assert list(bug.diagnoses) == [WCAUSE[other]], bug.diagnoses
    assert by["ties"].score == 0
    assert f"likely mistake: {WCAUSE[other]} -- the reference re-run with a tie w.x = theta" in by["ties"].output
    # the random tests pass on answers that are the algorithm's under the other tie rule (the rule
    # is graded once, by the ties test); the invariant data meet no tie
    assert by["random"].passed and by["hidden_random"].passed and by["invariants"].passed
    assert "passed apart from the tie rule" in by["random"].output or "passed on" in by["random"].output
    assert bug.score >= bug.max_score - 3, [(t.kind, t.score) for t in bug.tests]

    # a wrong algorithm (the active weights set to 0 instead of halved) with the course's tie rule
    wrong = _wgrade(tmp_path, ties, "elim", WTIE[ties], down="= 0")
    assert WCAUSE[other] not in wrong.diagnoses and "elimination instead of halving" in wrong.diagnoses, \
        wrong.diagnoses
    assert wrong.score <= bug.score - 4, (wrong.score, bug.score)
    assert not any("a convention bug" in t.output for t in wrong.tests)
    # the tie rule and the wrong algorithm together: no single change reproduces it, and the tie
    # rule is not named for what the wrong algorithm does
    both = _wgrade(tmp_path, ties, "both", WTIE[other], down="= 0")
    assert WCAUSE[other] not in both.diagnoses and both.score <= wrong.score, (both.diagnoses, both.score)
    assert not any("a convention bug" in t.output for t in both.tests)


def test_winnow_random_data_keep_their_ties_and_demotions(tmp_path):
    """Winnow's ties are not filtered out of the random data (most demotions would go with them):
    the random tests meet ties and demotions, and the tie rule is told apart by re-running."""
    from grading.references.averaging import winnow_ties
    from grading.checks.checks_differential import SEED_VISIBLE, DifferentialTests
    p = tmp_path / "w.toml"
    p.write_text(WSPEC.format(ties="predict+1"))
    spec = load_spec(str(p))

    from grading.checks.checks_common import GradingContext

    def G():
        return DifferentialTests(GradingContext(spec=spec, problem=make_problem(spec)), calls=None, diagnosis=None)
    runs = [reference_run(spec.contract, X, y, e) for X, y, e in G().generated_cases(SEED_VISIBLE, 1)]
    assert any(winnow_ties(spec.contract, r) for r in runs)
    assert any(s.mistake and s.label == 0 for r in runs for s in r.steps)
    one = {t: reference_run(spec.contract.replace(ties=t), [[1, 1]], [0], 1) for t in ("predict+1", "predict-1")}
    assert winnow_ties(spec.contract, one["predict+1"]) and one["predict+1"].weights != one["predict-1"].weights


def test_winnow_invariant_data_demote_and_meet_no_tie(tmp_path):
    from grading.references.averaging import winnow_ties
    p = tmp_path / "w.toml"
    p.write_text(WSPEC.format(ties="predict+1"))
    spec = load_spec(str(p))
    X, y, rel, _ = make_problem(spec).invariant_data()
    assert all(y[i] == int(any(X[i][j] for j in rel)) for i in range(len(X)))
    for t in ("predict+1", "predict-1"):
        for v in ("halve", "eliminate"):
            c = spec.contract.replace(ties=t, variant=v)
            run = reference_run(c, X, y, 1)
            assert not winnow_ties(c, run)
            assert sum(s.mistake and s.label == 0 for s in run.steps) >= (2 if v == "halve" else 1)   # demotions


# --- the reference's float path, used only where it is proved exact ---------------------------
@pytest.mark.slow
def test_the_float_reference_is_used_only_where_exact_and_agrees():
    import numpy as np
    from grading.references.reference import _floats_exact
    rng = np.random.default_rng(3)
    X = (rng.integers(-8, 9, size=(600, 5)) / 4).tolist()
    y = rng.choice([1, -1], size=600).tolist()
    assert _floats_exact(X, 3)
    assert not _floats_exact([[0.1, 1.0]], 1)                 # not dyadic
    assert not _floats_exact([[2.0 ** 40, 1.0]], 4)           # too large to stay exact
    assert not _floats_exact([[2.0 ** -30, 1.0]], 1)          # too fine
    for bias in (False, True):
        for eta in (Fraction(1), Fraction(1, 2), Fraction(3)):
            c = Contract("perceptron", bias=bias, learning_rate=eta)
            fast = reference_run(c, X, y, 3)
            slow = reference_run(c, X, y, 3, engine="loop")
            assert fast.weights == slow.weights and fast.bias == slow.bias
            assert [(s.activation, s.mistake, s.weights) for s in fast.steps] == \
                [(s.activation, s.mistake, s.weights) for s in slow.steps]
            assert all(isinstance(v, Fraction) for v in fast.weights)


@pytest.mark.slow
def test_the_float_kernel_reference_is_used_only_where_exact_and_agrees():
    import numpy as np
    from grading.references.reference import _kernel_floats_exact
    from learners.kernels import parse_kernel
    rng = np.random.default_rng(4)
    X = (rng.integers(-8, 9, size=(60, 3)) / 4).tolist()
    y = rng.choice([1, -1], size=60).tolist()
    assert _kernel_floats_exact(parse_kernel("poly:c=1,k=2"), X, 2)
    assert not _kernel_floats_exact(parse_kernel("gaussian:c=1"), X, 2)
    assert not _kernel_floats_exact(parse_kernel("poly:c=1,k=9"), [[2.0 ** 10, 1.0]] * 4, 2)
    for kernel in ("linear", "poly:c=1,k=2", "poly:c=0.5,k=3"):
        for bias in (False, True):
            c = Contract("kernel_perceptron", kernel=kernel, kernel_bias=bias, learning_rate=Fraction(1, 2))
            fast, slow = reference_run(c, X, y, 2), reference_run(c, X, y, 2, engine="loop")
            assert fast.weights == slow.weights and fast.bias == slow.bias
            assert [(s.activation, s.mistake) for s in fast.steps] == [(s.activation, s.mistake) for s in slow.steps]
            assert all(isinstance(v, Fraction) for v in fast.weights)
