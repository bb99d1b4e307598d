"""The first step's tie kept apart from the rest of the algorithm, and imports a course makes for
plots nobody asked for.

From w = 0 the first step of every input is a tie: one tie-convention bug used to change nearly
every answer (1/20, then half of every test with the partial credit).  The random data now meet
no tie after the first update, a test whose answers are the algorithm's with only the first
step's tie resolved otherwise passes, the invariants are checked from the first update on, and
the linear-time test accepts the algorithm's answers under another tie convention: a convention
bug loses the ties test, keeps well above half the marks, and its cause is named.  Code that never
leaves w = 0 (a tie is "not a mistake" from a zero start) is the same as code returning zeros on
every input, and still earns nothing."""
import os
import textwrap

import pytest

from grading.running.grader import grade_submission
from grading.references.averaging import late_ties
from grading.references.problems import make_problem
from grading.references.reference import reference_run
from grading.spec.spec import load_spec
from grading.references.synth import solution_files

SPEC = textwrap.dedent("""\
    [assignment]
    algorithm = "perceptron"
    module = "perceptron"
    {extra}
    [hypothesis]
    max_examples = 12
    max_n = 6
    max_d = 3

    [tests.one_example]
    points = 1
    [tests.ties]
    points = 2
    [tests.several_epochs]
    points = 2
    [tests.negative_fractional]
    points = 1
    [tests.random]
    points = 4
    [tests.invariants]
    points = 2
    """)


def _spec(tmp_path, extra=""):
    p = tmp_path / "tie.toml"
    p.write_text(SPEC.format(extra=extra))
    return load_spec(str(p))


def _submission(tmp_path, spec, ties, name):
    d = tmp_path / name
    d.mkdir()
    for k, v in solution_files(spec, learner=spec.contract.replace(ties=ties)).items():
        (d / k).write_bytes(v)
    return str(d)


def test_the_random_data_meet_no_tie_after_the_first_update(tmp_path):
    spec = _spec(tmp_path)
    from grading.checks.checks_differential import SEED_VISIBLE, DifferentialTests

    from grading.checks.checks_common import GradingContext

    def G():
        return DifferentialTests(GradingContext(spec=spec, problem=make_problem(spec)), calls=None, diagnosis=None)
    cases = G().generated_cases(SEED_VISIBLE, 1)
    assert len(cases) >= 8
    runs = [reference_run(spec.contract, X, y, e) for X, y, e in cases]
    assert not any(late_ties(r) for r in runs)
    assert all(r.steps[0].activation == 0 for r in runs)           # the first step's tie stays
    # the filter is real: the unfiltered strategy meets later ties on the same kind of data
    from hypothesis import HealthCheck, given, seed, settings
    seen = []

    @seed(1)
    @settings(max_examples=60, database=None, suppress_health_check=list(HealthCheck), deadline=None)
    @given(make_problem(spec).strategy(1))
    def collect(t):
        seen.append(late_ties(reference_run(spec.contract, *t)))
    collect()
    assert any(seen)


def test_a_tie_convention_bug_loses_only_what_the_ties_decide(tmp_path):
    spec = _spec(tmp_path)
    ok = grade_submission(spec, _submission(tmp_path, spec, "mistake", "correct"))
    assert ok.score == ok.max_score == 12, [(t.name, t.output) for t in ok.tests if not t.passed]
    bug = grade_submission(spec, _submission(tmp_path, spec, "predict-1", "sign0"))
    by = {t.kind: t for t in bug.tests}
    assert 0.5 * bug.max_score < bug.score < bug.max_score, [(t.kind, t.score) for t in bug.tests]
    assert by["ties"].score == 0 and not by["ties"].passed
    assert by["random"].passed and by["invariants"].passed
    assert "ties predicted -1" in bug.diagnoses
    assert "likely mistake: ties predicted -1 --" in by["ties"].output


def test_code_that_never_leaves_zero_still_earns_nothing_for_it(tmp_path):
    """y (w.x + b) < 0 from w = 0 never updates: the same answers as returning zeros."""
    spec = _spec(tmp_path)
    r = grade_submission(spec, _submission(tmp_path, spec, "no_mistake", "strict"))
    assert r.score <= 1 and "ties not counted as mistakes" in r.diagnoses
    assert not any("passed apart from the first step's tie" in t.output for t in r.tests)


