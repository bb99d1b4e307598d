"""Open: the perceptron in two dimensions, M <= floor((1 - gamma^2)/(2 gamma^2)) + 2 ?

A prototype derivation claims about half of 1/gamma^2 when d = 2.  What the suite can say:

* the generic lemmas (Claims 1 and 2, Cauchy-Schwarz) do NOT imply it: z3 finds values of the
  quantities they bound (w.w* >= gamma M, |w|^2 <= M, (w.w*)^2 <= |w|^2) with M above the claimed
  bound -- so a proof needs a genuinely two-dimensional step (an angle argument) that has no
  machine-checked obligation yet.  This is the failing step, reported as such;
* exact instance checks in coordinates of dimension 2 (``_instance_obligation``: no sequence of
  unit examples with margin gamma forces bound + 1 mistakes; w* = (1, 0), z = y x, mistakes
  w_k.z_k <= 0) are encoded but NOT in the catalogue: z3 and cvc5 time out on them (nonlinear,
  6-10 variables), and an 'unknown' is not evidence.

The entry's status is 'open': it never counts as proved, and it does not make verify fail.
"""
from __future__ import annotations

from fractions import Fraction
from math import floor

from ._common import reals
from .core import Obligation, Source, Theorem

PROTO = Source("", "prototype derivation quoted in issue 3 (not in the notes)",
               "For d = 2 the perceptron makes at most floor((1 - gamma^2)/(2 gamma^2)) + 2 mistakes, about half of 1/gamma^2.")


def claimed_bound(gamma: Fraction) -> int:
    return floor((1 - gamma * gamma) / (2 * gamma * gamma)) + 2


def _generic():
    # at gamma = 1/2 the claimed bound is floor((3/4)/(1/2)) + 2 = 3
    M, wu, ww = reals("M wu ww")
    g = Fraction(1, 2)
    return {"hyps": [
        ("M_nonneg", M >= 0),
        ("claim1_after_M", wu >= M * float(g)), ("claim2_after_M", ww <= M), ("cauchy_schwarz", wu * wu <= ww),
    ], "goal": M <= claimed_bound(g)}


def _instance(gamma: Fraction):
    def build():
        import z3
        m = claimed_bound(gamma) + 1                  # ask for bound + 1 mistakes
        g = z3.RealVal(gamma.numerator) / gamma.denominator
        Z = [(z3.Real(f"z{k}_1"), z3.Real(f"z{k}_2")) for k in range(m)]
        hyps = []
        w = (z3.RealVal(0), z3.RealVal(0))
        for k, (a, b) in enumerate(Z):
            hyps.append((f"unit_{k}", a * a + b * b == 1))
            hyps.append((f"margin_{k}", a >= g))
            if k > 0:
                hyps.append((f"mistake_{k}", w[0] * a + w[1] * b <= 0))
            w = (w[0] + a, w[1] + b)
        # the first step (w = 0) is always a mistake; the goal: these cannot all hold
        return {"hyps": hyps, "goal": z3.BoolVal(False)}
    return build


def _instance_obligation(gamma: Fraction):
    b = claimed_bound(gamma)
    return Obligation(f"no_{b + 1}_mistakes_at_gamma_{gamma.numerator}_{gamma.denominator}", "z3",
                      f"gamma = {gamma}: no {b + 1} mistakes (claimed bound {b})",
                      "coordinates in dimension 2 (w* = (1, 0))", _instance(gamma), role="instance", timeout_ms=3000)


THEOREMS = [
    Theorem(
        id="perceptron_2d_half_bound",
        kind="open",
        title="Open: in d = 2, M <= floor((1 - gamma^2)/(2 gamma^2)) + 2",
        statement="d = 2, |x| = 1, |w*| = 1, y(w*.x) >= gamma  ==>  M <= floor((1 - gamma^2)/(2 gamma^2)) + 2   [OPEN]",
        latex=r"d = 2 \;\Longrightarrow\; M \le \Big\lfloor \frac{1-\gamma^2}{2\gamma^2} \Big\rfloor + 2 \quad\text{(open)}",
        hypotheses=[r"d = 2", r"\|x_t\| = 1,\ \|w^*\| = 1", r"y_t\,(w^*\cdot x_t) \ge \gamma > 0"],
        source=PROTO,
        obligations=[
            Obligation("generic_lemmas_insufficient", "z3",
                       "gamma = 1/2: Claims 1, 2 and Cauchy-Schwarz alone allow M = 4 > 3 (the failing step)",
                       "inner products (dimension-free)", _generic, expect="refuted", role="failing_step"),
        ],
        notes="Honest status: open.  The failing step is the composition from the generic lemmas (Claims 1, 2 and "
              "Cauchy-Schwarz allow M = 1/gamma^2); a genuinely two-dimensional (angle) step is missing.  Exact "
              "instance checks in coordinates (gamma = 1/2, 3/5, 2/5: no bound + 1 mistakes) time out in z3 and "
              "cvc5 (nonlinear, 6-10 variables), so none is claimed.  A float beam search over 64 directions "
              "(not part of the catalogue) found at most 2, 2, 4, 6, 10, 14, 28 mistakes for gamma = 0.5, 0.4, "
              "0.3, 0.25, 0.2, 0.15, 0.1 -- below the conjectured 3, 4, 7, 9, 13, 23, 51: no counterexample known.",
    ),
]
