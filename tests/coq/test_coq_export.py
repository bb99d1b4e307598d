"""The formula-to-Coq printer and the build's pure parts (no Coq needed)."""
from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from proofs.catalogue import registry
from coq import build, names
from coq.export import CoqPrinter, ExportError, statement, step_statement
from proofs.language.formula import (And, Eq, ForAll, Implies, Int, Ite, Nat, Real, Seq, Sum, Vec, VEC, REAL, dot,
                            forall_below, num, vzero)
from proofs.language.functions import Abs, Max, lg, pow2, sqrt
from proofs.language.substitution import subst


def test_block_novikoff_statement_is_printed_from_its_formula():
    s = statement(registry.get("block_novikoff_unit"))
    assert s.startswith("forall (dim : nat) (M : nat) (g : R) (u : Vec) (w : nat -> Vec) (x : nat -> Vec) (y : nat -> R),")
    assert "(veq dim (w (0)%nat) vzero) ->" in s
    assert ("(forall (k : nat), (((0 <= k)%nat /\\ (k < M)%nat) -> (veq dim (w ((k + 1))%nat) "
            "(vadd (w (k)%nat) (smul (y (k)%nat) (x (k)%nat))))))") in s
    assert s.endswith("((INR (M)%nat) <= (1 / (g ^ 2)))")


def test_every_catalogue_statement_and_step_exports():
    files, steps, errors = build.generated_files(registry.all_theorems())
    assert errors == {}
    not_exported = [(t, sid, why) for t, rows in steps.items() for sid, lem, why in rows if lem is None]
    assert not_exported == []
    for th in registry.all_theorems():
        assert f"Definition {th.id}_statement : Prop :=\n  {statement(th)}.\n" in files["Statements.v"]


def test_every_catalogue_theorem_has_a_declared_counterpart():
    from coq.build import SRC
    from coq.compile import strip_comments as _strip_comments
    for th in registry.all_theorems():
        cn = names.coq_name(th.id)
        assert cn is not None, th.id
        mod, short = cn.split(".")
        text = _strip_comments((SRC / f"{mod}.v").read_text())
        want = ("~ " if th.kind == "erratum" else "") + f"{th.id}_statement."
        assert f"Theorem {short} : {want}" in text, th.id


def test_the_catalogue_entry_names_its_coq_counterpart():
    from coq.build import SRC
    from proofs.catalogue.core import TheoremResult
    for th in registry.all_theorems():
        mod, short = th.coq.split(".")
        assert short == th.id and (SRC / f"{mod}.v").is_file(), th.id
        assert names.coq_name(th.id) == th.coq
        assert TheoremResult(theorem=th).to_json()["coq"] == th.coq
    page = (Path(__file__).resolve().parents[2] / "docs" / "catalogue.md").read_text()
    for th in registry.all_theorems():
        assert f"*Coq:* `{th.coq}`" in page, th.id


def test_sum_over_naturals_from_an_integer_bound():
    # splitting sum_{i<n} at r gives sum_{i=r-1+1..n-1}: an integer bound, printed as the natural r
    # when it is one, else as Z.to_nat of it (the naturals from the bound on)
    r, n, i, j = Nat("r"), Nat("n"), Nat("i"), Int("j")
    w = Seq("w", REAL)
    s = step_statement([], Sum(i, (r - 1) + 1, n - 1, w(i)) >= 0)  # r - 1 + 1 is an Int term
    assert "(sum_incl (r)%nat" in s, s
    s2 = step_statement([], Sum(i, j - 2, n - 1, w(i)) >= 0)
    assert "(sum_incl (Z.to_nat ((j - 2))%Z)" in s2, s2


def test_sorts_and_names():
    R_, k, M = Real("R"), Nat("k"), Nat("M")
    w = Seq("w", VEC)
    s = step_statement([Eq(w(k + 1), w(k))], dot(w(M), w(M)) <= R_**2)
    assert "(R_ : R)" in s and "(w : nat -> Vec)" in s and s.startswith("forall (dim : nat)")
    i = Int("i")
    assert "(i : Z)" in step_statement([], i + 1 > 0)
    assert "(Rabs x)" in step_statement([], Abs(Real("x")) >= 0)
    assert "(Rmax 0 x)" in step_statement([], Max(0, Real("x")) >= 0)
    assert "(lg x)" in step_statement([], lg(Real("x")) >= 0)
    assert "(pow2 (k)%nat)" in step_statement([], pow2(k) > 0)
    assert "(pow2Z (i)%Z)" in step_statement([], pow2(i) > 0)
    assert "(sqrt x)" in step_statement([], sqrt(Real("x")) >= 0)
    c = Ite(Real("x") <= 0, 1, 2)
    assert "(if (Rle_b (x)%R (0)%R) then 1 else 2)" in step_statement([], c >= 1)
    assert "(1 / 2)" in step_statement([], Real("x") >= num(Fraction(1, 2)))
    assert "(- 3 / 4)" in step_statement([], Real("x") >= num(Fraction(-3, 4)))