def test_from_a_given_start_the_strict_test_loses_only_the_ties(tmp_path):
    spec = _spec(tmp_path, 'entry = "train"\n[contract]\ninit = "given"\n[contract.call]\n'
                           'args = ["X", "y", "w0", "b0", "T"]\n')
    r = grade_submission(spec, _submission(tmp_path, spec, "no_mistake", "strict_given"))
    by = {t.kind: t for t in r.tests}
    assert by["ties"].score == 0 and by["random"].passed and by["several_epochs"].passed
    assert r.score == r.max_score - 2 and "ties not counted as mistakes" in r.diagnoses


# --- imports for plots nobody asked for: [limits] harmless_imports ------------------------------
PLOTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "grading", "plots")
HARMLESS = textwrap.dedent("""\
    [assignment]
    algorithm = "perceptron"
    module = "perceptron"
    [limits]
    {limits}
    [hypothesis]
    max_examples = 4
    [tests.one_example]
    points = 1
    [tests.several_epochs]
    points = 1
    [tests.random]
    points = 2
    """)


def test_declared_harmless_plot_imports_get_inert_stand_ins(tmp_path):
    p = tmp_path / "plots.toml"
    p.write_text(HARMLESS.format(limits='harmless_imports = ["matplotlib", "pylab"]'))
    r = grade_submission(load_spec(str(p)), PLOTS)
    assert r.score == r.max_score == 4, [(t.name, t.output) for t in r.tests if not t.passed]
    q = tmp_path / "plain.toml"
    q.write_text(HARMLESS.format(limits=""))
    r = grade_submission(load_spec(str(q)), PLOTS)
    assert r.score == 0 and "No module named 'matplotlib'" in r.tests[0].output


def test_the_stand_in_holds_nothing_of_the_grader():
    """The stand-in's module imports nothing at load: its globals are its own definitions (a
    submission reaching them through a function's __globals__ finds no module, no file, no grader
    object); every idiom of a plotting script answers with an inert object."""
    import importlib.util
    import sys
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "sandbox", "_inert.py")
    spec = importlib.util.spec_from_file_location("_inert_test", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    own = {k for k in vars(mod) if not k.startswith("__")}
    assert own == {"PLOT_NAMES", "Inert", "InertFinder", "install", "_subplots", "_module_getattr"}
    assert not any(type(v).__name__ == "module" for v in vars(mod).values())
    meta = []
    mod.install(["fakeplotlib"], meta)
    fake = meta[0].create_module(meta[0].find_spec("fakeplotlib.pyplot"))
    assert meta[0].find_spec("numpy") is None and meta[0].find_spec("fakeplotlibx") is None
    fig, ax = fake.subplots(2, 1)
    ax[0].plot([1, 2]).set_label("x")
    fake.rcParams["font.size"] = 8
    with fake.style.context("ggplot"):
        fake.anything.at.all(1, k=2)
    assert list(fake.figure()) == [] and len(fig) == 0 and "plot" in fake.__all__
    with pytest.raises(AttributeError):
        fake.__wrapped__
    assert "fakeplotlib" not in sys.modules


@pytest.mark.parametrize("value,msg", [('["os"]', "may not name 'os': it is a standard-library module"),
                                       ('["numpy"]', "may not name 'numpy': it is in limits.packages"),
                                       ('["mat plot"]', "must list top-level module names")])
def test_bad_harmless_imports_are_one_line(tmp_path, value, msg):
    import subprocess
    import sys
    p = tmp_path / "bad.toml"
    p.write_text(HARMLESS.format(limits=f"harmless_imports = {value}"))
    r = subprocess.run([sys.executable, "-m", "mistakebound", "grade", "--check-spec", str(p)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and msg in r.stderr, r.stderr


def test_a_kernel_run_that_never_leaves_alpha_zero_earns_nothing(tmp_path):
    """The dual's start is alpha = 0, one coefficient per example (not one weight per feature):
    code whose tie is "not a mistake" never updates and is paid neither for the convention nor
    for the first step's tie."""
    p = tmp_path / "k.toml"
    p.write_text(SPEC.format(extra="").replace('"perceptron"', '"kernel_perceptron"', 1).replace('module = "perceptron"',
                                                                            'module = "kernel_perceptron"')
                 .replace("[tests.invariants]\npoints = 2\n", ""))
    spec = load_spec(str(p))
    r = grade_submission(spec, _submission(tmp_path, spec, "no_mistake", "kstrict"))
    assert r.score == 0 and "ties not counted as mistakes" in r.diagnoses, [(t.kind, t.score) for t in r.tests]
    ok = grade_submission(spec, _submission(tmp_path, spec, "predict+1", "ksign"))
    assert ok.max_score / 2 < ok.score < ok.max_score and "ties predicted +1" in ok.diagnoses
