"""Lower bounds that hold for every learner, for ``check-bound``: when a claimed perceptron bound
in the separable setting is below floor(1/gamma^2) at some margin, no algorithm can meet it --
every deterministic learner is forced to floor(1/gamma^2) mistakes on unit examples of margin
gamma (catalogue ``margin_lower_bound``; certified sequences from
``adversary.unit_worst.orthonormal_forcing``)."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

__all__ = ["lower_bound_note"]


def lower_bound_note(algorithm: str, setting: str, E, strict: bool, ks=range(1, 21)) -> str | None:
    """A one-line remark when the claim fails for every algorithm at some gamma = 1/k, else None.
    Only claims in gamma alone (R = 1, W = 1/gamma: the unit ball) are judged."""
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
