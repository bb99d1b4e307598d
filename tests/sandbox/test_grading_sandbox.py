"""The sandbox contains every attack in tests/fixtures/grading/malicious/."""
import json
import os
import socket
import tempfile
import time

import pytest

from sandbox.worker import Limits, Worker

MAL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "grading", "malicious")
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
CALL = {"op": "call", "name": "train", "args": [[[1.0, 2.0], [-1.0, 0.5]], [1, -1]], "kwargs": {"epochs": 1},
        "returns": "w_b"}
GOOD = b"""
def train(X, y, epochs=1):
    w = [0.0] * len(X[0]); b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w = [a + t * c for a, c in zip(w, x)]; b += t
    return w, b
"""


def worker(name, limits=None, extra=None):
    with open(os.path.join(MAL, name), "rb") as fh:
        files = {"perceptron.py": fh.read()}
    files.update(extra or {})
    return Worker(files, "perceptron", limits or Limits(cpu_seconds=5, memory_mb=512))


def good_still_works():
    with Worker({"perceptron.py": GOOD}, "perceptron", Limits()) as w:
        r = w.call(CALL, timeout=5)
    assert r.error is None and r.ok == {"w": [2.0, 1.5], "b": 0.0}


def test_good_submission_round_trip():
    good_still_works()


def test_os_exit_is_reported_and_next_call_gets_a_fresh_worker():
    with worker("exits.py") as w:
        r = w.call(CALL, timeout=5)
        assert r.error == "crash" and "exit status 3" in r.message
        r2 = w.call(CALL, timeout=5)
        assert r2.error == "crash" and w.starts == 2
    good_still_works()


def test_sys_exit_is_caught():
    with worker("sys_exit.py") as w:
        r = w.call(CALL, timeout=5)
    assert r.error == "exit" and "exit(0)" in r.message


@pytest.mark.parametrize("name", ["hangs.py", "sleeps.py", "ignores_sigterm.py"])
def test_hangs_are_killed_at_the_wall_clock_limit(name):
    with worker(name) as w:
        t0 = time.monotonic()
        r = w.call(CALL, timeout=0.5)
        dt = time.monotonic() - t0
        assert r.error == "timeout" and "time limit" in r.message
        assert dt < 60           # a guard against a hang (the submission never ends by itself), not a speed test
        assert w.proc is None   # killed and reaped
    good_still_works()


def test_crash_segfault():
    with worker("crashes.py") as w:
        r = w.call(CALL, timeout=5)
    assert r.error == "crash" and "segmentation" in r.message


def test_output_flood_is_capped():
    lim = Limits(cpu_seconds=10, file_size_mb=1)
    with worker("floods.py", lim) as w:
        r = w.call(CALL, timeout=10)
        assert r.error in ("output", "crash") and "output limit" in r.message
        assert len(w.output(1 << 22).encode()) <= (1 << 20)


def test_printing_cannot_forge_results():
    with worker("forges_output.py") as w:
        r = w.call(CALL, timeout=5)
        assert r.ok == {"w": [123456.0, 123456.0], "b": 99.0}   # what it returned, not what it printed
        assert '"ok"' in w.output()


def test_unbounded_allocation_hits_the_memory_limit():
    with worker("memory_hog.py", Limits(cpu_seconds=10, memory_mb=300)) as w:
        r = w.call(CALL, timeout=20)
    assert r.error in ("memory", "crash"), r
    assert "memory" in r.message.lower() or "limit" in r.message.lower()
    good_still_works()


@pytest.mark.skipif(not ROOT, reason="per-worker uid (RLIMIT_NPROC is not enforced for root) needs root")
def test_fork_bomb_is_bounded_and_all_children_die():
    with worker("forkbomb.py", Limits(cpu_seconds=10, processes=8)) as w:
        r = w.call(CALL, timeout=10)
        assert r.error is None, r
        made, refused = r.ok["w"]
        assert refused == 1 and made < 8
        uid = w._uid
    time.sleep(0.2)
    left = [p for p in os.listdir("/proc") if p.isdigit() and _uid_of(p) == uid]
    assert left == []
    good_still_works()


def _uid_of(pid):
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("Uid:"):
                    return int(line.split()[1])
    except OSError:
        return None


@pytest.mark.skipif(not ROOT, reason="killing by uid / PID namespace needs root")
def test_child_that_leaves_the_process_group_is_killed_too():
    with worker("escapes_group.py") as w:
        r = w.call(CALL, timeout=5)
        assert r.error is None, r
        uid = w._uid
        alive = [p for p in os.listdir("/proc") if p.isdigit() and _uid_of(p) == uid]
        assert len(alive) >= 2          # the worker and the escaped grandchild (own session)
    time.sleep(0.1)
    left = [p for p in os.listdir("/proc") if p.isdigit() and _uid_of(p) == uid]
    assert left == []                  # neither alive nor a zombie


def _is_zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


def test_import_time_exit_is_reported():
    with worker("import_bomb.py") as w:
        err = w.start()
    assert err is not None and err.error == "import" and "refusing" in err.message


