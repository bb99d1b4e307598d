"""The engines: z3 and cvc5 on one SMT-LIB 2 text, sympy for identities in coordinates.

* z3 reads the text (``parse_smt2_string``) in this process; cvc5 reads the same text in a child
  process (:mod:`proofs.workers`).  unsat -> proved, sat -> refuted (with the model), anything
  else (timeout, gave up, error, a killed child) -> unknown.
* Satisfiability questions (are a step's hypotheses consistent, is each one needed, is the
  theorem's statement non-vacuous) are answered by z3 in a child process, pipelined.
* sympy decides an identity over vectors in a symbolic dimension (``proofs.symbolic``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from . import workers

__all__ = ["Verdict", "z3_check", "PendingCvc5", "PendingSat", "sympy_identity", "PROVED", "REFUTED", "UNKNOWN",
           "SAT", "UNSAT"]

PROVED, REFUTED, UNKNOWN = "proved", "refuted", "unknown"
SAT, UNSAT = "sat", "unsat"


@dataclass
class Verdict:
    """One engine's answer: proved / refuted (with a counterexample) / unknown (with the reason);
    for satisfiability questions: sat (with a model) / unsat / unknown."""
    status: str
    engine: str
    seconds: float = 0.0
    counterexample: dict | None = None
    reason: str = ""

    def to_json(self) -> dict:
        d: dict[str, Any] = {"status": self.status, "engine": self.engine, "seconds": round(self.seconds, 4)}
        if self.counterexample is not None:
            d["model" if self.status == SAT else "counterexample"] = self.counterexample
        if self.reason:
            d["reason"] = self.reason
        return d

    @property
    def proved(self) -> bool:
        return self.status == PROVED

    def __str__(self) -> str:
        s = f"{self.status} ({self.engine}, {self.seconds:.3f}s)"
        if self.reason:
            s += f" [{self.reason}]"
        return s


# --------------------------------------------------------------------------- z3 in this process
_Z3 = None


def z3mod():
    global _Z3
    if _Z3 is None:
        import z3
        _Z3 = z3
    return _Z3


def value_str(v) -> str:
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


def model_dict(m, limit: int = 40) -> dict:
    out = {}
    for d in sorted(m.decls(), key=lambda d: d.name()):
        if d.arity() != 0 or d.name().startswith("mb_"):
            continue
        v = m[d]
        if z3mod().is_expr(v) and not (z3mod().is_arith(v) or z3mod().is_bool(v)):
            continue            # an element of the uninterpreted vector sort: no value to print
        out[d.name()] = value_str(v)
        if len(out) >= limit:
            break
    return out


def z3_run(smt: str, timeout_ms: int):
    """(answer, model dict or None, reason, seconds) for the SMT-LIB text."""
    z3 = z3mod()
    t = time.perf_counter()
    try:
        s = z3.Solver()
        s.set("timeout", int(timeout_ms))
        s.add(z3.parse_smt2_string(smt))
        r = s.check()
    except z3.Z3Exception as e:
        return "error", None, f"z3 error: {e}", time.perf_counter() - t
    dt = time.perf_counter() - t
    if r == z3.sat:
        return SAT, model_dict(s.model()), "", dt
    if r == z3.unsat:
        return UNSAT, None, "", dt
    return UNKNOWN, None, s.reason_unknown() or "unknown", dt


# Definite answers by text, per process: the same text always has the same answer, so re-running a
# theorem (the mutation tests run thousands of variants) re-checks only what changed.  "unknown"
# is never cached: a later run with more time may decide it.
_ANSWERS: dict[tuple, Verdict] = {}


def _cached(key, make):
    v = _ANSWERS.get(key)
    if v is not None:
        return Verdict(v.status, v.engine, 0.0, v.counterexample, (v.reason + "; " if v.reason else "") + "cached")
    v = make()
    if v.status != UNKNOWN:
        _ANSWERS[key] = v
    return v


def z3_check(smt: str, timeout_ms: int = 4000) -> Verdict:
    """Prove: the text asserts hypotheses and the negated goal; unsat -> proved."""
    return _cached(("z3", smt), lambda: _z3_check(smt, timeout_ms))


def _z3_check(smt: str, timeout_ms: int) -> Verdict:
    a, m, why, dt = z3_run(smt, timeout_ms)
    if a == UNSAT:
        return Verdict(PROVED, "z3", dt)
    if a == SAT:
        return Verdict(REFUTED, "z3", dt, counterexample=m)
    return Verdict(UNKNOWN, "z3", dt, reason=why)


# --------------------------------------------------------------------------- cvc5 in a child
class PendingCvc5:
    """cvc5's verdict on a text, being computed in a child process; :meth:`get` waits for it."""
    _round = [0]

    def __init__(self, smt: str, timeout_ms: int, expect_sat: bool = False):
        self.t0 = time.perf_counter()
        self.expect_sat = expect_sat
        self.key = ("cvc5", expect_sat, smt)
        self._v: Verdict | None = None
        if self.key in _ANSWERS:
            self._v = _cached(self.key, lambda: None)
            return
        self.worker = workers.CVC5[self._round[0] % len(workers.CVC5)]
        self._round[0] += 1
        self.ticket = self.worker.submit({"smt": smt, "timeout_ms": int(timeout_ms)}, int(timeout_ms))

    def get(self) -> Verdict:
        if self._v is None:
            res = self.worker.result(self.ticket)
            dt = res.get("seconds", 0.0) if res else time.perf_counter() - self.t0
            self._v = _cached(self.key, lambda: _cvc5_verdict(res, dt, self.expect_sat))
        return self._v


