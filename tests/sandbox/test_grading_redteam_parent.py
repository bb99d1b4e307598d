"""Red team, the grader's own side: nothing a submission sends can raise in the parent, student
text is always quoted, names never collide, archives are read under their caps, a grading process
that dies costs only its submission, an interrupted batch keeps what finished, and a submission's
total time is bounded."""
import json
import os
import random
import signal
import stat
import subprocess
import sys
import tarfile
import time
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox import wire
from grading.running.batch import GRADER_FILES, output_names
from grading.output.report import REPORT_CAP, feedback_markdown, results_text
from grading.spec.submission import load_submission
from grading_redteam_kit import GOOD, ROOT_DIR, isolation_or_skip
from learners.errors import InputError

FEW = settings(max_examples=60, deadline=None, database=None)


# --- wire: any bytes --------------------------------------------------------------------------------
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                           lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
                           max_leaves=20)


@FEW
@given(st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_redteam_wire_raises_only_wire_errors(data):
    for parse in (lambda o: wire.parse_answer(o, 1), wire.parse_ready, wire.parse_armed, wire.parse_outer):
        try:
            parse(wire.decode(data))
        except wire.WireError as e:
            assert "\n" not in str(e)


@FEW
@given(st.dictionaries(st.sampled_from(["w", "b", "label", "value", "other"]), json_values, max_size=4),
       st.booleans())
def test_redteam_answers_come_out_as_plain_numbers(ok, modified):
    msg = json.dumps({"id": 7, "ok": ok, "modified": modified}).encode()
    try:
        kind, fields, mod = wire.parse_answer(wire.decode(msg), 7)
    except wire.WireError:
        return
    def number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    def plain(v):
        return v is None or number(v) or (isinstance(v, list) and all(
            number(x) or (isinstance(x, list) and all(number(z) for z in x)) for x in v))
    assert kind == "ok" and mod is modified and all(plain(v) for v in fields.values())
    assert all(abs(v) < 2 ** 63 for v in _ints(fields))


def _ints(v):
    if isinstance(v, dict):
        v = list(v.values())
    if isinstance(v, list):
        return [i for x in v for i in _ints(x)]
    return [v] if isinstance(v, int) and not isinstance(v, bool) else []


def test_redteam_wire_limits():
    with pytest.raises(wire.WireError, match="more than 19 digits"):
        wire.decode(b'{"id": 1, "ok": {"w": [' + b"9" * 10 ** 6 + b"]}}")
    with pytest.raises(wire.WireError, match="nested too deeply"):
        wire.decode(b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(wire.WireError, match="larger than 1 MiB"):
        wire.decode(b"[" + b"1," * (1 << 20) + b"1]")
    t0 = time.process_time()          # this process's CPU time: a bignum parse would take minutes
    assert wire.decode(b"[1e-999999999, 1e999999999]") == [0.0, float("inf")]
    assert time.process_time() - t0 < 0.5
    kind, fields, _ = wire.parse_answer(wire.decode(b'{"id": 3, "ok": {"w": ["nan", "inf"], "b": null}}'), 3)
    assert fields["b"] is None and fields["w"][1] == float("inf") and fields["w"][0] != fields["w"][0]
    with pytest.raises(wire.WireError, match="w is not a number"):
        wire.parse_answer(wire.decode(b'{"id": 3, "ok": {"w": ["1e-999999999"]}}'), 3)
    with pytest.raises(wire.WireError, match="out of step"):
        wire.parse_answer({"id": True, "ok": {}}, 1)


@FEW
@given(st.text(max_size=600))
def test_redteam_student_text_is_one_quoted_escaped_line(s):
    q = wire.student_text(s)
    body = q.split("»")[0]
    assert q.startswith("«") and "\n" not in q and all(c.isprintable() for c in q)
    assert q.count("«") == q.count("»") == 1 and len(body) <= 1 + 10 * 400
    for line in wire.student_block(s).splitlines():
        assert line.startswith("| ") or line.startswith("[the grader cut"), line
        assert all(c.isprintable() for c in line)


# --- the checks: any answer the wire lets through --------------------------------------------------
VALUES = [0.0, 1.0, -1.0, 0.5, float("nan"), float("inf"), float("-inf"), 1e308, -1e308, 5e-324, 2 ** 62, -2 ** 62,
          0, 1, 3, 1e-300]


class _AnyAnswer:
    """A worker whose answers are random values of every shape the wire accepts."""
    alive, starts, start_error, isolation, box = True, 1, None, {}, None

    def __init__(self, rng):
        self.rng = rng

    def call(self, req, timeout):
        from sandbox.worker import CallResult
        r = self.rng
        if r.random() < 0.05:
            return CallResult(error=r.choice(["timeout", "crash", "exception", "bad-return"]), message="«x»")
        if req["op"] == "plan":       # a contract's call plan: values by name, tuples item by item
            v = req["values"]
            data = v.get("X") or v.get("K")
            n = r.choice([len(data), len(data[0])])

            def value():
                k = r.choice([n, n, n, 0, 1, n + 1, 50])
                return r.choice([None, r.choice(VALUES), [r.choice(VALUES) for _ in range(k)],
                                 [[r.choice(VALUES)] for _ in range(k)], [[r.choice(VALUES) for _ in range(k)]]])
            if r.random() < 0.5:
                ok = {"ret": value()}
            else:
                ok = {"ret_n": r.choice([0, 1, 2, 2, 2, 3, 7]), "ret_0": value(), "ret_1": value()}
            if r.random() < 0.2:
                ok = {"attr_w": value(), "attr_b": value()}
            return CallResult(ok=ok, modified=r.random() < 0.1)
        if req["op"] == "call":
            n = len(req["args"][0] if "kernel" in req else req["args"][0][0])
            ok = {"w": None if r.random() < 0.05 else
                  [r.choice(VALUES) for _ in range(r.choice([n, n, n, 0, 1, n + 1, 50]))]}
            if req["returns"] == "w_b":
                ok["b"] = r.choice(VALUES + [None])
            return CallResult(ok=ok, modified=r.random() < 0.1)
        if req["op"] == "predict":
            return CallResult(ok={"label": r.choice(VALUES + [None])})
        return CallResult(ok={})

    def close(self):
        pass

    def output(self, n=0):
        return ""


@pytest.mark.parametrize("assignment", ["perceptron", "perceptron_class", "winnow", "kernel_perceptron",
                                        "mit_perceptron", "sklearn_perceptron", "winnow_hw", "dual_kernel"])
@pytest.mark.slow
def test_redteam_no_answer_raises_in_the_checks(assignment):
    from grading.checks.checks import Grader
    from grading.spec.offered import test_kinds
    from grading.spec.spec import TestSpec, load_spec
    spec = load_spec(assignment)
    spec.max_examples = 4
    for seed in range(12):
        rng = random.Random(seed)
        g = Grader(spec, lambda: _AnyAnswer(rng))
        for kind in test_kinds(spec):
            for hidden in (False, True):
                out = g.run_test(TestSpec(kind=kind, points=1, hidden=hidden))     # must not raise
                assert out.score in (0, 1)


# --- names, archives, report caps -------------------------------------------------------------------
@FEW
@given(st.lists(st.text(min_size=0, max_size=20).map(lambda s: f"d/{s}.py"), min_size=1, max_size=12))
def test_redteam_output_names_are_safe_and_distinct(paths):
    names = output_names(paths)
    assert len({n.casefold() for n in names}) == len(names)
    for n in names:
        assert n not in GRADER_FILES and n[0].isalnum() and len(n) <= 70
        assert all(c.isalnum() and c.isascii() or c in "-_." for c in n)


def test_redteam_archives_special_members_and_lies(tmp_path):
    d = tmp_path / "sub"
    d.mkdir()
    (d / "perceptron.py").write_text("x = 1")
    os.mkfifo(d / "fifo.py")                              # reading it would block: skipped
    os.symlink("/etc/passwd", d / "link.py")
    assert set(load_submission(str(d), "perceptron")) == {"perceptron.py"}
    t = tmp_path / "links.tar"
    with tarfile.open(t, "w") as tf:
        import io
        info = tarfile.TarInfo("perceptron.py")
        info.size = 5
        tf.addfile(info, io.BytesIO(b"x = 1"))
        for kind, name in ((tarfile.LNKTYPE, "hard.py"), (tarfile.SYMTYPE, "soft.py"), (tarfile.CHRTYPE, "dev"),
                           (tarfile.FIFOTYPE, "fifo")):
            m = tarfile.TarInfo(name)
            m.type, m.linkname = kind, "perceptron.py"
            tf.addfile(m)
    assert set(load_submission(str(t), "perceptron")) == {"perceptron.py"}
    for name, msg in (("../up.py", "unsafe path «../up.py»"), ("/abs.py", "unsafe path «/abs.py»"),
                      ("a/" * 12 + "deep.py", "too long or too deep"),
                      ("bad\x1bname.py", r"unsafe path «bad\x1bname.py»")):
        z = tmp_path / "x.zip"
        with zipfile.ZipFile(z, "w") as zf:
            zf.writestr(name, "x = 1")
        with pytest.raises(InputError) as e:
            load_submission(str(z), "perceptron")
        assert msg in str(e.value), str(e.value)
    z = tmp_path / "lies.zip"                             # the header says 10 bytes, the member holds 20 MB
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("perceptron.py", b"#" * (20 << 20))
    raw = bytearray(z.read_bytes())
    for sig in (b"PK\x03\x04", b"PK\x01\x02"):
        i = raw.find(sig)
        off = 22 if sig == b"PK\x03\x04" else 24
        raw[i + off:i + off + 4] = (10).to_bytes(4, "little")
    z.write_bytes(bytes(raw))
    with pytest.raises(InputError, match="too large|cannot be read|not a valid zip file"):
        load_submission(str(z), "perceptron")


def test_redteam_report_caps_hold_for_any_text():
    from grading.checks.checks import TestOutcome
    from grading.running.grader import SubmissionResult
    from grading.spec.spec import load_spec
    spec = load_spec("perceptron")
    r = SubmissionResult(name="x", spec=spec, printed="é" * 10 ** 6, note="«" + "n" * 10 ** 6 + "»")
    r.tests = [TestOutcome(kind="k", name=f"t{i}", points=1, score=0, passed=False, output="語" * 400_000)
               for i in range(30)]
    assert len(results_text(r).encode()) <= REPORT_CAP
    assert len(feedback_markdown(r).encode()) <= REPORT_CAP


# --- batches: a dying grading process, an interruption, the total budget ------------------------------
SLOW = GOOD.replace("def train(X, y, epochs=1):\n", "def train(X, y, epochs=1):\n    import time; time.sleep(1.5)\n")
SPEC = """
[assignment]
algorithm = "perceptron"
[limits]
time_floor = 4.0
cpu_seconds = 20
submission_seconds = 4
[tests.one_example]
points = 1
[tests.ties]
points = 1
[tests.several_epochs]
points = 1
[tests.repeated_examples]
points = 1
"""


@pytest.fixture
def slow_course(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    isolation_or_skip(str(spec))
    paths = []
    for name, src in (("slow", SLOW), ("good", GOOD), ("good2", GOOD)):
        p = tmp_path / f"{name}.py"
        p.write_text(src)
        paths.append(str(p))
    return spec, paths


def _busy_pool_process():
    """The pool process currently running a sandboxed worker: a process running _child.py whose
    parent is either a pool process (a freshly started worker) or that pool process's worker
    template (a worker forked from it; an idle pool process's template has no child)."""
    import multiprocessing as mp
    from sandbox.worker import CHILD
    pool = {c.pid for c in mp.active_children()}
    parents, sandboxed = {}, {}
    for pid in os.listdir("/proc"):
        try:
            st_ = open(f"/proc/{pid}/status").read()
            parents[int(pid)] = int(st_.split("PPid:")[1].split()[0])
            cmd = open(f"/proc/{pid}/cmdline", "rb").read()
            if CHILD.encode() in cmd:
                sandboxed[int(pid)] = cmd
        except (OSError, ValueError, IndexError):
            pass
    for pid, cmd in sandboxed.items():
        ppid = parents.get(pid)
        if ppid in pool and b"--template" not in cmd:
            return ppid                                   # a freshly started worker
        if ppid in sandboxed and parents.get(ppid) in pool:
            return parents[ppid]                          # a worker forked from the pool process's template
    return None


HANGING = GOOD.replace("def train(X, y, epochs=1):\n", "def train(X, y, epochs=1):\n    import time; time.sleep(600)\n")
HANG_SPEC = SPEC.replace("time_floor = 4.0", "time_floor = 300.0").replace("submission_seconds = 4", "submission_seconds = 300")


@pytest.mark.slow
def test_redteam_a_dying_grading_process_costs_only_its_submission(tmp_path):
    # The grading process of a submission that hangs (far longer than any load can delay the good
    # ones) is killed once a good submission has been graded: no race with the machine's speed.
    from grading.running.grader import grade_batch
    spec = tmp_path / "spec.toml"
    spec.write_text(HANG_SPEC)
    isolation_or_skip(str(spec))
    paths = []
    for name, src in (("hangs", HANGING), ("good", GOOD), ("good2", GOOD)):
        p = tmp_path / f"{name}.py"
        p.write_text(src)
        paths.append(str(p))
    killed = []

    def on_result(res):
        if not killed and res.name == "good":     # the only grading process still busy is the hanging one's
            pid, t0 = None, time.monotonic()
            while pid is None and time.monotonic() - t0 < 120:   # a guard against a hang, not a speed test
                pid = _busy_pool_process()
                if pid is None:
                    time.sleep(0.05)
            if pid:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
    results, _ = grade_batch(str(spec), paths, jobs=2, on_result=on_result)
    by = {r.name: r for r in results}
    assert killed
    assert by["good"].score == by["good2"].score == 4
    assert by["hangs"].fault.startswith("the grading process died") and by["hangs"].score == 0
    assert "not graded: the grader failed" in by["hangs"].note


SLOWER = GOOD.replace("def train(X, y, epochs=1):\n", "def train(X, y, epochs=1):\n    import time; time.sleep(20)\n")


@pytest.mark.slow
def test_redteam_total_budget_bounds_a_slow_submission(tmp_path):
    # Each call sleeps 20 s (each test's own limit is 60 s): unbounded, the four tests take over
    # 80 s; the 4 s budget stops them.  The 40 s margin only absorbs a loaded machine's start-up.
    from grading.running.grader import grade_submission
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.replace("time_floor = 4.0", "time_floor = 60.0"))
    isolation_or_skip(str(spec))
    sub = tmp_path / "slower.py"
    sub.write_text(SLOWER)
    t0 = time.monotonic()
    r = grade_submission(str(spec), str(sub))
    assert time.monotonic() - t0 < 4 + 40
    assert len(r.tests) == 4 and not any(t.passed for t in r.tests)
    assert all("total budget of 4 s" in t.output for t in r.tests), [t.output for t in r.tests]


def _interruptible():
    """A command started in the background by a non-interactive shell (as CI scripts and `cmd &`
    do) inherits SIGINT ignored, and so would the grader: give it SIGINT's default, as Ctrl-C in a
    terminal finds it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_redteam_an_interrupted_batch_keeps_what_finished(slow_course, tmp_path):
    spec, paths = slow_course
    out = tmp_path / "out"
    order = [paths[1], paths[0], paths[2]]            # good, slow, good2, one at a time
    p = subprocess.Popen([sys.executable, "-m", "mistakebound", "grade", "--no-progress", "-a", str(spec),
                          "--out", str(out), "--jobs", "1"] + order, cwd=ROOT_DIR,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_interruptible)
    deadline = time.monotonic() + 60
    while not (out / "good" / "results.json").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    assert p.returncode != 0
    done = json.loads((out / "good" / "results.json").read_text())
    assert done["score"] == 4
    assert not (out / "good2" / "results.json").exists()
    rows = (out / "summary.csv").read_text().splitlines()
    assert rows[0].startswith("submission,") and rows[1].startswith("good,") and len(rows) == 2
    leftovers = [f for _, _, fs in os.walk(out) for f in fs if f.startswith(".tmp-")]
    assert leftovers == []
    assert stat.S_ISREG(os.stat(out / "manifest.csv").st_mode)
