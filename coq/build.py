"""Build the Coq development and report, per catalogue theorem, whether Coq's kernel checked it.

1. Generate ``Statements.v`` (every catalogue statement, printed from its formula objects) and one
   ``Steps_<family>.v`` per theorem family (every step obligation of every proof, printed from the
   formulas z3 and cvc5 check, with its tactic: the default or a hint from :mod:`.hints`).
2. Copy them and the hand-written ``*.v`` files into a build directory and compile with ``coqc``
   in dependency order (two files at a time), reusing a compiled file when neither it nor
   anything it requires changed (a content hash, not a time stamp).
3. Audit the sources: no ``Admitted``/``admit``, no ``Axiom``/``Parameter``/``Hypothesis``/
   ``Variable``/``Context`` outside ``Axioms.v``; every catalogue theorem's Coq counterpart is
   declared with exactly the generated statement (``Theorem id : id_statement``).
4. ``Print Assumptions`` for every counterpart; an axiom outside the list in ``Axioms.v`` fails it.

A theorem is "kernel-checked" when its counterpart compiled, states the generated statement (an
erratum: its negation) and rests on allowed axioms only.
"""
from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import names
from .compile import coqc_version, compile_all, default_build_dir, strip_comments, write_files
from .generate import LOGICAL, generated_files, step_group, trusted_rules
from .hints import COVERED_FAMILIES

__all__ = ["SRC", "CoqReport", "TheoremCoq", "find_coqc", "build", "generated_files", "emit",
           "audit_sources", "allowed_axioms", "KERNEL_CHECKED", "FAILED", "NOT_INSTALLED"]

SRC = Path(__file__).resolve().parent
KERNEL_CHECKED, FAILED, NOT_INSTALLED = "kernel-checked", "failed", "coq not installed"
_FORBIDDEN = re.compile(r"(?<![\w.'])(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Hypothesis|Hypotheses|"
                        r"Variable|Variables|Conjecture|Context|Admit)(?![\w'])")


@dataclass
class TheoremCoq:
    id: str
    kind: str
    coq_name: str | None
    status: str
    reason: str = ""
    axioms: list = field(default_factory=list)
    steps_total: int = 0
    steps_checked: int = 0
    steps_failed: list = field(default_factory=list)       # step ids Coq rejected
    steps_unchecked: list = field(default_factory=list)    # after a failure in the same file
    steps_not_exported: list = field(default_factory=list)  # (step id, reason)
    rules_discharged: list = field(default_factory=list)   # the suite's trusted rules Coq's proof does without
    steps_required: bool = True        # the family's step tactics are written (hints.COVERED_FAMILIES)

    @property
    def steps_ok(self) -> bool:
        return not (self.steps_failed or self.steps_unchecked or self.steps_not_exported)

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "coq_name": self.coq_name, "status": self.status,
                "reason": self.reason, "axioms": list(self.axioms),
                "steps": {"total": self.steps_total, "kernel_checked": self.steps_checked,
                          "failed": list(self.steps_failed), "unchecked": list(self.steps_unchecked),
                          "not_exported": [{"id": i, "reason": r} for i, r in self.steps_not_exported]},
                "trusted_rules_discharged": list(self.rules_discharged),
                "step_tactics_written": self.steps_required}


@dataclass
class CoqReport:
    available: bool
    coqc: str = ""
    version: str = ""
    build_dir: str = ""
    seconds: float = 0.0
    cpu_seconds: float = 0.0                             # user + system time of every coqc run
    compiled: list = field(default_factory=list)
    reused: list = field(default_factory=list)
    file_errors: dict = field(default_factory=dict)      # file -> first lines of the error
    file_seconds: dict = field(default_factory=dict)     # file -> CPU seconds of its coqc run
    audit: list = field(default_factory=list)            # problems found in the sources
    allowed: dict = field(default_factory=dict)          # axiom -> "reals" | "extra"
    theorems: list = field(default_factory=list)         # TheoremCoq

    @property
    def ok(self) -> bool:
        """Every theorem kernel-checked, and every step of the families whose step tactics are written."""
        return self.available and all(t.status == KERNEL_CHECKED and (t.steps_ok or not t.steps_required)
                                      for t in self.theorems)

    def counts(self) -> tuple[int, int]:
        return sum(t.status == KERNEL_CHECKED for t in self.theorems), len(self.theorems)

    def axioms_used(self) -> list[str]:
        out = []
        for t in self.theorems:
            for a in t.axioms:
                if a not in out:
                    out.append(a)
        return out

    def to_json(self) -> dict:
        k, n = self.counts()
        return {"available": self.available, "coqc": self.coqc, "version": self.version, "build_dir": self.build_dir,
                "seconds": round(self.seconds, 2), "cpu_seconds": round(self.cpu_seconds, 2), "compiled": self.compiled, "reused": self.reused,
                "file_seconds": self.file_seconds,
                "file_errors": self.file_errors, "audit": self.audit, "allowed_axioms": self.allowed,
                "axioms_used": self.axioms_used(), "kernel_checked": k, "theorems_total": n,
                "theorems": [t.to_json() for t in self.theorems]}


