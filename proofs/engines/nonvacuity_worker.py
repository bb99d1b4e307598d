"""z3 on the satisfiability questions, in a child process (``proofs.engines.workers``).  Request:
{"texts": [SMT-LIB, ...], "timeout_ms"} or {"guarded": SMT-LIB, "queries": [[guard, ...], ...]}; reply:
{"answers": [{"answer": "sat" | "unsat" | "unknown" | "error", "model", "reason", "seconds"}, ...]}.
"""
from __future__ import annotations

import json
import sys


def guarded(req) -> list[dict]:
    """One parse, many questions: each query is the list of guard names to assume (assumption
    literals of one incremental solver; a question it cannot decide is asked again of a fresh
    solver before it is reported unknown)."""
    import time

    import z3
    from proofs.engines.engines import model_dict
    timeout = int(req.get("timeout_ms", 2000))
    # the first query decides non-vacuity (full time, and a second try); the others only say
    # whether a hypothesis is needed, where "unknown" is an answer: a short limit, no second try
    short = int(req.get("necessity_timeout_ms", timeout))
    try:
        ctx = None
        s = z3.Solver()
        s.set("timeout", timeout)
        s.add(z3.parse_smt2_string(req["guarded"], ctx=ctx))
    except Exception as e:
        return [{"answer": "error", "reason": str(e)[:200]} for _ in req["queries"]]
    out = []
    for k, q in enumerate(req["queries"]):
        t = time.perf_counter()
        lits = [z3.Bool(n) for n in q]
        s.set("timeout", timeout if k == 0 else short)
        r = s.check(*lits)
        if r == z3.unknown and k == 0 and req.get("retry", True):       # ask a fresh solver once more
            ctx = z3.Context()
            s2 = z3.Solver(ctx=ctx)
            s2.set("timeout", timeout)
            s2.add(z3.parse_smt2_string(req["guarded"], ctx=ctx))
            r = s2.check(*[z3.Bool(n, ctx) for n in q])
            m = s2.model() if r == z3.sat else None
        else:
            m = s.model() if r == z3.sat else None
        ans = "sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"
        out.append({"answer": ans, "model": model_dict(m, 16) if m is not None else None,
                    "seconds": time.perf_counter() - t})
    return out


def texts(req) -> list[dict]:
    """Satisfiability of each text of ``req["texts"]`` (a fresh solver each)."""
    from proofs.engines.engines import z3_run
    answers = []
    for text in req["texts"]:
        try:
            a, m, why, dt = z3_run(text, int(req.get("timeout_ms", 2000)))
        except Exception as e:  # reported as unknown by the parent, never as an answer
            a, m, why, dt = "error", None, (str(e).splitlines() or [type(e).__name__])[0][:200], 0.0
        answers.append({"answer": a, "model": m, "reason": why, "seconds": dt})
    return answers


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        out = guarded(req) if "guarded" in req else texts(req)
        sys.stdout.write(json.dumps({"answers": out}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
