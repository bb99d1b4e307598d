"""Grader behaviours a course relies on, each once wrong: a shuffling submission is told so in
every test (never that its defaults are wrong), the kernel perceptron's bias mistakes and the bias
left out of the activation are named, feedback speaks the handout's names, a misspelt module gets a
hint, --check-spec refuses like grade (exit 3, one line) where the sandbox cannot be set up, grading
leaves no .hypothesis/ behind, theory feedback has no timings and no isolation block, and the
built-in assignments take points for a wrong default and for quadratic work."""
import dataclasses
import os
import shutil
import subprocess
import sys

import pytest

from grading.running.grader import grade_submission
from grading.output.report import feedback_markdown
from grading.spec.spec import load_spec
from grading.references.synth import solution_files

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "grading", "examples")
MB = [sys.executable, "-m", "mistakebound"]


def _only(spec, *kinds):
    spec = load_spec(spec) if isinstance(spec, str) else spec
    spec.tests = [t for t in spec.tests if t.kind in kinds]
    assert {t.kind for t in spec.tests} == set(kinds)
    return spec


def _write(tmp_path, name, files):
    d = tmp_path / name
    d.mkdir()
    for f, data in files.items():
        (d / f).write_bytes(data)
    return str(d)


def test_a_shuffling_submission_is_told_so_in_every_test():
    spec = _only("perceptron", "ties", "several_epochs", "default_arguments", "random", "worst_case")
    r = grade_submission(spec, os.path.join(EX, "perceptron", "shuffled"))
    assert list(r.diagnoses) == ["data shuffled"]
    failed = [t for t in r.tests if not t.passed]
    assert failed
    for t in failed:
        assert "your defaults are not the handout's" not in t.output
        assert "cause: not named" not in t.output, (t.kind, t.output)
        assert "likely mistake: data shuffled" in t.output, (t.kind, t.output)


def _kernel_bias_spec(tmp_path):
    p = tmp_path / "kb.toml"
    p.write_text('[assignment]\nalgorithm = "kernel_perceptron"\nmodule = "kp"\n[contract]\nkernel_bias = true\n'
                 '[tests.one_example]\npoints = 1\n[tests.several_epochs]\npoints = 1\n[tests.random]\npoints = 2\n')
    return load_spec(str(p))


@pytest.mark.parametrize("alg,bug,cause", [
    ("kernel_perceptron", "bias_never_updated", "bias never updated"),
    ("kernel_perceptron", "bias_sign_flipped", "bias sign flipped"),
    ("kernel_perceptron", "bias_not_in_activation", "bias missing from the activation"),
    ("perceptron", "bias_not_in_activation", "bias missing from the activation"),
])
@pytest.mark.slow
def test_bias_mistakes_are_named(tmp_path, alg, bug, cause):
    spec = _kernel_bias_spec(tmp_path) if alg == "kernel_perceptron" else \
        _only("perceptron", "one_example", "several_epochs", "random")
    sub = _write(tmp_path, bug, solution_files(spec, bugs=[bug]))
    r = grade_submission(spec, sub)
    assert r.score < r.max_score and list(r.diagnoses) == [cause], r.diagnoses
    ok = _write(tmp_path, "ok", solution_files(spec))
    r = grade_submission(spec, ok)
    assert r.score == r.max_score


def test_feedback_speaks_the_handouts_names(tmp_path):
    text = open(os.path.join(ROOT, "grading", "assignments", "perceptron.toml")).read()
    text = text.replace('solution = "../examples/perceptron/correct"\n',
                        '\n[contract]\nnames = { weights = "theta", bias = "theta_0" }\n')
    p = tmp_path / "named.toml"
    p.write_text(text)
    spec = _only(load_spec(str(p)), "one_example", "several_epochs")
    r = grade_submission(spec, os.path.join(EX, "perceptron", "bias_never_updated"))
    out = "\n".join(t.output for t in r.tests)
    assert "expected: theta = [1, 2], theta_0 = 1" in out
    assert "theta_0 is 0, expected 1" in out
    assert "on a mistake update theta_0 += y as well as theta += y x" in out
    assert " w = [" not in out and ", b = " not in out


