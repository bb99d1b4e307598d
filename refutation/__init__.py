"""Refutation: check a stated kernel or a stated mistake bound — a proof, or a counterexample
that is re-checked exactly.  The Python API used by the command line (``mistakebound kernel``,
``mistakebound check-bound``) and by grading (theory questions).

>>> from refutation import check_kernel, check_bound
>>> check_kernel("(1 + dot(x, y))**2").status
'legal'
>>> v = check_kernel("norm(x - y)**2")
>>> v.status, v.certificate["points"], v.certificate["quadratic_form"]
('illegal', [['0'], ['1']], '-2')
>>> check_bound("perceptron", "1/gamma**2").status
'holds'
>>> r = check_bound("perceptron", "< R**2*W**2")
>>> r.status, r.mistakes, r.claimed_value
('refuted', 1, '1')

>>> check_kernel("min(x, y)", dim=1, domain="nonneg").derivation[-1]["rule"]
'brownian'
>>> check_kernel("max(dot(x, y), 0)").certificate["dimension"]
2

``check_kernel(expr, dim=None, *, budget=5.0, domain="real") -> KernelVerdict``
    ``dim``: None = every dimension, 1 = x and y are numbers, D = x, y in R^D; ``domain``:
    ``real``, ``nonneg`` (coordinates >= 0) or ``positive`` (> 0).
    ``status`` in {"legal", "illegal", "unknown"}; ``derivation`` (list of closure-rule steps,
    each ``{"step", "kernel", "rule", "rule_text", "from", "note", "trusted"}``), ``trusted``
    (named trusted rules and cited theorems used), ``certificate`` (``points`` as "p/q" strings,
    exact ``gram``, rational ``vector`` v and ``quadratic_form`` v^T G v < 0, ``method``,
    ``dimension``), ``tried``, ``domain``, ``dimension``, ``exit_code`` (0 / 1 / 3),
    ``to_json()``, ``explain()``.

``check_bound(algorithm, expr, *, budget=20.0, variant="halve", setting="auto", out=None) -> BoundVerdict``
    ``status`` in {"holds", "refuted", "unknown"}; ``theorems`` and ``catalogue_status`` (holds),
    ``sequence`` (an :class:`adversary.sequence.Sequence`), ``mistakes``, ``quantities``,
    ``claimed_value``, ``comparison`` (refuted), ``searched`` (what was tried), ``exit_code``
    (0 / 1 / 3), ``to_json()``, ``explain()``.  ``out`` writes the refuting sequence file.

Both raise :class:`learners.errors.InputError` (one line, naming the position for parse errors)
on bad input.  Neither ever answers from floats alone: "illegal" and "refuted" are certified in
exact arithmetic (or rigorous interval arithmetic for transcendental values, named in the
verdict), "legal" by closure rules checked in sympy plus the named trusted rule
``power-series-limit`` and the named cited theorems of :mod:`refutation.kernel_rules`, "holds"
by a z3 ``unsat`` over theorems the catalogue proves.

Exports are lazy so that importing one module of the package does not import the others.
"""
from __future__ import annotations

import importlib

_HOME = {name: "bound_check" for name in ("ALGORITHMS", "BoundVerdict", "check_bound", "evaluate_claim",
                                          "instance_quantities", "quantity_symbols")}
_HOME.update({name: "kernel_legality" for name in ("TRUSTED_INTERVALS", "TRUSTED_POWER_SERIES", "KernelVerdict",
                                                   "check_kernel", "evaluate_kernel_exact", "gram_exact")})

__all__ = ["check_kernel", "KernelVerdict", "check_bound", "BoundVerdict", "ALGORITHMS",
           "quantity_symbols", "evaluate_claim", "instance_quantities", "gram_exact",
           "evaluate_kernel_exact", "TRUSTED_POWER_SERIES", "TRUSTED_INTERVALS"]


def __getattr__(name):
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
