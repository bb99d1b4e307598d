"""Compiling the development: dependency order from the Require lines, two coqc processes at a
time, and reuse of a compiled file when neither its text nor anything it requires changed (a
content hash with the coqc version, kept next to the .vo)."""
from __future__ import annotations

import functools
import hashlib
import os
import re
import subprocess
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path

from coq.generate import LOGICAL

__all__ = ["default_build_dir", "coqc_version", "order", "compile_all", "write_files", "strip_comments",
           "self_contained", "coq_env"]

_REQUIRE = re.compile(rf"\b{LOGICAL}\.(\w+)")


_COMMENT_MARK = re.compile(r"\(\*|\*\)")


@functools.lru_cache(maxsize=256)
def strip_comments(text: str) -> str:
    """Coq text without comments (nested) and with string contents emptied.  (A scan from one comment
    mark to the next: the probe and step files are megabytes, and every build reads each file's
    Require lines several times, hence the cache.)"""
    out, depth, pos = [], 0, 0
    for m in _COMMENT_MARK.finditer(text):
        if m.group() == "(*":
            if not depth:
                out.append(text[pos:m.start()])
            depth += 1
        elif depth:                       # "*)" closing a comment ("*)" outside one is text)
            depth -= 1
            if not depth:
                pos = m.end()
    if not depth:
        out.append(text[pos:])
    return re.sub(r'"[^"]*"', '""', "".join(out))


def _deps(text: str, known: set[str]) -> list[str]:
    code = strip_comments(text)
    out = []
    for m in re.finditer(r"\b(?:Require|From)\b.*?\.(?=\s|$)", code, re.S):
        for mod in _REQUIRE.findall(m.group(0)):
            f = f"{mod}.v"
            if f in known and f not in out:
                out.append(f)
    return out


def default_build_dir() -> Path:
    env = os.environ.get("MISTAKEBOUND_COQ_BUILD")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "mistakebound" / "coq"


# OCaml's garbage collector with a larger minor heap and less eager major collection: loading the
# standard library's reals (most of a small file's coqc run) takes less CPU (measured, user + system
# time: Catalogue_vectors.v 0.82 s against 1.03 s; four files, Glue/Statements/WinnowBounds/
# Catalogue_vectors, 6.1 s against 6.3 s; ~20 MB more memory).  A minor heap of 16M words rather
# than 4M: Catalogue_vectors.v 0.90 s against 1.05 s, Steps_winnow.v 7.3 s against 7.8 s (three
# and four runs each, a loaded machine; ~100 MB more memory per coqc).  A value the user set is kept.
GC_SETTINGS = "s=16M,o=200"


def coq_env() -> dict:
    """The environment of a coqc run: the caller's, with :data:`GC_SETTINGS` unless OCAMLRUNPARAM is set."""
    env = dict(os.environ)
    env.setdefault("OCAMLRUNPARAM", GC_SETTINGS)
    return env