@pytest.mark.parametrize("name,why", [("Perceptron.py", "file names are case-sensitive")])
def test_a_misspelt_module_gets_a_hint(tmp_path, name, why):
    d = tmp_path / "sub"
    d.mkdir()
    (d / "notes.txt").write_text("hello\n")
    shutil.copy(os.path.join(EX, "perceptron", "correct", "perceptron.py"), d / name)
    r = grade_submission(_only("perceptron", "one_example"), str(d))
    assert r.score == 0
    assert f"found {name}; the handout's file is perceptron.py: " in r.note and why in r.note
    assert why in r.tests[0].output


def test_check_spec_refuses_like_grade_when_a_package_is_missing(tmp_path):
    p = tmp_path / "pkg.toml"
    p.write_text('[assignment]\nalgorithm = "perceptron"\n[limits]\npackages = ["numpy", "no_such_package_q7"]\n'
                 '[tests.one_example]\npoints = 1\n')
    sol = tmp_path / "sol"
    shutil.copytree(os.path.join(EX, "perceptron", "correct"), sol)
    for cmd in (["grade", "--check-spec", str(p), str(sol)], ["grade", "--assignment", str(p), str(sol),
                                                               "--out", str(tmp_path / "out")]):
        r = subprocess.run(MB + cmd, capture_output=True, text=True, timeout=300, cwd=str(tmp_path))
        assert r.returncode == 3, (cmd, r.stdout, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("mistakebound: error: ") and "no_such_package_q7" in lines[0]
        assert "Traceback" not in r.stderr and "internal error" not in r.stderr


@pytest.mark.slow
def test_grading_leaves_no_hypothesis_folder(tmp_path):
    cwd = tmp_path / "here"
    cwd.mkdir()
    p = tmp_path / "spec.toml"
    p.write_text('[assignment]\nalgorithm = "perceptron"\n[tests.random]\npoints = 1\n')
    r = subprocess.run(MB + ["grade", "--assignment", str(p), os.path.join(EX, "perceptron", "shuffled"),
                             "--out", "out", "--no-progress"], capture_output=True, text=True, timeout=300,
                       cwd=str(cwd))
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(cwd)) == ["out"]


def test_theory_feedback_has_no_timings_and_no_isolation_block(tmp_path):
    d = tmp_path / "t"
    d.mkdir()
    (d / "answers.toml").write_text("[kernel_poly]\nanswer = false\n[kernel_sq_dist]\nanswer = true\n")
    md = feedback_markdown(grade_submission("theory", str(d)))
    assert "incorrect: the engine's verdict is LEGAL" in md and "verdict: ILLEGAL" in md
    import re
    assert not re.search(r"^\(\d+(\.\d+)? m?s\)$", md, re.M), md
    assert "isolation unknown" not in md and "How your code was run" not in md
    assert "No code of yours ran" in md


def _default_epochs_2(tmp_path, assignment, module):
    src = open(os.path.join(EX, assignment, "correct", f"{module}.py")).read()
    assert "epochs=1" in src
    return _write(tmp_path, "dflt", {f"{module}.py": src.replace("epochs=1", "epochs=2").encode()})


@pytest.mark.parametrize("assignment", ["perceptron", "winnow", "kernel_perceptron"])
@pytest.mark.slow
def test_builtin_assignments_take_points_for_wrong_defaults_and_quadratic_work(tmp_path, assignment):
    spec = load_spec(assignment)
    kinds = {t.kind for t in spec.tests}
    assert {"default_arguments", "linear_time"} <= kinds
    small = _only(assignment, "one_example", "several_epochs", "default_arguments", "linear_time")
    r = grade_submission(small, _default_epochs_2(tmp_path, assignment, spec.module))
    by = {t.kind: t for t in r.tests}
    assert by["several_epochs"].passed and not by["default_arguments"].passed
    assert "your defaults are not the handout's" in by["default_arguments"].output
    r = grade_submission(small, _write(tmp_path, "quad", solution_files(spec, bugs=["quadratic"])))
    by = {t.kind: t for t in r.tests}
    assert by["one_example"].passed and not by["linear_time"].passed, by["linear_time"].output
    assert "super-linear" in by["linear_time"].output
    r = grade_submission(small, os.path.join(EX, assignment, "correct"))
    assert r.score == r.max_score, [(t.kind, t.output) for t in r.tests if not t.passed]
