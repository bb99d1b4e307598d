"""The lower bound of the Littlestone dimension for every algorithm (Littlestone 1988, section 3):
its statement is printed here from the definitions of ``coq/LittlestoneLowerBound.v`` (an
algorithm, its mistakes, a complete mistake tree shattered by a class); no catalogue formula
states it.  ``coq.learner_theorems`` lists it with the others."""
from __future__ import annotations

from dataclasses import dataclass

from .learner_theorems_experts import AnyLearner
from .names import LOGICAL

__all__ = ["LdimLowerBoundTheorem", "ANY_ALGORITHM_LDIM", "LEARNER_LDIM_LOWER_BOUND", "ldim_statement"]

LLB = f"{LOGICAL}.LittlestoneLowerBound"
ANY_ALGORITHM_LDIM = AnyLearner(id="any_algorithm_ldim", python="adversary.littlestone_worst.force_on_tree",
                                coq=f"{LLB}.mistakes")


@dataclass(frozen=True)
class LdimLowerBoundTheorem:
    id: str
    name: str
    learner: AnyLearner
    base: str


LEARNER_LDIM_LOWER_BOUND = LdimLowerBoundTheorem(
    "learner_ldim_lower_bound", "Every deterministic algorithm errs d times on a class that shatters a mistake tree "
    "of depth d (so Ldim(H) times)", ANY_ALGORITHM_LDIM, "Ldim(H) for every deterministic algorithm")


def ldim_statement(lt: LdimLowerBoundTheorem) -> str:
    """For every algorithm, class H (points to labels) and complete tree of depth d that H
    shatters: d examples, labelled by a hypothesis of H, on which the algorithm errs every time."""
    return (f"forall (alg : {LLB}.algorithm) (H : list (nat -> Z)) (t : {LLB}.tree) (d : nat),\n"
            f"  {LLB}.shattered H t d ->\n"
            f"  exists ex : list {LLB}.example,\n"
            f"    length ex = d /\\ {LLB}.realizable H ex /\\ {lt.learner.coq} alg nil ex = d")
