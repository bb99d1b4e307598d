"""The Littlestone dimension's two learner theorems (Littlestone 1988, section 3), their statements
printed here from the definitions of the Coq files (no catalogue formula states them over these
objects; ``soa_bound`` is their catalogue form over the run restricted to its mistakes):

* every algorithm errs d times on a class that shatters a complete mistake tree of depth d
  (``coq/LittlestoneLowerBound.v``: an algorithm, its mistakes, the tree);
* SOA (``coq/LittlestoneSOA.v``: ``ldim`` computed by the recursion, the learner predicting the
  side of larger dimension) makes at most Ldim(H) mistakes on every sequence over the domain that
  a hypothesis of H labels.

``coq.learner_theorems`` lists them with the others."""
from __future__ import annotations

from dataclasses import dataclass

from coq.learner_theorems_experts import AnyLearner
from coq.names import LOGICAL

__all__ = ["LdimLowerBoundTheorem", "ANY_ALGORITHM_LDIM", "LEARNER_LDIM_LOWER_BOUND", "ldim_statement", "SoaTheorem",
           "SOA", "LEARNER_SOA", "soa_statement"]

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


SOA_ = f"{LOGICAL}.LittlestoneSOA"
SOA = AnyLearner(id="soa", python="learners.run_soa", coq=f"{SOA_}.soa_mistakes")


@dataclass(frozen=True)
class SoaTheorem:
    id: str
    name: str
    learner: AnyLearner
    base: str


LEARNER_SOA = SoaTheorem("learner_soa", "SOA over a finite class on a sequence over its domain labelled by a hypothesis "
                         "of the class: at most Ldim(H) mistakes", SOA, "soa_bound")


def soa_statement(lt: SoaTheorem) -> str:
    """For every domain, class H, hypothesis h of H and sequence of points of the domain labelled
    +-1 by h: SOA's mistakes are at most Ldim(H)."""
    return (f"forall (dom : list nat) (H : list {SOA_}.hyp) (ex : list (nat * Z)) (h : {SOA_}.hyp),\n"
            f"  In h H -> (forall e, In e ex -> h (fst e) = snd e) ->\n"
            f"  (forall e, In e ex -> In (fst e) dom /\\ (snd e = 1 \\/ snd e = -1)%Z) ->\n"
            f"  (Z.of_nat ({lt.learner.coq} dom H ex) <= {SOA_}.ldim dom H)%Z")
