"""Red team: one small attacking submission per way a hostile student has tried to break the grader,
graded together with correct submissions by the real ``mistakebound grade`` in one batch, each
outcome asserted exactly.  Goals: 0 forged scores, 0 grader faults, 0 lost results, 0 leaks; the
correct submissions keep full marks; every report within its cap."""
import json
import os
import re
import tarfile
import zipfile

import pytest

from grading_redteam_kit import CHEAT, GOOD, IS_ROOT, ROOT_DIR, grade, isolation_or_skip, read_out
pytestmark = pytest.mark.slow       # minutes of work: not in the quick check (-m "not slow")

SPEC = """
[assignment]
algorithm = "perceptron"
[limits]
time_floor = 2.0
cpu_seconds = 10
memory_mb = 512
processes = 16
submission_seconds = 60
[hypothesis]
max_examples = 3
[tests.one_example]
points = 1
[tests.ties]
points = 1
[tests.invariants]
points = 2
[tests.hidden_random]
points = 1
hidden = true
"""
FULL = 5

# the id of the request being answered, as a submission can find it (it runs in the same process)
REQ_ID = '''
import os, sys, __main__
def _rid():
    f = sys._getframe(1)
    while f is not None:
        r = f.f_locals.get("req")
        if isinstance(r, dict) and "id" in r:
            return r["id"]
        f = f.f_back
def _raw(data):
    os.write(__main__.RESP_FD, data)
    os._exit(0)
'''

