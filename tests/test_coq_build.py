"""The whole catalogue kernel-checked in Coq: every counterpart compiles, states exactly the
generated statement, rests only on allowed axioms; every exported step closes; a false statement
(a mutated formula) is not kernel-checked.  Skipped locally without coqc; in CI (CI=1) they run."""
from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys

import pytest

from proofs import registry
from coq import build, export

from coq_support import require_coq
pytestmark = pytest.mark.slow       # minutes of work: not in the quick check (-m "not slow")


@pytest.fixture(scope="session")
def report():
    require_coq()
    return build.build()          # the default build directory: reused when nothing changed


def test_every_catalogue_theorem_is_kernel_checked(report):
    assert report.audit == []
    assert report.file_errors == {}
    bad = [(t.id, t.status, t.reason) for t in report.theorems if t.status != build.KERNEL_CHECKED]
    assert bad == []
    assert len(report.theorems) == len(registry.all_theorems())
    assert report.ok


def test_every_step_of_the_covered_families_is_kernel_checked(report):
    covered = [t for t in report.theorems if t.steps_required]
    assert covered and sum(t.steps_total for t in covered) > 0
    assert [(t.id, t.steps_failed, t.steps_unchecked, t.steps_not_exported) for t in covered if not t.steps_ok] == []
    assert all(t.steps_checked == t.steps_total for t in covered)


def test_axioms_are_the_listed_ones_and_at_most_three_beyond_the_reals(report):
    allowed = build.allowed_axioms()
    used = report.axioms_used()
    assert used and set(used) <= set(allowed)
    assert len([a for a in used if allowed[a] != "reals"]) <= 3
    # the standard reals' own axioms do appear: Print Assumptions was really read
    assert "ClassicalDedekindReals.sig_forall_dec" in used


def test_coq_statements_are_the_catalogues_formulas(report):
    text = (build.default_build_dir() / "Statements.v").read_text()
    for th in registry.all_theorems():
        assert f"Definition {th.id}_statement : Prop :=\n  {export.statement(th)}.\n" in text


def test_a_false_statement_is_not_kernel_checked(monkeypatch, tmp_path, report):
    """Strengthen block_novikoff_unit's conclusion to M <= 1/(2 gamma^2) (false: an orthonormal
    sequence makes floor(1/gamma^2) mistakes): its counterpart no longer compiles."""
    from proofs.perceptron_run import M, g
    ths = list(registry.all_theorems())
    i = next(j for j, t in enumerate(ths) if t.id == "block_novikoff_unit")
    ths[i] = dataclasses.replace(ths[i], conclusion=M <= 1 / (2 * g**2))
    monkeypatch.setattr(registry, "all_theorems", lambda: ths)
    monkeypatch.setattr(registry, "get", lambda tid: next(t for t in ths if t.id == tid))
    bdir = tmp_path / "coq"
    shutil.copytree(build.default_build_dir(), bdir, ignore=shutil.ignore_patterns(".lock"))
    rep = build.build(["block_novikoff_unit", "block_novikoff_radius", "cauchy_schwarz"], build_dir=bdir)
    st = {t.id: t for t in rep.theorems}
    assert st["block_novikoff_unit"].status == build.FAILED
    assert "Catalogue_block_novikoff.v" in st["block_novikoff_unit"].reason
    assert st["cauchy_schwarz"].status == build.KERNEL_CHECKED
    assert "Statements.v" in rep.compiled          # only what changed was rebuilt
    assert "VecLemmas.v" in rep.reused


def test_a_rebuild_reuses_every_compiled_file(report):
    rep = build.build()
    assert rep.compiled == [] and rep.ok


def test_verify_coq_cli(report):
    r = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--coq"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert sum(ln.startswith("kernel-checked ") for ln in lines) == len(registry.all_theorems())
    n = len(registry.all_theorems())
    assert f"{n}/{n} kernel-checked in Coq" in r.stdout and "0 Admitted" in r.stdout
    assert all(len(ln) <= 100 for ln in lines if ln.startswith("kernel-checked"))
    r = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--coq", "--theorem", "cauchy_schwarz",
                        "--json", "-"], capture_output=True, text=True)
    assert r.returncode == 0
    data = json.loads(r.stdout)
    assert [t["id"] for t in data["theorems"]] == ["cauchy_schwarz"]
    assert data["theorems"][0]["status"] == "kernel-checked" and data["theorems"][0]["axioms"]


@pytest.mark.slow
def test_coqchk_rechecks_the_whole_build(report):
    """Coq's independent checker re-typechecks every compiled file the checks rest on (guard and
    positivity included): only the allowed axioms, nothing unsafe."""
    from coq.checks import coqchk
    if shutil.which("coqchk") is None and not __import__("os").environ.get("CI"):
        pytest.skip("coqchk not installed")
    ok, msg = coqchk(build.default_build_dir(), build.allowed_axioms())
    assert ok, msg
    assert "sig_forall_dec" in msg


def test_every_trusted_rule_schema_has_a_coq_statement_and_the_report_names_the_unproved(report):
    from coq.rules_coq import rule_lemmas
    from proofs import rules
    lems = rule_lemmas()
    assert {(r, s) for _, r, s, _, _ in lems} >= {(r.id, s) for r in rules.RULES.values() for s in r.schemas}
    for t in report.theorems:
        assert set(t.rules_not_proved) <= set(t.rules_used)
    text = (build.default_build_dir() / "Rules.v").read_text()
    assert text.count("Lemma rule__") >= 25 and "Lemma rule__induction__induction" in text


def test_a_family_without_a_coq_counterpart_is_reported_not_crashed(monkeypatch, tmp_path, report):
    """A theorem family added to the catalogue before its Coq module: 'no Coq counterpart', the others
    kernel-checked, the run not failed by it."""
    ths = list(registry.all_theorems())
    cs = next(t for t in ths if t.id == "cauchy_schwarz")
    new = dataclasses.replace(cs, id="cauchy_schwarz_again", family="a_new_family", coq=None)
    ths.append(new)
    monkeypatch.setattr(registry, "all_theorems", lambda: ths)
    monkeypatch.setattr(registry, "get", lambda tid: next(t for t in ths if t.id == tid))
    bdir = tmp_path / "coq"
    shutil.copytree(build.default_build_dir(), bdir, ignore=shutil.ignore_patterns(".lock"))
    rep = build.build(["cauchy_schwarz_again", "cauchy_schwarz"], build_dir=bdir)
    st = {t.id: t for t in rep.theorems}
    assert st["cauchy_schwarz_again"].status == build.NO_COUNTERPART
    assert not st["cauchy_schwarz_again"].steps_required
    assert st["cauchy_schwarz"].status == build.KERNEL_CHECKED
    assert rep.ok
