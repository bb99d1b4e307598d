"""``mistakebound check``: decide proof certificates in a fresh process, with the independent checker.

Each CERT is a certificate file (``verify --certificates DIR`` writes them; docs/certificates.md)
or a directory of them.  The checker (``checker/``) reads each one alone -- nothing of the program
that produced it is trusted -- and asks z3, cvc5 and sympy only about the texts it prints itself;
lemmas are resolved among the certificates given together.
"""
from __future__ import annotations

import sys

import click

from mistakebound.common import emit_json, fail


def _load(paths) -> list:
    import json
    import os
    files = []
    for p in paths:
        if os.path.isdir(p):
            found = sorted(os.path.join(p, n) for n in os.listdir(p) if n.endswith(".json"))
            if not found:
                fail(f"{p}: a directory without certificates (*.json)")
            files.extend(found)
        else:
            files.append(p)
    certs = []
    for f in files:
        try:
            with open(f, encoding="utf-8") as fh:
                data = json.load(fh)
        except OSError as e:
            fail(f"{f}: cannot read: {e.strerror or e}")
        except (ValueError, RecursionError) as e:
            fail(f"{f}: not JSON ({str(e).splitlines()[0][:80]})")
        from checker import FORMAT
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            fail(f"{f}: not a proof certificate (no \"format\": \"{FORMAT}\")")
        certs.append((f, data))
    return certs


SATISFIABLE = {"sat": "yes (z3's model, evaluated exactly)", "unsat": "no",
               "sat-smt": "in the SMT-LIB reading (z3's model; its functions and vectors not evaluated exactly)",
               "unknown": "unknown (z3 gave no model in time)"}


@click.command("check", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("certs", nargs=-1, required=True, metavar="CERT...")
@click.option("--json", "json_path", metavar="FILE", default=None, help="Write the verdicts as JSON to FILE ('-': stdout).")
@click.option("--allow-assumptions", is_flag=True,
              help="Exit 0 also when a theorem is proved assuming a rule outside the checker's fixed table.")
@click.option("--no-cache", "no_cache", is_flag=True, help="Neither read nor write the proof cache.")
def check(certs, json_path, allow_assumptions, no_cache):
    """Check proof certificates with the independent checker.

    \b
    Exit code 0 when every theorem is proved and every erratum refuted (its counterexample
    evaluated exactly), 1 otherwise ("proved assuming" a rule outside the fixed table counts
    as not proved unless --allow-assumptions; a theorem whose hypotheses z3 shows
    contradictory is "vacuous": no assignment satisfies them, so it proves anything), 2 when
    an input is not a certificate.
    """
    import checker
    from proofs.engines import cache
    from proofs.verify.certificate import oracle
    if no_cache:
        cache.set_enabled(False)
    loaded = _load(certs)
    seen = {}
    for f, c in loaded:
        tid = c.get("theorem")
        if tid in seen:
            fail(f"{f}: a second certificate of {tid} (also {seen[tid]})")
        seen[tid] = f
    checked = [checker.read(c) for _, c in loaded]
    verdicts = checker.decide(checked, oracle(), vacuity=True)
    out = sys.stderr if json_path == "-" else sys.stdout
    good = 0
    for (f, c), ch in zip(loaded, checked):
        v = verdicts[ch.theorem]
        want = checker.REFUTED if ch.kind == "erratum" else checker.PROVED
        ok = v.status == want or (allow_assumptions and v.status == checker.ASSUMING and want == checker.PROVED)
        good += ok
        status = v.status + (" " + ", ".join(v.assumptions) if v.status == checker.ASSUMING else "")
        click.echo(f"{status:<16} {ch.theorem}  {v.obligations} obligation(s); rules: {', '.join(sorted({r.split('.')[0] for r in v.rules})) or 'none'}"
                   + (f"; hypotheses satisfiable: {SATISFIABLE[v.satisfiable]}" if v.satisfiable else "")
                   + ("" if ok else f"  (expected {want})"), file=out)
        for why in v.reasons[:20]:
            click.echo(f"    - {why[:400]}", file=out)
    click.echo(f"{good}/{len(loaded)} certificates as expected", file=out)
    if json_path:
        try:
            emit_json({"ok": good == len(loaded), "certificates": [
                {"file": f, **verdicts[ch.theorem].to_json()} for (f, _), ch in zip(loaded, checked)]}, json_path)
        except OSError as e:
            fail(f"cannot write the output: {e.strerror or e}")
    return 0 if good == len(loaded) else 1