ATTACKS = {
    # 1. one answer hangs the batch: a float-like string the grader once turned into a Fraction
    "forged_huge_exponent": REQ_ID + '''
def train(X, y, epochs=1):
    __main__._send({"id": _rid(), "ok": {"w": ["1e-999999999"] * len(X[0]), "b": "1e-999999999"}, "modified": False})
    os._exit(0)
''',
    "forged_float_literal": REQ_ID + '''
def train(X, y, epochs=1):
    _raw(b'{"id": %d, "ok": {"ret_n": 2, "ret_0": [1e-999999999, 1e-999999999], "ret_1": 1e999999999}, '
         b'"modified": false}\\n' % _rid())
''',
    # 2. crashes that were "grader error"
    "huge_integer": "def train(X, y, epochs=1):\n    return [10 ** 400] * len(X[0]), 0\n",
    "forged_huge_integer": REQ_ID + '''
def train(X, y, epochs=1):
    _raw(b'{"id": %d, "ok": {"w": [1%s], "b": 0}}\\n' % (_rid(), b"0" * 5000))
''',
    "not_an_object": REQ_ID + "def train(X, y, epochs=1):\n    _raw(b'[1, 2, 3]\\n')\n",
    "deep_json": REQ_ID + "def train(X, y, epochs=1):\n    _raw(b'[' * 200000 + b']' * 200000 + b'\\n')\n",
    "nan_bias": GOOD.replace("return w, b", "return w, float('nan')"),
    "inf_weights": "def train(X, y, epochs=1):\n    return [float('inf')] * len(X[0]), 0.0\n",
    # 3. unbounded output
    "huge_answer": REQ_ID + "def train(X, y, epochs=1):\n    _raw(b'[' + b'1,' * (15 << 20) + b'1]\\n')\n",
    "huge_vector": "def train(X, y, epochs=1):\n    return [0.5] * 40000, 0.0\n",
    "print_flood": "def train(X, y, epochs=1):\n    for _ in range(30000):\n        print('x' * 1023)\n",
    # 4. forged reports
    "forger": '''
def train(X, y, epochs=1):
    print("ALL TESTS PASSED (20/20)")
    print("**Score: 20 / 20**")
    print("```")
    print("## How your code was run")
    print("Each call ran in a separate sandboxed process (nothing); the expected answers never left the grader.")
    raise RuntimeError("ALL TESTS PASSED (20/20) Score: 20 / 20")
''',
    "control_chars": '''
def train(X, y, epochs=1):
    print("\\x1b[2J\\x1b[HScore: 20 / 20\\r\\u202e\\u2028ok\\x00")
    raise RuntimeError("\\x1b[2J\\rScore: 20 / 20\\u202eok\\u2029next")
''',
    # 8. / 9. the grader's own code, the course's solution, earlier results, other files
    "cheat_import": CHEAT,
    "cheat_read": '''
import json, os, sys
def _probe(path):
    try:
        if os.path.isdir(path):   # anything but the way to the Python installation the sandbox needs
            return int(any(not (sys.base_prefix + "/").startswith(os.path.join(path, e) + "/")
                           for e in os.listdir(path)))
        open(path, "rb").read(1)
        return 1
    except Exception:
        return 0
def train(X, y, epochs=1):
    t = json.load(open("targets.json"))
    found = {k: _probe(p) for k, p in sorted(t.items())}
    print("PROBE " + " ".join(f"{k}={v}" for k, v in found.items()))
    imports = {}
    for name in ("numpy", "scipy", "sklearn", "hypothesis", "numba", "learners", "sandbox", "grading", "mistakebound"):
        try:
            __import__(name)
            imports[name] = 1
        except ImportError:
            imports[name] = 0
    print("IMPORT " + " ".join(f"{k}={v}" for k, v in imports.items()))
    return [0.0] * len(X[0]), 0.0
''',
    # 10. no_new_privs and seccomp
    "syscalls": '''
import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)
def _sc(nr, *a):
    r = libc.syscall(nr, *a)
    return "ok" if r >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
def _sock(fam):
    try:
        socket.socket(fam, socket.SOCK_DGRAM if fam != 17 else socket.SOCK_RAW).close()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, "?")
def _exec():
    try:
        os.execv("/usr/bin/true", ["true"])
    except OSError as e:
        return errno.errorcode.get(e.errno, "?")
def train(X, y, epochs=1):
    x86 = os.uname().machine == "x86_64"
    nr = (lambda a, b: a if x86 else b)
    out = {"ptrace": _sc(nr(101, 117), 0, 0, 0, 0), "mount": _sc(nr(165, 40), b"none", b"/work", b"tmpfs", 0, 0),
           "keyctl": _sc(nr(250, 219), 0, -3, 0), "bpf": _sc(nr(321, 280), 0, 0, 0),
           "process_vm_readv": _sc(nr(310, 270), 1, 0, 0, 0, 0, 0), "unshare": _sc(nr(272, 97), 0x10000000),
           "setns": _sc(nr(308, 268), 0, 0), "inet": _sock(2), "inet6": _sock(10), "netlink": _sock(16),
           "packet": _sock(17), "unix": _sock(1), "execve": _exec()}
    nnp, mode = libc.prctl(39, 0, 0, 0, 0), libc.prctl(21, 0, 0, 0, 0)    # PR_GET_NO_NEW_PRIVS, PR_GET_SECCOMP
    print("SYSCALLS " + " ".join(f"{k}={v}" for k, v in out.items()) + f" nnp={nnp} seccomp={mode}")
    return [0.0] * len(X[0]), 0.0
''',
    # 6. disk fill: its own tmpfs only, and it still gets its grade
    "disk_fill": '''
import errno, os
DONE = []
def _fill():
    codes = {}
    n = 0
    try:
        while n < 200:
            with open(f"/work/fill{n}", "wb") as fh:
                fh.write(b"x" * (1 << 20))
            n += 1
    except OSError as e:
        codes["work"] = e.errno
    for k, p in (("tmp", "/tmp/fill"), ("shm", "/dev/shm/fill"), ("runlock", "/run/lock/fill")):
        try:
            open(p, "wb").write(b"x")
            codes[k] = 0
        except OSError as e:
            codes[k] = e.errno
    for i in range(n):
        os.unlink(f"/work/fill{i}")
    print("FILL " + " ".join(f"{k}={v}" for k, v in codes.items()))
''' + GOOD.replace("def train(X, y, epochs=1):\n", "def train(X, y, epochs=1):\n    if not DONE:\n"
                   "        DONE.append(1); _fill()\n"),
    # classic attacks
    "forkbomb": '''
import os, time
def train(X, y, epochs=1):
    made = refused = 0
    for _ in range(100):
        try:
            pid = os.fork()
        except OSError:
            refused += 1
            break
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        made += 1
    print(f"FORK made={made} refused={refused}")
    return [0.0] * len(X[0]), 0.0
''',
    "kill_parent": '''
import os, signal
def train(X, y, epochs=1):
    try:
        os.kill(-1, signal.SIGKILL)          # everything it may signal
    except OSError:
        pass
    os.kill(os.getppid(), signal.SIGKILL)    # its parent (0 in its PID namespace: its own group)
    os.kill(os.getpid(), signal.SIGKILL)     # itself (PID 1 of its namespace: ignored)
    return [0.0] * len(X[0]), 0.0
''',
    "lying_eq": '''
class Liar(list):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
def train(X, y, epochs=1):
    return Liar([9.0] * len(X[0])), 5.0
''',
    "hangs": "def train(X, y, epochs=1):\n    while True:\n        pass\n",
    "memory_hog": "def train(X, y, epochs=1):\n    hog = []\n    while True:\n"
                  "        hog.append(bytearray(50 << 20))\n",
    "ready_forgery": REQ_ID + '''
__main__._send({"ready": True, "isolation": {"network": "blocked", "user": "uid 0"}})
''' + GOOD,
}

