"""A rule instance the printer normalises, derived in Coq from its schema lemma.

The printer writes every integer term in a canonical linear form (``k - 1 + 1`` is ``k``), so an
instance of a schema often is not, syntactically, the schema's Coq lemma at any arguments, and
unification does not see through it.  The kernel keeps, on every rule fact, the arguments the
schema was built on; the schema at those arguments, printed with its integer terms *as built*
(``raw``), is what Coq's own instance of the lemma reads, and unification finds it.  The bridge to
the printed instance rewrites each integer term the two forms print differently,
``replace <as built> with <canonical> by lia``, and ends with ``exact``: Coq decides whether the
two statements are the same; Python only proposes the rewrites.  An argument list that does not
give the printed instance (a wrong argument, an instance edited after the fact) leaves a
difference no rewrite removes, and the instance is not derived.
"""
from __future__ import annotations

from proofs.formula import Expr

from .export import CoqPrinter, ExportError, _z_indexed

__all__ = ["raw_parts", "raw_formula", "bridge_tactic"]


def raw_formula(f) -> Expr | None:
    """The formula to print as built for a step's hypothesis ``f``: a rule fact's schema rebuilt at
    the arguments the kernel kept; a rule fact at other values of its variables: itself."""
    from proofs import rules
    if f.how == "rule" and f.rule_args and "." in (f.rule or ""):
        rid, schema = f.rule.split(".", 1)
        try:
            return rules.schema_formula(rid, schema, f.rule_args)
        except (KeyError, TypeError, ValueError):
            return None
    if f.how == "specialize" and f.premises and f.premises[0].how == "rule":
        return f.formula
    return None


def bridge_tactic(name: str, raw: str, pairs, rule_tac: str) -> str:
    """Prove the goal (a printed instance) from ``raw`` (the schema at its arguments, proved by
    ``rule_tac``), rewriting each (as built, canonical) pair by lia, then ``exact``."""
    steps = "".join(f"try (replace {a} with {b} in {name} by lia); " for a, b in pairs)
    return f"assert ({name} : {raw}) by ({rule_tac}); {steps}exact {name}"


def raw_parts(hyps, goal: Expr, raws) -> list[tuple[str, list[tuple[str, str]]] | None]:
    """For each formula of ``raws`` (None: skipped), printed by the printer of :func:`step_parts`
    (same binders) with its integer terms as built: (text, [(raw, canonical) integer terms])."""
    pr = CoqPrinter(_z_indexed(list(hyps) + [goal]), list(hyps) + [goal])
    for h in list(hyps) + [goal]:
        pr.P(h)
    pr.binders(list(hyps) + [goal])
    out = []
    for r in raws:
        if r is None:
            out.append(None)
            continue
        pr.raw, pr.bridge = True, []
        try:
            text = pr.P(r)
        except ExportError:
            text = None
        finally:
            pr.raw = False
        out.append((text, list(reversed(pr.bridge))) if text is not None else None)
    return out
