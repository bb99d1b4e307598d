"""The Coq counterpart of every catalogue theorem, as the catalogue names it (``Theorem.coq``,
set by ``proofs.catalogue.registry`` from the family's Coq module): theorem id -> ``Module.name``.

The counterpart is declared ``Theorem <name> : <id>_statement.`` (an erratum: ``~ <id>_statement``)
where ``<id>_statement`` is printed from the catalogue's formulas into the generated Statements.v.
"""
from __future__ import annotations

from proofs.catalogue import registry

__all__ = ["coq_name", "module_theorems", "LOGICAL"]

LOGICAL = "Mistakebound"           # the logical path of the development (coqc -R . Mistakebound)


def module_theorems() -> dict[str, list[str]]:
    """Catalogue module -> the theorem ids it declares, in catalogue order."""
    out: dict[str, list[str]] = {}
    for th in registry.all_theorems():
        if th.coq:
            out.setdefault(th.coq.split(".")[0], []).append(th.id)
    return out


def coq_name(theorem_id: str) -> str | None:
    """``Module.name`` of the counterpart (the logical path Mistakebound. is implied), or None."""
    for th in registry.all_theorems():
        if th.id == theorem_id:
            return th.coq or None
    return None
