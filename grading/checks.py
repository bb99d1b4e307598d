"""The tests a submission faces, and the feedback each failure produces.

Every test runs the student's code in the sandboxed :class:`~grading.sandbox.Worker`, one input
at a time, and compares in this process.  Kinds (a spec picks which, with points):

* edge cases: ``one_example``, ``one_feature``, ``ties``, ``zero_vector``, ``repeated_examples``,
  ``several_epochs``, ``negative_fractional`` (not Winnow);
* ``inputs_not_modified``: the worker deep-copies X and y before the call and compares after;
* ``random``: differential test against the reference on hypothesis-generated data (seeded,
  ``database=None``: a regrade gives the same score), with the smallest failing input;
* ``invariants``: Claims 1 and 2 and the mistake bound on the student's own run (function style);
* ``worst_case``: worst-case sequences (known constructions and adversary/ sequence files);
* ``hidden_random``: like ``random`` on other data; reports pass/fail and points only.

Feedback for a visible failure: the input, both answers, the first step where the student's run
departs from the reference (found by re-running the student's code on prefixes of the visiting
sequence), and the names of the common mistakes the answers match.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

from .problems import Answer, fmt_num, fmt_vec, make_problem, permutations_small

__all__ = ["TestOutcome", "test_kinds", "Grader"]

EDGE = ["one_example", "one_feature", "ties", "zero_vector", "repeated_examples", "several_epochs",
        "negative_fractional"]
TITLES = {
    "one_example": "edge case: one example", "one_feature": "edge case: one feature",
    "ties": "edge case: ties count as mistakes", "zero_vector": "edge case: zero vectors",
    "repeated_examples": "edge case: repeated examples", "several_epochs": "edge case: several epochs",
    "negative_fractional": "edge case: negative and non-integer values",
    "inputs_not_modified": "inputs are not modified",
    "random": "agrees with the reference on random data",
    "invariants": "your run satisfies the proof's invariants (Claims 1, 2, mistake bound)",
    "worst_case": "worst-case sequences", "hidden_random": "hidden tests",
}
_EXPECTED: dict = {}
_CASES: dict = {}
SEED_VISIBLE = 20260101
SEED_HIDDEN = 7340033


def test_kinds(spec) -> list[str]:
    kinds = list(EDGE)
    if spec.algorithm == "winnow":
        kinds.remove("negative_fractional")
    kinds += ["inputs_not_modified", "random", "worst_case", "hidden_random"]
    if spec.style == "function":
        kinds.append("invariants")
    return kinds


@dataclass
class TestOutcome:
    kind: str
    name: str
    points: float
    score: float
    passed: bool
    output: str
    hidden: bool = False
    visibility: str | None = None
    seconds: float = 0.0
    diagnoses: list = field(default_factory=list)


class _Failure(Exception):
    def __init__(self, msg):
        super().__init__(msg)
        self.msg = msg


class Grader:
    """Runs one submission through a spec's tests.  ``worker`` is a started or startable Worker."""

    def __init__(self, spec, worker_factory):
        self.spec = spec
        self.problem = make_problem(spec)
        self.new_worker = worker_factory
        self.worker = worker_factory()
        self.modified_seen = False
        self.nondeterministic = False
        self.diagnoses: dict[str, str] = {}
        self.restarts = 0

    # --- one call --------------------------------------------------------------------
    def expected(self, X, y, e):
        """The reference's answer and the seconds it took (cached per process: a batch grades many
        submissions on the same inputs)."""
        key = (self.spec.source, self.spec.algorithm, repr(X), tuple(y), e)
        hit = _EXPECTED.get(key)
        if hit is None:
            ans = self.problem.expected(X, y, e)       # the first call also pays for imports / JIT
            t0 = time.perf_counter()
            self.problem.expected(X, y, e)
            hit = (ans, time.perf_counter() - t0)
            if len(_EXPECTED) > 20000:
                _EXPECTED.clear()
            _EXPECTED[key] = hit
        return hit

    def time_limit(self, X, y, e) -> float:
        ref = self.expected(X, y, e)[1]
        return min(max(self.spec.time_floor, self.spec.time_factor * ref), float(self.spec.limits.cpu_seconds))

    def call(self, X, y, e, limit=None):
        """The student's answer on (X, y, e) as an Answer, or raise _Failure with a clear message."""
        if limit is None:
            limit = self.time_limit(X, y, e)
        if self.worker.start_error is not None and self.worker.starts >= 1 and self.worker.start_error.error in (
                "import", "missing"):
            raise _Failure(self._import_message(self.worker.start_error))
        if self.restarts > 8 and not self.worker.alive:
            raise _Failure("not run: your code crashed or timed out too many times")
        if not self.worker.alive and self.worker.starts:
            self.restarts += 1
        r = self.worker.call(self.problem.request(X, y, e), timeout=limit)
        if r.error:
            if r.error in ("import", "missing"):
                raise _Failure(self._import_message(r))
            raise _Failure(_error_text(r))
        if r.modified:
            self.modified_seen = True
        return self.problem.got(r.ok), r.modified

    @staticmethod
    def _import_message(r):
        if r.error == "missing":
            return r.message
        return f"your module could not be loaded: {r.message}"

    # --- class style ---------------------------------------------------------------------
    def call_class(self, X, y, e):
        """Online protocol: predict then update on every step; returns (predictions, modified)."""
        limit = self.time_limit(X, y, e)
        w = self.worker
        ys = self.problem.student_labels(y)
        r = w.call({"op": "new", "name": self.spec.entry, "args": [len(X[0])]}, timeout=limit)
        if r.error:
            raise _Failure(_error_text(r) if r.error not in ("import", "missing") else self._import_message(r))
        preds, modified = [], False
        t0 = time.monotonic()
        for _ in range(e):
            for x, t in zip(X, ys):
                left = max(0.05, limit - (time.monotonic() - t0))
                r = w.call({"op": "predict", "x": list(map(float, x))}, timeout=left)
                if r.error:
                    raise _Failure(_error_text(r))
                preds.append(r.ok.get("label"))
                modified |= r.modified
                r = w.call({"op": "update", "x": list(map(float, x)), "y": t}, timeout=left)
                if r.error:
                    raise _Failure(_error_text(r))
                modified |= r.modified
        if modified:
            self.modified_seen = True
        return preds, modified

    def check_class(self, X, y, e):
        exp = self.expected(X, y, e)[0]
        preds, modified = self.call_class(X, y, e)
        pos, neg = (1, 0) if self.spec.labels == "01" else (1, -1)
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
                               f"weights {fmt_vec(_before(exp.trace, st.t))})"), modified
        return True, "", modified

    # --- checking one input ---------------------------------------------------------------
    def check(self, X, y, e):
        """(ok, message, expected, got) for one input."""
        if self.spec.style == "class":
            ok, msg, _ = self.check_class(X, y, e)
            return ok, msg, None, None
        exp = self.expected(X, y, e)[0]
        got, _ = self.call(X, y, e)
        ok, msg = self.problem.compare(exp, got)
        return ok, msg, exp, got

    def explain(self, X, y, e, exp, got) -> str:
        """The teaching part of a visible failure."""
        P = self.problem
        lines = [f"input: X = {_fmt_X(X)}, y = {P.student_labels(y)}, epochs = {e}"]
        if exp is not None:
            lines.append(f"expected: {P.show(exp)}")
            lines.append(f"yours:    {P.show(got)}")
            dep = self.first_departure(X, y, e)
            if dep:
                lines.append(dep)
            for n, m in self.diagnose(X, y, e, exp, got):
                lines.append(f"likely mistake: {n} -- {m}")
        return "\n".join(lines)

    def first_departure(self, X, y, e) -> str:
        """Re-run the student's code on prefixes of the visiting sequence (one pass each) and
        report the first step whose state differs from the reference's."""
        P = self.problem
        Xu, yu = [r for _ in range(e) for r in X], [t for _ in range(e) for t in y]
        n = len(X)
        for t in range(1, len(Xu) + 1):
            exp = self.expected(Xu[:t], yu[:t], 1)[0]
            try:
                got, _ = self.call(Xu[:t], yu[:t], 1)
            except _Failure as f:
                return f"first departure: step {t}: your code failed on the first {t} examples: {f.msg}"
            ok, _ = P.compare(exp, got)
            if not ok:
                st = exp.trace.steps[t - 1]
                before = Answer(w=list(_before(exp.trace, t - 1)), b=_before_bias(exp.trace, t - 1)
                                if self.spec.bias and P.algorithm == "perceptron" else None)
                what = "a mistake (update)" if st.mistake else "no mistake (no update)"
                return (f"first departure: step {t} (epoch {(t - 1) // n + 1}, example {(t - 1) % n}): "
                        f"the reference starts from {P.show(before)}, sees activation {fmt_num(st.activation)} "
                        f"-> {what} -> {P.show(exp)}; yours gives {P.show(got)}")
        if e > 1:
            return ("first departure: none when the passes are run as one long pass -- your code handles a single "
                    f"pass correctly but not epochs = {e} (check the number of passes and that each pass keeps w)")
        return ""

    def diagnose(self, X, y, e, exp, got) -> list[tuple[str, str]]:
        """Names of the common mistakes the student's answers match (on this input and the probes)."""
        P = self.problem
        cases = [(X, y, e, exp, got)]
        for (pX, py, pe) in P.probes():
            try:
                g, _ = self.call(pX, py, pe)
            except _Failure:
                continue
            cases.append((pX, py, pe, self.expected(pX, py, pe)[0], g))
        found = []
        # shuffled / random: two runs on the same input differ -> nothing else can be concluded
        try:
            g2, _ = self.call(X, y, e)
            if not P.compare(Answer(w=[Fraction(v) for v in got.w], b=got.b), g2)[0]:
                found.append(("data shuffled", "two runs on the same input gave different answers: do not shuffle "
                              "(or use randomness); visit the examples in the given order"))
                self.nondeterministic = True
        except (_Failure, TypeError, ValueError, OverflowError):
            pass
        if not found:
            # a constant multiple: a learning rate
            c = _common_ratio(cases)
            if c is not None and c != 1:
                found.append(("learning rate", f"your weights are {fmt_num(c)} times the reference's: the perceptron "
                              "update has no step size (w += y x, not w += eta y x)"))
            for name, msg, fn in P.mutants():
                if all(P.compare(fn(cX, cy, ce), g)[0] for cX, cy, ce, _, g in cases) and \
                        any(not P.compare(ex, fn(cX, cy, ce))[0] for cX, cy, ce, ex, _ in cases):
                    found.append((name, msg))
            # wrong number of passes
            for cand in sorted({1, e - 1, e + 1, 2 * e} - {e, 0}):
                if cand >= 1 and P.compare(self.expected(X, y, cand)[0], got)[0]:
                    found.append(("wrong number of passes", f"your result is the reference's after {cand} pass(es), "
                                  f"but epochs = {e} was asked"))
                    break
        if not found and 2 < len(X) <= 5:
            for perm in permutations_small(len(X))[1:]:
                pXs, pys = [X[i] for i in perm], [y[i] for i in perm]
                if P.compare(self.expected(pXs, pys, e)[0], got)[0]:
                    found.append(("data shuffled", "your answer is the reference's on the examples in another order: "
                                  "visit them in the given order"))
                    break
        if self.modified_seen:
            found.append(("inputs modified", "your function changes X or y; copy before changing anything"))
        out = []
        for n, m in found:
            if n not in self.diagnoses:
                self.diagnoses[n] = m
            if n not in [o[0] for o in out]:
                out.append((n, m))
        return out

    # --- the tests -----------------------------------------------------------------------
    def run_test(self, ts) -> TestOutcome:
        t0 = time.perf_counter()
        try:
            passed, msg, diags = getattr(self, "_t_" + ("edge" if ts.kind in EDGE else ts.kind))(ts)
        except _Failure as f:
            passed, msg, diags = False, f.msg, []
        dt = time.perf_counter() - t0
        title = TITLES.get(ts.kind, ts.kind)
        if ts.hidden:
            msg = "passed" if passed else "failed (hidden test: its input is not shown)"
            diags = []
        elif passed and not msg:
            msg = "passed"
        return TestOutcome(kind=ts.kind, name=title, points=ts.points, score=ts.points if passed else 0.0,
                           passed=passed, output=msg, hidden=ts.hidden, visibility=ts.visibility, seconds=dt,
                           diagnoses=diags)

    def _t_edge(self, ts):
        what, X, y, e = self.problem.edge_cases()[ts.kind]
        ok, msg, exp, got = self.check(X, y, e)
        if ok:
            return True, "", []
        if ts.hidden:
            return False, "", []
        text = f"{what}: {msg}\n" + self.explain(X, y, e, exp, got)
        return False, text, [n for n in self.diagnoses]

    def _t_inputs_not_modified(self, ts):
        P = self.problem
        cases = list(P.edge_cases().values())[:4] + [(None, *p) for p in P.probes()]
        for c in cases:
            X, y, e = c[1], c[2], c[3]
            if self.spec.style == "class":
                _, modified = self.call_class(X, y, e)
            else:
                _, modified = self.call(X, y, e)
            if modified:
                self.diagnoses.setdefault("inputs modified", "your function changes X or y; copy before changing "
                                          "anything")
                return False, (f"your code changed its input X or y (input: X = {_fmt_X(X)}, y = "
                               f"{P.student_labels(y)}); work on a copy"), ["inputs modified"]
        return True, "", []

    def _settings(self, seed, phases):
        from hypothesis import HealthCheck, settings
        return settings(max_examples=self.spec.max_examples, database=None, deadline=None, derandomize=False,
                        suppress_health_check=list(HealthCheck), phases=phases, report_multiple_bugs=False,
                        print_blob=False)

    def generated_cases(self, seed, scale):
        """The inputs hypothesis generates for this spec and seed (the same for every submission,
        computed once per process).  They are the test: a submission passes iff it agrees on all."""
        key = (self.spec.source, self.spec.algorithm, seed, scale, self.spec.max_examples, self.spec.max_n,
               self.spec.max_d, self.spec.max_epochs)
        if key not in _CASES:
            from hypothesis import Phase, given
            from hypothesis import seed as hseed
            out = []

            @hseed(seed)
            @self._settings(seed, [Phase.generate])
            @given(self.problem.strategy(scale))
            def collect(data):
                out.append(data)
            collect()
            _CASES[key] = out
        return _CASES[key]

    def _hypothesis(self, seed, scale, hidden):
        """(passed, X, y, e, message, expected, got); on a failure, the shrunk smallest input."""
        from hypothesis import Phase, given
        from hypothesis import seed as hseed
        P = self.problem
        box = {}
        first_bad = None
        for X, y, e in self.generated_cases(seed, scale):
            try:
                ok, msg, exp, got = self.check(X, y, e)
            except _Failure as f:
                ok, msg, exp, got = False, f.msg, None, None
                if "time limit" in f.msg or "crash" in f.msg or "too many times" in f.msg:
                    return False, X, y, e, msg, None, None
            if not ok:
                first_bad = (False, X, y, e, msg, exp, got)
                break
        if first_bad is None:
            return True, None, None, None, "", None, None
        if hidden:
            return first_bad

        @hseed(seed)
        @self._settings(seed, [Phase.generate, Phase.shrink])
        @given(P.strategy(scale))
        def prop(data):
            X, y, e = data
            try:
                ok, msg, exp, got = self.check(X, y, e)
            except _Failure as f:
                if "time limit" in f.msg or "crash" in f.msg or "too many times" in f.msg:
                    box["fatal"] = (X, y, e, f.msg)
                    raise _Abort() from None
                ok, msg, exp, got = False, f.msg, None, None
            if not ok:
                box["last"] = (X, y, e, msg, exp, got)
                raise AssertionError(msg)

        try:
            prop()
        except _Abort:
            X, y, e, msg = box["fatal"]
            return False, X, y, e, msg, None, None
        except AssertionError:
            X, y, e, msg, exp, got = box["last"]
            return False, X, y, e, msg, exp, got
        except Exception as ex:  # hypothesis' Flaky & co: a nondeterministic submission
            if "last" in box:
                X, y, e, msg, exp, got = box["last"]
                return False, X, y, e, msg + f" (your code is not deterministic: {type(ex).__name__})", exp, got
            if "fatal" in box:
                X, y, e, msg = box["fatal"]
                return False, X, y, e, msg + f" (your code is not deterministic: {type(ex).__name__})", None, None
            raise
        return first_bad   # hypothesis did not reproduce it: report the generated input as is

    def _t_random(self, ts):
        ok, X, y, e, msg, exp, got = self._hypothesis(SEED_VISIBLE, 1, ts.hidden)
        if ok:
            return True, f"passed on {self.spec.max_examples} generated inputs", []
        if ts.hidden:
            return False, "", []
        text = f"smallest failing input found: {msg}\n"
        if exp is not None and got is not None:
            text += self.explain(X, y, e, exp, got)
        else:
            text += f"input: X = {_fmt_X(X)}, y = {self.problem.student_labels(y)}, epochs = {e}"
        return False, text, list(self.diagnoses)

    def _t_hidden_random(self, ts):
        ok, *_ = self._hypothesis(SEED_HIDDEN, 2, True)
        return ok, "", []

    def _t_worst_case(self, ts):
        for what, X, y, e in self.problem.worst_cases():
            ok, msg, exp, got = self.check(X, y, e)
            if not ok:
                if ts.hidden:
                    return False, "", []
                text = f"{what}: {msg}\n"
                if exp is not None:
                    text += self.explain(X, y, e, exp, got)
                return False, text, list(self.diagnoses)
        return True, "", []

    def _t_invariants(self, ts):
        from . import invariants as inv
        P = self.problem
        X, y, target, tb = P.invariant_data()
        states = [None] * (len(X) + 1)
        if P.algorithm == "perceptron":
            states[0] = ([0.0] * len(X[0]), 0.0)
        elif P.algorithm == "winnow":
            states[0] = [1.0] * len(X[0])
        else:
            states[0] = []
        for k in range(1, len(X) + 1):
            got, _ = self.call(X[:k], y[:k], 1)
            if P.algorithm == "perceptron":
                b = got.b if got.b is not None else 0.0
                states[k] = (got.w, b)
            else:
                states[k] = got.w
            ok_len = len(got.w or []) == (k if P.algorithm == "kernel_perceptron" else len(X[0]))
            if not ok_len:
                raise _Failure(f"after {k} example(s) your code returned {len(got.w or [])} numbers")
            if any(not _finite(v) for v in got.w) or (P.algorithm == "perceptron" and not _finite(states[k][1])):
                raise _Failure(f"after {k} example(s) your code returned a non-finite weight or bias")
        if P.algorithm == "perceptron":
            probs = inv.check_perceptron_run(X, y, states, target, tb, self.spec.bias)
        elif P.algorithm == "winnow":
            probs = inv.check_winnow_run(X, y, states, target)
        else:
            probs = inv.check_kernel_run(X, y, states, P.kernel)
        used = "grading.invariants"
        if P.algorithm in ("perceptron", "winnow") and not self.spec.normalize:
            try:
                mprobs, name = inv.monitor_run(P.algorithm, X, y, states, target, tb, self.spec.bias)
            except Exception as ex:  # noqa: BLE001 - a monitor problem must not cost the student points
                mprobs, name = [], None
                used += f" (proofs.monitors not usable here: {type(ex).__name__})"
            if name:
                used += f" and {name}"
                probs = probs + [p for p in mprobs if p not in probs]
        if probs:
            if ts.hidden:
                return False, "", []
            return False, ("checked on your own run over " + f"X = {_fmt_X(X)}, y = {P.student_labels(y)} "
                           f"(checkers: {used}):\n" + "\n".join(probs[:6])), []
        return True, f"passed (checkers: {used})", []

    def close(self):
        self.worker.close()


