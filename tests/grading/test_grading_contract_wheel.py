"""grade --gradescope-zip from an installed package: the wheel built from this tree, installed in
a fresh virtual environment, builds an autograder archive that carries what it needs (the
modules, the shipped specs, the sandbox's child scripts, a pyproject.toml written from the
installed metadata) and grades in Gradescope's directory layout."""
import glob
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "grading", "examples")


@pytest.mark.slow
def test_gradescope_zip_from_a_wheel_install(tmp_path):
    src = tmp_path / "src"                      # a clean copy: no build artefacts left in the tree
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "build", ".hypothesis",
                                                             ".pytest_cache"))
    dist = tmp_path / "dist"
    # built as `pip install .` builds: in an isolated environment with the build system pyproject.toml names
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                        str(dist), str(src)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    wheel = glob.glob(str(dist / "mistakebound-*.whl"))[0]
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    assert "grading/assignments/perceptron.toml" in names and "sandbox/_plan_child.py" in names
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True,
                   timeout=300)
    py = str(venv / "bin" / "python")
    site = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies from this environment (a path line: its own .pth files, such as an editable
    # install of this package, are not processed)
    with open(os.path.join(site, "zz_deps.pth"), "w") as fh:
        fh.write(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # --ignore-installed: the environment on the path line may hold this very version (a regular
    # install, as CI's is): pip must still install the wheel here and leave that copy alone
    r = subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "--no-index", "--no-deps",
                        "--ignore-installed", "-q", wheel], capture_output=True, text=True, timeout=300, env=env)
    if r.returncode != 0 and "no such option: --python" in r.stderr:
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps",
                            "--ignore-installed", "-q", "--target", site, wheel],
                           capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    work = tmp_path / "elsewhere"
    work.mkdir()
    where = subprocess.run([py, "-c", "import grading, mistakebound; print(grading.__file__)"], capture_output=True,
                           text=True, env=env, cwd=str(work), timeout=120)
    assert where.stdout.strip().startswith(site), where.stdout + where.stderr     # the installed copy
    out = work / "autograder.zip"
    r = subprocess.run([py, "-m", "mistakebound", "grade", "--gradescope-zip", "perceptron", "--out", str(out)],
                       capture_output=True, text=True, env=env, cwd=str(work), timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        pyproject = z.read("mistakebound/pyproject.toml").decode()
        z.extractall(tmp_path / "autograder" / "source")
    for f in ("setup.sh", "run_autograder", "spec.toml", "mistakebound/sandbox/_plan_child.py",
              "mistakebound/grading/assignments/perceptron.toml", "mistakebound/learners/perceptron.py"):
        assert f in names, f
    assert not any("/examples/" in n for n in names)
    import tomllib
    meta = tomllib.loads(pyproject)
    assert meta["project"]["name"] == "mistakebound" and any(d.startswith("numpy") for d in
                                                             meta["project"]["dependencies"])
    ag = tmp_path / "autograder"
    shutil.copy(ag / "source" / "run_autograder", ag / "run_autograder")
    os.chmod(ag / "run_autograder", 0o755)
    shutil.copytree(os.path.join(EX, "perceptron", "correct"), ag / "submission")
    p = subprocess.run([str(ag / "run_autograder")], cwd=str(ag), capture_output=True, text=True, timeout=600,
                       env=dict(env, AUTOGRADER_ROOT=str(ag), MISTAKEBOUND_PYTHON=py))
    assert p.returncode == 0, p.stdout + p.stderr
    res = json.loads((ag / "results" / "results.json").read_text())
    assert res["score"] == res["max_score"] > 0, res["output"]
