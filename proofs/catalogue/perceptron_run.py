"""The perceptron's run as formulas: the vocabulary of every perceptron theorem, and the induction
over mistakes that Block-Novikoff, the hinge bound and Blum's TD bound share.

The perceptron changes its weights only on a mistake, so a run is described by its mistakes:
``w(k)`` is the weight vector before the k-th mistake (k = 0, 1, ..., M-1), ``x(k)`` and ``y(k)``
that mistake's example and label, ``w(0) = 0`` and ``w(k+1) = w(k) + y(k) x(k)``, and the mistake
itself is ``y(k) (w(k).x(k)) <= 0`` (a tie counts).  ``u`` is the target ``w*``.
"""
from __future__ import annotations

from proofs.language.formula import NAT, REAL, VEC, And, Eq, Nat, Real, Seq, Sum, Vec, dot, forall_below, num, vzero
from proofs.language.substitution import subst
from proofs.language.functions import Max
from proofs.kernel.kernel import induction_goals

M = Nat("M", text="M")
k = Nat("k")
i = Nat("i")
g = Real("g", tex=r"\gamma", text="gamma")
R = Real("R")
w = Seq("w", VEC)
x = Seq("x", VEC)
y = Seq("y", REAL)
u = Vec("u", tex="w^*", text="w*")

GRAM = "the run restricted to its mistakes; inner products in R^d, any d"


def run_hypotheses() -> list[tuple[str, object]]:
    """w(0) = 0, the update on each of the M mistakes, the mistake condition, labels +-1."""
    return [
        ("starts_at_zero", Eq(w(0), vzero())),
        ("update_on_mistake", forall_below(k, M, Eq(w(k + 1), w(k) + y(k) * x(k)))),
        ("mistake", forall_below(k, M, y(k) * dot(w(k), x(k)) <= 0)),
        ("labels_pm1", forall_below(k, M, Eq(y(k)**2, 1))),
    ]


def hinge_terms(margin) -> object:
    """The loss of w* at margin m on the k-th mistake, max(0, m - y(k) (w*.x(k)))."""
    return Max(num(0), margin - y(i) * dot(x(i), u))


def loss_sum(margin, upto) -> object:
    """sum_{i=0}^{upto-1} max(0, m - y(i) (w*.x(i))): the loss over the first ``upto`` mistakes."""
    return Sum(i, 0, upto - 1, hinge_terms(margin))


def progress_invariant(p, margin, radius2, *, loss: bool = False, growth=None, tag: str = ""):
    """The induction over the mistakes: for every j <= M,
    w(j).w* >= j m (- the loss so far, when ``loss``) and |w(j)|^2 <= j R2.

    ``growth`` is the fact giving, at mistake k, w(k+1).w* >= w(k).w* + m (- loss(k)) and
    |w(k+1)|^2 <= |w(k)|^2 + R2 (Claims 1 and 2, instantiated by the caller's function
    ``growth(p)`` -> list of facts about k).  Returns the fact "for all j with 0 <= j <= M: ..."."""
    def P_at(t):
        dotp = dot(w(t), u) >= t * margin - (loss_sum(margin, t) if loss else 0)
        return And(dotp, dot(w(t), w(t)) <= t * radius2)
    P = P_at(k)
    base_goal, step_goal = induction_goals(k, P, M)
    zero = p.identity(f"dot_zero_left{tag}", dot(vzero(), u), num(0), title="0.w* = 0")
    zero2 = p.identity(f"norm_zero{tag}", dot(vzero(), vzero()), num(0), title="|0|^2 = 0")
    base_facts = [p.hyp("starts_at_zero"), zero, zero2]
    if loss:
        base_facts.append(p.rule("finite_sum_linearity", "sum_empty", i, num(0), hinge_terms(margin)))
    base = p.solve(f"invariant_base{tag}", base_facts, base_goal, title="after 0 mistakes: w = 0")
    facts = growth(p)
    if loss:
        facts.append(p.rule("finite_sum_linearity", "sum_succ", i, num(0), k - 1, hinge_terms(margin)))
    step = p.solve(f"invariant_step{tag}", facts, step_goal,
                   title="Claims 1 and 2 carry the invariant from k to k + 1 mistakes")
    return p.induction(k, P, base, step, M)


def at_M(p, inv):
    """The invariant after all M mistakes."""
    return p.inst(inv, M)


__all__ = ["M", "k", "i", "g", "R", "w", "x", "y", "u", "GRAM", "run_hypotheses", "progress_invariant", "at_M",
           "loss_sum", "hinge_terms"]
_ = (NAT, subst)
