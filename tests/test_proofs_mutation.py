"""Mutation tests of the catalogue: no edit of a proof or of a statement makes a false statement
verify as "proved" (``pytest -k mutation``).

The mutants are generated (``tests/catalogue_mutants.py``): every edit kind at every step of
every theorem, and edits of every stated hypothesis and conclusion.  Each outcome is one of
*build error* (the kernel refused the proof), *refuted*, *unknown*, or *proved*; "proved" is
accepted only for an unchanged statement (the edit left a valid proof) or for a statement the
original implies.  Set MISTAKEBOUND_MUTATION_REPORT=FILE to write the counts by kind and outcome.
"""
from __future__ import annotations

import collections
import json
import os

import pytest

from catalogue_mutants import (REVIEWED_TRUE, EditedProof, count_solve_calls, entailed, proof_edits,
                              statement_edits)
from proofs import registry
from proofs.core import BUILD_ERROR, PROVED
from proofs.runner import run_catalogue

THEOREMS = [t for t in registry.all_theorems() if t.kind == "theorem"]
COUNTS: dict = collections.defaultdict(collections.Counter)


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    path = os.environ.get("MISTAKEBOUND_MUTATION_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({k: dict(v) for k, v in sorted(COUNTS.items())}, fh, indent=1, sort_keys=True)


def _status(th, make_proof=None):
    return run_catalogue([th], make_proof=make_proof).by_id(th.id)


@pytest.mark.parametrize("th", THEOREMS, ids=[t.id for t in THEOREMS])
def test_mutation_proof_edits_never_prove_a_false_statement(th):
    n, sizes = count_solve_calls(th)
    assert n > 0, "every theorem's proof has at least one solver step"
    bad = []
    for edit in proof_edits(n, sizes):
        holder = {}

        def make(t, edit=edit):
            holder["p"] = EditedProof(t, edit)
            return holder["p"]
        r = _status(th, make)
        if not holder["p"].applied:
            continue
        kind = "proof:" + edit.kind.split(":")[0] + (":" + edit.kind.split(":")[1] if ":" in edit.kind else "")
        COUNTS[kind][r.status] += 1
        if edit.expect_build_error and r.status != BUILD_ERROR:
            bad.append(f"{edit.label()}: {r.status}, expected a build error")
        # a proof edit leaves the statement as it is: "proved" means a valid proof of a true statement
    assert not bad, "; ".join(bad)


@pytest.mark.parametrize("th", THEOREMS, ids=[t.id for t in THEOREMS])
def test_mutation_statement_edits_never_prove_a_false_statement(th):
    bad = []
    for edit in statement_edits(th):
        mutant = edit.apply(th)
        if mutant is None or mutant.statement == th.statement:
            continue
        r = _status(mutant)
        COUNTS["statement:" + edit.kind.replace("[", ":")][r.status] += 1
        if r.status == PROVED:
            e = entailed(th, mutant)
            reviewed = (th.id, edit.label()) in REVIEWED_TRUE
            COUNTS["statement:proved"]["implied by the original" if e == "yes" else
                                       "reviewed true" if reviewed else "NOT SHOWN TRUE"] += 1
            if e != "yes" and not reviewed:
                bad.append(f"{edit.label()}: proved, the original does not imply it ({e}), and it is not reviewed")
    assert not bad, "; ".join(bad)
