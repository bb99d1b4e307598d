"""The tests a submission faces, and the feedback each failure produces.

Every test runs the student's code in the sandboxed :class:`~sandbox.worker.Worker`, one input
at a time, as the course's contract calls it (:mod:`grading.running.plan`), and compares in this
process.  Kinds (a spec picks which, with points):

* edge cases: ``one_example``, ``one_feature``, ``ties``, ``zero_vector``, ``repeated_examples``,
  ``several_epochs`` (not when the call has no epochs argument), ``negative_fractional`` (not
  Winnow);
* ``inputs_not_modified``: the worker copies X and y before the call and compares after;
* ``default_arguments``: the call with the handout's default arguments left out;
* ``random``: differential test against the reference on hypothesis-generated data (seeded,
  ``database=None``: a regrade gives the same score), with the smallest failing input;
* ``invariants``: the proof's invariants on the student's own run (function style);
* ``linear_time``: the cost of a pass as n grows, against linear growth;
* ``worst_case``: worst-case sequences (known constructions and adversary/ sequence files);
* ``hidden_random``: like ``random`` on other data; reports pass/fail and points only.

A :class:`Grader` is built from parts, each holding one idea and receiving what it needs: the
shared :class:`~grading.checks.checks_common.GradingContext` (spec, problem, worker, findings so far),
:class:`Calls` here (one call of the submission, one answer of the reference), the tests in
:mod:`grading.checks.checks_differential` (inputs and answers) and :mod:`grading.checks.checks_properties` (the
run's invariants and its cost), the teaching feedback of a failure -- the first departure and the
confirmed causes -- in :mod:`grading.checks.diagnose`, and the course's solution as the oracle in
:mod:`grading.references.oracle`.
"""
from __future__ import annotations

import time

from grading.checks.checks_common import Failure, GradingContext, TestOutcome, before, error_text, fmt_num, fmt_vec
from grading.checks.checks_differential import DifferentialTests
from grading.checks.checks_properties import PropertyTests
from grading.checks.diagnose import Diagnoses
from grading.references.oracle import OracleRuns
from grading.running.plan import LayoutError
from grading.references.problems_unit import UNIT_TITLES
from grading.references.problems_unit import make_any_problem as make_problem

__all__ = ["TestOutcome", "test_kinds", "Grader", "Calls", "Failure", "TITLES"]

EDGE = ["one_example", "one_feature", "ties", "zero_vector", "repeated_examples", "several_epochs",
        "negative_fractional"]
TITLES = {
    "one_example": "edge case: one example", "one_feature": "edge case: one feature",
    "ties": "edge case: ties count as mistakes", "zero_vector": "edge case: zero vectors",
    "repeated_examples": "edge case: repeated examples", "several_epochs": "edge case: several epochs",
    "negative_fractional": "edge case: negative and non-integer values",
    "inputs_not_modified": "inputs are not modified",
    "default_arguments": "called with the handout's default arguments",
    "random": "agrees with the reference on random data",
    "invariants": "your run satisfies the proof's invariants (Claims 1, 2, mistake bound)",
    "linear_time": "each pass costs linear time (grows like the reference as n doubles)",
    "worst_case": "worst-case sequences", "hidden_random": "hidden tests",
}
_EXPECTED: dict = {}


def test_kinds(spec) -> list[str]:
    kinds = list(EDGE)
    c = spec.contract
    if spec.algorithm in ("winnow", "halving", "soa"):
        kinds.remove("negative_fractional")
    if spec.style == "function" and c is not None and c.epochs_fixed:
        kinds.remove("several_epochs")
    kinds += ["inputs_not_modified", "random", "worst_case", "hidden_random"]
    if spec.style == "function":
        # the invariants are checked step by step on runs over prefixes: not for code that draws its
        # own order every pass or makes several passes per call, nor under Winnow's margin rule
        # (with an adapter, the prefix runs' order helper would land in the adapter's module, not the
        # course's: only in index order)
        if spec.algorithm not in ("hedge", "halving", "soa") and (c is None or (
                c.one_step_runs and c.margin is None and c.init != "own" and not c.oracle
                and not (c.adapter and c.order != "index") and c.answer in ("weights", "weights_mistakes"))):
            kinds.append("invariants")
        if spec.algorithm not in ("halving", "soa"):
            kinds.append("linear_time")
        if c is not None and c.call.defaults:
            kinds.append("default_arguments")
    return kinds


