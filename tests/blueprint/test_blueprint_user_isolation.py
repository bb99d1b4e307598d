"""A user's theorem file cannot reach what the checking process reads (``verify --file``).

The file runs in its own process, confined by ``sandbox.confine`` before it is read: writes only
in a fresh temporary directory.  Each attack here is what a hostile file would do to make a false
statement ("M <= 8" for the tutorial's perceptron with margin at least 1/3: the orthonormal run in
R^9 makes 9 mistakes) come out "proved" in a *later* run: append a forged "proved" record to the
proof cache, append to ``proofs/kernel/rules.py``, add its rule to the checker's fixed table
(``checker/schemas.py``).  Without the confinement the second run said "proved"; now no write
lands, and the report names the isolation level.  The end-to-end cases run on a copy of the
suite's packages, so that an attack that did land would not damage this tree.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("learners", "proofs", "coq", "adversary", "refutation", "blueprint", "grading", "mistakebound",
            "sandbox", "checker")

HOSTILE = '''
import os
from fractions import Fraction
from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Eq, dot, forall_below, num
from proofs.catalogue.perceptron_run import M, g, k, run_hypotheses, u, x, y
from proofs.kernel.rules import INT, TrustedRule, register

register(TrustedRule("eight", "every number is at most 8", "none", {"le8": ((INT,), lambda t: t <= 8)}))
TRIED = []


def attempt(what, fn):
    try:
        fn()
        TRIED.append(what)
    except OSError:
        pass


def forge_cache():
    from proofs.engines import cache
    d = os.path.join(CACHE, "mistakebound", "v2")
    os.makedirs(d, exist_ok=True)
    rec = cache._record(cache.key("z3", "z3", "(assert false)"),
                        {"status": "proved", "engine": "z3", "seconds": 0.0, "counterexample": None, "reason": ""})
    with open(os.path.join(d, "pack"), "ab") as fh:
        fh.write(rec)


def append_rules():
    import proofs.kernel.rules
    with open(proofs.kernel.rules.__file__, "a") as fh:
        fh.write("\\n# edited by a theorem file\\n")


def extend_the_checkers_table():
    import checker.schemas
    with open(checker.schemas.__file__, "a") as fh:
        fh.write("\\nSCHEMAS['eight'] = {'le8': ((INT,), lambda t: le(t, lit(8)))}\\n")


def drop_a_path_file():
    with open(os.path.join(SITE, "zz_mistakebound_patch.pth"), "w") as fh:
        fh.write("import checker; checker.decide = None\\n")


attempt("cache", forge_cache)
attempt("rules", append_rules)
attempt("table", extend_the_checkers_table)
attempt("site", drop_a_path_file)

HYPOTHESES = run_hypotheses() + [
    ("margin", forall_below(k, M, y(k) * dot(x(k), u) >= g)),
    ("unit_examples", forall_below(k, M, Eq(dot(x(k), x(k)), 1))),
    ("unit_target", Eq(dot(u, u), 1)),
    ("gamma_pos", g > 0),
    ("margin_at_least_a_third", g >= num(Fraction(1, 3))),
]
THEOREMS = [Theorem(id="hostile_eight", name="M <= 8, through a rule of its own",
                    source=Source("", "a hostile file", ""), hypotheses=HYPOTHESES, conclusion=M <= 8,
                    proof=lambda p: p.rule("eight", "le8", M))]
'''


def _digest(tree: Path) -> dict:
    return {str(p.relative_to(tree)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(tree.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture()
def copy(tmp_path):
    tree = tmp_path / "tree"
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, tree / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    return tree


def _verify(tree: Path, f: Path, cache: Path):
    env = dict(os.environ, PYTHONPATH=str(tree), XDG_CACHE_HOME=str(cache))
    out = f.parent / "report.json"
    p = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--file", str(f), "--json", str(out)],
                       cwd=tree, env=env, capture_output=True, text=True, timeout=900)
    return p, json.loads(out.read_text()) if out.exists() else None


@pytest.mark.slow
def test_a_hostile_file_writes_nothing_the_checker_reads(copy, tmp_path):
    cache, site = tmp_path / "cache", tmp_path / "site"
    site.mkdir()
    f = tmp_path / "hostile.py"
    f.write_text(f"CACHE = {str(cache)!r}\nSITE = {str(site)!r}\n" + HOSTILE)
    before = _digest(copy)
    for _ in range(2):       # the second run would read what the first one wrote
        p, rep = _verify(copy, f, cache)
        assert rep is not None, p.stdout + p.stderr
        iso = rep["isolation"]
        if iso["level"] == "reduced":
            assert "isolation level reduced" in p.stdout
            pytest.skip(f"neither Landlock nor namespaces here: {iso['missing']}")
        assert iso["level"] in ("landlock", "namespaces") and f"isolation level {iso['level']}" in p.stdout
        (th,) = rep["theorems"]
        assert th["status"] != "proved" and not th["ok"] and p.returncode == 1, th
        assert th["assumptions"] == ["eight.le8"]
    assert _digest(copy) == before                      # not a byte of the suite's sources changed
    assert list(site.iterdir()) == []
    from proofs.engines import cache as pc
    forged = pc.key("z3", "z3", "(assert false)")
    pack = cache / "mistakebound" / "v2" / "pack"
    assert not pack.exists() or forged.encode() not in pack.read_bytes()


CONFINED = '''
import json, os, sys
sys.path.insert(0, sys.argv[1])
from sandbox.confine import confine
mode, work, outside, parent = sys.argv[2:6]
rec = confine(work, landlock=mode == "landlock", namespaces=mode == "namespaces")
got = {"level": rec["level"]}
def attempt(name, fn):
    try:
        fn()
        got[name] = "done"
    except OSError as e:
        got[name] = type(e).__name__
attempt("own", lambda: open(os.path.join(work, "a"), "w").write("1"))
attempt("outside", lambda: open(os.path.join(outside, "b"), "w").write("1"))
attempt("append", lambda: open(os.path.join(outside, "kept"), "a").write("1"))
attempt("rename", lambda: os.rename(os.path.join(outside, "kept"), os.path.join(work, "kept")))
attempt("link", lambda: os.link(os.path.join(outside, "kept"), os.path.join(work, "hard")))
attempt("read", lambda: open(os.path.join(outside, "kept")).read())
attempt("devnull", lambda: open(os.devnull, "w").write("1"))
attempt("memory", lambda: open(f"/proc/{parent}/mem", "r+b"))
print(json.dumps(got))
'''


@pytest.mark.parametrize("mode", ["landlock", "namespaces"])
def test_confine_allows_writes_in_its_directory_only(tmp_path, mode):
    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "kept").write_text("kept")
    p = subprocess.run([sys.executable, "-I", "-c", CONFINED, str(ROOT), mode, str(work), str(outside),
                        str(os.getpid())], capture_output=True, text=True, timeout=120)
    got = json.loads(p.stdout.strip().splitlines()[-1])
    if got["level"] == "reduced":
        pytest.skip(f"{mode} is not available here")
    assert got["level"] == mode
    assert got["own"] == got["read"] == got["devnull"] == "done"
    for attack in ("outside", "append", "rename", "link", "memory"):
        assert got[attack] != "done", (attack, got)
    assert (outside / "kept").read_text() == "kept" and sorted(os.listdir(outside)) == ["kept"]


def test_unconfined_the_proof_cache_is_neither_read_nor_written(monkeypatch):
    """Where the file's process could not be confined ("reduced"), the run decides without the cache."""
    from blueprint import user_theorems as ut
    from proofs.engines import cache
    seen = []
    monkeypatch.setattr(ut, "_run_child", lambda path: ({"theorems": []}, ut._isolation(b"")))
    monkeypatch.setattr(ut, "_decide", lambda path, data, progress: (seen.append(cache.enabled()) or [], []))
    was = cache.enabled()
    cache.set_enabled(True)
    try:
        _, _, iso = ut.check_file(str(ROOT / "mistakebound" / "examples" / "my_theorems.py"))
        assert iso["level"] == "reduced" and iso["missing"] and seen == [False] and cache.enabled()
        ok = {"level": "landlock", "network": "none", "landlock": 7, "why": []}
        monkeypatch.setattr(ut, "_run_child", lambda path: ({"theorems": []}, ut._isolation(json.dumps(ok).encode())))
        _, _, iso = ut.check_file(str(ROOT / "mistakebound" / "examples" / "my_theorems.py"))
        assert iso["level"] == "landlock" and seen == [False, True]
    finally:
        cache.set_enabled(was)


