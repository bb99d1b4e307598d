"""A term's sort is computed from its structure, never taken from what a node records.

The kernel adds the guard ``t >= 0`` when a natural-number variable is instantiated at a term
``t`` that is not a natural number (``inst``, ``specialize``, ``lemma``), and the sum rules carry
``lo >= 0`` when a natural index starts at a term that is not one.  Both decisions read the
term's sort; so a substitution must compute the sorts of the nodes it rebuilds (``(k + 1)[k :=
j - 2]`` is an integer), and a node made by hand cannot claim a sort its structure does not give.
Ill-formed nodes (a fractional exponent, real bounds of a sum, a real added to an integer) are
refused when they are made.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import (INT, NAT, REAL, Eq, Expr, FormulaError, Int, Nat, Real, Seq, Sum, forall_below, is_nat,
                            num, sort_of)
from proofs.kernel.kernel import KernelError, Proof
from proofs.kernel.rules import schema_formula
from proofs.language.substitution import subst, walk

SRC = Source("", "a test", "a test")
k, j = Nat("k"), Int("j")


def _by_hand_nat(term: Expr) -> Expr:
    """``term`` rebuilt by hand with the sort Nat written on its root."""
    return Expr(term.op, term.args, term.name, NAT, term.value)


def _guards(f: Expr) -> list:
    """The premises ``t >= 0`` of an instance ``guards ==> body``."""
    if f.op != "implies":
        return []
    g = f.args[0]
    parts = g.args if g.op == "and" else (g,)
    return [p for p in parts if p.op == "ge" and p.args[1] == num(0)]


def test_substitution_computes_the_sorts_it_rebuilds():
    e = subst(k + 1, {k: j - 2})
    assert e.sort == INT and not is_nat(e)           # was: (j - 2) + 1 still marked Nat
    assert subst(k + 1, {k: Nat("m")}).sort == NAT
    assert subst(k * k, {k: j}).sort == INT


def test_a_node_made_by_hand_gets_the_sort_its_structure_gives():
    assert _by_hand_nat(j - 2).sort == INT
    assert Expr("neg", (k,), sort=NAT).sort == INT
    assert Expr("num", value=Fraction(-3), sort=NAT).sort == INT
    assert Expr("num", value=Fraction(3), sort=INT).sort == NAT           # 3 is a natural number
    assert sort_of(Expr("add", (k, Nat("m")), sort=INT)) == NAT


@pytest.mark.parametrize("make", [
    lambda: Expr("pow", (Real("x"), Expr("num", value=Fraction(1, 2)))),      # a fractional exponent
    lambda: Expr("pow", (Real("x"), Int("n"))),                               # a symbolic exponent (npow)
    lambda: Sum(Int("i"), Real("a"), Real("b"), Real("c")),                    # real bounds
    lambda: Expr("sum", (Int("i"), Real("a"), num(3), Real("c")), sort=REAL),
    lambda: Expr("add", (Real("x"), Int("n")), sort=REAL),                    # a real plus an integer
    lambda: Expr("le", (Real("x"), Int("n"))),
    lambda: Expr("num", value=Fraction(1, 2), sort=INT),
    lambda: Expr("frobnicate", (Real("x"),)),
    lambda: Expr("and", (Real("x"), Real("y"))),
])
def test_ill_formed_nodes_are_refused_when_made(make):
    with pytest.raises(FormulaError, match="ill-formed"):
        make()


def _winnow_user_theorem():
    th = __import__("proofs.catalogue.registry", fromlist=["get"]).get("winnow_relevant_weights")
    return Theorem(id="user_negative_index", name="a user theorem", source=SRC,
                   hypotheses=list(th.hypotheses) + [("j_is_0", Eq(j, 0))],
                   conclusion=j >= 0, proof=lambda p: None)


@pytest.mark.parametrize("shifted", [
    lambda: subst(k + 1, {k: j - 2}),               # through substitution
    lambda: _by_hand_nat(j - 2),                    # by hand
])
def test_a_lemma_at_a_term_that_is_not_natural_is_guarded(shifted):
    """winnow_relevant_weights at i := (j - 2) + 1 (or j - 2 marked Nat by hand) holds only where
    that index is >= 0: the instance carries the guard, so no weight bound at a negative index."""
    p = Proof(_winnow_user_theorem())
    t = shifted()
    f = p.lemma("winnow_relevant_weights", {"i": t})
    assert any(g.args[0] == t for g in _guards(f.formula)), f"no guard t >= 0 on {f.formula!r}"


def test_inst_and_specialize_guard_a_term_that_is_not_natural():
    w = Seq("w", REAL)
    th = Theorem(id="t_inst", name="t", source=SRC, hypotheses=[("all", forall_below(k, Nat("n"), w(k) >= 0))],
                 conclusion=w(j) >= 0, proof=lambda p: None)
    p = Proof(th)
    for t in (subst(k + 1, {k: j - 2}), _by_hand_nat(j - 2)):
        f = p.inst(p.hyp("all"), t)
        assert _guards(f.formula), f"no guard at {t!r}"
    th2 = Theorem(id="t_spec", name="t", source=SRC, hypotheses=[], conclusion=w(j) >= 0, proof=lambda p: None)
    p2 = Proof(th2)
    m = Nat("m")
    fact = p2.identity("id", w(m) * 1, w(m) * 1)
    got = p2.specialize(fact, {m: _by_hand_nat(j - 2)})
    assert _guards(got.formula)


@pytest.mark.parametrize("schema", ["sum_const", "sum_succ", "sum_term_le"])
def test_a_sum_rule_keeps_its_premise_lo_ge_0_for_a_rebuilt_or_hand_made_bound(schema):
    i = Nat("i")
    lo_terms = [subst(k + 1, {k: j - 2}), _by_hand_nat(j - 2)]
    for lo in lo_terms:
        args = {"sum_const": [i, lo, Int("h"), Real("c")],
                "sum_succ": [i, lo, Int("h"), Seq("F", REAL)(i)],
                "sum_term_le": [i, lo, Int("h"), Seq("F", REAL)(i), Int("t")]}[schema]
        f = schema_formula("finite_sum_linearity", schema, args)
        assert any(n.op == "ge" and n.args[0] == lo and n.args[1] == num(0) for n in walk(f)), \
            f"{schema} at lo = {lo!r} lost its premise lo >= 0"


def test_the_kernel_refuses_a_node_whose_recorded_sort_was_forged():
    """Defence in depth: a node whose sort attribute was overwritten after it was made (hostile
    Python) is refused by the kernel's own recomputation."""
    t = j - 2
    object.__setattr__(t, "sort", NAT)
    with pytest.raises(FormulaError):
        sort_of(t + 0)
    w = Seq("w", REAL)
    th = Theorem(id="t_forged", name="t", source=SRC, hypotheses=[("all", forall_below(k, Nat("n"), w(k) >= 0))],
                 conclusion=w(j) >= 0, proof=lambda p: None)
    p = Proof(th)
    with pytest.raises(KernelError):
        p.inst(p.hyp("all"), t)


