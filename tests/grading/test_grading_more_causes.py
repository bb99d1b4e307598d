"""Two more things a course meets: Python 2 code is refused with a one-line reason (not a
syntax error in every test), and a loop that skips the first example of every pass is named,
confirmed by the reference re-run without it."""
import pytest

from grading.running.grader import grade_submission, python2_reason

PY2 = {"print": 'def train(X, y, epochs=1):\n    print "training"\n    return [0.0] * len(X[0]), 0.0\n',
       "except": 'def train(X, y, epochs=1):\n    try:\n        pass\n    except ValueError, e:\n        pass\n'
                 '    return [0.0] * len(X[0]), 0.0\n',
       "octal": 'MODE = 0777\n\ndef train(X, y, epochs=1):\n    return [0.0] * len(X[0]), 0.0\n'}

SKIPS = '''def train(X, y, epochs=1):
    w, b = [0.0] * len(X[0]), 0.0
    for _ in range(epochs):
        for i in range(1, len(X)):
            x, t = X[i], y[i]
            if t * (sum(p * q for p, q in zip(w, x)) + b) <= 0:
                w = [p + t * q for p, q in zip(w, x)]
                b += t
    return w, b
'''


@pytest.mark.parametrize("kind,what", [("print", "line 2: a print statement"), ("except", "line 4: except E, e:"),
                                       ("octal", "line 1: an octal literal written 0777")])
def test_python_2_code_is_refused_in_one_line(tmp_path, kind, what):
    p = tmp_path / "perceptron.py"
    p.write_text(PY2[kind])
    r = grade_submission("perceptron", str(p))
    want = f"perceptron.py is Python 2 code ({what}); the grader runs Python 3"
    assert r.score == 0 and r.note.startswith("submission not graded: " + want), r.note
    assert all(t.output.startswith(want) and "\n" not in t.output for t in r.tests)


def test_a_python_3_syntax_error_is_not_called_python_2():
    assert python2_reason("SyntaxError: invalid syntax (perceptron.py, line 1)", b"def f(:\n", "perceptron.py") == ""
    assert python2_reason("NameError: x (line 1 of perceptron.py)", b"print x\n", "perceptron.py") == ""


def test_skipping_the_first_example_is_named(tmp_path):
    p = tmp_path / "perceptron.py"
    p.write_text(SKIPS)
    r = grade_submission("perceptron", str(p))
    assert r.score < r.max_score
    assert list(r.diagnoses) == ["skips the first example"], r.diagnoses
    shown = [t.output for t in r.tests if not t.passed and not t.hidden]
    assert any("likely mistake: skips the first example -- the reference re-run without the first example" in o
               for o in shown)


WM = '''def train(X, y, epochs=1, beta=0.5):
    w, mistakes = [1.0] * len(X[0]), 0
    for _ in range(epochs):
        for advice, label in zip(X, y):
            plus = sum(wi for wi, a in zip(w, advice) if a == 1)
            minus = sum(wi for wi, a in zip(w, advice) if a != 1)
            w = [wi * {beta} if a != label else wi for wi, a in zip(w, advice)]
            mistakes += (1 if plus >= minus else -1) != label
    return w, mistakes
'''

WM_SPEC = """[assignment]
algorithm = "weighted_majority"
module = "wm"
[contract]
penalty = 0.25
[contract.call]
args = ["X", "y"]
kwargs = { epochs = "T", beta = "beta" }
defaults = { beta = 0.5 }
[tests.one_example]
points = 1
[tests.several_epochs]
points = 1
[tests.default_arguments]
points = 1
[tests.random]
points = 2
"""


