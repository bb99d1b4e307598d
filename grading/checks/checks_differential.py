"""Differential tests: the student's answer against the reference's, input by input -- edge
cases, inputs left unmodified, the handout's default arguments, hypothesis-generated data
(visible and hidden) and worst-case sequences."""
from __future__ import annotations

from grading.references.averaging import late_ties
from grading.checks.checks_common import Failure, fatal, fmt_X
from grading.checks.diagnose import KEPT, SHUFFLED
from grading.checks.oracle import CourseSolutionFailed
from grading.references.reference import copy_answer, reference_run

__all__ = ["DifferentialTests", "SEED_VISIBLE", "generated"]

SEED_VISIBLE = 20260101      # the visible tests may stay fixed; the hidden ones: spec.hidden_seed (secret)
_CASES: dict = {}


class _Abort(Exception):
    pass


class _PrivateHome:
    """Hypothesis keeps a cache (of the constants in the modules it sees) under ``.hypothesis/``
    of the current directory: the grader points it at a directory of its own, removed after each
    use, so that grading leaves nothing where it was started."""

    def __enter__(self):
        import tempfile
        from hypothesis.configuration import set_hypothesis_home_dir
        self.dir = tempfile.mkdtemp(prefix="mb-hypothesis-")
        set_hypothesis_home_dir(self.dir)
        return self

    def __exit__(self, *exc):
        import shutil
        shutil.rmtree(self.dir, ignore_errors=True)
        return False


def generated(problem, scale: int = 1):
    """The generated inputs of the random tests: the problem's strategy, and for the perceptrons
    only inputs whose reference run meets no tie after it first leaves its start.  From w = 0 the
    first step is always a tie, and the ties test grades the convention; keeping the other ties
    out of the random data isolates that one step, so that a tie-convention bug loses the ties
    test's points and the random tests say how much of the rest is right."""
    s = problem.strategy(scale)
    c = problem.contract
    if problem.algorithm not in ("perceptron", "kernel_perceptron") or c.style != "function" or c.oracle or \
            c.init == "own":
        return s

    def clean(t):
        try:
            return not late_ties(reference_run(c, t[0], t[1], t[2]))
        except Exception:   # noqa: BLE001 - an input the reference refuses is kept, and graded as before
            return True
    return s.filter(clean)


