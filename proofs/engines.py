"""The engines: z3 (primary), cvc5 (second opinion on the SMT-LIB 2 text), sympy (identities).

* z3: ``hypotheses & not goal``; unsat -> proved, sat -> refuted (the model is the
  counterexample, printed as exact rationals or algebraic numbers), unknown/timeout -> unknown.
* cvc5: the very SMT-LIB 2 text z3 exports (``Solver.to_smt2()``), parsed by cvc5's
  ``InputParser`` and solved from scratch; same reading of sat/unsat/unknown.
* sympy: ``simplify(lhs - rhs) == 0`` is a proof; anything else is *unknown*, unless an exact
  evaluation at a rational point gives a nonzero difference (then refuted with that point).
  The cross-check of a polynomial identity is cvc5 on ``(assert (not (= lhs rhs)))`` (SMT-LIB
  written from the sympy expression by :func:`sympy_to_smtlib`); of a non-polynomial identity
  (sums over a symbolic dimension, exp, sqrt) exact evaluation at random rational points of
  concrete instances.
"""
from __future__ import annotations

import random
import re
import time
from fractions import Fraction

from .core import PROVED, REFUTED, UNKNOWN, ObligationResult, Verdict

_Z3 = None


def z3mod():
    global _Z3
    if _Z3 is None:
        import z3
        _Z3 = z3
    return _Z3


# --------------------------------------------------------------------------- z3 helpers
def _value_str(v) -> str:
    z3 = z3mod()
    if z3.is_rational_value(v):
        f = v.as_fraction()
        return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
    if z3.is_int_value(v):
        return str(v.as_long())
    if z3.is_algebraic_value(v):
        return "~" + v.as_decimal(12).rstrip("?")
    if z3.is_true(v):
        return "true"
    if z3.is_false(v):
        return "false"
    return str(v)


def model_dict(m, limit: int = 24) -> dict:
    out = {}
    for d in sorted(m.decls(), key=lambda d: d.name()):
        if d.arity() != 0:
            continue
        out[d.name()] = _value_str(m[d])
        if len(out) >= limit:
            break
    return out


def logic_of(exprs) -> str:
    """The SMT-LIB logic of a set of z3 formulas (sorts of the constants, linear or not)."""
    z3 = z3mod()
    has_int = has_real = nonlinear = False
    seen = set()
    stack = list(exprs)
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_expr(e):
            if e.sort() == z3.IntSort():
                has_int = True
            elif e.sort() == z3.RealSort():
                has_real = True
        if z3.is_app(e):
            k = e.decl().kind()
            if k in (z3.Z3_OP_MUL, z3.Z3_OP_DIV, z3.Z3_OP_POWER, z3.Z3_OP_IDIV, z3.Z3_OP_MOD):
                consts = [a for a in e.children() if not (z3.is_rational_value(a) or z3.is_int_value(a))]
                if len(consts) > 1 or k == z3.Z3_OP_POWER or (k == z3.Z3_OP_DIV and not
                                                              z3.is_rational_value(e.children()[-1])):
                    nonlinear = True
            stack.extend(e.children())
    ar = ("N" if nonlinear else "L")
    if has_int and has_real:
        return f"QF_{ar}IRA"
    if has_int:
        return f"QF_{ar}IA"
    return f"QF_{ar}RA"


def z3_solver(hyps, extra=(), timeout_ms=4000):
    z3 = z3mod()
    s = z3.Solver()
    s.set("timeout", int(timeout_ms))
    for _, h in hyps:
        s.add(h)
    for e in extra:
        s.add(e)
    return s


def z3_check(hyps, goal, timeout_ms=4000, engine="z3", want_smt=True) -> tuple[Verdict, str | None]:
    """Prove ``hyps => goal``: unsat of ``hyps & not goal``.  Returns (verdict, SMT-LIB text)."""
    z3 = z3mod()
    s = z3_solver(hyps, [z3.Not(goal)], timeout_ms)
    smt = smtlib_text(s, [h for _, h in hyps] + [goal]) if want_smt else None
    t = time.perf_counter()
    r = s.check()
    dt = time.perf_counter() - t
    if r == z3.unsat:
        return Verdict(PROVED, engine, dt), smt
    if r == z3.sat:
        return Verdict(REFUTED, engine, dt, counterexample=model_dict(s.model())), smt
    return Verdict(UNKNOWN, engine, dt, reason=s.reason_unknown() or "unknown"), smt


