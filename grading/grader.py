"""Grade one submission, or a batch in parallel.

``grade_submission(spec, path)`` runs the visible tests in one sandboxed worker, then the hidden
tests in a *fresh* worker whose printed output is never shown (a submission could otherwise
print or save the hidden inputs and show them in a later visible test).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from learners.errors import InputError

from .checks import Grader, TestOutcome
from .sandbox import Worker, isolation_capabilities
from .spec import Spec, load_spec
from .submission import load_submission, submission_name

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

    @property
    def score(self) -> float:
        return float(sum(t.score for t in self.tests))

    @property
    def max_score(self) -> float:
        return float(sum(t.points for t in self.tests))

    def mistake_names(self) -> dict:
        return dict(self.diagnoses)

    def isolation_text(self) -> str:
        iso = self.isolation or {}
        parts = []
        if iso.get("user"):
            parts.append(f"user {iso['user']}")
        if iso.get("network"):
            parts.append(f"network {iso['network']}")
        if iso.get("limits"):
            parts.append("limits " + ",".join(iso["limits"]))
        if iso.get("hidden_paths"):
            parts.append(f"{len(iso['hidden_paths'])} grader directories hidden")
        return "; ".join(parts) or "rlimits only"

    def summary_text(self) -> str:
        lines = [f"{self.spec.title}: {self.score:g} / {self.max_score:g}"]
        if self.note:
            lines.append(self.note)
        for n, m in self.diagnoses.items():
            lines.append(f"likely mistake: {n} -- {m}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"submission": self.name, "score": self.score, "max_score": self.max_score,
                "seconds": round(self.seconds, 3), "note": self.note, "mistakes": list(self.diagnoses),
                "isolation": self.isolation_text(),
                "tests": [{"name": t.name, "kind": t.kind, "passed": t.passed, "score": t.score,
                           "max_score": t.points, "hidden": t.hidden} for t in self.tests]}


def grade_submission(spec: Spec | str, path: str, *, name: str | None = None, base_dir: str | None = None,
                     files: dict | None = None, hide: list | None = None) -> SubmissionResult:
    """Grade one submission (a directory, a .py file or a .zip).  ``hide``: more paths the
    student's process must not see (the other submissions of a batch, the output directory);
    the submission's own path is always hidden (its files are copied into the sandbox)."""
    if isinstance(spec, str):
        spec = load_spec(spec)
    import copy
    spec = copy.deepcopy(spec)
    spec.limits.extra_hide = (list(spec.limits.extra_hide) + [os.path.abspath(path)] + list(hide or [])
                              + ([spec.source] if spec.source else []))
    t0 = time.perf_counter()
    res = SubmissionResult(name=name or submission_name(path), spec=spec)
    try:
        files = files if files is not None else load_submission(path, spec.module)
    except InputError as e:
        res.note = f"submission not graded: {e}"
        res.tests = [TestOutcome(kind=t.kind, name=t.kind, points=t.points, score=0.0, passed=False,
                                 output=str(e), hidden=t.hidden, visibility=t.visibility) for t in spec.tests]
        res.seconds = time.perf_counter() - t0
        return res
    if spec.tests and f"{spec.module}.py" not in files:
        res.note = f"no file {spec.module}.py in the submission"

    def factory():
        return Worker(files, spec.module, spec.limits, base_dir=base_dir)

    from .checks import TITLES
    visible = [t for t in spec.tests if not t.hidden]
    hidden = [t for t in spec.tests if t.hidden]
    outcomes = {}
    g = Grader(spec, factory)
    try:
        for ts in visible:
            outcomes[id(ts)] = g.run_test(ts)
        res.printed = g.worker.output(2000) if g.worker.box else ""
        res.isolation = dict(g.worker.isolation)
        res.diagnoses = dict(g.diagnoses)
        if g.nondeterministic:   # a random submission: other "matches" are coincidences
            res.diagnoses = {k: v for k, v in res.diagnoses.items() if k in ("data shuffled", "inputs modified")}
    finally:
        g.close()
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
        from .theory import grade_theory
        res.tests += grade_theory(spec, files)
    for t in res.tests:
        if t.name == t.kind:
            t.name = TITLES.get(t.kind, t.kind)
    if not res.note and g.worker.start_error is not None and g.worker.start_error.error in ("import", "missing"):
        res.note = g.worker.start_error.message
    res.seconds = time.perf_counter() - t0
    return res


def _grade_one(args):
    spec_src, path, base_dir, hide = args
    spec = load_spec(spec_src)
    try:
        return grade_submission(spec, path, base_dir=base_dir, hide=hide)
    except Exception as e:  # noqa: BLE001 - one broken submission must not stop a batch
        r = SubmissionResult(name=submission_name(path), spec=spec, note=f"grader error: {type(e).__name__}: {e}")
        r.tests = [TestOutcome(kind=t.kind, name=t.kind, points=t.points, score=0.0, passed=False,
                               output="not graded (grader error)", hidden=t.hidden) for t in spec.tests]
        return r


def grade_batch(spec_src: str, paths: list[str], *, jobs: int | None = None, base_dir: str | None = None,
                progress=None, hide: list | None = None):
    """Grade many submissions with ``jobs`` processes; ``progress(result)`` after each one.
    Every submission's process has all the batch's submission paths (and ``hide``) hidden.
    Returns (results in the order of ``paths``, isolation capabilities)."""
    jobs = jobs or os.cpu_count() or 1
    hide = [os.path.abspath(p) for p in paths] + [os.path.abspath(h) for h in (hide or [])]
    results: dict[int, SubmissionResult] = {}
    if jobs == 1 or len(paths) == 1:
        for i, p in enumerate(paths):
            results[i] = _grade_one((spec_src, p, base_dir, hide))
            if progress:
                progress(results[i])
    else:
        import concurrent.futures as cf
        import multiprocessing as mp
        ctx = mp.get_context("forkserver") if hasattr(os, "fork") else mp.get_context("spawn")
        with cf.ProcessPoolExecutor(max_workers=min(jobs, len(paths)), mp_context=ctx) as ex:
            futs = {ex.submit(_grade_one, (spec_src, p, base_dir, hide)): i for i, p in enumerate(paths)}
            for f in cf.as_completed(futs):
                results[futs[f]] = f.result()
                if progress:
                    progress(results[futs[f]])
    return [results[i] for i in range(len(paths))], isolation_capabilities()
