"""The theorem catalogue: every entry as expected, re-checked, non-vacuous; and the machinery
refuses to call a false or vacuous obligation proved."""
import json
import subprocess
import sys

import pytest

from proofs import registry
from proofs.core import Obligation, Source, Theorem, Verdict, ObligationResult
from proofs.engines import check_obligation, cvc5_check, sympy_check
from proofs.runner import check_theorem, run_catalogue


@pytest.fixture(scope="module")
def cat():
    return run_catalogue()


def test_every_entry_as_expected(cat):
    bad = [(r.theorem.id, r.status) for r in cat.results if not r.ok]
    assert not bad, bad
    assert cat.ok


def test_kinds_and_statuses(cat):
    kinds = {r.theorem.kind for r in cat.results}
    assert {"theorem", "erratum"} <= kinds
    for r in cat.results:
        expect = {"theorem": "proved", "erratum": "refuted", "open": "open"}[r.theorem.kind]
        assert r.status == expect, r.theorem.id


def test_named_families_present(cat):
    ids = {r.theorem.id for r in cat.results}
    for tid in ("claim1_correlation_growth", "claim2_norm_growth", "erratum_claim2_strict", "block_novikoff_unit",
                "block_novikoff_bias", "hinge_loss_bound", "hinge_total_distance", "erratum_hinge_dropped_square",
                "winnow_halving_bound", "winnow_elimination_bound", "kernel_closure_rules", "gaussian_kernel_legal",
                "kernel_perceptron_is_feature_perceptron", "perceptron_is_subgradient_descent",
                "hinge_bound_exact_form", "winnow_halving_pow2", "winnow_elimination_pow2", "perceptron_2d_half_bound",
                "cauchy_schwarz", "erratum_winnow_pow2_halving_n1", "erratum_winnow_pow2_elimination_r0",
                "winnow_halving_pow2_tight", "erratum_winnow_pow2_tight_r0"):
        assert tid in ids


def test_theorems_have_a_proved_composition_and_second_opinion(cat):
    for r in cat.results:
        if r.theorem.kind != "theorem":
            continue
        comps = [o for o in r.obligations if o.obligation.role == "composition"]
        assert comps and all(o.verdict.status == "proved" for o in comps), r.theorem.id
        for o in r.obligations:
            assert o.cross_check is not None and o.cross_check.status == o.verdict.status, (r.theorem.id, o.obligation.id)
            assert o.cross_check.engine != o.verdict.engine


def test_nonvacuity_recorded_for_every_z3_obligation(cat):
    for r in cat.results:
        for o in r.obligations:
            if o.obligation.engine == "z3" and o.obligation.build().get("hyps"):
                assert o.hypotheses_sat is not None and o.hypotheses_sat.status == "proved", o.obligation.id
                if o.verdict.status == "proved":
                    assert set(o.dropped) == {n for n, _ in o.obligation.build()["hyps"]}


def test_open_entry_never_fails_the_run():
    def build():
        import z3
        a = z3.Real("a")
        return {"hyps": [("pos", a > 0)], "goal": a > 1}
    r = check_theorem(_th([Obligation("step", "z3", "a failing step", "scalars", build, expect="unknown",
                                      role="failing_step")], kind="open"))
    assert r.status == "open" and r.ok          # reported (refuted step), not counted, not failing


def test_two_d_bound_is_proved_and_sharper(cat):
    r = cat.by_id("perceptron_2d_half_bound")
    assert r.status == "proved"
    assert "orthonormal_basis_2d" in r.theorem.trusted
    from fractions import Fraction
    from proofs.perceptron_2d import claimed_bound
    for g in (Fraction(1, 2), Fraction(1, 3), Fraction(1, 10), Fraction(7, 10)):
        assert 1 + 1 / (2 * g * g) < claimed_bound(g) + 1


def test_claim2_strict_erratum_counterexample_is_the_tie(cat):
    r = cat.by_id("erratum_claim2_strict")
    (o,) = r.obligations
    cex = o.verdict.counterexample
    assert cex["wx"] == "0" and cex["xx"] == "1"
    assert r.witness and r.witness[0]


def test_mistake_hypothesis_reported_unused_in_claim1(cat):
    r = cat.by_id("claim1_correlation_growth")
    o = [o for o in r.obligations if o.obligation.id == "dot_target_update_ge_margin"][0]
    assert o.unused_hypotheses() == ["mistake"]


def test_trusted_rules_named(cat):
    g = cat.by_id("gaussian_kernel_legal").theorem
    assert "psd_closed_under_limits" in g.trusted and "exp_power_series" in g.trusted
    assert "induction" in cat.by_id("block_novikoff_unit").theorem.trusted


def _th(obligations, kind="theorem"):
    return Theorem(id="t", title="t", statement="s", latex="s", hypotheses=[], source=Source("", "x", "y"),
                   obligations=obligations, kind=kind)