def z3_sat(constraints, timeout_ms=4000, engine="z3") -> Verdict:
    """Satisfiability as a verdict: ``proved`` = satisfiable (with a model), ``refuted`` = unsat."""
    z3 = z3mod()
    s = z3.Solver()
    s.set("timeout", int(timeout_ms))
    s.add(*constraints)
    t = time.perf_counter()
    r = s.check()
    dt = time.perf_counter() - t
    if r == z3.sat:
        return Verdict(PROVED, engine, dt, counterexample=model_dict(s.model(), limit=12), reason="satisfiable")
    if r == z3.unsat:
        return Verdict(REFUTED, engine, dt, reason="unsatisfiable")
    return Verdict(UNKNOWN, engine, dt, reason=s.reason_unknown() or "unknown")


def smtlib_text(solver, exprs=None) -> str:
    """z3's SMT-LIB 2 export with a (set-logic) line: QF_NIRA when integers occur, else QF_NRA
    (the nonlinear logics include the linear fragments)."""
    body = solver.to_smt2()
    has_int = " Int)" in body or "to_real" in body or "to_int" in body
    return f"(set-logic {'QF_NIRA' if has_int else 'QF_NRA'})\n" + body


# --------------------------------------------------------------------------- cvc5
class _Worker:
    """A long-lived child process running a worker module (one JSON request per line).

    Requests are pipelined: :meth:`submit` returns at once (the child solves while this process
    goes on with z3 and sympy -- the two run on two cores), :meth:`result` waits for one answer
    with a wall-clock deadline; past it the child is killed (verdict unknown) and the requests
    still queued are resubmitted to a fresh child."""

    def __init__(self, module: str):
        self.module = module
        self.proc = None
        self.queue: list[int] = []          # tickets sent to the current child, in order
        self.requests: dict[int, tuple[str, int]] = {}
        self.answers: dict[int, dict | None] = {}
        self.next_ticket = 0
        self.last_progress = 0.0

    def _start(self):
        import os
        import subprocess
        import sys
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.proc = subprocess.Popen([sys.executable, "-m", self.module], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0, env=env)
        self.buf = b""
        self.queue = []
        self.last_progress = time.monotonic()

    def kill(self):
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(timeout=2)
            except Exception:
                pass
            self.proc = None

    def _send(self, ticket: int) -> None:
        import json
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        payload, timeout_ms = self.requests[ticket]
        if not self.queue:
            self.last_progress = time.monotonic()
        self.proc.stdin.write((json.dumps(payload) + "\n").encode())
        self.queue.append(ticket)

    def submit(self, payload: dict, timeout_ms: int) -> int:
        t = self.next_ticket
        self.next_ticket += 1
        self.requests[t] = (payload, int(timeout_ms))
        try:
            self._send(t)
        except (BrokenPipeError, OSError):
            self.kill()
            self.answers[t] = None
        return t

    def _line(self, left: float):
        """One answer line from the child, b"" at EOF, None when ``left`` seconds pass first.
        Reads the raw pipe (no Python-level buffering that select() could not see)."""
        import os
        import select
        end = time.monotonic() + left
        while b"\n" not in self.buf:
            wait = max(end - time.monotonic(), 0.0)       # always look at the pipe at least once
            if not select.select([self.proc.stdout], [], [], wait)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                return b""
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def result(self, ticket: int) -> dict | None:
        import json
        wait_start = time.monotonic()
        while ticket not in self.answers:
            if self.proc is None or not self.queue:
                self.answers[ticket] = None
                break
            head = self.queue[0]
            # the child works while this process is busy elsewhere: count from when we began waiting
            deadline = max(self.last_progress, wait_start) + self.requests[head][1] / 1000 + 2.0
            line = self._line(max(deadline - time.monotonic(), 0))
            if line:
                self.last_progress = time.monotonic()
                self.queue.pop(0)
                self.answers[head] = json.loads(line)
            elif line == b"":                       # the child died
                self.queue.pop(0)
                self.answers[head] = None
                self._restart_rest()
            else:                                   # the head request is stuck: kill, resubmit the rest
                self.queue.pop(0)
                self.answers[head] = None
                self._restart_rest()
        self.requests.pop(ticket, None)
        return self.answers.pop(ticket)

    def _restart_rest(self):
        rest = list(self.queue)
        self.kill()
        self.queue = []
        for t in rest:
            try:
                self._send(t)
            except (BrokenPipeError, OSError):
                self.answers[t] = None


