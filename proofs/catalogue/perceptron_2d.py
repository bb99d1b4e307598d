"""The perceptron in the plane: M <= 1 + 1/(2 gamma^2), hence M <= floor((1 - gamma^2)/(2 gamma^2)) + 2
-- about half of Block-Novikoff's 1/gamma^2.  A result of this suite, not in the notes.

The statement is written in the orthonormal basis (w*, e) of R^2: before the k-th mistake
w = (a(k), b(k)); the k-th mistaken example, times its label, is z = y x = (z1(k), z2(k)) with
z1 = y (x.w*) >= gamma and z1^2 + z2^2 = |x|^2 <= 1.  Generic lemmas (Claims 1, 2, Cauchy-Schwarz)
do not give the bound (they allow M = 1/gamma^2); the plane does, with s = sqrt(1 - gamma^2).
The examples have length at most 1 (unit-length examples are a special case, and a run whose
longest example has length R is a run with lengths at most 1 scaled by 1/R):

* a mistake (a z1 + b z2 <= 0 with a >= 0, z1 >= gamma) forces b z2 <= 0, |z2| <= s and
  |b| |z2| >= a gamma; so the lateral coordinate stays small, |b| <= s (opposite signs);
* two consecutive mistakes k, k+1 squeeze it: s^2 >= a(k) gamma + s |b(k+1)| (whether b changes
  sign or not) and s |b(k+1)| >= a(k+1) gamma (the next mistake);
* a(k) >= k gamma (Claim 1 in coordinates), so with k = M - 2: 1 - gamma^2 >= (2M - 3) gamma^2.

The floor form is stated for every integer F with (1 - gamma^2)/(2 gamma^2) < F + 1; the floor is
the smallest such F.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import REAL, And, Eq, ForAll, Implies, Int, Nat, Not, Real, Seq, forall_below, num
from proofs.language.functions import Abs, sqrt
from proofs.kernel.kernel import induction_goals

M, k = Nat("M"), Nat("k")
g = Real("g", tex=r"\gamma", text="gamma")
a, b = Seq("a", REAL), Seq("b", REAL)
z1 = Seq("z1", REAL, tex="z_1", text="z1")
z2 = Seq("z2", REAL, tex="z_2", text="z2")
F = Int("F")
s = sqrt(1 - g**2)
X = (1 - g**2) / (2 * g**2)
ENC = "coordinates in the orthonormal basis (w*, e) of R^2"

HYPS = [
    ("starts_at_zero", And(Eq(a(0), 0), Eq(b(0), 0))),
    ("update_on_mistake", forall_below(k, M, And(Eq(a(k + 1), a(k) + z1(k)), Eq(b(k + 1), b(k) + z2(k))))),
    ("mistake", forall_below(k, M, a(k) * z1(k) + b(k) * z2(k) <= 0)),
    ("examples_in_unit_disc", forall_below(k, M, z1(k)**2 + z2(k)**2 <= 1)),
    ("margin", forall_below(k, M, z1(k) >= g)),
    ("gamma_range", And(g > 0, g <= 1)),
    ("F_above", X < F + 1),
]


def _proof(p):
    at = lambda n, t: p.inst(p.hyp(n), t)  # noqa: E731
    sdef = p.rule("sqrt_def", "sqrt_sq", 1 - g**2)
    rng = lambda t: And(num(0) <= t, t < M)  # noqa: E731

    # a(k) >= k gamma (Claim 1 in coordinates)
    P1 = a(k) >= k * g
    b1, s1 = induction_goals(k, P1, M)
    base1 = p.solve("along_base", [p.hyp("starts_at_zero")], b1)
    step1 = p.solve("along_step", [at("update_on_mistake", k), at("margin", k)], s1, title="a grows by z1 >= gamma")
    inv1 = p.induction(k, P1, base1, step1, M)
    a_k, a_k1 = p.inst(inv1, k), p.inst(inv1, k + 1)

    lat = p.solve("mistake_forces_lateral_weight",
                  [at("mistake", k), at("margin", k), at("examples_in_unit_disc", k), p.hyp("gamma_range"), a_k, sdef],
                  Implies(rng(k), And(b(k) * z2(k) <= 0, Abs(z2(k)) <= s, Abs(b(k)) * Abs(z2(k)) >= a(k) * g)),
                  title="a mistake forces b z2 <= 0, |z2| <= s and |b| |z2| >= a gamma")

    # |b(k)| <= s: opposite signs keep the lateral coordinate small
    P2 = Abs(b(k)) <= s
    b2, s2 = induction_goals(k, P2, M)
    base2 = p.solve("lateral_base", [p.hyp("starts_at_zero"), p.hyp("gamma_range"), sdef], b2)
    step2 = p.solve("lateral_step", [at("update_on_mistake", k), lat], s2, title="|b| <= s is kept by every mistake")
    inv2 = p.induction(k, P2, base2, step2, M)

    pair = And(num(0) <= k, k + 1 < M)
    upd = at("update_on_mistake", k)
    goal = s * s >= a(k) * g + s * Abs(b(k + 1))
    keep = Abs(z2(k)) <= Abs(b(k))
    shrink = p.solve("no_flip_shrinks", [lat, upd], Implies(And(pair, keep), Eq(Abs(b(k + 1)), Abs(b(k)) - Abs(z2(k)))),
                     title="opposite signs, |z2| <= |b|: |b(k+1)| = |b| - |z2|")
    no_flip = p.solve("squeeze_no_flip", [shrink, lat, p.inst(inv2, k), sdef, p.hyp("gamma_range")],
                      Implies(And(pair, keep), goal),
                      title="b keeps its sign: s |b(k+1)| + a gamma <= s(|b| - |z2|) + |b||z2| <= s|b| <= s^2")
    flip = p.solve("squeeze_sign_flips", [lat, upd, sdef, p.hyp("gamma_range")],
                   Implies(And(pair, Not(keep)), goal), title="b changes sign: s^2 >= s|z2| >= s |b(k+1)| + a(k) gamma")
    squeeze = p.solve("squeeze", [no_flip, flip], Implies(pair, goal), title="the two cases cover every mistake")
    lat_next = p.specialize(lat, {k: k + 1})
    nxt = p.solve("next_mistake", [lat_next, p.inst(inv2, k + 1)], Implies(pair, s * Abs(b(k + 1)) >= a(k + 1) * g),
                  title="the mistake k+1: s |b(k+1)| >= |b(k+1)| |z2(k+1)| >= a(k+1) gamma")
    two = p.solve("two_consecutive_mistakes", [squeeze, nxt, a_k, a_k1, sdef, p.hyp("gamma_range")],
                  Implies(pair, 1 - g**2 >= (2 * k + 1) * g**2),
                  title="1 - gamma^2 = s^2 >= (a(k) + a(k+1)) gamma >= (2k + 1) gamma^2")
    last = p.specialize(two, {k: M - 2})
    half = p.solve("two_d_mistake_bound", [last, p.hyp("gamma_range")], 2 * g**2 * (M - 1) <= 1,
                   title="k = M - 2: 2 gamma^2 (M - 1) <= 1 (and M <= 1 is below it)")
    real = p.solve("two_d_real_form", [half, p.hyp("gamma_range")], M - 1 <= X + num(1) / 2,
                   title="M - 1 <= 1/(2 gamma^2) = (1 - gamma^2)/(2 gamma^2) + 1/2")
    floor = p.solve("two_d_floor_form", [real, p.hyp("F_above")], M <= F + 2,
                    title="M < F + 5/2 for integers M, F: M <= F + 2 (with F the floor: floor((1 - gamma^2)/(2 gamma^2)) + 2)")
    bound = p.solve("two_d_bound", [half, p.hyp("gamma_range")], M <= 1 + 1 / (2 * g**2),
                    title="divide by 2 gamma^2 > 0: M <= 1 + 1/(2 gamma^2)")
    return p.solve("two_d_both_forms", [bound, floor], p.theorem.conclusion)


THEOREMS = [
    Theorem(
        id="perceptron_2d_half_bound",
        name="The perceptron in the plane makes about half of Block-Novikoff's mistakes",
        source=Source("", "this suite (not in the notes)",
                      "For d = 2 the perceptron makes at most floor((1 - gamma^2)/(2 gamma^2)) + 2 mistakes, "
                      "about half of 1/gamma^2; proved here in the sharper form M <= 1 + 1/(2 gamma^2)."),
        hypotheses=HYPS,
        conclusion=And(M <= 1 + 1 / (2 * g**2), M <= F + 2),
        proof=_proof, encoding=ENC, witness_sizes={M: 2},
        notes="The generic lemmas alone allow M = 1/gamma^2 (e.g. gamma = 1/2, M = 4, w.w* = 2, |w|^2 = 4), so the "
              "squeeze of the lateral coordinate is the new step.  The 2-D adversary's unit-length search (docs/adversary.md) "
              "finds runs of 2, 4, 10, 43, 184 mistakes at gamma = 1/2, 1/3, 1/5, 1/10, 1/20 (bound 3, 5.5, 13.5, "
              "51, 201).",
    ),
]
_ = (Real,)
