"""Red team: hidden tests that cannot be precomputed, no channel between submissions, a grader
that never blocks on a worker, budgets for a worker's whole process tree, bombs read by the
grader, checks decided outside the student's process, and student text that stays text.

Every attack is a submission graded by the real ``mistakebound grade`` in one batch beside a
correct one (as root; a subset again as root without CAP_SYS_ADMIN and as an unprivileged user,
where the machine allows), each outcome asserted: no forged score, no hidden input learned, no
stalled batch, no budget exceeded past its stated bound, no live markup, full marks for the
correct submission."""
import bz2
import io
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import time

import pytest

from grading_redteam_kit import GOOD, IN_CI, IS_ROOT, ROOT_DIR, grade, isolation_or_skip, preexec, read_out, world_dir

SPEC = """
[assignment]
algorithm = "perceptron"
[limits]
time_floor = 3.0
cpu_seconds = 5
memory_mb = 400
processes = 16
submission_seconds = 120
[hypothesis]
max_examples = 5
[tests.one_example]
points = 1
[tests.inputs_not_modified]
points = 1
[tests.random]
points = 1
[tests.linear_time]
points = 1
[tests.hidden_random]
points = 1
hidden = true
"""
FULL = 5
ANSWER = '''
import os, sys, time, __main__
def _answer(X, y, epochs):
    w = [0.0] * len(X[0]); b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w = [a + t * c for a, c in zip(w, x)]; b += t
    return w, b
'''
PROBER = ANSWER + r'''
import ctypes, errno, fcntl, mmap, struct
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
DONE = []
def _try(f):
    try:
        r = f()
        return "ok" if r in (None, 0) or (isinstance(r, int) and r >= 0) else str(ctypes.get_errno())
    except OSError as e:
        return str(e.errno)
def _c(r):
    if r < 0:
        raise OSError(ctypes.get_errno(), "")
    return r
def _probe():
    fd = os.open(os.__file__, os.O_RDONLY)     # shared read-only by every worker: the standard library
    lk = struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 1, 0)
    out = {
        "flock": _try(lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)),
        "lockf": _try(lambda: fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, 5)),
        "getlk": _try(lambda: fcntl.fcntl(fd, fcntl.F_GETLK, lk) and 0),
        "ofd": _try(lambda: fcntl.fcntl(fd, 37, lk) and 0),
        "lease": _try(lambda: fcntl.fcntl(fd, 1025)),
        "fadvise": _try(lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)),
        "readahead": _try(lambda: _c(libc.readahead(fd, ctypes.c_long(0), ctypes.c_size_t(4096)))),
        "inotify": _try(lambda: _c(libc.inotify_init1(0))),
        "preadv2": _try(lambda: os.preadv(fd, [bytearray(16)], 0, os.RWF_NOWAIT) and 0),
    }
    addr = libc.mmap(None, 4096, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    vec = ctypes.create_string_buffer(1)
    out["mincore"] = _try(lambda: _c(libc.syscall(27 if os.uname().machine == "x86_64" else 232,
                                                  ctypes.c_void_p(addr), ctypes.c_size_t(4096), vec)))
    out["willneed"] = _try(lambda: _c(libc.madvise(ctypes.c_void_p(addr), ctypes.c_size_t(4096), 3)))
    for name, nr in (("cachestat", 451), ("statmount", 457), ("listmount", 458), ("mseal", 462),
                     ("open_tree_attr", 467), ("future", 499)):
        out[name] = _try(lambda nr=nr: _c(libc.syscall(nr, 0, 0, 0, 0, 0)))
    st = os.fstat(1)
    import stat as S
    out["stdout"] = "fifo" if S.S_ISFIFO(st.st_mode) else "file"
    out["fchmod"] = _try(lambda: os.fchmod(1, 0o6777))
    print("PROBE " + " ".join(f"{k}={v}" for k, v in out.items()))
def train(X, y, epochs=1):
    if not DONE:
        DONE.append(1)
        _probe()
    return _answer(X, y, epochs)
'''
AHEAD = ANSWER + '''
import json, threading
def _flood():
    # answers to requests not yet sent, in one write (so that the answer the grader is waiting for
    # never arrives without those after it, however the two processes are scheduled); it never
    # reads a request again
    data = b"".join((json.dumps({"id": k, "ok": {"ret_n": 2, "ret_0": [0.0, 0.0], "ret_1": 0.0},
                                 "modified": False}) + "\\n").encode() for k in range(1, 3000))
    view = memoryview(data)
    while view:
        view = view[os.write(__main__.RESP_FD, view):]
def train(X, y, epochs=1):
    threading.Thread(target=_flood, daemon=True).start()
    time.sleep(1000)
'''
NONREADER = ANSWER + '''
import threading
def _tick(first):
    k = first
    while True:                      # one forged answer now and then; the requests are never read
        time.sleep(0.4)
        k += 1
        __main__._send({"id": k, "ok": {"ret_n": 2, "ret_0": [0.0] * 5, "ret_1": 0.0}, "modified": False})
def train(X, y, epochs=1):
    f = sys._getframe(1)
    while f is not None and not isinstance(f.f_locals.get("req"), dict):
        f = f.f_back
    threading.Thread(target=_tick, args=(f.f_locals["req"]["id"] - 1 if f else 0,), daemon=True).start()
    time.sleep(1000)
'''
HOG = ANSWER + '''
DONE = []
def _rss():
    total = 0
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:                         # proportional: a page shared after fork counted once
                for ln in open(f"/proc/{p}/smaps_rollup"):
                    if ln.startswith("Pss:"):
                        total += int(ln.split()[1]) * 1024
            except OSError:
                pass
    return total
def train(X, y, epochs=1):
    if not DONE:
        DONE.append(1)
        kids, err = 0, ""
        for _ in range(6):               # 6 x 150 MB against memory_mb = 400 for the whole tree
            try:
                pid = os.fork()
            except OSError as e:
                err = str(e.errno)
                break
            if pid == 0:
                try:
                    b = bytearray(150 << 20)
                    for i in range(0, len(b), 4096):
                        b[i] = 1
                except MemoryError:
                    pass
                time.sleep(30)
                os._exit(0)
            kids += 1
        time.sleep(2.0)
        print(f"HOG kids={kids} fork_error={err or 'none'} rss_mb={_rss() >> 20}")
    return _answer(X, y, epochs)
'''
SPINNER = ANSWER + '''
import threading
DONE = []
def _spin():
    while True:
        pass
def train(X, y, epochs=1):
    if not DONE:
        DONE.append(1)
        for _ in range(10):              # spinning children (threads where fork is refused), forever
            try:
                if os.fork() == 0:
                    _spin()
            except OSError:
                try:
                    threading.Thread(target=_spin, daemon=True).start()
                except RuntimeError:     # no more threads either: what runs already spins
                    break
    time.sleep(1.5)
    return _answer(X, y, epochs)
'''
THREAD_QUADRATIC = ANSWER + '''
import threading
def _quadratic(X, y, out):
    n, d = len(X), len(X[0])
    coef = [0.0] * n; b = 0.0
    for i in range(n):
        w = [sum(coef[j] * X[j][k] for j in range(i)) for k in range(d)]    # recomputed at every step
        if y[i] * (sum(a * c for a, c in zip(w, X[i])) + b) <= 0:
            coef[i] = y[i]; b += y[i]
    out.append(([sum(coef[j] * X[j][k] for j in range(n)) for k in range(d)], b))
def train(X, y, epochs=1):
    if epochs != 1:
        return _answer(X, y, epochs)
    out = []
    t = threading.Thread(target=_quadratic, args=(X, y, out))     # the main thread stays idle
    t.start(); t.join()
    return out[0]
'''
PADDER = ANSWER + '''
import numpy as np
def _quad(X, y, epochs):
    rows = np.tile(np.array(X, dtype=float), (epochs, 1)); ys = np.tile(np.array(y, dtype=float), epochs)
    w = np.zeros(rows.shape[1]); b = 0.0
    for i in range(len(rows)):
        np.sort(rows[:i + 1, 0])                 # pointless work over everything seen so far: super-linear
        if ys[i] * (float(w @ rows[i]) + b) <= 0:
            w = w + ys[i] * rows[i]; b += ys[i]
    return [float(v) for v in w], float(b)
_rng = np.random.default_rng(0)
_t0 = time.process_time()
_quad((_rng.integers(-8, 9, size=(4096, 5)) / 4).tolist(), _rng.choice([1, -1], size=4096).tolist(), 1)
FLOOR = 0.7 * (time.process_time() - _t0)      # every call burns at least 70% of the largest pass
def train(X, y, epochs=1):
    t0 = time.process_time()
    r = _quad(X, y, epochs)
    while time.process_time() - t0 < FLOOR:
        pass
    return r
'''
EQ_LIAR = ANSWER + '''
class Row(list):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    __hash__ = None
def train(X, y, epochs=1):
    r = _answer(X, y, epochs)
    for i in range(len(X)):
        X[i] = Row([0.0] * len(X[i]))       # zeroed, and every comparison says "equal"
    return r
'''
MARKUP = '''
raise ImportError("<h1>FULL MARKS</h1><img src=x onerror=alert(1)> [grade](http://evil.example) **20/20** "
                  "| a | b |\\n# Score: 20/20\\x1b[31m\\x07")
'''
ATTACKS = {"prober": PROBER, "ahead": AHEAD, "nonreader": NONREADER, "hog": HOG, "spinner": SPINNER,
           "thread_quadratic": THREAD_QUADRATIC, "padder": PADDER, "eq_liar": EQ_LIAR, "markup": MARKUP}
