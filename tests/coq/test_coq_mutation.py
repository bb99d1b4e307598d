"""Mutants of the Coq side, each rejected by Coq itself (the lexical refusal list is switched off for
them): a counterpart whose statement is weakened, abandoned with Abort and restated weaker, or
stated against a local redefinition of its *_statement; a step lemma whose tactic is replaced by
Abort and a weaker lemma of the same name, or by nothing at all.  Each must leave its entry not
kernel-checked (or its step not counted), and the untouched entries kernel-checked."""
from __future__ import annotations

import re
import shutil

import pytest

from coq import build
from coq.build import SRC


# Coq builds (copies of the session's build): not in the quick check; in the "coq" worker group
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("coq")]

TARGET, MODULE = "claim2_unit_examples", "Catalogue_vectors.v"
OTHER = "claim2_norm_growth"
# (theorem, step) of the step mutants: both in the vectors step file, one mutant each
STEP_TARGETS = {"step_abort_then_weaker_lemma": ("cauchy_schwarz", "cauchy_schwarz_from_discriminant"),
                "step_abort_missing_lemma": ("claim2_norm_growth", "norm_sq_update_misclassified")}


def _swap(text: str, target: str, stmt_decl: str, replacement: str) -> str:
    """The module's text with the declaration of ``target`` replaced (its proof kept under another name)."""
    decl = f"Theorem {target} : {target}_statement."
    assert decl in text
    return text.replace(decl, replacement + f"\nTheorem {target}_kept : {stmt_decl}.")


COUNTERPART_MUTANTS = {     # kind -> target -> (the kept proof's statement, the replacement)
    # the statement weakened to True
    "weakened_statement": lambda t: (f"{t}_statement", f"Theorem {t} : True.\nProof. exact I. Qed."),
    # the proof abandoned, then a weaker theorem of the same name
    "abort_then_weaker_theorem": lambda t: (
        f"{t}_statement", f"Theorem {t} : {t}_statement.\nProof. Abort.\nTheorem {t} : 0 = 0.\nProof. reflexivity. Qed."),
    # a local *_statement of the same name, trivially true
    "local_statement_redefinition": lambda t: (
        f"Mistakebound.Statements.{t}_statement",
        f"Definition {t}_statement : Prop := True.\nTheorem {t} : {t}_statement.\nProof. exact I. Qed."),
    # a notation of the same name
    "notation_statement_redefinition": lambda t: (
        f"Mistakebound.Statements.{t}_statement",
        f"Notation {t}_statement := True.\nTheorem {t} : {t}_statement.\nProof. exact I. Qed."),
}
# The mutants Coq rejects entry by entry are compiled together, each on its own theorem of the module
# (Checks.v judges every entry on its own: a rejected one is dropped and the rest checked again);
# a local *_statement is found by Coq's Search, which fails the whole build: it is built apart, with
# the stray definition below (Search names each of the two).
TOGETHER = {"weakened_statement": "claim2_unit_examples", "abort_then_weaker_theorem": "claim1_margin_one",
            "notation_statement_redefinition": "claim1_correlation_growth"}
ALONE = {"local_statement_redefinition": TARGET}


# a *_statement defined in a hand-written file, used by nothing: only Coq's Search can see it
STRAY = "\nModule Stray. Definition cauchy_schwarz_statement : Prop := True. End Stray.\n"


def _mutant_source(kinds: dict, stray: bool = False) -> dict:
    text = (SRC / MODULE).read_text()
    for kind, target in kinds.items():
        text = _swap(text, target, *COUNTERPART_MUTANTS[kind](target))
    return {MODULE: text + (STRAY if stray else "")}


STEP_MUTANTS = {
    # the step's tactic replaced by Abort and a weaker lemma of the same name
    "step_abort_then_weaker_lemma": lambda th, st: f"Abort.\nLemma {th}__{st} : True.\nProof. exact I.",
    # the step's tactic replaced by Abort and nothing else of that name
    "step_abort_missing_lemma": lambda th, st: f"Abort.\nLemma {th}__{st}_other : True.\nProof. exact I.",
}


@pytest.fixture(scope="module")
def base_dir(coq_report):
    assert coq_report.ok          # the session's one build (tests/conftest.py), copied for each mutant build
    return build.default_build_dir()


