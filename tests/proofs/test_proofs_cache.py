"""The proof cache: a verdict is re-used only for exactly the question it answered.

Engine calls are counted (``proofs.engines.engines.CALLS``: questions actually sent to z3, cvc5 or sympy),
never timed.  Each test has its own empty cache directory and forgets the answers its process
already knows, as a fresh ``mistakebound verify`` would.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
from concurrent.futures import Future

import pytest

from proofs.engines import cache, engines, workers
from proofs.verify import checks
from proofs.catalogue.core import Source, Theorem
from proofs.engines.engines import PROVED, REFUTED, SAT, UNKNOWN
from proofs.language.formula import Real
from proofs.verify.runner import run_catalogue

a, b = Real("a"), Real("b")
SRC = Source("", "a test", "a test")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _th(second_goal, tid="t_cache"):
    """Two solver steps: ``first`` (a >= 1 |- a >= 0) and ``second`` (its goal given here)."""
    def proof(p):
        s1 = p.solve("first", [p.hyp("h")], a >= 0)
        s2 = p.solve("second", [p.hyp("h"), p.hyp("g")], second_goal)
        return p.solve("end", [s1, s2], second_goal)
    return Theorem(id=tid, name="cache test", source=SRC, hypotheses=[("h", a >= 1), ("g", b >= a)],
                   conclusion=second_goal, proof=proof)


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    checks.reset_memo()
    yield tmp_path / "mistakebound"
    checks.reset_memo()


def _pack(d) -> str:
    return os.path.join(d, f"v{cache.FORMAT}", "pack")


def _entries(d) -> list[tuple[str, object]]:
    """The pack's valid records (key, answer), in the order written."""
    return cache.records(_pack(d))


def _lines(d) -> list[bytes]:
    with open(_pack(d), "rb") as fh:
        return fh.read().split(b"\n")[:-1]


def _write_lines(d, lines) -> None:
    with open(_pack(d), "wb") as fh:
        fh.write(b"".join(x + b"\n" for x in lines))


def _run(th, **kw):
    checks.reset_memo()                   # a new process: only the disk cache remembers
    r = run_catalogue([th], **kw).by_id(th.id)
    return r, dict(engines.CALLS)


def _step(r, sid):
    return next(s for s in r.steps if s.step.id == sid)


# --------------------------------------------------------------------------- re-use
def test_a_second_run_asks_no_engine_and_says_every_verdict_came_from_the_cache(fresh):
    th = _th(b >= 1)
    r1, calls1 = _run(th)
    assert r1.status == PROVED and calls1.get("z3", 0) >= 3 and calls1.get("cvc5", 0) >= 3
    assert all(s.from_cache == "none" for s in r1.steps)
    n_files = len(_entries(fresh))
    assert n_files > 0
    r2, calls2 = _run(th)
    assert r2.status == PROVED and calls2 == {}
    assert all(s.from_cache == "all" for s in r2.steps)
    assert all(s.to_json()["from_cache"] == "all" and s.to_json()["verdict"]["cached"] for s in r2.steps)
    assert r2.nonvacuity.cached and len(_entries(fresh)) == n_files
    cat = run_catalogue([th])
    hits, n = cat.verdict_counts()
    assert hits == n > 0 and cat.to_json()["cache"]["from_cache"] == n


def test_a_changed_step_is_resolved_and_the_unchanged_one_is_not(fresh):
    _run(_th(b >= 1))
    r, calls = _run(_th(b >= 0))              # only step "second" (and "end") changed
    assert r.status == PROVED
    assert _step(r, "first").from_cache == "all"
    second, end = _step(r, "second"), _step(r, "end")
    assert not second.verdict.cached and not any(v.cached for v in second.cross)
    assert second.hyps_sat.cached             # its hypotheses did not change: that question is the same
    assert second.from_cache == "some" and end.from_cache == "none"
    # exactly the changed steps' texts went to z3 and to cvc5: two each
    assert calls.get("z3") == 2 and calls.get("cvc5") == 2 and calls.get("z3-sat") == 1