@pytest.mark.parametrize("beta,full", [("beta", True), ("0.5", False)])
def test_weighted_majority_penalty_is_the_courses(tmp_path, beta, full):
    (tmp_path / "wm.toml").write_text(WM_SPEC)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "wm.py").write_text(WM.format(beta=beta))
    from grading.spec.spec import load_spec
    spec = load_spec(str(tmp_path / "wm.toml"))
    assert spec.contract.penalty == 0.25
    r = grade_submission(spec, str(sub))
    assert (r.score == r.max_score) == full, [(t.kind, t.output) for t in r.tests if not t.passed]
    if not full:                 # 1/2 hard-coded: right only where the handout's default applies
        assert {t.kind for t in r.tests if t.passed} == {"default_arguments"} | (
            {"one_example"} if r.tests[0].passed else set())


def test_weighted_majority_penalty_is_checked(tmp_path):
    from grading.spec.spec import load_spec
    from learners.errors import InputError
    (tmp_path / "wm.toml").write_text(WM_SPEC.replace("penalty = 0.25", "penalty = 2"))
    with pytest.raises(InputError, match=r"contract.penalty must be in \(0, 1\)"):
        load_spec(str(tmp_path / "wm.toml"))
    (tmp_path / "p.toml").write_text('[assignment]\nalgorithm = "perceptron"\n[contract]\npenalty = 0.5\n'
                                     '[tests.one_example]\npoints = 1\n')
    with pytest.raises(InputError, match="contract.penalty is a Weighted Majority and Hedge option"):
        load_spec(str(tmp_path / "p.toml"))


DECAY = '''def train(X, y, epochs=1):
    w, b, t = [0.0] * len(X[0]), 0.0, 0
    for _ in range(epochs):
        for j, (x, lab) in enumerate(zip(X, y)):
            eta = 1.0 / (1 + {clock})
            if lab * (sum(p * q for p, q in zip(w, x)) + b) <= 0:
                w = [p + eta * lab * q for p, q in zip(w, x)]
                b += eta * lab
            t += 1
    return w, b
'''


@pytest.mark.parametrize("clock,full", [("t", True), ("j", False)])
def test_a_rate_decaying_by_time_step(tmp_path, clock, full):
    (tmp_path / "s.toml").write_text('[assignment]\nalgorithm = "perceptron"\n[contract]\nstep = "1/(t+1)"\n'
                                     '[tests.one_example]\npoints = 1\n[tests.several_epochs]\npoints = 1\n'
                                     '[tests.negative_fractional]\npoints = 1\n[tests.random]\npoints = 2\n')
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "perceptron.py").write_text(DECAY.format(clock=clock))
    r = grade_submission(str(tmp_path / "s.toml"), str(sub))
    assert (r.score == r.max_score) == full, [(t.kind, t.output) for t in r.tests if not t.passed]
    from grading.references.reference import reference_run
    from grading.spec.spec import load_spec
    run = reference_run(load_spec(str(tmp_path / "s.toml")).contract, [[1.0], [-1.0], [1.0]], [1, 1, -1], 2)
    from fractions import Fraction
    # t = 0, 1, 2 and 5 are mistakes, with rates 1, 1/2, 1/3 and 1/6
    assert [s.mistake for s in run.steps] == [True, True, True, False, False, True]
    assert run.weights == (Fraction(0),) and run.bias == 1


READS = '''import csv

with open("train.csv") as fh:
    START = [float(v) for v in next(csv.reader(fh))]


def train(X, y, epochs=1):
    w, b = [0.0] * len(X[0]), START[0] - 1.0        # the course's file holds 1.0: b starts at 0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(p * q for p, q in zip(w, x)) + b) <= 0:
                w = [p + t * q for p, q in zip(w, x)]
                b += t
    return w, b
'''


def test_a_module_that_reads_the_courses_data_file_on_import(tmp_path):
    (tmp_path / "train.csv").write_text("1.0,2.0\n")
    spec = tmp_path / "s.toml"
    spec.write_text('[assignment]\nalgorithm = "perceptron"\ndata_files = ["train.csv"]\n'
                    '[tests.one_example]\npoints = 1\n[tests.random]\npoints = 2\n')
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "perceptron.py").write_text(READS)
    (sub / "train.csv").write_text("9.0\n")            # the course's file wins over a submitted one
    r = grade_submission(str(spec), str(sub))
    assert r.score == r.max_score, [(t.kind, t.output) for t in r.tests if not t.passed]
    spec.write_text('[assignment]\nalgorithm = "perceptron"\n[tests.one_example]\npoints = 1\n')
    r = grade_submission(str(spec), str(sub))
    assert r.score == 0          # without the course's file, the submitted one is read: b starts at 8


