"""One engine worker process (started by :mod:`proofs.engines.workers`): one JSON request per line on stdin,
one JSON answer per line on stdout, with the CPU seconds it took.

Requests: ``{"op": "z3", "smt", "timeout_ms"}`` (z3 on one text), ``{"op": "cvc5", ...}`` (cvc5's
portfolio on one text), ``{"op": "sat", "texts", "timeout_ms"}`` (satisfiability of each text) and
``{"op": "guarded", "guarded", "queries", ...}`` (one parse, several assumption sets) and
``{"op": "replay", "ids"}`` (the learners' replays of the registry's errata).  The engines
are imported once, at their first request.
"""
from __future__ import annotations

import time

__all__ = ["handle"]


def handle(req: dict) -> dict:
    """One request."""
    op = req.get("op")
    timeout = int(req.get("timeout_ms", 4000))
    if op == "z3":
        from proofs.engines.engines import z3_run
        a, m, why, dt = z3_run(req["smt"], timeout)
        return {"answer": a, "model": m, "reason": why, "seconds": dt}
    if op == "cvc5":
        from proofs.engines.cvc5_worker import portfolio
        t = time.perf_counter()
        res = portfolio(req["smt"], timeout)
        res["seconds"] = time.perf_counter() - t
        return res
    if op == "sat":
        from proofs.engines.nonvacuity_worker import texts
        return {"answers": texts(req)}
    if op == "guarded":
        from proofs.engines.nonvacuity_worker import guarded
        return {"answers": guarded(req)}
    if op == "replay":
        return {"replays": [replay(i) for i in req["ids"]]}
    return {"answer": "error", "error": f"unknown request {op!r}"}


def replay(tid: str) -> dict:
    """The learner's replay of the registry's erratum ``tid``."""
    from proofs.catalogue.registry import get
    try:
        ok, detail = get(tid).witness_check()
    except Exception as e:     # a replay that fails is a failed check, never a refutation
        return {"error": f"{type(e).__name__}: {e}"}
    return {"ok": ok is True, "detail": str(detail)}


def _child_main() -> None:
    import json
    import sys
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        c = time.process_time()
        try:
            res = handle(json.loads(line))
        except Exception as e:   # reported as unknown by the parent, never as an answer
            res = {"answer": "error", "error": (str(e).splitlines() or [type(e).__name__])[0][:200]}
        res["cpu"] = time.process_time() - c
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    _child_main()
