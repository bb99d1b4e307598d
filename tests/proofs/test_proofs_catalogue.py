"""The theorem catalogue: every entry as expected, every step proved by two engines, nothing
vacuous, the statement a reader sees is the formula that was proved; and the command line."""
import json
import pathlib
import subprocess
import sys

import pytest

from proofs.catalogue import registry
from proofs.engines.engines import PROVED, SAT
from proofs.printers.render import latex, text
from proofs.verify.runner import run_catalogue

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cat():
    return run_catalogue()


@pytest.mark.slow
def test_every_entry_as_expected(cat):
    bad = [(r.theorem.id, r.status, r.reasons[:1]) for r in cat.results if not r.ok]
    assert not bad, bad
    assert cat.ok


def test_named_entries_present():
    ids = set(registry.theorem_ids())
    for tid in ("cauchy_schwarz", "claim1_correlation_growth", "claim1_margin_one", "claim2_norm_growth",
                "claim2_unit_examples", "erratum_claim2_strict", "block_novikoff_margin_one", "block_novikoff_unit",
                "block_novikoff_radius", "block_novikoff_bias", "erratum_bias_notes_unsquared_norm", "hinge_loss_bound",
                "hinge_total_distance", "erratum_hinge_dropped_square", "hinge_bound_exact_form",
                "perceptron_is_subgradient_descent", "perceptron_2d_half_bound"):
        assert tid in ids, tid


@pytest.mark.slow
def test_every_step_proved_by_two_engines(cat):
    for r in cat.results:
        if r.theorem.kind != "theorem":
            continue
        assert r.steps, r.theorem.id
        for s in r.steps:
            assert s.verdict.status == PROVED, (r.theorem.id, s.step.id)
            assert s.cross and all(v.status == PROVED for v in s.cross), (r.theorem.id, s.step.id)
            engines = {s.verdict.engine} | {v.engine for v in s.cross}
            if s.recheck == "full":
                assert engines >= {"z3", "cvc5"}
            else:          # an identity over vectors: sympy, and both solvers in dimensions 1, 2, 3
                assert engines == {"sympy", "z3", "cvc5"} and len(s.cross) == 6
                assert s.recheck == "symbolic dimension, re-checked at d = 1..3 only"
                assert f"{s.step.id}: {s.recheck}" in r.exceptions()


@pytest.mark.slow
def test_nothing_is_proved_vacuously(cat):
    for r in cat.results:
        if r.theorem.kind != "theorem":
            continue
        assert r.nonvacuity is not None and r.nonvacuity.status == SAT, r.theorem.id
        if r.theorem.hypotheses:
            assert r.nonvacuity.counterexample, f"{r.theorem.id}: a model of its hypotheses is shown"
        for s in r.steps:
            if s.step.kind == "solve" and s.step.hyps:
                assert s.hyps_sat is not None and s.hyps_sat.status == SAT, (r.theorem.id, s.step.id)


@pytest.mark.slow
def test_a_run_with_mistakes_witnesses_the_perceptron_hypotheses(cat):
    nv = cat.by_id("block_novikoff_unit").nonvacuity
    assert "M = 2" in cat.by_id("block_novikoff_unit").nonvacuity_how
    assert {"x(0)", "x(1)", "w*", "gamma"} <= set(nv.counterexample)      # two real mistakes in the plane


@pytest.mark.slow
def test_the_statement_shown_is_the_formula_proved(cat):
    data = cat.to_json()
    page = markdown_of(cat)
    for r, j in zip(cat.results, data["theorems"]):
        th = r.theorem
        assert j["statement"] == text(th.statement) and j["conclusion"] == text(th.conclusion)
        assert th.title.endswith(text(th.conclusion))
        assert latex(th.conclusion) in page
        for name, f in th.hypotheses:
            assert latex(f) in page, (th.id, name)
        if th.kind == "theorem":
            last = r.steps[-1].step
            assert last.goal == th.conclusion, "the last step proves exactly the stated conclusion"


def markdown_of(cat):
    from proofs.verify.docs import markdown
    return markdown(cat)


@pytest.mark.slow
def test_errata_refuted_exactly_by_both_solvers_and_replayed(cat):
    for r in cat.results:
        if r.theorem.kind != "erratum":
            continue
        assert r.exact[0], r.theorem.id
        assert r.nonvacuity.status == SAT, r.theorem.id
        if r.theorem.witness_check is not None:
            assert r.witness[0], r.witness
    assert "tie" in cat.by_id("erratum_claim2_strict").theorem.name


@pytest.mark.slow
def test_trusted_rules_computed_from_the_proofs(cat):
    assert "induction" in cat.by_id("block_novikoff_unit").rules
    assert "sqrt_def" in cat.by_id("hinge_bound_exact_form").rules
    assert cat.by_id("claim1_margin_one").rules == ["finite_sum_linearity"]
    assert "induction" not in cat.by_id("cauchy_schwarz").rules