# two cvc5 children (cvc5 is the slowest engine on the nonlinear obligations; the requests are
# dealt round-robin) and one for the non-vacuity checks
_CVC5_WORKERS = [_Worker("proofs.cvc5_worker"), _Worker("proofs.cvc5_worker")]
_NV_WORKER = _Worker("proofs.nonvacuity_worker")
_ROUND = [0]


def shutdown() -> None:
    """Stop the child processes (also done at interpreter exit)."""
    for w in _CVC5_WORKERS:
        w.kill()
    _NV_WORKER.kill()


import atexit  # noqa: E402
atexit.register(shutdown)


class PendingCvc5:
    """A cvc5 verdict being computed in the child process; :meth:`get` waits for it."""

    def __init__(self, smt: str, timeout_ms: int):
        self.t0 = time.perf_counter()
        self.worker = _CVC5_WORKERS[_ROUND[0] % len(_CVC5_WORKERS)]
        _ROUND[0] += 1
        self.ticket = self.worker.submit({"smt": smt, "timeout_ms": int(timeout_ms)}, int(timeout_ms))
        self._v: Verdict | None = None

    def get(self) -> Verdict:
        if self._v is None:
            res = self.worker.result(self.ticket)
            dt = res.get("seconds", 0.0) if res else time.perf_counter() - self.t0   # cvc5's own solving time
            self._v = _cvc5_verdict(res, dt)
        return self._v


def _cvc5_verdict(res, dt) -> Verdict:
    if res is None:
        return Verdict(UNKNOWN, "cvc5", dt, reason="cvc5 exceeded its wall-clock limit (process killed)")
    a = res.get("answer", "")
    if a == "unsat":
        return Verdict(PROVED, "cvc5", dt)
    if a == "sat":
        return Verdict(REFUTED, "cvc5", dt, counterexample=res.get("model") or {})
    if a == "error":
        return Verdict(UNKNOWN, "cvc5", dt, reason=f"cvc5 error: {res.get('error', '')}")
    return Verdict(UNKNOWN, "cvc5", dt, reason=a or "no answer")


def cvc5_check(smt: str, timeout_ms=4000) -> Verdict:
    """Run cvc5 on an SMT-LIB 2 text whose (check-sat) asks for a counterexample:
    unsat -> proved, sat -> refuted (with cvc5's model), otherwise unknown.  cvc5 runs in a
    child process with a wall-clock deadline (killed past it: unknown).  The ``seconds`` of a
    pipelined check include the time it waited in the queue."""
    return PendingCvc5(smt, timeout_ms).get()