def test_false_composition_is_not_proved():
    def build():
        import z3
        M, g = z3.Reals("M g")
        return {"hyps": [("gamma_pos", g > 0), ("M_nonneg", M >= 0)], "goal": M * g * g <= 1}
    r = check_theorem(_th([Obligation("bad", "z3", "bad", "scalars", build, role="composition")]))
    assert r.status == "refuted" and not r.ok
    assert r.obligations[0].verdict.counterexample


def test_contradictory_hypotheses_are_reported_not_proved():
    def build():
        import z3
        a = z3.Real("a")
        return {"hyps": [("pos", a > 0), ("neg", a < 0)], "goal": a == 7}
    res = check_obligation(Obligation("vac", "z3", "vacuous", "scalars", build)).resolve()
    assert res.verdict.status == "proved"          # ex falso ...
    assert res.vacuous and not res.ok               # ... but never counted
    r = check_theorem(_th([Obligation("vac", "z3", "vacuous", "scalars", build, role="composition")]))
    assert r.status != "proved" and not r.ok


def test_engine_disagreement_fails():
    ob = Obligation("x", "z3", "x", "scalars", lambda: {"hyps": [], "goal": None})
    res = ObligationResult(ob, Verdict("proved", "z3"), Verdict("refuted", "cvc5"))
    assert not res.agree and not res.ok
    res = ObligationResult(ob, Verdict("proved", "z3"), Verdict("unknown", "cvc5"))
    assert not res.ok


def test_sympy_non_identity_is_not_proved():
    import sympy as sp
    a, b = sp.symbols("a b")
    v = sympy_check((a + b) ** 2, a**2 + b**2)
    assert v.status == "refuted" and v.counterexample


def test_cvc5_second_opinion_reads_smtlib():
    assert cvc5_check("(set-logic QF_LRA)(declare-fun a () Real)(assert (> a 1.0))(assert (< a 0.0))(check-sat)").status == "proved"
    assert cvc5_check("(set-logic QF_LRA)(declare-fun a () Real)(assert (> a 1.0))(check-sat)").status == "refuted"
    assert cvc5_check("(set-logic QF_LRA)(this is not smtlib").status == "unknown"


def test_registry_lookup_and_lemma_closure():
    with pytest.raises(ValueError):
        registry.get("no_such_theorem")
    ids = [t.id for t in registry.with_lemmas(["block_novikoff_bias"])]
    assert ids[-1] == "block_novikoff_bias" and "cauchy_schwarz" in ids and "block_novikoff_margin_one" in ids


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "mistakebound", "verify", *args], capture_output=True, text=True,
                          timeout=120)


def test_cli_json_smtlib_latex(tmp_path):
    j, d, tex = tmp_path / "v.json", tmp_path / "smt", tmp_path / "v.tex"
    p = _cli("--theorem", "claim2_norm_growth", "--theorem", "erratum_claim2_strict", "--json", str(j),
             "--smtlib", str(d), "--latex", str(tex))
    assert p.returncode == 0, p.stdout + p.stderr
    data = json.loads(j.read_text())
    assert {"theorems", "seconds"} <= set(data)
    ids = [t["id"] for t in data["theorems"]]
    assert ids == ["claim2_norm_growth", "erratum_claim2_strict"]
    for t in data["theorems"]:
        assert {"id", "statement", "source", "status", "obligations", "trusted"} <= set(t)
        for o in t["obligations"]:
            assert {"id", "engine", "status", "seconds", "cross_check"} <= set(o)
    files = sorted(x.name for x in d.iterdir())
    assert "norm_sq_update_strict.smt2" in files
    assert cvc5_check((d / "norm_sq_update_misclassified.smt2").read_text()).status == "proved"
    assert "\\begin{document}" in tex.read_text()


def test_cli_unknown_theorem_exit_2_one_line():
    p = _cli("--theorem", "nope")
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "unknown theorem id" in p.stderr
    assert "Traceback" not in p.stderr


def test_cli_list():
    p = _cli("--list")
    assert p.returncode == 0 and "block_novikoff_unit" in p.stdout


def test_cli_unwritable_output_is_one_line_exit_2(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    p = _cli("--smtlib", str(f), "--theorem", "cauchy_schwarz")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    p = _cli("--json", str(tmp_path), "--theorem", "cauchy_schwarz")
    assert p.returncode == 2 and "is a directory" in p.stderr


def test_generated_docs_cover_the_catalogue():
    import pathlib
    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "catalogue.md").read_text()
    for tid in registry.theorem_ids():
        assert f"`{tid}`" in text, f"docs/catalogue.md is stale: regenerate with python -m proofs.docs ({tid})"
    from proofs.docs import markdown
    assert callable(markdown)
