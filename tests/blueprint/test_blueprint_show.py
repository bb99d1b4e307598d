"""``mistakebound verify --show ID`` (one proof in the terminal and as JSON), and the pieces the site
is printed with: MathML from every formula of the catalogue, the proof graph of every entry."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "mistakebound", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_show_prints_every_step_with_facts_verdicts_rules_and_coq_lemma():
    from proofs.verify.runner import build
    from proofs.catalogue import registry
    p = _cli("verify", "--show", "block_novikoff_unit")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    steps = [st.id for st in build(registry.get("block_novikoff_unit")).proof.steps]
    assert len(steps) == 5
    for i, sid in enumerate(steps, 1):
        assert f"{i}. {sid} (" in out
        assert f"Coq: Lemma block_novikoff_unit__{sid} (Steps_vectors.v)" in out
    assert out.count("verdicts: ") == 5 and out.count("cvc5 proved") == 5
    assert "trusted rules: finite_sum_linearity.dot_nonneg, induction" in out
    assert "claim2_unit_examples (lemma; rests on lemma claim2_unit_examples)" in out
    assert "conclusion: M <= 1/gamma^2" in out and "lemmas: cauchy_schwarz (proved)" in out
    assert "seconds" not in out and " s)" not in out                 # nothing that changes between runs


@pytest.mark.slow
def test_show_json_and_bad_input(tmp_path):
    p = _cli("verify", "--show", "claim2_unit_examples", "--json", "-")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["id"] == "claim2_unit_examples" and d["status"] == "proved"
    assert d["used_by"] and "block_novikoff_unit" in d["used_by"]
    st = {s["id"]: s for s in d["steps"]}
    assert st["norm_sq_update_unit"]["coq_lemma"] == "claim2_unit_examples__norm_sq_update_unit"
    assert {"engine": "cvc5", "status": "proved"} in st["norm_sq_update_unit"]["verdicts"]
    assert any(f["how"] == "hypothesis" for f in st["norm_sq_update_unit"]["facts"])
    bad = _cli("verify", "--show", "no_such_theorem")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "unknown theorem id" in bad.stderr
    both = _cli("verify", "--show", "cauchy_schwarz", "--latex", str(tmp_path / "x.tex"))
    assert both.returncode == 2 and "cannot be combined" in both.stderr
    assert not (tmp_path / "x.tex").exists()


@pytest.mark.slow
def test_show_an_erratum_gives_its_counterexample():
    p = _cli("verify", "--show", "erratum_claim2_strict")
    assert p.returncode == 0, p.stderr
    assert "status: refuted (erratum" in p.stdout and "counterexample: {" in p.stdout


def _all_formulas():
    from proofs.catalogue import registry
    from proofs.verify.runner import build
    for th in registry.all_theorems():
        for n, f in th.hypotheses:
            yield f"{th.id}/{n}", f
        yield f"{th.id}/conclusion", th.conclusion
        if th.kind == "theorem":
            b = build(th)
            for st in b.proof.steps:
                yield f"{th.id}/{st.id}", st.goal
                for lab, fact in st.hyps:
                    yield f"{th.id}/{st.id}/{lab}", fact.formula


def test_mathml_of_every_formula_is_well_formed_and_keeps_every_variable():
    from blueprint.mathml import math
    from proofs.language.substitution import free_vars
    n = 0
    for where, f in _all_formulas():
        m = math(f)
        root = ET.fromstring(m.replace("&#x2062;", "\u2062"))
        assert root.tag == "math", where
        shown = "".join(root.itertext())
        for v in free_vars(f):             # every variable appears (its display name's first letter at least)
            first = v.tex.lstrip("\\")[:1] if v.tex and not v.tex.startswith("\\") else None
            if first:
                assert first in shown, f"{where}: {v.name} not shown"
        n += 1
    assert n > 500


def test_mathml_reads_like_the_latex_printer():
    from blueprint.mathml import mathml
    from proofs.language.formula import Real, Vec, dot
    g, x, w = Real("g", tex=r"\gamma", text="gamma"), Vec("x"), Vec("w", tex="w^*")
    assert mathml(1 / g**2) == "<mfrac><mn>1</mn><msup><mi>\u03b3</mi><mn>2</mn></msup></mfrac>"
    assert "<msup><mi>w</mi><mo>*</mo></msup>" in mathml(dot(x, w) >= g)
    assert "\u2016" in mathml(dot(x, x) <= 1)                       # |x|^2 is a norm, squared


@pytest.mark.parametrize("tid", ["block_novikoff_unit", "perceptron_2d_half_bound", "winnow_halving_pow2_tight"])
def test_the_proof_graph_has_every_step_and_the_conclusion(tid):
    from blueprint.graph import proof_graph, graph_svg
    from blueprint.model import entry_from_result
    from proofs.catalogue import registry
    from proofs.catalogue.core import StepResult, TheoremResult
    from proofs.engines.engines import PROVED, Verdict
    from proofs.verify.runner import build
    th = registry.get(tid)
    b = build(th)
    r = TheoremResult(th, status=PROVED,
                      steps=[StepResult(st, "", Verdict(PROVED, "z3")) for st in b.proof.steps])
    e = entry_from_result(r, b)
    nodes, edges = proof_graph(e)
    keys = {k for k, _, _ in nodes}
    assert {f"step:{st.id}" for st in b.proof.steps} <= keys and "concl:conclusion" in keys
    assert all(a in keys and c in keys for a, c in edges)
    # every step but the last is used by a later step or the conclusion (the kernel refuses unused steps)
    used = {a for a, _ in edges}
    assert all(f"step:{st.id}" in used for st in b.proof.steps)
    svg = graph_svg(e, lambda k, n: f"#{k}-{n}", lambda k, n: "n")
    ET.fromstring(svg)
    assert svg.count("<a ") == len(nodes)


def test_site_status_colours_a_theorem_by_coq_but_never_an_erratum_as_proved():
    from blueprint.model import Entry, site_status
    from proofs.language.formula import Real

    def entry(kind, status, ok, coq):
        return Entry(id="t", name="t", kind=kind, family="f", module="m", coq="C.t", status=status,
                     expected="proved" if kind == "theorem" else "refuted", ok=ok, reasons=[], hypotheses=[],
                     conclusion=Real("a") >= 0, statement=Real("a") >= 0, source={}, coq_check=coq)
    checked = {"status": "kernel-checked", "steps_ok": True}
    assert site_status(entry("theorem", "proved", True, None)) == "proved"
    assert site_status(entry("theorem", "proved", True, checked)) == "kernel-checked"
    assert site_status(entry("theorem", "proved", True, {"status": "kernel-checked", "steps_ok": False})) == "proved"
    assert site_status(entry("theorem", "unknown", False, checked)) == "unknown"       # Coq alone is not enough
    assert site_status(entry("erratum", "refuted", True, checked)) == "refuted"
    assert site_status(entry("erratum", "unknown", False, None)) == "unknown"


def test_catalogue_html_refuses_a_directory_it_did_not_write(tmp_path):
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for args, words in ((["--html", str(busy)], "not empty"), (["--html", str(a_file)], "not a directory"),
                        (["--html", str(tmp_path / "no" / "such" / "dir")], "does not exist"),
                        (["--html", str(tmp_path / "new"), "--theorem", "nope"], "unknown theorem id")):
        p = _cli("catalogue", *args)
        assert p.returncode == 2, (args, p.stdout, p.stderr)
        assert p.stderr.count("\n") == 1 and words in p.stderr
    assert (busy / "notes.txt").read_text() == "mine" and sorted(x.name for x in busy.iterdir()) == ["notes.txt"]
    assert not (tmp_path / "new").exists()


@pytest.mark.slow
def test_catalogue_html_of_one_entry_links_only_to_pages_it_has(tmp_path):
    import re
    out = tmp_path / "site"
    p = _cli("catalogue", "--html", str(out), "--theorem", "claim2_unit_examples", "--quiet")
    assert p.returncode == 0, p.stderr
    man = json.loads((out / "site.json").read_text())
    assert [e["id"] for e in man["entries"]] == ["claim2_unit_examples"]
    assert sorted(str(f.relative_to(out)) for f in out.rglob("*") if f.is_file()) == sorted(man["files"])
    page = (out / "claim2_unit_examples.html").read_text()
    for href in re.findall(r'href="([^"#]+)', page):
        assert (out / href).is_file(), href
    assert "block_novikoff_unit" in page            # used by it, named without a link to a page not written
    # writing again over its own site is allowed, and replaces it
    p = _cli("catalogue", "--html", str(out), "--theorem", "cauchy_schwarz", "--quiet")
    assert p.returncode == 0 and not (out / "claim2_unit_examples.html").exists()
