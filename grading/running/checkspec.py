"""``grade --check-spec``: is the spec right, before a single student is graded?

First what needs no solution: the spec loads (every key checked, an adapter's code compiled) and
the contract's reference runs on every edge case, probe and worst-case input.  Then two solutions
are graded under the spec, in the sandbox, like any submission:

* the course's reference solution (``[assignment] solution`` in the spec, or a path given on
  the command line) -- if it loses points, the spec does not describe what the course asks for
  (a wrong argument name, a label encoding, a visiting order, a return layout...);
* the suite's own solution written from the contract (:mod:`grading.references.synth`) -- if it loses
  points, the spec contradicts itself (a test that cannot pass under its own contract).

The check passes only when both get full marks.  Without the course's solution (none given, no
``[assignment] solution``) the static checks and the suite's solution still run.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass

from learners.errors import InputError

from grading.running.grader import grade_submission
from grading.spec.spec import load_spec
from grading.references.synth import solution_files

__all__ = ["check_spec", "SpecCheck", "check_oracle"]


@dataclass
class SpecCheck:
    spec: object
    results: list            # (label, SubmissionResult)
    notes: tuple = ()        # solutions not graded, and why
    problems: tuple = ()     # what the static checks found (static_problems)

    @property
    def ok(self) -> bool:
        return not self.problems and all(r.max_score > 0 and r.score == r.max_score for _, r in self.results)

    def text(self) -> str:
        what = {0: "the static checks must pass", 1: "the solution must get full marks"}.get(
            len(self.results), "both solutions must get full marks")
        lines = [f"{self.spec.title} ({os.path.basename(self.spec.source)}): "
                 f"{'OK' if self.ok else 'FAILED'} -- {what}"]
        lines += [f"  problem: {p}" for p in self.problems]
        for label, r in self.results:
            lines.append(f"  {label}: {r.score:g}/{r.max_score:g}" + (f" ({r.note})" if r.note else ""))
            for t in r.tests:
                if not t.passed:
                    first = t.output.splitlines()[0] if t.output else "failed"
                    lines.append(f"    failed: {t.name} -- {first}")
        lines += [f"  {n}" for n in self.notes]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"spec": self.spec.source, "ok": self.ok, "notes": list(self.notes), "problems": list(self.problems),
                "solutions": [dict(r.to_dict(), solution=label) for label, r in self.results]}


def check_spec(spec_src: str, solution: str | None = None, *, insecure: bool = False) -> SpecCheck:
    """Grade the course's solution and the suite's own under the spec ``spec_src`` (in the
    sandbox: raises ``IsolationUnavailable`` when it cannot be set up, unless ``insecure``)."""
    spec = load_spec(spec_src)         # every key, the adapter's code (grading.spec.spec): InputError, one line
    spec.limits.insecure = bool(insecure)
    path = solution or spec.solution
    if path and not os.path.exists(path):
        raise InputError(f"the course's solution {path!r} does not exist")
    problems = tuple(static_problems(spec))
    notes = () if path else ("the course's solution: not given -- the checks above need none; give it (SOLUTION, or "
                             "[assignment] solution in the spec) to grade it under the spec",)
    if problems:
        return SpecCheck(spec=spec, results=[], notes=notes, problems=problems)
    from grading.running.preflight import preflight
    preflight(spec, insecure)          # IsolationUnavailable (exit 3 in grade) before anything is graded
    if spec.contract.oracle:
        check_oracle(spec)
    results = [("the course's solution " + os.path.relpath(path), grade_submission(spec, path, name="course"))] \
        if path else []
    if spec.contract is not None and spec.contract.adapter:
        # the course's API is known to its adapter only: the suite cannot write a solution for it
        return SpecCheck(spec=spec, results=results, notes=notes + (
            "the suite's solution from the contract: not written (the course's API is known to its adapter only)",))
    tmp = tempfile.mkdtemp(prefix="mb-check-spec-")
    try:
        for name, data in solution_files(spec).items():
            with open(os.path.join(tmp, name), "wb") as fh:
                fh.write(data)
        own = spec
        if spec.contract is not None and spec.contract.oracle:
            # against the contract's reference, not the course's solution: the suite's solution may draw
            # another start of its own (init = "own")
            import copy
            own = copy.deepcopy(spec)
            own.contract = spec.contract.replace(oracle="")
        results.append(("the suite's solution from the contract", grade_submission(own, tmp, name="suite")))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return SpecCheck(spec=spec, results=results, notes=notes)


def static_problems(spec) -> list[str]:
    """What can be checked without running any code of the course's: the contract's reference
    runs on every edge case, probe and worst-case input, and a request can be built for each
    (a contract whose combination the reference or the call plan cannot carry out shows here,
    not in the first student's feedback)."""
    from grading.checks.checks import Grader
    from grading.checks.checks_common import fmt_X
    from grading.running.warmup import _NoWorker
    if not spec.tests:
        return []
    g = Grader(spec, _NoWorker)
    P = g.problem
    c = P.contract
    cases = [k[1:] for k in P.edge_cases().values()] + list(P.probes()) + [k[1:] for k in P.worst_cases()]
    out = []
    for X, y, e in cases:
        try:
            if spec.style == "function":
                P.request(X, y, e)
            if c.init != "own":
                P.expected(X, y, e)
        except Exception as ex:  # noqa: BLE001 - the spec's, reported to the instructor
            out.append(f"the contract cannot be carried out on X = {fmt_X(X)}, y = {list(y)}, T = {e}: "
                       f"{type(ex).__name__}: {str(ex)[:200]}")
            break
    return out


def check_oracle(spec) -> int:
    """``[contract] oracle``: run the course's solution on the probe and edge-case inputs and
    compare it with the contract's reference (from the solution's own start under
    ``init = "own"``); the first disagreement refuses the spec (InputError, one line).  Returns
    the number of inputs checked.  Needs the sandbox (raises IsolationUnavailable)."""
    from sandbox.worker import Worker

    from grading.checks.checks import Grader
    from grading.checks.checks_common import fmt_X
    from grading.checks.oracle import OracleDisagrees
    from grading.spec.submission import load_submission
    from grading.spec.adapter import worker_files
    files, module = worker_files(spec.contract, load_submission(spec.contract.oracle, spec.module), spec.module,
                                 spec.data_files)
    g = Grader(spec, lambda: Worker(files, module, spec.limits))
    P = g.problem
    src = os.path.basename(spec.source)
    n = 0
    try:
        for X, y, e in [c[1:] for c in P.edge_cases().values()] + list(P.probes()):
            try:
                c = g.oracle.with_start(X, None, g.calls.call)
                ref = P.expected(X, y, e, contract=c)
                got = g.oracle._oracle_call(X, y, e)
            except (OracleDisagrees, Exception) as ex:  # noqa: BLE001 - the course's solution, reported
                raise InputError(f"{src}: contract.oracle: {str(ex)[:300]}") from None
            ok, msg = P.compare(ref, got)
            if not ok:
                raise InputError(f"{src}: contract.oracle: the course's solution disagrees with the contract on "
                                 f"X = {fmt_X(X)}, y = {P.student_labels(y)}, T = {e}: {msg} (the solution: "
                                 f"{P.show(got)}; the contract's reference: {P.show(ref)})")
            n += 1
    finally:
        g.close()
    return n