def test_no_cache_rechecks_everything_and_writes_nothing(fresh):
    th = _th(b >= 1)
    _run(th)
    with open(_pack(fresh), "rb") as fh:
        before = fh.read()
    r, calls = _run(th, use_cache=False)
    assert r.status == PROVED and calls.get("z3", 0) >= 3 and calls.get("cvc5", 0) >= 3
    assert all(s.from_cache == "none" for s in r.steps)
    with open(_pack(fresh), "rb") as fh:
        assert fh.read() == before
    cat = run_catalogue([th], use_cache=False)
    assert cat.to_json()["cache"]["directory"] is None
    # in one process: answers read from the disk earlier are not re-used without the cache either
    checks.reset_memo()
    assert run_catalogue([th]).verdict_counts()[0] > 0
    engines.CALLS.clear()
    r = run_catalogue([th], use_cache=False).by_id(th.id)
    assert not any(v.cached for s in r.steps for v in [s.verdict, *s.cross, s.hyps_sat])
    assert engines.CALLS.get("z3", 0) >= 3


# --------------------------------------------------------------------------- never trusted
def test_corrupted_truncated_and_foreign_entries_are_misses(fresh):
    th = _th(b >= 1)
    _run(th)
    lines = _lines(fresh)
    verdicts = [i for i, x in enumerate(lines) if isinstance(json.loads(x[130:]), dict)]
    assert len(lines) >= 4 and verdicts
    v = verdicts[0]
    t, f, g = [i for i in range(len(lines)) if i != v][:3]
    lines[t] = lines[t][:-5]                                      # torn: a writer killed mid-record
    entry = json.loads(lines[v][130:])                           # an edited answer: the checksum no longer matches
    entry["status"] = "refuted" if entry["status"] == "proved" else "proved"
    lines[v] = lines[v][:130] + json.dumps(entry, sort_keys=True, separators=(",", ":")).encode()
    lines[f] = lines[f][:65] + lines[g][65:]                      # another question's record under this key
    junk = b"\xff\xfe not json"                                   # a checksum that matches, and no JSON
    lines[g] = lines[g][:65] + hashlib.sha256(lines[g][:64] + b"\n" + junk).hexdigest().encode() + b" " + junk
    _write_lines(fresh, lines)
    cache.STATS.update(rejected=0)
    r, calls = _run(th)
    assert r.status == PROVED
    assert sum(calls.values()) == 4 and cache.STATS["rejected"] == 4
    r, calls = _run(th)                                 # the re-solved answers were appended
    assert calls == {}


def test_a_torn_last_record_is_ignored_and_the_next_record_starts_on_a_line_of_its_own(fresh):
    answer = {"status": PROVED, "engine": "z3", "seconds": 0.0, "counterexample": None, "reason": ""}
    k1, k2 = cache.key("z3", "z3", "one"), cache.key("z3", "z3", "two")
    cache.store(k1, answer)
    cache.forget()
    whole = open(_pack(fresh), "rb").read()
    with open(_pack(fresh), "ab") as fh:                # a writer killed half-way through k2's record
        fh.write(whole.replace(k1.encode(), k2.encode())[:100])
    assert cache.load(k1) == answer and cache.load(k2) is None
    cache.forget()
    cache.store(k2, answer)                             # another process appends
    cache.forget()
    assert cache.load(k1) == answer and cache.load(k2) == answer
    assert [k for k, _ in _entries(fresh)] == [k1, k2] and len(_lines(fresh)) == 3


