"""Mutation tests of hostile theorem files (``pytest -k mutation``) (``verify --file``): code that reaches past the proof
kernel -- a registered rule, a replaced runner or checker, a term with a lying sort, a term whose
class lies about equality, a forged certificate -- never makes a false statement come out
"proved".  The file runs in its own process and hands back certificates; the checker decides.

Each false statement here is "M <= 8" for the tutorial's perceptron (margin at least 1/3: the
orthonormal run in R^9 makes 9 mistakes), or "f(-1) >= 0" for an unconstrained f(-1).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "mistakebound" / "examples" / "my_theorems.py"
pytestmark = pytest.mark.slow       # each case starts two processes and the engines


def _verify(path, *args):
    # a proof cache of its own (in the test's directory): the session's stays as other tests expect it
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(path.parent / "cache"))
    out = path.parent / (path.stem + ".json")
    p = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--file", str(path), "--json", str(out),
                        *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    rep = json.loads(out.read_text()) if out.exists() else None
    return p, rep


def _eight(tmp_path, prelude: str, proof: str, name: str) -> Path:
    """The tutorial's file, stating M <= 8, with ``prelude`` at the top and the proof replaced."""
    src = EXAMPLE.read_text()
    head, _, rest = src.partition("def nine_mistakes(p):")
    body, _, tail = rest.partition("THEOREMS = ")
    tail = tail.replace("conclusion=M <= 9", "conclusion=M <= 8")
    f = tmp_path / f"{name}.py"
    f.write_text(head + prelude + "\n\ndef nine_mistakes(p):\n" + proof + "\n\nTHEOREMS = " + tail)
    return f


def _not_proved(p, rep, tid="perceptron_margin_third_nine_mistakes"):
    assert p.returncode == 1, p.stdout + p.stderr
    (th,) = [t for t in rep["theorems"] if t["id"] == tid]
    assert th["status"] != "proved" and not th["ok"], th
    return th


def test_mutation_hostile_a_registered_rule_is_an_assumption(tmp_path):
    prelude = ("from proofs.kernel.rules import INT, TrustedRule, register\n"
               "register(TrustedRule('eight', 'every number is at most 8', 'none', "
               "{'le8': ((INT,), lambda t: t <= 8)}))")
    f = _eight(tmp_path, prelude, "    return p.rule('eight', 'le8', M)", "rule")
    p, rep = _verify(f)
    th = _not_proved(p, rep)
    assert th["status"] == "proved assuming" and th["assumptions"] == ["eight.le8"]
    assert p.stdout.startswith("proved assuming")
    # --allow-assumptions accepts it, still named
    p, rep = _verify(f, "--allow-assumptions")
    assert p.returncode == 0 and rep["theorems"][0]["assumptions"] == ["eight.le8"]


def test_mutation_hostile_a_replaced_runner_and_checker_change_nothing(tmp_path):
    prelude = ("import proofs.verify.runner\n"
               "proofs.verify.runner._decide_theorem = lambda r, *a: setattr(r, 'status', 'proved')\n"
               "try:\n"
               "    import proofs.verify.certificate, checker, checker.check\n"
               "    proofs.verify.certificate.check_run = lambda *a, **k: {}\n"
               "    checker.check._steps = lambda *a, **k: None\n"
               "    checker.decide = lambda checked, oracle: {c.theorem: checker.Verdict(c.theorem, 'proved') "
               "for c in checked}\n"
               "except ImportError:\n"
               "    pass")
    proof = ("    bn = p.lemma('block_novikoff_unit')\n"
             "    ours = [p.hyp(name) for name, _ in HYPOTHESES]\n"
             "    return p.solve('at_most_eight', [bn] + ours, M <= 8)")
    p, rep = _verify(_eight(tmp_path, prelude, proof, "patched"))
    th = _not_proved(p, rep)
    assert th["status"] in ("refuted", "unknown")


