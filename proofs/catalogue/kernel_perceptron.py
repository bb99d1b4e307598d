"""The kernel perceptron's run is the perceptron's run on the features phi(x).

Two learners see the same examples (x(t), y(t)), t = 0, 1, ..., T-1.  The perceptron on features
keeps w(t) in the feature space: w(0) = 0 and w(t+1) = w(t) + y(t) phi(x(t)) on a mistake
(y(t) w(t).phi(x(t)) <= 0, a tie included), w(t+1) = w(t) otherwise.  The kernel perceptron keeps
one coefficient per example: alpha(t) = y(t) when its activation sum_{j<t} alpha(j) K(x(j), x(t))
makes a mistake, 0 otherwise (the dual update alpha_s += y).  With K(x, x') = phi(x).phi(x'):
for every t <= T, w(t) = sum_{j<t} alpha(j) phi(x(j)) and the two activations are equal -- so the
two make the same predictions, the same mistakes and the same updates (Blum: "w is just a
weighted sum of examples", phi(w).phi(x) = sum of +-K(x_j, x)).

The proof: sum_{j<m} alpha(j) K(x(j), z) = (sum_{j<m} alpha(j) phi(x(j))).phi(z) for every point z
(induction on m), then induction on t over the two runs.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.feature_maps import feature_map, z
from proofs.language.formula import (REAL, VEC, And, Eq, ForAll, Fun, Iff, Implies, Ite, Nat, Real, Seq, Sum, Vec, dot,
                      forall_below, num, vzero)
from proofs.language.functions import VSum
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import BLUM_859

T = Nat("T")
t, j, m = Nat("t"), Nat("j"), Nat("m")
x = Seq("x", VEC)                      # the examples
y = Seq("y", REAL)                     # their labels
w = Seq("w", VEC)                      # the perceptron on features: its weights before example t
alpha = Seq("alpha", REAL, tex=r"\alpha")
phi = Fun("phi", (VEC,), VEC, tex=r"\phi")
K = Fun("K", (VEC, VEC), REAL)


def represented(s):
    """sum_{j<s} alpha(j) phi(x(j)): the feature vector the dual coefficients stand for."""
    return VSum(j, 0, s - 1, alpha(j) * phi(x(j)))


def dual_activation(s, point):
    """sum_{j<s} alpha(j) K(x(j), point): the kernel perceptron's activation."""
    return Sum(j, 0, s - 1, alpha(j) * K(x(j), point))


def same_run(s):
    return And(Eq(w(s), represented(s)), Eq(dot(w(s), phi(x(s))), dual_activation(s, x(s))))


SAME_MISTAKES = forall_below(t, T, Iff(y(t) * dot(w(t), phi(x(t))) <= 0, y(t) * dual_activation(t, x(t)) <= 0))

HYPOTHESES = [
    feature_map(K, phi, "feature_map", Vec("u"), Vec("up", tex="u'", text="u'")),
    ("starts_at_zero", Eq(w(0), vzero())),
    ("perceptron_on_features", forall_below(t, T, Eq(w(t + 1), Ite(y(t) * dot(w(t), phi(x(t))) <= 0,
                                                                   w(t) + y(t) * phi(x(t)), w(t))))),
    ("kernel_perceptron", forall_below(t, T, Eq(alpha(t), Ite(y(t) * dual_activation(t, x(t)) <= 0, y(t), 0)))),
]


def _activation(p):
    """for all m <= T: sum_{j<m} alpha(j) K(x(j), z) = (sum_{j<m} alpha(j) phi(x(j))).phi(z)."""
    Q = Eq(dot(represented(m), phi(z)), dual_activation(m, z))
    base_goal, step_goal = induction_goals(m, Q, T)
    body = alpha(j) * phi(x(j))
    zero = p.identity("zero_inner_product", dot(vzero(), phi(z)), num(0), title="0.phi(z) = 0")
    base = p.solve("activation_empty", [p.rule("vector_sums", "vsum_empty", j, num(0), body), zero,
                                        p.rule("finite_sum_linearity", "sum_empty", j, num(0), alpha(j) * K(x(j), z))],
                   base_goal, title="no example yet: both sides are 0")
    vv, g, h, s = Vec("v"), Vec("g"), Vec("h"), Real("s")
    lin = p.identity("inner_product_linear", dot(vv + s * g, h), dot(vv, h) + s * dot(g, h),
                     title="(v + s g).h = v.h + s g.h")
    nxt = (m - 1) + 1                    # the new index, as the sum rules write it
    step = p.solve("activation_next", [
        p.rule("vector_sums", "vsum_succ", j, num(0), m - 1, body),
        p.specialize(lin, {vv: represented(m), s: alpha(nxt), g: phi(x(nxt)), h: phi(z)}),
        p.inst(p.hyp("feature_map"), x(nxt), z),
        p.rule("finite_sum_linearity", "sum_succ", j, num(0), m - 1, alpha(j) * K(x(j), z))],
        step_goal, title="one more example: alpha(m) phi(x(m)).phi(z) = alpha(m) K(x(m), z)")
    return p.induction(m, Q, base, step, T)


def _proof(p):
    act = _activation(p)
    base_goal, step_goal = induction_goals(t, same_run(t), T)
    base = p.solve("runs_start_equal", [p.hyp("starts_at_zero"), p.rule("vector_sums", "vsum_empty", j, num(0),
                                                                         alpha(j) * phi(x(j))),
                                        p.inst(p.specialize(act, {z: x(0)}), 0)],
                   base_goal, title="w(0) = 0 = the empty sum, and both activations are 0")
    vv, g = Vec("v"), Vec("g")
    keep = p.identity("add_zero_multiple", vv + 0 * g, vv, title="v + 0 g = v")
    nxt = (t - 1) + 1
    step = p.solve("runs_step_equal", [
        p.inst(p.hyp("perceptron_on_features"), t), p.inst(p.hyp("kernel_perceptron"), t),
        p.rule("vector_sums", "vsum_succ", j, num(0), t - 1, alpha(j) * phi(x(j))),
        p.specialize(keep, {vv: represented(t), g: phi(x(nxt))}),
        p.inst(p.specialize(act, {z: x(t + 1)}), t + 1)],
        step_goal, title="equal activations at t: the same mistake decision, so w(t+1) and alpha(t) agree; "
                         "then the activations at t + 1 agree")
    runs = p.induction(t, same_run(t), base, step, T)
    return p.solve("same_mistakes", [runs], p.theorem.conclusion,
                   title="equal activations: the same mistake decision at every example")


THEOREMS = [
    Theorem(
        id="kernel_perceptron_is_feature_perceptron",
        name="The kernel perceptron's run is the perceptron's run on phi(x)",
        source=Source(BLUM_859, "Blum, 15-859(A) 01/30/06, 'How to kernelize?' (also Lin, slides 'Kernel functions')",
                      "w is a weighted sum of the examples seen so far, e.g. w = x1 - x2 + x3, so phi(w).phi(x) is "
                      "computed as K(x1, x) - K(x2, x) + K(x3, x)."),
        hypotheses=HYPOTHESES,
        conclusion=And(ForAll(t, Implies(And(num(0) <= t, t <= T), same_run(t))), SAME_MISTAKES),
        proof=_proof, encoding="examples x(t) in R^d, labels y(t); w(t) in phi's feature space",
        notes="Both learners start from zero and use the test y a <= 0 (a tie is a mistake).  Blum's variant "
              "(start from the first positive example, strict tests) is another learner, not this one.",
    ),
]
