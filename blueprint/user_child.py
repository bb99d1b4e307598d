"""The process a user's theorem file runs in: it builds the proofs and hands back certificates only.

``mistakebound verify --file`` starts this module in a separate ``python -I`` process
(``blueprint.user_theorems._run_child``), confined first (``sandbox.confine``: it may write only
in its own temporary directory), with the proof cache switched off and pointed at that directory.  Here the user's file is imported and each theorem's proof is built on the kernel (no
engine runs); what goes back is data: each theorem's certificate (``proofs.verify.certificate``), or the
kernel's build error, and the few statement details the report shows (name, expected kind, the
sizes a non-vacuity instance uses).  Whatever this process does -- register rules, replace
functions, print a certificate of its own -- the parent's checker decides from the data alone.
"""
from __future__ import annotations

import json
import sys


def _meta(th) -> dict:
    sizes = {}
    for v, n in (th.witness_sizes or {}).items():
        name = getattr(v, "name", v)
        if isinstance(name, str) and isinstance(n, int):
            sizes[name] = n
    dim = th.witness_dim if isinstance(th.witness_dim, int) else 2
    return {"id": th.id, "kind": th.kind, "name": str(th.name), "witness_sizes": sizes, "witness_dim": dim}


def collect(path: str) -> dict:
    from learners.errors import InputError
    from proofs.engines import cache
    cache.set_enabled(False)
    from proofs.verify.certificate import make
    from proofs.verify.runner import build
    from blueprint.user_theorems import load_theorems
    try:
        ths = load_theorems(path)
    except InputError as e:
        return {"error": str(e).splitlines()[0]}
    out = []
    for th in ths:
        entry = {"meta": _meta(th)}
        b = build(th)
        if th.kind == "theorem" and b.error:
            entry["error"] = b.error
        try:
            entry["certificate"] = make(th, b.fact if not b.error else None) if not b.error else _statement_only(th)
        except Exception as e:  # noqa: BLE001 - a theorem without a certificate is reported, never proved
            entry["error"] = entry.get("error") or f"{th.id}: no certificate: {type(e).__name__}: {e}"
        out.append(entry)
    return {"theorems": out}


def _statement_only(th) -> dict:
    """The statement alone (for the report and the Coq file of a proof that did not build)."""
    from checker import FORMAT, VERSION
    from proofs.verify.certificate import symbols, term
    fs = [f for _, f in th.hypotheses] + [th.conclusion]
    return {"format": FORMAT, "version": VERSION, "theorem": th.id, "kind": th.kind, "name": th.name,
            "symbols": symbols(fs), "hypotheses": [[n, term(f)] for n, f in th.hypotheses],
            "conclusion": term(th.conclusion), "lemmas": {}, "steps": []}


def main(path: str, out: str) -> int:
    res = collect(path)
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(res, fh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
