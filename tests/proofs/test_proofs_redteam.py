"""False theorems written the way a new contributor would write them -- ordinary kernel calls
only (hyp, solve, rule, specialize, inst, induction) -- one or more per class of hole a proof
kernel must close.  Each statement is shown false on exact values, and none verifies.

1. one name, two identities (a display form); 2. a binder that captures a rule's bound;
3. a sum over a natural index read two ways; 4. a trusted rule with an off-by-one;
5. a step hidden from the engines; 6. a label that becomes SMT-LIB commands;
8. a wrong entry in check-bound's term table.  (7, what Coq checks, is tested with the Coq build.)
"""
from __future__ import annotations

import random

import pytest

from proofs.printers.concrete import evaluate
from proofs.catalogue.core import BUILD_ERROR, Source, Theorem
from proofs.engines.engines import PROVED
from proofs.language.formula import REAL, And, Eq, FormulaError, Implies, Int, Nat, Real, Seq, Sum, num
from proofs.kernel.kernel import induction_goals
from proofs.verify.runner import run_catalogue

SRC = Source("", "a red-team attempt", "a false statement")


def _th(hyps, concl, proof, tid):
    return Theorem(id=tid, name="red team", source=SRC, hypotheses=hyps, conclusion=concl, proof=proof)


def _verify(th):
    return run_catalogue([th]).by_id(th.id)


def _false_at(th, env):
    """The statement is false at these exact values: every hypothesis true, the conclusion false."""
    assert all(evaluate(h, env) for _, h in th.hypotheses) and not evaluate(th.conclusion, env)


# ------------------------------------------------------------------ 1. two identities for one name
def test_redteam_specialize_a_fixed_variable_through_another_display_form():
    """g >= 1 ==> g >= 5: the fact g >= 1 "specialized" at g - 4 + ... through a copy of g shown as gamma."""
    g, gamma = Real("g"), Real("g", tex=r"\gamma", text="gamma")

    def proof(p):
        f = p.solve("copy", [p.hyp("h")], gamma >= 1)
        moved = p.specialize(f, {gamma: g - 4})             # "no hypothesis mentions gamma"
        return p.solve("done", [moved], g >= 5)
    th = _th([("h", g >= 1)], g >= 5, proof, "redteam_display_specialize")
    _false_at(th, {"g": 1})
    r = _verify(th)
    assert r.status == BUILD_ERROR


def test_redteam_induction_over_a_variable_a_hypothesis_fixes_shown_another_way():
    """s(0) = 0 and s(k) >= 1 (one fixed k) ==> s(M) >= 1: induction "over a fresh k" that is the
    hypothesis' k shown another way."""
    k, M = Nat("k"), Nat("M")
    k2 = Nat("k", text="kappa")
    s = Seq("s", REAL)
    P = s(k2) >= 0

    def proof(p):
        base_goal, step_goal = induction_goals(k2, P, M)
        base = p.solve("base", [p.hyp("start")], base_goal)
        step = p.solve("step", [p.hyp("one")], step_goal)
        return p.solve("end", [p.inst(p.induction(k2, P, base, step, M), M)], s(M) >= 0)
    th = _th([("start", Eq(s(0), 0)), ("one", s(k) >= 1)], s(M) >= 0, proof, "redteam_display_induction")
    assert _verify(th).status == BUILD_ERROR


# ------------------------------------------------------------------ 2. binder capture in a rule
def test_redteam_sum_mono_with_a_bound_that_mentions_the_index():
    """sum_{i=0}^{n} F(i) <= sum_{i=0}^{n} G(i) for every F, G: sum_mono from i + 1, whose premise
    "for all i with i + 1 <= i <= n" is vacuous, then i := -1."""
    i, n = Int("i"), Nat("n")
    F, G = Seq("F", REAL), Seq("G", REAL)

    def proof(p):
        f = p.rule("finite_sum_linearity", "sum_mono", i, i + 1, n, F(i), G(i))
        g = p.specialize(f, {i: num(-1)})
        return p.solve("done", [g], Sum(i, 0, n, F(i)) <= Sum(i, 0, n, G(i)))
    th = _th([], Sum(i, 0, n, F(i)) <= Sum(i, 0, n, G(i)), proof, "redteam_capture_mono")
    _false_at(th, {"n": 0, "F": {0: 1}, "G": {0: 0}})
    assert _verify(th).status == BUILD_ERROR


def test_redteam_sum_term_le_with_a_lower_bound_that_mentions_the_index():
    i, n, j = Int("i"), Nat("n"), Int("j")
    F = Seq("F", REAL)

    def proof(p):
        f = p.rule("finite_sum_linearity", "sum_term_le", i, i, n, F(i), j)
        return p.solve("done", [f], Implies(And(num(0) <= j, j <= n), F(j) <= Sum(i, 0, n, F(i))))
    concl = Implies(And(num(0) <= j, j <= n), F(j) <= Sum(i, 0, n, F(i)))
    th = _th([], concl, proof, "redteam_capture_term")
    _false_at(th, {"n": 1, "j": 0, "F": {0: 1, 1: -5}})
    assert _verify(th).status == BUILD_ERROR


