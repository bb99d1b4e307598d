"""pandas inputs as the handout hands them out (``[contract] inputs = "pandas"``): X a DataFrame
with one column per feature (x0, x1, ...), y a Series; the shipped course grades its correct
solution full marks and its mistake below with the cause named; a submission that changes the
DataFrame in place is caught from the bytes the worker reports (the digest encodes the frame's
class, labels, row labels, dtypes, shape and values); a spec that hands out pandas without the package in
the sandbox is one line, exit 2."""
import json
import os
import subprocess
import sys

import pytest

from grading.running.grader import grade_submission
from grading.spec.spec import load_spec

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading", "examples")


@pytest.fixture(autouse=True)
def _pandas():
    try:
        import pandas  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("pandas is not installed, but CI grades the pandas course (pip install '.[test]')")
        pytest.skip("pandas not installed (pip install pandas)")


@pytest.mark.slow
def test_the_pandas_course_is_graded_as_handed_out():
    spec = load_spec("pandas_perceptron")
    ok = grade_submission(spec, os.path.join(EX, "pandas_perceptron", "correct"))
    assert ok.score == ok.max_score == 15, [(t.name, t.output) for t in ok.tests if not t.passed]
    bad = grade_submission(spec, os.path.join(EX, "pandas_perceptron", "bias_never_updated"))
    assert bad.score < bad.max_score and list(bad.diagnoses) == ["bias never updated"]


def test_a_frame_changed_in_place_is_seen(tmp_path):
    (tmp_path / "perceptron.py").write_text(
        "def train(X, y, epochs=1):\n"
        "    X.iloc[:, 0] = 0.0\n"
        "    return [0.0] * X.shape[1], 0.0\n")
    p = tmp_path / "s.toml"
    p.write_text('[assignment]\nalgorithm = "perceptron"\nmodule = "perceptron"\n[contract]\ninputs = "pandas"\n'
                 '[limits]\npackages = ["numpy", "pandas", "dateutil"]\n[tests.inputs_not_modified]\npoints = 1\n')
    r = grade_submission(load_spec(str(p)), str(tmp_path))
    assert r.score == 0 and "inputs modified" in r.diagnoses, r.tests[0].output


def test_the_digest_of_what_was_sent_is_the_frame_the_worker_built():
    import numpy as np
    from sandbox import _digest
    from sandbox._plan_child import pandas_input
    for name, v, kind in (("X", [[1.0, 2.0], [0.5, -1.0]], "frame:float"), ("y", [1, -1], "series:auto"),
                          ("y", [[True], [False]], "frame:auto"), ("X", [[1, 0, 1]], "frame:int")):
        shape, _, k = kind.rpartition(":")
        obj = pandas_input(np.array(v, dtype={"float": float, "int": np.int64}.get(k)), shape, name)
        assert _digest.sent(json.loads(json.dumps(v)), kind, name) == _digest.digest(obj)
        for other in (obj.astype(object), obj.rename(columns=lambda c: f"{c}!") if shape == "frame" else obj.rename("z"),
                      obj.rename(index=lambda i: i + 1),
                      obj.iloc[::-1] if len(obj) > 1 else obj * 2):
            assert _digest.digest(other) != _digest.digest(obj)


def test_pandas_inputs_need_pandas_in_the_sandbox(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('[assignment]\nalgorithm = "perceptron"\n[contract]\ninputs = "pandas"\n[tests.ties]\npoints = 1\n')
    r = subprocess.run([sys.executable, "-m", "mistakebound", "grade", "--check-spec", str(p)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "limits.packages" in r.stderr, r.stderr


def test_the_autograder_of_a_pandas_course_installs_pandas(tmp_path):
    import zipfile
    from grading.output.gradescope import build_autograder
    build_autograder("pandas_perceptron", str(tmp_path / "a.zip"))
    setup = zipfile.ZipFile(tmp_path / "a.zip").read("setup.sh").decode()
    assert 'install "$SRC/mistakebound[grading]"' in setup
    build_autograder("perceptron", str(tmp_path / "b.zip"))
    assert "[grading]" not in zipfile.ZipFile(tmp_path / "b.zip").read("setup.sh").decode()


def test_an_installed_package_carries_its_grading_extra(monkeypatch):
    """After a wheel install the archive's build file is written from the installed metadata:
    the grading extra (pandas) is kept, so that setup.sh's mistakebound[grading] installs it."""
    import tomllib
    from importlib import metadata
    from pathlib import PurePosixPath

    import grading.output.gradescope as gs
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    class F(PurePosixPath):
        def locate(self):
            return os.path.join(here, str(self))

    class Dist:
        files = [F("sandbox/_plan_child.py")]
        metadata = {"Name": "mistakebound", "Version": "0.1.0", "Requires-Python": ">=3.11"}
        requires = ["numpy>=1.26", 'pytest>=7.4; extra == "test"', 'pandas>=2.2; extra == "grading"']
    monkeypatch.setattr(metadata, "distribution", lambda name: Dist())
    text, files = gs._installed()
    doc = tomllib.loads(text)
    assert doc["project"]["dependencies"] == ["numpy>=1.26"]
    assert doc["project"]["optional-dependencies"] == {"grading": ["pandas>=2.2"]}
    Dist.requires = ["numpy>=1.26"]
    assert tomllib.loads(gs._installed()[0])["project"]["optional-dependencies"] == {"grading": []}