def test_integer_terms_print_in_canonical_form():
    k, M = Nat("k"), Nat("M")
    y = Seq("y", REAL)
    # k - 1 + 1 is k: the same index as y(k), a natural number
    s = step_statement([Eq(y(k - 1 + 1), 0)], Eq(y(k), 0))
    assert s.count("(y (k)%nat)") == 2
    # a genuinely integer index makes the sequence Z-indexed in that statement
    s = step_statement([], Eq(y(k - 1), 0))
    assert "(y : Z -> R)" in s and "(y (((Z.of_nat k) - 1))%Z)" in s
    # an integer substituted for a natural variable: the comparison is printed over Z
    f = subst(k + 1 < M, {k: M - 2})
    assert "(((Z.of_nat M) - 1) < (Z.of_nat (M)%nat))%Z" in step_statement([], f)


def test_sums_are_inclusive():
    i, M = Nat("i"), Nat("M")
    y = Seq("y", REAL)
    s = step_statement([], Sum(i, 0, M - 1, y(i)) >= 0)
    assert "(sum_incl (0)%nat (((Z.of_nat M) - 1))%Z (fun i : nat => (y (i)%nat)))" in s


def test_vector_equations_mean_equality_in_the_space():
    w, u = Vec("w"), Vec("u")
    s = step_statement([Eq(w, u)], dot(w, w) >= 0)
    assert "(veq dim w u)" in s and "(dot dim w w)" in s and s.startswith("forall (dim : nat)")


def test_vectors_of_a_feature_space_get_their_own_dimension():
    from proofs.language.formula import Fun
    phi = Fun("phi", (VEC,), VEC)
    x, z = Vec("x"), Vec("z")
    s = step_statement([], Eq(dot(phi(x), phi(z)), dot(x, z) * 0 + dot(phi(x), phi(z))))
    assert "(dot dim_phi (phi x) (phi z))" in s and "(dot dim x z)" in s
    assert "(dim : nat) (dim_phi : nat)" in s and "(phi : Vec -> Vec)" in s


def test_untranslatable_formulas_are_refused():
    a, b = Vec("a"), Vec("b")
    with pytest.raises(ExportError):                 # a vector equation as an if-then-else condition
        step_statement([], Ite(Eq(a, b), 1, 0) >= 0)
    with pytest.raises(ExportError):                 # a sequence read at a non-natural index, as nat
        CoqPrinter().N(Int("j") - 1)


def test_audit_finds_gaps_and_declared_assumptions():
    ok = {"A.v": "(* Admitted in a comment, Axiom too *)\nRequire Import Mistakebound.Axioms.\nLemma x : True.\nProof. exact I. Qed.\n"}
    assert build.audit_sources(ok) == []
    for bad in ("Lemma x : False.\nProof. Admitted.", "Lemma x : False.\nProof. admit. Qed.",
                "Axiom ex : False.", "Parameter p : nat.", "Hypothesis h : False.", "Variable v : nat.",
                "Context (v : nat)."):
        problems = build.audit_sources({"B.v": bad})
        assert problems and problems[0].startswith("B.v:"), bad
    assert build.audit_sources({"Axioms.v": "Axiom ex : True."}) == []


def test_print_assumptions_is_parsed():
    assert build._parse_assumptions("Closed under the global context\n") == []
    out = ("Axioms:\nClassicalDedekindReals.sig_not_dec : forall P : Prop, {~ ~ P} + {~ P}\n"
           "FunctionalExtensionality.functional_extensionality_dep\n  : forall (A : Type) (B : A -> Type),\n"
           "    (forall x : A, f x = g x) -> f = g\n")
    assert build._parse_assumptions(out) == ["ClassicalDedekindReals.sig_not_dec",
                                             "FunctionalExtensionality.functional_extensionality_dep"]
    assert build._parse_assumptions("garbage") is None


def test_allowed_axioms_are_the_reals_and_at_most_three_more():
    allowed = build.allowed_axioms()
    assert sorted(a for a, k in allowed.items() if k == "reals") == [
        "ClassicalDedekindReals.sig_forall_dec", "ClassicalDedekindReals.sig_not_dec",
        "FunctionalExtensionality.functional_extensionality_dep"]
    assert sum(1 for k in allowed.values() if k != "reals") <= 3


def test_verify_coq_without_coq_is_one_line_and_exit_3(tmp_path):
    env = dict(os.environ, MISTAKEBOUND_COQC=str(tmp_path / "no-coqc"))
    r = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--coq"], capture_output=True, text=True,
                       env=env)
    assert r.returncode == 3
    lines = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("coq not installed")


def test_verify_coq_refuses_bad_input():
    r = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--coq", "--theorem", "no_such_theorem"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "unknown theorem id" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--coq", "--latex", "x.tex"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "cannot be combined" in r.stderr