def test_a_record_of_another_shape_is_reduced():
    from blueprint.user_theorems import _isolation
    for raw in (b"", b"[]", b"{\"level\": \"root\"}", b"\xff", json.dumps({"level": "landlock", "why": 3}).encode()):
        iso = _isolation(raw)
        assert iso["level"] in ("reduced", "landlock")
        if raw != json.dumps({"level": "landlock", "why": 3}).encode():
            assert iso["level"] == "reduced" and iso["missing"]


def test_a_coq_proof_file_cannot_write_a_file_through_extraction():
    """``verify --file --coq`` compiles the user's Coq file (confined besides:
    tests/coq/test_coq_user_isolation.py): Coq's ``Extraction "FILE" term`` would write FILE anywhere
    (coqc did write /tmp/.../pwned.ml before the audit refused it), ``Extraction TestCompile``
    would run the OCaml compiler."""
    from coq.checks import refused_commands
    for src in ('From Coq Require Extraction.\nExtraction "/tmp/pwned.ml" nat.\n', "Recursive Extraction nat.\n",
                'Separate Extraction nat.\n', "Extraction TestCompile nat.\n"):
        got = refused_commands({"mine.v": src})
        assert got and all("no extraction" in g for g in got), src
    assert refused_commands({"mine.v": "(* Extraction, in a comment *)\nDefinition Extractionless := 1.\n"}) == []


def test_a_level_the_system_does_not_allow_is_reduced():
    """Where nothing confines the file's process, it could replace the record it sent: a level the
    parent's own probe (``sandbox.confine.possible``) does not find is reported as reduced."""
    from blueprint.user_theorems import _isolation
    from sandbox.confine import possible
    rec = json.dumps({"level": "landlock", "network": "none", "landlock": 7, "why": []}).encode()
    assert _isolation(rec, {"reduced"})["level"] == "reduced"
    assert "does not allow" in _isolation(rec, {"reduced", "namespaces"})["missing"][0]
    assert _isolation(rec, {"reduced", "landlock"})["level"] == "landlock"
    here = possible()
    assert "reduced" in here and here <= {"reduced", "landlock", "namespaces"}