class _Abort(Exception):
    pass


def _finite(v):
    try:
        f = float(v)
    except (TypeError, ValueError):
        return False
    return f == f and abs(f) != float("inf")


def _common_ratio(cases):
    """c such that the student's answer is c times the reference's on every case (None if not)."""
    c = None
    for _, _, _, exp, got in cases:
        if got.w is None or len(got.w) != len(exp.w):
            return None
        pairs = list(zip(got.w, exp.w))
        if exp.b is not None:
            if got.b is None:
                return None
            pairs.append((got.b, exp.b))
        for g, r in pairs:
            try:
                g = Fraction(float(g))
            except (TypeError, ValueError, OverflowError):
                return None
            r = Fraction(r)
            if r == 0:
                if g != 0:
                    return None
                continue
            q = g / r
            if c is None:
                c = q
            elif abs(q - c) > Fraction(1, 10 ** 9) * max(1, abs(c)):   # exact: huge answers overflow floats
                return None
    if c is None or c <= 0:
        return None
    return c.limit_denominator(10 ** 6)


def _before(trace, t):
    return trace.initial_weights if t == 0 else trace.steps[t - 1].weights


def _before_bias(trace, t):
    return trace.initial_bias if t == 0 else trace.steps[t - 1].bias


def _fmt_X(X):
    return "[" + ", ".join(fmt_vec(r) for r in X) + "]"


def _error_text(r) -> str:
    kinds = {"timeout": "time limit", "crash": "crash", "exception": "your code raised",
             "bad-return": "bad return value", "memory": "memory limit", "exit": "exit",
             "protocol": "protocol error", "output": "output limit"}
    k = kinds.get(r.error, r.error)
    return f"{k}: {r.message}"
