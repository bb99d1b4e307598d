"""Red team: one submission's threads never cost another submission its grade.

RLIMIT_NPROC counts processes *and threads*.  A submission that starts threads until the limit
refuses more must meet its own limit only: a correct submission graded beside it at the same time
(``--jobs 2``), which itself starts a thread in every call, keeps full marks.  Run as an ordinary
user (nobody), where no control group can be created and the workers cannot get uids of their own
on the host."""
import json
import os
import shutil

import pytest

from grading_redteam_kit import GOOD, IN_CI, IS_ROOT, grade, preexec, read_out, world_dir

SPEC = """
[assignment]
algorithm = "perceptron"
[limits]
time_floor = 3.0
cpu_seconds = 10
memory_mb = 400
processes = 16
submission_seconds = 120
[hypothesis]
max_examples = 12
[tests.one_example]
points = 1
[tests.random]
points = 1
[tests.inputs_not_modified]
points = 1
[tests.hidden_random]
points = 1
hidden = true
"""
FULL = 4
# holds every thread it can get, for as long as its worker lives
BOMB = GOOD.replace("def train", "def _train") + '''
import threading
_hold = threading.Event()
_threads = []
def _grab():
    while True:
        try:
            t = threading.Thread(target=_hold.wait, daemon=True)
            t.start()
            _threads.append(t)
        except RuntimeError:
            return
_grab()
def train(X, y, epochs=1):
    _grab()
    return _train(X, y, epochs)
'''
# correct, and starts one thread per call (as code that computes in a helper thread does)
THREADED = GOOD.replace("def train", "def _train") + '''
import threading
def train(X, y, epochs=1):
    out = []
    t = threading.Thread(target=lambda: out.append(_train(X, y, epochs)))
    t.start()
    t.join()
    return out[0]
'''


def _userns_possible():
    try:
        return int(open("/proc/sys/user/max_user_namespaces").read()) > 0
    except (OSError, ValueError):
        return False


@pytest.mark.slow
@pytest.mark.skipif(not IS_ROOT, reason="becoming nobody needs root")
def test_redteam_a_thread_bomb_does_not_starve_the_submission_beside_it():
    if not _userns_possible() and not IN_CI:
        pytest.skip("user namespaces are switched off here: the grader refuses (tested elsewhere)")
    d = world_dir("/tmp", "nproc")
    numba = world_dir("/tmp", "numba")
    try:
        spec = os.path.join(d, "spec.toml")
        with open(spec, "w") as fh:
            fh.write(SPEC)
        paths = []
        for name, src in (("a_bomb", BOMB), ("b_threaded", THREADED), ("c_threaded", THREADED)):
            sub = os.path.join(d, name)
            os.mkdir(sub)
            with open(os.path.join(sub, "perceptron.py"), "w") as fh:
                fh.write(src)
            os.chmod(sub, 0o755)
            paths.append(sub)
        out = os.path.join(d, "out")
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(HOME="/nonexistent", NUMBA_CACHE_DIR=numba)
        p = grade(["-a", spec, "--out", out, "--jobs", "2", "--json"] + paths, preexec=preexec(nobody=True),
                  env=env, timeout=600)
        assert p.returncode == 0, p.stderr[-3000:]
        res = {r["submission"]: r for r in json.loads(p.stdout)["submissions"]}
        seen = read_out(out)[0]
        for name in ("b_threaded", "c_threaded"):
            assert res[name]["score"] == FULL, (name, res[name]["score"], res[name]["note"],
                                                [t["output"][:300] for t in seen[name]["results"]["tests"]])
    finally:
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(numba, ignore_errors=True)


def test_workers_that_would_share_one_budget_are_graded_one_at_a_time(tmp_path, monkeypatch):
    """Where the kernel counts the limit per host user (Linux before 5.14), two workers of one
    ordinary user would share it: the batch then grades one submission at a time and says why."""
    import grading.running.batch
    from grading.running.grader import grade_batch
    from sandbox import _nproc
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.replace("max_examples = 12", "max_examples = 2"))
    paths = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "perceptron.py").write_text(GOOD)
        paths.append(str(tmp_path / name))
    seen = []
    real = grading.running.batch.run_pool

    def pool(*a, **k):
        seen.append(k["jobs"])
        return real(*a, **k)
    monkeypatch.setattr(grading.running.batch, "run_pool", pool)
    monkeypatch.setattr(_nproc, "shared_budget", lambda *a, **k: "one budget for both (simulated)")
    results, caps = grade_batch(str(spec), paths, jobs=2)
    assert seen == [1] and caps["one_at_a_time"] == "one budget for both (simulated)"
    assert [r.score for r in results] == [FULL, FULL]
    monkeypatch.setattr(_nproc, "shared_budget", lambda *a, **k: None)
    seen.clear()
    results, caps = grade_batch(str(spec), paths, jobs=2)
    assert seen == [2] and "one_at_a_time" not in caps


@pytest.mark.skipif(not IS_ROOT, reason="becoming nobody needs root")
def test_the_budget_probe_as_an_ordinary_user_matches_the_kernel():
    """Linux 5.14 and later count RLIMIT_NPROC per user namespace: the probe finds each worker's
    budget its own there, and a shared one on older kernels."""
    import subprocess
    import sys
    from grading_redteam_kit import ROOT_DIR
    if not _userns_possible():
        pytest.skip("user namespaces are switched off here")
    p = subprocess.run([sys.executable, "-c", "from sandbox._nproc import shared_budget; print(shared_budget())"],
                       capture_output=True, text=True, preexec_fn=preexec(nobody=True), cwd=ROOT_DIR, timeout=120,
                       env=dict(os.environ, HOME="/nonexistent"))
    assert p.returncode == 0, p.stderr[-2000:]
    major, minor = (int(v) for v in os.uname().release.split(".")[:2])
    per_namespace = (major, minor) >= (5, 14)
    assert (p.stdout.strip() == "None") == per_namespace, (p.stdout, os.uname().release)


@pytest.mark.skipif(not IS_ROOT, reason="becoming nobody needs root")
def test_a_grader_whose_own_limit_cannot_hold_two_workers_grades_one_at_a_time():
    """Counted per user namespace, every worker's threads also count against the grader's own
    RLIMIT_NPROC: when it cannot hold two workers at once, one at a time."""
    import subprocess
    import sys
    from grading_redteam_kit import ROOT_DIR
    if not _userns_possible():
        pytest.skip("user namespaces are switched off here")
    code = ("import resource; from sandbox._nproc import shared_budget, _tasks_of_uid; import os; "
            "n = _tasks_of_uid(os.geteuid()); resource.setrlimit(resource.RLIMIT_NPROC, (n + 60, n + 60)); "
            "print(shared_budget(True, 2, 32)); print(shared_budget(True, 1, 32))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, preexec_fn=preexec(nobody=True),
                       cwd=ROOT_DIR, timeout=120, env=dict(os.environ, HOME="/nonexistent"))
    assert p.returncode == 0, p.stderr[-2000:]
    two, one = p.stdout.splitlines()
    major, minor = (int(v) for v in os.uname().release.split(".")[:2])
    assert "ulimit -u" in two or ((major, minor) < (5, 14) and "one at a time" in two), two
    assert one == "None" or (major, minor) < (5, 14), one
