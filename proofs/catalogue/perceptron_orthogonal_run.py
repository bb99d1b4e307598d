"""The perceptron errs on every example of a pairwise orthogonal sequence (Kivinen, Warmuth & Auer
1997, "The Perceptron algorithm versus Winnow: linear versus logarithmic mistake bounds when few
input variables are relevant", Artificial Intelligence 97): started at w = 0 and adding y x on each
mistake, its weight before step t is W(t) = sum_{s<t} m(s) y(s) x(s), a combination of earlier
examples, each orthogonal to x(t); so W(t).x(t) = 0, a tie, and a tie is a mistake (m(t) = 1).
On the n rows of an n x n Hadamard matrix (entries +-1) labelled by the one variable x_1 it
therefore errs n times -- Block-Novikoff's (R |u| / gamma)^2 = n for u = e_1, met exactly -- where
Winnow needs O(log n) (``adversary.hadamard_worst`` replays both).

By induction on j: W(j).x(t) = 0 for every t >= j (the step adds m(j) y(j) x(j).x(t) = 0 as j < t).
The statement is for a step index t that no hypothesis mentions, so for every t; the count of
mistakes then sums m(s) = 1 over the n steps.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import REAL, VEC, And, Eq, ForAll, Implies, Ite, Nat, Real, Seq, Sum, Vec, dot, forall_below, num, vzero
from proofs.language.functions import VSum
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import KIVINEN_WARMUTH_AUER
from proofs.catalogue.winnow_run import generalize

n, j, s, t, t2 = Nat("n"), Nat("j"), Nat("s"), Nat("t"), Nat("t2")
x, y, m = Seq("x", VEC), Seq("y", REAL), Seq("m", REAL)
a, b, e = Vec("a"), Vec("b"), Vec("e")
c = Real("c")
SUM = "finite_sum_linearity"


def W(hi):
    """The perceptron's weight before step hi: w = 0, plus y x at every mistake."""
    return VSum(s, 0, hi - 1, m(s) * y(s) * x(s))


IN_RANGE = And(num(0) <= t, t < n)


def _range(i, body):
    return ForAll(i, Implies(And(num(0) <= i, i <= n - 1), body))


def _proof(pf):
    lin = pf.identity("dot_linear", dot(a + c * b, e), dot(a, e) + c * dot(b, e), title="(a + c b).e = a.e + c b.e")
    zero = pf.identity("dot_zero", dot(vzero(), e), num(0), title="0.e = 0")
    body = m(s) * y(s) * x(s)
    succ = pf.rule("vector_sums", "vsum_succ", s, num(0), j - 1, body)
    empty = pf.rule("vector_sums", "vsum_empty", s, num(0), body)
    # W(j).x(t) = 0 for every t in [j, n)
    P = Implies(And(j <= t, t < n), Eq(dot(W(j), x(t)), 0))
    b0, s0 = induction_goals(j, P, n)
    base = pf.solve("weight_start", [empty, pf.specialize(zero, {e: x(t)})], b0, title="W(0) = 0")
    step = pf.solve("weight_step", [succ, pf.specialize(lin, {a: W(j), c: m(j) * y(j), b: x(j), e: x(t)}),
                                    pf.inst(pf.hyp("orthogonal"), j, t)], s0,
                    title="W(j+1).x(t) = W(j).x(t) + m(j) y(j) x(j).x(t), and x(j).x(t) = 0 for j < t")
    orth = pf.inst(pf.induction(j, P, base, step, n), t)
    tie = pf.solve("every_step_a_tie", [orth, pf.inst(pf.hyp("mistake_rule"), t)],
                   Implies(IN_RANGE, And(Eq(dot(W(t), x(t)), 0), Eq(m(t), 1))),
                   title="W(t).x(t) = 0: y(t) W(t).x(t) = 0 <= 0, a mistake")
    every = generalize(pf, pf.solve("mistake_at_t", [tie], Implies(IN_RANGE, Eq(m(t), 1)), title="m(t) = 1"),
                       t, n, "mistake_at_every_t")
    le = pf.solve("terms_le_1", [every], _range(s, m(s) <= num(1) * 1), title="each m(s) <= 1")
    ge = pf.solve("terms_ge_1", [every], _range(s, num(1) * 1 <= m(s)), title="each m(s) >= 1")
    count = pf.solve("mistakes_counted", [
        le, ge, pf.rule(SUM, "sum_mono", s, 0, n - 1, m(s), num(1) * 1),
        pf.rule(SUM, "sum_mono", s, 0, n - 1, num(1) * 1, m(s)),
        pf.rule(SUM, "sum_const", s, 0, n - 1, num(1) * 1), pf.hyp("n_pos")],
        Eq(Sum(s, 0, n - 1, m(s)), n), title="n terms equal to 1: n mistakes")
    return pf.solve("every_example_a_mistake", [tie, count], pf.theorem.conclusion, title="together")


THEOREMS = [
    Theorem(
        id="perceptron_orthogonal_run",
        name="The perceptron errs on every example of n pairwise orthogonal examples (n on Hadamard rows)",
        source=Source(KIVINEN_WARMUTH_AUER, "Kivinen, Warmuth & Auer 1997 (the perceptron's Omega(n) on one "
                      "relevant variable, against Winnow's O(log n))",
                      "On the rows of a Hadamard matrix labelled by a single variable the Perceptron algorithm makes "
                      "n mistakes, where Winnow makes O(log n): additive updates cannot exploit that few variables "
                      "are relevant."),
        hypotheses=[("n_pos", n >= 1),
                    ("orthogonal", ForAll([s, t2], Implies(And(num(0) <= s, s < t2, t2 < n),
                                                           Eq(dot(x(s), x(t2)), 0)))),
                    ("mistake_rule", forall_below(t2, n, Eq(m(t2), Ite(y(t2) * dot(W(t2), x(t2)) <= 0, 1, 0))))],
        conclusion=And(Implies(IN_RANGE, And(Eq(dot(W(t), x(t)), 0), Eq(m(t), 1))), Eq(Sum(s, 0, n - 1, m(s)), n)),
        proof=_proof, witness_sizes={n: 2},
        encoding="n steps; x(t) the examples, pairwise orthogonal; y(t) any labels; m(t) in {0, 1} the perceptron's "
                 "mistake at step t (y(t) W(t).x(t) <= 0, a tie included), W(t) = sum_{s<t} m(s) y(s) x(s) its weight "
                 "before step t (w = 0 at the start, y x added at each mistake); stated for any step t",
        notes="On the n rows of a Hadamard matrix labelled by x_1 (margin 1 for u = e_1, |x|^2 = n) the perceptron's n "
              "mistakes meet Block-Novikoff's (R|u|/gamma)^2 = n; Winnow on the same rows as 0/1 inputs stays within "
              "2 + 3(1 + lg n): adversary row kwa_hadamard_n64.",
    ),
]
_ = REAL