# --------------------------------------------------------------------------- sympy
def sympy_to_smtlib(expr, names: dict) -> str:
    """A polynomial sympy expression as an SMT-LIB real term (raises ValueError otherwise)."""
    import sympy as sp
    if expr.is_Symbol:
        n = re.sub(r"[^A-Za-z0-9_]", "_", str(expr))
        names[n] = expr
        return n
    if expr.is_Integer:
        v = int(expr)
        return f"{v}.0" if v >= 0 else f"(- {-v}.0)"
    if expr.is_Rational:
        p, q = int(expr.p), int(expr.q)
        s = f"(/ {abs(p)}.0 {q}.0)"
        return s if p >= 0 else f"(- {s})"
    if expr.is_Add:
        return "(+ " + " ".join(sympy_to_smtlib(a, names) for a in expr.args) + ")"
    if expr.is_Mul:
        return "(* " + " ".join(sympy_to_smtlib(a, names) for a in expr.args) + ")"
    if expr.is_Pow and expr.exp.is_Integer and int(expr.exp) > 0:
        b = sympy_to_smtlib(expr.base, names)
        return "(* " + " ".join([b] * int(expr.exp)) + ")"
    if isinstance(expr, sp.Indexed):
        n = re.sub(r"[^A-Za-z0-9_]", "_", str(expr))
        names[n] = expr
        return n
    raise ValueError(f"not a polynomial: {expr}")


def polynomial_identity_smtlib(lhs, rhs) -> str | None:
    names: dict = {}
    try:
        a = sympy_to_smtlib(lhs, names)
        b = sympy_to_smtlib(rhs, names)
    except ValueError:
        return None
    decls = "".join(f"(declare-fun {n} () Real)\n" for n in sorted(names))
    return f"(set-logic QF_NRA)\n{decls}(assert (not (= {a} {b})))\n(check-sat)\n"


def polynomial_identities_smtlib(pairs) -> str | None:
    """One SMT-LIB problem that is unsat iff every (lhs, rhs) polynomial identity holds."""
    import sympy as sp
    names: dict = {}
    parts = []
    try:
        for a, b in pairs:
            parts.append(f"(not (= {sympy_to_smtlib(sp.expand(a), names)} {sympy_to_smtlib(sp.expand(b), names)}))")
    except ValueError:
        return None
    decls = "".join(f"(declare-fun {n} () Real)\n" for n in sorted(names))
    return f"(set-logic QF_NRA)\n{decls}(assert (or {' '.join(parts)} false))\n(check-sat)\n"


def _random_rational(rng):
    return Fraction(rng.randint(-9, 9), rng.randint(1, 5))


def _sum_normal(e):
    """Linearity of finite sums as a normal form: expand every summand into monomials, pull the
    factors free of the summation index out, and collect equal (summand, limits) pairs.  The
    identity holds when every collected coefficient is 0."""
    import sympy as sp
    e = sp.expand(e)
    coeffs: dict = {}
    for term in sp.Add.make_args(e):
        outer, sums = [], []
        for f in sp.Mul.make_args(term):
            (sums if isinstance(f, sp.Sum) else outer).append(f)
        if len(sums) > 1:
            return None
        if not sums:
            key = None
            coeffs[key] = coeffs.get(key, 0) + term
            continue
        S = sums[0]
        if len(S.limits) != 1:
            return None
        var = S.limits[0][0]
        for t in sp.Add.make_args(sp.expand(S.function)):
            dep = sp.Mul(*[f for f in sp.Mul.make_args(t) if f.has(var)])
            ind = sp.Mul(*[f for f in sp.Mul.make_args(t) if not f.has(var)])
            key = (dep, S.limits)
            coeffs[key] = coeffs.get(key, 0) + ind * sp.Mul(*outer)
    return all(sp.expand(c) == 0 for c in coeffs.values())


def sympy_check(lhs, rhs) -> Verdict:
    import sympy as sp
    t = time.perf_counter()
    diff = lhs - rhs
    try:
        if sp.expand(diff) == 0 or (diff.has(sp.Sum) and _sum_normal(diff) is True) or sp.simplify(diff) == 0:
            return Verdict(PROVED, "sympy", time.perf_counter() - t, reason="simplify(lhs - rhs) == 0")
    except Exception as e:  # pragma: no cover - sympy internals
        return Verdict(UNKNOWN, "sympy", time.perf_counter() - t, reason=f"sympy error: {e}")
    # not shown equal: look for an exact rational counterexample before saying unknown
    syms = sorted(diff.free_symbols, key=str)
    rng = random.Random(7)
    for _ in range(5):
        pt = {s: sp.Rational(*_pair(_random_rational(rng))) for s in syms}
        try:
            v = sp.nsimplify(diff.subs(pt))
        except Exception:
            break
        if v.is_Rational and v != 0:
            return Verdict(REFUTED, "sympy", time.perf_counter() - t,
                           counterexample={str(k): str(val) for k, val in pt.items()})
    return Verdict(UNKNOWN, "sympy", time.perf_counter() - t, reason="simplify(lhs - rhs) did not reach 0")