@pytest.mark.skipif(not ROOT, reason="namespaces and a separate uid need root")
def test_cannot_reach_the_grader_other_submissions_or_the_network():
    other = tempfile.mkdtemp(prefix="mb-other-")
    try:
        os.chmod(other, 0o755)
        path = os.path.join(other, "perceptron.py")
        with open(path, "w") as fh:
            fh.write("SECRET = 1\n")
        os.chmod(path, 0o644)
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        port = srv.getsockname()[1]
        grader_file = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading",
                                   "checks", "checks.py")
        targets = json.dumps({"grader_file": grader_file, "other_submission": path, "port": port}).encode()
        lim = Limits(cpu_seconds=10, extra_hide=[other])
        with worker("snoops.py", lim, extra={"targets.json": targets}) as w:
            r = w.call(CALL, timeout=10)
            iso = w.isolation
        srv.close()
        assert r.error == "exception" and "PROBES" in r.message, r
        probes = dict(kv.split("=") for kv in r.message.split("PROBES ")[1].split() if "=" in kv)
        assert probes, r.message
        leaked = {k: v for k, v in probes.items() if v.startswith("1")}
        assert leaked == {}, f"reached: {leaked} ({r.message})"
        assert iso["network"].startswith("blocked") and iso["user"].startswith("uid ")
        assert {"grader_source", "other_submission", "learners_import", "root_home", "other_boxes", "tmp_write",
                "parent_environ", "parent_mem", "loopback", "internet"} <= set(probes)
        assert not os.path.exists("/tmp/mb-grading-leak.txt")
    finally:
        import shutil
        shutil.rmtree(other, ignore_errors=True)


@pytest.mark.slow
def test_grader_and_other_submissions_unaffected_by_attacks(tmp_path):
    """A batch with attackers and a correct submission: the correct one still scores full marks."""
    from grading.running.grader import grade_batch
    spec = tmp_path / "s.toml"
    spec.write_text("""
[assignment]
algorithm = "perceptron"
[limits]
time_floor = 0.5
cpu_seconds = 10
[hypothesis]
max_examples = 5
[tests.one_example]
points = 1
[tests.random]
points = 2
""")
    subs = []
    for name in ("hangs.py", "exits.py", "floods.py", "ignores_sigterm.py"):
        d = tmp_path / name[:-3]
        d.mkdir()
        (d / "perceptron.py").write_bytes(open(os.path.join(MAL, name), "rb").read())
        subs.append(str(d))
    good = tmp_path / "good"
    good.mkdir()
    (good / "perceptron.py").write_bytes(GOOD)
    subs.append(str(good))
    results, _ = grade_batch(str(spec), subs, jobs=2)
    by = {r.name: r for r in results}
    assert by["good"].score == by["good"].max_score == 3
    for n in ("hangs", "exits", "floods", "ignores_sigterm"):
        assert by[n].score == 0
        msgs = " ".join(t.output for t in by[n].tests)
        assert any(k in msgs for k in ("time limit", "exit status", "output limit")), msgs


NONREADER = b"""
import threading, time, __main__
def _forge(k):
    time.sleep(0.2)
    __main__._send({"id": k, "ok": {"w": [0.0, 0.0], "b": 0.0}})
def train(X, y, epochs=1):
    threading.Thread(target=_forge, args=(1,), daemon=True).start()
    time.sleep(1000)          # the request pipe is never read again
"""


def test_a_worker_that_never_reads_its_requests_cannot_block_the_grader():
    """The grader's write of a request larger than a pipe holds waits only until the call's
    deadline: the worker is killed, the grader goes on."""
    with Worker({"perceptron.py": NONREADER}, "perceptron", Limits(cpu_seconds=10)) as w:
        r = w.call(CALL, timeout=5)                      # answered by the forging thread
        assert r.error is None
        big = dict(CALL, args=[[[0.25, 0.5]] * 40000, [1] * 40000])      # ~600 KB, never read
        t0 = time.monotonic()
        r = w.call(big, timeout=2)
        waited = time.monotonic() - t0
        assert r.error == "timeout" and "did not read its request" in r.message, r
        assert waited < 2 + 3 and not w.alive
    good_still_works()


AHEAD = b"""
import json, os, __main__
def train(X, y, epochs=1):      # answers 1..40 in one write (under PIPE_BUF: they arrive together)
    os.write(__main__.RESP_FD, b"".join((json.dumps({"id": k, "ok": {"w": [0.0, 0.0], "b": 0.0}}) + "\\n").encode()
                                        for k in range(1, 41)))
    return [0.0, 0.0], 0.0
"""


def test_answers_ahead_of_their_requests_end_the_worker():
    with Worker({"perceptron.py": AHEAD}, "perceptron", Limits(cpu_seconds=10)) as w:
        # the forged answers arrive in one write: the violation shows as soon as the grader reads the
        # first of them with more bytes behind it (at the latest, at the second request)
        r = w.call(CALL, timeout=5)
        if r.error is None:
            r = w.call(CALL, timeout=5)
        assert r.error == "protocol" and "protocol violation" in r.message and not w.alive


def test_the_seccomp_filter_refuses_above_its_ceiling_and_the_probes():
    from sandbox import _seccomp as sc
    for fork in (True, False):
        prog = sc.program(fork=fork)
        assert len(prog) < 4096
        assert (sc._JGE_K, 0, 1, sc.CEILING + 1) in prog
    assert {"flock", "mincore", "readahead", "fadvise64", "inotify_init1"} <= set(sc.DENIED)


SPINNER = b"""
import os, time
STARTED = []
def train(X, y, epochs=1):
    if not STARTED:
        STARTED.append(1)
        for _ in range(4):
            try:
                if os.fork() == 0:
                    while True:
                        pass
            except OSError:
                import threading
                threading.Thread(target=lambda: [None for _ in iter(int, 1)], daemon=True).start()
    time.sleep(1.0)
    return [0.0, 0.0], 0.0
"""


def test_cpu_budget_bounds_the_whole_process_tree():
    """Spinning children (or threads, where fork is refused) between and during calls: the worker
    is killed once the tree's CPU time passes cpu_seconds, whatever each process used."""
    with Worker({"perceptron.py": SPINNER}, "perceptron", Limits(cpu_seconds=2)) as w:
        for _ in range(120):
            r = w.call(CALL, timeout=5)
            if r.error:
                break
        assert r.error == "crash" and "CPU time limit exceeded (2" in r.message, r
