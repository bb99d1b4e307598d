"""Grade one submission, or a batch in parallel.

``grade_submission(spec, path)`` runs the visible tests in one sandboxed worker, then the hidden
tests in a *fresh* worker whose printed output is never shown (a submission could otherwise
print or save the hidden inputs and show them in a later visible test).  All the workers of one
submission share its wall-clock budget (``[limits] submission_seconds``).

``grade_batch`` grades many in a pool of processes (``grading.running.batch``): each result is handed to
``on_result`` as soon as that submission is done, so an interrupted batch keeps what finished,
and a grading process that dies or hangs costs only its own submission.  Before anything is
graded, ``grading.running.preflight.preflight`` starts one worker and checks every isolation layer and
the allowed packages, and runs the reference learner once: an environment the grader cannot
work in is refused (``IsolationUnavailable``), never graded as the students' fault.
"""
from __future__ import annotations

import copy
import math
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field

from learners.errors import InputError

from grading.checks.checks import Grader, TestOutcome
from grading.checks.oracle import CourseSolutionFailed
from sandbox.isolation import IsolationUnavailable, describe, isolation_level, isolation_level_words
from grading.running.preflight import preflight
from sandbox.worker import Budget, Worker
from grading.spec.spec import Spec, hidden_seed, load_spec
from grading.spec.submission import load_submission, skipped_note, submission_name

__all__ = ["SubmissionResult", "grade_submission", "grade_batch"]


@dataclass
class SubmissionResult:
    name: str
    spec: Spec
    tests: list[TestOutcome] = field(default_factory=list)
    seconds: float = 0.0
    note: str = ""
    printed: str = ""
    isolation: dict = field(default_factory=dict)
    diagnoses: dict = field(default_factory=dict)
    visible_seconds: float = 0.0     # the visible tests only: what the student may learn of time
    fault: str = ""                  # set when the grader (not the submission) failed

    @property
    def score(self) -> float:
        return float(sum(t.score for t in self.tests))

    @property
    def max_score(self) -> float:
        return float(sum(t.points for t in self.tests))

    @property
    def reported_seconds(self) -> int:
        """Coarse time for the student: whole seconds, rounded up, of the visible tests only
        (the hidden tests' time is never reported: it could encode their inputs)."""
        return int(math.ceil(self.visible_seconds)) if self.visible_seconds > 0 else 0

    @property
    def insecure(self) -> bool:
        return bool((self.isolation or {}).get("missing"))

    def mistake_names(self) -> dict:
        return dict(self.diagnoses)

    def isolation_text(self) -> str:
        return describe(self.isolation)

    @property
    def isolation_level(self) -> str:
        """"namespaces", "container" or "reduced" ("" when no worker ran)."""
        return isolation_level(self.isolation) if self.isolation else ""

    def summary_text(self) -> str:
        lines = []
        if self.insecure:
            lines.append("WARNING from the grader: " + self.isolation_text())
        lines.append(f"{self.spec.title}: {self.score:g} / {self.max_score:g}")
        if self.note:
            lines.append(self.note)
        for n, m in self.diagnoses.items():
            lines.append(f"likely mistake: {n} -- {m}")
        if self.isolation:
            lines.append(f"isolation level: {isolation_level_words(self.isolation)}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"submission": self.name, "score": self.score, "max_score": self.max_score,
                "seconds": round(self.seconds, 3), "note": self.note, "mistakes": list(self.diagnoses),
                "isolation": self.isolation_text(), "insecure": self.insecure, "grader_fault": self.fault,
                "tests": [{"name": t.name, "kind": t.kind, "passed": t.passed, "score": t.score,
                           "max_score": t.points, "hidden": t.hidden} for t in self.tests]}


def _not_graded(spec, name, note, output, fault="") -> SubmissionResult:
    r = SubmissionResult(name=name, spec=spec, note=note, fault=fault)
    r.tests = [TestOutcome(kind=t.kind, name=t.kind, points=t.points, score=0.0, passed=False, output=output,
                           hidden=t.hidden, visibility=t.visibility) for t in spec.tests]
    _titles(r)
    return r


def _titles(res):
    from grading.checks.checks import TITLES
    for t in res.tests:
        if t.name == t.kind:
            t.name = TITLES.get(t.kind, t.kind)


def module_hint(files: dict, module: str) -> str:
    """A hint when the submission holds the module under another spelling (``HW1.py`` for
    ``hw1.py``, or in a folder): empty when there is nothing close."""
    want = f"{module}.py"
    for name in sorted(files):
        base = name.rsplit("/", 1)[-1]
        if base.lower() == want.lower():
            why = ("file names are case-sensitive" if base != want else
                   "it must be at the top of the submission, not in a folder")
            return f" (found {name}; the handout's file is {want}: {why}; rename or move it)"
    return ""


