"""Grading where courses run: a container started the way Docker starts one by default -- root
without CAP_SYS_ADMIN, and a seccomp profile refusing ``unshare``, ``setns``, ``mount`` and
``clone`` with a new namespace (``grading_redteam_kit.docker_like``).  No namespace can be made
there; the grader falls back, by itself, to the *container* isolation level (Landlock's view,
seccomp, limits, a uid of its own: docs/sandbox.md) and names it in every report.

* the shipped examples grade as on the host;
* the red-team corpora (``test_grading_redteam.py``, the leaks of ``test_grading_redteam_env.py``)
  are contained;
* the Gradescope archive grades in a simulated ``/autograder`` layout;
* the worker's ``/proc`` shows nothing host-global, at every isolation level.
"""
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from grading_redteam_kit import (GOOD, IN_CI, IS_ROOT, ROOT_DIR, docker_like, grade, landlock_abi, read_out,
                                 world_dir)

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not IS_ROOT, reason="reproducing a container's restrictions needs root"),
              pytest.mark.skipif(not landlock_abi() and not IN_CI, reason="this kernel has no Landlock")]
EX = os.path.join(ROOT_DIR, "grading", "examples")


def _env():
    return dict(os.environ, PYTHONPATH=ROOT_DIR)


# --- /proc ---------------------------------------------------------------------------------------
PROBE_PROC = r'''
import os
KNOWN = ["stat", "meminfo", "loadavg", "uptime", "cmdline", "cpuinfo", "version", "kcore", "sched_debug",
         "timer_list", "keys", "key-users", "kallsyms", "diskstats", "vmstat", "zoneinfo", "buddyinfo", "slabinfo",
         "interrupts", "softirqs", "pressure/cpu", "pressure/memory", "pressure/io", "sys/kernel/random/boot_id",
         "sys/fs/file-nr", "sys/kernel/hostname", "1/status", "1/cmdline", "self/status", "self/mountinfo",
         "self/net/dev", "net/tcp", "mounts", "modules", "partitions", "swaps", "locks", "schedstat"]

def _readable(p):
    try:
        with open(p, "rb") as fh:
            return bool(fh.read(1))
    except OSError:
        return False

def probe():
    try:
        top = os.listdir("/proc")
    except OSError:
        top = []
    todo = ["/proc/" + t for t in top if not t.isdigit() and t not in ("self", "thread-self")]
    todo += ["/proc/" + k for k in KNOWN]
    seen, found = set(), []
    while todo and len(seen) < 20000:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        if os.path.isdir(p) and not os.path.islink(p):
            try:
                todo += [os.path.join(p, e) for e in os.listdir(p)]
            except OSError:
                pass
        elif _readable(p):
            found.append(p)
    print("READABLE " + " ".join(sorted(found)))
    print("LISTED %d" % len(top))
    return 0
'''
RUN_PROBE = r'''
import json, sys
from sandbox.worker import Limits, Worker
w = Worker({"probe.py": sys.argv[1].encode()}, "probe", Limits(cpu_seconds=20))
r = w.call({"op": "call", "name": "probe", "args": [], "returns": "label"}, 60)
out = w.output(1 << 20)
print(json.dumps({"error": r.error, "message": r.message, "mode": w.isolation.get("mode"),
                  "level": w.isolation.get("level"), "out": out}))
w.close()
'''
# entries of a worker's /proc that belong to its own namespaces (where it has namespaces)
PER_NAMESPACE = ("self", "thread-self", "mounts", "net", "sysvipc")


def _host_global(path: str, mode: str) -> bool:
    first = path[len("/proc/"):].split("/", 1)[0]
    if mode == "landlock":           # no PID, mount or network namespace: every entry is the host's
        return True
    return not (first.isdigit() or first in PER_NAMESPACE)


@pytest.mark.parametrize("where", ["host", "docker"])
def test_the_workers_proc_shows_nothing_host_global(where):
    p = subprocess.run([sys.executable, "-c", RUN_PROBE, PROBE_PROC], capture_output=True, text=True, timeout=300,
                       cwd=ROOT_DIR, env=_env(), preexec_fn=docker_like() if where == "docker" else None)
    assert p.returncode == 0, p.stderr[-2000:]
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["error"] is None, got
    assert (got["level"] == "container") == (where == "docker"), got
    lines = dict(ln.split(" ", 1) if " " in ln else (ln, "") for ln in got["out"].splitlines())
    readable = lines["READABLE"].split()
    leaks = [q for q in readable if _host_global(q, got["mode"])]
    assert leaks == [], leaks
    if got["mode"] != "landlock":
        assert int(lines["LISTED"]) > 10 and "/proc/self/status" in readable     # a /proc, masked