ALL_KINDS = EDGE + ["inputs_not_modified", "default_arguments", "random", "invariants", "linear_time",
                   "worst_case", "hidden_random"]


def not_offered(spec, kind) -> str:
    """Why a known test is not offered under this spec ("" when it is, or when ``kind`` is unknown)."""
    if kind not in ALL_KINDS or kind in test_kinds(spec):
        return ""
    c = spec.contract
    if kind == "negative_fractional":
        return "Winnow's features are 0/1" if spec.algorithm == "winnow" else "the instances are indices into the domain"
    if kind in ("invariants", "linear_time") and spec.algorithm in ("halving", "soa"):
        return ({"invariants": "the answer holds no version space to check step by step; the proof's invariants (V at "
                               "least halves on a mistake; Ldim(V) drops on a mistake) hold on the reference's runs",
                 "linear_time": "the cost of a step depends on the class (SOA computes Littlestone dimensions), not "
                                "on the number of steps alone"}[kind])
    if spec.style == "class" and kind in ("invariants", "linear_time", "default_arguments"):
        return "the online class style (predict/update) is graded step by step; this test needs a call that trains"
    if kind == "several_epochs":
        return "the call passes no number of passes (T): every call is one pass"
    if kind == "default_arguments":
        return "[contract.call] declares no defaults (the handout's default values of T, eta or theta)"
    if kind == "invariants" and spec.algorithm == "hedge":
        return "Hedge's invariants (weights positive, total weight never growing, the loss bound) are the reference's"
    if kind == "invariants":
        why = [w for ok, w in (
            (c.per_pass_order, f"order = {c.order!r} draws a new order every pass"),
            (c.passes > 1, f"passes = {c.passes} makes several passes per call"),
            (c.step != "constant", f"step = {c.step!r} scales each example's update"),
            (c.unbounded, "the call passes until one pass makes no mistake, with no maximum"),
            (c.average != "none", f"average = {c.average!r} answers an average, not the last weights"),
            (c.margin is not None, "Winnow's margin rule updates whatever the prediction"),
            (c.init == "own", "init = \"own\": the code draws its start itself"),
            (bool(c.oracle), "the expected answers come from the course's solution (contract.oracle)"),
            (bool(c.adapter) and c.order != "index", "the adapter's module would receive the order helper of the "
                                                     "step-by-step runs, not the course's code"),
            (c.answer in ("mistakes", "predictions"), f"answer = {c.answer!r}: the adapter returns no weights")) if ok]
        return ("the step-by-step runs (on prefixes of one pass, in the given order) are not possible here: "
                + "; ".join(why)) if why else ""
    return ""


def title(spec, kind) -> str:
    if (spec.algorithm, kind) in UNIT_TITLES:
        return UNIT_TITLES[spec.algorithm, kind]
    c = spec.contract
    if kind == "ties" and c is not None and c.ties not in ("mistake", "predict+1"):
        return "edge case: ties (" + {"no_mistake": "not a mistake", "predict-1": "predict -1"}[c.ties] + ")"
    return TITLES.get(kind, kind)