def test_mutation_hostile_a_forged_certificate_is_refused(tmp_path):
    # the file's process rewrites what it hands back: a hypothesis step that states the conclusion
    prelude = ("import atexit, json, sys\n"
               "def _forge():\n"
               "    out = sys.argv[-1]\n"
               "    data = json.load(open(out))\n"
               "    c = data['theorems'][0]['certificate']\n"
               "    c['steps'] = [{'id': 'h:x', 'by': 'hypothesis', 'name': 'margin', 'formula': c['conclusion']}]\n"
               "    json.dump(data, open(out, 'w'))\n"
               "atexit.register(_forge)")
    f = _eight(tmp_path, prelude, "    return p.solve('s', [p.hyp('margin')], M <= 8)", "forged")
    p, rep = _verify(f)
    th = _not_proved(p, rep)
    assert th["status"] == "invalid" and "step h:x (hypothesis)" in th["reasons"][0]


LYING = '''
from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Expr, ForAll, Nat, Seq, num
n = Nat("n")
f = Seq("f", "Real")
lie = Expr("sub", (num(0), num(1)), sort="Nat")       # 0 - 1, claimed to be a natural number
H = ForAll(n, f(n) >= 0)
def proof(p):
    return p.inst(p.hyp("f_nonneg"), lie)             # the guard 0 - 1 >= 0 is left out
THEOREMS = [Theorem(id="lying_sort", name="f(-1) >= 0", source=Source("", "a test", ""),
                    hypotheses=[("f_nonneg", H)], conclusion=f(lie) >= 0, proof=proof)]
'''

LIAR = '''
from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Expr, Nat, num
M = Nat("M")
class Liar(Expr):                                     # equal to everything
    def __eq__(self, o):
        return True
    def __ne__(self, o):
        return False
    def __hash__(self):
        return hash((M <= 8))
def proof(p):
    true = M >= 0
    return p.solve("trivial", [], Liar(true.op, true.args, sort=true.sort))
THEOREMS = [Theorem(id="liar", name="M <= 8", source=Source("", "a test", ""),
                    hypotheses=[("many", M >= 9)], conclusion=M <= 8, proof=proof)]
'''


@pytest.mark.parametrize("name,src", [("lying_sort", LYING), ("liar", LIAR)])
def test_mutation_hostile_terms_that_lie_are_not_proved(tmp_path, name, src):
    f = tmp_path / f"{name}.py"
    f.write_text(src)
    p, rep = _verify(f)
    assert p.returncode == 1, p.stdout + p.stderr
    (th,) = rep["theorems"]
    assert th["status"] != "proved", th


RETYPED = '''
from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Nat
from proofs.kernel import kernel
kernel.Proof.conclude = lambda self, fact: fact                  # the kernel's last check, switched off
M = Nat("M")
def proof(p):
    f = p.solve("nonneg", [p.hyp("many")], M >= 0)
    object.__setattr__(f, "formula", M <= 8)                  # retyped behind the kernel's back
    return f
THEOREMS = [Theorem(id="retyped", name="M <= 8", source=Source("", "a test", ""),
                    hypotheses=[("many", M >= 9)], conclusion=M <= 8, proof=proof)]
'''

MINTED = '''
from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Nat
from proofs.kernel import kernel
kernel.Proof.conclude = lambda self, fact: fact
M = Nat("M")
def proof(p):
    return kernel.Fact(kernel._TOKEN, M <= 8, "hypothesis", p, label="many")   # a fact minted by hand
THEOREMS = [Theorem(id="minted", name="M <= 8", source=Source("", "a test", ""),
                    hypotheses=[("many", M >= 9)], conclusion=M <= 8, proof=proof)]
'''


@pytest.mark.parametrize("name,src", [("retyped", RETYPED), ("minted", MINTED)])
def test_mutation_hostile_facts_forged_behind_the_kernel_are_not_proved(tmp_path, name, src):
    f = tmp_path / f"{name}.py"
    f.write_text(src)
    p, rep = _verify(f)
    assert p.returncode == 1, p.stdout + p.stderr
    (th,) = rep["theorems"]
    assert th["status"] in ("invalid", "refuted", "unknown"), th