SOCKETS = r'''
import errno, socket
def _try(f):
    try:
        for s in f():
            s.close()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, "?")
def probe():
    print("SOCKETS " + " ".join(f"{k}={_try(f)}" for k, f in (
        ("unix", lambda: [socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)]),
        ("stream_pair", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)),
        ("seqpacket_pair", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)),
        ("dgram_pair", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)),
        ("inet", lambda: [socket.socket(socket.AF_INET, socket.SOCK_STREAM)]))))
    return 0
'''


def test_a_container_worker_reaches_no_unix_socket_of_the_host():
    """Without a mount namespace, the host's UNIX sockets (D-Bus, X11, /dev/log: often mode 0666)
    are reachable by path: no AF_UNIX socket is made, only a connected pair that ignores addresses."""
    p = subprocess.run([sys.executable, "-c", RUN_PROBE, SOCKETS], capture_output=True, text=True, timeout=300,
                       cwd=ROOT_DIR, env=_env(), preexec_fn=docker_like())
    assert p.returncode == 0, p.stderr[-2000:]
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["level"] == "container" and got["error"] is None, got
    assert got["out"].strip() == ("SOCKETS unix=EAFNOSUPPORT stream_pair=ok seqpacket_pair=ok dgram_pair=EPERM "
                                  "inet=EAFNOSUPPORT"), got["out"]


OTHERS = r'''
import errno, os, resource, signal
def _try(f):
    try:
        f()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, "?")
def probe():
    parent = os.getppid()
    print("OTHERS " + " ".join(f"{k}={_try(f)}" for k, f in (
        ("signal_parent", lambda: os.kill(parent, 0)),
        ("prlimit_parent", lambda: resource.prlimit(parent, resource.RLIMIT_NOFILE, (1, 1))),
        ("affinity_parent", lambda: os.sched_setaffinity(parent, {0})),
        ("nice_parent", lambda: os.setpriority(os.PRIO_PROCESS, parent, 19)),
        ("chmod_box", lambda: os.chmod(os.path.dirname(os.getcwd()), 0o777)),
        ("own_limit", lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0))),
        ("own_file", lambda: (open("mine.txt", "w").write("x"), os.chmod("mine.txt", 0o600))))))
    return 0
'''


@pytest.mark.parametrize("who", ["root", "user"])
def test_a_container_worker_leaves_every_other_process_and_file_alone(who):
    """Its signals, limits, scheduling and the modes of files it can name reach nothing outside it --
    as its own uid (root) and under the grader's own uid (an ordinary user, user namespaces refused)."""
    from grading_redteam_kit import preexec
    pre = docker_like() if who == "root" else preexec(nobody=True, block_userns=True)
    if who == "user" and landlock_abi() < 6:
        pytest.skip("Landlock cannot scope signals here (ABI 6, Linux 6.12)")
    p = subprocess.run([sys.executable, "-c", RUN_PROBE, OTHERS], capture_output=True, text=True, timeout=300,
                       cwd=ROOT_DIR, env=dict(_env(), HOME="/nonexistent"), preexec_fn=pre)
    assert p.returncode == 0, p.stderr[-2000:]
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["level"] == "container" and got["error"] is None, got
    assert got["out"].strip() == ("OTHERS signal_parent=EPERM prlimit_parent=EPERM affinity_parent=EPERM "
                                  "nice_parent=EPERM chmod_box=EPERM own_limit=ok own_file=EPERM"), got["out"]


FILLER = r'''
def probe():
    for i in range(40):                # 40 files of 1 MB: each under file_size_mb, together past work_mb
        with open(f"fill{i}", "wb") as fh:
            fh.write(b"x" * (1 << 20))
    return 0
'''


