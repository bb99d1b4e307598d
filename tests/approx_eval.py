"""60-digit values of formula objects for the tests (``proofs.printers.approx``), with the module switch
``STRICT``: False, a strict relation within the tolerance counts as true (a rule is not refuted by
rounding); True, it counts as false (an edit that makes a rule strict is refuted where both sides
are equal)."""
from __future__ import annotations

import mpmath as mp

from proofs.printers.approx import TOL, close, mpf  # noqa: F401 - re-exported for the tests
from proofs.printers.approx import approx as _approx

mp.mp.dps = 60          # the tests compare other mpmath values (lambdified bounds) at this precision

STRICT = False


def approx(e, env):
    return _approx(e, env, STRICT)