def test_writers_in_several_processes_never_interleave_their_records(fresh):
    code = ("import sys\nfrom proofs.engines import cache\n"
            "a = {'status': 'proved', 'engine': 'z3', 'seconds': 0.0, 'counterexample': None, 'reason': 'x' * 3000}\n"
            "for i in range(150):\n    cache.store(cache.key('z3', 'z3', sys.argv[1] + str(i)), a)\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    ps = [subprocess.Popen([sys.executable, "-c", code, f"w{j}-"], env=env) for j in range(4)]
    assert [p.wait(timeout=300) for p in ps] == [0] * 4
    keys = {cache.key("z3", "z3", f"w{j}-{i}") for j in range(4) for i in range(150)}
    assert len(_lines(fresh)) == 600 and {k for k, _ in _entries(fresh)} == keys


def test_a_pack_past_its_limit_is_emptied_by_the_next_writer(fresh, monkeypatch):
    answer = {"status": PROVED, "engine": "z3", "seconds": 0.0, "counterexample": None, "reason": ""}
    keys = [cache.key("z3", "z3", str(i)) for i in range(5)]
    for k in keys[:4]:
        cache.store(k, answer)
    size = os.path.getsize(_pack(fresh))
    monkeypatch.setattr(cache, "PACK_LIMIT", size - 1)
    cache.store(keys[4], answer)
    assert [k for k, _ in _entries(fresh)] == [keys[4]]


def test_a_foreign_proved_entry_does_not_prove_a_false_step(fresh):
    true_th, false_th = _th(b >= 1), _th(b >= 2)        # a >= 1, b >= a does not give b >= 2
    _run(true_th)

    def answer(line):
        return json.loads(line[130:])
    proved = {answer(x)["engine"]: x for x in _lines(fresh)
              if isinstance(answer(x), dict) and answer(x)["status"] == PROVED}
    assert set(proved) == {"z3", "cvc5"}
    r, _ = _run(false_th)
    assert r.status != PROVED
    lines, n = _lines(fresh), 0
    for i, x in enumerate(lines):                       # every refutation now claims "proved"
        a_ = answer(x)
        if isinstance(a_, dict) and a_["status"] == REFUTED:
            lines[i] = x[:65] + proved[a_["engine"]][65:]
            n += 1
    assert n >= 2
    _write_lines(fresh, lines)
    r, calls = _run(false_th)
    assert r.status != PROVED and _step(r, "second").verdict.status == REFUTED
    assert not _step(r, "second").verdict.cached and calls.get("z3", 0) >= 1


def test_a_stored_answer_of_the_wrong_kind_is_a_miss(fresh):
    k = cache.key("z3", "z3", "(check-sat)")
    for bad in ({"status": UNKNOWN, "engine": "z3", "seconds": 0.1, "counterexample": None, "reason": ""},
                {"status": SAT, "engine": "z3", "seconds": 0.1, "counterexample": None, "reason": ""},
                {"status": PROVED, "engine": "cvc5", "seconds": 0.1, "counterexample": None, "reason": ""},
                {"status": PROVED, "engine": "z3", "seconds": "fast", "counterexample": None, "reason": ""}):
        cache.store(k, bad)
        checks.reset_memo()
        assert engines.recall("z3", "z3", ("(check-sat)",)) is None
    cache.store(k, {"status": PROVED, "engine": "z3", "seconds": 0.1, "counterexample": None, "reason": ""})
    checks.reset_memo()
    assert engines.recall("z3", "z3", ("(check-sat)",)).cached


def test_unknown_is_never_stored(fresh, monkeypatch):
    def killed(payload, timeout_ms):                    # every engine "exceeded its limit"
        f = Future()
        f.set_result(None)
        return f
    monkeypatch.setattr(workers, "submit", killed)
    r, calls = _run(_th(b >= 1))
    assert r.status == UNKNOWN and calls.get("z3", 0) >= 3
    stored = [x for _, x in _entries(fresh)]
    verdicts = [x for x in stored if isinstance(x, dict)]
    assert all(v["status"] != UNKNOWN for v in verdicts)
    assert not [x for x in stored if isinstance(x, list) and x and x[0] is True]   # no replay either


# --------------------------------------------------------------------------- the key
def test_the_key_covers_engine_versions_the_suite_and_the_code(tmp_path, monkeypatch):
    here = os.path.join(ROOT, "proofs")
    copy = tmp_path / "proofs"
    copy.mkdir()
    for f in cache.CODE_FILES:
        (copy / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(os.path.join(here, f), copy / f)
    base = cache.code_context(str(copy))
    assert cache.code_context(str(copy)) == base
    for f in ("kernel/kernel.py", "kernel/rules.py", "printers/smtlib.py", "language/formula.py",
              "language/substitution.py", "printers/symbolic.py", "engines/engines.py", "printers/printer.py",
              "printers/exact.py"):
        assert f in cache.CODE_FILES
    with open(copy / "kernel" / "rules.py", "a") as fh:            # one byte of the rules
        fh.write("\n")
    changed = cache.code_context(str(copy))
    assert changed != base
    real = cache._dist_version
    for dist in ("z3-solver", "cvc5", "sympy", "mistakebound"):
        monkeypatch.setattr(cache, "_dist_version", lambda d, dist=dist: "9.9.9" if d == dist else real(d))
        assert cache.code_context(str(copy)) != changed, dist
    monkeypatch.setattr(cache, "_dist_version", real)
    assert cache.code_context(str(copy)) == changed
    assert cache.engine_versions()["z3-solver"].split()[0][0].isdigit()
    assert cache.key("z3", "z3", "x") != cache.key("cvc5", "cvc5", "x") != cache.key("z3", "z3", "x ")


def test_entries_are_written_whole_with_their_modes_by_concurrent_writers(fresh):
    k = cache.key("z3", "z3", "(assert false)")
    answer = {"status": PROVED, "engine": "z3", "seconds": 0.0, "counterexample": None, "reason": ""}
    seen = []

    def hammer():
        for _ in range(50):
            cache.store(k, answer)
            seen.append(cache.load(k))
    ts = [threading.Thread(target=hammer) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all(x in (None, answer) for x in seen) and answer in seen
    assert _entries(fresh) and all(x == (k, answer) for x in _entries(fresh))
    assert all(x[:64] == k.encode() for x in _lines(fresh))           # every line a whole record
    f = _pack(fresh)
    assert stat.S_IMODE(os.stat(f).st_mode) == 0o644
    assert stat.S_IMODE(os.stat(os.path.dirname(f)).st_mode) == 0o755
    assert os.listdir(os.path.dirname(f)) == ["pack"]


def test_the_test_session_never_reads_the_users_cache():
    home = os.path.join(os.path.expanduser("~"), ".cache")
    assert not cache.directory().startswith(home)
    assert "mistakebound-test-cache-" in os.environ["XDG_CACHE_HOME"]


# --------------------------------------------------------------------------- the command
def _verify(env, *args):
    p = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--theorem", "cauchy_schwarz", "-q",
                        "--json", "-", *args], capture_output=True, text=True, env=env, timeout=600)
    return p.returncode, json.loads(p.stdout), p.stderr


def test_cli_reports_hits_per_step_and_in_the_summary_and_no_cache_rechecks(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=ROOT)
    rc, cold, err = _verify(env)
    assert rc == 0 and "(0/" in err and cold["cache"]["from_cache"] == 0
    rc, warm, err = _verify(env)
    n = warm["cache"]["verdicts"]
    assert rc == 0 and f"({n}/{n} verdicts from the proof cache)" in err
    steps = [s for t in warm["theorems"] for s in t["steps"]]
    assert steps and all(s["from_cache"] == "all" for s in steps)
    # a warm run loads no engine (nor numpy) and starts no worker process
    probe = ("import sys\nfrom mistakebound.cli import main\n"
             "try:\n    main(['verify', '--theorem', 'cauchy_schwarz', '-q'])\n"
             "except SystemExit as e:\n    code = e.code\nfrom proofs.engines import workers\n"
             "print(code, sorted(m for m in ('z3', 'cvc5', 'sympy', 'numpy', 'numba') if m in sys.modules), "
             "len(workers._POOL.children))")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=600)
    assert p.stdout.split("\n")[-2] == "0 [] 0", p.stdout + p.stderr
    rc, again, err = _verify(env, "--no-cache")
    assert rc == 0 and "(proof cache not used)" in err
    assert all(s["from_cache"] == "none" for t in again["theorems"] for s in t["steps"])


