"""The course's own solution as the oracle, and a start the code draws itself.

``[contract] oracle = "solution/"``: the expected answers of every test come from the course's
solution, run in the sandbox exactly like a submission (the same request: the same generated
inputs, ties, worst cases and hypothesis draws).  Before any submission is graded,
:func:`grading.checkspec.check_oracle` runs it on the probe and edge-case inputs and compares it with the
contract's reference on what the contract states; the first disagreement refuses the spec.
Diagnoses still come from the contract's reference re-run with one change, named only when
that re-run reproduces the student's answers.

``[contract] init = "own"``: the code draws its start itself (Raschka's
``RandomState(1).normal(0, 0.01, 1 + d)``, bias first).  The grader reads it with the same call
making no pass (T = 0) -- from the oracle when there is one, else from the submission -- and the
reference runs from it; weights are compared with ``[contract] tolerance``.
"""
from __future__ import annotations

from .checks_common import Failure, fmt_X
from .reference import Answer

__all__ = ["OracleRuns", "OracleDisagrees"]

_ANSWERS: dict = {}          # per process: the oracle's answers, shared by the submissions of a batch
_STARTS: dict = {}


class OracleDisagrees(Exception):
    pass


class OracleRuns:
    """Mixed into :class:`grading.checks.Grader`."""

    oracle_worker = None

    def _oracle_call(self, X, y, e, contract=None):
        """The oracle's answer on (X, y, e) (its own sandboxed worker, started on first use)."""
        P = self.problem
        key = (self.spec.source, repr(X), tuple(y), e)
        if key in _ANSWERS:
            return _ANSWERS[key]
        if self.oracle_worker is None:
            from sandbox.worker import Worker
            from .submission import load_submission
            files = load_submission(P.contract.oracle, self.spec.module)
            self.oracle_worker = Worker(files, self.spec.module, self.spec.limits)
        req = P.request(X, y, e, contract=contract)
        r = self.oracle_worker.call(req, timeout=max(self.spec.time_floor, 10.0))
        if r.error:
            raise OracleDisagrees(f"the course's solution failed on X = {fmt_X(X)}: {r.message}")
        ans = P.got(r.ok, X)
        if len(_ANSWERS) > 20000:
            _ANSWERS.clear()
        _ANSWERS[key] = ans
        return ans

    def own_start(self, d: int):
        """(w0, b0) the code draws itself for d features: a call with T = 0 on one example."""
        P = self.problem
        key = (self.spec.source, d, bool(P.contract.oracle) or id(self))
        if key not in _STARTS:
            X, y = [[0.0] * d], [1]
            if P.contract.oracle:
                got = self._oracle_call(X, y, 0)
            else:
                got, _ = self.call(X, y, 0, limit=max(self.spec.time_floor, 5.0))
            if got.w is None or len(got.w) != d:
                raise Failure(f"called with no pass (T = 0) to read its start, the code returned {len(got.w or [])} "
                              f"weights for d = {d}")
            _STARTS[key] = (tuple(float(v) for v in got.w), float(got.b or 0.0))
        return _STARTS[key]

    def with_start(self, X, contract):
        """The contract (``contract`` or the spec's) with the code's own start filled in."""
        c = contract or self.problem.contract
        if c.init != "own" or (c.start is not None and len(c.start[0]) == len(X[0])):
            return contract
        return c.replace(start=self.own_start(len(X[0])))

    def oracle_expected(self, X, y, e, contract, bugs):
        """The oracle's answer when the spec has one and no change is asked (None otherwise); its
        trace is the contract reference's (for the step-by-step feedback)."""
        P = self.problem
        if not P.contract.oracle or bugs or (contract is not None and contract.replace(start=None) != P.contract):
            return None
        got = self._oracle_call(X, y, e)
        ref = P.expected(X, y, e, contract=contract)
        return Answer(w=list(got.w), b=got.b if P.has_bias else None, trace=ref.trace, votes=got.votes)

    def close_oracle(self):
        if self.oracle_worker is not None:
            self.oracle_worker.close()
            self.oracle_worker = None
