"""``mistakebound verify --file``: a user's theorems on the proof kernel, checked like the catalogue
(fail closed, non-vacuity, the second solver), and their statements printed in Coq."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "mistakebound" / "examples" / "my_theorems.py"


def _verify(*args, cwd=ROOT):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "mistakebound", "verify", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def _variant(tmp_path, old, new, name="variant.py") -> Path:
    src = EXAMPLE.read_text()
    assert old in src
    p = tmp_path / name
    p.write_text(src.replace(old, new))
    return p


def test_the_tutorial_example_is_proved_and_printed_in_coq(tmp_path):
    out = tmp_path / "mine.v"
    p = _verify("--file", str(EXAMPLE), "--coq-out", str(out), "--json", str(tmp_path / "r.json"))
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("proved       perceptron_margin_third_nine_mistakes  steps 2/2")
    assert "catalogue lemmas used: block_novikoff_unit" in p.stdout
    import json
    rep = json.loads((tmp_path / "r.json").read_text())
    th = rep["theorems"][0]
    assert rep["ok"] and th["status"] == "proved" and th["hypotheses_satisfiable"] == "sat"
    assert all({"engine": "cvc5", "status": "proved"} in s["verdicts"] for s in th["steps"])
    assert th["lemmas"] == [{"id": "block_novikoff_unit", "status": "proved"}]
    # the Coq statement is the catalogue printer's, from the same formula objects
    from blueprint.user_theorems import load_theorems
    from coq.export import statement
    v = out.read_text()
    (t,) = load_theorems(EXAMPLE)
    assert f"Definition perceptron_margin_third_nine_mistakes_statement : Prop :=\n  {statement(t)}." in v
    assert "Theorem perceptron_margin_third_nine_mistakes : perceptron_margin_third_nine_mistakes_statement." in v
    assert "(M <= 9)%nat" in v


def test_a_false_variant_is_refused(tmp_path):
    # margin at least 1/3 does not give 8 mistakes (the orthonormal run in R^9 makes 9)
    bad = _variant(tmp_path, "M <= 9", "M <= 8")
    p = _verify("--file", str(bad))
    assert p.returncode == 1
    assert p.stdout.startswith("refuted") and "at_most_nine" in p.stdout
    # a strengthened hypothesis with no model (margin above 1 with unit vectors): not proved vacuously
    vac = _variant(tmp_path, 'g >= num(Fraction(1, 3))', 'g >= num(2)', "vacuous.py")
    p = _verify("--file", str(vac))
    assert p.returncode == 1 and not p.stdout.startswith("proved")
    # a retyped fact instead of the kernel's: a build error before any solver runs
    retyped = _variant(tmp_path, "[bound, p.hyp(\"margin_at_least_a_third\")]",
                       "[bound, g >= num(Fraction(1, 3))]", "retyped.py")
    p = _verify("--file", str(retyped))
    assert p.returncode == 1 and p.stdout.startswith("build error") and "must be a fact" in p.stdout


def test_bad_files_one_line_exit_2(tmp_path):
    syn = tmp_path / "syntax.py"
    syn.write_text("THEOREMS = [\n")
    none = tmp_path / "none.py"
    none.write_text("x = 1\n")
    raises = tmp_path / "raises.py"
    raises.write_text("import no_such_module_here\n")
    clash = _variant(tmp_path, 'id="perceptron_margin_third_nine_mistakes"', 'id="block_novikoff_unit"', "clash.py")
    for f, words in ((syn, "syntax error"), (none, "defines no theorems"), (raises, "ModuleNotFoundError"),
                     (clash, "already a catalogue theorem"), (tmp_path / "missing.py", "no such file")):
        p = _verify("--file", str(f))
        assert p.returncode == 2, (f, p.stdout, p.stderr)
        assert p.stderr.count("\n") == 1 and words in p.stderr and "Traceback" not in p.stderr
    assert "syntax.py:2" in _verify("--file", str(syn)).stderr or "syntax.py:1" in _verify("--file", str(syn)).stderr
    p = _verify("--coq-out", str(tmp_path / "x.v"))
    assert p.returncode == 2 and "--coq-out needs --file" in p.stderr and not (tmp_path / "x.v").exists()


def test_a_refuted_theorem_prints_its_counterexample_and_no_traceback(tmp_path):
    """The solver's counterexample to the refuted step is printed and in --json (was: only
    "z3: refuted"); nothing is printed after the verdict (was: at times a worker thread's
    traceback at exit)."""
    bad = _variant(tmp_path, "M <= 9", "M <= 8")
    p = _verify("--file", str(bad), "--json", str(tmp_path / "r.json"))
    assert p.returncode == 1
    assert "counterexample to step at_most_nine (z3): M = 9, g = 1/3" in p.stdout, p.stdout
    assert "Traceback" not in p.stderr and "Exception in thread" not in p.stderr, p.stderr
    import json
    th = json.loads((tmp_path / "r.json").read_text())["theorems"][0]
    assert th["counterexamples"] == [{"step": "at_most_nine", "engine": "z3", "values": {"M": "9", "g": "1/3"}}]