def test_two_runs_at_once_share_one_cache(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=ROOT)
    cmd = [sys.executable, "-m", "mistakebound", "verify", "--theorem", "cauchy_schwarz", "-q"]
    ps = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in ps]
    assert [p.returncode for p in ps] == [0, 0], outs
    pack = _pack(tmp_path / "mistakebound")
    with open(pack, "rb") as fh:
        lines = fh.read().split(b"\n")[:-1]
    assert lines and len(cache.records(pack)) == len(lines)           # every line a whole, valid record
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and "verdicts from the proof cache" in p.stdout
    hits, n = p.stdout.rsplit("(", 1)[1].split(" ")[0].split("/")
    assert hits == n and int(n) > 0


def test_a_replay_outside_the_registry_is_never_taken_from_the_cache(fresh):
    from proofs.catalogue import registry
    real = next(t for t in registry.all_theorems() if t.kind == "erratum" and t.witness_check is not None)
    for ok in (True, False):
        twin = Theorem(id=real.id, name=real.name, source=real.source, kind="erratum", hypotheses=real.hypotheses,
                       conclusion=real.conclusion, counterexample=real.counterexample,
                       witness_check=lambda ok=ok: (ok, "a replay written here"), witness_dim=real.witness_dim)
        r = run_catalogue([twin]).by_id(real.id)
        assert r.witness == (ok, "a replay written here")
    assert not [x for _, x in _entries(fresh) if isinstance(x, list) and x[:1] == [True]]


