"""The Standard Optimal Algorithm (Littlestone 1988, section 3; Shalev-Shwartz 2012, section 1.2):
on a sequence labelled by a hypothesis of a finite class H, SOA makes at most Ldim(H) mistakes.

The run restricted to its mistakes: ``L(k)`` is the Littlestone dimension of the version space V
before the k-th mistake (L(0) = Ldim(H)); at that mistake the point x splits V into the hypotheses
labelling it as SOA predicted, of dimension ``a(k)``, and as the label says, of dimension ``c(k)``.
By Ldim's recursion L(k) >= 1 + min(a(k), c(k)) (x splits V: the predicted side is not empty, as
SOA predicts the side of larger dimension and the true side holds the target); SOA chose the
larger side, so c(k) <= a(k); afterwards the version space is inside the true side, so
L(k + 1) <= c(k) (Ldim is monotone under inclusion).  The target never leaves: L(M) >= 0 (a
non-empty class has dimension >= 0).  So each mistake lowers L by at least 1: M <= Ldim(H).
(``learners.littlestone`` computes Ldim and runs SOA; ``adversary.littlestone_worst`` certifies
that the bound is reached: every deterministic learner errs Ldim(H) times on the shattered tree.)
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import INT, Int, Nat, Or, Seq, forall_below
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import LITTLESTONE_1988

M, k = Nat("M"), Nat("k")
D = Int("D", tex=r"\mathrm{Ldim}(H)", text="Ldim(H)")
L, a, c = Seq("L", INT), Seq("a", INT), Seq("c", INT)

HYPS = [
    ("class_dimension", L(0) <= D),
    ("dimension_recursion", forall_below(k, M, Or(L(k) >= 1 + a(k), L(k) >= 1 + c(k)))),
    ("soa_takes_larger_side", forall_below(k, M, c(k) <= a(k))),
    ("version_space_shrinks", forall_below(k, M, L(k + 1) <= c(k))),
    ("target_in_class", L(M) >= 0),
]
ENCODING = ("the run restricted to its mistakes: L(k) the Littlestone dimension of the version space before the "
            "k-th mistake, a(k) and c(k) those of its hypotheses labelling that point as predicted and as labelled")


def _proof(p):
    P = L(k) + k <= D
    base_goal, step_goal = induction_goals(k, P, M)
    base = p.solve("soa_start", [p.hyp("class_dimension")], base_goal, title="L(0) <= Ldim(H)")
    at = [p.inst(p.hyp(h), k) for h in ("dimension_recursion", "soa_takes_larger_side", "version_space_shrinks")]
    step = p.solve("soa_step", at, step_goal,
                   title="L(k+1) <= c(k) = min(a(k), c(k)) <= L(k) - 1: a mistake lowers the dimension")
    inv = p.inst(p.induction(k, P, base, step, M), M)
    return p.solve("soa_mistake_bound", [inv, p.hyp("target_in_class")], p.theorem.conclusion,
                   title="L(M) + M <= Ldim(H) and L(M) >= 0")


THEOREMS = [
    Theorem(
        id="soa_bound",
        name="SOA on a sequence labelled by a hypothesis of H: at most Ldim(H) mistakes",
        source=Source(LITTLESTONE_1988, "Littlestone 1988, section 3, Theorem 3 (also Shalev-Shwartz 2012, "
                      "section 1.2)",
                      "The Standard Optimal Algorithm makes at most Ldim(H) mistakes on any sequence consistent "
                      "with some hypothesis of H."),
        hypotheses=HYPS,
        conclusion=M <= D,
        proof=_proof, encoding=ENCODING, witness_sizes={M: 2},
    ),
]