class DifferentialTests:
    """The differential tests of one :class:`grading.checks.checks.Grader` (``_t_<kind>``).  Needs the
    grading's :class:`~grading.checks.checks_common.GradingContext`, ``calls`` (the submission's and the
    reference's answers: :class:`grading.checks.checks.Calls`) and ``diagnosis`` (the feedback of a
    failure: :class:`grading.checks.diagnose.Diagnoses`)."""

    def __init__(self, ctx, calls, diagnosis):
        self.ctx, self.calls, self.diagnosis = ctx, calls, diagnosis

    def _credit(self, ts, X, y, e, got, more=()):
        """The convention-credit line (and ``self.ctx.partial``) for a failed test; never for the ties
        test, which is where the convention is graded."""
        if ts.kind == "ties" or got is None:
            return ""
        line = self.diagnosis.convention_credit(X, y, e, got, more, whole_run=ts.kind in ("random", "hidden_random"))
        return f"\n{line}" if line and not ts.hidden else ""

    def _t_edge(self, ts):
        cases = [self.ctx.problem.edge_cases()[ts.kind]] + self.ctx.problem.more_cases(ts.kind)
        for k, (what, X, y, e) in enumerate(cases):
            ok, msg, exp, got = self.calls.check(X, y, e)
            if ok:
                continue
            credit = self._credit(ts, X, y, e, got, [c[1:] for c in cases[k + 1:]])
            if ts.hidden:
                return False, "", []
            text = f"{what}: {msg}\n" + self.diagnosis.explain(X, y, e, exp, got) + credit
            return False, text, [n for n in self.ctx.diagnoses]
        return True, "", []

    def _t_inputs_not_modified(self, ts):
        P = self.ctx.problem
        cases = list(P.edge_cases().values())[:4] + [(None, *p) for p in P.probes()]
        for c in cases:
            X, y, e = c[1], c[2], c[3]
            if self.ctx.spec.style == "class":
                _, modified = self.calls.call_class(X, y, e)
            else:
                _, modified = self.calls.call(X, y, e)
            if modified:
                what = "H, X or y" if P.algorithm in ("halving", "soa") else "X or y"     # (the class H too)
                self.ctx.diagnoses.setdefault("inputs modified", f"your function changes {what}; copy before "
                                                                 "changing anything")
                return False, (f"your code changed its input {what} (input: X = {fmt_X(X)}, y = "
                               f"{P.student_labels(y)}); work on a copy"), ["inputs modified"]
        return True, "", []

    def _t_default_arguments(self, ts):
        """The call as the handout shows it, the defaulted arguments left out.  The defaults are
        right when that call answers like the reference run with the handout's values -- or, when
        the code is wrong elsewhere (the other tests say where), like the same call with those
        values passed explicitly."""
        P = self.ctx.problem
        plan = P.contract.call
        omit, T, contract, cases = self.defaults_plan()
        shown = plan.signature(omit=omit)
        dflt = ", ".join(f"{k} = {v}" for k, v in plan.defaults)
        for X, y, e in cases:
            exp = self.calls.expected(X, y, e, contract=contract)[0]
            got, _ = self.calls.call(X, y, e, omit=omit)
            if P.compare(exp, got)[0]:
                continue
            # the defaults are blamed only when both calls answer the same each time: a shuffle of a few
            # examples repeats by chance (one in two for two examples), so each is asked five more times
            explicit, _ = self.calls.call(X, y, e, contract=contract)
            varies = self.ctx.nondeterministic or not (self._steady(got, lambda: self.calls.call(X, y, e, omit=omit)[0]) and
                                                   self._steady(explicit, lambda: self.calls.call(X, y, e, contract=contract)[0]))
            if varies:
                # two calls, two answers: the defaults cannot be judged (and are not blamed)
                self.ctx.nondeterministic = True
                name, why = ("state kept between calls", KEPT) if "state kept between calls" in self.ctx.diagnoses \
                    else ("data shuffled", SHUFFLED)
                self.ctx.diagnoses.setdefault(name, why)
                if ts.hidden:
                    return False, "", []
                return False, (f"called as {shown} your code answers differently on the same input from one call to "
                               f"the next, so its defaults cannot be checked\nlikely mistake: {name} -- "
                               f"{why}\ninput: X = {fmt_X(X)}, y = {P.student_labels(y)}"), [name]
            if P.compare(copy_answer(explicit), got)[0]:
                continue        # wrong elsewhere, not in the defaults: the other tests report it
            if ts.hidden:
                return False, "", []
            return False, (f"called as {shown} (the handout's defaults: {dflt}) your code answers differently from "
                           f"the same call with {dflt} passed explicitly: your defaults are not the handout's\n"
                           f"input: X = {fmt_X(X)}, y = {P.student_labels(y)}\n"
                           f"expected: {P.show(exp)}\nyours (defaults):    {P.show(got)}\n"
                           f"yours (explicit):    {P.show(explicit)}"), []
        return True, f"passed (called as {shown}; the handout's defaults: {dflt})", []

    def defaults_plan(self):
        """(the keywords left out, the passes T they imply or None, the contract with the handout's
        default values or None, the inputs (X, y, e) of the default-arguments test)."""
        P = self.ctx.problem
        c = P.contract
        plan = c.call
        omit = [k for k, _ in plan.defaults]
        T, changed = None, {}
        kws = dict(plan.kwargs + plan.init_kwargs)
        for k, v in plan.defaults:
            ref = kws[k].ref
            if ref == "T":
                T = int(v)
            elif ref == "eta":
                changed["learning_rate"] = _fraction(v)
            elif ref == "theta":
                changed["threshold"] = str(_fraction(v))
            elif ref == "beta":
                changed["penalty"] = _fraction(v)
        contract = c.replace(**changed) if changed else None
        cases = P.probes() + [v[1:] for v in P.edge_cases().values()][:3]
        return omit, T, contract, [(X, y, T if T is not None else e) for X, y, e in cases]

    def _steady(self, got, again, tries=5) -> bool:
        """Does ``again()`` answer ``got`` each time it is asked (``tries`` times)?"""
        P = self.ctx.problem
        for _ in range(tries):
            if not P.compare(copy_answer(got), again())[0]:
                return False
        return True

    def _settings(self, seed, phases):
        from hypothesis import HealthCheck, settings
        return settings(max_examples=self.ctx.spec.max_examples, database=None, deadline=None, derandomize=False,
                        suppress_health_check=list(HealthCheck), phases=phases, report_multiple_bugs=False,
                        print_blob=False)

    def _cases_key(self, seed, scale):
        s = self.ctx.spec
        return (s.source, s.algorithm, seed, scale, s.max_examples, s.max_n, s.max_d, s.max_epochs)

    def generated_cases(self, seed, scale):
        """The inputs hypothesis generates for this spec and seed (the same for every submission,
        computed once per process).  They are the test: a submission passes iff it agrees on all."""
        key = self._cases_key(seed, scale)
        if key not in _CASES:
            from hypothesis import Phase, given
            from hypothesis import seed as hseed
            out = []

            @hseed(seed)
            @self._settings(seed, [Phase.generate])
            @given(generated(self.ctx.problem, scale))
            def collect(data):
                out.append(data)
            with _PrivateHome():
                collect()
            _CASES[key] = out
        return _CASES[key]

    def _hypothesis(self, seed, scale, hidden):
        """(passed, X, y, e, message, expected, got); on a failure, the shrunk smallest input."""
        from hypothesis import Phase, given
        from hypothesis import seed as hseed
        P = self.ctx.problem
        box = {}
        first_bad = None
        for X, y, e in self.generated_cases(seed, scale):
            try:
                ok, msg, exp, got = self.calls.check(X, y, e)
            except Failure as f:
                ok, msg, exp, got = False, f.msg, None, None
                if fatal(f.msg):
                    return False, X, y, e, msg, None, None
            if not ok:
                first_bad = (False, X, y, e, msg, exp, got)
                break
        if first_bad is None:
            return True, None, None, None, "", None, None
        if hidden:
            return first_bad

        from grading.checks.shrinks import FAIL, FATAL, PASS, path_for
        path = path_for(("shrink",) + self._cases_key(seed, scale))

        def live(X, y, e):
            try:
                ok, msg, exp, got = self.calls.check(X, y, e)
            except Failure as f:
                return (FATAL if fatal(f.msg) else FAIL), ("failure", f.msg)
            return (PASS if ok else FAIL), ("ok", (ok, msg, exp, got))

        def take(box, X, y, e, answer):
            """What the property does with one answer: True when it passed."""
            kind, v = answer[1]
            if kind == "failure":
                if answer[0] == FATAL:
                    box["fatal"] = (X, y, e, v)
                    return None
                ok, msg, exp, got = False, v, None, None
            else:
                ok, msg, exp, got = v
            if not ok:
                box["last"] = (X, y, e, msg, exp, got)
            return ok

        box = {}

        def walk(X, y, e):
            answer = live(X, y, e)
            take(box, X, y, e, answer)
            return answer[0], answer

        end, made = path.replay(walk)     # an earlier submission's search, if this one answers the same
        if end is not None:
            return _ended(box, end, first_bad)
        box = {}
        course = []            # the course's solution failed: stops the search, then the batch
        rec = path.recorder(made)

        @hseed(seed)
        @self._settings(seed, [Phase.generate, Phase.shrink])
        @given(generated(P, scale))
        def prop(data):
            X, y, e = data
            try:
                answer = rec.call(X, y, e, live)
            except CourseSolutionFailed as ex:
                course.append(ex)
                raise _Abort() from None
            ok = take(box, X, y, e, answer)
            if ok is None:
                raise _Abort() from None
            if not ok:
                raise AssertionError(box["last"][3])

        try:
            with _PrivateHome():
                prop()
        except _Abort:
            if course:
                raise course[0] from None
            rec.finish(("abort",))
            return _ended(box, ("abort",), first_bad)
        except AssertionError:
            rec.finish(("assert",))
            return _ended(box, ("assert",), first_bad)
        except Exception as ex:  # hypothesis' Flaky & co: a nondeterministic submission
            if course:
                raise course[0] from None
            if "last" not in box and "fatal" not in box:
                raise
            rec.finish(("other", type(ex).__name__))
            return _ended(box, ("other", type(ex).__name__), first_bad)
        rec.finish(("none",))
        return first_bad   # hypothesis did not reproduce it: report the generated input as is

    def _t_random(self, ts):
        ok, X, y, e, msg, exp, got = self._hypothesis(SEED_VISIBLE, 1, ts.hidden)
        if ok:
            return True, f"passed on {self.ctx.spec.max_examples} generated inputs", []
        credit = self._credit(ts, X, y, e, got, self.generated_cases(SEED_VISIBLE, 1))
        if ts.hidden:
            return False, "", []
        text = f"smallest failing input found: {msg}\n"
        if exp is not None and got is not None:
            text += self.diagnosis.explain(X, y, e, exp, got)
        else:
            text += f"input: X = {fmt_X(X)}, y = {self.ctx.problem.student_labels(y)}, epochs = {e}"
        return False, text + credit, list(self.ctx.diagnoses)

    def _t_hidden_random(self, ts):
        seed = self.ctx.spec.hidden_seed
        if seed is None:         # a Grader used on its own: a fresh secret seed, kept for this spec object
            import os
            seed = self.ctx.spec.hidden_seed = int.from_bytes(os.urandom(8), "big")
        ok, X, y, e, _, _, got = self._hypothesis(seed, 2, True)
        if not ok:
            self._credit(ts, X, y, e, got, self.generated_cases(seed, 2))
        return ok, "", []

    def _t_worst_case(self, ts):
        cases = self.ctx.problem.worst_cases()
        for k, (what, X, y, e) in enumerate(cases):
            ok, msg, exp, got = self.calls.check(X, y, e)
            if not ok:
                credit = self._credit(ts, X, y, e, got, [c[1:] for c in cases[k + 1:]])
                if ts.hidden:
                    return False, "", []
                text = f"{what}: {msg}\n"
                if exp is not None:
                    text += self.diagnosis.explain(X, y, e, exp, got)
                return False, text + credit, list(self.ctx.diagnoses)
        return True, "", []


def _ended(box, end, first_bad):
    """What the search returns, from the property's record ``box`` and how it ended."""
    if end[0] == "abort":
        X, y, e, msg = box["fatal"]
        return False, X, y, e, msg, None, None
    if end[0] == "assert":
        X, y, e, msg, exp, got = box["last"]
        return False, X, y, e, msg, exp, got
    if end[0] == "other":
        if "last" in box:
            X, y, e, msg, exp, got = box["last"]
            return False, X, y, e, msg + f" (your code is not deterministic: {end[1]})", exp, got
        X, y, e, msg = box["fatal"]
        return False, X, y, e, msg + f" (your code is not deterministic: {end[1]})", None, None
    return first_bad   # hypothesis did not reproduce it: report the generated input as is


def _fraction(v):
    from fractions import Fraction
    return Fraction(v) if not isinstance(v, float) else Fraction(v).limit_denominator(1 << 20)
