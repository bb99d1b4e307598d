"""Sums over the mistakes read as sums over the examples, for the learner theorems whose bound
speaks of the run (Freund & Schapire's D^2 = sum over the mistakes of max(0, gamma - y u.x)^2).

A catalogue theorem about the mistakes of a run can only sum over those mistakes; the learner's
statement cannot name them, so each such sum ``sum_{i=0}^{M-1} body(x(i), y(i))`` in the conclusion
is replaced by a fresh real ``S<j>`` bound to the same body summed over every example of the
sequence (``PerceptronRuns.sum_examples``).  Nothing here makes that replacement true: the Coq proof
of the learner theorem has to show it (for Freund & Schapire: the summand is >= 0, the mistakes are
among the examples, and the bound grows with the sum); a replacement that is not sound is a
statement Coq refuses to prove.
"""
from __future__ import annotations

from proofs.language.formula import REAL, Expr, Real
from proofs.language.substitution import free_vars
from coq.export import ExportError
from coq.names import LOGICAL

__all__ = ["sums_over_examples", "SUM_EXAMPLES", "sum_lets"]

SUM_EXAMPLES = f"{LOGICAL}.PerceptronRuns.sum_examples"


def _over_mistakes(n: Expr) -> bool:
    """``sum_{i=0}^{M-1} ...``: a sum over every mistake."""
    if n.op != "sum":
        return False
    i, lo, hi, _ = n.args
    return (lo.op == "num" and lo.value == 0 and hi.op == "sub" and hi.args[0].op == "var"
            and hi.args[0].name == "M" and hi.args[1].op == "num" and hi.args[1].value == 1)


def sums_over_examples(concl: Expr, on_example, taken) -> tuple[Expr, list]:
    """(the conclusion with every sum over the mistakes replaced by a fresh real, [(name, body on
    one example)]).  ``on_example(body, index)`` reads the run's sequences on one example."""
    found: list = []

    def go(n):
        if _over_mistakes(n):
            i, _, _, body = n.args
            if n.sort != REAL:
                raise ExportError("a sum over the mistakes of integers has no sum over the examples here")
            for name, b in found:
                if b == (i, body):
                    return Real(name)
            name = f"S{len(found)}"
            while name in taken:
                name += "_"
            found.append((name, (i, body)))
            return Real(name)
        if n.op in ("var", "num") or not n.args:
            return n
        return Expr(n.op, tuple(go(c) for c in n.args), n.name, n.sort, n.value, n.tex, n.text)
    out = go(concl)
    sums = [(name, on_example(body, i)) for name, (i, body) in found]
    if any(v.name == "M" for _, b in sums for v in free_vars(b)):
        raise ExportError("a summand over the mistakes speaks of their number M")
    return out, sums


def sum_lets(sums, printer, example_binders: str, members: str) -> str:
    """``let S0 : R := sum_examples (fun x y => body) ex in`` for every replaced sum."""
    return "".join(f"let {name} : R := {SUM_EXAMPLES} (fun {example_binders} => {printer.R(body)}) {members} in\n  "
                   for name, body in sums)


def below_body(f: Expr, steps: str = "M"):
    """(k, body) of ``for all k with 0 <= k < <steps>: body``, else None."""
    if f.op != "forall" or len(f.args) != 2:
        return None
    k, imp = f.args
    if imp.op != "implies" or imp.args[0].op != "and" or len(imp.args[0].args) != 2:
        return None
    lo, hi = imp.args[0].args
    if not (lo.op == "le" and lo.args[0].op == "num" and lo.args[0].value == 0 and lo.args[1] == k
            and hi.op == "lt" and hi.args[0] == k and hi.args[1].op == "var" and hi.args[1].name == steps):
        return None
    return k, imp.args[1]
