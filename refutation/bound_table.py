"""check-bound's table of theorems, checked at start against the theorems' own conclusions.

A "holds" from check-bound rests on the formulas it gives z3 for the catalogue's bounds
(:data:`refutation.bound_proof._BOUND_IDS`: fact -> the bound id of ``proofs.catalogue.bounds`` and a
fallback formula), read off each theorem's conclusion through ``proofs.catalogue.bounds``' term table
(``dot(u, u)`` is ``W**2``, the hinge sum is ``L``, ...) and its variable map.  One wrong entry
anywhere on that path (a scaled term, a swapped variable, a bound id pointing at another theorem,
a fallback formula that differs) would make a false claim "hold".  So before answering, every
entry is evaluated on random runs: the formula check-bound uses, at the values the symbols
stand for (their definitions as formulas, evaluated on the run), must equal the theorem's
conclusion's right-hand side on the same run (60-digit arithmetic, ``proofs.printers.approx``); and the
fallback formula must equal it too.  Every entry of ``proofs.catalogue.bounds.BOUNDS`` is checked the same
way (the term table and the variable map serve them all).  A failure names the entry and stops check-bound (exit 1).

Cached like the rules' check (``proofs.kernel.trusted_base.cached``) by a fingerprint of the code and
the tables it reads.
"""
from __future__ import annotations

import random
import sys
from fractions import Fraction

__all__ = ["check", "table_failures", "random_run"]

RUNS = 12


def random_run(rnd: random.Random) -> dict:
    """Values for every variable of the bound theorems' conclusions: the perceptron's run (w* = u,
    the mistakes x(i), y(i), i < M), R, gamma (g), b* (bu), and Winnow's n, r."""
    M = rnd.randint(0, 4)
    n = rnd.randint(1, 64)

    def q(lo, hi):
        return Fraction(rnd.randint(lo * 4, hi * 4), 4)
    return {"M": M, "R": q(0, 3) + Fraction(1, 4), "g": q(0, 2) + Fraction(1, 8), "bu": q(-2, 2),
            "u": (q(-2, 2), q(-2, 2)), "x": {t: (q(-2, 2), q(-2, 2)) for t in range(M)},
            "y": {t: rnd.choice((-1, 1)) for t in range(M)}, "n": n, "r": rnd.randint(0, n)}


def _entries():
    from refutation import bound_proof
    return bound_proof._BOUND_IDS, bound_proof.FACTS


def table_failures(seed: int = 0, runs: int = RUNS) -> list[str]:
    """Why an entry of check-bound's table differs from its theorem ([] when none does)."""
    import sympy as sp

    import proofs.catalogue.bounds as pb
    from proofs.catalogue import registry

    from refutation import bound_proof
    from refutation.bound_quantities import SYMBOLS
    ids, facts = _entries()
    out = []
    rnd = random.Random(seed)
    for fact, (bid, fallback) in ids.items():
        where = f"check-bound entry {fact} ({bid})"
        b = pb.BOUNDS.get(bid)
        if fact not in facts:
            out.append(f"{where}: no such theorem in check-bound's list")
            continue
        if b is None or b.theorem not in facts[fact].catalogue:
            out.append(f"{where}: the bound is not the conclusion of a theorem the entry re-runs "
                       f"({', '.join(facts[fact].catalogue) or 'none'})")
            continue
        try:
            used = bound_proof._fact_formula(fact)
            fb = sp.sympify(fallback, locals=dict(SYMBOLS))
            th = registry.get(b.theorem)
        except Exception as e:  # noqa: BLE001 - any failure to read the entry is a failure of the entry
            out.append(f"{where}: cannot be read ({type(e).__name__}: {e})")
            continue
        for form, what in ((used, "the formula check-bound uses"), (fb, "its fallback formula")):
            why = _disagrees(form, th, rnd, runs)
            if why:
                out.append(f"{where}: {what} {why}")
                break
    # the table of proofs.catalogue.bounds itself (check-bound reads it; so do the adversary and the grader)
    for bid, b in sorted(pb.BOUNDS.items()):
        try:
            form, th = b.expr, registry.get(b.theorem)
        except Exception as e:  # noqa: BLE001 - an entry that cannot be read is a wrong entry
            out.append(f"proofs.catalogue.bounds entry {bid}: cannot be read ({type(e).__name__}: {e})")
            continue
        why = _disagrees(form, th, rnd, runs)
        if why:
            out.append(f"proofs.catalogue.bounds entry {bid} (check-bound entry of the term table): {why}")
    return out


def _disagrees(form, th, rnd, runs) -> str:
    """Why the sympy bound ``form`` differs from theorem ``th``'s bound on M ("" when it agrees on
    ``runs`` random runs): the symbols at the values their definitions take on the run."""
    import mpmath as mp
    import sympy as sp

    import proofs.catalogue.bounds as pb
    from proofs.printers.approx import DIGITS, approx, close
    c = th.conclusion.args[0] if th.conclusion.op == "and" else th.conclusion
    defs = pb.definitions()
    names = sorted(s.name for s in form.free_symbols)
    missing = [s for s in names if s not in defs]
    if missing:
        return f"{form} mentions {', '.join(missing)}, which the theorem does not define"
    f = sp.lambdify([sp.Symbol(s) for s in names], form.xreplace({s: sp.Symbol(s.name) for s in form.free_symbols}),
                    "mpmath")
    for _ in range(runs):
        env = random_run(rnd)
        try:
            want = approx(c.args[1], env)
            with mp.workdps(DIGITS):
                got = f(*[approx(defs[s], env) for s in names])
        except (ValueError, ZeroDivisionError, TypeError):
            continue
        if not close(got, want):
            return (f"{form} is {mp.nstr(got, 12)} on a run where the theorem {th.id} bounds M by "
                    f"{mp.nstr(want, 12)} (R = {env['R']}, u = {env['u']}, M = {env['M']}, n = {env['n']}, "
                    f"r = {env['r']})")
    return ""


def table_fingerprint() -> str:
    import proofs.catalogue.bounds as pb
    from proofs.printers import approx, symbolic
    from proofs.catalogue import registry
    from proofs.printers.render import text
    from proofs.kernel.trusted_base import fingerprint

    from refutation import bound_proof, bound_quantities
    ids, facts = _entries()
    theorems = [registry.get(pb.BOUNDS[bid].theorem) for bid, _ in ids.values() if bid in pb.BOUNDS]
    data = repr((sorted(ids.items()), sorted((k, f.catalogue) for k, f in facts.items()),
                 [(text(k), v) for k, v in pb.perceptron_terms()], sorted(pb.VARIABLES.items()),
                 sorted((k, b.theorem, b.terms is None) for k, b in pb.BOUNDS.items()),
                 [text(t.conclusion) for t in theorems]))
    return fingerprint((pb, approx, symbolic, bound_proof, bound_quantities, sys.modules[__name__]),
                       [getattr(f, "__wrapped__", f) for f in (bound_proof._fact_formula, pb._expr_of, pb.definitions,
                                                               pb.perceptron_terms)], data.encode())


def check() -> None:
    """The start-up check of check-bound's table (cached; ``TrustedBaseError`` names the entry)."""
    from proofs.kernel.trusted_base import cached
    fp = table_fingerprint()
    cached("bound-table", fp, lambda: table_failures(seed=int(fp[:8], 16)))
