"""Littlestone's lower bound on r-literal monotone disjunctions for every n (Littlestone 1988,
section 7: r floor(lg(n/r))), as learner theorems over every deterministic algorithm, their
statements printed here from the definitions of ``coq/DisjunctionLowerBound.v`` (no catalogue
formula states them over these objects; ``disjunction_lower_bound`` is its one-block form):

* blocks of 2^(l_1), ..., 2^(l_r) variables force l_1 + ... + l_r mistakes (``blocks``);
* for every n and 1 <= r <= n: r floor(lg(n/r)) mistakes over n variables (``any_n``);
* sharper, with k = floor(n/2^l) - r blocks one larger: r l + k (``any_n_sharp``), the count the
  adversary table's rows reach (``adversary.disjunction_worst``).

``coq.learner_theorems`` lists them with the others; the form n = r 2^l is
``coq.learner_theorems_experts.disjunction_statement``."""
from __future__ import annotations

from dataclasses import dataclass

from coq.learner_theorems_experts import AnyLearner
from coq.names import LOGICAL

__all__ = ["DisjunctionFormTheorem", "ANY_ALGORITHM_BLOCKS", "LEARNER_DISJUNCTION_FORMS", "disjunction_form_statement"]

DLB = f"{LOGICAL}.DisjunctionLowerBound"
ANY_ALGORITHM_BLOCKS = AnyLearner(id="any_algorithm_blocks", python="adversary.disjunction_worst.force_blocks",
                                  coq=f"{DLB}.mistakes")
FORMS = ("blocks", "any_n", "any_n_sharp")


@dataclass(frozen=True)
class DisjunctionFormTheorem:
    id: str
    name: str
    learner: AnyLearner
    base: str
    form: str                        # one of FORMS


def disjunction_form_statement(lt: DisjunctionFormTheorem) -> str:
    """For every algorithm: examples labelled by the disjunction of distinct variables, all below
    the variables' count, on which the algorithm errs the form's count of times."""
    if lt.form not in FORMS:
        raise ValueError(f"unknown form {lt.form!r}")
    if lt.form == "blocks":
        head, hyp, size, count, many = "(ls : list nat)", "", f"{DLB}.width ls", "list_sum ls", "length ls"
    else:
        l = "Nat.log2 (n / r)"
        head, hyp, size, many = "(n r : nat)", "(1 <= r <= n)%nat ->\n  ", "n", "r"
        count = f"r * {l}" + (f" + (n / 2 ^ {l} - r)" if lt.form == "any_n_sharp" else "")
    return (f"forall (alg : {DLB}.algorithm) {head},\n"
            f"  {hyp}exists (ex : list {DLB}.example) (target : list nat),\n"
            f"    length target = {many} /\\ NoDup target /\\ (forall f : nat, In f target -> (f < {size})%nat) /\\\n"
            f"    (forall (x : nat -> bool) (y : bool), In (x, y) ex ->\n"
            f"       (forall i : nat, x i = true -> (i < {size})%nat) /\\ y = {DLB}.disjunction target x) /\\\n"
            f"    {lt.learner.coq} alg nil ex = ({count})%nat")


LEARNER_DISJUNCTION_FORMS = (
    DisjunctionFormTheorem("learner_disjunction_lower_bound_blocks",
                           "Every deterministic algorithm errs l_1 + ... + l_r times on some monotone disjunction of "
                           "r variables, one in each of r blocks of 2^(l_c) variables", ANY_ALGORITHM_BLOCKS,
                           "sum of l_c for every deterministic algorithm", "blocks"),
    DisjunctionFormTheorem("learner_disjunction_lower_bound_any_n",
                           "Every deterministic algorithm errs r floor(lg(n/r)) times on some r-literal monotone "
                           "disjunction of n variables, for every n >= r >= 1", ANY_ALGORITHM_BLOCKS,
                           "r floor(lg(n/r)) for every deterministic algorithm", "any_n"),
    DisjunctionFormTheorem("learner_disjunction_lower_bound_any_n_sharp",
                           "Every deterministic algorithm errs r l + k times on some r-literal monotone disjunction "
                           "of n variables, l = floor(lg(n/r)), k = floor(n/2^l) - r", ANY_ALGORITHM_BLOCKS,
                           "r floor(lg(n/r)) + k for every deterministic algorithm", "any_n_sharp"),
)