# Attacks on what the grading process decides on its own, from what it reads of the worker (a request
# never read, waited out by the grader's clock; a fixed cost measured against the pass): the worker's
# privileges play no part, so the runs with fewer privileges leave them out (about half of a batch's
# wall time: each one waits out its time limits).  The attacks on the isolation itself (channels,
# budgets of the process tree, CPU time of threads, inputs, text) run in every batch.
GRADER_SIDE = ("nonreader", "padder")
# ... and what the grader reads and writes on its own side whatever the worker's privileges (an
# edit seen on the grader's copy of the inputs, student text kept inert in every report and file
# name, the two archive bombs refused while reading the submission -- "bomb" leaves out both): once,
# in the batch as root
TEXT_AND_ARCHIVES = ("eq_liar", "markup", "esc_2J", "bomb")


def _cases(spec_path, seed, scale):
    """The inputs the grader generates for ``seed`` (its own code) with the reference's answers."""
    from grading.checks.checks import Grader
    from grading.spec.spec import load_spec
    from sandbox.worker import Worker
    spec = load_spec(str(spec_path))
    g = Grader(spec, lambda: Worker({}, spec.module, spec.limits))
    out = {}
    for X, y, e in g.generated_cases(seed, scale):
        a = g.problem.expected(X, y, e)
        out[_key(X, y, e)] = ([float(v) for v in a.w], float(a.b or 0))
    return out


