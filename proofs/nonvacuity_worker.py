"""Non-vacuity checks in a child process (so they run on the second core while the parent does
the primary z3 and sympy work).  Request: {"theorem", "obligation", "proved", "timeout_ms"}; the
obligation is rebuilt from the registry; reply: the verdicts as JSON."""
from __future__ import annotations

import json
import sys


def main() -> None:
    from proofs import registry
    from proofs.engines import nonvacuity_local
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            ob = registry.get(req["theorem"]).obligation(req["obligation"])
            spec = ob.build()
            sat, dropped = nonvacuity_local(spec["hyps"], spec["goal"], bool(req["proved"]),
                                            int(req.get("timeout_ms", 4000)))
            res = {"hypotheses_sat": sat.to_json(), "dropped": {k: v.to_json() for k, v in dropped.items()}}
        except Exception as e:  # reported as 'unknown' by the parent, never as proved
            res = {"error": (str(e).splitlines() or [type(e).__name__])[0][:200]}
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
