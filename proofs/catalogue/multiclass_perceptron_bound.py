"""The multiclass perceptron's mistake bound (Crammer & Singer 2003, the multiclass perceptron
with the "max" update among their ultraconservative algorithms; Collins 2002, Theorem 1, with
R^2 the bound on |phi(x, y) - phi(x, z)|^2 = 2 |x|^2; Kesler's construction, Duda & Hart 1973): with |x| <= R and a separating matrix U, |U|_F <= 1, of margin
u_y.x - u_j.x >= gamma for every class j other than the label y, the multiclass perceptron makes
at most 2 R^2 / gamma^2 mistakes.

Kesler's construction writes the K weight vectors w_1..w_K as one vector W of R^(K d) and puts
the example x into block j: phi(x, j) (x in the j-th block, 0 elsewhere), so that
W.phi(x, j) = w_j.x, phi(x, j).phi(x, j) = |x|^2 and phi(x, i).phi(x, j) = 0 for i != j.  The
run restricted to its mistakes: ``W(k)`` the weights before the k-th mistake, ``x(k)`` its example,
``c(k)`` its label and ``r(k)`` the other class of the largest score (the first on a tie, as
``learners.MulticlassPerceptron`` picks it); the mistake is w_c.x <= w_r.x (a tie counts) and
the update w_c += x, w_r -= x is W(k+1) = W(k) + phi(x, c) - phi(x, r).  Hence, per mistake,
W.U grows by u_c.x - u_r.x >= gamma and |W|^2 by 2 (w_c.x - w_r.x) + 2 |x|^2 <= 2 R^2; after M
mistakes M gamma <= W.U <= |W| |U| <= sqrt(2 M R^2), i.e. M <= 2 R^2 / gamma^2.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import (INT, NAT, VEC, Eq, ForAll, Fun, Implies, Nat, Ne, Real, Seq, Vec, And, dot, forall_below,
                      num, vzero)
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import CRAMMER_SINGER_2003

M, k = Nat("M"), Nat("k")
g = Real("g", tex=r"\gamma", text="gamma")
R = Real("R")
W = Seq("W", VEC)                          # the K weight vectors stacked (Kesler), before the k-th mistake
x = Seq("x", VEC)                          # the example of the k-th mistake
c = Seq("c", NAT)                          # its label (a class index)
r = Seq("r", NAT)                          # the other class of the largest score
U = Vec("U")                               # the separating matrix, stacked the same way
phi = Fun("phi", (VEC, INT), VEC, tex=r"\phi")   # Kesler's block embedding: x into block j
v = Vec("v")
i, j = Nat("i"), Nat("j")

ENCODING = ("the run restricted to its mistakes; Kesler's construction: the K weight vectors stacked into one vector "
            "of R^(K d), phi(x, j) the example x in block j")

HYPOTHESES = [
    ("kesler_block_norm", ForAll([v, j], Eq(dot(phi(v, j), phi(v, j)), dot(v, v)))),
    ("kesler_blocks_orthogonal", ForAll([v, i, j], Implies(Ne(i, j), Eq(dot(phi(v, i), phi(v, j)), 0)))),
    ("starts_at_zero", Eq(W(0), vzero())),
    ("update_on_mistake", forall_below(k, M, Eq(W(k + 1), W(k) + phi(x(k), c(k)) - phi(x(k), r(k))))),
    ("other_class", forall_below(k, M, Ne(r(k), c(k)))),
    ("mistake", forall_below(k, M, dot(W(k), phi(x(k), c(k))) <= dot(W(k), phi(x(k), r(k))))),
    ("margin", forall_below(k, M, dot(phi(x(k), c(k)), U) - dot(phi(x(k), r(k)), U) >= g)),
    ("radius", forall_below(k, M, dot(x(k), x(k)) <= R**2)),
    ("target_norm", dot(U, U) <= 1),
    ("gamma_pos", g > 0),
]


def _proof(p):
    P = And(dot(W(k), U) >= k * g, dot(W(k), W(k)) <= 2 * k * R**2)
    base_goal, step_goal = induction_goals(k, P, M)
    z1 = p.identity("dot_zero_left", dot(vzero(), U), num(0), title="0.U = 0")
    z2 = p.identity("norm_zero", dot(vzero(), vzero()), num(0), title="|0|^2 = 0")
    base = p.solve("invariant_base", [p.hyp("starts_at_zero"), z1, z2], base_goal, title="after 0 mistakes: W = 0")
    A, B, Y, V = Vec("A"), Vec("B"), Vec("Y"), Vec("V")
    e1 = p.identity("update_dot_expand", dot(A + B - Y, V), dot(A, V) + dot(B, V) - dot(Y, V),
                    title="(W + a - b).U = W.U + a.U - b.U")
    e2 = p.identity("update_norm_expand", dot(A + B - Y, A + B - Y),
                    dot(A, A) + 2 * dot(A, B) - 2 * dot(A, Y) + dot(B, B) - 2 * dot(B, Y) + dot(Y, Y),
                    title="|W + a - b|^2 = |W|^2 + 2 W.a - 2 W.b + |a|^2 - 2 a.b + |b|^2")
    a, b = phi(x(k), c(k)), phi(x(k), r(k))
    facts = [p.inst(p.hyp(h), k) for h in ("update_on_mistake", "other_class", "mistake", "margin", "radius")]
    facts += [p.specialize(e1, {A: W(k), B: a, Y: b, V: U}), p.specialize(e2, {A: W(k), B: a, Y: b}),
              p.inst(p.hyp("kesler_block_norm"), x(k), c(k)), p.inst(p.hyp("kesler_block_norm"), x(k), r(k)),
              p.inst(p.hyp("kesler_blocks_orthogonal"), x(k), c(k), r(k))]
    step = p.solve("invariant_step", facts, step_goal,
                   title="a mistake adds u_c.x - u_r.x >= gamma to W.U and at most 2 R^2 to |W|^2")
    inv = p.inst(p.induction(k, P, base, step, M), M)
    cs = p.lemma("cauchy_schwarz", {"a": W(M), "b": U})
    ww = p.rule("finite_sum_linearity", "dot_nonneg", W(M))
    return p.solve("multiclass_mistake_bound", [inv, cs, ww, p.hyp("target_norm"), p.hyp("gamma_pos")],
                   p.theorem.conclusion,
                   title="(M gamma)^2 <= (W.U)^2 <= |W|^2 |U|^2 <= 2 M R^2: M <= 2 R^2 / gamma^2")


THEOREMS = [
    Theorem(
        id="multiclass_perceptron_bound",
        name="The multiclass perceptron (Kesler's construction): at most 2 R^2 / gamma^2 mistakes",
        source=Source(CRAMMER_SINGER_2003, "Crammer & Singer 2003 (the multiclass perceptron, max update); "
                      "Collins 2002, Theorem 1 (R^2 = 2 max |x|^2 in Kesler's form)",
                      "(paraphrased) If a matrix U of unit norm separates the examples with margin gamma (u_y.x - u_j.x >= gamma "
                      "for every j != y) and |x| <= R, the multiclass perceptron makes at most 2 R^2 / gamma^2 "
                      "mistakes."),
        hypotheses=HYPOTHESES,
        conclusion=M <= 2 * R**2 / g**2,
        proof=_proof, encoding=ENCODING, witness_sizes={M: 2},
    ),
]