class Calls:
    """One call of the submission (function or class style) and one answer of the reference, for
    one :class:`Grader`.  Needs the grading's :class:`~grading.checks.checks_common.GradingContext` and
    ``oracle`` (:class:`grading.references.oracle.OracleRuns`: the course's solution's answers, the code's own
    start)."""

    def __init__(self, ctx, oracle):
        self.ctx, self.oracle = ctx, oracle

    # --- the reference ---------------------------------------------------------------
    def expected(self, X, y, e, *, contract=None, bugs=frozenset()):
        """The reference's answer and the seconds it took (cached per process: a batch grades many
        submissions on the same inputs).  ``contract``/``bugs``: one change (diagnoses)."""
        contract = self.oracle.with_start(X, contract, self.call)   # init = "own": the code's start (grading.references.oracle)
        key = (self.ctx.spec.source, self.ctx.spec.algorithm, repr(X), tuple(y), e, repr(contract), tuple(sorted(bugs)))
        hit = _EXPECTED.get(key)
        if hit is None and self.ctx.problem.contract.oracle:  # the course's solution answers (grading.references.oracle)
            ans = self.oracle.oracle_expected(X, y, e, contract, bugs)
            if ans is not None:
                hit = (ans, 0.0)
                _EXPECTED[key] = hit
        if hit is None:
            t0 = time.perf_counter()
            ans = self.ctx.problem.expected(X, y, e, contract=contract, bugs=bugs)   # may pay for imports / JIT
            dt = time.perf_counter() - t0 if contract is None and not bugs else 0.0
            if self.ctx.spec.time_factor * dt >= self.ctx.spec.time_floor:
                # long enough to raise the time limit above its floor: timed again, without the imports
                t0 = time.perf_counter()
                self.ctx.problem.expected(X, y, e)
                dt = time.perf_counter() - t0
            hit = (ans, dt)
            if len(_EXPECTED) > 20000:
                _EXPECTED.clear()
            _EXPECTED[key] = hit
        return hit

    def time_limit(self, X, y, e) -> float:
        ref = self.expected(X, y, e)[1]
        s = self.ctx.spec
        return min(max(s.time_floor, s.time_factor * ref), float(s.limits.cpu_seconds))

    # --- one call --------------------------------------------------------------------
    def call(self, X, y, e, limit=None, *, omit=(), order_override=False, contract=None):
        """The student's answer on (X, y, e) as an Answer, or raise Failure with a clear message."""
        if limit is None:
            limit = self.time_limit(X, y, e)
        w = self.ctx.worker
        if w.start_error is not None and w.starts >= 1 and w.start_error.error in ("import", "missing"):
            raise Failure(self._import_message(w.start_error))
        if self.ctx.restarts > 8 and not w.alive:
            raise Failure("not run: your code crashed or timed out too many times")
        if not w.alive and w.starts:
            self.ctx.restarts += 1
        req = self.ctx.problem.request(X, y, e, omit=omit, order_override=order_override, contract=contract)
        r = w.call(req, timeout=limit)
        self.ctx.last_call = r
        if r.error:
            if r.error in ("import", "missing"):
                raise Failure(self._import_message(r))
            raise Failure(error_text(r))
        if r.modified:
            self.ctx.modified_seen = True
        try:
            return self.ctx.problem.got(r.ok, X), r.modified
        except LayoutError as ex:
            raise Failure(f"bad return value: {ex.msg}") from None

    @staticmethod
    def _import_message(r):
        if r.error == "missing":
            return r.message
        return f"your module could not be loaded: {r.message}"

    # --- class style (online predict / update) ---------------------------------------------
    def call_class(self, X, y, e):
        """Online protocol: predict then update on every step; returns (predictions, modified)."""
        limit = self.time_limit(X, y, e)
        w = self.ctx.worker
        ys = self.ctx.problem.student_labels(y)
        r = w.call({"op": "new", "name": self.ctx.spec.entry, "args": [len(X[0])]}, timeout=limit)
        if r.error:
            raise Failure(error_text(r) if r.error not in ("import", "missing") else self._import_message(r))
        preds, modified = [], False
        t0 = time.monotonic()
        for _ in range(e):
            for x, t in zip(X, ys):
                left = max(0.05, limit - (time.monotonic() - t0))
                r = w.call({"op": "predict", "x": list(map(float, x))}, timeout=left)
                if r.error:
                    raise Failure(error_text(r))
                preds.append(r.ok.get("label"))
                modified |= r.modified
                r = w.call({"op": "update", "x": list(map(float, x)), "y": t}, timeout=left)
                if r.error:
                    raise Failure(error_text(r))
                modified |= r.modified
        if modified:
            self.ctx.modified_seen = True
        return preds, modified

    def check_class(self, X, y, e):
        exp = self.expected(X, y, e)[0]
        preds, modified = self.call_class(X, y, e)
        pos, neg = self.ctx.problem.contract.label_values
        for st, p in zip(exp.trace.steps, preds):
            if st.activation == 0:
                continue  # either prediction is fine at a tie; the update is what matters
            want = pos if st.activation > 0 else neg
            try:
                ok = float(p) == want
            except (TypeError, ValueError):
                ok = False
            if not ok:
                return False, (f"step {st.t + 1} (epoch {st.epoch + 1}, example {st.index}): predict(x) returned "
                               f"{p!r}, expected {want} (w.x + b = {fmt_num(st.activation)} with the reference's "
                               f"weights {fmt_vec(before(exp.trace, st.t))})"), modified
        return True, "", modified

    # --- checking one input ---------------------------------------------------------------
    def check(self, X, y, e, *, omit=(), exp=None):
        """(ok, message, expected, got) for one input."""
        if self.ctx.spec.style == "class":
            ok, msg, _ = self.check_class(X, y, e)
            return ok, msg, None, None
        if exp is None:
            exp = self.expected(X, y, e)[0]
        got, _ = self.call(X, y, e, omit=omit)
        ok, msg = self.ctx.problem.compare(exp, got)
        return ok, msg, exp, got


