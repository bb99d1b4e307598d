"""The perceptron is stochastic subgradient descent, step size 1, on l(w) = max(0, -y (x.w)).

g = -y x where y (x.w) <= 0 (a mistake, the tie included) and g = 0 elsewhere is a subgradient
of l at w: l(v) >= l(w) + g.(v - w) for every v.  At a tie both 0 and -y x are subgradients;
choosing -y x there is what makes a tie a mistake.  And the step w - g is the perceptron update.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import And, Eq, Ite, Real, Vec, dot, num, vzero
from proofs.language.functions import Max
from proofs.catalogue.sources import BIAS_NOTES

w, x, v = Vec("w"), Vec("x"), Vec("v")
y = Real("y")


def loss(z):
    return Max(num(0), -y * dot(x, z))


MISTAKE = y * dot(x, w) <= 0
G = Ite(MISTAKE, -y * x, vzero())


def _proof(p):
    lin = p.identity("subgradient_linear_term", dot(-y * x, v - w), -y * dot(x, v) + y * dot(x, w),
                     title="(-y x).(v - w) = -y (x.v) + y (x.w)")
    zero = p.identity("zero_linear_term", dot(vzero(), v - w), num(0), title="0.(v - w) = 0")
    step_m = p.identity("step_on_mistake", w - (-y * x), w + y * x, title="w - (-y x) = w + y x")
    step_0 = p.identity("step_when_correct", w - vzero(), w, title="w - 0 = w")
    sub = p.solve("subgradient_inequality", [lin, zero], loss(v) >= loss(w) + dot(G, v - w),
                  title="l(v) >= l(w) + g.(v - w) in both cases (a tie included)")
    upd = p.solve("sgd_step_is_perceptron_update", [step_m, step_0], Eq(w - G, Ite(MISTAKE, w + y * x, w)),
                  title="w - g is the perceptron update")
    return p.solve("subgradient_descent", [sub, upd], p.theorem.conclusion)


THEOREMS = [
    Theorem(
        id="perceptron_is_subgradient_descent",
        name="The perceptron update is a subgradient step (step size 1) on max(0, -y x.w)",
        source=Source(BIAS_NOTES, "notes on the perceptron with bias, closing remark",
                      "The perceptron can be read as stochastic subgradient descent on a modified hinge loss."),
        hypotheses=[],
        conclusion=And(loss(v) >= loss(w) + dot(G, v - w), Eq(w - G, Ite(MISTAKE, w + y * x, w))),
        proof=_proof, encoding="vectors of R^d, any d",
        notes="At a tie both 0 and -y x are subgradients; the perceptron's choice -y x is what makes a tie a mistake.  "
              "The statement holds for every real y, labels +-1 included.",
    ),
]
