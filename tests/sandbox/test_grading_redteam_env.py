"""Red team, the grader's environment and what leaks between submissions.

* Root without CAP_SYS_ADMIN (dropped from the bounding set, as in many containers), with and
  without user namespaces; an ordinary user (nobody) without a writable home: ``grade`` isolates
  with namespaces, or -- where none can be made -- at the container level (Landlock, seccomp, a
  uid of its own), or refuses with exit code 3 and one line when Landlock is missing too; a
  correct submission is never marked down.
* ``--insecure``: grading goes on and every report says, in the grader's words, what was missing.
* Leaks: a submission leaves its hidden inputs in every shared place it can think of (/run/lock,
  /tmp, /dev/shm, /var/tmp, SysV shared memory), a later one looks for them; one forges the
  worker's start-up and isolation messages to carry them back; one encodes them in its running
  time.  None of it reaches a report.
"""
import json
import math
import os
import shutil

import pytest

from grading_redteam_kit import (CHEAT, GOOD, IN_CI, IS_ROOT, grade, isolation_or_skip, landlock_abi, preexec,
                                 read_out, world_dir)
pytestmark = pytest.mark.slow       # minutes of work: not in the quick check (-m "not slow")

SMALL = """
[assignment]
algorithm = "perceptron"
[limits]
time_floor = 3.0
cpu_seconds = 10
[hypothesis]
max_examples = 3
[tests.one_example]
points = 1
[tests.hidden_random]
points = 1
hidden = true
"""
needs_root = pytest.mark.skipif(not IS_ROOT, reason="dropping CAP_SYS_ADMIN or becoming nobody needs root")


def _userns_possible() -> bool:
    try:
        return int(open("/proc/sys/user/max_user_namespaces").read()) > 0
    except (OSError, ValueError):
        return False


@pytest.fixture
def course():
    """Spec and submissions (good, cheat) in world-readable directories; out writable by anyone."""
    d = world_dir("/tmp", "course")
    spec = os.path.join(d, "spec.toml")
    open(spec, "w").write(SMALL)
    subs = []
    for name, src in (("good", GOOD), ("cheat", CHEAT)):
        p = os.path.join(d, f"{name}.py")
        open(p, "w").write(src)
        subs.append(p)
    for f in os.listdir(d):
        os.chmod(os.path.join(d, f), 0o644)
    numba = os.path.join(d, "numba-cache")
    os.mkdir(numba)
    os.chmod(numba, 0o777)
    yield {"dir": d, "spec": spec, "subs": subs, "out": os.path.join(d, "out"), "numba": numba}
    shutil.rmtree(d, ignore_errors=True)


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(HOME="/nonexistent", **extra)
    return env


def _refused(p, layer=None):
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 3 and len(lines) == 1 and "Traceback" not in p.stderr, p.stderr[-1500:]
    assert lines[0].startswith("mistakebound: error: "), lines
    if layer:
        assert f"'{layer}' cannot be set up" in lines[0], lines


def _fully_isolated(p, c, user_words):
    assert p.returncode == 0, p.stderr[-1500:]
    res, manifest, _ = read_out(c["out"])
    good, cheat = res["good"]["results"], res["cheat"]["results"]
    assert good["score"] == good["max_score"] == 2                      # never marked down
    assert cheat["score"] == 0 and "No module named 'learners'" in cheat["tests"][0]["output"]
    for r in res.values():
        assert "WITHOUT FULL ISOLATION" not in r["feedback"] + r["results"]["output"]
        assert "checked by the grader from outside" in r["feedback"] and user_words in r["feedback"]
        assert "no_new_privs and a seccomp filter" in r["feedback"]
        assert "own user, mount, pid, ipc, uts, net namespaces" in r["feedback"]


@needs_root
def test_redteam_root_without_cap_sys_admin_isolates_fully_or_refuses(course):
    c = course
    p = grade(["-a", c["spec"], "--out", c["out"]] + c["subs"], preexec=preexec(drop_sys_admin=True))
    if p.returncode == 3 and not _userns_possible():
        _refused(p, "namespaces")
        return
    _fully_isolated(p, c, "mapped to 1000 in a user namespace")


def _container_isolated(p, c, user_words):
    assert p.returncode == 0, p.stderr[-1500:]
    assert "graded at isolation level 'container'" in p.stderr
    res, manifest, _ = read_out(c["out"])
    good, cheat = res["good"]["results"], res["cheat"]["results"]
    assert good["score"] == good["max_score"] == 2                      # never marked down
    assert cheat["score"] == 0 and "No module named 'learners'" in cheat["tests"][0]["output"]
    for r in res.values():
        assert "WITHOUT FULL ISOLATION" not in r["feedback"] + r["results"]["output"]
        assert "isolation level: container" in r["results"]["output"]
        assert "isolation level container (no namespace can be made here" in r["feedback"]
        assert user_words in r["feedback"] and "Landlock ABI" in r["feedback"]
        assert "no_new_privs and a seccomp filter" in r["feedback"] and " namespaces;" not in r["feedback"]


