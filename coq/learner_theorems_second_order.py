"""The second-order perceptron's learner theorems (Cesa-Bianchi, Conconi & Gentile 2005, 'A
second-order perceptron algorithm', SIAM J. Computing 34(3):640-668, Theorem 1), their statements
printed here from the definitions of ``coq/LearnersSecondOrder.v`` (no catalogue formula names a
linear map kept by Sherman-Morrison): for every dimension d, parameter a > 0, sequence of examples
(x, y) with y^2 = 1, comparator u and gamma > 0, the learner -- B_0 z = z/a, B' = SM(B, x_t), margin
v . B' x_t, a mistake when y_t times it is <= 0, as ``learners.run_second_order_perceptron`` --
run on the sequence, with M its mistakes, q_k = x_k . B_{k-1} x_k read on its run and
D = sum_k max(0, gamma - y_k u . x_k), has

    M gamma - D <= sqrt((a |u|^2 + sum_k (u . x_k)^2) * sum_k ln(1 + q_k))

and the sharper form with sum_k q_k / (1 + q_k) in place of the logarithms.  This is the paper's
Theorem 1 in its determinant-free form: sum_k ln(1 + q_k) = sum_i ln(1 + lambda_i / a) (the
matrix determinant lemma) is not proved.  Proved in ``coq/SecondOrderPerceptron.v``;
``coq.learner_theorems`` lists the theorems with the others."""
from __future__ import annotations

from dataclasses import dataclass

from coq.learner_theorems_experts import AnyLearner
from coq.names import LOGICAL

__all__ = ["SecondOrderTheorem", "SECOND_ORDER", "LEARNER_SECOND_ORDER", "LEARNER_SECOND_ORDER_RATIO",
           "second_order_statement", "CITATION"]

LSO = f"{LOGICAL}.LearnersSecondOrder"
CITATION = "Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1"
SECOND_ORDER = AnyLearner(id="second_order_perceptron", python="learners.run_second_order_perceptron(a=a)",
                          coq=f"{LSO}.sop_run")


@dataclass(frozen=True)
class SecondOrderTheorem:
    id: str
    name: str
    learner: AnyLearner
    base: str                        # what the statement bounds, for the reports: the citation and the Coq theorem
    total: str                       # the sum over the mistake rounds that bounds v_M . B_M v_M


# the sums of the bound, each over the learner's mistake rounds (x_k, y_k, q_k) (LearnersSecondOrder.v)
_TOTALS = {"log": f"{LSO}.sop_log_sum ms", "ratio": f"{LSO}.sop_ratio_sum ms"}

LEARNER_SECOND_ORDER = SecondOrderTheorem(
    "learner_second_order_perceptron",
    "The second-order perceptron with a > 0 on any sequence labelled +-1: M gamma - D <= "
    "sqrt((a |u|^2 + sum_k (u.x_k)^2) sum_k ln(1 + q_k)), q_k = x_k . B_{k-1} x_k (the determinant-free form)",
    SECOND_ORDER, f"{CITATION}, determinant-free (SecondOrderPerceptron.sop_bound)", "log")
LEARNER_SECOND_ORDER_RATIO = SecondOrderTheorem(
    "learner_second_order_perceptron_ratio",
    "The second-order perceptron with a > 0 on any sequence labelled +-1: M gamma - D <= "
    "sqrt((a |u|^2 + sum_k (u.x_k)^2) sum_k q_k / (1 + q_k))",
    SECOND_ORDER, f"{CITATION}, sharper sum q/(1+q) (SecondOrderPerceptron.sop_bound_ratio)", "ratio")


def second_order_statement(lt: SecondOrderTheorem) -> str:
    """For every d, a, sequence ex of (x, y), comparator u and gamma (g) as the module docstring says."""
    run = f"{lt.learner.coq} d a ex"
    return ("forall (d : nat) (a g : R) (u : Vec) (ex : list (Vec * R)),\n"
            "  a > 0 ->\n"
            "  g > 0 ->\n"
            "  (forall (x : Vec) (y : R), In (x, y) ex -> y ^ 2 = 1) ->\n"
            f"  let ms := {run} in\n"
            "  let M : nat := length ms in\n"
            f"  let D : R := {LSO}.sop_hinge_sum d u g ms in\n"
            f"  let X2 : R := {LSO}.sop_proj_sum d u ms in\n"
            f"  INR M * g - D <= sqrt ((a * dot d u u + X2) * {_TOTALS[lt.total]})")
