"""Every trusted rule proved in Coq, induction included: a step's hypothesis that rests on the
kernel's induction is derived in Coq from the base and step facts by the induction schema that
Rules.v proves with Coq's own induction (coq/rules_induction.py), and the rule instances under it
from their Rules.v lemmas.  An induction schema edited into a false one (base at 1, a step of two)
is still accepted by the kernel, whose goals come from the same edited function; Coq does not derive
it, and the report names the rule.  Skipped locally without coqc; in CI (CI=1) they run."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from coq import build, generate
from proofs.catalogue import registry

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("coq")]

# the rule families whose every use in the catalogue Coq derives (a regression names the family)
DERIVED_FAMILIES = {"induction", "finite_sum_linearity", "pow2_log2", "exp_laws", "exp_power_series",
                    "vector_sums", "exp_tangent", "natural_powers", "sqrt_def", "exp_quadratic"}


@pytest.fixture
def report(coq_report):
    return coq_report             # the session's one build (tests/conftest.py)


def test_no_trusted_rule_is_left_unproved_in_coq(report):
    """Per theorem, the trusted rules its proof rests on that Coq did not prove: none.  The count
    comes from what Coq checked (each step's corollary type-checked against its statement, its
    Print Assumptions read), not from a list in Python."""
    used = {r for t in report.theorems for r in t.rules_used}
    assert {"induction", "finite_sum_linearity"} <= used
    unproved = {t.id: t.rules_not_proved for t in report.theorems if t.rules_not_proved}
    assert unproved == {}
    assert used <= DERIVED_FAMILIES


def test_every_induction_is_derived_from_the_coq_induction_principle(report):
    """Each corollary of a step resting on an induction applies Rules.rule__induction__induction__N
    (proved by Coq's induction on nat) and Coq checked it on the allowed axioms."""
    bdir = build.default_build_dir()
    rules = (bdir / "Rules.v").read_text()
    proof = rules.split("Lemma rule__induction__induction__N :", 1)[1].split("Qed.", 1)[0]
    assert "induction j" in proof
    derived = (bdir / "StepsDerived.v").read_text()
    ind = re.findall(r"Lemma (\w+)__ind(\d+) :", derived)
    assert len(ind) >= 29
    assert derived.count("Rules.rule__induction__induction__N") >= len(ind)
    for name, _ in ind:
        assert f"{name}__derived" not in report.check_errors
        assert f"Lemma {name}__derived :" in derived


def _mutated_goals(monkeypatch, edit):
    """Replace proofs.kernel.kernel.induction_goals (and every module's imported copy) by ``edit`` of it."""
    from proofs.kernel import kernel
    registry.all_theorems()               # every proof module imported (and its copy replaced) first
    orig = kernel.induction_goals
    new = edit(orig)
    for mod in list(sys.modules.values()):
        if getattr(mod, "induction_goals", None) is orig:
            monkeypatch.setattr(mod, "induction_goals", new)


def _recon_probe(tmp_path, ids) -> tuple[str, int]:
    """The induction derivations of the given theorems' steps, alone in one probe: Coq's output, and
    how many were tried."""
    generate.generated_files([registry.get(i) for i in ids])
    cands = [c for c in generate.CANDIDATES if getattr(c, "recon", None)]
    for c in cands:
        c._alts = lambda k: []            # only the induction derivations
    bdir = build.default_build_dir()
    text = generate.probe_file(cands)
    n = text.count("MBNO")
    (bdir / "ChecksInductionTest.v").write_text(text)
    try:
        r = subprocess.run([build.find_coqc(), "-q", "-R", ".", "Mistakebound", "ChecksInductionTest.v"], cwd=bdir,
                           capture_output=True, text=True)
    finally:
        for f in bdir.glob("ChecksInductionTest.*"):
            f.unlink()
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout, n


@pytest.mark.parametrize("edit", ["none", "base_at_1", "step_of_two"])
def test_a_false_induction_schema_is_not_derived_in_coq(monkeypatch, tmp_path, report, edit):
    """The kernel's induction schema edited as a new contributor might (the base at 1, or the step
    from k to k + 2): the kernel accepts the proof, whose goals come from the edited function; Coq
    derives none of its inductions (and every one of the unedited schema)."""
    from proofs.language.formula import num
    from proofs.language.formula import Implies
    from proofs.language.substitution import subst
    from proofs.verify.runner import build as build_proof
    if edit == "base_at_1":
        _mutated_goals(monkeypatch, lambda g: lambda k, P, n: (subst(P, {k: num(1)}), g(k, P, n)[1]))
    elif edit == "step_of_two":
        _mutated_goals(monkeypatch, lambda g: lambda k, P, n: (g(k, P, n)[0],
                                                               Implies(g(k, P, n)[1].args[0], subst(P, {k: k + 2}))))
    ids = ["halving_bound"]
    assert not build_proof(registry.get(ids[0])).error       # the kernel is fooled by its own schema
    out, n = _recon_probe(tmp_path, ids)
    assert n >= 1
    ok = len(re.findall(r"MBOK \w+ \d+ 0", out))
    assert ok == (n if edit == "none" else 0), out
