"""grade --check-spec (every shipped spec passes; a spec that does not describe the course fails)
and grade --gradescope-zip (the archive's run_autograder runs end to end in Gradescope's
directory layout)."""
import concurrent.futures as cf
import json
import multiprocessing as mp
import os
import shutil
import stat
import subprocess
import sys
import zipfile

import pytest

from grading.running.checkspec import check_spec
from grading.output.report import RESULT_KEYS, TEST_KEYS
from grading.spec.spec import ASSIGNMENTS_DIR, assignment_names

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "grading", "examples")
MB = [sys.executable, "-m", "mistakebound"]


def _check(name):
    res = check_spec(name)
    return name, res.ok, res.text()


@pytest.mark.slow
def test_check_spec_passes_for_every_shipped_spec():
    names = assignment_names()
    assert len(names) >= 9
    with cf.ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context("forkserver")) as ex:
        outcomes = list(ex.map(_check, names))
    for name, ok, text in outcomes:
        assert ok, text
        assert "the course's solution" in text and "the suite's solution from the contract" in text


@pytest.mark.slow
def test_check_spec_fails_when_the_spec_is_not_the_courses(tmp_path):
    # the MIT-style course visits get_order(n)'s order; a spec that says "index" is wrong
    text = open(os.path.join(ASSIGNMENTS_DIR, "mit_perceptron.toml")).read()
    text = text.replace('order = "get_order"', 'order = "index"')
    text = text.replace('solution = "../examples/mit_perceptron/correct"',
                        f'solution = "{os.path.join(EX, "mit_perceptron", "correct")}"')
    text = text.replace("[tests.linear_time]\npoints = 1\n", "")
    spec = tmp_path / "wrong_order.toml"
    spec.write_text(text)
    r = subprocess.run(MB + ["grade", "--check-spec", str(spec)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "FAILED" in r.stdout and "the suite's solution from the contract: 17/17" in r.stdout
    assert "the course's solution" in r.stdout and "failed: " in r.stdout


@pytest.mark.slow
def test_gradescope_archive_runs_end_to_end(tmp_path):
    out = tmp_path / "autograder.zip"
    r = subprocess.run(MB + ["grade", "--gradescope-zip", "mit_perceptron", "--out", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "wrote" in r.stdout and out.exists()
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
        z.extractall(tmp_path / "autograder" / "source")
    for f in ("setup.sh", "run_autograder", "spec.toml", "mistakebound/pyproject.toml",
              "mistakebound/sandbox/_plan_child.py", "mistakebound/learners/perceptron.py"):
        assert f in names
    assert modes["run_autograder"] & stat.S_IXUSR and modes["setup.sh"] & stat.S_IXUSR
    assert not any("/examples/" in n for n in names)            # no solutions in the image
    assert subprocess.run(["bash", "-n", str(tmp_path / "autograder" / "source" / "setup.sh")]).returncode == 0
    # Gradescope's layout: /autograder/{run_autograder, source/, submission/, results/}
    ag = tmp_path / "autograder"
    shutil.copy(ag / "source" / "run_autograder", ag / "run_autograder")
    os.chmod(ag / "run_autograder", 0o755)
    results = {}
    for sample in ("correct", "index_order"):
        if (ag / "submission").exists():
            shutil.rmtree(ag / "submission")
        shutil.copytree(os.path.join(EX, "mit_perceptron", sample), ag / "submission")
        env = dict(os.environ, AUTOGRADER_ROOT=str(ag), MISTAKEBOUND_PYTHON=sys.executable)
        p = subprocess.run([str(ag / "run_autograder")], cwd=str(ag), env=env, capture_output=True, text=True,
                           timeout=300)
        assert p.returncode == 0, p.stdout + p.stderr
        results[sample] = json.loads((ag / "results" / "results.json").read_text())
    ok, bad = results["correct"], results["index_order"]
    for res in (ok, bad):
        assert set(RESULT_KEYS) <= set(res) and all(set(TEST_KEYS) <= set(t) for t in res["tests"])
    assert ok["score"] == ok["max_score"] == 18
    assert bad["score"] < bad["max_score"] and "likely mistake: visits data in a different order" in bad["output"]


def test_list_and_init(tmp_path):
    r = subprocess.run(MB + ["grade", "--list"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    for name in assignment_names():
        assert any(line.startswith(name + " ") for line in r.stdout.splitlines()), name
    assert "perceptron.py: train(X, y, epochs=T)" in r.stdout
    h = subprocess.run(MB + ["grade", "--help"], capture_output=True, text=True, timeout=120)
    flat = " ".join(h.stdout.split())
    assert "--list" in flat and "--init NAME" in flat and all(n in flat for n in assignment_names())
    out = tmp_path / "course.toml"
    r = subprocess.run(MB + ["grade", "--init", "mit_perceptron", "--out", str(out)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert text.startswith("# A grading spec for mistakebound grade") and "\nsolution =" not in text
    from grading.spec.spec import load_spec
    assert load_spec(str(out)).contract == load_spec("mit_perceptron").contract
    again = subprocess.run(MB + ["grade", "--init", "perceptron", "--out", str(tmp_path / "course2.toml")],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0
    bad = subprocess.run(MB + ["grade", "--init", "nope", "--out", str(tmp_path / "n.toml")], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 2 and "unknown assignment 'nope'" in bad.stderr and not (tmp_path / "n.toml").exists()
