"""The multiclass perceptron's learner theorem (Crammer & Singer 2003; Collins 2002), its statement
printed here from the definitions of ``coq/LearnersMulticlass.v`` (the catalogue's
``multiclass_perceptron_bound`` states the bound over the run restricted to its mistakes, in
Kesler's form; the learner keeps one weight vector per class, which no catalogue formula names):
on every sequence of examples (x, c), c < K, |x|^2 <= R^2, that a matrix U with
sum_j |u_j|^2 <= 1 separates with margin gamma > 0 (u_c.x - u_j.x >= gamma for every other class
j < K), the learner -- one vector per class, the other class of the largest score the first on a
tie, a tie a mistake, as ``learners.MulticlassPerceptron(bias=False)`` -- makes at most
2 R^2 / gamma^2 mistakes.

``coq.learner_theorems`` lists it with the others."""
from __future__ import annotations

from dataclasses import dataclass

from coq.learner_theorems_experts import AnyLearner
from coq.names import LOGICAL

__all__ = ["MulticlassTheorem", "MULTICLASS", "LEARNER_MULTICLASS", "multiclass_statement"]

LMC = f"{LOGICAL}.LearnersMulticlass"
MULTICLASS = AnyLearner(id="multiclass_perceptron", python="learners.MulticlassPerceptron", coq=f"{LMC}.mc_mistakes")


@dataclass(frozen=True)
class MulticlassTheorem:
    id: str
    name: str
    learner: AnyLearner
    base: str


LEARNER_MULTICLASS = MulticlassTheorem(
    "learner_multiclass_perceptron", "The multiclass perceptron (one vector per class, first class on a tie) on "
    "examples a matrix U with sum |u_j|^2 <= 1 separates with margin gamma: at most 2 R^2 / gamma^2 mistakes",
    MULTICLASS, "multiclass_perceptron_bound")


def multiclass_statement(lt: MulticlassTheorem) -> str:
    """For every dimension d, number of classes K, sequence of (x, c) and matrix U (its rows u_j)
    as the module docstring says: the learner's mistakes are at most 2 R^2 / gamma^2."""
    return ("forall (d K : nat) (ex : list (Vec * nat)) (U : nat -> Vec) (g R_ : R),\n"
            "  (forall x c, In (x, c) ex -> (c < K)%nat) ->\n"
            "  (forall x c, In (x, c) ex -> dot d x x <= R_ ^ 2) ->\n"
            "  (forall x c j, In (x, c) ex -> (j < K)%nat -> j <> c -> dot d x (U c) - dot d x (U j) >= g) ->\n"
            "  sum_lt K (fun j => dot d (U j) (U j)) <= 1 ->\n"
            "  g > 0 ->\n"
            f"  INR ({lt.learner.coq} d K ex) <= 2 * R_ ^ 2 / g ^ 2")