# --------------------------------------------------------------------------- sources
def find_coqc() -> str | None:
    p = os.environ.get("MISTAKEBOUND_COQC") or shutil.which("coqc")
    return p if p and os.access(p, os.X_OK) else None


def source_files() -> list[str]:
    """The hand-written files, from ``_CoqProject`` (the generated ones are added by :func:`build`)."""
    out = []
    for line in (SRC / "_CoqProject").read_text().splitlines():
        line = line.strip()
        if line.endswith(".v") and not line.startswith("-"):
            out.append(line)
    return out


def allowed_axioms() -> dict[str, str]:
    """The axioms ``Print Assumptions`` may report, from the "ALLOWED:" lines of Axioms.v."""
    out = {}
    for m in re.finditer(r"ALLOWED:\s*(\S+)\s+(\w+)", (SRC / "Axioms.v").read_text()):
        out[m.group(1)] = m.group(2)
    return out


def audit_sources(files: dict[str, str]) -> list[str]:
    """Problems: a gap (Admitted, admit) or a declared assumption outside Axioms.v."""
    problems = []
    for name, text in sorted(files.items()):
        code = strip_comments(text)
        for m in _FORBIDDEN.finditer(code):
            if name == "Axioms.v" and m.group(1) in ("Axiom", "Axioms"):
                continue
            line = code[:m.start()].count("\n") + 1
            problems.append(f"{name}:{line}: '{m.group(1)}' is not allowed (every axiom lives in Axioms.v; no gaps)")
    return problems


def _failed_lemma(text: str, err: str) -> str | None:
    """The generated lemma at the line Coq's error names."""
    m = re.search(r'line (\d+)', err)
    if not m:
        return None
    line = int(m.group(1))
    name = None
    for i, ln in enumerate(text.splitlines(), 1):
        if i > line:
            break
        mm = re.match(r"Lemma (\w+) :", ln)
        if mm:
            name = mm.group(1)
    return name


def _parse_assumptions(text: str) -> list[str] | None:
    """Axiom names from the output of ``Print Assumptions`` (None when it cannot be read)."""
    if "Closed under the global context" in text:
        return []
    if "Axioms:" not in text:
        return None
    body = text.split("Axioms:", 1)[1]
    out = []
    for line in body.splitlines():
        if line and not line[0].isspace():
            name = line.split(" :", 1)[0].strip()
            if name and name not in out:
                out.append(name)
    return out


