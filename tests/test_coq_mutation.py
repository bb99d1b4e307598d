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

from coq_support import require_coq

# Coq builds (copies of the session's build): not in the quick check; in the "coq" worker group
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("coq")]

TARGET, MODULE = "claim2_unit_examples", "Catalogue_vectors.v"
STEP_THEOREM, STEP = "cauchy_schwarz", "cauchy_schwarz_from_discriminant"
OTHER = "claim2_norm_growth"


def _swap(stmt_decl: str, replacement: str) -> dict:
    """Catalogue_vectors.v with the declaration of TARGET replaced (its proof kept under another name)."""
    text = (SRC / MODULE).read_text()
    decl = f"Theorem {TARGET} : {TARGET}_statement."
    assert decl in text
    return {MODULE: text.replace(decl, replacement + f"\nTheorem {TARGET}_kept : {stmt_decl}.")}


COUNTERPART_MUTANTS = {
    # the statement weakened to True
    "weakened_statement": lambda: _swap(f"{TARGET}_statement", f"Theorem {TARGET} : True.\nProof. exact I. Qed."),
    # the proof abandoned, then a weaker theorem of the same name
    "abort_then_weaker_theorem": lambda: _swap(
        f"{TARGET}_statement",
        f"Theorem {TARGET} : {TARGET}_statement.\nProof. Abort.\nTheorem {TARGET} : 0 = 0.\nProof. reflexivity. Qed."),
    # a local *_statement of the same name, trivially true
    "local_statement_redefinition": lambda: _swap(
        f"Mistakebound.Statements.{TARGET}_statement",
        f"Definition {TARGET}_statement : Prop := True.\nTheorem {TARGET} : {TARGET}_statement.\nProof. exact I. Qed."),
    # a notation of the same name
    "notation_statement_redefinition": lambda: _swap(
        f"Mistakebound.Statements.{TARGET}_statement",
        f"Notation {TARGET}_statement := True.\nTheorem {TARGET} : {TARGET}_statement.\nProof. exact I. Qed."),
}

STEP_MUTANTS = {
    # the step's tactic replaced by Abort and a weaker lemma of the same name
    "step_abort_then_weaker_lemma": f"Abort.\nLemma {STEP_THEOREM}__{STEP} : True.\nProof. exact I.",
    # the step's tactic replaced by Abort and nothing else of that name
    "step_abort_missing_lemma": f"Abort.\nLemma {STEP_THEOREM}__{STEP}_other : True.\nProof. exact I.",
}


@pytest.fixture(scope="module")
def base_dir(tmp_path_factory):
    require_coq()
    rep = build.build()
    assert rep.ok
    d = tmp_path_factory.mktemp("coqmut")
    shutil.copytree(build.default_build_dir(), d / "b", ignore=shutil.ignore_patterns(".lock"))
    return d / "b"


def _copy(base_dir, tmp_path):
    shutil.copytree(base_dir, tmp_path / "b", ignore=shutil.ignore_patterns(".lock"))
    return tmp_path / "b"


@pytest.mark.parametrize("kind", sorted(COUNTERPART_MUTANTS))
def test_coq_mutation_of_a_counterpart_is_rejected_by_coq(kind, base_dir, tmp_path):
    rep = build.build([TARGET, OTHER], build_dir=_copy(base_dir, tmp_path), sources=COUNTERPART_MUTANTS[kind](),
                      lexical=False)
    st = {t.id: t for t in rep.theorems}
    assert st[TARGET].status == build.FAILED, st[TARGET]
    assert TARGET in rep.check_errors or any(TARGET in a for a in rep.audit)
    assert "Coq" in st[TARGET].reason or "Search" in st[TARGET].reason, st[TARGET].reason
    assert not rep.ok
    assert set(rep.compiled) <= {MODULE}           # the copy's other files are reused, not rebuilt
    if kind != "local_statement_redefinition":
        assert st[OTHER].status == build.KERNEL_CHECKED
    # the refusal list, the second layer, also names those it can see (a weakened type it cannot)
    assert (build.audit_sources(dict(COUNTERPART_MUTANTS[kind]())) != []) == (kind != "weakened_statement")


@pytest.mark.parametrize("kind", sorted(STEP_MUTANTS))
def test_coq_mutation_of_a_step_tactic_is_rejected_by_coq(kind, base_dir, tmp_path, monkeypatch):
    from coq import hints
    monkeypatch.setitem(hints.HINTS, (STEP_THEOREM, STEP), STEP_MUTANTS[kind])
    rep = build.build([STEP_THEOREM], build_dir=_copy(base_dir, tmp_path), lexical=False)
    t = rep.theorems[0]
    assert t.status == build.KERNEL_CHECKED           # the counterpart itself is untouched
    assert STEP in t.steps_failed and t.steps_checked == t.steps_total - 1
    assert f"{STEP_THEOREM}__{STEP}" in rep.check_errors
    assert not rep.ok
    assert set(rep.compiled) <= {"Steps_vectors.v", "StepsDerived.v"}   # only what requires the edited file
    text = (tmp_path / "b" / "Steps_vectors.v").read_text()
    assert re.search(r"\bAbort\b", text) and build.audit_sources({"Steps_vectors.v": text}) != []


def test_coq_mutation_a_stray_statement_definition_is_found_by_coq_search(base_dir, tmp_path):
    """A *_statement defined in a hand-written file, used by nothing: only Coq's Search can see it
    (the type checks all pass), and the build fails."""
    text = (SRC / MODULE).read_text() + "\nModule Stray. Definition cauchy_schwarz_statement : Prop := True. End Stray.\n"
    rep = build.build([OTHER], build_dir=_copy(base_dir, tmp_path), sources={MODULE: text}, lexical=False)
    assert any("Search" in a and "cauchy_schwarz_statement" in a for a in rep.audit), rep.audit
    assert not rep.ok and rep.theorems[0].status == build.FAILED
    assert rep.compiled == [MODULE]
