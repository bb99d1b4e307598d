"""The catalogue: every theorem family module, in reading order, and lookup by id."""
from __future__ import annotations

import importlib

from .core import Theorem

FAMILIES = (
    "cauchy_schwarz",
    "claim1_correlation_growth",
    "claim2_norm_growth",
    "block_novikoff",
    "inseparable_hinge",
    "subgradient_descent",
    "winnow_bound",
    "kernel_closure",
    "sharper_hinge",
    "sharper_winnow",
    "perceptron_2d",
)

_CACHE: list[Theorem] | None = None


def all_theorems() -> list[Theorem]:
    global _CACHE
    if _CACHE is None:
        out: list[Theorem] = []
        seen = set()
        for fam in FAMILIES:
            try:
                mod = importlib.import_module(f"proofs.{fam}")
            except ModuleNotFoundError as e:
                if e.name == f"proofs.{fam}":
                    continue
                raise
            for th in mod.THEOREMS:
                if th.id in seen:
                    raise ValueError(f"duplicate theorem id {th.id}")
                seen.add(th.id)
                th.family = th.family or fam
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


def with_lemmas(ids) -> list[Theorem]:
    """The theorems named, plus (first) every theorem they use as a lemma, in catalogue order."""
    want: set[str] = set()
    stack = list(ids)
    while stack:
        i = stack.pop()
        if i in want:
            continue
        th = get(i)
        want.add(i)
        stack.extend(th.lemmas)
    return [t for t in all_theorems() if t.id in want]