needs_landlock = pytest.mark.skipif(not landlock_abi() and not IN_CI, reason="this kernel has no Landlock")


@needs_root
@needs_landlock
def test_redteam_root_without_cap_sys_admin_or_user_namespaces_grades_in_container_mode(course):
    c = course
    p = grade(["-a", c["spec"], "--out", c["out"]] + c["subs"],
              preexec=preexec(drop_sys_admin=True, block_userns=True))
    _container_isolated(p, c, "running as uid ")


@needs_root
def test_redteam_without_namespaces_or_landlock_refuses_with_exit_3(course):
    c = course
    p = grade(["-a", c["spec"], "--out", c["out"]] + c["subs"],
              preexec=preexec(drop_sys_admin=True, block_userns=True, no_landlock=True))
    _refused(p, "namespaces")
    assert "unshare(CLONE_NEWUSER): Operation not permitted" in p.stderr and "--insecure" in p.stderr
    assert "Landlock" in p.stderr
    assert not os.path.exists(c["out"])                                   # nothing written


@needs_root
@needs_landlock
def test_redteam_unprivileged_user_without_user_namespaces_grades_in_container_mode(course):
    """Ubuntu 24.04's default: an ordinary user, unprivileged user namespaces refused."""
    c = course
    p = grade(["-a", c["spec"], "--out", c["out"]] + c["subs"], preexec=preexec(nobody=True, block_userns=True),
              env=_env(NUMBA_CACHE_DIR=c["numba"]))
    if landlock_abi() < 6:
        _refused(p, "namespaces")
        return
    _container_isolated(p, c, "the grader's own uid (Landlock keeps its signals and sockets")


@needs_root
def test_redteam_unprivileged_user_without_writable_home_isolates_fully_or_refuses(course):
    """nobody, HOME=/nonexistent, no NUMBA_CACHE_DIR: the reference learner's compiled loops
    cannot use numba's cache (learners._jit compiles without it); the sandbox is a user namespace."""
    c = course
    p = grade(["-a", c["spec"], "--out", c["out"]] + c["subs"], preexec=preexec(nobody=True), env=_env())
    if not _userns_possible() and not IN_CI:
        _refused(p, "namespaces")
        assert not os.path.exists(c["out"])
        return
    _fully_isolated(p, c, "uid 1000 in a user namespace")


@needs_root
def test_redteam_unprivileged_user_is_fully_isolated(course):
    c = course
    p = grade(["-a", c["spec"], "--out", c["out"]] + c["subs"], preexec=preexec(nobody=True),
              env=_env(NUMBA_CACHE_DIR=c["numba"]))
    if not _userns_possible() and not IN_CI:
        _refused(p, "namespaces")
        return
    _fully_isolated(p, c, "uid 1000 in a user namespace")


@needs_root
def test_redteam_insecure_grades_and_every_report_says_what_was_missing(course):
    c = course
    env = _env(NUMBA_CACHE_DIR=c["numba"])
    args = ["-a", c["spec"], "--out", c["out"]] + c["subs"]
    p = grade(args, preexec=preexec(nobody=True, block_userns=True, no_landlock=True), env=env)
    _refused(p, "namespaces")
    p = grade(args + ["--insecure"], preexec=preexec(nobody=True, block_userns=True, no_landlock=True), env=env)
    assert p.returncode == 0, p.stderr[-1500:]
    assert "warning: graded with --insecure" in p.stderr
    res, _, _ = read_out(c["out"])
    warning = ("WARNING from the grader: WITHOUT FULL ISOLATION (the grader ran with --insecure): missing layers: "
               "filesystem view, namespaces, user.")
    for r in res.values():
        assert r["results"]["output"].startswith(warning), r["results"]["output"]
        assert "> **WARNING from the grader:** WITHOUT FULL ISOLATION" in r["feedback"]
    assert res["good"]["results"]["score"] == 2