def _key(X, y, e):
    return repr(([[float(v) for v in r] for r in X], [int(t) for t in y], int(e)))


def table_submission(spec_path, hidden_seeds):
    """Precomputed answers: the visible random inputs (a fixed seed anyone can run) and the hidden
    inputs of every seed the attacker can think of; no learner at all."""
    from grading.checks.checks_differential import SEED_VISIBLE
    table = _cases(spec_path, SEED_VISIBLE, 1)
    for s in hidden_seeds:
        table.update(_cases(spec_path, s, 2))
    return (f"TABLE = {table!r}\n"
            "def train(X, y, epochs=1):\n"
            "    k = repr(([[float(v) for v in r] for r in X], [int(t) for t in y], int(epochs)))\n"
            "    return TABLE.get(k, ([0.0] * len(X[0]), 0.0))\n")


def _bombs(d):
    """A bzip2 tar whose pax header holds 64 MiB (a few KB on disk), and one whose header says 1 GiB."""
    body = b"def train(X, y, epochs=1):\n    return [0.0] * len(X[0]), 0.0\n"
    comp = bz2.BZ2Compressor(9)
    size = 64 << 20
    rec_len = size
    hdr = tarfile.TarInfo("PaxHeaders/perceptron.py")
    hdr.type, hdr.size = tarfile.XHDTYPE, rec_len
    parts = [comp.compress(hdr.tobuf(tarfile.USTAR_FORMAT))]
    line = f"{rec_len} comment=".encode()
    parts.append(comp.compress(line))
    chunk = b"a" * (1 << 20)
    left = rec_len - len(line) - 1
    while left > 0:
        parts.append(comp.compress(chunk[:min(left, len(chunk))]))
        left -= len(chunk)
    parts.append(comp.compress(b"\n"))
    m = tarfile.TarInfo("perceptron.py")
    m.size = len(body)
    parts.append(comp.compress(m.tobuf(tarfile.USTAR_FORMAT) + body + bytes(512 - len(body)) + bytes(1024)))
    parts.append(comp.flush())
    with open(os.path.join(d, "bomb.tar"), "wb") as fh:
        fh.write(b"".join(parts))
    liar = tarfile.TarInfo("PaxHeaders/x")
    liar.type, liar.size = tarfile.XHDTYPE, 1 << 30
    with open(os.path.join(d, "liar.tar"), "wb") as fh:
        fh.write(bz2.compress(liar.tobuf(tarfile.USTAR_FORMAT) + b"30 comment=aaaaaaaaaaaaaaaaaa\n"))