def _pair(f: Fraction):
    return f.numerator, f.denominator


def sympy_cross_check(lhs, rhs, instances=None, points: int = 3) -> Verdict:
    """Independent check of a sympy identity: cvc5 on the polynomial identity when it is one,
    otherwise exact evaluation at random rational points (of concrete ``instances`` when given:
    e.g. a sum over a symbolic dimension d instantiated at d = 1, 2, 3)."""
    import sympy as sp
    smt = polynomial_identity_smtlib(sp.expand(lhs), sp.expand(rhs))
    if smt is not None:
        v = cvc5_check(smt)
        v.reason = (v.reason + "; " if v.reason else "") + "cvc5 on the polynomial identity"
        return v
    t = time.perf_counter()
    pairs = instances() if instances is not None else [(lhs, rhs)]
    rng = random.Random(11)
    n = 0
    for a, b in pairs:
        diff = (a - b)
        if hasattr(diff, "doit"):
            diff = diff.doit()
        syms = sorted(diff.free_symbols, key=str)
        for _ in range(points):
            pt = {s: sp.Rational(*_pair(_random_rational(rng))) for s in syms}
            val = diff.subs(pt)
            val = sp.nsimplify(val) if not val.is_Rational else val
            n += 1
            if val.is_Rational:
                if val != 0:
                    return Verdict(REFUTED, "rational-points", time.perf_counter() - t,
                                   counterexample={str(k): str(v) for k, v in pt.items()})
            else:
                num = sp.N(val, 50)
                if abs(num) > sp.Float("1e-40"):
                    return Verdict(REFUTED, "rational-points", time.perf_counter() - t,
                                   counterexample={str(k): str(v) for k, v in pt.items()})
    return Verdict(PROVED, "rational-points", time.perf_counter() - t,
                   reason=f"{n} exact evaluations at random rational points agree (evidence, independent of simplify)")


# --------------------------------------------------------------------------- one obligation
def nonvacuity_local(hyps, goal, proved: bool, timeout_ms: int):
    """Hypotheses jointly satisfiable?  And for a proved goal: does it survive dropping each one?

    One incremental z3 solver per obligation, every hypothesis guarded by an assumption literal
    (five times faster than a fresh solver per question); a question it cannot decide is asked
    again of a fresh solver before it is reported unknown."""
    z3 = z3mod()
    s = z3.Solver()
    s.set("timeout", int(min(timeout_ms, 1500)))
    lits = []
    for i, (_, h) in enumerate(hyps):
        b = z3.Bool(f"__hyp_{i}")
        s.add(z3.Implies(b, h))
        lits.append(b)
    g = z3.Bool("__not_goal")
    s.add(z3.Implies(g, z3.Not(goal)))

    def ask(assumptions, fresh_constraints, limit):
        t = time.perf_counter()
        r = s.check(*assumptions)
        dt = time.perf_counter() - t
        if r == z3.unsat:
            return PROVED, dt, None
        if r == z3.sat:
            return REFUTED, dt, model_dict(s.model(), limit=limit)
        v = z3_sat(fresh_constraints, timeout_ms=min(timeout_ms, 1500))   # fallback: fresh solver
        # z3_sat: PROVED = satisfiable, REFUTED = unsat
        st = {PROVED: REFUTED, REFUTED: PROVED}.get(v.status, UNKNOWN)
        return st, dt + v.seconds, v.counterexample

    st, dt, m = ask(lits, [h for _, h in hyps], 12)
    # satisfiability verdict: proved = the hypotheses are satisfiable together
    sat = Verdict({REFUTED: PROVED, PROVED: REFUTED}.get(st, UNKNOWN), "z3", dt, counterexample=m,
                  reason="satisfiable" if st == REFUTED else "unsatisfiable" if st == PROVED else "unknown")
    dropped = {}
    if proved:
        for i, (name, _) in enumerate(hyps):
            rest = hyps[:i] + hyps[i + 1:]
            st, dt, m = ask(lits[:i] + lits[i + 1:] + [g], [h for _, h in rest] + [z3.Not(goal)], 24)
            dropped[name] = Verdict(st, "z3", dt, counterexample=m)
    return sat, dropped


