"""Output formats, the command line, submission loading and spec validation."""
import csv
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

import pytest

from grading.output.report import RESULT_KEYS, TEST_KEYS
from grading.spec.spec import assignment_names, load_spec
from grading.spec.submission import load_submission
from learners.errors import InputError
pytestmark = pytest.mark.slow       # minutes of work: not in the quick check (-m "not slow")

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading", "examples")
MB = [sys.executable, "-m", "mistakebound"]
SMALL = """
[assignment]
algorithm = "perceptron"
[hypothesis]
max_examples = 5
[tests.one_example]
points = 1
[tests.ties]
points = 2
[tests.random]
points = 2
[tests.hidden_random]
points = 1
hidden = true
"""


def run(args, **kw):
    return subprocess.run(MB + args, capture_output=True, text=True, timeout=120, **kw)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("grade")
    spec = tmp / "small.toml"
    spec.write_text(SMALL)
    out = tmp / "out"
    zpath = tmp / "bob.zip"
    with zipfile.ZipFile(zpath, "w") as z:
        z.write(os.path.join(EX, "perceptron", "ties_not_mistakes", "perceptron.py"), "bob/perceptron.py")
    single = tmp / "carol.py"
    single.write_text(open(os.path.join(EX, "perceptron", "learning_rate", "perceptron.py")).read())
    p = run(["grade", "--assignment", str(spec), os.path.join(EX, "perceptron", "correct"), str(zpath),
             str(single), "--out", str(out), "--jobs", "2", "--json"])
    return p, out


def test_cli_runs_and_exits_0_whatever_the_scores(graded):
    p, out = graded
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    scores = {s["submission"]: s["score"] for s in summary["submissions"]}
    assert scores == {"correct": 6.0, "bob": scores["bob"], "carol": scores["carol"]}
    assert scores["bob"] < 6 and scores["carol"] < 6
    for n in ("correct", "bob", "carol"):
        assert (out / n / "results.json").exists() and (out / n / "feedback.md").exists()


def test_results_json_schema(graded):
    _, out = graded
    for n in ("correct", "bob", "carol"):
        r = json.loads((out / n / "results.json").read_text())
        assert set(r) == set(RESULT_KEYS)
        assert isinstance(r["score"], (int, float)) and isinstance(r["execution_time"], (int, float))
        assert r["score"] == sum(t["score"] for t in r["tests"]) and r["max_score"] == 6
        for i, t in enumerate(r["tests"], 1):
            assert set(t) == set(TEST_KEYS)
            assert t["status"] in ("passed", "failed") and t["number"] == str(i)
            assert t["visibility"] in ("hidden", "after_due_date", "after_published", "visible")
            assert isinstance(t["output"], str) and 0 <= t["score"] <= t["max_score"]


def test_summary_csv_and_junit(graded):
    _, out = graded
    rows = list(csv.DictReader(io.StringIO((out / "summary.csv").read_text())))
    assert [r["submission"] for r in rows] == ["correct", "bob", "carol"]
    assert rows[1]["mistakes"] == "ties not counted as mistakes" and rows[2]["mistakes"] == "learning rate"
    root = ET.fromstring((out / "junit.xml").read_text())
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["correct", "bob", "carol"]
    assert suites[0].get("failures") == "0" and int(suites[1].get("failures")) > 0
    assert suites[1].find("testcase/failure") is not None


def test_feedback_page_names_the_mistake(graded):
    _, out = graded
    md = (out / "carol" / "feedback.md").read_text()
    assert "learning rate" in md and "first departure" in md and "Score:" in md


def test_cli_misuse_exits_2(tmp_path):
    for args in (["grade", "--assignment", "nope", str(tmp_path), "--out", str(tmp_path / "o")],
                 ["grade", "--assignment", "perceptron", "--out", str(tmp_path / "o")],
                 ["grade", "--assignment", "perceptron", str(tmp_path / "missing"), "--out", str(tmp_path / "o")],
                 ["grade", "--assignment", "perceptron", str(tmp_path)],
                 ["grade", "--assignment", "perceptron", str(tmp_path), "--out", str(tmp_path / "o"), "--jobs", "0"]):
        p = run(args)
        assert p.returncode == 2, (args, p.stderr)
        assert p.stderr.startswith("mistakebound: error:") and "Traceback" not in p.stderr
        assert len(p.stderr.strip().splitlines()) == 1