def test_verify_coq_names_the_step_that_did_not_close_and_the_steps_not_reached(monkeypatch, capsys):
    """A step file stops at its first failing step: that step is named, the later ones are said
    not to be reached, and the run fails (exit 1)."""
    from mistakebound.cli import main

    def fake_build(ids=None, **kw):
        rep = build.CoqReport(available=True, version="8.16.1", allowed={"R.ax": "reals"}, build_dir="/b")
        a = build.TheoremCoq("a", "theorem", "M.a", build.KERNEL_CHECKED, axioms=["R.ax"], steps_total=2,
                             steps_checked=1, steps_failed=["s2"])
        b = build.TheoremCoq("b", "theorem", "M.b", build.KERNEL_CHECKED, axioms=["R.ax"], steps_total=3,
                             steps_unchecked=["t1", "t2", "t3"])
        rep.theorems = [a, b]
        return rep

    monkeypatch.setattr(build, "find_coqc", lambda: "/usr/bin/coqc")
    monkeypatch.setattr(build, "build", fake_build)
    with pytest.raises(SystemExit) as ex:
        main(["verify", "--coq", "-q"])
    assert ex.value.code == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("steps 1/2  step not closed: s2")
    assert lines[1].endswith("steps 0/3  3 step(s) not reached: an earlier step in the same step file did not close")
    # (the comparison of the learners runs too, here on a build directory that holds none)
    assert lines[2].startswith("differential") and lines[3].startswith("FAILED") and "steps 1/5" in lines[3]
    assert lines[4] == "trusted rules not proved in Coq: 0" and lines[5].endswith("FAILED")


def test_every_hint_belongs_to_a_step_of_the_catalogue():
    from coq.hints import HINTS
    from proofs.verify.runner import build as build_proof
    steps = set()
    for th in registry.all_theorems():
        if th.kind == "theorem":
            steps |= {(th.id, st.id) for st in build_proof(th).proof.steps}
    assert set(HINTS) <= steps


def test_every_winnow_hint_belongs_to_a_step_of_the_winnow_theorems():
    from coq.hints_winnow import WINNOW_FAMILIES, WINNOW_STEP_HINTS
    from proofs.verify.runner import build as build_proof
    winnow = [th for th in registry.all_theorems() if th.family in WINNOW_FAMILIES and th.kind == "theorem"]
    steps = {st.id for th in winnow for st in build_proof(th).proof.steps}
    # (before the Winnow family is in the catalogue (branch winnow-port) there is nothing to check)
    assert not winnow or set(WINNOW_STEP_HINTS) <= steps


def test_refused_commands_are_found_outside_comments_and_strings():
    from coq.checks import refused_commands
    ok = {"A.v": '(* Abort, Unset Guard Checking, Declare ML Module in a comment *)\nLemma x : True.\n'
                 'Proof. idtac "Abort". exact I. Qed.\n',
          "Statements.v": "Definition a_statement : Prop := True.\n",
          "C.v": "Theorem a : a_statement.\nProof. unfold a_statement. exact I. Qed.\n"}
    assert refused_commands(ok) == []
    for bad in ("Lemma x : False.\nProof. Abort.", "Unset Guard Checking.", "Local Unset Universe Checking.",
                "#[bypass_check(guard)] Fixpoint f (n : nat) : False := f n.", "Declare ML Module \"evil\".",
                "Load \"x.v\".", "Reset x.", "Add Search Blacklist \"_statement\".",
                "Definition a_statement : Prop := True.", "Notation b_statement := True.",
                "Local Definition c_statement := True.", "Redirect \"ax_all\" Print Assumptions x."):
        problems = refused_commands({"B.v": bad})
        assert problems and problems[0].startswith("B.v:"), bad


def test_print_assumptions_beyond_axioms_is_unreadable():
    from coq.checks import parse_assumptions
    assert parse_assumptions("Axioms:\nloop is assumed to be guarded.\n") is None
    assert parse_assumptions("Axioms:\nA.b : True\nFixpoints relying on unsafe guard:\n  f\n") is None
    assert parse_assumptions("Axioms:\nA.b\n  : True\n") == ["A.b"]


def test_a_rule_instance_left_as_an_assumption_keeps_its_rule_unproved(monkeypatch):
    """A step whose Coq corollary derives one rule instance but still assumes another of the same
    rule does not count that rule as proved in Coq."""
    uses = {("th", "exp_tangent", "exp_ge_tangent", "", "s1"), ("th", "pow2_log2", "pow2_succ", "", "s1")}
    monkeypatch.setattr(build, "rule_uses_of", lambda tid: uses)
    clean = lambda key: (key != "rule__pow2_log2__pow2_succ", "")
    used = ["exp_tangent", "pow2_log2"]
    assert build._rules_not_proved("th", used, clean) == []        # the natural-number lemma is clean
    assert build._rules_not_proved("th", used, clean, {("th__s1", "exp_tangent")}) == ["exp_tangent"]
    assert build._rules_not_proved("th", used, lambda key: (key != "th__s1__derived", "")) == used
