"""Build the Coq development and report, per catalogue theorem, whether Coq's kernel checked it.

1. Generate ``Statements.v`` (every catalogue statement, printed from its formula objects),
   ``StepStatements_all.v`` (every step obligation of every proof, printed from the formulas z3
   and cvc5 check) and one ``Steps_<group>.v`` per group of families (each step lemma,
   ``Lemma l : l_statement``, with its tactic: the default or a hint from :mod:`.hints`).
2. Audit the sources (:func:`coq.checks.refused_commands`): no gap, no axiom outside Axioms.v, no
   command that aborts a proof, switches a kernel check off or loads a plugin, no ``*_statement``
   defined outside the generated statement files.
3. Copy everything into a build directory and compile with ``coqc`` in dependency order (two files
   at a time), reusing a compiled file when neither it nor anything it requires changed.
4. Let Coq decide (:mod:`coq.checks`): ``Checks.v`` defines ``check_<id> : <id>_statement :=
   <Module>.<id>`` for every counterpart and step lemma, prints the assumptions of each, and
   searches the environment for ``*_statement`` outside the statement files.

A theorem is "kernel-checked" when Coq type-checked its counterpart against the generated statement
(an erratum: its negation) and the counterpart rests on the allowed axioms only; a step is counted
when its lemma type-checked against its generated statement on the allowed axioms.
"""
from __future__ import annotations

import fcntl
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from coq import generate, names
from concurrent.futures import Future, ThreadPoolExecutor
from coq.compile import coqc_version, compile_all, default_build_dir, self_contained, write_files
from coq.generate import LOGICAL, STEP_STATEMENTS, generated_files, rule_uses_of, step_group, trusted_rules
from coq.rules_coq import rule_lemmas
from coq.hints import COVERED_FAMILIES
from coq.checks import STATEMENT_FILES_RE, CheckEntry, parse_assumptions, probe_results as _probe, refused_commands, run_checks

__all__ = ["SRC", "CoqReport", "TheoremCoq", "find_coqc", "build", "generated_files", "emit",
           "audit_sources", "allowed_axioms", "KERNEL_CHECKED", "FAILED", "NOT_INSTALLED"]

SRC = Path(__file__).resolve().parent
KERNEL_CHECKED, FAILED, NOT_INSTALLED = "kernel-checked", "failed", "coq not installed"
NO_COUNTERPART = "no Coq counterpart"


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
    rules_used: list = field(default_factory=list)         # the trusted rules the suite's proof rests on
    rules_not_proved: list = field(default_factory=list)   # those of them not proved in Coq (Rules.v)
    steps_required: bool = True        # the family's step tactics are written (hints.COVERED_FAMILIES)
    learner: str = ""                  # a learner theorem: the Coq learner function it runs
    base: str = ""                     # a learner theorem: the catalogue theorem whose conditions and bound it takes
    statement: str = ""                # a learner theorem: its Coq statement (LearnerStatements.v)
    python: str = ""                   # a learner theorem: the Python learner the differential test compares

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
                "trusted_rules": list(self.rules_used),
                "trusted_rules_not_proved_in_coq": list(self.rules_not_proved),
                "step_tactics_written": self.steps_required,
                **({"learner": self.learner, "python_learner": self.python, "base": self.base,
                    "statement": self.statement} if self.learner else {})}