def test_gradescope_layout(tmp_path):
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    (root / "submission" / "perceptron.py").write_text(
        open(os.path.join(EX, "perceptron", "correct", "perceptron.py")).read())
    spec = tmp_path / "small.toml"
    spec.write_text(SMALL)
    p = run(["grade", "--gradescope", "--gradescope-root", str(root), "--assignment", str(spec)])
    assert p.returncode == 0, p.stderr
    r = json.loads((root / "results" / "results.json").read_text())
    assert r["score"] == r["max_score"] == 6


def test_help():
    p = run(["grade", "--help"])
    assert p.returncode == 0 and "--assignment" in p.stdout and "--gradescope" in p.stdout


def test_zip_slip_and_bad_submissions(tmp_path):
    z = tmp_path / "evil.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("../../etc/evil.py", "x = 1")
        zf.writestr("perceptron.py", "x = 1")
    with pytest.raises(InputError, match="unsafe path"):
        load_submission(str(z), "perceptron")
    z2 = tmp_path / "abs.zip"
    with zipfile.ZipFile(z2, "w") as zf:
        zf.writestr("/tmp/abs.py", "x = 1")
    with pytest.raises(InputError, match="unsafe path"):
        load_submission(str(z2), "perceptron")
    bad = tmp_path / "notzip.zip"
    bad.write_text("no")
    with pytest.raises(InputError, match="not a valid zip"):
        load_submission(str(bad), "perceptron")
    d = tmp_path / "d"
    d.mkdir()
    (d / "perceptron.py").write_text("x = 1")
    os.symlink("/etc/passwd", d / "link.py")
    assert set(load_submission(str(d), "perceptron")) == {"perceptron.py"}


def test_shipped_specs_load_and_bad_specs_are_refused(tmp_path):
    assert {"perceptron", "perceptron_class", "winnow", "kernel_perceptron", "theory"} <= set(assignment_names())
    for n in assignment_names():
        s = load_spec(n)
        assert s.max_score > 0 and any(t.hidden for t in s.tests + s.theory)
    cases = {
        "[assignment]\nalgorithm = 'perceptron'\ntypo = 1\n[tests.ties]\n": "unknown key 'typo'",
        "[assignment]\nalgorithm = 'svm'\n[tests.ties]\n": "algorithm must be one of",
        "[assignment]\nalgorithm = 'perceptron'\n[tests.nosuch]\n": "unknown test 'nosuch'",
        "[assignment]\nalgorithm = 'perceptron'\nlabels = 'x'\n[tests.ties]\n": "labels must be",
        "[assignment]\nalgorithm = 'perceptron'\n[limits]\nmemory_mb = -1\n[tests.ties]\n": "positive",
        "[assignment\n": "not valid TOML",
    }
    for text, msg in cases.items():
        p = tmp_path / "s.toml"
        p.write_text(text)
        with pytest.raises(InputError, match=msg):
            load_spec(str(p))


def test_spec_options_labels_01_and_no_bias(tmp_path):
    from grading.running.grader import grade_submission
    spec = tmp_path / "s.toml"
    spec.write_text("""
[assignment]
algorithm = "perceptron"
bias = false
labels = "01"
[tests.several_epochs]
points = 1
[tests.ties]
points = 1
""")
    sub = tmp_path / "s01"
    sub.mkdir()
    (sub / "perceptron.py").write_text('''
def train(X, y, epochs=1):
    w = [0.0] * len(X[0])
    for _ in range(epochs):
        for x, t in zip(X, y):
            s = 1 if t == 1 else -1
            if s * sum(a * c for a, c in zip(w, x)) <= 0:
                w = [a + s * c for a, c in zip(w, x)]
    return w
''')
    r = grade_submission(str(spec), str(sub))
    assert r.score == r.max_score == 2, [t.output for t in r.tests]
