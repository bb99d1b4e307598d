"""The engines: z3 and cvc5 on one SMT-LIB 2 text, sympy for identities in coordinates.

* z3 and cvc5 read the same text in worker processes (:mod:`proofs.engines.workers`; ``z3_run`` is what a
  worker calls).  unsat -> proved, sat -> refuted (with the model), anything
  else (timeout, gave up, error, a killed child) -> unknown.
* Satisfiability questions (are a step's hypotheses consistent, is each one needed, is the
  theorem's statement non-vacuous) are answered by z3 in the workers too.
* A definite answer is kept for the rest of the process and in the proof cache (``proofs.engines.cache``).
* sympy decides an identity over vectors in a symbolic dimension (``proofs.printers.symbolic``).
"""
from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass
from typing import Any

from proofs.engines import workers

__all__ = ["Verdict", "z3_check", "PendingZ3", "PendingCvc5", "PendingSat", "recall", "remember", "CALLS",
           "sympy_identity", "PROVED", "REFUTED", "UNKNOWN",
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
    cached: bool = False            # read from the proof cache (``proofs.engines.cache``), not computed in this run

    def to_json(self) -> dict:
        d: dict[str, Any] = {"status": self.status, "engine": self.engine, "seconds": round(self.seconds, 4)}
        if self.cached:
            d["cached"] = True
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


_SHARED = None      # this process's incremental z3 solver (z3's main context), one text at a time
SHARED_MS = 400     # at most this long on the shared solver (a text it cannot do fast goes to a fresh one)


def z3_run(smt: str, timeout_ms: int, fresh: bool = False):
    """(answer, model dict or None, reason, seconds) for the SMT-LIB text.

    A worker asks each text first of one incremental solver it keeps (the text's declarations and
    assertions in a push/pop scope, so nothing of one text is asserted in the next; about half
    the CPU of a new solver per text, which pays z3's preprocessing and set-up again for every
    small problem).  z3 gives up on some quantified problems ("incomplete"), or searches far
    longer, depending on what the process parsed before (its search follows the numbering of
    terms in a context, and an incremental solver skips some preprocessing): the shared solver
    gets a quarter of the time (at most :data:`SHARED_MS`), and any "unknown" it gives (a
    timeout, reported as "canceled", included) is asked once more of a fresh context with the rest, so whether a step is decided depends on the text
    alone, not on which questions a worker happened to be sent before it.  sat and unsat are
    z3's answers on the text's own assertions either way."""
    global _SHARED
    z3 = z3mod()
    t = time.perf_counter()
    model = None
    try:
        if fresh:
            ctx = z3.Context()
            s = z3.Solver(ctx=ctx)
            s.set("timeout", int(timeout_ms))
            s.add(z3.parse_smt2_string(smt, ctx=ctx))
            r = s.check()
            if r == z3.sat:
                model = model_dict(s.model())
            why = s.reason_unknown() if r == z3.unknown else ""
        else:
            if _SHARED is None:
                _SHARED = z3.Solver()
            s = _SHARED
            s.set("timeout", int(max(1, min(timeout_ms // 4, SHARED_MS))))
            s.push()
            try:
                s.add(z3.parse_smt2_string(smt))
                r = s.check()
                if r == z3.sat:
                    model = model_dict(s.model())
                why = s.reason_unknown() if r == z3.unknown else ""
            finally:
                s.pop()
            if r == z3.unknown:
                _SHARED = None         # a solver that gave up (or was cancelled) is not asked again
    except z3.Z3Exception as e:
        if not fresh:
            _SHARED = None
        return "error", None, f"z3 error: {e}", time.perf_counter() - t
    dt = time.perf_counter() - t
    if r == z3.sat:
        return SAT, model, "", dt
    if r == z3.unsat:
        return UNSAT, None, "", dt
    why = why or "unknown"
    left = int(timeout_ms - dt * 1000)
    if not fresh and left > 0:
        a, m, why2, dt2 = z3_run(smt, left, fresh=True)
        return a, m, why2, dt + dt2
    return UNKNOWN, None, why, dt


# --------------------------------------------------------------------------- answers: memo, cache, engines
# Definite answers are kept per process (the mutation tests run thousands of variants: a re-run
# re-checks only what changed) and in the proof cache on disk (``proofs.engines.cache``): the same question
# to the same engine versions and code always has the same answer.  "unknown" is never kept: a
# later run with more time may decide it.
_MEMO: dict = {}
CALLS: dict = {}          # questions actually sent to an engine (not from the memo or the cache), by kind

_DEFINITE = {"z3": (PROVED, REFUTED), "cvc5": (PROVED, REFUTED), "z3-sat": (SAT, UNSAT), "cvc5-sat": (SAT, UNSAT),
             "sympy": (PROVED,)}


def _count(kind: str, n: int = 1) -> None:
    CALLS[kind] = CALLS.get(kind, 0) + n


def reset_memo() -> None:
    """Forget this process's answers (as a fresh process would); the disk cache is unaffected."""
    from proofs.engines import cache
    _MEMO.clear()
    _ASKED.clear()
    CALLS.clear()
    cache.forget()


# Questions sent to a worker and not yet answered, by (kind, engine, text): the same text asked
# twice in one run (two theorems with a common step, an identity's instance shared by two steps)
# is solved once; the second asker waits for the first's answer (an identical key, as in the
# cache).  An entry is dropped once answered, so an "unknown" is asked again by a later run.
_ASKED: dict = {}


def _to_json(v: Verdict) -> dict:
    return {"status": v.status, "engine": v.engine, "seconds": v.seconds, "counterexample": v.counterexample,
            "reason": v.reason}


def _from_json(kind: str, engine: str, d) -> Verdict | None:
    """A stored answer, if it is a definite answer of this kind and engine (otherwise: a miss)."""
    if not isinstance(d, dict) or d.get("status") not in _DEFINITE[kind] or d.get("engine") != engine:
        return None
    cex, secs, why = d.get("counterexample"), d.get("seconds"), d.get("reason")
    if cex is not None and not (isinstance(cex, dict) and all(isinstance(k, str) and isinstance(x, (str, list))
                                                              for k, x in cex.items())):
        return None
    if not isinstance(secs, (int, float)) or not isinstance(why, str):
        return None
    return Verdict(d["status"], engine, float(secs), cex, why, cached=True)


def recall(kind: str, engine: str, question: tuple) -> Verdict | None:
    """The answer to ``question`` (strings) from this process or from the proof cache, or None."""
    from proofs.engines import cache
    v = _MEMO.get((kind, engine) + question)
    if v is not None and (cache.enabled() or not v.cached):      # --no-cache: nothing read from disk
        return dataclasses.replace(v, seconds=0.0)
    if not cache.enabled():
        return None
    v = _from_json(kind, engine, cache.load(cache.key(kind, engine, *question)))
    if v is not None:
        _MEMO[(kind, engine) + question] = v
    return v


def remember(kind: str, engine: str, question: tuple, v: Verdict) -> Verdict:
    """Keep a definite answer (in this process and in the proof cache); return it."""
    if v.status in _DEFINITE[kind] and not v.cached:
        from proofs.engines import cache
        _MEMO[(kind, engine) + question] = v
        if cache.enabled():
            cache.store(cache.key(kind, engine, *question), _to_json(v))
    return v


class _Pending:
    """An engine's verdict on one text: from the memo or the cache at once, or computed by a worker
    process (:mod:`proofs.engines.workers`); :meth:`get` waits for it."""
    kind = engine = ""

    def __init__(self, smt: str, timeout_ms: int, expect_sat: bool = False):
        self.expect_sat = expect_sat
        self.kind = self.engine + ("-sat" if expect_sat else "")
        self.question = (smt,)
        self.t0 = time.perf_counter()
        self.first = None                  # the same question asked before in this run, not yet answered
        self._v = recall(self.kind, self.engine, self.question)
        if self._v is None:
            k = (self.kind, self.engine, smt)
            self.first = _ASKED.get(k)
            if self.first is None:
                _ASKED[k] = self
                _count(self.kind)
                self._lock = threading.Lock()
                self.future = workers.submit({"op": self.engine, "smt": smt, "timeout_ms": int(timeout_ms)},
                                             int(timeout_ms))
                # the answer is kept (memo, proof cache) as soon as it arrives, on the thread that
                # received it: the cache is written while the run goes on, not when answers are collected
                self.future.add_done_callback(lambda f: self._settle(f.result()))

    def _settle(self, res) -> Verdict:
        with self._lock:                   # once, whichever of the arrival and get() comes first
            if self._v is None:
                dt = res.get("seconds", 0.0) if res else time.perf_counter() - self.t0
                self._v = remember(self.kind, self.engine, self.question,
                                   _verdict(self.engine, res, dt, self.expect_sat))
            return self._v

    def get(self) -> Verdict:
        if self._v is None:
            if self.first is not None:     # asked once, answered once (seconds counted there)
                self._v = dataclasses.replace(self.first.get(), seconds=0.0)
                return self._v
            self._settle(self.future.result())
        k = (self.kind, self.engine, self.question[0])
        if self.first is None and _ASKED.get(k) is self:
            del _ASKED[k]
        return self._v


class PendingZ3(_Pending):
    """z3's verdict on a text (unsat -> proved; with ``expect_sat``: sat / unsat)."""
    engine = "z3"


class PendingCvc5(_Pending):
    """cvc5's verdict on a text (unsat -> proved; with ``expect_sat``: sat / unsat)."""
    engine = "cvc5"


def z3_check(smt: str, timeout_ms: int = 4000) -> Verdict:
    """Prove: the text asserts hypotheses and the negated goal; unsat -> proved."""
    return PendingZ3(smt, timeout_ms).get()


def _verdict(engine: str, res, dt, expect_sat=False) -> Verdict:
    if res is None:
        return Verdict(UNKNOWN, engine, dt, reason=f"{engine} exceeded its wall-clock limit (process killed)")
    a = res.get("answer", "")
    if a == "unsat":
        return Verdict(UNSAT if expect_sat else PROVED, engine, dt)
    if a == "sat":
        return Verdict(SAT if expect_sat else REFUTED, engine, dt, counterexample=res.get("model") or {})
    if a == "error":
        return Verdict(UNKNOWN, engine, dt, reason=f"{engine} error: {res.get('error') or res.get('reason', '')}")
    return Verdict(UNKNOWN, engine, dt, reason=res.get("reason") or a or "no answer")


# --------------------------------------------------------------------------- satisfiability (z3, a worker)
class PendingSat:
    """Satisfiability of several texts, answered by z3 in a worker process (sat / unsat / unknown)."""

    def __init__(self, texts: list[str], timeout_ms: int = 5000):
        self.texts = list(texts)
        self._r: list = [recall("z3-sat", "z3", (t,)) for t in self.texts]
        self.earlier: dict = {}            # index -> (the PendingSat that asked the same text first, its index)
        for i, v in enumerate(self._r):
            if v is None:
                first = _ASKED.get(("sat-batch", self.texts[i]))
                if first is not None:
                    self.earlier[i] = first
                else:
                    _ASKED[("sat-batch", self.texts[i])] = (self, i)
        self.missing = [i for i, v in enumerate(self._r) if v is None and i not in self.earlier]
        if self.missing:
            _count("z3-sat", len(self.missing))
            budget = 2000 + len(self.missing) * timeout_ms
            self._lock = threading.Lock()
            self._settled = False
            self.future = workers.submit({"op": "sat", "texts": [self.texts[i] for i in self.missing],
                                          "timeout_ms": int(timeout_ms)}, budget)
            self.future.add_done_callback(lambda f: self._settle(f.result()))     # kept as soon as it arrives

    def _settle(self, res) -> None:
        with self._lock:
            if self._settled:
                return
            if res is None or "error" in res:
                why = "satisfiability worker failed" + (f": {res['error']}" if res else " (killed)")
                got = [Verdict(UNKNOWN, "z3", 0.0, reason=why) for _ in self.missing]
            else:
                got = [Verdict(r["answer"] if r["answer"] in (SAT, UNSAT) else UNKNOWN, "z3", r.get("seconds", 0.0),
                               counterexample=r.get("model"), reason=r.get("reason", "")) for r in res["answers"]]
            for i, v in zip(self.missing, got):
                self._r[i] = remember("z3-sat", "z3", (self.texts[i],), v)
            self._settled = True

    def get(self) -> list[Verdict]:
        if self.missing:
            self._settle(self.future.result())
            for i in self.missing:
                if _ASKED.get(("sat-batch", self.texts[i])) == (self, i):
                    del _ASKED[("sat-batch", self.texts[i])]
            self.missing = []
        for i, (first, j) in list(self.earlier.items()):
            self._r[i] = dataclasses.replace(first.get()[j], seconds=0.0)
            del self.earlier[i]
        return self._r


# --------------------------------------------------------------------------- sympy
def sympy_identity(lhs, rhs) -> Verdict:
    """sympy on an identity over vectors in a symbolic dimension: proved, or unknown (never
    refuted: a failed normal form is not a counterexample)."""
    from proofs.engines.cache import formula_key
    q = (formula_key(lhs), formula_key(rhs))
    v = recall("sympy", "sympy", q)
    return v if v is not None else _sympy_identity(lhs, rhs, q)


def _sympy_identity(lhs, rhs, q) -> Verdict:
    from proofs.printers.symbolic import identity_holds
    _count("sympy")
    t = time.perf_counter()
    try:
        ok, how = identity_holds(lhs, rhs)
    except Exception as e:  # sympy internals: unknown, never proved
        return Verdict(UNKNOWN, "sympy", time.perf_counter() - t, reason=f"sympy error: {type(e).__name__}: {e}")
    v = Verdict(PROVED if ok else UNKNOWN, "sympy", time.perf_counter() - t, reason=how)
    return remember("sympy", "sympy", q, v)