def test_a_container_worker_is_held_to_its_disk_budget():
    """No size-capped /work without a mount namespace: the grader measures the worker's own
    directory after each call and ends a worker past ``work_mb`` (32 MB)."""
    p = subprocess.run([sys.executable, "-c", RUN_PROBE, FILLER], capture_output=True, text=True, timeout=300,
                       cwd=ROOT_DIR, env=_env(), preexec_fn=docker_like())
    assert p.returncode == 0, p.stderr[-2000:]
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["level"] == "container", got
    assert got["error"] == "output" and "disk limit exceeded: more than 32 MB" in got["message"], got


# --- the shipped examples -----------------------------------------------------------------------------
# the classic perceptron's examples compared host against container: the correct ones, and one typical
# mistake per kind of evidence (a wrong answer, shuffling confirmed in fresh processes, inputs changed, ties)
PERCEPTRON_COMPARED = ("correct", "correct_numpy", "label_ignored", "modifies_inputs", "shuffled", "ties_not_mistakes")


def _examples(spec):
    """The examples graded in a container: every correct one and the first typical mistake (each
    mistake's points are asserted on the host by the grading tests); the perceptron's chosen set."""
    names = sorted(d for d in os.listdir(os.path.join(EX, spec)) if os.path.isdir(os.path.join(EX, spec, d)))
    if spec == "perceptron":
        return [n for n in names if n in PERCEPTRON_COMPARED]
    wrong = [n for n in names if not n.startswith("correct")]
    return [n for n in names if n.startswith("correct")] + wrong[:1]


def _grade_all(spec, out, preexec, check=True):
    folders = [os.path.join(EX, spec, d) for d in _examples(spec)]
    # one hidden seed for every grading: the host's and the container's face the same hidden inputs
    env = dict(os.environ, MISTAKEBOUND_HIDDEN_SEED="20261207")
    p = grade(["-a", spec, "--out", out, "--json", "--jobs", "1"] + folders, preexec=preexec, env=env, timeout=900)
    if not check:
        return p
    assert p.returncode == 0, (spec, p.stderr[-2000:])
    return json.loads(p.stdout)


def _worker_setup(name):
    """How a course's worker is set up: the packages it may import, whether an adapter and data
    files go in with the submission, the inputs' kind and the call style (what differs in a
    container: what the worker loads and reads, and how it is called; the answers it sends back
    cross the same checked wire on the host, where the grading tests grade every course)."""
    import tomllib
    from grading.spec.shipped import ASSIGNMENTS_DIR
    with open(os.path.join(ASSIGNMENTS_DIR, f"{name}.toml"), "rb") as fh:
        d = tomllib.load(fh)
    c, a = d.get("contract", {}), d.get("assignment", {})
    return (tuple(d.get("limits", {}).get("packages", [])), bool(c.get("adapter")), bool(a.get("data_files")),
            c.get("inputs", "lists"), a.get("style", "function"))


def _specs():
    """One shipped course with examples for each way a worker is set up (the classic perceptron for
    its own), so that every setup is graded in a container without grading every course twice
    (the other grading tests grade every shipped course on the host)."""
    from grading.spec.shipped import shipped_names
    names = [n for n in shipped_names() if os.path.isdir(os.path.join(EX, n))]
    seen, out = {_worker_setup("perceptron")}, ["perceptron"]
    for n in names:
        if _worker_setup(n) not in seen:
            seen.add(_worker_setup(n))
            out.append(n)
    return out


def test_the_shipped_examples_grade_in_a_container_as_on_the_host(tmp_path):
    """One course for each way a worker is set up, its examples graded under Docker's default
    restrictions: each correct one keeps full marks and each typical mistake loses points (a spec
    this machine cannot grade at all is refused in the same words on the host); the classic
    perceptron's are compared with the host's grading, score by score and mistake by mistake."""
    assert len(_specs()) >= 6
    box = None
    for spec in _specs():
        p = _grade_all(spec, tmp_path / spec, docker_like(), check=False)
        if p.returncode != 0:
            host = _grade_all(spec, tmp_path / f"{spec}-host", None, check=False)
            assert (p.returncode, p.stderr) == (host.returncode, host.stderr), spec
            continue
        got = json.loads(p.stdout)
        if spec == "perceptron":
            box = got
        assert got["isolation"]["isolation"]["level"] == "container", spec
        for s in got["submissions"]:
            if s["submission"].startswith("correct"):
                assert s["score"] == s["max_score"] > 0, (spec, s)
            else:
                assert s["score"] < s["max_score"], (spec, s)
    assert box is not None, "the classic perceptron's examples were not graded in the container"
    host = _grade_all("perceptron", tmp_path / "host", None)
    # a submission that shuffles with fresh randomness scores differently from run to run, on the host
    # too; it is named as shuffling and as nothing else (state kept between calls is confirmed in fresh
    # processes, which randomness does not pass) in both gradings
    pick = (lambda r: {s["submission"]: ((None, s["max_score"], s["mistakes"]) if "data shuffled" in s["mistakes"]
                                         else (s["score"], s["max_score"], s["mistakes"])) for s in r["submissions"]})
    assert pick(box) == pick(host)
    assert pick(host)["shuffled"][2] == ["data shuffled"], pick(host)["shuffled"]
    assert host["isolation"]["isolation"]["level"] == "namespaces"


