"""proofs: the theorem catalogue, machine-checked (z3 and sympy, re-checked by cvc5).

Public API (imported lazily, so ``import proofs`` is cheap):

* ``run_catalogue(ids=None)`` -> ``CatalogueResult`` (``.results``, ``.ok``, ``.to_json()``)
* ``registry``: ``all_theorems()``, ``get(id)``, ``theorem_ids()``
* ``Theorem``, ``Obligation``, ``Verdict``, ``TRUSTED_RULES`` (vocabulary, ``proofs.catalogue.core``)
* ``BOUNDS``, ``bound(id)``, ``implies(claimed, bound_id)`` (``proofs.catalogue.bounds``)
* ``check_perceptron_trace``, ``check_winnow_trace`` (runtime monitors, ``proofs.catalogue.monitors``)
"""
from __future__ import annotations

import importlib

_LAZY = {
    "run_catalogue": "verify.runner", "CatalogueResult": "verify.runner",
    "Theorem": "catalogue.core", "Obligation": "catalogue.core", "Verdict": "catalogue.core",
    "TRUSTED_RULES": "catalogue.core", "Source": "catalogue.core",
    "BOUNDS": "catalogue.bounds", "bound": "catalogue.bounds", "implies": "catalogue.bounds",
    "check_perceptron_trace": "catalogue.monitors", "check_winnow_trace": "catalogue.monitors",
    "MonitorReport": "catalogue.monitors",
}

__all__ = sorted(_LAZY) + ["registry"]


def __getattr__(name):
    if name == "registry":
        return importlib.import_module("proofs.catalogue.registry")
    if name in _LAZY:
        return getattr(importlib.import_module(f"proofs.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'proofs' has no attribute {name!r}")