def _write_course(d, with_table=True, leave_out=()):
    spec = os.path.join(d, "spec.toml")
    open(spec, "w").write(SPEC)
    paths = []
    for name, src in [("good", GOOD)] + [(k, v) for k, v in ATTACKS.items() if k not in leave_out]:
        sub = os.path.join(d, "subs", name)
        os.makedirs(sub)
        open(os.path.join(sub, "perceptron.py"), "w").write(src)
        paths.append(sub)
    if with_table:
        p = os.path.join(d, "subs", "table.py")
        open(p, "w").write(table_submission(spec, [7340033, 0, 1, 42, 20260101]))
        paths.append(p)
    if "esc_2J" not in leave_out:
        esc = os.path.join(d, "subs", "esc\x1b[2J\x07.py")            # a file name with terminal escapes
        open(esc, "w").write(GOOD)
        paths.append(esc)
    here = os.path.realpath(ROOT_DIR)          # a folder called like the grader's own directory
    if here.startswith("/work/"):
        sub = os.path.join(d, "subs", "mirror")
        os.makedirs(os.path.join(sub, os.path.relpath(here, "/work")))
        open(os.path.join(sub, os.path.relpath(here, "/work"), "notes.txt"), "w").write("mine\n")
        open(os.path.join(sub, "perceptron.py"), "w").write(GOOD)
        paths.append(sub)
    if "bomb" not in leave_out:
        _bombs(os.path.join(d, "subs"))
        paths += [os.path.join(d, "subs", "bomb.tar"), os.path.join(d, "subs", "liar.tar")]
    for root, dirs, files in os.walk(d):
        for n in dirs:
            os.chmod(os.path.join(root, n), 0o755)
        for n in files:
            os.chmod(os.path.join(root, n), 0o644)
    return spec, paths


def _run(tmp_root, pre=None, env=None, with_table=True, leave_out=(), jobs=2):
    d = world_dir(tmp_root, "channels")
    spec, paths = _write_course(d, with_table, leave_out)
    out = os.path.join(d, "out")
    t0 = time.monotonic()
    p = grade(["-a", spec, "--out", out, "--jobs", str(jobs), "--json"] + paths, preexec=pre, env=env, timeout=900)
    return {"proc": p, "out": out, "dir": d, "seconds": time.monotonic() - t0, "paths": paths}


@pytest.fixture(scope="module")
def batch():
    spec_dir = world_dir("/tmp", "channels-probe")
    spec = os.path.join(spec_dir, "spec.toml")
    open(spec, "w").write(SPEC)
    isolation_or_skip(spec)
    shutil.rmtree(spec_dir, ignore_errors=True)
    b = _run("/tmp")
    yield b
    shutil.rmtree(b["dir"], ignore_errors=True)


def _tests(results):
    return {t["name"]: t for t in results["tests"]}