class Grader:
    """Runs one submission through a spec's tests.  ``worker_factory()`` gives a startable Worker.

    Its parts share one :class:`~grading.checks.checks_common.GradingContext` (``ctx``): ``oracle``
    (:class:`~grading.references.oracle.OracleRuns`), ``calls`` (:class:`Calls`), ``diagnosis``
    (:class:`~grading.checks.diagnose.Diagnoses`), ``differential``
    (:class:`~grading.checks.checks_differential.DifferentialTests`) and ``properties``
    (:class:`~grading.checks.checks_properties.PropertyTests`)."""

    def __init__(self, spec, worker_factory):
        self.ctx = GradingContext(spec=spec, problem=make_problem(spec), new_worker=worker_factory,
                                  worker=worker_factory())
        self.oracle = OracleRuns(self.ctx)
        self.calls = Calls(self.ctx, self.oracle)
        self.diagnosis = Diagnoses(self.ctx, self.calls)
        self.differential = DifferentialTests(self.ctx, self.calls, self.diagnosis)
        self.properties = PropertyTests(self.ctx, self.calls, self.oracle)

    # --- what the rest of the package reads ------------------------------------------------
    spec = property(lambda self: self.ctx.spec)
    problem = property(lambda self: self.ctx.problem)
    worker = property(lambda self: self.ctx.worker)
    diagnoses = property(lambda self: self.ctx.diagnoses, doc="the causes named so far: name -> explanation")
    nondeterministic = property(lambda self: self.ctx.nondeterministic)
    clock = property(lambda self: self.ctx.clock)

    def expected(self, X, y, e, *, contract=None, bugs=frozenset()):
        return self.calls.expected(X, y, e, contract=contract, bugs=bugs)

    def call(self, X, y, e, limit=None, **kw):
        return self.calls.call(X, y, e, limit, **kw)

    def generated_cases(self, seed, scale):
        return self.differential.generated_cases(seed, scale)

    def reference_seconds(self, n):
        return self.properties.reference_seconds(n)

    # --- the tests -----------------------------------------------------------------------
    def run_test(self, ts) -> TestOutcome:
        t0 = time.perf_counter()
        ctx = self.ctx
        ctx.partial = 0.0          # a test may give part of its points (one convention bug: diagnose.py)
        name = "_t_" + ("edge" if ts.kind in EDGE else ts.kind)
        test = getattr(self.differential, name, None) or getattr(self.properties, name)
        try:
            passed, msg, diags = test(ts)
        except Failure as f:
            passed, msg, diags = False, f.msg, []
        dt = time.perf_counter() - t0
        if not passed and ctx.partial >= 1:       # right apart from the first step's tie (diagnose.py)
            passed, ctx.partial = True, 0.0
        name = title(ctx.spec, ts.kind)
        if ts.hidden:
            msg = "passed" if passed else "failed (hidden test: its input is not shown)"
            diags = []
        elif passed and not msg:
            msg = "passed"
        return TestOutcome(kind=ts.kind, name=name, points=ts.points,
                           score=ts.points if passed else ts.points * ctx.partial, passed=passed, output=msg, hidden=ts.hidden, visibility=ts.visibility, seconds=dt,
                           diagnoses=diags)

    def close(self):
        self.oracle.close_oracle()
        self.ctx.worker.close()
