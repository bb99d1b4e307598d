"""Coq's substitution into a printed formula, and the integer terms it writes otherwise than the
printer: the texts :mod:`coq.rules_induction` proposes to Coq (``replace ... by lia``), Coq deciding."""
from __future__ import annotations

import re

__all__ = ["int_bridge", "subst_many", "subst_text"]


def _groups(s: str):
    """The text as nested lists at its parentheses (tokens: words, a scope ``%Z`` its own token)."""
    toks = re.findall(r"\(|\)|%\w+|[^\s()%]+", s)
    stack = [[]]
    for t in toks:
        if t == "(":
            stack.append([])
        elif t == ")":
            if len(stack) == 1:
                raise ValueError("unbalanced")
            g = stack.pop()
            stack[-1].append(g)
        else:
            stack[-1].append(t)
    if len(stack) != 1:
        raise ValueError("unbalanced")
    return stack[0]


def _render(g) -> str:
    out = ""
    for x in g:
        t = "(" + _render(x) + ")" if isinstance(x, list) else x
        out += t if (t.startswith("%") or not out) else " " + t
    return out


def _diff(a: list, b: list, pairs: list) -> bool:
    """Record (a's, b's) scoped subterms that differ; False when a difference is not inside a
    scoped term (then no rewrite of integer terms can bridge it)."""
    if a == b:
        return True
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, list) != isinstance(y, list) or (not isinstance(x, list) and x != y):
            return False
    for idx, (x, y) in enumerate(zip(a, b)):
        if not isinstance(x, list) or x == y:
            continue
        sub: list = []
        if _diff(x, y, sub):
            pairs.extend(sub)
            continue
        scope = a[idx + 1] if idx + 1 < len(a) and isinstance(a[idx + 1], str) and a[idx + 1] in ("%Z", "%nat") else None
        if scope is None:
            return False
        pairs.append(("(" + _render(x) + ")" + scope, "(" + _render(y) + ")" + scope))
    return True


def subst_text(text: str, name: str, by: str) -> str:
    return subst_many(text, {name: by})


def subst_many(text: str, by: dict) -> str:
    """Every variable named in ``by`` replaced at once by its text (Coq's substitution, written
    as the printer writes a term: redundant parentheses and scopes aside, the same term)."""
    if not by:
        return text
    alt = "|".join(re.escape(n) for n in sorted(by, key=len, reverse=True))
    return re.sub(rf"(?<![\w.'])({alt})(?![\w'])", lambda m: by[m.group(1)], text)


def int_bridge(beta: str, canon: str, where: str = "") -> str | None:
    """``replace`` steps turning the integer subterms of ``beta`` (Coq's substitution) into those of
    ``canon`` (the printer's), in the goal or ``in <where>``; None when they differ elsewhere."""
    pairs: list = []
    try:
        if not _diff(_groups(beta), _groups(canon), pairs):
            return None
    except ValueError:
        return None
    loc = f" in {where}" if where else ""
    return "".join(f"try (replace {a} with {b}{loc} by lia); " for a, b in pairs)