_PY2 = (("Missing parentheses in call to 'print'", "a print statement"),
        ("Missing parentheses in call to 'exec'", "an exec statement"),
        ("leading zeros in decimal integer literals", "an octal literal written 0777"),
        ("multiple exception types must be parenthesized", "except E, e:"))
_PY2_LINES = ((r"^\s*except\s+[\w.]+\s*,\s*\w+\s*:", "except E, e:"), (r"^\s*raise\s+[\w.]+\s*,", "raise E, \"...\""),
              (r"^\s*print\s*>>", "print >> f"), (r"<>", "the <> operator"), (r"`[^`]+`", "backquotes"))


def python2_reason(message: str, source: bytes | None, name: str) -> str:
    """One line when the module failed to import because it is Python 2: the import's
    SyntaxError (``message``, from the worker: "SyntaxError: ... (line N of NAME)") names Python
    2 syntax, or the line it points at is Python 2 syntax; "" otherwise.  The grader never
    compiles the submission itself: it reads the worker's message and one line of the text."""
    import re
    message = message.strip("\u00ab\u00bb")
    if not message.startswith("SyntaxError") or not source:
        return ""
    m = re.search(r"\(([^,()]+), line (\d+)\)", message)
    if not m or m.group(1) != name:
        return ""
    lineno = int(m.group(2))
    what = next((w for k, w in _PY2 if k in message), None)
    if what is None:
        lines = source.split(b"\n", lineno)
        text = lines[lineno - 1].decode("utf-8", "replace") if 0 < lineno <= len(lines) else ""
        what = next((w for pat, w in _PY2_LINES if re.search(pat, text[:400])), None)
    if what is None:
        return ""
    return (f"{name} is Python 2 code (line {lineno}: {what}); the grader runs Python 3 -- port it "
            "(print(...), except E as e, 0o777, ...) and submit again")


def grade_submission(spec: Spec | str, path: str, *, name: str | None = None, base_dir: str | None = None,
                     files: dict | None = None, hide: list | None = None) -> SubmissionResult:
    """Grade one submission (a directory, a .py file, a .zip or a tar archive).  ``hide``: paths
    the grader checks the student's process cannot see (the other submissions of a batch, the
    output directory); nothing but the allow-list is visible anyway.  Raises
    IsolationUnavailable when a worker cannot be isolated."""
    if isinstance(spec, str):
        spec = load_spec(spec)
    if spec.hidden_seed is None:
        spec.hidden_seed = hidden_seed()[0]
    spec = copy.deepcopy(spec)
    spec.limits.extra_hide = (list(spec.limits.extra_hide) + [os.path.abspath(path)] + list(hide or [])
                              + ([spec.source] if spec.source else []))
    t0 = time.perf_counter()
    res = SubmissionResult(name=name or submission_name(path), spec=spec)
    try:
        files = files if files is not None else load_submission(path, spec.module)
    except InputError as e:
        out = _not_graded(spec, res.name, f"submission not graded: {e}", str(e))
        out.seconds = time.perf_counter() - t0
        return out
    if spec.tests and f"{spec.module}.py" not in files:
        res.note = f"no file {spec.module}.py in the submission" + module_hint(files, spec.module)
    left_out = skipped_note(files)
    if left_out:
        res.note = (res.note + "; " if res.note else "") + left_out
    budget = Budget(spec.limits.submission_seconds)

    from grading.spec.adapter import worker_files
    # the course's data files and adapter, if any
    run_files, run_module = worker_files(spec.contract, files, spec.module, spec.data_files)

    def factory():
        return Worker(run_files, run_module, spec.limits, base_dir=base_dir, budget=budget)

    visible = [t for t in spec.tests if not t.hidden]
    hidden = [t for t in spec.tests if t.hidden]
    outcomes = {}
    g = Grader(spec, factory)
    try:
        for ts in visible:
            outcomes[id(ts)] = g.run_test(ts)
        res.printed = g.worker.output(4001) if g.worker.box else ""   # one more: to know it was cut
        res.isolation = dict(g.worker.isolation)
        res.diagnoses = dict(g.diagnoses)
        if g.nondeterministic:   # a random submission: other "matches" are coincidences
            res.diagnoses = {k: v for k, v in res.diagnoses.items()
                             if k in ("data shuffled", "state kept between calls", "inputs modified")}
    finally:
        g.close()
    res.visible_seconds = time.perf_counter() - t0
    err = g.worker.start_error
    py2 = python2_reason(err.message, files.get(f"{spec.module}.py"), f"{spec.module}.py") \
        if err is not None and err.error == "import" else ""
    if py2:                      # one line, in every test: not a crash to puzzle over test by test
        out = _not_graded(spec, res.name, f"submission not graded: {py2}", py2)
        out.seconds = time.perf_counter() - t0
        return out
    if hidden:
        gh = Grader(spec, factory)
        try:
            for ts in hidden:
                outcomes[id(ts)] = gh.run_test(ts)
            res.isolation = res.isolation or dict(gh.worker.isolation)
        finally:
            gh.close()
    res.tests = [outcomes[id(t)] for t in spec.tests]
    if spec.theory:
        from grading.checks.theory import grade_theory
        res.tests += grade_theory(spec, files)
    _titles(res)
    if not res.note and g.worker.start_error is not None and g.worker.start_error.error in ("import", "missing"):
        res.note = g.worker.start_error.message
    hint = module_hint(files, spec.module) if spec.tests and f"{spec.module}.py" not in files else ""
    for t in res.tests if hint else ():
        if f"no file {spec.module}.py" in t.output and hint not in t.output:
            t.output += hint
    res.seconds = time.perf_counter() - t0
    return res