def test_data_files_are_checked(tmp_path):
    from grading.spec.spec import load_spec
    from learners.errors import InputError
    spec = tmp_path / "s.toml"
    for bad, words in (('["../x.csv"]', "relative paths inside the spec's folder"), ('["none.csv"]', "cannot read")):
        spec.write_text(f'[assignment]\nalgorithm = "perceptron"\ndata_files = {bad}\n[tests.one_example]\npoints = 1\n')
        with pytest.raises(InputError, match=words):
            load_spec(str(spec))


MUTABLE = '''def train(X, y, epochs=1, w=[0.0] * 8, b=[0.0]):      # built once, shared by every call
    d = len(X[0])
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(w[j] * x[j] for j in range(d)) + b[0]) <= 0:
                for j in range(d):
                    w[j] += t * x[j]
                b[0] += t
    return list(w[:d]), b[0]
'''


def test_a_mutable_default_shared_by_calls_is_named_not_called_a_shuffle(tmp_path):
    p = tmp_path / "perceptron.py"
    p.write_text(MUTABLE)
    r = grade_submission("perceptron", str(p))
    assert r.score < r.max_score
    assert list(r.diagnoses) == ["state kept between calls"], r.diagnoses
    assert "a mutable default argument" in r.diagnoses["state kept between calls"]


USES_HELPER = '''def train(X, y, epochs=1):
    w, b = [0.0] * len(X[0]), 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            w, b = update(x, t, w, b)          # the course's helper, supplied by the grader
    return list(w), b
'''


def test_the_step_helper_is_supplied_under_the_courses_name(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('[assignment]\nalgorithm = "perceptron"\n[contract]\nstep_helper = "update"\nsupplied = ["update"]\n'
                    '[tests.one_example]\npoints = 1\n[tests.several_epochs]\npoints = 1\n[tests.random]\npoints = 2\n')
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "perceptron.py").write_text(USES_HELPER)
    r = grade_submission(str(spec), str(sub))
    assert r.score == r.max_score, [(t.kind, t.output) for t in r.tests if not t.passed]
    from grading.spec.spec import load_spec
    from learners.errors import InputError
    spec.write_text('[assignment]\nalgorithm = "perceptron"\n[contract]\nsupplied = ["update"]\n'
                    '[tests.one_example]\npoints = 1\n')
    with pytest.raises(InputError, match="step_helper rename them"):
        load_spec(str(spec))


TWICE = '''def _pm(y):
    return [2 * v - 1 for v in y]


def train(X, y, epochs=1):
    y = _pm(_pm(y))                      # converted twice: 1 -> 1, 0 -> -1 -> -3
    w, b = [0.0] * len(X[0]), 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(p * q for p, q in zip(w, x)) + b) <= 0:
                w = [p + t * q for p, q in zip(w, x)]
                b += t
    return w, b
'''


def test_labels_converted_twice_are_named(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('[assignment]\nalgorithm = "perceptron"\nlabels = "01"\n[tests.one_example]\npoints = 1\n'
                    '[tests.several_epochs]\npoints = 1\n[tests.negative_fractional]\npoints = 1\n'
                    '[tests.random]\npoints = 2\n')
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "perceptron.py").write_text(TWICE)
    r = grade_submission(str(spec), str(sub))
    assert r.score < r.max_score
    assert list(r.diagnoses) == ["label applied twice"], r.diagnoses
    (sub / "perceptron.py").write_text(TWICE.replace("_pm(_pm(y))", "_pm(y)"))
    r = grade_submission(str(spec), str(sub))
    assert r.score == r.max_score and r.diagnoses == {}