def _outside_fences(md):
    out, fence = [], None
    for ln in md.splitlines():
        m = re.match(r"^(`{3,})", ln)
        if m and (fence is None or m.group(1) == fence):
            fence = None if fence else m.group(1)
            continue
        if fence is None:
            out.append(ln)
    return "\n".join(out)


def check_batch(b, *, cgroup):
    p = b["proc"]
    assert p.returncode == 0, p.stderr[-3000:]
    summary = json.loads(p.stdout)
    assert summary["grader_faults"] == 0
    res, manifest, rows = read_out(b["out"])
    by = {s["submission"]: s for s in summary["submissions"]}
    assert len(manifest) == len(rows) == len(b["paths"])
    # the correct submissions keep full marks, whatever ran beside them
    for name in ("good",) + tuple(n for n in ("esc_2J", "mirror") if n in by):
        assert by[name]["score"] == FULL, (name, [t["output"] for t in res[name]["results"]["tests"]
                                                  if t["status"] != "passed"])
    # every report states the budgets of the worker's whole process tree
    for name, r in res.items():
        if by[name]["note"].startswith("submission not graded"):
            continue
        words = ("for all its processes together (a control group of its own)" if cgroup else
                 "one process only (fork refused")
        assert words in r["feedback"], (name, r["feedback"][-800:])
    # 1. precomputed answers: the visible random inputs are fixed, the hidden ones are not
    if "table" in by:
        t = _tests(res["table"]["results"])
        assert t["agrees with the reference on random data"]["status"] == "passed"      # the table works...
        assert t["hidden tests"]["score"] == 0                                          # ...not on hidden ones
    # 2. no channel: every lock, watch and page-cache probe on a shared file is refused
    probe = next(ln for ln in res["prober"]["feedback"].splitlines() if ln.startswith("| PROBE "))
    got = dict(kv.split("=") for kv in probe[len("| PROBE "):].split())
    for k in ("flock", "lockf", "getlk", "ofd", "lease", "fadvise", "readahead", "inotify", "mincore", "willneed"):
        assert got[k] == "1", (k, probe)                                 # EPERM
    assert got["preadv2"] in ("38", "95"), probe                        # ENOSYS (or the C library's EOPNOTSUPP)
    for k in ("cachestat", "statmount", "listmount", "mseal", "open_tree_attr", "future"):
        assert got[k] == "38", (k, probe)                                # above the filter's ceiling: ENOSYS
    assert got["stdout"] == "fifo" and got["fchmod"] in ("ok", "1"), probe   # a pipe: no host file to chmod
    assert by["prober"]["score"] == FULL, [t["output"] for t in res["prober"]["results"]["tests"]
                                           if t["status"] != "passed"]
    # 3. a worker that answers ahead or never reads costs only itself
    ahead = json.dumps(res["ahead"]["results"])
    assert "protocol violation" in ahead and by["ahead"]["score"] == 0
    if "nonreader" in by:
        assert by["nonreader"]["score"] == 0
    # 4. budgets for the whole tree
    hog = next((ln for ln in res["hog"]["feedback"].splitlines() if ln.startswith("| HOG ")), None)
    if hog is None:        # the kernel's OOM killer chose the worker itself: the limit held
        assert cgroup and "memory limit reached (464 MB for all its processes together)" in json.dumps(
            res["hog"]["results"]), res["hog"]["feedback"][-2000:]
        hog = "| HOG kids=6 fork_error=none rss_mb=0"
    h = dict(kv.split("=") for kv in hog[len("| HOG "):].split())
    if cgroup:
        assert int(h["rss_mb"]) <= 464 + 8, hog             # 400 + /work 32 + 32: the tree's stated bound
    else:
        assert h["kids"] == "0" and h["fork_error"] == "1", hog          # one process only
    spin = json.dumps(res["spinner"]["results"])
    if cgroup:
        assert "CPU time limit exceeded (5 s for all its processes together)" in spin, spin[:3000]
    else:       # threads of one process: RLIMIT_CPU (the kernel's) or the wall clock ends it, whichever first
        assert any(k in spin for k in ("CPU time limit exceeded (5 s)", "time limit exceeded (", "crash: ")), spin[:3000]
    # 6. checks decided outside the student's process
    if "eq_liar" in by:
        assert _tests(res["eq_liar"]["results"])["inputs are not modified"]["status"] == "failed"
    lt = "each pass costs linear time (grows like the reference as n doubles)"
    assert _tests(res["thread_quadratic"]["results"])[lt]["status"] == "failed"
    assert "super-linear" in _tests(res["thread_quadratic"]["results"])[lt]["output"]
    if "padder" in by:
        pad = _tests(res["padder"]["results"])[lt]
        assert pad["status"] == "failed" and "super-linear" in pad["output"], pad["output"]
    # 5. bombs: a clear 0 with the reason
    if "bomb" in by:
        assert by["bomb"]["score"] == 0 and "compression bomb" in by["bomb"]["note"], by["bomb"]["note"]
        assert by["liar"]["score"] == 0 and "lies" in by["liar"]["note"], by["liar"]["note"]
    # 7. student text is inert everywhere
    if "markup" in by:
        fb = res["markup"]["feedback"]
        outside = _outside_fences(fb)
        for live in ("<h1>", "<img", "](http", "**20/20**", "# Score", "\x1b", "\x07"):
            assert live not in outside, (live, outside)
        assert "FULL MARKS" in fb and by["markup"]["score"] == 0
        rj = res["markup"]["results"]
        assert rj["output_format"] == rj["test_output_format"] == rj["test_name_format"] == "text"
        assert "\x1b" not in json.dumps(rj, ensure_ascii=False) and "\x07" not in json.dumps(rj, ensure_ascii=False)
    for f in ("manifest.csv", "summary.csv", "junit.xml"):
        raw = open(os.path.join(b["out"], f), encoding="utf-8").read()
        assert "\x1b" not in raw and "\x07" not in raw, f
    assert "\x1b" not in p.stdout + p.stderr
    # 8. no file the workers could reach was left with special bits
    for root, dirs, files in os.walk(b["out"]):
        for n in dirs + files:
            assert not os.stat(os.path.join(root, n)).st_mode & 0o6000, n
    return by


