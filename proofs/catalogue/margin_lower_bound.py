"""No learner beats 1/gamma^2 (Blum's 15-859 notes; Shalev-Shwartz 2012, section 3.3): against any
deterministic learner, d orthonormal examples (unit length, so in the unit ball) labelled against
its predictions force d mistakes, and u = (1/sqrt(d)) sum_t y_t x_t is a unit vector with margin
1/sqrt(d) >= gamma on every example whenever d gamma^2 <= 1 -- so d = floor(1/gamma^2) mistakes
on sequences of margin gamma, and Block-Novikoff's 1/gamma^2 cannot be improved.

The learner is any: its predictions p(t) are left free, the adversary's label is y(t) = -p(t)
(``adversary.unit_worst.orthonormal_forcing`` runs it).  U(j) = sum_{s<j} y(s) x(s); by
induction U(j).x(t) is y(t) for t < j and 0 otherwise, and |U(j)|^2 = j.  The margin is stated
for a step index t that no hypothesis mentions, so for every t.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import REAL, VEC, And, Eq, ForAll, Implies, Ite, Nat, Real, Seq, Sum, Vec, dot, forall_below, num, vzero
from proofs.language.functions import VSum, sqrt
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import SHALEV_SHWARTZ

d, j, s, t, t2 = Nat("d"), Nat("j"), Nat("s"), Nat("t"), Nat("t2")
g = Real("g", tex=r"\gamma", text="gamma")
x, y, p_ = Seq("x", VEC), Seq("y", REAL), Seq("p", REAL)
a, b, e = Vec("a"), Vec("b"), Vec("e")
c = Real("c")


def U(hi):
    return VSum(s, 0, hi - 1, y(s) * x(s))


u = (1 / sqrt(d)) * U(d)
M = Sum(s, 0, d - 1, (1 - y(s) * p_(s)) / 2)
IN_RANGE = And(num(0) <= t, t < d)


def _proof(pf):
    ortho = pf.hyp("orthonormal")
    lin = pf.identity("dot_linear", dot(a + c * b, e), dot(a, e) + c * dot(b, e), title="(a + c b).e = a.e + c b.e")
    sq = pf.identity("norm_sq_linear", dot(a + c * b, a + c * b), dot(a, a) + 2 * c * dot(a, b) + c * c * dot(b, b),
                     title="|a + c b|^2 = |a|^2 + 2c a.b + c^2 |b|^2")
    sc = pf.identity("dot_scale", dot(c * a, e), c * dot(a, e), title="(c a).e = c a.e")
    sc2 = pf.identity("norm_scale", dot(c * a, c * a), c * c * dot(a, a), title="|c a|^2 = c^2 |a|^2")
    zero = pf.identity("dot_zero", dot(vzero(), e), num(0), title="0.e = 0")
    body = y(s) * x(s)
    succ = pf.rule("vector_sums", "vsum_succ", s, num(0), j - 1, body)
    empty = pf.rule("vector_sums", "vsum_empty", s, num(0), body)
    # U(j).x(t) = y(t) if t < j else 0
    P1 = Implies(IN_RANGE, Eq(dot(U(j), x(t)), Ite(t < j, y(t), 0)))
    b1, s1 = induction_goals(j, P1, d)
    base1 = pf.solve("correlation_start", [empty, pf.specialize(zero, {e: x(t)})], b1, title="U(0) = 0")
    step1 = pf.solve("correlation_step", [succ, pf.specialize(lin, {a: U(j), c: y(j), b: x(j), e: x(t)}),
                                          pf.inst(ortho, j, t)], s1,
                     title="U(j+1).x(t) = U(j).x(t) + y(j) x(j).x(t), and x(j).x(t) = [j = t]")
    corr = pf.induction(j, P1, base1, step1, d)
    # |U(j)|^2 = j
    P2 = Eq(dot(U(j), U(j)), j)
    b2, s2 = induction_goals(j, P2, d)
    base2 = pf.solve("norm_start", [empty, pf.specialize(zero, {e: vzero()})], b2, title="|U(0)|^2 = 0")
    at_j = pf.specialize(pf.inst(corr, j), {t: j})
    step2 = pf.solve("norm_step", [succ, pf.specialize(sq, {a: U(j), c: y(j), b: x(j)}), at_j, pf.inst(ortho, j, j),
                                   pf.inst(pf.hyp("adversary_labels"), j), pf.inst(pf.hyp("predictions_pm1"), j)], s2,
                     title="|U(j+1)|^2 = |U(j)|^2 + 2 y U(j).x(j) + y^2 |x(j)|^2 = j + 0 + 1")
    norm = pf.inst(pf.induction(j, P2, base2, step2, d), d)
    root = pf.rule("sqrt_def", "sqrt_sq", d)
    unit = pf.solve("unit_target", [norm, pf.specialize(sc2, {c: 1 / sqrt(d), a: U(d)}), root, pf.hyp("d_pos")],
                    Eq(dot(u, u), 1), title="|U(d)/sqrt(d)|^2 = d/d = 1")
    at_t = pf.inst(corr, d)
    margin = pf.solve("margin", [at_t, pf.specialize(sc, {c: 1 / sqrt(d), a: U(d), e: x(t)}), root, pf.hyp("d_pos"),
                                 pf.hyp("margin_fits"), pf.hyp("gamma_pos"),
                                 pf.specialize(pf.inst(pf.hyp("adversary_labels"), t), {}),
                                 pf.inst(pf.hyp("predictions_pm1"), t)],
                      Implies(IN_RANGE, y(t) * dot(u, x(t)) >= g),
                      title="y(t) u.x(t) = y(t)^2 / sqrt(d) = 1/sqrt(d) >= gamma as d gamma^2 <= 1")
    each = pf.solve("every_step_a_mistake", [pf.hyp("predictions_pm1"), pf.hyp("adversary_labels")],
                    ForAll(t2, Implies(And(num(0) <= t2, t2 <= d - 1),
                                       And((1 - y(t2) * p_(t2)) / 2 <= 1, 1 <= (1 - y(t2) * p_(t2)) / 2))),
                    title="y = -p: every prediction is wrong")
    body_m = (1 - y(s) * p_(s)) / 2
    count = pf.solve("mistakes_count", [each, pf.rule("finite_sum_linearity", "sum_mono", s, 0, d - 1, body_m, num(1)),
                                        pf.rule("finite_sum_linearity", "sum_mono", s, 0, d - 1, num(1), body_m),
                                        pf.rule("finite_sum_linearity", "sum_const", s, 0, d - 1, num(1)),
                                        pf.hyp("d_pos")], Eq(M, d), title="d steps, d mistakes")
    return pf.solve("forced", [unit, margin, count], pf.theorem.conclusion, title="together")


THEOREMS = [
    Theorem(
        id="margin_lower_bound",
        name="Any deterministic learner can be forced to d mistakes on unit examples of margin gamma, d gamma^2 <= 1",
        source=Source(SHALEV_SHWARTZ, "Shalev-Shwartz 2012, section 3.3 (also Blum, 15-859 notes)",
                      "For every deterministic online algorithm there is a sequence in the unit ball, separable with "
                      "margin gamma by a unit vector, on which it makes floor(1/gamma^2) mistakes."),
        hypotheses=[("d_pos", d >= 1), ("gamma_pos", g > 0), ("margin_fits", d * g ** 2 <= 1),
                    ("orthonormal", ForAll([s, t2], Implies(And(num(0) <= s, s < d, num(0) <= t2, t2 < d),
                                                            Eq(dot(x(s), x(t2)), Ite(Eq(s, t2), 1, 0))))),
                    ("predictions_pm1", forall_below(t2, d, Eq(p_(t2) ** 2, 1))),
                    ("adversary_labels", forall_below(t2, d, Eq(y(t2), -p_(t2))))],
        conclusion=And(Eq(dot(u, u), 1), Implies(IN_RANGE, y(t) * dot(u, x(t)) >= g), Eq(M, d)),
        proof=_proof, witness_sizes={d: 2},
        encoding="d steps; x(t) orthonormal (unit length: in the unit ball); p(t) the learner's prediction (any "
                 "deterministic learner), y(t) = -p(t) the adversary's label; the margin is stated for any step t",
    ),
]
_ = REAL
