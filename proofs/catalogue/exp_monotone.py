"""exp is strictly increasing: exp(a) <= exp(b) exactly when a <= b -- how the Weighted Majority
bounds pass from their weights (products of penalties, written as exponentials) to logarithms.

It rests on one trusted rule beyond ``exp_laws``: the tangent line 1 + a <= exp(a) (convexity of
exp; Cesa-Bianchi & Lugosi 2006, ch. 2, use it as ln(1 - x) <= -x).  From
exp(b) = exp(a) exp(b - a) >= exp(a) (1 + b - a) either direction follows.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Iff, Real
from proofs.language.functions import exp
from proofs.kernel.rules import REAL, TrustedRule, register
from proofs.catalogue.sources import CESA_BIANCHI_LUGOSI

TANGENT = register(TrustedRule(
    "exp_tangent",
    "The exponential lies above its tangent at 0: 1 + a <= exp(a) for every real a.",
    "exp is transcendental; its convexity enters as instances of this schema (Coq: Rexp's exp_ineq1)",
    {"exp_ge_tangent": ((REAL,), lambda a: 1 + a <= exp(a))}))

a, b = Real("a"), Real("b")


def _proof(p):
    facts = [p.rule("exp_laws", "exp_add", a, b - a), p.rule("exp_laws", "exp_add", b, a - b),
             p.rule("exp_laws", "exp_pos", a), p.rule("exp_laws", "exp_pos", b),
             p.rule("exp_tangent", "exp_ge_tangent", b - a), p.rule("exp_tangent", "exp_ge_tangent", a - b)]
    return p.solve("exp_monotone", facts, p.theorem.conclusion,
                   title="exp(b) = exp(a) exp(b - a) >= exp(a) (1 + b - a), and symmetrically")


THEOREMS = [
    Theorem(
        id="exp_monotone",
        name="exp is strictly increasing",
        source=Source(CESA_BIANCHI_LUGOSI, "Cesa-Bianchi & Lugosi 2006, ch. 2 (logarithms of the weights)",
                      "Taking logarithms of an inequality between weights: exp(a) <= exp(b) iff a <= b."),
        hypotheses=[],
        conclusion=Iff(exp(a) <= exp(b), a <= b),
        proof=_proof, encoding="a, b real",
    ),
]
