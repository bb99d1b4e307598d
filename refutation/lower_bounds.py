"""Lower bounds that hold for every learner, for ``check-bound``: when a claimed perceptron bound
in the separable setting is below floor(1/gamma^2) at some margin, no algorithm can meet it --
every deterministic learner is forced to floor(1/gamma^2) mistakes on unit examples of margin
gamma (catalogue ``margin_lower_bound``; certified sequences from
``adversary.unit_worst.orthonormal_forcing``); for Winnow's claims in n and r, every deterministic
learner on r-of-n disjunctions is forced to r floor(lg(n/r)) mistakes
(catalogue ``disjunction_lower_bound``, one block of 2^l variables;
``adversary.unit_worst.disjunction_forcing``; for every algorithm and every n = r 2^l the Coq
theorem ``DisjunctionLowerBound.disjunction_lower_bound``, kernel-checked by ``verify --coq`` as
``learner_disjunction_lower_bound``)."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

__all__ = ["lower_bound_note"]


def lower_bound_note(algorithm: str, setting: str, E, strict: bool, ks=range(1, 21)) -> str | None:
    """A one-line remark when the claim fails for every algorithm at some gamma = 1/k, else None.
    Only claims in gamma alone (R = 1, W = 1/gamma: the unit ball) are judged."""
    if algorithm == "winnow":
        return _disjunction_note(E, strict)
    if algorithm != "perceptron" or setting != "separable" or not E.free_symbols or \
            {s.name for s in E.free_symbols} != {"gamma"}:
        return None
    g = next(iter(E.free_symbols))
    for k in ks:
        val = E.subs(g, sp.Rational(1, k))
        if not val.is_real:
            continue
        forced = k * k
        below = bool(val <= forced) if strict else bool(val < forced)     # M = forced breaks the claim
        if below:
            from adversary.unit_worst import orthonormal_forcing
            cert = orthonormal_forcing(k)
            if cert["mistakes"] != forced or cert["figures"]["margin_of_u"] != Fraction(1, k):
                return None
            rel = "<" if strict else "<="
            return (f"no algorithm can do better: at gamma = 1/{k} every deterministic learner is forced to "
                    f"floor(1/gamma^2) = {forced} mistakes (the claim {rel} {sp.sstr(val)}), by orthonormal unit "
                    f"examples labelled against it (catalogue margin_lower_bound; sequence replayed exactly)")
    return None


def _below(val, forced: int, strict: bool):
    """Whether the claim's value lets M = forced break it; None when sympy cannot decide."""
    try:
        return bool(val <= forced) if strict else bool(val < forced)
    except TypeError:
        return None


def _disjunction_note(E, strict: bool, rs=(1, 2, 4, 8), ls=range(1, 7)) -> str | None:
    """Winnow's claims in n and r: every deterministic learner on r-of-n disjunctions can be forced
    to r floor(lg(n/r)) mistakes (blockwise binary search against its predictions,
    ``adversary.unit_worst.disjunction_forcing``, replayed exactly against Winnow); judged at
    n = r 2^l, r a power of 2 (so n is one too)."""
    names = {s.name for s in E.free_symbols}
    if not E.free_symbols or not names <= {"n", "r"}:
        return None
    syms = {s.name: s for s in E.free_symbols}
    for r in rs:
        for l in ls:
            n, forced = r * 2 ** l, r * l
            val = E.subs({syms[k]: v for k, v in (("n", n), ("r", r)) if k in syms})
            if not val.is_real or not _below(val, forced, strict):
                continue
            from adversary.unit_worst import disjunction_forcing
            cert = disjunction_forcing(n, r)
            if not cert["ok"] or cert["mistakes"] != forced:
                return None
            rel = "<" if strict else "<="
            return (f"no algorithm can do better: at n = {n}, r = {r} every deterministic learner on r-of-n "
                    f"disjunctions is forced to r floor(lg(n/r)) = {forced} mistakes (the claim {rel} "
                    f"{sp.sstr(val)}), by a binary search in each of r blocks labelled against it (catalogue "
                    f"disjunction_lower_bound, one block; sequence "
                    f"replayed exactly against Winnow, the surviving disjunction checked on every label; for "
                    f"every algorithm and every n = r 2^l: Coq theorem DisjunctionLowerBound.disjunction_lower_bound, "
                    f"verify --coq learner_disjunction_lower_bound)")
    return None