@pytest.mark.slow
def test_identities_are_exported_as_stated_not_expanded(cat):
    r = cat.by_id("claim2_norm_growth")
    s = [s for s in r.steps if s.step.id == "norm_sq_update_expand"][0]
    assert len(s.texts) == 3
    goal = s.texts[1].split("(assert (not (= ", 1)[1]
    lhs_rhs = goal.rsplit(")))", 1)[0]
    assert lhs_rhs.count("(+") >= 2        # both sides still sums of their own terms, not one expanded form


# ------------------------------------------------------------------ the command line
def _cli(*args):
    return subprocess.run([sys.executable, "-m", "mistakebound", "verify", *args], capture_output=True, text=True,
                          timeout=300)


def test_cli_json_smtlib_latex(tmp_path):
    j, d, tex = tmp_path / "v.json", tmp_path / "smt", tmp_path / "v.tex"
    p = _cli("--theorem", "claim2_norm_growth", "--theorem", "erratum_claim2_strict", "--json", str(j),
             "--smtlib", str(d), "--latex", str(tex))
    assert p.returncode == 0, p.stdout + p.stderr
    data = json.loads(j.read_text())
    ids = [t["id"] for t in data["theorems"]]
    assert ids == ["claim2_norm_growth", "erratum_claim2_strict"]
    t = data["theorems"][0]
    assert {"statement", "hypotheses", "conclusion", "steps", "trusted_rules", "nonvacuity", "source"} <= set(t)
    assert t["nonvacuity"]["status"] == "sat" and t["nonvacuity"]["model"]
    assert "how (the source's wording)" in t["source"]
    files = sorted(x.name for x in d.iterdir())
    assert "claim2_norm_growth__norm_sq_update_misclassified.smt2" in files
    from proofs.engines.engines import z3_check
    assert z3_check((d / "claim2_norm_growth__norm_sq_update_misclassified.smt2").read_text()).status == "proved"
    assert "\\begin{document}" in tex.read_text()
    said = " ".join(p.stdout.split())                 # as printed, folded to the terminal's width
    assert "re-checked at d = 1..3 only" in said and "trusted rules:" in said


def test_cli_table_fits_100_columns():
    p = _cli("--theorem", "block_novikoff_bias")
    assert p.returncode == 0, p.stdout
    assert max(len(line) for line in p.stdout.splitlines()) <= 100


def test_cli_unknown_theorem_exit_2_one_line():
    p = _cli("--theorem", "nope")
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "unknown theorem id" in p.stderr
    assert "Traceback" not in p.stderr


def test_cli_list_shows_rendered_statements():
    p = _cli("--list")
    assert p.returncode == 0 and "block_novikoff_unit" in p.stdout and "M <= 1/gamma^2" in p.stdout


def test_cli_unwritable_output_is_one_line_exit_2(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    p = _cli("--smtlib", str(f), "--theorem", "cauchy_schwarz")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    p = _cli("--json", str(tmp_path), "--theorem", "cauchy_schwarz")
    assert p.returncode == 2 and "is a directory" in p.stderr


def test_generated_docs_cover_the_catalogue():
    page = (ROOT / "docs" / "catalogue.md").read_text()
    for th in registry.all_theorems():
        assert f"`{th.id}`" in page, f"docs/catalogue.md is stale: regenerate with python -m proofs.verify.docs ({th.id})"
        assert latex(th.conclusion) in page, f"docs/catalogue.md shows another statement for {th.id}"


def test_generated_docs_are_current(cat):
    """docs/catalogue.md is exactly what ``python -m proofs.verify.docs`` writes: no line of it goes stale."""
    page = (ROOT / "docs" / "catalogue.md").read_text()
    assert page == markdown_of(cat), "docs/catalogue.md is stale: regenerate with python -m proofs.verify.docs"


def test_sources_are_cited_so_a_reader_can_find_them():
    from proofs.catalogue.sources import TITLES
    page = (ROOT / "docs" / "catalogue.md").read_text()
    assert "shared/sources" not in page
    for th in registry.all_theorems():
        if th.source.note.endswith(".txt"):
            assert th.source.note not in page, th.id            # a file name no install has
            assert TITLES[th.source.note] in page, th.id


def test_no_issue_numbers_or_prototype_in_the_catalogue():
    import re
    for f in sorted((ROOT / "proofs").rglob("*.py")) + [ROOT / "docs" / "catalogue.md"]:
        body = f.read_text()
        assert not re.search(r"\bissue #?\d+|\bprototype\b", body, re.I), f