# --------------------------------------------------------------------------- the whole build
def build(ids=None, *, jobs: int = 2, build_dir: Path | None = None, progress=None) -> CoqReport:
    """Generate, compile and audit; the report has one entry per selected catalogue theorem."""
    from proofs import registry
    import resource
    t0 = time.monotonic()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    theorems = registry.all_theorems() if not ids else [registry.get(i) for i in ids]
    all_ths = registry.all_theorems()
    coqc = find_coqc()
    if coqc is None:
        rep = CoqReport(available=False)
        rep.theorems = [TheoremCoq(th.id, th.kind, names.coq_name(th.id), NOT_INSTALLED,
                                   "coqc was not found on PATH (apt-get install coq)") for th in theorems]
        return rep
    version = coqc_version(coqc)
    rep = CoqReport(available=True, coqc=coqc, version=version, allowed=allowed_axioms())
    bdir = Path(build_dir) if build_dir else default_build_dir()
    bdir.mkdir(parents=True, exist_ok=True)
    rep.build_dir = str(bdir)
    gen, steps, gen_errors = generated_files(all_ths)
    files = _present_files(gen)
    rep.audit = audit_sources(files)
    # the counterparts' declarations and the Print Assumptions file
    decl_problems: dict[str, str] = {}
    for th in theorems:
        cn = names.coq_name(th.id)
        if cn is None:
            continue
        mod, short = cn.split(".")[-2:]
        text = files.get(f"{mod}.v", "")
        neg = r"~\s*" if th.kind == "erratum" else ""
        if not re.search(rf"\bTheorem\s+{short}\s*:\s*{neg}{th.id}_statement\s*\.", strip_comments(text)):
            want = ("~ " if th.kind == "erratum" else "") + f"{th.id}_statement"
            decl_problems[th.id] = f"{cn} is not declared as 'Theorem {short} : {want}.' in {mod}.v"
    with open(bdir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        write_files(bdir, files)
        built, keys = compile_all(coqc, version, bdir, files, jobs, rep, progress)
        axioms = _assumptions(coqc, bdir, theorems, built, keys, jobs)
    allowed = rep.allowed
    for th in theorems:
        cn = names.coq_name(th.id)
        t = TheoremCoq(th.id, th.kind, cn, FAILED, steps_required=(th.family in COVERED_FAMILIES))
        rows = steps.get(th.id, [])
        t.steps_total = len(rows)
        t.steps_not_exported = [(sid, why) for sid, lem, why in rows if lem is None]
        fam_file = f"Steps_{step_group(th)}.v"
        stopped = None
        before: set = set()
        if fam_file in rep.file_errors:
            stopped = _failed_lemma(files.get(fam_file, ""), rep.file_errors[fam_file])
            names_in_file = re.findall(r"^Lemma (\w+) :", files.get(fam_file, ""), re.M)
            if stopped in names_in_file:
                before = set(names_in_file[:names_in_file.index(stopped)])
        for sid, lem, _ in rows:
            if lem is None:
                continue
            if fam_file in built or lem in before:
                t.steps_checked += 1          # Coq accepted it (before the file stopped)
            elif lem == stopped:
                t.steps_failed.append(sid)
            else:
                t.steps_unchecked.append(sid)
        if cn is None:
            t.reason = t.reason or "no Coq counterpart is named for this theorem (coq/names.py)"
        elif th.id in decl_problems:
            t.reason = decl_problems[th.id]
        elif f"{cn.split('.')[-2]}.v" not in built:
            f = f"{cn.split('.')[-2]}.v"
            t.reason = rep.file_errors.get(f, f"{f} did not compile")
        elif rep.audit:
            t.reason = "the sources break the rules: " + rep.audit[0]
        else:
            got = axioms.get(th.id)
            if got is None:
                t.reason = "Print Assumptions could not be read"
            else:
                t.axioms = got
                bad = [a for a in got if a not in allowed]
                if bad:
                    t.reason = f"rests on an axiom outside Axioms.v's list: {', '.join(bad)}"
                elif th.id in gen_errors:
                    t.reason = gen_errors[th.id]
                else:
                    t.status = KERNEL_CHECKED
                    # a closed Coq proof on the listed axioms: none of the suite's trusted rules is needed
                    t.rules_discharged = trusted_rules(th.id)
        rep.theorems.append(t)
    rep.seconds = time.monotonic() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    rep.cpu_seconds = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    return rep


def _assumptions(coqc: str, bdir: Path, theorems, built: set[str], keys: dict[str, str],
                 jobs: int) -> dict[str, list[str] | None]:
    """``Print Assumptions`` of every counterpart (re-read from the last build when its module is
    unchanged; otherwise run, split over ``jobs`` coqc processes)."""
    out: dict[str, list[str] | None] = {}
    todo = []
    for th in theorems:
        cn = names.coq_name(th.id)
        if cn is None or f"{cn.split('.')[-2]}.v" not in built:
            continue
        key = keys[f"{cn.split('.')[-2]}.v"] + cn
        res, keyf = bdir / f"ax_{th.id}.out", bdir / f"ax_{th.id}.mbkey"
        if res.exists() and keyf.exists() and keyf.read_text() == key:
            out[th.id] = _parse_assumptions(res.read_text())
            continue
        for p in (res, keyf):
            if p.exists():
                p.unlink()
        todo.append((th.id, cn, key))
    if not todo:
        return out
    n = max(1, min(jobs, len(todo)))
    chunks = [todo[i::n] for i in range(n)]

    def run(idx_chunk):
        idx, chunk = idx_chunk
        lines = []
        for tid, cn, _ in chunk:
            lines.append(f"Require {LOGICAL}.{cn.split('.')[-2]}.")
            lines.append(f'Redirect "ax_{tid}" Print Assumptions {LOGICAL}.{cn}.')
        name = f"PrintAssumptions{idx}.v"
        (bdir / name).write_text("\n".join(lines) + "\n")
        return subprocess.run([coqc, "-q", "-R", ".", LOGICAL, name], cwd=bdir, capture_output=True, text=True)

    with ThreadPoolExecutor(max_workers=n) as pool:
        results = list(pool.map(run, enumerate(chunks)))
    for (idx, chunk), r in zip(enumerate(chunks), results):
        for tid, cn, key in chunk:
            res = bdir / f"ax_{tid}.out"
            got = _parse_assumptions(res.read_text()) if (r.returncode == 0 and res.exists()) else None
            out[tid] = got
            if got is not None:
                (bdir / f"ax_{tid}.mbkey").write_text(key)
    return out


def _present_files(gen: dict[str, str]) -> dict[str, str]:
    """The hand-written files and the generated ones."""
    files = {f: (SRC / f).read_text() for f in source_files()}
    files.update(gen)
    return files


def emit(dest: Path) -> list[str]:
    """Write the whole development (hand-written and generated files, a _CoqProject) into ``dest``,
    ready for ``coq_makefile -f _CoqProject -o Makefile && make``.  Returns the file names."""
    from proofs import registry
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    gen, _, _ = generated_files(registry.all_theorems())
    files = _present_files(gen)
    write_files(dest, files)
    return sorted(files)