def coqc_version(coqc: str) -> str:
    """e.g. "8.16.1" (the whole first line if no version number is found)."""
    try:
        r = subprocess.run([coqc, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return ""
    m = re.search(r"version\s+(\S+)", r.stdout)
    return m.group(1) if m else " ".join(r.stdout.split()[:8])


def order(files: dict[str, str]) -> tuple[list[str], dict[str, list[str]]]:
    known = set(files)
    deps = {f: [d for d in _deps(t, known) if d != f] for f, t in files.items()}
    order, seen, temp = [], set(), set()

    def visit(f):
        if f in seen:
            return
        if f in temp:
            raise RuntimeError(f"circular Require involving {f}")
        temp.add(f)
        for d in deps[f]:
            visit(d)
        temp.discard(f)
        seen.add(f)
        order.append(f)
    for f in sorted(files):
        visit(f)
    return order, deps


def compile_all(coqc: str, version: str, bdir: Path, files: dict[str, str], jobs: int, report: CoqReport,
                 progress=None, later=None, waiting: dict | None = None,
                 failures: dict | None = None) -> tuple[set[str], dict[str, str]]:
    """Compile in dependency order; returns the files that are built (compiled or reused) and
    every file's content key (its text, its requirements' keys, the coqc version).

    ``later``: a future of more files (those still being generated when the compilation starts;
    ``files`` then require none of them): they join the schedule when it resolves.  ``waiting``:
    CPU seconds of the work known to wait on a file until then (it ranks the files).  ``failures``
    (file -> content key, filled in): a file that failed with the same key is not compiled again."""
    failures = {} if failures is None else failures
    files = dict(files)
    keys: dict[str, str] = {}
    ok: set[str] = set()
    failed: set[str] = set()
    running: dict = {}

    def plan():
        seq, deps = order(files)
        for f in seq:
            if f not in keys:
                h = hashlib.sha256(version.encode())
                h.update(files[f].encode())
                for d in deps[f]:
                    h.update(keys[d].encode())
                keys[f] = h.hexdigest()
        busy = set(running.values())
        return [f for f in _by_critical_path(seq, deps, bdir, waiting if later is not None else None)
                if f not in ok and f not in failed and f not in busy], deps

    pending, deps = plan()

    def work(f):
        log = bdir / (f[:-2] + ".log")
        with open(log, "w") as fh:
            p = subprocess.Popen([coqc, "-q", "-R", ".", LOGICAL, f], cwd=bdir, stdout=fh, stderr=subprocess.STDOUT,
                                 env=coq_env())
            _, status, ru = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
        report.file_seconds[f] = round(ru.ru_utime + ru.ru_stime, 2)
        return p.returncode, log.read_text()

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        while pending or running or later is not None:
            if later is not None and later.done():
                more = later.result() if later.exception() is None else {}
                later = None
                files.update(more)
                pending, deps = plan()
            for f in list(pending):
                if any(d in failed for d in deps[f]):
                    pending.remove(f)
                    failed.add(f)
                    bad = next(d for d in deps[f] if d in failed)
                    report.file_errors[f] = f"not compiled: it requires {bad}, which did not compile"
                    continue
                if not all(d in ok for d in deps[f]):
                    continue
                if failures.get(f) == keys[f] and f in report.file_errors:   # failed earlier in this build
                    pending.remove(f)
                    failed.add(f)
                    continue
                vo, keyf = bdir / (f[:-2] + ".vo"), bdir / (f[:-2] + ".mbkey")
                if vo.exists() and keyf.exists() and keyf.read_text() == keys[f]:
                    pending.remove(f)
                    ok.add(f)
                    report.reused.append(f)
                    continue
                if len(running) >= max(1, jobs):
                    break
                pending.remove(f)
                if keyf.exists():
                    keyf.unlink()
                running[pool.submit(work, f)] = f
            if not running:
                if later is not None:
                    wait([later])
                continue
            done = _wait_any(list(running) + ([later] if later is not None else []))
            done = [d for d in done if d in running]
            if not done:
                continue
            f = running.pop(done[0])
            rc, out = done[0].result()
            if rc == 0:
                (bdir / (f[:-2] + ".mbkey")).write_text(keys[f])
                ok.add(f)
                report.compiled.append(f)
            else:
                failed.add(f)
                failures[f] = keys[f]
                report.file_errors[f] = _short_error(out)
            if progress:
                progress(f, rc == 0, report.file_seconds.get(f, 0.0))
    save_times(bdir, report.file_seconds)
    return ok, keys


def _by_critical_path(seq, deps, bdir: Path, waiting: dict | None = None) -> list[str]:
    """The files, longest remaining chain of work first (each file's CPU seconds from the last build,
    ``times.json``; when unknown 5 s for a generated step file, whose tactics are the long part, and
    1 s for any other; ``waiting``: work outside ``seq`` known to wait on a file): a ready file that
    many others wait on, or a long step file, starts before a short leaf, so two coqc keep busy to
    the end."""
    import json
    try:
        cost = json.loads((bdir / "times.json").read_text())
    except (OSError, ValueError):
        cost = {}
    users: dict[str, list[str]] = {f: [] for f in seq}
    for f in seq:
        for d in deps[f]:
            users[d].append(f)
    chain: dict[str, float] = {}
    for f in reversed(seq):
        chain[f] = float(cost.get(f, 5.0 if f.startswith(("Steps_", "ChecksProbe")) else 1.0)) \
            + max([chain[u] for u in users[f]] + [float((waiting or {}).get(f, 0.0))])
    return sorted(seq, key=lambda f: -chain[f])


def save_times(bdir: Path, seconds: dict):
    import json
    try:
        old = json.loads((bdir / "times.json").read_text())
    except (OSError, ValueError):
        old = {}
    old.update(seconds)
    (bdir / "times.json").write_text(json.dumps(old, indent=0, sort_keys=True))


def _wait_any(running):
    done, _ = wait(list(running), return_when=FIRST_COMPLETED)
    return done


def _short_error(out: str) -> str:
    """The location and first lines of Coq's error (warnings skipped)."""
    lines = [ln for ln in out.strip().splitlines() if ln.strip()]
    for i, ln in enumerate(lines):
        if ln.startswith("Error"):
            head = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].startswith("File ")), "")
            return " ".join(x.strip() for x in [head] + lines[i:i + 5])[:600]
    return " ".join(lines[-6:])[:600]


def self_contained(files: dict[str, str]) -> dict[str, str]:
    """The files whose every ``Require`` of the development (transitively) is among ``files``: those
    that can be compiled before the rest of the development is generated."""
    reqs = {f: {f"{m}.v" for m in _REQUIRE.findall(" ".join(
        m.group(0) for m in re.finditer(r"\b(?:Require|From)\b.*?\.(?=\s|$)", strip_comments(t), re.S)))} - {f}
        for f, t in files.items()}
    keep = set(files)
    changed = True
    while changed:
        changed = False
        for f in list(keep):
            if not reqs[f] <= keep:
                keep.discard(f)
                changed = True
    return {f: t for f, t in files.items() if f in keep}


def write_files(bdir: Path, files: dict[str, str], keep=(), prune: bool = True):
    """Write the files that changed; ``prune``: remove the files of an earlier catalogue (and the
    _CoqProject lists exactly ``files``)."""
    for p in (bdir.glob("*.v") if prune else ()):          # files of an earlier catalogue (a step group that is gone)
        if p.name not in files and p.name not in keep and not p.name.startswith(("Checks", "DifferentialRun")):
            for ext in (".v", ".vo", ".vok", ".vos", ".glob", ".mbkey", ".log"):
                q = p.with_suffix(ext)
                if q.exists():
                    q.unlink()
    for name, text in files.items():
        p = bdir / name
        if not p.exists() or p.read_text() != text:
            p.write_text(text)
    if prune:
        (bdir / "_CoqProject").write_text(f"-R . {LOGICAL}\n" + "".join(f"{f}\n" for f in order(files)[0]))