@dataclass
class CoqReport:
    available: bool
    coqc: str = ""
    version: str = ""
    build_dir: str = ""
    seconds: float = 0.0
    cpu_seconds: float = 0.0                             # user + system time of every coqc run
    generate_cpu: float = 0.0                            # CPU seconds of generating the files (this process)
    compiled: list = field(default_factory=list)
    reused: list = field(default_factory=list)
    file_errors: dict = field(default_factory=dict)      # file -> first lines of the error
    file_seconds: dict = field(default_factory=dict)     # file -> CPU seconds of its coqc run
    audit: list = field(default_factory=list)            # problems found in the sources
    allowed: dict = field(default_factory=dict)          # axiom -> "reals" | "extra"
    theorems: list = field(default_factory=list)         # TheoremCoq
    check_errors: dict = field(default_factory=dict)     # check key -> why Coq rejected it
    learners: list = field(default_factory=list)         # TheoremCoq of the learner theorems (coq.learner_theorems)
    assumptions: dict = field(default_factory=dict)      # check key -> the axioms Coq's Print Assumptions names

    @property
    def ok(self) -> bool:
        """Every theorem kernel-checked, and every step of the families whose step tactics are written."""
        return self.available and not self.audit and all(
            t.status == NO_COUNTERPART or (t.status == KERNEL_CHECKED and (t.steps_ok or not t.steps_required))
            for t in self.theorems) and all(t.status == KERNEL_CHECKED for t in self.learners) and sum(
            v == "extra" for a, v in self.allowed.items()
                                            if a in self.axioms_used()) <= 1

    def counts(self) -> tuple[int, int]:
        return sum(t.status == KERNEL_CHECKED for t in self.theorems), len(self.theorems)

    def axioms_used(self) -> list[str]:
        out = []
        for t in self.theorems + self.learners:
            for a in t.axioms:
                if a not in out:
                    out.append(a)
        return out

    def to_json(self) -> dict:
        k, n = self.counts()
        return {"available": self.available, "coqc": self.coqc, "version": self.version, "build_dir": self.build_dir,
                "seconds": round(self.seconds, 2), "cpu_seconds": round(self.cpu_seconds, 2),
                "generate_cpu": round(self.generate_cpu, 2), "compiled": self.compiled, "reused": self.reused,
                "file_seconds": self.file_seconds,
                "file_errors": self.file_errors, "audit": self.audit, "allowed_axioms": self.allowed,
                "axioms_used": self.axioms_used(), "kernel_checked": k, "theorems_total": n,
                "theorems": [t.to_json() for t in self.theorems],
                "learner_theorems": [t.to_json() for t in self.learners]}


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


# The axioms Print Assumptions may report: the standard library reals' three, and excluded middle
# (the standard library's ln).  Fixed here, not read from a file a proof could edit; Axioms.v
# documents the same list (a test compares them).
ALLOWED_AXIOMS = {
    "ClassicalDedekindReals.sig_forall_dec": "reals",
    "ClassicalDedekindReals.sig_not_dec": "reals",
    "FunctionalExtensionality.functional_extensionality_dep": "reals",
    "Classical_Prop.classic": "extra",
}


def allowed_axioms() -> dict[str, str]:
    """The axioms ``Print Assumptions`` may report (axiom -> "reals" | "extra")."""
    return dict(ALLOWED_AXIOMS)


def audit_sources(files: dict[str, str]) -> list[str]:
    """Problems: a gap (Admitted, admit), a declared assumption outside Axioms.v, a refused command
    (Abort, Unset ... Checking, bypass_check, Declare ML Module, ...), or a ``*_statement`` defined
    outside the generated statement files (:func:`coq.checks.refused_commands`)."""
    return refused_commands(files)


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


_parse_assumptions = parse_assumptions