def _copy(base_dir, dest):
    shutil.copytree(base_dir, dest / "b", ignore=shutil.ignore_patterns(".lock"))
    return dest / "b"


@pytest.fixture(scope="module")
def counterpart_builds(base_dir, tmp_path_factory):
    """kinds -> (the report of one build with those mutants, its build directory), made when first asked."""
    made = {}

    def get(kinds: dict):
        key = tuple(sorted(kinds))
        if key not in made:
            d = _copy(base_dir, tmp_path_factory.mktemp("coqmut"))
            ids = list(kinds.values()) + [OTHER]
            made[key] = build.build(ids, build_dir=d, sources=_mutant_source(kinds, stray=kinds is ALONE),
                                    lexical=False)
        return made[key]
    return get


@pytest.mark.parametrize("kind", sorted(COUNTERPART_MUTANTS))
def test_coq_mutation_of_a_counterpart_is_rejected_by_coq(kind, counterpart_builds):
    group = TOGETHER if kind in TOGETHER else ALONE
    target = group[kind]
    rep = counterpart_builds(group)
    st = {t.id: t for t in rep.theorems}
    assert st[target].status == build.FAILED, st[target]
    assert target in rep.check_errors or any(target in a for a in rep.audit)
    assert "Coq" in st[target].reason or "Search" in st[target].reason, st[target].reason
    assert not rep.ok
    assert set(rep.compiled) <= {MODULE}           # the copy's other files are reused, not rebuilt
    if kind != "local_statement_redefinition":
        assert st[OTHER].status == build.KERNEL_CHECKED
        # Coq rejected this entry itself (its check), not the build as a whole
        assert target in rep.check_errors and not rep.audit and MODULE not in rep.file_errors
    # the refusal list, the second layer, also names those it can see (a weakened type it cannot)
    assert (build.audit_sources(_mutant_source({kind: target})) != []) == (kind != "weakened_statement")


@pytest.fixture(scope="module")
def step_build(base_dir, tmp_path_factory):
    """One build with both step mutants, each on its own step lemma of Steps_vectors.v."""
    from coq import hints
    mp = pytest.MonkeyPatch()
    try:
        for kind, (th, st) in STEP_TARGETS.items():
            mp.setitem(hints.HINTS, (th, st), STEP_MUTANTS[kind](th, st))
        d = _copy(base_dir, tmp_path_factory.mktemp("coqstep"))
        rep = build.build(sorted({th for th, _ in STEP_TARGETS.values()}), build_dir=d, lexical=False)
    finally:
        mp.undo()
    return rep, d


@pytest.mark.parametrize("kind", sorted(STEP_MUTANTS))
def test_coq_mutation_of_a_step_tactic_is_rejected_by_coq(kind, step_build):
    rep, d = step_build
    th, step = STEP_TARGETS[kind]
    t = next(t for t in rep.theorems if t.id == th)
    assert t.status == build.KERNEL_CHECKED           # the counterpart itself is untouched
    assert t.steps_failed == [step] and t.steps_checked == t.steps_total - 1
    assert f"{th}__{step}" in rep.check_errors
    assert not rep.ok
    assert set(rep.compiled) <= {"Steps_vectors.v", "StepsDerived.v"}   # only what requires the edited file
    text = (d / "Steps_vectors.v").read_text()
    assert STEP_MUTANTS[kind](th, step) in text
    assert re.search(r"\bAbort\b", text) and build.audit_sources({"Steps_vectors.v": text}) != []


def test_coq_mutation_a_stray_statement_definition_is_found_by_coq_search(counterpart_builds):
    """A *_statement defined in a hand-written file, used by nothing: only Coq's Search can see it
    (the type checks all pass), and the build fails.  (Built with the local redefinition of
    claim2_unit_examples_statement: Search names each.)"""
    rep = counterpart_builds(ALONE)
    assert any("Search" in a and "cauchy_schwarz_statement" in a for a in rep.audit), rep.audit
    assert any("Search" in a and f"{TARGET}_statement" in a for a in rep.audit)     # and the local one
    st = {t.id: t for t in rep.theorems}
    assert not rep.ok and st[OTHER].status == build.FAILED
    assert rep.compiled == [MODULE]