# --- leaks between submissions -------------------------------------------------------------------
LEAK_PLACES = '''
import ctypes, os, sys, __main__
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
KEY = 0x4D42
PLACES = (("runlock", "/run/lock/mb-redteam-leak"), ("tmp", "/tmp/mb-redteam-leak"),
          ("shm", "/dev/shm/mb-redteam-leak"), ("vartmp", "/var/tmp/mb-redteam-leak"))
VISIBLE = [[1.0, 2.0]]
def _answer(X, y, epochs):
    w = [0.0] * len(X[0]); b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w = [a + t * c for a, c in zip(w, x)]; b += t
    return w, b
def _rid():
    f = sys._getframe(1)
    while f is not None:
        r = f.f_locals.get("req")
        if isinstance(r, dict) and "id" in r:
            return r["id"]
        f = f.f_back
'''
WRITER = LEAK_PLACES + '''
def train(X, y, epochs=1):
    tag = "LEAK:" + repr(X)
    codes = {}
    for k, p in PLACES:
        try:
            with open(p, "a") as fh:
                fh.write(tag + "\\n")
            codes[k] = 0
        except OSError as e:
            codes[k] = e.errno
    shmid = libc.shmget(KEY, 4096, 0o1666)
    addr = libc.shmat(shmid, None, 0) if shmid >= 0 else None
    if addr in (None, 2 ** 64 - 1):
        codes["sysv"] = ctypes.get_errno()
    else:
        data = tag.encode()[:4000] + b"\\0"
        ctypes.memmove(addr, data, len(data))
        codes["sysv"] = 0
    print("WRITE " + " ".join(f"{k}={v}" for k, v in codes.items()))
    return _answer(X, y, epochs)
'''
READER = LEAK_PLACES + '''
def train(X, y, epochs=1):
    found = {}
    for k, p in PLACES:
        try:
            found[k] = open(p).read()[:300]
        except OSError as e:
            found[k] = e.errno
    shmid = libc.shmget(KEY, 0, 0)
    if shmid < 0:
        found["sysv"] = ctypes.get_errno()
    else:
        found["sysv"] = ctypes.string_at(libc.shmat(shmid, None, 0)).decode(errors="replace")[:300]
    print("READ " + " ".join(f"{k}={v}" for k, v in found.items()))
    return _answer(X, y, epochs)
'''
FORGER = LEAK_PLACES + '''
def train(X, y, epochs=1):
    if X != VISIBLE:                     # a hidden input: try to carry it back through a restart
        tag = "LEAK:" + repr(X)
        __main__._send({"ready": True, "isolation": {"network": tag, "user": tag}})
        __main__._send({"armed": {"mode": tag, "user": tag}})
        __main__._send({"outer": {"pid": 2, "uid": 0, "mode": tag}})
        __main__._send({"id": _rid(), "error": "exception", "message": tag})
        os._exit(1)
    return _answer(X, y, epochs)
'''
SLEEPER = LEAK_PLACES + '''
import time
FIRST = []
def train(X, y, epochs=1):
    if not FIRST:
        FIRST.append(1)
        if X != VISIBLE:                 # the first call of the hidden tests' worker
            time.sleep(2.5)
    return _answer(X, y, epochs)
'''


@pytest.fixture(scope="module")
def leak_batch(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("leaks")
    spec = tmp / "spec.toml"
    spec.write_text(SMALL)
    isolation_or_skip(str(spec))
    paths = []
    for name, src in (("writer", WRITER), ("forger", FORGER), ("reader", READER), ("sleeper", SLEEPER),
                      ("good", GOOD)):
        p = tmp / f"{name}.py"
        p.write_text(src)
        paths.append(p)
    out = tmp / "out"
    p = grade(["-a", spec, "--out", out, "--jobs", "1"] + paths)        # one at a time, in this order
    assert p.returncode == 0, p.stderr[-1500:]
    return out


def _sysv_keys():
    try:
        return {int(line.split()[0]) for line in open("/proc/sysvipc/shm").readlines()[1:]}
    except OSError:
        return set()


def test_redteam_no_hidden_input_leaks_to_a_later_submission(leak_batch):
    res, manifest, rows = read_out(leak_batch)
    assert len(manifest) == len(rows) == 5
    for name, r in res.items():
        assert "LEAK" not in json.dumps(r["results"]) + r["feedback"], name
    write = next(ln for ln in res["writer"]["feedback"].splitlines() if ln.startswith("| WRITE "))
    assert write == "| WRITE runlock=2 tmp=30 shm=30 vartmp=2 sysv=0", write   # its own IPC namespace only
    read = next(ln for ln in res["reader"]["feedback"].splitlines() if ln.startswith("| READ "))
    assert read == "| READ runlock=2 tmp=2 shm=2 vartmp=2 sysv=2", read
    for place in ("/run/lock/mb-redteam-leak", "/tmp/mb-redteam-leak", "/dev/shm/mb-redteam-leak",
                  "/var/tmp/mb-redteam-leak"):
        assert not os.path.exists(place)
    assert 0x4D42 not in _sysv_keys()
    assert res["good"]["results"]["score"] == res["reader"]["results"]["score"] == 2


def test_redteam_forged_worker_messages_carry_nothing_back(leak_batch):
    res, _, _ = read_out(leak_batch)
    fb = res["forger"]["feedback"]
    assert "running as uid" in fb and "checked by the grader from outside" in fb
    r = res["forger"]["results"]
    assert r["tests"][0]["status"] == "passed" and r["tests"][1]["status"] == "failed"
    assert r["tests"][1]["output"] == "failed (hidden test: its input is not shown)"


def test_redteam_time_shown_to_the_student_excludes_the_hidden_tests(leak_batch):
    res, _, rows = read_out(leak_batch)
    seconds = {row["submission"]: float(row["seconds"]) for row in rows}       # the instructor's figure
    shown = res["sleeper"]["results"]["execution_time"]
    assert isinstance(shown, int) and seconds["sleeper"] >= 2.5
    assert shown <= math.ceil(seconds["sleeper"] - 2.5), (shown, seconds["sleeper"])   # the 2.5 s never shows
    assert res["sleeper"]["results"]["score"] == 2
