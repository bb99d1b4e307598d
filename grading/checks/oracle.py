"""The course's own solution as the oracle, and a start the code draws itself.

``[contract] oracle = "solution/"``: the expected answers of every test come from the course's
solution, run in the sandbox exactly like a submission (the same request: the same generated
inputs, ties, worst cases and hypothesis draws).  Before any submission is graded,
:func:`grading.running.checkspec.check_oracle` runs it on the probe and edge-case inputs and compares it with the
contract's reference on what the contract states; the first disagreement refuses the spec.
Diagnoses still come from the contract's reference re-run with one change, named only when
that re-run reproduces the student's answers.

``[contract] init = "own"``: the code draws its start itself (Raschka's
``RandomState(1).normal(0, 0.01, 1 + d)``, bias first).  The grader reads it with the same call
making no pass (T = 0) -- from the oracle when there is one, else from the submission -- and the
reference runs from it; weights are compared with ``[contract] tolerance``.
"""
from __future__ import annotations

from grading.checks.checks_common import Failure, finite, fmt_X
from grading.references.reference import copy_answer

__all__ = ["OracleRuns", "OracleDisagrees", "CourseSolutionFailed"]

_ANSWERS: dict = {}          # per process: the oracle's answers, shared by the submissions of a batch
_STARTS: dict = {}


class CourseSolutionFailed(Exception):
    """The course's own solution raised, timed out or answered what the contract cannot read.

    A fault of the course, never of a student: it is not a test's verdict.  It stops the batch
    (:func:`grading.running.batch.run_pool`, ``grade``) with ``staff_text`` -- which quotes the input it
    failed on, possibly a hidden one, and the solution's own message -- on the instructor's
    terminal and in a staff-only file; no student-facing report ever holds it."""

    def __init__(self, staff_text: str):
        super().__init__(staff_text)
        self.staff_text = staff_text


OracleDisagrees = CourseSolutionFailed        # the earlier name


class OracleRuns:
    """The course's solution as the oracle, and the code's own start, for one
    :class:`grading.checks.checks.Grader`.  Needs the grading's :class:`~grading.checks.checks_common.GradingContext`
    (the spec and its problem) only; holds the oracle's own sandboxed worker."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.oracle_worker = None

    def _oracle_call(self, X, y, e, contract=None):
        """The oracle's answer on (X, y, e) (its own sandboxed worker, started on first use)."""
        P = self.ctx.problem
        key = (self.ctx.spec.source, repr(X), tuple(y), e)
        if key in _ANSWERS:
            return _ANSWERS[key]
        if self.oracle_worker is None:
            from sandbox.worker import Worker
            from grading.spec.submission import load_submission
            from grading.spec.adapter import worker_files
            files = load_submission(P.contract.oracle, self.ctx.spec.module)
            self.oracle_worker = Worker(*worker_files(P.contract, files, self.ctx.spec.module, self.ctx.spec.data_files),
                                        self.ctx.spec.limits)
        req = P.request(X, y, e, contract=contract)
        r = self.oracle_worker.call(req, timeout=max(self.ctx.spec.time_floor, 10.0))
        where = f"X = {fmt_X(X)}, y = {P.student_labels(y)}, T = {e}"
        if r.error:
            from grading.checks.checks_common import error_text
            raise CourseSolutionFailed(f"the course's solution ({P.contract.oracle}) failed on {where}: "
                                       f"{error_text(r)}")
        from grading.references.plan import LayoutError
        try:
            ans = P.got(r.ok, X)
        except LayoutError as ex:
            raise CourseSolutionFailed(f"the course's solution ({P.contract.oracle}) returned what the contract "
                                       f"cannot read on {where}: {ex.msg}") from None
        want = len(X) if P.algorithm == "kernel_perceptron" else len(X[0])
        if getattr(ans, "votes", None) is None and (ans.w is None or len(ans.w) != want or not all(
                finite(v) for v in list(ans.w) + ([ans.b] if ans.b is not None else []))):
            raise CourseSolutionFailed(f"the course's solution ({P.contract.oracle}) answered "
                                       f"{'nothing' if ans.w is None else f'{len(ans.w)} weights'} (expected {want} "
                                       f"finite numbers) on {where}: {P.show(ans) if ans.w is not None else ''}")
        if len(_ANSWERS) > 20000:
            _ANSWERS.clear()
        _ANSWERS[key] = ans
        return ans

    def own_start(self, d: int, call):
        """(w0, b0) the code draws itself for d features: a call with T = 0 on one example (the
        oracle's when there is one, else ``call``: the submission's, :meth:`grading.checks.checks.Calls.call`)."""
        P = self.ctx.problem
        key = (self.ctx.spec.source, d, bool(P.contract.oracle) or id(self))
        if key not in _STARTS:
            X, y = [[0.0] * d], [1]
            if P.contract.oracle:
                got = self._oracle_call(X, y, 0)
            else:
                got, _ = call(X, y, 0, limit=max(self.ctx.spec.time_floor, 5.0))
            if P.contract.oracle and (got.w is None or len(got.w) != d):
                raise CourseSolutionFailed(f"the course's solution ({P.contract.oracle}), called with no pass "
                                           f"(T = 0) to read its start, returned {len(got.w or [])} weights for "
                                           f"d = {d}")
            if got.w is None or len(got.w) != d:
                raise Failure(f"called with no pass (T = 0) to read its start, the code returned {len(got.w or [])} "
                              f"weights for d = {d}")
            _STARTS[key] = (tuple(float(v) for v in got.w), float(got.b or 0.0))
        return _STARTS[key]

    def with_start(self, X, contract, call):
        """The contract (``contract`` or the spec's) with the code's own start filled in (read with
        ``call`` when the course hands no oracle)."""
        c = contract or self.ctx.problem.contract
        if c.init != "own" or (c.start is not None and len(c.start[0]) == len(X[0])):
            return contract
        return c.replace(start=self.own_start(len(X[0]), call))

    def oracle_expected(self, X, y, e, contract, bugs):
        """The oracle's answer when the spec has one and no change is asked (None otherwise); its
        trace is the contract reference's (for the step-by-step feedback)."""
        P = self.ctx.problem
        if not P.contract.oracle or bugs or (contract is not None and contract.replace(start=None) != P.contract):
            return None
        got = self._oracle_call(X, y, e)
        ref = P.expected(X, y, e, contract=contract)
        return copy_answer(got, b=got.b if P.has_bias else None, trace=ref.trace)

    def close_oracle(self):
        if self.oracle_worker is not None:
            self.oracle_worker.close()
            self.oracle_worker = None
