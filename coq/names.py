"""The Coq counterpart of every catalogue theorem: theorem id -> fully qualified Coq name.

The counterpart is declared ``Theorem <name> : <id>_statement.`` (an erratum: ``~ <id>_statement``)
where ``<id>_statement`` is printed from the catalogue's formulas into the generated Statements.v.
"""
from __future__ import annotations

__all__ = ["COQ_NAMES", "coq_name", "module_theorems"]

_MODULES = {
    "Catalogue_vectors": ["cauchy_schwarz", "claim1_correlation_growth", "claim1_margin_one", "claim2_norm_growth",
                          "claim2_unit_examples", "erratum_claim2_strict"],
    "Catalogue_block_novikoff": ["block_novikoff_margin_one", "block_novikoff_unit", "block_novikoff_radius",
                                 "block_novikoff_bias", "erratum_bias_notes_unsquared_norm"],
    "Catalogue_hinge": ["hinge_loss_bound", "hinge_total_distance", "erratum_hinge_dropped_square",
                        "hinge_bound_exact_form", "perceptron_is_subgradient_descent"],
    "Catalogue_winnow": ["winnow_relevant_weights", "winnow_total_weight", "winnow_halving_bound", "winnow_elimination_bound", "winnow_halving_bound_integer",
                         "winnow_halving_pow2", "winnow_halving_pow2_tight", "winnow_elimination_pow2",
                         "erratum_winnow_pow2_halving_n1", "erratum_winnow_pow2_elimination_r0",
                         "erratum_winnow_pow2_tight_r0"],
    "Catalogue_kernels": ["kernel_closure_rules", "polynomial_kernel_feature_map", "gaussian_kernel_legal",
                          "kernel_perceptron_is_feature_perceptron"],
    "Catalogue_perceptron_2d": ["perceptron_2d_half_bound"],
}

COQ_NAMES: dict[str, str] = {tid: f"{mod}.{tid}" for mod, ids in _MODULES.items() for tid in ids}


def module_theorems() -> dict[str, list[str]]:
    """Catalogue module -> the theorem ids it declares."""
    return {mod: list(ids) for mod, ids in _MODULES.items()}


def coq_name(theorem_id: str) -> str | None:
    """``Module.name`` of the counterpart (the logical path Mistakebound. is implied), or None."""
    return COQ_NAMES.get(theorem_id)