def _verdict_from_json(d) -> Verdict:
    return Verdict(d["status"], d["engine"], d.get("seconds", 0.0), d.get("counterexample"), d.get("reason", ""))


class PendingNonvacuity:
    """The non-vacuity checks of a catalogue obligation, run by :mod:`proofs.nonvacuity_worker`
    in a child process (rebuilt there from the registry by theorem and obligation id)."""

    def __init__(self, theorem_id: str, ob, proved: bool, n_hyps: int):
        budget = 2000 + n_hyps * 1500 if proved else 2000
        self.ticket = _NV_WORKER.submit({"theorem": theorem_id, "obligation": ob.id, "proved": proved,
                                         "timeout_ms": ob.timeout_ms}, budget)
        self._r = None

    def get(self):
        if self._r is None:
            res = _NV_WORKER.result(self.ticket)
            if res is None or "error" in res:
                why = "non-vacuity worker failed" + (f": {res['error']}" if res else " (killed)")
                self._r = (Verdict(UNKNOWN, "z3", 0.0, reason=why), {})
            else:
                self._r = (_verdict_from_json(res["hypotheses_sat"]),
                           {k: _verdict_from_json(v) for k, v in res["dropped"].items()})
        return self._r


def check_obligation(ob, *, nonvacuity: bool = True, cross_check: bool = True,
                     theorem_id: str | None = None) -> ObligationResult:
    """Discharge one obligation: primary engine, second opinion, and the non-vacuity checks."""
    t0 = time.perf_counter()
    spec = ob.build()
    if ob.engine == "sympy":
        import sympy as sp
        v = sympy_check(spec["lhs"], spec["rhs"])
        smt = polynomial_identity_smtlib(sp.expand(spec["lhs"]), sp.expand(spec["rhs"]))
        res = ObligationResult(ob, v, None, smtlib=smt)
        if cross_check:
            inst_smt = None
            if smt is None and spec.get("instances") is not None:
                inst_smt = polynomial_identities_smtlib(spec["instances"]())
            if smt is not None:        # a polynomial identity: cvc5 decides it (pipelined)
                res.pending = PendingCvc5(smt, ob.timeout_ms)
            elif inst_smt is not None:  # sums over symbolic d: cvc5 decides the instances d = 1, 2, 3
                res.pending = PendingCvc5(inst_smt, ob.timeout_ms)
                res.smtlib = inst_smt
            else:
                res.cross_check = sympy_cross_check(spec["lhs"], spec["rhs"], spec.get("instances"))
        res.total_seconds = time.perf_counter() - t0
        return res
    z3 = z3mod()
    hyps, goal = spec["hyps"], spec["goal"]
    pending = None
    v, smt = z3_check(hyps, goal, ob.timeout_ms)
    if cross_check:
        pending = PendingCvc5(smt, ob.timeout_ms)    # cvc5 works while z3 does the non-vacuity checks
    cc = None
    res = ObligationResult(ob, v, cc, smtlib=smt)
    if nonvacuity and hyps:
        if theorem_id is not None:       # in parallel, in a child process
            res.pending_nv = PendingNonvacuity(theorem_id, ob, v.status == PROVED, len(hyps))
        else:
            res.hypotheses_sat, res.dropped = nonvacuity_local(hyps, goal, v.status == PROVED, ob.timeout_ms)
    res.pending = pending
    res.total_seconds = time.perf_counter() - t0
    _ = z3
    return res