# --------------------------------------------------------------------------- the whole build
def build(ids=None, *, jobs: int = 2, build_dir: Path | None = None, progress=None, sources: dict | None = None,
          lexical: bool = True) -> CoqReport:
    """Generate, compile, let Coq check every counterpart and step lemma; the report has one entry per
    selected catalogue theorem.  ``sources`` replaces hand-written files by other texts (name -> text:
    the mutation tests); ``lexical=False`` leaves out the refusal list, so that what is refused is
    refused by Coq itself (the mutation tests again)."""
    from proofs.catalogue import registry
    from coq.learner_theorems import LEARNER_THEOREMS, learner_checks, learner_files
    import resource
    t0 = time.monotonic()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    lids = {lt.id for lt in LEARNER_THEOREMS}
    learner_ths = [lt for lt in LEARNER_THEOREMS if not ids or lt.id in ids]
    theorems = registry.all_theorems() if not ids else [registry.get(i) for i in ids if i not in lids]
    all_ths = registry.all_theorems()
    coqc = find_coqc()
    if coqc is None:
        rep = CoqReport(available=False)
        rep.theorems = [TheoremCoq(th.id, th.kind, names.coq_name(th.id), NOT_INSTALLED,
                                   "coqc was not found on PATH (apt-get install coq)") for th in theorems]
        rep.learners = [TheoremCoq(lt.id, "learner", f"LearnerTheorems.{lt.id}", NOT_INSTALLED,
                                   "coqc was not found on PATH (apt-get install coq)", learner=lt.learner.coq,
                                   base=lt.base) for lt in learner_ths]
        return rep
    version = coqc_version(coqc)
    rep = CoqReport(available=True, coqc=coqc, version=version, allowed=allowed_axioms())
    bdir = Path(build_dir) if build_dir else default_build_dir()
    bdir.mkdir(parents=True, exist_ok=True)
    rep.build_dir = str(bdir)
    with open(bdir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # the hand-written files that require nothing generated compile while the rest is generated
        early = self_contained({**_present_files({}), **(sources or {})})
        write_files(bdir, early, prune=False)
        later: Future = Future()
        with ThreadPoolExecutor(max_workers=1) as ex:
            failures: dict = {}      # file -> content key of a failed coqc run: not run again in the derived round
            job = ex.submit(compile_all, coqc, version, bdir, early, jobs, rep, progress, later,
                            {f"{m}.v": 30.0 for m in generate.STEP_REQUIRES}, failures)
            try:
                g0 = time.process_time()
                gen, steps, gen_errors = generated_files(all_ths)
                lgen, learner_errors = learner_files()
                gen.update(lgen)
                files = _present_files(gen)
                files.update(sources or {})
                rep.audit = audit_sources(files) if lexical else []
                write_files(bdir, files, keep=("StepStatements_derived.v", "StepsDerived.v"))
                # the rule-instance probe compiles beside the rest (it needs Rules.v and Tactics.v only),
                # in files side by side
                probes = generate.probe_files(generate.CANDIDATES)
                rep.generate_cpu = time.process_time() - g0
                write_files(bdir, probes, prune=False)
                for pf in probes:
                    if not (bdir / (pf[:-2] + ".log")).exists():     # its output is what is read: compile it again
                        (bdir / (pf[:-2] + ".mbkey")).unlink(missing_ok=True)
            except BaseException as e:
                later.set_exception(e)
                job.result()
                raise
            later.set_result({f: t for f, t in {**files, **probes}.items() if f not in early})
            built, keys = job.result()
        # the rule instances Coq derives from Rules.v (a probe), then the steps' corollaries without them
        ok_instances = _probe(bdir, built, rep, probes)
        derived = generate.derived_files(generate.CANDIDATES, ok_instances)
        underived = set().union(*(c.underived(ok_instances) for c in generate.CANDIDATES))
        if derived:
            files.update(derived)
            rep.audit += audit_sources(derived) if lexical else []
            files.update(probes)             # the derived lemmas use the probe's
            write_files(bdir, files)
            compiled_before = list(rep.compiled)
            built, keys = compile_all(coqc, version, bdir, files, jobs, rep, progress, failures=failures)
            rep.compiled = list(dict.fromkeys(compiled_before + rep.compiled))
        rep.compiled = [f for f in dict.fromkeys(rep.compiled) if f not in probes]
        rep.reused = [f for f in dict.fromkeys(rep.reused) if f not in rep.compiled and f not in probes]
        entries = _check_entries(theorems, steps, files, built) + learner_checks(learner_ths, built)
        stmt_files = [f for f in files if f in built and STATEMENT_FILES_RE.match(f)]
        if "Statements.v" in built:
            axioms, check_errors, found, cpu = run_checks(coqc, bdir, entries, stmt_files, keys, rep.allowed)
        else:
            axioms, check_errors, found, cpu = {}, {e.key: "Statements.v did not compile" for e in entries}, None, 0.0
        if progress:
            progress("Checks.v", not check_errors, cpu)
    rep.check_errors = check_errors
    rep.assumptions = dict(axioms)
    if found is None:
        rep.audit.append("Coq's Search for *_statement outside the statement files could not be read")
    elif found:
        rep.audit.append(f"*_statement defined outside the generated statement files (Coq's Search): {', '.join(found)}")
    allowed = rep.allowed

    def clean(key):
        """(ok, reason) of one Coq check: it type-checked and rests on allowed axioms only."""
        if key in check_errors:
            return False, check_errors[key]
        got = axioms.get(key)
        if got is None:
            return False, "Print Assumptions could not be read (or reports something beyond axioms)"
        bad = [a for a in got if a not in allowed]
        if bad:
            return False, f"rests on an axiom outside the allowed list: {', '.join(bad)}"
        return True, ""

    for th in theorems:
        cn = names.coq_name(th.id)
        t = TheoremCoq(th.id, th.kind, cn, FAILED, steps_required=(th.family in COVERED_FAMILIES))
        rows = steps.get(th.id, [])
        t.steps_total = len(rows)
        t.steps_not_exported = [(sid, why) for sid, lem, why in rows if lem is None]
        fam_file = f"Steps_{step_group(th)}.v"
        stopped = _failed_lemma(files.get(fam_file, ""), rep.file_errors.get(fam_file, "")) \
            if fam_file in rep.file_errors else None
        for sid, lem, _ in rows:
            if lem is None:
                continue
            ok, why = clean(lem) if fam_file in built else (False, "")
            if ok:
                t.steps_checked += 1          # Coq type-checked it against its statement
            elif fam_file in built or lem == stopped:
                t.steps_failed.append(sid)
            else:
                t.steps_unchecked.append(sid)
        module = f"{cn.split('.')[-2]}.v" if cn and "." in cn else None
        if module is None or module not in files:
            t.status = NO_COUNTERPART
            t.reason = "no Coq counterpart" + (f" ({module} is not part of the development)" if module else "")
        elif module not in built:
            t.reason = rep.file_errors.get(module, f"{module} did not compile")
        elif rep.audit:
            t.reason = "the sources break the rules: " + rep.audit[0]
        else:
            ok, why = clean(th.id)
            t.axioms = axioms.get(th.id) or []
            if not ok:
                t.reason = why
            elif th.id in gen_errors:
                t.reason = gen_errors[th.id]
            else:
                t.status = KERNEL_CHECKED
                # a closed Coq proof on the listed axioms: none of the suite's trusted rules is needed
                t.rules_discharged = trusted_rules(th.id)
        t.rules_used = trusted_rules(th.id)
        t.rules_not_proved = _rules_not_proved(th.id, t.rules_used, clean, underived)
        rep.theorems.append(t)
    rep.learners = [_learner_row(lt, built, rep, axioms, learner_errors, clean) for lt in learner_ths]
    rep.seconds = time.monotonic() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    rep.cpu_seconds = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    return rep


def _rules_not_proved(theorem_id: str, used: list[str], clean, underived: set = frozenset()) -> list[str]:
    """The trusted rules of a theorem's proof (its lemmas' included) with a use that Coq did not
    prove: a schema instance whose Rules.v lemma is missing or not checked, an identity whose step
    lemma is not checked, a step whose corollary still assumes an instance of the rule
    (``underived``: (step lemma, rule)), or a rule recorded without any use in a step."""
    from coq.rules_coq import lemma_name
    proved: dict[str, bool] = {}
    for th, rid, schema, variant, sid in rule_uses_of(theorem_id):
        if sid is None:                 # inside an induction or an instantiation: not derived
            ok = False
        elif schema == "identity":
            ok = clean(f"{th}__{sid}")[0]
        else:                           # the schema proved, and the step's corollary derives every instance
            ok = any(clean(lemma_name(rid, schema, v))[0] for v in (variant, variant + "/nat")) \
                and clean(f"{th}__{sid}__derived")[0] and (f"{th}__{sid}", rid) not in underived
        proved[rid] = proved.get(rid, True) and ok
    return sorted(r for r in used if not proved.get(r, False))


def _learner_row(lt, built, rep, axioms, learner_errors, clean) -> TheoremCoq:
    """A learner theorem's verdict: kernel-checked when Coq type-checked its proof against the
    statement printed from the catalogue's formulas, on the allowed axioms."""
    from coq.export import ExportError
    from coq.learner_theorems import PROOF_FILE, learner_statement
    t = TheoremCoq(lt.id, "learner", f"{PROOF_FILE[:-2]}.{lt.id}", FAILED, learner=lt.learner.coq, base=lt.base,
                   python=lt.learner.python)
    try:
        t.statement = learner_statement(lt)
    except ExportError:                 # the reason is the statement error below
        t.statement = ""
    if lt.id in learner_errors:
        t.reason = learner_errors[lt.id]
    elif PROOF_FILE not in built:
        t.reason = rep.file_errors.get(PROOF_FILE, f"{PROOF_FILE} did not compile")
    elif rep.audit:
        t.reason = "the sources break the rules: " + rep.audit[0]
    else:
        ok, why = clean(lt.id)
        t.axioms = axioms.get(lt.id) or []
        t.status, t.reason = (KERNEL_CHECKED, "") if ok else (FAILED, why)
    return t


def _check_entries(theorems, steps, files, built) -> list[CheckEntry]:
    """One Coq check per counterpart (its module built), per step lemma (its step file built) and
    per proved trusted-rule schema (Rules.v built)."""
    out = []
    if "Rules.v" in built and "RuleStatements.v" in built:
        rules_text = files["Rules.v"]
        for lem, *_ in rule_lemmas():
            if f"Lemma {lem} :" in rules_text:
                out.append(CheckEntry(lem, f"{LOGICAL}.RuleStatements.{lem}_statement", f"{LOGICAL}.Rules.{lem}", "Rules.v"))
    for th in theorems:
        cn = names.coq_name(th.id)
        if cn and "." in cn:
            mod, short = cn.split(".")[-2:]
            if f"{mod}.v" in built:
                neg = "~ " if th.kind == "erratum" else ""
                out.append(CheckEntry(th.id, f"{neg}{LOGICAL}.Statements.{th.id}_statement",
                                      f"{LOGICAL}.{mod}.{short}", f"{mod}.v"))
        grp = step_group(th)
        if f"Steps_{grp}.v" in built and f"{STEP_STATEMENTS}.v" in built:
            for sid, lem, _ in steps.get(th.id, []):
                if lem is not None:
                    out.append(CheckEntry(lem, f"{LOGICAL}.{STEP_STATEMENTS}.{lem}_statement",
                                          f"{LOGICAL}.Steps_{grp}.{lem}", f"Steps_{grp}.v"))
                    dfile = "StepsDerived.v"
                    if dfile in built and f"Lemma {lem}__derived :" in files.get(dfile, ""):
                        out.append(CheckEntry(f"{lem}__derived", f"{LOGICAL}.StepStatements_derived.{lem}__derived_statement",
                                              f"{LOGICAL}.StepsDerived.{lem}__derived", dfile))
    return out


def _present_files(gen: dict[str, str]) -> dict[str, str]:
    """The hand-written files and the generated ones."""
    files = {f: (SRC / f).read_text() for f in source_files()}
    files.update(gen)
    return files


def emit(dest: Path) -> list[str]:
    """Write the whole development (hand-written and generated files, a _CoqProject) into ``dest``,
    ready for ``coq_makefile -f _CoqProject -o Makefile && make``.  Returns the file names."""
    from proofs.catalogue import registry
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    from coq.learner_theorems import learner_files
    gen, _, _ = generated_files(registry.all_theorems())
    gen.update(learner_files()[0])
    files = _present_files(gen)
    write_files(dest, files)
    return sorted(files)