# --- the red-team corpora -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def redteam(tmp_path_factory):
    from test_grading_redteam import make_batch
    b = make_batch(tmp_path_factory.mktemp("redteam-docker"), preexec=docker_like(), skip_check=None)
    p = b["proc"]
    assert p.returncode == 0, p.stderr[-2000:]
    res, manifest, rows = read_out(b["out"])
    return b, json.loads(p.stdout), res, manifest, rows


def test_every_attack_is_contained_in_a_container(redteam):
    from test_grading_redteam import ARCHIVES, EXPECT, FULL
    b, summary, res, manifest, rows = redteam
    assert summary["isolation"]["isolation"]["level"] == "container"
    n = len(b["paths"])
    assert summary["grader_faults"] == 0 and len(summary["submissions"]) == n == len(manifest) == len(rows)
    by = {s["submission"]: s for s in summary["submissions"]}
    assert by["good"]["score"] == by["good"]["max_score"] == FULL
    # without a PID namespace the worker's parent is the grader's waiting process: its kill is refused
    expect = dict(EXPECT, kill_parent=(0, "PermissionError: [Errno 1] Operation not permitted"))
    for name, (score, reason) in expect.items():
        if score is not None:
            assert by[name]["score"] == score, (name, by[name])
        r = res[name]["results"]
        if reason is not None:
            failed = [t["output"] for t in r["tests"] if t["status"] == "failed" and t["visibility"] == "visible"]
            assert failed and reason in failed[0], (name, reason, failed[:1])
    for a, note in ARCHIVES.items():
        r = res[a.split(".")[0]]["results"]
        assert r["score"] == 0 and note in r["output"], r["output"]
    for r in res.values():         # every report of code that ran (an archive refused ran none)
        assert "isolation level: container" in r["results"]["output"] or \
            "submission not graded" in r["results"]["output"], r["results"]["output"]


def _line(res, name, tag):
    return next(ln for ln in res[name]["feedback"].splitlines() if ln.startswith(f"| {tag} "))


def test_a_container_worker_reads_nothing_of_the_grader_and_has_no_syscalls_to_spare(redteam):
    _, _, res, _, _ = redteam
    assert _line(res, "cheat_read", "PROBE") == "| PROBE " + " ".join(
        f"{k}=0" for k in ("grader", "home", "learners_src", "passwd", "results", "root", "run", "sitepackages",
                           "solution", "spec", "subs"))
    assert _line(res, "cheat_read", "IMPORT") == ("| IMPORT numpy=1 scipy=0 sklearn=0 hypothesis=0 numba=0 "
                                                  "learners=0 sandbox=0 grading=0 mistakebound=0")
    assert _line(res, "syscalls", "SYSCALLS") == (
        "| SYSCALLS ptrace=EPERM mount=EPERM keyctl=EPERM bpf=EPERM process_vm_readv=EPERM unshare=EPERM "
        "setns=EPERM inet=EAFNOSUPPORT inet6=EAFNOSUPPORT netlink=EAFNOSUPPORT packet=EAFNOSUPPORT "
        "unix=EAFNOSUPPORT execve=EPERM nnp=1 seccomp=2")          # the host's UNIX sockets are the host's
    fill = dict(kv.split("=") for kv in _line(res, "disk_fill", "FILL")[len("| FILL "):].split())
    assert set(fill) == {"work", "tmp", "shm", "runlock"} and "0" not in fill.values(), fill
    assert not os.path.exists("/tmp/fill") and not os.path.exists("/dev/shm/fill")