# (expected score, a reason every failed visible test of it shows, or the note)
EXPECT = {
    "forged_huge_exponent": (0, "bad return value: w is not a number"),
    "forged_float_literal": (0, "w[0] is 0, expected 1"),
    "huge_integer": (0, "bad return value: «an integer in your answer is too large (|n| >= 2**63)»"),
    "forged_huge_integer": (0, "bad return value: a number in the answer has more than 19 digits"),
    "not_an_object": (0, "bad return value: the answer is not a JSON object"),
    "deep_json": (0, "bad return value: the answer is nested too deeply"),
    "nan_bias": (0, "bias is nan, expected 1"),
    "inf_weights": (0, "w[0] is inf, expected"),
    "huge_answer": (0, "bad return value: the answer is larger than 1 MiB"),
    "huge_vector": (0, "expected 2 numbers in w, got 40000 numbers"),
    "print_flood": (0, "output limit exceeded"),
    "forger": (0, "your code raised: «RuntimeError: ALL TESTS PASSED (20/20) Score: 20 / 20"),
    "control_chars": (0, "your code raised: «RuntimeError: \\x1b[2J (line"),
    "cheat_import": (0, "your code raised: «ModuleNotFoundError: No module named 'learners'"),
    "cheat_read": (0, "w[0] is 0, expected 1"),
    "syscalls": (0, "w[0] is 0, expected 1"),
    "disk_fill": (FULL, None),
    "forkbomb": (0, "w[0] is 0, expected 1"),
    "kill_parent": (0, "w[0] is 0, expected 1"),     # its kills reached nothing: it answered
    "lying_eq": (0, "w[0] is 9, expected 1"),
    "hangs": (0, "time limit exceeded"),
    "memory_hog": (0, "memory"),
    "ready_forgery": (0, "your module could not be loaded: the worker's ready message has unknown fields"),
}

ARCHIVES = {   # hostile archives: (expected note)
    "zip_long_names.zip": "contains a file name that is too long or too deep",
    "zip_slip.zip": "contains an unsafe path «../../evil.py»",
    "zip_absolute.zip": "contains an unsafe path «/etc/cron.d/evil.py»",
    "zip_bomb.zip": "is a compression bomb: the member «perceptron.py» declares",
    "zip_many_entries.zip": "is too large (max 200 files, 8 MB uncompressed, 1000 archive entries)",
    "tar_bomb.tar.gz": "is a compression bomb: its gzip stream of",
    "tar_symlink.tar": "no file perceptron.py in the submission",
}