@pytest.mark.slow
def test_redteam_channels_as_root(batch):
    by = check_batch(batch, cgroup=IS_ROOT and _cgroups())
    # the whole corpus ran here: the grader-side attacks the runs with fewer privileges leave out too
    assert set(ATTACKS) | {"good", "esc_2J", "bomb", "liar", "table"} <= set(by), sorted(by)


@pytest.mark.slow
def test_redteam_batch_is_never_stalled(batch):
    # one stalling submission costs its own budget, never the batch's: the whole batch ends in time
    assert batch["seconds"] < 600


def _cgroups():
    from sandbox import _cgroup
    g, _ = _cgroup.create(64 << 20, 8)
    if g is None:
        return False
    g.remove()
    return True


SEED_SPEC = """
[assignment]
algorithm = "perceptron"
[limits]
time_floor = 3.0
[hypothesis]
max_examples = 3
[tests.random]
points = 1
[tests.hidden_random]
points = 1
hidden = true
"""


@pytest.mark.slow
def test_redteam_hidden_seed_is_secret_fresh_and_reproducible(tmp_path):
    """With the instructor's seed the hidden inputs are reproducible -- and a table built for that
    very seed passes them: the seed, kept out of everything students see, is what protects them."""
    d = world_dir("/tmp", "seed")
    try:
        spec = os.path.join(d, "spec.toml")
        open(spec, "w").write(SEED_SPEC)
        isolation_or_skip(spec)
        from grading.spec.spec import hidden_seed
        seed = hidden_seed({"MISTAKEBOUND_HIDDEN_SEED": "course secret 2026"})[0]
        assert seed == hidden_seed({"MISTAKEBOUND_HIDDEN_SEED": "course secret 2026"})[0]
        assert hidden_seed({})[0] != hidden_seed({})[0]                  # fresh per run by default
        sub = os.path.join(d, "knows_seed.py")
        open(sub, "w").write(table_submission(spec, [seed]))
        seedfile = os.path.join(d, "seed.txt")
        open(seedfile, "w").write("course secret 2026\n")
        env = {k: v for k, v in os.environ.items() if k != "MISTAKEBOUND_HIDDEN_SEED"}
        runs = {"o1": dict(env, MISTAKEBOUND_HIDDEN_SEED="course secret 2026"),     # the seed in the environment
                "o2": dict(env, MISTAKEBOUND_HIDDEN_SEED_FILE=seedfile),            # ... in a file
                "o3": env,                                                         # no seed given: fresh
                "o4": dict(env, MISTAKEBOUND_HIDDEN_SEED_FILE=os.path.join(d, "missing"))}
        procs = {k: subprocess.Popen([sys.executable, "-m", "mistakebound", "grade", "--no-progress", "-a", spec,
                                      "--out", os.path.join(d, k), sub], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=e, cwd=ROOT_DIR)
                 for k, e in runs.items()}                 # four independent runs at once
        out = {k: (p.communicate(timeout=300), p.returncode) for k, p in procs.items()}
        assert out["o1"][1] == 0, out["o1"][0][1][-2000:]
        r = json.load(open(os.path.join(d, "o1", "knows_seed", "results.json")))
        assert _tests(r)["hidden tests"]["score"] == 1                    # the seed decides
        assert json.load(open(os.path.join(d, "o2", "knows_seed", "results.json")))["tests"][-1]["score"] == 1
        assert json.load(open(os.path.join(d, "o3", "knows_seed", "results.json")))["tests"][-1]["score"] == 0
        (_, err), rc = out["o4"]
        assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_redteam_the_grader_reads_a_bomb_in_bounded_memory(tmp_path):
    d = world_dir("/tmp", "bomb")
    try:
        _bombs(d)
        open(os.path.join(d, "spec.toml"), "w").write(SPEC)
        code = ("import resource, subprocess, sys\n"
                f"p = subprocess.run([sys.executable, '-m', 'mistakebound', 'grade', '--no-progress', '-a', "
                f"{os.path.join(d, 'spec.toml')!r}, '--out', {os.path.join(d, 'out')!r}, {os.path.join(d, 'bomb.tar')!r}],"
                " capture_output=True, text=True)\n"
                "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT_DIR, timeout=300)
        rc, rss_kb = map(int, p.stdout.split())
        assert rc == 0 and rss_kb < 400 * 1024, (rc, rss_kb)              # the grader, its workers included
        r = json.load(open(os.path.join(d, "out", "bomb", "results.json")))
        assert r["score"] == 0 and "compression bomb" in r["output"]
    finally:
        shutil.rmtree(d, ignore_errors=True)


# --- fewer privileges: the same attacks, the same outcome ------------------------------------------
def _userns_possible():
    try:
        return int(open("/proc/sys/user/max_user_namespaces").read()) > 0
    except (OSError, ValueError):
        return False


needs_root = pytest.mark.skipif(not IS_ROOT, reason="dropping CAP_SYS_ADMIN or becoming nobody needs root")


@pytest.mark.slow
@needs_root
@pytest.mark.parametrize("who", ["root_without_cap_sys_admin", "nobody"])
def test_redteam_channels_with_fewer_privileges(who):
    if not _userns_possible() and not IN_CI:
        pytest.skip("user namespaces are switched off here: the grader refuses (tested elsewhere)")
    numba = world_dir("/tmp", "numba")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(HOME="/nonexistent", NUMBA_CACHE_DIR=numba)
    pre = preexec(drop_sys_admin=True) if who != "nobody" else preexec(nobody=True)
    # two at a time, as nobody too: without a control group RLIMIT_CPU ends a thread spinning past
    # the limit, and its end is named as the CPU time limit (tests/sandbox/test_grading_sandbox_outer.py)
    b = _run("/tmp", pre=pre, env=env, with_table=False, leave_out=GRADER_SIDE + TEXT_AND_ARCHIVES, jobs=2)
    try:
        res_json = json.loads(b["proc"].stdout) if b["proc"].returncode == 0 else None
        assert res_json is not None, b["proc"].stderr[-3000:]
        cg = "a control group of its own" in res_json["submissions"][0]["isolation"]
        assert not (who == "nobody" and cg)             # an ordinary user cannot create one here
        check_batch(b, cgroup=cg)
    finally:
        shutil.rmtree(b["dir"], ignore_errors=True)
        shutil.rmtree(numba, ignore_errors=True)