def test_nothing_survives_a_container_batch(redteam):
    import time
    from test_grading_redteam import _worker_pids
    b = redteam[0]
    time.sleep(0.3)
    assert _worker_pids() - b["workers_before"] == set()


def test_no_hidden_input_leaks_between_submissions_in_a_container(tmp_path):
    from test_grading_redteam_env import READER, SMALL, WRITER, _sysv_keys
    spec = tmp_path / "spec.toml"
    spec.write_text(SMALL)
    paths = []
    for name, src in (("writer", WRITER), ("reader", READER), ("good", GOOD)):
        p = tmp_path / f"{name}.py"
        p.write_text(src)
        paths.append(p)
    out = tmp_path / "out"
    p = grade(["-a", spec, "--out", out, "--jobs", "1"] + paths, preexec=docker_like())
    assert p.returncode == 0, p.stderr[-1500:]
    res, _, _ = read_out(out)
    for name, r in res.items():
        assert "LEAK" not in json.dumps(r["results"]) + r["feedback"], name
    write = dict(kv.split("=") for kv in _line(res, "writer", "WRITE")[len("| WRITE "):].split())
    assert "0" not in write.values(), write                   # no shared place, no System V IPC (EPERM)
    assert write["sysv"] == "1"
    for place in ("/run/lock/mb-redteam-leak", "/tmp/mb-redteam-leak", "/dev/shm/mb-redteam-leak",
                  "/var/tmp/mb-redteam-leak"):
        assert not os.path.exists(place)
    assert 0x4D42 not in _sysv_keys()
    assert res["good"]["results"]["score"] == res["reader"]["results"]["score"] == 2


# --- the Gradescope archive -----------------------------------------------------------------------
READ_SECRETS = '''
def _can(p):
    try:
        open(p, "rb").read(1)
        return 1
    except OSError:
        return 0

def train(X, y, epochs=1):
    raise RuntimeError("SECRETS " + " ".join(f"{k}={_can(p)}" for k, p in sorted(PLACES.items())))
'''


def test_the_gradescope_archive_grades_in_a_container(tmp_path):
    out = tmp_path / "autograder.zip"
    p = subprocess.run([sys.executable, "-m", "mistakebound", "grade", "--gradescope-zip", "perceptron",
                        "--out", str(out)], capture_output=True, text=True, cwd=ROOT_DIR, env=_env(), timeout=300)
    assert p.returncode == 0, p.stderr
    base = world_dir("/tmp", "gradescope")
    try:
        for name, src in (("correct", None), ("reader", "secrets")):
            ag = os.path.join(base, name, "autograder")
            with zipfile.ZipFile(out) as z:
                z.extractall(os.path.join(ag, "source"))
            shutil.copy(os.path.join(ag, "source", "run_autograder"), os.path.join(ag, "run_autograder"))
            os.chmod(os.path.join(ag, "run_autograder"), 0o755)
            places = {"spec": os.path.join(ag, "source", "spec.toml"),
                      "grader": os.path.join(ag, "source", "mistakebound", "grading", "checks", "checks.py"),
                      "passwd": "/etc/passwd"}
            if src is None:
                shutil.copytree(os.path.join(EX, "perceptron", "correct"), os.path.join(ag, "submission"))
            else:
                os.makedirs(os.path.join(ag, "submission"))
                with open(os.path.join(ag, "submission", "perceptron.py"), "w") as fh:
                    fh.write(f"PLACES = {places!r}\n" + READ_SECRETS)
            env = {k: v for k, v in _env().items() if k != "PYTHONPATH"}
            p = subprocess.run([os.path.join(ag, "run_autograder")], cwd=ag, capture_output=True, text=True,
                               timeout=900, preexec_fn=docker_like(),
                               env=dict(env, AUTOGRADER_ROOT=ag, MISTAKEBOUND_PYTHON=sys.executable))
            assert p.returncode == 0, p.stdout + p.stderr
            res = json.load(open(os.path.join(ag, "results", "results.json")))
            assert "isolation level: container" in res["output"], res["output"]
            if src is None:
                assert res["score"] == res["max_score"] > 0, res["output"]
            else:
                shown = json.dumps(res)
                assert res["score"] == 0 and "SECRETS grader=0 passwd=0 spec=0" in shown, shown[:3000]
    finally:
        shutil.rmtree(base, ignore_errors=True)