def _archives(d):
    with zipfile.ZipFile(d / "zip_long_names.zip", "w") as z:
        z.writestr("a" * 300 + ".py", "x = 1")
        z.writestr("perceptron.py", GOOD)
    with zipfile.ZipFile(d / "zip_slip.zip", "w") as z:
        z.writestr("../../evil.py", "x = 1")
        z.writestr("perceptron.py", GOOD)
    with zipfile.ZipFile(d / "zip_absolute.zip", "w") as z:
        z.writestr("/etc/cron.d/evil.py", "x = 1")
    with zipfile.ZipFile(d / "zip_bomb.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("perceptron.py", b"#" * (20 << 20))
    with zipfile.ZipFile(d / "zip_many_entries.zip", "w") as z:
        for i in range(1500):
            z.writestr(f"d/f{i}.txt", "")
    import io
    with tarfile.open(d / "tar_bomb.tar.gz", "w:gz") as t:
        info = tarfile.TarInfo("perceptron.py")
        info.size = 20 << 20
        t.addfile(info, io.BytesIO(b"#" * info.size))
    with tarfile.open(d / "tar_symlink.tar", "w") as t:
        info = tarfile.TarInfo("perceptron.py")
        info.type = tarfile.SYMTYPE
        info.linkname = "/etc/passwd"
        t.addfile(info)


NAMES = {  # 7. name collisions: path -> good or bad (bad = label ignored)
    "x/alice.py": True, "y/alice.py": False, "alice.py": True, "alice-2.py": False, "summary.csv.py": True,
    "Alice.py": False, "manifest.csv.py": True,
}
BAD = GOOD.replace("w = [a + t * c", "w = [a + c").replace("b += t", "b += 1")


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("redteam")
    return make_batch(tmp)


def make_batch(tmp, preexec=None, skip_check=isolation_or_skip):
    """Every attack, hostile archive and name of this corpus, with a correct submission, graded in
    one batch by the real command (``preexec``: the restrictions it runs under)."""
    spec = tmp / "course" / "spec.toml"
    spec.parent.mkdir()
    spec.write_text(SPEC)
    if skip_check is not None:
        skip_check(str(spec))
    (spec.parent / "solution.py").write_text("SOLUTION = 'the course solution'\n")
    old = tmp / "old_results" / "alice"
    old.mkdir(parents=True)
    (old / "results.json").write_text('{"score": 20}')
    subs = tmp / "subs"
    subs.mkdir()
    paths = []
    for name, src in ATTACKS.items():
        d = subs / name
        d.mkdir()
        (d / "perceptron.py").write_text(src)
        paths.append(d)
    import site
    targets = {"solution": str(spec.parent / "solution.py"), "results": str(old / "results.json"),
               "grader": os.path.join(ROOT_DIR, "grading", "checks", "checks.py"), "spec": str(spec),
               "sitepackages": (site.getsitepackages() or [""])[0], "passwd": "/etc/passwd", "root": "/root",
               "home": "/home", "run": "/run", "subs": str(subs), "learners_src": os.path.join(ROOT_DIR, "learners")}
    (subs / "cheat_read" / "targets.json").write_text(json.dumps(targets))
    _archives(subs)
    paths += [subs / a for a in ARCHIVES]
    names_dir = tmp / "names"
    for rel, ok in NAMES.items():
        p = names_dir / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(GOOD if ok else BAD)
        paths.append(p)
    good = subs / "good"
    good.mkdir()
    (good / "perceptron.py").write_text(GOOD)
    paths.append(good)
    out = tmp / "out"
    before = _worker_pids()
    p = grade(["--assignment", spec, "--out", out, "--jobs", "2", "--json"] + paths, preexec=preexec)
    return {"proc": p, "out": out, "paths": paths, "tmp": tmp, "workers_before": before}


def _worker_pids():
    """This grader's worker processes (running its _child.py) that run as a per-worker uid."""
    from sandbox.worker import CHILD
    out = set()
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if CHILD.encode() not in fh.read():
                    continue
            with open(f"/proc/{pid}/status") as fh:
                for line in fh:
                    if line.startswith("Uid:") and int(line.split()[1]) >= 3_000_000 \
                            and not _under_another_test_worker(pid):
                        out.add(pid)
        except (OSError, ValueError):
            pass
    return out


def _under_another_test_worker(pid) -> bool:
    """Whether ``pid`` descends from another pytest-xdist worker of this run (its graders' workers
    are not this batch's).  An orphan -- reparented to init or a subreaper -- counts as this batch's."""
    me = os.environ.get("PYTEST_XDIST_WORKER")
    if not me:
        return False
    seen = set()
    while pid not in ("0", "1") and pid not in seen:
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                env = fh.read().split(b"\0")
            with open(f"/proc/{pid}/status") as fh:
                ppid = next(ln.split()[1] for ln in fh if ln.startswith("PPid:"))
        except (OSError, StopIteration):
            return False
        tag = next((e for e in env if e.startswith(b"PYTEST_XDIST_WORKER=")), None)
        if tag is not None:
            return tag != f"PYTEST_XDIST_WORKER={me}".encode()
        pid = ppid
    return False


@pytest.fixture(scope="module")
def graded(batch):
    p = batch["proc"]
    assert p.returncode == 0, p.stderr[-2000:]
    summary = json.loads(p.stdout)
    res, manifest, rows = read_out(batch["out"])
    return summary, res, manifest, rows


def test_redteam_goals_no_lost_result_no_grader_fault_no_forged_score(batch, graded):
    summary, res, manifest, rows = graded
    n = len(batch["paths"])
    assert summary["grader_faults"] == 0 and len(summary["submissions"]) == n
    assert len(manifest) == n and len(rows) == n and len({m["folder"] for m in manifest}) == n
    for m in manifest:                                  # 0 lost results
        r = res[m["folder"]]
        assert r["results"] is not None and r["feedback"] is not None, m
        assert "grader failed" not in json.dumps(r["results"]) and "grader error" not in r["feedback"]
    by = {s["submission"]: s for s in summary["submissions"]}
    assert by["good"]["score"] == by["good"]["max_score"] == FULL          # full marks, in the same batch
    for name, (score, _) in EXPECT.items():            # 0 forged scores
        if score is not None:
            assert by[name]["score"] == score, (name, by[name])
    for a in ARCHIVES:
        assert by[a.split(".")[0]]["score"] == 0


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_redteam_each_attack_gets_its_named_reason(graded, name):
    _, res, _, _ = graded
    score, reason = EXPECT[name]
    r = res[name]["results"]
    if reason is None:
        assert r["score"] == r["max_score"]
        return
    failed = [t["output"] for t in r["tests"] if t["status"] == "failed" and t["visibility"] == "visible"]
    assert failed, r
    assert all(reason in o for o in failed[:1]), (reason, failed)


@pytest.mark.parametrize("archive", sorted(ARCHIVES))
def test_redteam_hostile_archives_get_a_clear_error(graded, archive):
    _, res, _, _ = graded
    r = res[archive.split(".")[0]]["results"]
    assert r["score"] == 0 and ARCHIVES[archive] in r["output"], r["output"]


def test_redteam_reports_are_capped_and_student_text_is_quoted(graded):
    _, res, _, _ = graded
    for name, r in res.items():
        size_json, size_md = r["sizes"]
        assert 0 < size_json <= 1 << 20 and 0 < size_md <= 1 << 20, (name, r["sizes"])
        text = r["feedback"] + json.dumps(r["results"], ensure_ascii=False)
        bad = [c for c in text if (not c.isprintable()) and c != "\n"]
        assert bad == [], (name, bad[:5])                # no control or bidi character, no line separator
    fb = res["forger"]["feedback"]
    for line in fb.splitlines():                         # the student's lines are all marked as such
        if "20 / 20" in line or "ALL TESTS PASSED" in line or "How your code was run" in line \
                or "Each call ran" in line:
            assert line.startswith("| ") or "«" in line.split("20")[0] or line.startswith(
                ("## How your code was run", "Each call ran in a separate sandboxed process (own")), line
    assert fb.count("\n## How your code was run\n") == 1 and fb.count("**Score: 0 / 5**") == 1
    assert re.search(r"^`{4,}$", fb, re.M)             # the fence outgrew the student's ```
    out = res["print_flood"]["feedback"]
    assert "[the grader cut the output here: at most 40 lines, 4000 characters]" in out
    big = res["huge_vector"]["results"]
    assert all(len(t["output"]) <= 16 << 10 for t in big["tests"])
    assert "[the grader cut this text here" in json.dumps(big)


def test_redteam_nothing_outside_the_allow_list_is_visible(graded):
    _, res, _, _ = graded
    fb = res["cheat_read"]["feedback"]
    line = next(ln for ln in fb.splitlines() if ln.startswith("| PROBE "))
    probes = dict(kv.split("=") for kv in line[len("| PROBE "):].split())
    assert probes == {k: "0" for k in ("grader", "home", "learners_src", "passwd", "results", "root", "run",
                                       "sitepackages", "solution", "spec", "subs")}, line
    line = next(ln for ln in fb.splitlines() if ln.startswith("| IMPORT "))   # numpy only: [limits] packages
    assert line == ("| IMPORT numpy=1 scipy=0 sklearn=0 hypothesis=0 numba=0 learners=0 sandbox=0 grading=0 "
                    "mistakebound=0"), line


def test_redteam_seccomp_and_no_new_privs(graded):
    _, res, _, _ = graded
    fb = res["syscalls"]["feedback"]
    line = next(ln for ln in fb.splitlines() if ln.startswith("| SYSCALLS "))
    assert line == ("| SYSCALLS ptrace=EPERM mount=EPERM keyctl=EPERM bpf=EPERM process_vm_readv=EPERM "
                    "unshare=EPERM setns=EPERM inet=EAFNOSUPPORT inet6=EAFNOSUPPORT netlink=EAFNOSUPPORT "
                    "packet=EAFNOSUPPORT unix=ok execve=EPERM nnp=1 seccomp=2"), line


def test_redteam_disk_fill_stays_in_its_own_sandbox(graded):
    _, res, _, _ = graded
    fb = res["disk_fill"]["feedback"]
    line = next(ln for ln in fb.splitlines() if ln.startswith("| FILL "))
    assert line == "| FILL work=28 tmp=30 shm=30 runlock=2", line      # ENOSPC in its /work; EROFS; ENOENT
    assert not os.path.exists("/run/lock/fill")


def test_redteam_output_names_are_collision_free(batch, graded):
    _, res, manifest, _ = graded
    folder = {os.path.relpath(m["submission"], batch["tmp"]): m["folder"] for m in manifest}
    got = {rel: folder[os.path.join("names", rel)] for rel in NAMES}
    assert got == {"x/alice.py": "alice", "y/alice.py": "alice.2", "alice.py": "alice.3", "alice-2.py": "alice-2",
                   "summary.csv.py": "summary_csv", "Alice.py": "Alice.4", "manifest.csv.py": "manifest_csv"}
    for rel, ok in NAMES.items():                   # each folder holds that submission's own result
        r = res[got[rel]]["results"]
        assert (r["score"] == FULL) == ok, (rel, r["score"])
    out = batch["out"]
    assert os.path.isfile(out / "summary.csv") and os.path.isfile(out / "junit.xml")
    assert os.path.isfile(out / "manifest.csv")


@pytest.mark.skipif(not IS_ROOT, reason="per-worker uids exist only when the grader runs as root")
def test_redteam_no_process_survives_the_batch(batch, graded):
    import time
    time.sleep(0.3)
    assert _worker_pids() - batch["workers_before"] == set()


def test_redteam_classic_attacks_leave_the_grader_working(graded):
    _, res, _, _ = graded
    fb = res["forkbomb"]["feedback"]
    m = re.search(r"^\| FORK made=(\d+) refused=(\d+)$", fb, re.M)
    assert m and int(m.group(1)) < 16 and m.group(2) == "1", fb[-600:]     # RLIMIT_NPROC = 16
