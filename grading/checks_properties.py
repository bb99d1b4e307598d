"""Property tests on the student's own runs: the proof's invariants step by step, and the cost
of a pass as the data grow."""
from __future__ import annotations

from fractions import Fraction

from .checks_common import Failure, finite, fmt_X
from .reference import reference_seconds

__all__ = ["PropertyTests"]

# linear_time: sizes double from N0 until a call takes MIN_SECONDS of CPU (or N_MAX); the last
# two doublings decide (when they look super-linear, the last three sizes are measured once more
# and the best time counts).  Linear work doubles per doubling; quadratic work quadruples.
SIZES = {"perceptron": (1024, 8192), "winnow": (256, 8192), "kernel_perceptron": (16, 256)}
MIN_SECONDS = 0.03
_SCALING: dict = {}
_REF_SECONDS: dict = {}


class PropertyTests:
    """Mixed into :class:`grading.checks.Grader`."""

    # --- the proof's invariants on the student's run ---------------------------------------------
    def _states(self, X, y):
        """The student's state after each prefix of (X, y): one pass each, the examples fed in the
        order given (the course's order helper, if any, returns 0..n-1 for these runs)."""
        P = self.problem
        c = P.contract
        out = []
        for k in range(1, len(X) + 1):
            got, _ = self.call(X[:k], y[:k], 1, order_override=True)
            want = k if P.algorithm == "kernel_perceptron" else len(X[0])
            if len(got.w or []) != want:
                raise Failure(f"after {k} example(s) your code returned {len(got.w or [])} numbers")
            if any(not finite(v) for v in got.w) or (got.b is not None and not finite(got.b)):
                raise Failure(f"after {k} example(s) your code returned a non-finite weight")
            out.append(got)
        start_w, start_b = c.initial_weights(len(X[0])) if P.algorithm == "perceptron" else (None, 0)
        return out, start_w, start_b

    def _t_invariants(self, ts):
        from . import invariants as inv
        P = self.problem
        c = P.contract
        X, y, target, tb = P.invariant_data()
        got, start_w, start_b = self._states(X, y)
        notes = []
        eta = c.learning_rate
        if eta != 1:
            notes.append(f"learning rate {eta}: Claims 1 and 2 are stated for eta = 1 and scale with eta (w.w* grows "
                         f"by >= eta gamma, |w|^2 by <= eta^2 R^2); checked on w / eta, where they hold as stated")
        used = "grading.invariants"
        if P.algorithm == "perceptron":
            states = [([v / eta for v in start_w], start_b / eta)] + \
                [([Fraction(float(v)) / eta for v in g.w], Fraction(float(g.b or 0)) / eta) for g in got]
            bound = c.init == "zero"
            if not bound:
                notes.append(f"start w0 != 0 (init = {c.init}): the mistake bound R^2|w*|^2/gamma^2 is proved from "
                             "w0 = 0 and does not apply; Claims 1 and 2 hold from any start and are checked")
            probs = inv.check_perceptron_run(X, y, states, target, tb, c.bias, ties=c.ties, bound=bound)
        elif P.algorithm == "winnow":
            states = [[Fraction(1)] * len(X[0])] + [[Fraction(float(v)) for v in g.w] for g in got]
            std = c.variant in ("halve", "eliminate") and c.threshold == "n" and c.ties == "predict+1"
            if not std:
                notes.append("the mistake bound 2 + 3r(1 + lg n) is proved for threshold n, factor 2 and ties "
                             "predicting 1; under this contract only the update rule is checked")
            up = c.factor if c.variant == "winnow2" else 2
            probs = inv.check_winnow_run(X, y, states, target, theta=c.theta_value(len(X[0])), up=up, down=up,
                                         variant=c.variant, ties=c.ties, bound=std and c.variant == "halve")
        else:
            def signed(g, k):
                a = [Fraction(float(v)) / eta for v in g.w]
                return [v * y[i] for i, v in enumerate(a)] if c.dual == "counts" else a
            states = [[]] + [signed(g, k) for k, g in enumerate(got)]
            biases = [Fraction(0)] + [Fraction(float(g.b or 0)) / eta for g in got] if c.kernel_bias else None
            probs = inv.check_kernel_run(X, y, states, P.kernel, ties=c.ties, biases=biases)
        default = c.ties in ("mistake", "predict+1") and eta == 1 and c.init == "zero"
        if P.algorithm in ("perceptron", "winnow") and not c.normalize and default and \
                (P.algorithm == "perceptron" or c.variant == "halve" and c.threshold == "n"):
            raw = [(g.w, g.b if g.b is not None else 0.0) if P.algorithm == "perceptron" else g.w for g in got]
            first = ([0.0] * len(X[0]), 0.0) if P.algorithm == "perceptron" else [1.0] * len(X[0])
            try:
                mprobs, name = inv.monitor_run(P.algorithm, X, y, [first] + raw, target, tb, c.bias)
            except Exception as ex:  # noqa: BLE001 - a monitor problem must not cost the student points
                mprobs, name = [], None
                used += f" (proofs.monitors not usable here: {type(ex).__name__})"
            if name:
                used += f" and {name}"
                probs = probs + [p for p in mprobs if p not in probs]
        elif P.algorithm in ("perceptron", "winnow"):
            notes.append("proofs.monitors not used: they check the theorems as stated (ties are mistakes, learning "
                         "rate 1, w0 = 0, Winnow's double/halve with threshold n)")
        note = "".join(f"\nnote: {n}" for n in notes)
        if probs:
            if ts.hidden:
                return False, "", []
            return False, ("checked on your own run over " + f"X = {fmt_X(X)}, y = {P.student_labels(y)} "
                           f"(checkers: {used}):\n" + "\n".join(probs[:6]) + note), []
        return True, f"passed (checkers: {used}){note}", []

    # --- the cost of a pass as n grows ---------------------------------------------------------------
    def _scaling_data(self, n):
        """Random data with n examples (dyadic; labels random, so about half the steps update);
        the same for every submission (cached per process)."""
        alg = self.problem.algorithm
        key = (alg, n, self.problem.contract.separable)
        if key not in _SCALING:
            import numpy as np
            rng = np.random.default_rng(1000 + n)
            if alg == "winnow":
                X = rng.integers(0, 2, size=(n, 8)).tolist()
                y = rng.integers(0, 2, size=n).tolist()
            else:
                d = 3 if alg == "kernel_perceptron" else 5
                X = (rng.integers(-8, 9, size=(n, d)) / 4).tolist()
                y = rng.choice([1, -1], size=n).tolist()
            c = self.problem.contract
            if c.separable is not None:      # "until no mistake": separable data, or the loop never ends
                X, y = c.separable_case(X, y)
            _SCALING[key] = (X, y)
        return _SCALING[key]

    def _timed(self, X, y, limit):
        """(seconds, kernel calls) of one call of the student's code.  The seconds are the worker's
        CPU time as the kernel accounts it (/proc/PID/schedstat, read by the grader: other jobs on
        the machine do not inflate it, and the student's code cannot fake it), or the wall clock
        of the call where that cannot be read."""
        pid = _worker_pid(self.worker)
        before = _cpu_seconds(pid)
        self.call(X, y, 1, limit=limit)
        r = self.last_call
        after = _cpu_seconds(_worker_pid(self.worker))
        secs = after - before if (before is not None and after is not None and after >= before) else r.seconds
        self.clock = "CPU" if secs is not r.seconds else "wall-clock"
        return secs, (r.ok or {}).get("kernel_calls")

    def _t_linear_time(self, ts):
        P = self.problem
        alg = P.algorithm
        n, n_max = SIZES[alg]
        counted = "kernel" in P.contract.call.refs()
        sizes, secs, calls, ref_secs, walls = [], [], [], [], []
        self.clock = "wall-clock"
        cap = max(self.spec.time_floor, 5.0)
        if not self.worker.alive:
            self.call(*self._scaling_data(n), 1, limit=cap)        # warm up (the worker's start, imports)
        while True:
            X, y = self._scaling_data(n)
            rkey = (alg, P.contract.kernel, P.contract.bias, P.contract.kernel_bias, n)
            if rkey not in _REF_SECONDS:          # the same data for every submission: measured once per process
                _REF_SECONDS[rkey] = reference_seconds(P.contract, X, y)
            ref_secs.append(_REF_SECONDS[rkey])
            # a pass over twice the data gets 20 times the last one's time (and at least time_floor)
            limit = cap if not secs else min(cap, max(self.spec.time_floor, 20 * walls[-1]))
            try:
                s, k = self._timed(X, y, limit)
            except Failure as f:
                if "time limit" in f.msg and sizes:
                    seen = ", ".join(f"n = {a}: {b:.3g} s" for a, b in zip(sizes, secs))
                    kind = "quadratic" if alg != "kernel_perceptron" else "cubic"
                    return self._slow(ts, f"super-linear work: one pass took {seen} ({self.clock} time), and more "
                                          f"than {limit:.3g} s of wall-clock time at n = {n} (20 times the pass over "
                                          f"n = {sizes[-1]}; linear work takes about twice as long) -- {kind} growth "
                                          "or worse, e.g. recomputing the whole sum at every step: keep the running "
                                          "weights and update them")
                raise
            sizes.append(n)
            secs.append(s)
            walls.append(self.last_call.seconds)
            calls.append(k)
            if n * 2 > n_max or (s >= MIN_SECONDS and len(sizes) >= 3):
                break
            n *= 2
        quad = 4 if alg == "kernel_perceptron" else 2     # a correct pass grows like n (n^2 for the dual)
        if len(secs) >= 3 and secs[-1] > 1.5 * quad * quad * secs[-3]:
            for i in range(len(sizes) - 3, len(sizes)):     # growth looks super-linear: measure once more
                X, y = self._scaling_data(sizes[i])
                secs[i] = min(secs[i], self._timed(X, y, cap)[0])
        per = "example" if alg != "kernel_perceptron" else "kernel evaluation"
        if len(sizes) < 3:
            return True, f"passed (sizes {sizes}: too few to measure growth)", []
        clock = self.clock
        if counted and all(k is not None for k in calls[-3:]):
            # exact step counts: a pass of the dual perceptron needs about n^2 kernel evaluations
            g4 = calls[-1] / max(1, calls[-3])
            seen = ", ".join(f"n = {a}: {b}" for a, b in zip(sizes, calls))
            if g4 >= 2 * quad * quad:
                msg = (f"super-linear work: kernel evaluations per pass grew x{g4:.0f} while n grew x4 ({seen}); a "
                       f"pass needs about n^2 of them (x16): do not recompute every f(x_i) or the Gram matrix at each "
                       "step")
                return self._slow(ts, msg)
            return True, f"passed (kernel evaluations per pass: {seen}; x{g4:.0f} while n grew x4, n^2 gives x16)", []
        g4 = secs[-1] / max(secs[-3], 1e-9)                 # growth over the last two doublings (n x 4)
        r2 = secs[-1] / max(secs[-2], 1e-9)
        rr4 = ref_secs[-1] / max(ref_secs[-3], 1e-9)
        seen = ", ".join(f"n = {a}: {b:.3g} s" for a, b in zip(sizes, secs)) + f" ({clock} time)"
        grow, fix = (("quadratic", "recomputing the whole sum at every step: keep the running weights and update them")
                     if alg != "kernel_perceptron" else
                     ("cubic", "recomputing f for every example at every step: compute f(x_i) for the example visited"))
        # flagged: x8 where linear work gives x4 (x24 where the dual's n^2 gives x16), at least twice the
        # reference's growth, and the last doubling alone clearly above linear
        if secs[-1] >= MIN_SECONDS and g4 >= (2.0 if quad == 2 else 1.5) * quad * quad and g4 >= 2 * rr4 \
                and r2 >= 1.4 * quad:
            msg = (f"super-linear work: one pass took {seen}: x{g4:.1f} while n grew x4 (the reference: x{rr4:.1f}; "
                   f"{'linear' if quad == 2 else 'n^2'} work gives x{quad * quad}) -- {grow} growth, e.g. {fix}")
            return self._slow(ts, msg)
        return True, (f"passed (one pass: {seen}; x{g4:.1f} while n grew x4, the reference x{rr4:.1f}; cost per "
                      f"{per} does not grow with n)"), []

    def _slow(self, ts, msg):
        if ts.hidden:
            return False, "", []
        self.diagnoses.setdefault("super-linear cost", msg.split(";")[0])
        return False, msg, ["super-linear cost"]


def _worker_pid(worker):
    """The host pid of the process that runs the student's code (None when unknown)."""
    for name in ("pid", "_inner"):
        v = getattr(worker, name, None)
        if isinstance(v, int) and v > 0:
            return v
    return None


def _cpu_seconds(pid):
    """CPU time of the task ``pid`` (nanoseconds in /proc/PID/schedstat), or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/schedstat") as fh:
            return int(fh.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return None