def test_the_registrys_replay_is_kept_when_it_confirmed_the_counterexample(fresh):
    from proofs.catalogue import registry
    real = next(t for t in registry.all_theorems() if t.kind == "erratum" and t.witness_check is not None)
    r1, calls1 = _run(real)
    r2, calls2 = _run(real)
    assert r1.witness[0] is True and calls1.get("replay") == 1
    assert r2.witness == (True, r1.witness[1] + " (replay from the proof cache)") and calls2 == {}
    assert r2.status == r1.status == REFUTED


# --------------------------------------------------------------------------- the workers
def test_a_job_past_its_deadline_is_none_and_the_next_jobs_go_to_a_fresh_child(monkeypatch):
    monkeypatch.setenv("MISTAKEBOUND_WORKERS", "1")
    pool = workers._Pool()
    text = "(declare-const x Real)\n(assert (> (* x x) 2.0))\n(check-sat)\n"
    try:
        ok = pool.submit({"op": "z3", "smt": text, "timeout_ms": 5000}, 5000).result(timeout=120)
        assert ok["answer"] == "sat"
        first = pool.children[0].proc
        monkeypatch.setattr(workers, "MARGIN", -60.0)        # every deadline has passed before it is awaited
        monkeypatch.setattr(workers, "START_ALLOWANCE", 0.0)  # (a 1 ms deadline raced a 0.7 ms answer)
        fs = [pool.submit({"op": "z3", "smt": text, "timeout_ms": 5000}, 5000) for _ in range(6)]
        assert [f.result(timeout=120) for f in fs] == [None] * 6      # killed: "unknown", never an answer
        assert first.poll() is not None                               # that child was killed
        monkeypatch.setattr(workers, "MARGIN", 2.0)
        monkeypatch.setattr(workers, "START_ALLOWANCE", 10.0)
        again = [pool.submit({"op": "z3", "smt": text, "timeout_ms": 5000}, 5000) for _ in range(4)]
        assert [f.result(timeout=120)["answer"] for f in again] == ["sat"] * 4
    finally:
        pool.shutdown()


def test_a_cache_directory_that_cannot_be_written_costs_nothing_but_time(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    r, calls = _run(_th(b >= 1))
    assert r.status == PROVED and calls.get("z3", 0) >= 3 and blocker.read_text() == "not a directory"
    r, calls = _run(_th(b >= 1))
    assert r.status == PROVED and calls.get("z3", 0) >= 3


def test_an_answer_is_kept_when_it_arrives_before_anyone_asks_for_it(fresh, monkeypatch):
    """The cache is written by the thread that receives an answer (while the run goes on), once,
    and only a definite answer; get() then returns that very verdict."""
    sent = []

    def held(payload, timeout_ms):                      # the test plays the worker: answers arrive when it says
        f = Future()
        sent.append((payload, f))
        return f
    monkeypatch.setattr(workers, "submit", held)
    texts = ["(assert false)\n(check-sat)\n", "(assert true)\n(check-sat)\n", "(check-sat) ; killed\n"]
    ps = [engines.PendingZ3(t, 1000) for t in texts]
    sat = engines.PendingSat(["(assert true)\n(check-sat)\n"])
    assert len(sent) == 4 and not _entries(fresh)
    for (_, f), res in zip(sent, [{"answer": "unsat"}, {"answer": "sat", "model": {}}, None,
                                  {"answers": [{"answer": "sat", "model": {}}]}]):
        f.set_result(res)                               # the callbacks run here, before any get()
    stored = dict(_entries(fresh))
    assert stored[cache.key("z3", "z3", texts[0])]["status"] == PROVED
    assert stored[cache.key("z3", "z3", texts[1])]["status"] == REFUTED
    assert cache.key("z3", "z3", texts[2]) not in stored                  # unknown: never kept
    assert stored[cache.key("z3-sat", "z3", "(assert true)\n(check-sat)\n")]["status"] == SAT
    assert len(stored) == 3
    assert [p.get().status for p in ps] == [PROVED, REFUTED, UNKNOWN] and sat.get()[0].status == SAT
    assert len(_entries(fresh)) == 3                    # get() did not write again