# ------------------------------------------------------------------ 3. a sum over the naturals below 0
def test_redteam_sum_const_over_a_natural_index_from_a_negative_bound():
    """sum_{i=-1}^{0} c over a natural i is one term (i = 0), not two."""
    i, t, c = Nat("i"), Int("t"), Real("c")

    def proof(p):
        f = p.rule("finite_sum_linearity", "sum_const", i, t, num(0), c)
        return p.solve("done", [f, p.hyp("t_is")], Eq(Sum(i, t, 0, c), 2 * c))
    th = _th([("t_is", Eq(t, -1)), ("c_is", Eq(c, 1))], Eq(Sum(i, t, 0, c), 2 * c), proof, "redteam_nat_sum")
    _false_at(th, {"t": -1, "c": 1})
    r = _verify(th)
    assert r.status != PROVED


def test_redteam_sum_term_le_at_a_negative_position_of_a_natural_sum():
    i, t, j = Nat("i"), Int("t"), Int("j")
    F = Seq("F", REAL)

    def proof(p):
        f = p.rule("finite_sum_linearity", "sum_term_le", i, t, num(1), F(i), j)
        return p.solve("done", [f, p.hyp("t_is"), p.hyp("j_is"), p.hyp("nonneg")], F(j) <= Sum(i, t, 1, F(i)))
    from proofs.language.formula import ForAll
    hyps = [("t_is", Eq(t, -1)), ("j_is", Eq(j, -1)),
            ("nonneg", ForAll(i, Implies(And(t <= i, i <= 1), F(i) >= 0)))]
    th = _th(hyps, F(j) <= Sum(i, t, 1, F(i)), proof, "redteam_nat_term")
    _false_at(th, {"t": -1, "j": -1, "F": {-1: 5, 0: 0, 1: 0}})
    assert _verify(th).status != PROVED


# ------------------------------------------------------------------ 4. a trusted rule off by one
def test_redteam_a_rule_with_an_off_by_one_is_refuted_by_its_instances():
    """A contributor adds sum_const with (hi - lo + 2) terms and proves a sharper count with it:
    the random-instance check of every registered schema finds the false instance."""
    from proofs.kernel import rules as R
    from proofs.language.formula import Eq as Eq_
    bad = R.TrustedRule("redteam_sums", "k terms sum to k c (off by one)", "a test",
                        {"sum_const": ((R.VAR, R.INT, R.INT, R.NUM), lambda i, lo, hi, c: Implies(
                            hi >= lo - 1, Eq_(Sum(i, lo, hi, c), (hi - lo + 2) * c)))})
    from test_proofs_rules import _instance
    R.RULES[bad.id] = bad
    try:
        found = None
        for seed in range(50):
            args, env = _instance(seed, bad.id, "sum_const")
            f = R.schema_formula(bad.id, "sum_const", args)
            if evaluate(f, env) is not True:
                found = env
                break
        assert found is not None
    finally:
        del R.RULES[bad.id]


# ------------------------------------------------------------------ 5. a step hidden from the engines
def test_redteam_a_step_removed_from_the_list_is_checked_anyway():
    a = Real("a")

    def proof(p):
        f = p.solve("wishful", [p.hyp("h")], a >= 5)
        p.steps.remove(f.step)                         # nobody will look at it
        return f
    th = _th([("h", a >= 1)], a >= 5, proof, "redteam_hidden_step")
    _false_at(th, {"a": 1})
    r = _verify(th)
    assert r.status != PROVED and [s.step.id for s in r.steps] == ["wishful"]


# ------------------------------------------------------------------ 6. labels that become commands
def test_redteam_a_hypothesis_name_that_ends_the_comment():
    a = Real("a")
    name = "h\n(assert (= a 7))"
    with pytest.raises(ValueError):                   # a name that is not an identifier cannot be stated
        _th([(name, a >= 0)], Eq(a, 7), lambda p: p.solve("done", [p.hyp(name)], Eq(a, 7)), "redteam_label")
    th = _th([("h", a >= 0)], Eq(a, 7), lambda p: p.solve("done", [p.hyp(name)], Eq(a, 7)), "redteam_label")
    th.hypotheses = ((name, a >= 0),)                 # nor slipped in afterwards
    _false_at(th, {"a": 0})
    assert _verify(th).status == BUILD_ERROR


def test_redteam_a_display_form_that_ends_the_comment():
    with pytest.raises(FormulaError):
        Real("a", text="a\n(assert (= a 7))")


# ------------------------------------------------------------------ 8. check-bound's term table
def test_redteam_a_wrong_table_entry_is_caught():
    """|w*|^2 read as W (not W^2): check-bound would answer "holds" for M <= R^2 W + 1, false at
    W = 2; the table check sees the bound differ from its theorem."""
    import proofs.catalogue.bounds as pb
    from kernel_mutants import table_agrees
    from proofs.language.formula import dot
    from proofs.catalogue.perceptron_run import u
    wrong = tuple((k, "W" if k == dot(u, u) else v) for k, v in pb.perceptron_terms())
    rnd = random.Random(3)
    assert any(table_agrees(pb.BOUNDS["perceptron.margin_one"], rnd, terms=wrong) for _ in range(5))
