"""Walking and rewriting formula objects: free variables, uninterpreted symbols, substitution
(capture-avoiding by refusal, never by silent renaming) and the guards an integer instance of a
natural-number variable needs."""
from __future__ import annotations

from typing import Iterable

from proofs.language.formula import BOOL, INT, NAT, NUMERIC, REAL, Expr, FormulaError, _is_int, is_nat, num, sort_of, to_real

__all__ = ["walk", "free_vars", "symbols", "nat_guards", "subst"]


def walk(e: Expr) -> Iterable[Expr]:
    """Every node, parents before children."""
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.args))


def var_names(e: Expr) -> frozenset:
    """The names of every ``var`` node in ``e``, free or bound (kept on the node: formulas are
    immutable)."""
    got = e.__dict__.get("_vn")
    if got is None:
        if e.op == "var":
            got = frozenset((e.name,))
        elif not e.args:
            got = frozenset()
        elif len(e.args) == 1:
            got = var_names(e.args[0])
        else:
            got = frozenset().union(*(var_names(a) for a in e.args))
        object.__setattr__(e, "_vn", got)
    return got


def _bound(e: Expr) -> tuple:
    if e.op == "forall":
        return e.args[:-1]
    if e.op in ("sum", "vsum"):
        return (e.args[0],)
    return ()


def free_vars(e: Expr) -> set[Expr]:
    """Free variables (``var`` nodes not bound by a ForAll or a Sum)."""
    out: set[Expr] = set()

    def go(n, bound):
        if n.op == "var":
            if n not in bound:
                out.add(n)
            return
        b = bound | set(_bound(n))
        if n.op in ("sum", "vsum"):
            go(n.args[1], bound)
            go(n.args[2], bound)
            go(n.args[3], b)
            return
        kids = n.args[:-1] if n.op == "forall" else n.args
        if n.op == "forall":
            go(n.args[-1], b)
            return
        for c in kids:
            go(c, bound)
    go(e, frozenset())
    return out


def symbols(e: Expr) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every uninterpreted symbol the formula mentions: name -> (result sort, argument sorts).
    Variables (free or bound) have no argument sorts."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for n in walk(e):
        if n.op in ("var", "call"):
            sig = (n.sort, tuple(INT if _is_int(a.sort) else a.sort for a in n.args))
            if out.setdefault(n.name, sig) != sig:
                raise FormulaError(f"symbol {n.name!r} is used with two sorts: {out[n.name]} and {sig}")
    return out


def nat_guards(mapping: dict) -> list[Expr]:
    """``t >= 0`` for every natural-number variable mapped to a term not known to be natural.
    Natural-ness is computed from the term's structure and its symbols' declared sorts
    (:func:`proofs.language.formula.is_nat`), never read from what a node records."""
    out = []
    for v, t in mapping.items():
        t = num(t) if not isinstance(t, Expr) else t
        if sort_of(v) == NAT and not is_nat(t):
            out.append(t >= 0)
    return out


def subst(e: Expr, mapping: dict) -> Expr:
    """Replace free variables (keys: ``var`` nodes) by terms of the same sort.  A replacement that
    would be captured by a binder is refused (never renamed silently).  An integer term may
    replace a natural-number variable; :func:`nat_guards` lists the conditions ``t >= 0`` that
    make the result mean what the original meant (the kernel adds them).  Every rebuilt node's
    sort is computed again from its new children: ``(k + 1)[k := j - 2]`` is an integer, not a
    natural number."""
    if not mapping:
        return e
    for v, t in mapping.items():
        if v.op != "var":
            raise FormulaError("only variables can be substituted")
        t = num(t) if not isinstance(t, Expr) else t
        sort_of(t)                      # a term whose nodes record sorts their structure does not give is refused
        if not (t.sort == v.sort or (v.sort == REAL and t.sort in NUMERIC) or (v.sort == INT and t.sort == NAT)
                or (v.sort == NAT and t.sort in (INT, NAT))):
            raise FormulaError(f"cannot substitute a {t.sort} for {v.name}: {v.sort}")
    m = {v: (to_real(t) if v.sort == REAL else num(t)) for v, t in mapping.items()}
    # binders and capture compare names: every printer knows a variable by its name alone
    free_in: list = []                  # the names free in the replacements (looked at under a binder only)

    mapped = frozenset(v.name for v in m)

    def go(n):
        if n.op == "var":
            return m.get(n, n)
        if n.op == "num" or not n.args or mapped.isdisjoint(var_names(n)):
            return n                # nothing to replace below: the node itself (not an equal copy)
        bound = {b.name for b in _bound(n)}
        if bound:
            inner = {v: t for v, t in m.items() if v.name not in bound}
            if not free_in:
                free_in.append({v.name for t in m.values() for v in free_vars(t)})
            if bound & free_in[0] and any(v in free_vars(n) for v in inner):
                names = ", ".join(sorted(bound & free_in[0]))
                raise FormulaError(f"substitution would capture {names} under a binder")
            if n.op in ("sum", "vsum"):
                i, lo, hi, body = n.args
                return Expr(n.op, (i, go(lo), go(hi), subst(body, inner)), sort=n.sort)
            return Expr("forall", n.args[:-1] + (subst(n.args[-1], inner),), sort=BOOL)
        return Expr(n.op, tuple(go(c) for c in n.args), n.name, n.sort, n.value, n.tex, n.text)
    return go(e)
