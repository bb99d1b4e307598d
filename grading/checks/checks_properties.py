"""Property tests on the student's own runs: the proof's invariants step by step, and the cost
of a pass as the data grow."""
from __future__ import annotations

from fractions import Fraction

from grading.checks.checks_common import Failure, finite, fmt_X
from grading.references.reference import copy_answer, reference_seconds
from grading.references.reference_final import final_answer

__all__ = ["PropertyTests"]

# linear_time: one pass at every size from N0 to N_MAX (doubling), REPEATS times on different data of
# that size, every answer checked against the reference; a size's cost is the least CPU time of its
# repeats, measured by the grader for the worker's whole process tree (its control group, or /proc
# for the one process it is allowed otherwise).  Three readings, each of which must stay linear:
# the growth over the last two doublings, the super-linear term of a least-squares fit
# t = a + b n + c n^2 (n^2, n^3 for the dual perceptron), and its fixed term a (cost that does not
# grow with n: padding that makes small sizes look as slow as large ones).
# A cost that looks super-linear is measured again in CONFIRM_ROUNDS rounds (every size, smallest
# first, on fresh data): it is named only when the least of all runs still says so AND at least
# two rounds say so on their own figures.  On a loaded machine a pass's CPU time is inflated by
# whatever shares its core (caches, the other hyperthread), by bursts that come and go: the least
# of several runs removes most of it, and a burst that makes one size look slow in one round does
# not come back at the same size in the next (a cost that really grows faster than n does).
# A verdict the rounds confirm after a doubling that grew like n is read once more with a pass
# over twice the largest size: a cost that grows faster than n keeps doing so, while a correct
# pass whose data have just outgrown a cache of the processor steps up once and then grows like n.
SIZES = {"perceptron": (512, 4096), "winnow": (512, 4096), "kernel_perceptron": (16, 256)}
REPEATS = 2
CONFIRM_ROUNDS = 3
# below these, the largest pass is too short to judge its growth: the clock's resolution and the
# fixed cost of a call (a pipe's round trip, the worker waking up) are no longer small beside it.
# The tree's CPU time is read to the microsecond (control group, or the kernel's CPU clock of the
# worker's process); the wall clock carries the machine's load in it.
MIN_SECONDS = {"CPU": 0.02, "wall-clock": 0.1}
SHARE_SUPER = 0.8         # the super-linear term of the fit: at most this share of the last pass ...
SHARE_FIXED = 0.2         # ... and the fixed term at most this share (honest passes: a few per cent)
# ... and a fixed term is named only from this size up: a call's own fixed cost (the pipe's round
# trip, the worker waking up, reading the inputs) is a few milliseconds of CPU, which is 20 % and
# more of an honest 25 ms pass; padding that hides super-linear work is tens of milliseconds
FIXED_MIN = 0.02
_SCALING: dict = {}
_SCALING_ANSWERS: dict = {}
_REF_SECONDS: dict = {}



def _power_of(alpha):
    """A float Winnow weight read back to the exact power alpha^k that rounding blurred (1.1 * 1.1
    is 1.2100000000000002 in float64): the nearest power within 1e-9 (relative), else the float
    as it is, so a weight no run of the rule reaches still fails the check."""
    import math
    a = Fraction(alpha)
    la = math.log(float(a))

    def read(v):
        v = float(v)
        if v > 0 and math.isfinite(v):
            k = round(math.log(v) / la)
            if abs(float(a) ** k - v) <= 1e-9 * v:
                return a ** k
        return Fraction(v)
    return read