def _cvc5_verdict(res, dt, expect_sat=False) -> Verdict:
    if res is None:
        return Verdict(UNKNOWN, "cvc5", dt, reason="cvc5 exceeded its wall-clock limit (process killed)")
    a = res.get("answer", "")
    if a == "unsat":
        return Verdict(UNSAT if expect_sat else PROVED, "cvc5", dt)
    if a == "sat":
        return Verdict(SAT if expect_sat else REFUTED, "cvc5", dt, counterexample=res.get("model") or {})
    if a == "error":
        return Verdict(UNKNOWN, "cvc5", dt, reason=f"cvc5 error: {res.get('error', '')}")
    return Verdict(UNKNOWN, "cvc5", dt, reason=a or "no answer")


# --------------------------------------------------------------------------- satisfiability (z3 child)
class PendingSat:
    """Satisfiability of several texts, answered by z3 in a child process (sat / unsat / unknown)."""

    def __init__(self, texts: list[str], timeout_ms: int = 5000):
        self.n = len(texts)
        self.key = ("sat", tuple(texts))
        self._r: list[Verdict] | None = _SATS.get(self.key)
        if self._r is None:
            budget = 2000 + self.n * timeout_ms
            self.ticket = workers.NONVACUITY.submit({"texts": texts, "timeout_ms": int(timeout_ms)}, budget)

    def get(self) -> list[Verdict]:
        if self._r is None:
            res = workers.NONVACUITY.result(self.ticket)
            if res is None or "error" in res:
                why = "satisfiability worker failed" + (f": {res['error']}" if res else " (killed)")
                self._r = [Verdict(UNKNOWN, "z3", 0.0, reason=why) for _ in range(self.n)]
            else:
                self._r = [Verdict(r["answer"] if r["answer"] in (SAT, UNSAT) else UNKNOWN, "z3", r.get("seconds", 0.0),
                                   counterexample=r.get("model"), reason=r.get("reason", ""))
                           for r in res["answers"]]
                if all(v.status != UNKNOWN for v in self._r):
                    _SATS[self.key] = self._r
        return self._r


_SATS: dict = {}


# --------------------------------------------------------------------------- sympy
def sympy_identity(lhs, rhs) -> Verdict:
    """sympy on an identity over vectors in a symbolic dimension: proved, or unknown (never
    refuted: a failed normal form is not a counterexample)."""
    from .symbolic import identity_holds
    t = time.perf_counter()
    try:
        ok, how = identity_holds(lhs, rhs)
    except Exception as e:  # sympy internals: unknown, never proved
        return Verdict(UNKNOWN, "sympy", time.perf_counter() - t, reason=f"sympy error: {type(e).__name__}: {e}")
    return Verdict(PROVED if ok else UNKNOWN, "sympy", time.perf_counter() - t, reason=how)