ATTACK = r'''"""Under winnow_relevant_weights' own hypotheses, a weight bound at index -1 (false: nothing
constrains w(M, -1)), from the lemma at i := j - 1 dressed as a natural number."""
from fractions import Fraction
from proofs.catalogue import registry
from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Eq, Expr, Int, NAT, num
from proofs.catalogue.winnow_run import M, r, w

j = Int("j")
base = registry.get("winnow_relevant_weights")
HYPS = list(base.hypotheses) + [("j_is_0", Eq(j, 0)), ("some_relevant", r >= 1)]


def proof(p):
    t = Expr("sub", (j, num(1)), sort=NAT)          # j - 1, written as a natural number
    lem = p.lemma("winnow_relevant_weights", {"i": t})
    facts = [lem] + [p.hyp(n) for n, _ in HYPS]
    return p.solve("negative_index", facts, w(M, num(-1)) >= 1)


THEOREMS = [Theorem(id="weight_at_index_minus_one", name="a weight bound at index -1",
                    source=Source("", "an attack", "the lemma at a term marked natural"),
                    hypotheses=HYPS, conclusion=w(M, num(-1)) >= 1, proof=proof)]
'''


def test_a_user_file_no_longer_proves_a_weight_bound_at_a_negative_index(tmp_path):
    """The attack end to end: under winnow_relevant_weights' hypotheses, the lemma at i := j - 1
    written as a natural, with j = 0, gave w(M, -1) >= 1 -- "proved", exit 0, though nothing
    constrains w(M, -1).  The instance now carries j - 1 >= 0, and the step is refuted."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    f = tmp_path / "attack.py"
    f.write_text(ATTACK)
    p = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--file", str(f)], cwd=root,
                       env=dict(os.environ, PYTHONPATH=str(root)), capture_output=True, text=True, timeout=600)
    assert p.returncode == 1 and not p.stdout.startswith("proved"), p.stdout + p.stderr
    assert "weight_at_index_minus_one" in p.stdout