class PropertyTests:
    """The property tests of one :class:`grading.checks.checks.Grader` (``_t_invariants``,
    ``_t_linear_time``).  Needs the grading's :class:`~grading.checks.checks_common.GradingContext` (the
    worker whose CPU time is read; ``clock`` records which clock was read), ``calls`` (the
    submission's and the reference's answers: :class:`grading.checks.checks.Calls`) and ``oracle`` (the
    answers a timed pass must give under ``oracle`` or ``init = "own"``: :class:`grading.checks.oracle.OracleRuns`)."""

    def __init__(self, ctx, calls, oracle):
        self.ctx, self.calls, self.oracle = ctx, calls, oracle

    # --- the proof's invariants on the student's run ---------------------------------------------
    def _states(self, X, y):
        """The student's state after each prefix of (X, y): one pass each, the examples fed in the
        order given (the course's order helper, if any, returns 0..n-1 for these runs)."""
        P = self.ctx.problem
        c = P.contract
        out = []
        for k in range(1, len(X) + 1):
            got, _ = self.calls.call(X[:k], y[:k], 1, order_override=True)
            want = k if P.algorithm == "kernel_perceptron" else len(X[0])
            if len(got.w or []) != want:
                raise Failure(f"after {k} example(s) your code returned {len(got.w or [])} numbers")
            if any(not finite(v) for v in got.w) or (got.b is not None and not finite(got.b)):
                raise Failure(f"after {k} example(s) your code returned a non-finite weight")
            out.append(got)
        start_w, start_b = c.initial_weights(len(X[0])) if P.algorithm == "perceptron" else (None, 0)
        return out, start_w, start_b

    def _t_invariants(self, ts):
        from grading.checks import invariants as inv
        P = self.ctx.problem
        c = P.contract
        X, y, target, tb = P.invariant_data()
        got, start_w, start_b = self._states(X, y)
        notes = []
        eta = c.learning_rate
        if eta != 1:
            notes.append(f"learning rate {eta}: Claims 1 and 2 are stated for eta = 1 and scale with eta (w.w* grows "
                         f"by >= eta gamma, |w|^2 by <= eta^2 R^2); checked on w / eta, where they hold as stated")
        used = "grading.checks.invariants"
        # the first step's tie isolated: from a zero start every step before the first update is a tie,
        # which the ties test grades; here the student's own run decides each of them (an update there
        # is checked like any other), every later step follows the contract
        start_ties = [] if (P.algorithm == "kernel_perceptron" or P.algorithm == "perceptron" and
                            c.init == "zero") else None
        if P.algorithm == "perceptron":
            if c.arithmetic == "float":     # w / eta read back to the exact multiple that rounding blurred
                def unscaled(v):
                    return Fraction(float(v) / float(eta)).limit_denominator(1 << 20)
            else:
                def unscaled(v):
                    return Fraction(float(v)) / eta
            states = [([v / eta for v in start_w], start_b / eta)] + \
                [([unscaled(v) for v in g.w], unscaled(g.b or 0)) for g in got]
            bound = c.init == "zero"
            if not bound:
                notes.append(f"start w0 != 0 (init = {c.init}): the mistake bound R^2|w*|^2/gamma^2 is proved from "
                             "w0 = 0 and does not apply; Claims 1 and 2 hold from any start and are checked")
            probs = inv.check_perceptron_run(X, y, states, target, tb, c.bias, ties=c.ties, bound=bound,
                                             start_ties=start_ties)
        elif P.algorithm == "winnow":
            up = c.factor if c.variant == "winnow2" else 2
            read = _power_of(up) if c.arithmetic == "float" else (lambda v: Fraction(float(v)))
            states = [[Fraction(1)] * len(X[0])] + [[read(v) for v in g.w] for g in got]
            std = c.variant in ("halve", "eliminate") and c.threshold == "n" and c.ties == "predict+1"
            if not std:
                notes.append("the mistake bound 2 + 3r(1 + lg n) is proved for threshold n, factor 2 and ties "
                             "predicting 1; under this contract only the update rule is checked")
            probs = inv.check_winnow_run(X, y, states, target, theta=c.theta_value(len(X[0])), up=up, down=up,
                                         variant=c.variant, ties=c.ties, bound=std and c.variant == "halve")
        else:
            def signed(g, k):
                a = [Fraction(float(v)) / eta for v in g.w]
                return [v * y[i] for i, v in enumerate(a)] if c.dual == "counts" else a
            states = [[]] + [signed(g, k) for k, g in enumerate(got)]
            biases = [Fraction(0)] + [Fraction(float(g.b or 0)) / eta for g in got] if c.kernel_bias else None
            probs = inv.check_kernel_run(X, y, states, P.kernel, ties=c.ties, biases=biases, start_ties=start_ties)
        default = c.ties in ("mistake", "predict+1") and eta == 1 and c.init == "zero"
        if P.algorithm in ("perceptron", "winnow") and not c.normalize and default and \
                (P.algorithm == "perceptron" or c.variant == "halve" and c.threshold == "n"):
            raw = [(g.w, g.b if g.b is not None else 0.0) if P.algorithm == "perceptron" else g.w for g in got]
            first = ([0.0] * len(X[0]), 0.0) if P.algorithm == "perceptron" else [1.0] * len(X[0])
            try:
                mprobs, name = inv.monitor_run(P.algorithm, X, y, [first] + raw, target, tb, c.bias)
            except Exception as ex:  # noqa: BLE001 - a monitor problem must not cost the student points
                mprobs, name = [], None
                used += f" (proofs.catalogue.monitors not usable here: {type(ex).__name__})"
            if name:
                used += f" and {name}"
                probs = probs + [p for p in mprobs if p not in probs]
        elif P.algorithm in ("perceptron", "winnow"):
            notes.append("proofs.catalogue.monitors not used: they check the theorems as stated (ties are mistakes, learning "
                         "rate 1, w0 = 0, Winnow's double/halve with threshold n)")
        if start_ties and not probs:
            zero = "w = 0" if P.algorithm == "perceptron" else "alpha = 0"
            notes.append(f"the tie{'s' if len(start_ties) > 1 else ''} at your start {zero} (step "
                         f"{', '.join(map(str, start_ties))}) went the other way from the course's convention: which "
                         "way a tie goes is graded by the ties test; the invariants take your own step there (an "
                         "update at a tie is checked like any other) and the contract's convention from your "
                         "first update on")
        note = "".join(f"\nnote: {n}" for n in notes)
        if probs:
            if ts.hidden:
                return False, "", []
            return False, ("checked on your own run over " + f"X = {fmt_X(X)}, y = {P.student_labels(y)} "
                           f"(checkers: {used}):\n" + "\n".join(probs[:6]) + note), []
        return True, f"passed (checkers: {used}){note}", []

    # --- the cost of a pass as n grows ---------------------------------------------------------------
    def _scaling_data(self, n, rep=0):
        """Random data with n examples (dyadic; labels random, so about half the steps update);
        the same for every submission (cached per process); ``rep`` draws another set of that size."""
        alg = self.ctx.problem.algorithm
        flt = self.ctx.problem.contract.arithmetic == "float"
        key = (alg, n, rep, self.ctx.problem.contract.separable) + (("float",) if flt else ())
        if key not in _SCALING:
            import numpy as np
            rng = np.random.default_rng([1000 + n, rep])
            if alg == "winnow":
                X = rng.integers(0, 2, size=(n, 8)).tolist()
                y = rng.integers(0, 2, size=n).tolist()
            else:
                d = 3 if alg == "kernel_perceptron" else 5
                X = rng.integers(-8, 9, size=(n, d)) / 4
                y = rng.choice([1, -1], size=n).tolist()
                if flt:     # a float course: six-decimal values, whose runs meet no tie that rounding decides
                    X = np.round(X + rng.uniform(-0.1, 0.1, size=(n, d)), 6)
                X = X.tolist()
            c = self.ctx.problem.contract
            if c.separable is not None:      # "until no mistake": separable data, or the loop never ends
                X, y = c.separable_case(X, y)
            _SCALING[key] = (X, y)
        return _SCALING[key]

    def reference_seconds(self, n):
        """The reference's CPU time for one pass over the timed data of size n (the same data for
        every submission: measured once per batch, before the grading processes start, or else once
        per process)."""
        P = self.ctx.problem
        rkey = (P.algorithm, P.contract.kernel, P.contract.bias, P.contract.kernel_bias, P.contract.separable,
                P.contract.arithmetic, n)
        if rkey not in _REF_SECONDS:
            _REF_SECONDS[rkey] = reference_seconds(P.contract, *self._scaling_data(n))
        return _REF_SECONDS[rkey]

    def _scaling_answer(self, X, y, key):
        """The answer a timed pass must give: the course's solution's where the spec hands one
        (grading.checks.oracle), else the reference's from the code's own start where the contract says so."""
        contract = self.oracle.with_start(X, None, self.calls.call)
        k = (self.ctx.spec.source, repr(contract or self.ctx.problem.contract), key)
        if k not in _SCALING_ANSWERS:
            ans = self.oracle.oracle_expected(X, y, 1, contract, frozenset()) if self.ctx.problem.contract.oracle else None
            if ans is None:      # the final weights only (no step-by-step trace) where that is certified exact
                ans = final_answer(contract or self.ctx.problem.contract, X, y, 1)
            if ans is None:
                ans = self.ctx.problem.expected(X, y, 1, contract=contract)
            # only the final answer is compared: the trace of a long run is not kept
            _SCALING_ANSWERS[k] = copy_answer(ans, trace=None)
        return _SCALING_ANSWERS[k]

    def _other_convention(self, X, y, key, got) -> bool:
        """Is a timed answer exactly the reference's under another tie convention (and not its
        start: a run that never moves proves no work)?  This test measures the cost of a pass; the
        convention is graded by the ties test."""
        from grading.spec.contract import TIES
        from grading.checks.diagnose import _never_moved
        P = self.ctx.problem
        c = P.contract
        if P.algorithm not in ("perceptron", "kernel_perceptron", "winnow") or c.oracle or c.init == "own" or \
                P.algorithm != "winnow" and _never_moved(c, X, got) or \
                P.algorithm == "kernel_perceptron" and got.w is not None and not any(got.w) or \
                P.algorithm == "winnow" and got.w is not None and all(v == 1 for v in got.w):   # Winnow's start: w = 1
            return False
        for t in TIES[P.algorithm]:
            if t == c.ties:
                continue
            k = (self.ctx.spec.source, repr(c), key, t)
            if k not in _SCALING_ANSWERS:
                other = c.replace(ties=t)
                _SCALING_ANSWERS[k] = final_answer(other, X, y, 1) or P.expected(X, y, 1, contract=other)
            if P.compare(_SCALING_ANSWERS[k], got)[0]:
                return True
        return False

    def _timed(self, X, y, limit):
        """(CPU seconds, kernel calls, answer) of one call of the student's code.  The seconds are
        the worker's whole process tree's CPU time, read by the grader from outside (its control
        group, or /proc/PID/stat for the one process it may have): other jobs on the machine do not
        inflate it, threads and children cannot hide from it, and nothing the submission sets
        enters it.  It is read with the tree at rest before and after the call: a thread or child
        the call started that still runs (or starts within half a second) after the answer is
        waited for and counted, and work still going at the call's time limit exceeds it.  The wall clock only where
        neither figure can be read."""
        import time
        w = self.ctx.worker
        settle = getattr(w, "settle", None)
        if settle is None:          # a stand-in worker (tests): no tree to read
            got, _ = self.calls.call(X, y, 1, limit=limit)
            self.ctx.clock = "wall-clock"
            return self.ctx.last_call.seconds, (self.ctx.last_call.ok or {}).get("kernel_calls"), got
        if not w.alive:             # a fresh worker: started (and its module loaded) first
            self.calls.call(*self._scaling_data(SIZES[self.ctx.problem.algorithm][0]), 1, limit=limit)
        # at rest before (what an earlier call left running is not this pass's) and after
        if not w.alive or not settle(None, time.monotonic() + limit):
            raise Failure(f"time limit exceeded ({limit:.3g} s wall clock): a thread or process your code started "
                          "was still working long after its call returned")
        before, tasks = w.cpu_seconds(), w.tree_tasks()
        t0 = time.monotonic()
        got, _ = self.calls.call(X, y, 1, limit=limit)
        r = self.ctx.last_call
        if not settle(tasks, t0 + limit):
            raise Failure(f"time limit exceeded ({limit:.3g} s wall clock): a thread or process your call started was "
                          "still working after it returned (its work is part of the pass)")
        after = w.cpu_seconds()
        if before is not None and after is not None and after >= before:
            secs, self.ctx.clock = after - before, "CPU"
        else:
            secs, self.ctx.clock = r.seconds, "wall-clock"
        return secs, (r.ok or {}).get("kernel_calls"), got

    def _t_linear_time(self, ts):
        P = self.ctx.problem
        alg = P.algorithm
        n, n_max = SIZES[alg]
        counted = "kernel" in P.contract.call.refs()
        sizes, secs, calls, ref_secs, walls = [], [], [], [], []
        self.ctx.clock = "wall-clock"
        quad = 4 if alg == "kernel_perceptron" else 2     # a correct pass grows like n (n^2 for the dual)
        grow, fix = (("quadratic", "recomputing the whole sum at every step: keep the running weights and update them")
                     if alg != "kernel_perceptron" else
                     ("cubic", "recomputing f for every example at every step: compute f(x_i) for the example visited"))
        cap = max(self.ctx.spec.time_floor, 5.0)
        if not self.ctx.worker.alive:
            self.calls.call(*self._scaling_data(n), 1, limit=cap)        # warm up (the worker's start, imports)
        while n <= n_max:
            ref_secs.append(self.reference_seconds(n))
            # a pass over twice the data gets 20 times the last one's time (and at least time_floor)
            limit = cap if not walls else min(cap, max(self.ctx.spec.time_floor, 20 * walls[-1]))
            best, wall, k = None, None, None
            for rep in range(REPEATS):
                X, y = self._scaling_data(n, rep)
                try:
                    s, k, got = self._timed(X, y, limit)
                except Failure as f:
                    if "time limit" in f.msg and sizes:
                        return self._slow(ts, self._over_limit(sizes, secs, n, limit, grow, fix))
                    raise
                ok, msg = P.compare(self._scaling_answer(X, y, (n, rep)), got)
                if not ok and self._other_convention(X, y, (n, rep), got):
                    ok = True       # the algorithm's answer under another tie convention: the ties test grades that
                if not ok:          # no work skipped: every timed answer must be right
                    if ts.hidden:
                        return False, "", []
                    from grading.checks.diagnose import rounding_only
                    r = rounding_only(P, self._scaling_answer(X, y, (n, rep)), got)
                    why = (f"; the only difference is rounding (within {r:.2g} relative, beyond the tolerance "
                           f"{P.contract.tolerance:g}): compute in float64 as the course does") if r else ""
                    return False, (f"the answer of the timed pass over n = {n} examples is wrong: {msg}{why} (the "
                                   "other tests show where on small inputs)"), []
                best = s if best is None else min(best, s)
                wall = self.ctx.last_call.seconds if wall is None else min(wall, self.ctx.last_call.seconds)
            sizes.append(n)
            secs.append(best)
            walls.append(wall)
            calls.append(k)
            n *= 2
            if len(sizes) >= 3 and n <= n_max and counted and all(c is not None for c in calls[-3:]):
                early = _counted_verdict(sizes, calls, quad)
                if early:
                    return self._slow(ts, early)
            if len(sizes) >= 3 and secs[-1] >= MIN_SECONDS[self.ctx.clock] and n <= n_max:
                early = self._verdict(sizes, secs, ref_secs, quad, grow, fix) and \
                    self._confirm(sizes, secs, ref_secs, quad, grow, fix, cap)
                if early:           # already clear: the larger sizes would only cost time
                    return self._slow(ts, early)
        per = "example" if alg != "kernel_perceptron" else "kernel evaluation"
        clock = self.ctx.clock
        if counted and all(k is not None for k in calls[-3:]):
            # the worker's count of kernel evaluations: it can only make its own code look slower, never
            # faster (the decision to pass rests on the CPU time below)
            msg = _counted_verdict(sizes, calls, quad)
            if msg:
                return self._slow(ts, msg)
        g4 = secs[-1] / max(secs[-3], 1e-9)                 # growth over the last two doublings (n x 4)
        rr4 = ref_secs[-1] / max(ref_secs[-3], 1e-9)
        seen = ", ".join(f"n = {a}: {b:.3g} s" for a, b in zip(sizes, secs)) + f" ({clock} time)"
        if secs[-1] < MIN_SECONDS[clock]:
            return True, f"passed (one pass: {seen}; too fast to measure its growth)", []
        verdict = self._verdict(sizes, secs, ref_secs, quad, grow, fix) and \
            self._confirm(sizes, secs, ref_secs, quad, grow, fix, cap)
        if verdict:
            return self._slow(ts, verdict)
        seen = ", ".join(f"n = {a}: {b:.3g} s" for a, b in zip(sizes, secs)) + f" ({clock} time)"
        g4 = secs[-1] / max(secs[-3], 1e-9)
        return True, (f"passed (one pass: {seen}, the least of {REPEATS} runs on different data, every answer checked; "
                      f"x{g4:.1f} while n grew x4, the reference x{rr4:.1f}; cost per {per} does not grow with n)"), []

    def _confirm(self, sizes, secs, ref_secs, quad, grow, fix, cap):
        """A cost that looks super-linear is measured again, in up to CONFIRM_ROUNDS rounds (every
        size, smallest first, on fresh data, answers checked); it is named only when the least of
        all runs still says so and at least two rounds say so on their own figures -- a burst of
        load on the machine must not cost a correct submission its point, and a cost that really
        grows faster than n shows in every round.  ``secs`` takes the least of all runs."""
        agree = judged = 0
        for r in range(CONFIRM_ROUNDS):
            row = []
            for i, n in enumerate(sizes):
                X, y = self._scaling_data(n, REPEATS + r)
                try:
                    s, _, got = self._timed(X, y, cap)
                except Failure:
                    row = None      # a crash or a time limit in a round: the round says nothing
                    break
                if not self.ctx.problem.compare(self._scaling_answer(X, y, (n, REPEATS + r)), got)[0]:
                    row = None
                    break
                row.append(s)
                secs[i] = min(secs[i], s)
            if row is not None:
                judged += 1
                agree += bool(self._verdict(sizes, row, ref_secs, quad, grow, fix))
            if not self._verdict(sizes, secs, ref_secs, quad, grow, fix) or judged - agree >= 2:
                return None
            if agree >= 2:
                break
        if judged >= 2 and agree < 2:
            return None
        verdict = self._verdict(sizes, secs, ref_secs, quad, grow, fix)
        if not verdict or not 0.8 * quad <= secs[-2] / max(secs[-3], 1e-9) < 1.4 * quad:
            return verdict      # the doubling before the last did not grow like n: not one step
        return self._next_doubling(verdict, sizes, secs, ref_secs, quad, grow, fix, cap)

    def _next_doubling(self, verdict, sizes, secs, ref_secs, quad, grow, fix, cap):
        """``verdict`` read again with one more size, twice the largest (the least of REPEATS
        passes on fresh data, answers checked).  A cost that grows faster than n keeps doing so at
        the next doubling; a correct pass whose data have just outgrown one of the processor's
        caches (or that a co-running job's cache traffic slows from that size on) steps up once --
        each example costs more from there -- and then grows like n again.  Asked only when the
        doubling before the last grew like n (x1.6 to x2.8; x3.2 to x5.6 for the dual's n^2): a
        cost growing faster than n from the start is not a step (and its pass over twice the data
        would be the longest of all), and padding that flattens the small sizes' growth must not
        be diluted by a larger pass until its fixed share no longer shows.  A pass over the new
        size that exceeds its time limit is super-linear; one that cannot be judged (a crash, a
        wrong answer) leaves the verdict as it was."""
        n = 2 * sizes[-1]
        limit = min(cap, max(self.ctx.spec.time_floor, 20 * secs[-1]))
        best = None
        for rep in range(REPEATS):
            X, y = self._scaling_data(n, rep)
            try:
                s, _, got = self._timed(X, y, limit)
            except Failure as f:
                return self._over_limit(sizes, secs, n, limit, grow, fix) if "time limit" in f.msg else verdict
            if not self.ctx.problem.compare(self._scaling_answer(X, y, (n, rep)), got)[0]:
                return verdict
            best = s if best is None else min(best, s)
            again = self._verdict(sizes + [n], secs + [best], ref_secs + [self.reference_seconds(n)], quad, grow, fix)
            if not again:       # load only ever slows a pass: one linear reading clears it
                return None
        return again

    def _over_limit(self, sizes, secs, n, limit, grow, fix):
        seen = ", ".join(f"n = {a}: {b:.3g} s" for a, b in zip(sizes, secs))
        return (f"super-linear work: one pass took {seen} ({self.ctx.clock} time), and more than {limit:.3g} s of "
                f"wall-clock time at n = {n} (20 times the pass over n = {sizes[-1]}; linear work takes about twice "
                f"as long) -- {grow} growth, e.g. {fix}")

    def _verdict(self, sizes, secs, ref_secs, quad, grow, fix):
        """The grader's reading of the costs seen so far: a message when they are not linear."""
        g4 = secs[-1] / max(secs[-3], 1e-9)
        r2 = secs[-1] / max(secs[-2], 1e-9)
        rr4 = ref_secs[-1] / max(ref_secs[-3], 1e-9)
        seen = ", ".join(f"n = {a}: {b:.3g} s" for a, b in zip(sizes, secs)) + f" ({self.ctx.clock} time)"
        # x8 where linear work gives x4 (x24 where the dual's n^2 gives x16), at least twice the
        # reference's growth, and the last doubling alone clearly above linear
        if g4 >= (2.0 if quad == 2 else 1.5) * quad * quad and g4 >= 2 * rr4 and r2 >= 1.4 * quad:
            return (f"super-linear work: one pass took {seen}: x{g4:.1f} while n grew x4 (the reference: x{rr4:.1f}; "
                    f"{'linear' if quad == 2 else 'n^2'} work gives x{quad * quad}) -- {grow} growth, e.g. {fix}")
        if len(sizes) < 4:
            return None
        fixed, sup = _fit(sizes, secs, 1 if quad == 2 else 2)
        # the fit's super-linear term counts only with a growth twice linear as well (x8 where linear
        # work gives x4): caches make the largest size's pass of correct code look x3-x4 per doubling
        if sup >= SHARE_SUPER * secs[-1] and g4 >= 2 * quad * quad:
            return (f"super-linear work: one pass took {seen}; of the pass over n = {sizes[-1]}, {sup:.3g} s is a "
                    f"{grow} term (a least-squares fit over the sizes) -- {grow} growth, e.g. {fix}")
        if fixed >= SHARE_FIXED * secs[-1] and fixed >= FIXED_MIN:
            return (f"super-linear work hidden by a fixed cost: one pass took {seen}; {fixed:.3g} s of it does not grow "
                    "with n at all (the same at every size), so the growth of the rest cannot be seen -- a pass should "
                    "cost in proportion to n: do the work the data need, no more")
        return None

    def _slow(self, ts, msg):
        if ts.hidden:
            return False, "", []
        self.ctx.diagnoses.setdefault("super-linear cost", msg.split(";")[0])
        return False, msg, ["super-linear cost"]


def _counted_verdict(sizes, calls, quad):
    g4 = calls[-1] / max(1, calls[-3])
    seen = ", ".join(f"n = {a}: {b}" for a, b in zip(sizes, calls))
    if g4 >= 2 * quad * quad:
        return (f"super-linear work: kernel evaluations per pass grew x{g4:.0f} while n grew x4 ({seen}); a "
                f"pass needs about n^2 of them (x16): do not recompute every f(x_i) or the Gram matrix at each step")
    return None


def _fit(sizes, secs, p):
    """Least squares t = a + b n^p + c n^(p+1) over the sizes: (a, c N^(p+1)) -- the fixed and the
    super-linear share of the last pass (each 0 when the fit makes it negative)."""
    import numpy as np
    N = float(sizes[-1])
    u = np.array(sizes, dtype=float) / N
    A = np.stack([np.ones_like(u), u ** p, u ** (p + 1)], axis=1)
    coef, *_ = np.linalg.lstsq(A, np.array(secs, dtype=float), rcond=None)
    return max(0.0, float(coef[0])), max(0.0, float(coef[2]))
