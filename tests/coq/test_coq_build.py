"""The whole catalogue kernel-checked in Coq: every counterpart compiles, states exactly the
generated statement, rests only on allowed axioms; every exported step closes; a false statement
(a mutated formula) is not kernel-checked.  Skipped locally without coqc; in CI (CI=1) they run."""
from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess

import pytest

from proofs.catalogue import registry
from coq import build, export

from coq_support import copy_build, require_coq
# minutes of work: not in the quick check (-m "not slow"); one Coq build, shared by the "coq" group
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("coq")]


@pytest.fixture
def report(coq_report):
    return coq_report             # the session's one build (tests/conftest.py)


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


NEW_FAMILY = "erratum_claim2_strict_again"


@pytest.fixture(scope="module")
def statements_changed(coq_report, tmp_path_factory):
    """One build of a copy of the session's build with two changes to the catalogue, each judged on
    its own entry (both change Statements.v, so the files that require it are compiled once for
    both): block_novikoff_unit's conclusion strengthened to M <= 1/(2 gamma^2) (false: an
    orthonormal sequence makes floor(1/gamma^2) mistakes), and an entry of a family that has no Coq
    module yet (an erratum: no proof steps).  (report, the progress reports, the build directory)."""
    from proofs.catalogue.perceptron_run import M, g
    ths = list(registry.all_theorems())
    i = next(j for j, t in enumerate(ths) if t.id == "block_novikoff_unit")
    ths[i] = dataclasses.replace(ths[i], conclusion=M <= 1 / (2 * g**2))
    er = next(t for t in ths if t.id == "erratum_claim2_strict")
    ths.append(dataclasses.replace(er, id=NEW_FAMILY, family="a_new_family", coq=None))
    bdir = copy_build(tmp_path_factory.mktemp("coqstmt"))
    seen = []
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(registry, "all_theorems", lambda: ths)
        mp.setattr(registry, "get", lambda tid: next(t for t in ths if t.id == tid))
        rep = build.build(["block_novikoff_unit", "block_novikoff_radius", "cauchy_schwarz", NEW_FAMILY,
                           "erratum_claim2_strict"], build_dir=bdir, progress=lambda f, ok, cpu: seen.append((f, ok)))
    finally:
        mp.undo()
    return rep, seen, bdir


def test_a_false_statement_is_not_kernel_checked(statements_changed):
    """The strengthened (false) conclusion of block_novikoff_unit: its counterpart no longer compiles."""
    rep, seen, _ = statements_changed
    st = {t.id: t for t in rep.theorems}
    # one progress report per coqc run: each compiled file once, the failed one as failed
    assert sorted(f for f, ok in seen if ok and f != "Checks.v" and not f.startswith("ChecksProbe")) == sorted(rep.compiled)
    assert ("Catalogue_block_novikoff.v", False) in seen and len(seen) == len(set(seen))
    assert st["block_novikoff_unit"].status == build.FAILED
    assert "Catalogue_block_novikoff.v" in st["block_novikoff_unit"].reason
    assert st["cauchy_schwarz"].status == build.KERNEL_CHECKED
    assert "Statements.v" in rep.compiled          # only what changed was rebuilt
    assert "VecLemmas.v" in rep.reused
    assert not rep.ok


def test_a_rebuild_reuses_every_compiled_file(report):
    rep = build.build()
    assert rep.compiled == [] and rep.ok


def test_verify_coq_cli(verify_coq_runs):
    """The command a user runs, once for the whole catalogue (shared with the learner theorems' test:
    tests/conftest.py) and once for a selection."""
    r, data, sel = verify_coq_runs
    assert r.returncode == 0, r.stdout + r.stderr
    # not a terminal: a line per coqc run (here the checks only: every file is reused), no control codes
    assert "coqc Checks.v ok (" in r.stderr and "\r" not in r.stderr and "\033" not in r.stderr
    lines = r.stdout.splitlines()
    assert sum(ln.startswith("kernel-checked ") for ln in lines) == len(registry.all_theorems())
    n = len(registry.all_theorems())
    assert f"{n}/{n} kernel-checked in Coq" in r.stdout and "0 Admitted" in r.stdout
    assert all(len(ln) <= 100 for ln in lines if ln.startswith("kernel-checked"))
    assert [t["id"] for t in data["theorems"]] == [th.id for th in registry.all_theorems()]
    assert all(t["status"] == "kernel-checked" for t in data["theorems"])
    assert sel.returncode == 0, sel.stderr[-2000:]
    data = json.loads(sel.stdout)
    assert [t["id"] for t in data["theorems"]] == ["cauchy_schwarz"]       # the selection, and nothing else
    assert data["theorems"][0]["status"] == "kernel-checked" and data["theorems"][0]["axioms"]


