"""The kernel perceptron's learner theorems for any positive semidefinite kernel, the comparator given
by dual coefficients (Aizerman, Braverman & Rozonoer 1964; Freund & Schapire 1999, 'Large margin
classification using the perceptron algorithm'): no feature map is assumed, so the Gaussian kernel
is covered.  The statement is printed here from the definitions of ``coq/Learners.v`` (no catalogue
formula names a kernel's Gram matrix): for every kernel K symmetric and positive semidefinite on the
run's points xs 0, ..., xs (n - 1) (sum_i sum_j c_i c_j K(x_i, x_j) >= 0 for every real c), every
visiting order of those points with labels y^2 = 1 and K(x, x) <= R^2, and every comparator
u = sum_j beta_j phi(x_j) given by its coefficients beta, |u|^2 = sum_i sum_j beta_i beta_j
K(x_i, x_j) <= W^2 (<= 1), with margin y sum_j beta_j K(x_j, x) >= gamma > 0 on every visited
example: the learner -- ``learners.run_kernel_perceptron(bias=False)``, compared with
``kperceptron_run`` by ``python -m coq differential`` -- makes at most R^2 W^2 / gamma^2
(R^2 / gamma^2) mistakes.  Proved in ``coq/KernelPSD.v`` (Cauchy-Schwarz for the kernel's form on
coefficient vectors).

The visiting order's condition (every index below n) is the kernel perceptron's domain side
condition, printed and checked against the Python learner like the feature-map theorems'
(``coq.learner_sides``).  ``coq.learner_theorems`` lists the theorems with the others."""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from proofs.language.formula import Real
from coq.export import ExportError
from coq.learner_sides import print_side, check_sides
from coq.names import LOGICAL

__all__ = ["PsdKernelTheorem", "LEARNER_KERNEL_PSD", "psd_statement"]

_MEMBERS = "(map (fun i => (xs i, ys i)) order)"
# the variables the theorem speaks of, for the side-condition check (no catalogue entry states it)
_DUAL = SimpleNamespace(id="the dual kernel perceptron bound", hypotheses=(), conclusion=Real("M") <= Real("R_"))


@dataclass(frozen=True)
class PsdKernelTheorem:
    id: str
    name: str
    learner: object                  # coq.learner_theorems.KERNEL_PERCEPTRON
    base: str                        # what the statement bounds, for the reports
    norm: bool                       # |u|^2 <= W^2 (bound R^2 W^2 / gamma^2), else |u|^2 <= 1 (R^2 / gamma^2)


def psd_statement(lt: PsdKernelTheorem) -> str:
    """The Coq statement (module docstring)."""
    ln = lt.learner
    if [n for n, _ in ln.inputs] != ["n", "xs", "ys", "order"] or ln.members != _MEMBERS:
        raise ExportError(f"{lt.id}: the learner is not the kernel perceptron over (n, xs, ys, order)")
    check_sides(lt.id, _DUAL, ln.side, ln.domain, ln.run, ln.inputs, ln.mistakes)
    gram = "sum_lt n (fun i => sum_lt n (fun j => {a} i * {a} j * K (xs i) (xs j)))"
    W = " W" if lt.norm else ""
    prem = [print_side(s) for s in ln.side] + [
        "(forall (i j : nat), (i < n)%nat -> (j < n)%nat -> K (xs i) (xs j) = K (xs j) (xs i))",
        f"(forall (c : nat -> R), 0 <= {gram.format(a='c')})",
        f"(forall (x : Vec) (y : R), In (x, y) {_MEMBERS} -> y ^ 2 = 1)",
        f"(forall (x : Vec) (y : R), In (x, y) {_MEMBERS} -> K x x <= R_ ^ 2)",
        f"{gram.format(a='beta')} <= {'W ^ 2' if lt.norm else '1'}",
        f"(forall (x : Vec) (y : R), In (x, y) {_MEMBERS} -> y * sum_lt n (fun j => beta j * K (xs j) x) >= g)",
        "g > 0"]
    mist = ln.mistakes.format(dim="")
    bound = "R_ ^ 2 * W ^ 2 / g ^ 2" if lt.norm else "R_ ^ 2 / g ^ 2"
    chain = " ->\n  ".join(prem + [f"let M : nat := {mist} in\n  INR M <= {bound}"])
    head = " ".join(f"({n} : {t})" for n, t in ln.inputs)
    return f"forall (K : Vec -> Vec -> R) {head} (beta : nat -> R) (g R_{W} : R),\n  {chain}"


def learner_kernel_psd(kernel_perceptron) -> tuple:
    """The two theorems on the given learner (the kernel perceptron of ``coq.learner_theorems``)."""
    return (
        PsdKernelTheorem(
            "learner_kernel_perceptron_psd",
            "The kernel perceptron, any kernel symmetric and positive semidefinite on the points (the Gaussian "
            "too), K(x, x) <= R^2, a comparator sum_j beta_j phi(x_j) of norm at most 1 with margin gamma: "
            "R^2 / gamma^2", kernel_perceptron, "KernelPSD.kernel_perceptron_psd_unit_bound", norm=False),
        PsdKernelTheorem(
            "learner_kernel_perceptron_psd_norm",
            "The kernel perceptron, any positive semidefinite kernel, a comparator sum_j beta_j phi(x_j) of norm "
            "at most W with margin gamma: R^2 W^2 / gamma^2", kernel_perceptron,
            "KernelPSD.kernel_perceptron_psd_bound", norm=True))