def _shared(spec, hide) -> bytes:
    """The batch's warm-up (:mod:`grading.running.warmup`), packed for the grading processes."""
    from grading.running.batch import pool_context
    from grading.running.warmup import packed_in_two
    s = copy.deepcopy(spec)
    s.limits.extra_hide = list(s.limits.extra_hide) + list(hide) + ([s.source] if s.source else [])
    return packed_in_two(s, pool_context())


def grade_batch(spec_src: str, paths: list[str], *, jobs: int | None = None, base_dir: str | None = None,
                progress=None, hide: list | None = None, names: list | None = None, on_result=None,
                insecure: bool = False, caps: dict | None = None, shared: bool = True):
    """Grade many submissions with ``jobs`` processes.  ``on_result(result)`` then
    ``progress(result)`` run as each one finishes (in this process).  Returns (results in the order
    of ``paths``, the platform's isolation capabilities).  Raises CourseSolutionFailed (grading no more) when
    the course's own solution fails -- its text is the instructor's, never a student's.  Raises
    IsolationUnavailable before grading anything when the platform cannot isolate; a worker that cannot be isolated later
    leaves its submission "not graded" (a grader fault).  ``caps``: the result of an earlier
    ``preflight``.  Where simultaneous workers would share one budget of processes and threads
    (``sandbox._nproc``), submissions are graded one at a time and ``caps["one_at_a_time"]`` says
    why.  ``shared``: what every submission needs (test inputs, the reference's answers
    and times) computed once here, before the grading processes start (:mod:`grading.running.warmup`);
    False: each grading process computes it for itself (the same verdicts, more time)."""
    from grading.running.batch import run_pool
    jobs = jobs or os.cpu_count() or 1
    spec = load_spec(spec_src)
    spec.limits.insecure = insecure
    spec.hidden_seed = hidden_seed()[0]      # one secret seed for the whole batch, never written anywhere
    caps = caps if caps is not None else preflight(spec, insecure)
    if jobs > 1 and len(paths) > 1:
        from sandbox._nproc import shared_budget
        why = shared_budget(spec.limits.separate_user, min(jobs, len(paths)), int(spec.limits.processes))
        if why:                  # one submission's threads must never cost another its grade
            caps = dict(caps, one_at_a_time=why)
            jobs = 1
    hide = [os.path.abspath(p) for p in paths] + [os.path.abspath(h) for h in (hide or [])]
    names = list(names) if names is not None else [submission_name(p) for p in paths]
    results: dict[int, SubmissionResult] = {}

    def done(i, res):
        res.name = names[i]
        results[i] = res
        if on_result:
            on_result(res)
        if progress:
            progress(res)

    def fault(i, why):
        # the student reads the kind of fault, never an exception's text (it may quote a hidden
        # input); the whole reason stays in ``fault``, for the instructor (the terminal, --json)
        shown = ":".join(why.split(":", 2)[:2]) if why.startswith("internal error") else why
        done(i, _not_graded(spec, names[i], f"not graded: the grader failed ({shown}); this is not your "
                            "code's fault, the submission will be regraded", "not graded (grader fault)", fault=why))

    own_base = base_dir is None     # the workers' directories live in one of the batch's own, removed
    if own_base:                    # at the end even when a grading process was killed mid-way
        base_dir = tempfile.mkdtemp(prefix="mb-grade-batch-")
        os.chmod(base_dir, 0o711)
    try:
        if len(paths) == 1:
            try:
                done(0, grade_submission(spec, paths[0], name=names[0], base_dir=base_dir, hide=hide))
            except (IsolationUnavailable, CourseSolutionFailed):
                raise
            except Exception as e:  # noqa: BLE001 - a fault of the grader, reported as such
                fault(0, f"internal error: {type(e).__name__}: {str(e)[:300]}")
        else:
            run_pool(grade_submission, spec.source, paths, names, jobs=jobs, base_dir=base_dir, hide=hide, insecure=insecure,
                     budget=spec.limits.submission_seconds, on_result=done, on_fault=fault, hidden_seed=spec.hidden_seed,
                     shared=_shared(spec, hide) if shared else None)
    finally:
        if own_base:
            shutil.rmtree(base_dir, ignore_errors=True)
    return [results[i] for i in range(len(paths))], caps