def test_coqchk_rechecks_the_whole_build(report, capsys):
    """Coq's independent checker re-typechecks every compiled module of the development the checks
    rest on (guard and positivity included): only the allowed axioms, nothing unsafe.  The standard
    library is admitted as shipped with Coq (re-checking it is most of coqchk's time), and the
    report says so; `--full` re-checks it too (not run here: ~75 s of CPU)."""
    from coq.__main__ import main
    from coq.checks import development_modules
    if shutil.which("coqchk") is None and not __import__("os").environ.get("CI"):
        pytest.skip("coqchk not installed")
    # the README's command itself (`python -m coq coqchk`: a rebuild that reuses every file, then coqchk)
    code = main(["coqchk"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("coqchk passed"), out
    assert "sig_forall_dec" in out and "admitted as shipped with Coq" in out
    mods = development_modules(build.default_build_dir())
    assert f"checked {len(mods)} modules of Mistakebound" in out
    # every module of the development is among those checked, the generated ones included
    assert {"Mistakebound.Checks", "Mistakebound.Statements", "Mistakebound.Steps_vectors", "Mistakebound.Prelude",
            "Mistakebound.LearnerTheorems"} <= set(mods)
    assert not any(m.startswith("Coq.") for m in mods)


def test_coqchk_with_the_standard_library_admitted_still_finds_every_axiom(tmp_path):
    """An axiom declared in a module of the development, and an axiom of the standard library
    beyond the allowed list, are each named by coqchk with the standard library admitted."""
    from coq.checks import coqchk
    coqc = require_coq()
    if shutil.which("coqchk") is None and not __import__("os").environ.get("CI"):
        pytest.skip("coqchk not installed")
    allowed = build.allowed_axioms()
    cases = {
        "own": ("Require Import Coq.Reals.Reals.\nAxiom bad : forall x : R, (x = 0)%R.\n", "Mistakebound.A.bad"),
        "stdlib": ("Require Import Coq.Logic.ClassicalEpsilon.\nDefinition bad := constructive_indefinite_description.\n",
                   "Coq.Logic.ClassicalEpsilon.constructive_indefinite_description"),
        "allowed": ("Require Import Coq.Reals.Reals.\nDefinition bad := sqrt.\n", None),
    }
    for kind, (src, name) in cases.items():
        d = tmp_path / kind
        d.mkdir()
        (d / "A.v").write_text(src)
        (d / "Checks.v").write_text("Require Mistakebound.A.\nDefinition c := Mistakebound.A.bad.\n")
        for f in ("A.v", "Checks.v"):
            r = subprocess.run([coqc, "-q", "-R", ".", "Mistakebound", f], cwd=d, capture_output=True, text=True)
            assert r.returncode == 0, r.stdout + r.stderr
        ok, msg = coqchk(d, allowed)
        if name is None:
            assert ok and "sig_forall_dec" in msg and "admitted" in msg, msg
        else:
            assert not ok and name in msg, (kind, msg)


def test_every_trusted_rule_schema_has_a_coq_statement_and_the_report_names_the_unproved(report):
    from coq.rules_coq import rule_lemmas
    from proofs.kernel import rules
    lems = rule_lemmas()
    assert {(r, s) for _, r, s, _, _ in lems} >= {(r.id, s) for r in rules.RULES.values() for s in r.schemas}
    for t in report.theorems:
        assert set(t.rules_not_proved) <= set(t.rules_used)
    text = (build.default_build_dir() / "Rules.v").read_text()
    assert text.count("Lemma rule__") >= 25 and "Lemma rule__induction__induction" in text


# the schemas the Coq printer cannot state: a tensor power with an integer exponent (tpow takes a
# nat: an instance on a natural exponent uses the natural-number lemma), a vector sum over an
# integer index (Prelude.v has no such sum: no step can print one either)
UNPRINTABLE = {"rule__natural_powers__tensor_pow_succ", "rule__vector_sums__vsum_empty__Z",
               "rule__vector_sums__vsum_succ__Z", "rule__vector_sums__vsum_empty__Z__nat",
               "rule__vector_sums__vsum_succ__Z__nat"}


def test_every_printable_schema_of_every_trusted_rule_is_proved_in_coq(report):
    """Every schema of every trusted rule (the rules of the theorem modules included), in every
    variant the printer states, has a lemma in Rules.v that Coq checked against its statement."""
    from coq.rules_coq import rule_lemmas
    from proofs.kernel import rules
    lems = rule_lemmas()
    text = (build.default_build_dir() / "Rules.v").read_text()
    assert {r.id for r in rules.RULES.values()} >= {"induction", "exp_tangent", "exp_power_series",
                                                     "vector_sums", "natural_powers", "pow2_log2"}
    unprinted = {lem for lem, _, _, _, t in lems if t is None}
    assert unprinted <= UNPRINTABLE
    for r in rules.RULES.values():        # every schema has at least one proved statement
        for s in r.schemas:
            assert any(rid == r.id and name == s and t for _, rid, name, _, t in lems), (r.id, s)
    missing = [lem for lem, _, _, _, t in lems if t is not None and f"Lemma {lem} :" not in text]
    assert missing == []
    checked = [lem for lem, _, _, _, t in lems if t is not None and lem not in report.check_errors]
    assert len(checked) == len(lems) - len(unprinted) >= 70


def test_the_rules_every_use_of_which_coq_derives(report):
    """The exponential's tangent and the powers with a natural exponent are derived from their
    Rules.v lemmas in every step that uses them; the rules still reported are among those whose
    instances the printer normalises (or that sit inside an induction)."""
    reported = {r for t in report.theorems for r in t.rules_not_proved}
    used = {r for t in report.theorems for r in t.rules_used}
    assert {"exp_tangent", "natural_powers", "sqrt_def"} <= used - reported
    assert reported <= {"induction", "finite_sum_linearity", "pow2_log2", "vector_sums", "exp_power_series",
                        "exp_laws"}
    exp_mono = next(t for t in report.theorems if t.id == "exp_monotone")
    assert "exp_tangent" in exp_mono.rules_used and exp_mono.rules_not_proved == []


def test_a_false_rule_schema_is_not_proved_in_coq(monkeypatch, tmp_path, report):
    """A schema edited into a false one (the tangent moved up by one) is printed as it now reads,
    and its Rules.v proof fails in Coq."""
    from coq.rules_coq import rules_files
    from proofs.kernel import rules
    from proofs.language.functions import exp
    r = rules.RULES["exp_tangent"]
    sorts, _ = r.schemas["exp_ge_tangent"]
    monkeypatch.setitem(r.schemas, "exp_ge_tangent", (sorts, lambda a: 2 + a <= exp(a)))
    files, proved = rules_files()
    assert "((2 + a0) <= (exp a0))" in files["RuleStatements.v"]
    bdir = build.default_build_dir()
    for f in ("Axioms", "Prelude", "VecLemmas", "Kernels", "Gaussian", "RulesLib"):
        shutil.copy(bdir / f"{f}.vo", tmp_path / f"{f}.vo")
    for name in ("RuleStatements.v", "Rules.v"):
        (tmp_path / name).write_text(files[name])
    coqc = build.find_coqc()
    run = lambda f: subprocess.run([coqc, "-q", "-R", ".", "Mistakebound", f], cwd=tmp_path,
                                   capture_output=True, text=True)
    assert run("RuleStatements.v").returncode == 0
    out = run("Rules.v")
    assert out.returncode != 0
    import re
    line = int(re.search(r"line (\d+)", out.stdout + out.stderr).group(1))
    failed = "\n".join(files["Rules.v"].splitlines()[:line]).split("Lemma ")[-1]
    assert failed.startswith("rule__exp_tangent__exp_ge_tangent :")


def test_a_family_without_a_coq_counterpart_is_reported_not_crashed(statements_changed):
    """A family added to the catalogue before its Coq module: 'no Coq counterpart', the others
    kernel-checked, the run not failed by it (the report without the deliberately false entry of the
    same build, and the entries whose steps share its step file, is ok)."""
    rep, _, bdir = statements_changed
    st = {t.id: t for t in rep.theorems}
    assert st[NEW_FAMILY].status == build.NO_COUNTERPART
    assert not st[NEW_FAMILY].steps_required
    assert f"{NEW_FAMILY}_statement" in (bdir / "Statements.v").read_text()
    assert st["erratum_claim2_strict"].status == build.KERNEL_CHECKED
    assert st["cauchy_schwarz"].status == build.KERNEL_CHECKED
    rest = dataclasses.replace(rep, theorems=[st[NEW_FAMILY], st["erratum_claim2_strict"]])
    assert rest.ok
    assert not dataclasses.replace(rest, theorems=rest.theorems + [st["block_novikoff_unit"]]).ok


def test_the_files_that_require_nothing_generated_compile_first_and_the_long_chains_lead(tmp_path):
    """While the statements are generated, only the hand-written files whose every Require is
    hand-written compile; a file that generated work will wait on starts before a leaf."""
    from coq import compile as cc
    files = {"A.v": "Require Import Mistakebound.B.", "B.v": "(* Require Mistakebound.Gen. *)",
             "C.v": "Require Import Mistakebound.Gen.", "D.v": "Require Mistakebound.C.", "E.v": ""}
    assert sorted(cc.self_contained(files)) == ["A.v", "B.v", "E.v"]
    early = cc.self_contained(files)
    seq, deps = cc.order(early)
    assert cc._by_critical_path(seq, deps, tmp_path, {"E.v": 30.0})[0] == "E.v"
    assert cc._by_critical_path(seq, deps, tmp_path)[0] == "B.v"      # A waits on it


def test_the_derived_step_lemmas_reuse_the_probes_instances(report):
    """Each rule instance the probe derives is a lemma of its own, kept by Coq (the probe ends with
    Defined), and the step's corollary takes it from there instead of running the tactic again;
    the step statements are one file, the rule-instance probe more than one."""
    from coq import generate
    bdir = build.default_build_dir()
    derived = (bdir / "StepsDerived.v").read_text()
    assert "Mistakebound.ChecksProbe_" in derived and "mbr_bridge" not in derived and "mb_rule" not in derived
    probes = sorted(p.name for p in bdir.glob("ChecksProbe_*.v"))
    assert len(probes) == generate.PROBE_FILES >= 2
    used = set(re.findall(r"Mistakebound\.(ChecksProbe_\d+)\.(\w+__mbI\d+_\d+)", derived))
    assert used
    for mod, lem in used:
        assert f"using {lem})" in (bdir / f"{mod}.v").read_text()
    assert (bdir / f"{generate.STEP_STATEMENTS}.v").exists()
    assert not [p for p in bdir.glob("StepStatements_*.v") if p.stem not in (generate.STEP_STATEMENTS,
                                                                              "StepStatements_derived")]
    steps = sorted(p.name for p in bdir.glob("Steps_*.v"))
    assert 2 <= len(steps) <= 8, steps          # the small families share a file


def test_abstracted_probe_instances_are_checked_and_a_failed_one_is_not_kept(tmp_path):
    """The mechanism the derived lemmas rely on: a lemma abstracted inside the probe is declared
    (type-checked by the kernel) only when its alternative succeeded; a failed alternative's name
    does not exist, so a corollary naming it does not compile."""
    require_coq()
    (tmp_path / "P.v").write_text(
        "Require Import Reals Lra.\nOpen Scope R_scope.\nLemma mb_probe : True.\nProof.\n"
        "  first [ assert (forall x : R, x * 1 = x + 1) by (abstract (intros; lra) using bad_0) | idtac ].\n"
        "  first [ assert (forall x : R, x * 1 = x) by (abstract (intros; lra) using good_0) | idtac ].\n"
        "  exact I.\nDefined.\n")
    (tmp_path / "Q.v").write_text("Require Import Reals.\nRequire T.P.\nCheck T.P.good_0.\n")
    (tmp_path / "R.v").write_text("Require Import Reals.\nRequire T.P.\nCheck T.P.bad_0.\n")
    run = lambda f: subprocess.run([build.find_coqc(), "-q", "-R", ".", "T", f], cwd=tmp_path,
                                   capture_output=True, text=True)
    assert run("P.v").returncode == 0
    assert run("Q.v").returncode == 0
    r = run("R.v")
    assert r.returncode != 0 and "bad_0" in r.stdout + r.stderr


def test_coqchk_checks_every_module_the_checks_rest_on(tmp_path):
    """The modules coqchk checks (-norec each) are the Require closure of Checks.v, the
    `From Mistakebound Require` form included; a file nothing requires is not among them."""
    from coq.checks import development_modules
    (tmp_path / "Checks.v").write_text("From Mistakebound Require Import A B.\nRequire Mistakebound.C.\n")
    (tmp_path / "A.v").write_text("(* Require Mistakebound.E. *) From Mistakebound Require D.\n")
    for f in "BCDE":
        (tmp_path / f"{f}.v").write_text("")
    assert development_modules(tmp_path) == [f"Mistakebound.{m}" for m in ("A", "B", "C", "Checks", "D")]
