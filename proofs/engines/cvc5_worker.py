"""cvc5 in a child process: one SMT-LIB 2 problem per JSON line on stdin, one verdict per line out.

cvc5's own time limits are not always honoured on nonlinear problems, so the parent
(:func:`proofs.engines.engines.cvc5_check`) waits with a wall-clock deadline and kills this process when
it is exceeded (the verdict is then 'unknown'), restarting it for the next problem.
"""
from __future__ import annotations

import json
import sys
import time


# two configurations, tried in turn (every configuration is sound; they differ in how they search):
# cylindrical algebraic coverings alone (complete for nonlinear real arithmetic, but by default
# cvc5 uses it only under the logic QF_NRA), then cvc5's defaults (incremental linearization)
CONFIGS = ({"nl-cov": "true", "nl-ext": "none"}, {})


def portfolio(smt: str, timeout_ms: int) -> dict:
    """The first definite answer of :data:`CONFIGS`, the time shared between them."""
    left = int(timeout_ms)
    res = {"answer": "unknown", "model": {}}
    for i, opts in enumerate(CONFIGS):
        share = left // 2 if i + 1 < len(CONFIGS) else left
        try:
            res = solve(smt, max(share, 200), opts)
        except Exception as e:
            res = {"answer": "error", "error": (str(e).splitlines() or [type(e).__name__])[0][:200]}
        if res["answer"] in ("sat", "unsat"):
            return res
        left -= share
    return res


def solve(smt: str, timeout_ms: int, opts=None) -> dict:
    """cvc5 on one text with the given options."""
    import cvc5
    tm = cvc5.TermManager()
    slv = cvc5.Solver(tm)
    slv.setOption("tlimit-per", str(int(timeout_ms)))
    slv.setOption("produce-models", "true")
    for k, v in (opts or {}).items():
        slv.setOption(k, v)
    sm = cvc5.SymbolManager(tm)
    p = cvc5.InputParser(slv, sm)
    p.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, smt, "obligation")
    answer = ""
    while True:
        cmd = p.nextCommand()
        if cmd.isNull():
            break
        out = cmd.invoke(slv, sm)
        if out.strip():
            answer = out.strip()
    model = {}
    if answer == "sat":
        try:
            for term in sm.getDeclaredTerms():
                model[str(term)] = str(slv.getValue(term))
                if len(model) >= 24:
                    break
        except Exception:
            pass
    return {"answer": answer, "model": model}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        t = time.perf_counter()
        try:
            res = portfolio(req["smt"], req.get("timeout_ms", 4000))
        except Exception as e:
            res = {"answer": "error", "error": str(e).splitlines()[0][:200] if str(e) else type(e).__name__}
        res["seconds"] = time.perf_counter() - t
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
