"""The catalogue: every theorem family module, in reading order, and lookup by id."""
from __future__ import annotations

import importlib

from proofs.catalogue.core import Theorem

# Every theorem family module, in reading order, with the module of the Coq development that holds
# its counterparts (coq/Catalogue_*.v, docs/coq.md), each declared there as
# ``Theorem <id> : <id>_statement.`` (an erratum: ``~ <id>_statement``).
COQ_MODULES = {
    "cauchy_schwarz": "Catalogue_vectors",
    "claim1_correlation_growth": "Catalogue_vectors",
    "claim2_norm_growth": "Catalogue_vectors",
    "block_novikoff": "Catalogue_block_novikoff",
    "multiclass_perceptron_bound": "Catalogue_multiclass",
    "inseparable_hinge": "Catalogue_hinge",
    "hinge_exact_form": "Catalogue_hinge",
    "subgradient_descent": "Catalogue_hinge",
    "perceptron_2d": "Catalogue_perceptron_2d",
    "kernel_closure": "Catalogue_kernels",
    "polynomial_kernel": "Catalogue_kernels",
    "gaussian_kernel": "Catalogue_kernels",
    "kernel_perceptron": "Catalogue_kernels",
    "winnow_relevant_weights": "Catalogue_winnow",
    "winnow_total_weight": "Catalogue_winnow",
    "winnow_bound": "Catalogue_winnow",
    "winnow_integer_bound": "Catalogue_winnow",
    "winnow_pow2_bound": "Catalogue_winnow",
    "winnow_tight_bound": "Catalogue_winnow",
    "halving_bound": "Catalogue_experts",
    "soa_bound": "Catalogue_littlestone",
    "exp_monotone": "Catalogue_experts",
    "weighted_majority_bound": "Catalogue_experts",
    "weighted_majority_half_bound": "Catalogue_experts",
    "randomized_weighted_majority_bound": "Catalogue_experts",
    "hedge_bound": "Catalogue_hedge",
    "hedge_regret_bound": "Catalogue_hedge",
    "freund_schapire_bound": "Catalogue_hinge",
    "kernel_freund_schapire_bound": "Catalogue_kernels",
    "passive_aggressive_bound": "Catalogue_passive_aggressive",
    "passive_aggressive_pa1_bound": "Catalogue_passive_aggressive",
    "passive_aggressive_pa2_bound": "Catalogue_passive_aggressive",
    "second_order_perceptron": "Catalogue_second_order",
    "two_experts_lower_bound": "Catalogue_experts",
    "margin_lower_bound": "Catalogue_lower_bounds",
    "disjunction_lower_bound": "Catalogue_lower_bounds",
    "perceptron_orthogonal_run": "Catalogue_lower_bounds",
}
FAMILIES = tuple(COQ_MODULES)

_CACHE: list[Theorem] | None = None


def all_theorems() -> list[Theorem]:
    global _CACHE
    if _CACHE is None:
        out: list[Theorem] = []
        seen = set()
        for fam in FAMILIES:
            mod = importlib.import_module(f"proofs.catalogue.{fam}")
            for th in mod.THEOREMS:
                if th.id in seen:
                    raise ValueError(f"duplicate theorem id {th.id}")
                seen.add(th.id)
                th.family = th.family or fam
                th.coq = th.coq or f"{COQ_MODULES[fam]}.{th.id}"
                out.append(th)
        _CACHE = out
    return _CACHE


def theorem_ids() -> list[str]:
    return [t.id for t in all_theorems()]


def get(theorem_id: str) -> Theorem:
    for t in all_theorems():
        if t.id == theorem_id:
            return t
    from learners.errors import InputError
    raise InputError(f"unknown theorem id {theorem_id!r} (known: {', '.join(theorem_ids())})")
