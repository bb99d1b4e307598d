"""The proof kernel and the runner refuse what is not a proof, and fail closed.

Each test builds a small theorem and checks the one thing the kernel or the runner must do with
it: refuse a hypothesis that is not a fact, a forged fact, a conclusion other than the stated one,
an unused step, a misshapen induction, an instantiation of a fixed variable; report refuted,
vacuous, undecided or disputed steps as not proved; name the trusted rules of lemmas.
"""
from __future__ import annotations

import dataclasses

import pytest

from proofs.catalogue.core import BUILD_ERROR, Source, Theorem
from proofs.engines.engines import PROVED, REFUTED, SAT, UNKNOWN, Verdict
from proofs.language.formula import VEC, And, Eq, FormulaError, Implies, Nat, Real, Seq, Vec, dot, forall_below, num, vzero
from proofs.language.substitution import subst
from proofs.kernel.kernel import Fact, KernelError, Proof, induction_goals
from proofs.printers.render import latex, text
from proofs.verify.runner import build, run_catalogue
from proofs.printers.smtlib import problem

a, b, c = Real("a"), Real("b"), Real("c")
SRC = Source("", "a test", "a test")


def _th(hyps, concl, proof, tid="t_test"):
    return Theorem(id=tid, name="test", source=SRC, hypotheses=hyps, conclusion=concl, proof=proof)


def _run(th):
    return run_catalogue([th]).by_id(th.id)


# ------------------------------------------------------------------ formulas
def test_formulas_compare_structurally_and_print():
    f = dot(Vec("w"), Vec("u")) >= 2 * Nat("M") * Real("g")
    assert f == (dot(Vec("w"), Vec("u")) >= 2 * Nat("M") * Real("g"))
    assert f != (dot(Vec("w"), Vec("u")) >= 3 * Nat("M") * Real("g"))
    assert text(f) == "w.u >= 2*M*g" and latex(f) == r"w \cdot u \ge 2 M g"
    with pytest.raises(FormulaError):
        bool(a <= b)                         # `if a <= b:` is a bug, not a comparison
    with pytest.raises(FormulaError):
        Vec("v") + a                         # sorts are checked


def test_substitution_refuses_capture():
    k, M = Nat("k"), Nat("M")
    y = Seq("y", "Real")
    f = forall_below(k, M, y(k) >= a)
    with pytest.raises(FormulaError):
        subst(f, {a: y(k)})                  # k would be captured by the binder
    assert text(subst(f, {a: num(1)})) == "for all k < M: y(k) >= 1"


def test_smtlib_is_the_statement_itself():
    w, x = Vec("w"), Vec("x")
    text_ = problem([("h", Eq(dot(w, x), 0))], dot(w + x, w + x) >= 0)
    assert "(mb_dot (mb_vadd w x) (mb_vadd w x))" in text_      # not expanded
    assert "(assert (not " in text_ and text_.endswith("(check-sat)\n")


# ------------------------------------------------------------------ the kernel refuses
def test_a_retyped_formula_is_not_a_fact():
    def proof(p):
        return p.solve("s", [a >= 1], a >= 0)          # a formula typed at the call site
    r = _run(_th([("h", a >= 1)], a >= 0, proof))
    assert r.status == BUILD_ERROR and "must be a fact" in r.reasons[0]


def test_a_strengthened_copy_of_a_hypothesis_is_not_a_fact():
    def proof(p):
        return p.solve("s", [a >= 2], a >= 2)          # "a >= 2" was never proved
    r = _run(_th([("h", a >= 1)], a >= 2, proof))
    assert r.status == BUILD_ERROR


def test_facts_cannot_be_forged_or_changed():
    th = _th([("h", a >= 1)], a >= 1, lambda p: p.hyp("h"))
    p = Proof(th)
    with pytest.raises(KernelError):
        Fact(object(), a >= 1, "solve", p)
    h = p.hyp("h")
    with pytest.raises(KernelError):
        h.formula = a >= 2


def test_a_fact_of_another_proof_is_refused():
    other = Proof(_th([("h", a >= 5)], a >= 5, lambda p: p.hyp("h"), tid="other"))
    smuggled = other.hyp("h")

    def proof(p):
        return p.solve("s", [smuggled], a >= 5)
    assert _run(_th([], a >= 5, proof)).status == BUILD_ERROR


def test_the_conclusion_must_be_the_statement():
    def proof(p):
        return p.solve("s", [p.hyp("h")], a >= 0)       # proves something else
    r = _run(_th([("h", a >= 1)], a >= 1, proof))
    assert r.status == BUILD_ERROR and "states" in r.reasons[0]


def test_an_unused_step_is_refused():
    def proof(p):
        p.solve("spare", [p.hyp("h")], a >= 0)
        return p.solve("s", [p.hyp("h")], a >= 1)
    assert _run(_th([("h", a >= 1)], a >= 1, proof)).status == BUILD_ERROR


def test_a_rule_is_only_its_schema():
    th = _th([], a >= 0, lambda p: p.hyp("x"))
    p = Proof(th)
    with pytest.raises(KernelError):
        p.rule("pow2_log2", "no_such_schema", a)
    with pytest.raises(KernelError):
        p.rule("finite_sum_linearity", "dot_nonneg", a)      # a number where a vector is needed
    f = p.rule("finite_sum_linearity", "dot_nonneg", Vec("v"))
    assert f.formula == (dot(Vec("v"), Vec("v")) >= 0) and "finite_sum_linearity" in p.rules


def test_induction_checks_the_shape_of_its_premises():
    k, M = Nat("k"), Nat("M")
    s = Seq("s", "Real")
    P = s(k) >= k

    def good(p):
        base_goal, step_goal = induction_goals(k, P, M)
        base = p.solve("base", [p.hyp("start")], base_goal)
        step = p.solve("step", [p.inst(p.hyp("grow"), k)], step_goal)
        return p.solve("end", [p.inst(p.induction(k, P, base, step, M), M)], s(M) >= M)

    def bad(p):                               # the step proves a different predicate
        base_goal, _ = induction_goals(k, P, M)
        base = p.solve("base", [p.hyp("start")], base_goal)
        step = p.solve("step", [p.inst(p.hyp("grow"), k)], Implies(And(num(0) <= k, k < M, P), s(k + 1) >= k))
        return p.solve("end", [p.inst(p.induction(k, P, base, step, M), M)], s(M) >= M)
    hyps = [("start", Eq(s(0), 0)), ("grow", forall_below(k, M, s(k + 1) >= s(k) + 1))]
    r = _run(_th(hyps, s(M) >= M, good))
    assert r.status == PROVED and r.rules == ["induction"]
    assert _run(_th(hyps, s(M) >= M, bad)).status == BUILD_ERROR


def test_a_variable_fixed_by_a_hypothesis_cannot_be_specialized():
    def proof(p):
        f = p.solve("s", [p.hyp("h")], a >= 1)
        g = p.specialize(f, {a: num(7)})        # a is fixed by the hypothesis a >= 1
        return p.solve("t", [g], a >= 1)
    assert _run(_th([("h", a >= 1)], a >= 1, proof)).status == BUILD_ERROR


def test_generalization_binds_only_variables_no_hypothesis_mentions():
    z = Vec("z")

    def sound(p):                             # |z|^2 >= 0 for a z no hypothesis mentions: for every z
        f = p.solve("s", [p.rule("finite_sum_linearity", "dot_nonneg", z)], dot(z, z) >= 0)
        g = p.generalize(f, z)
        assert text(g.formula) == "for all z: |z|^2 >= 0" and g.how == "generalize"
        return p.solve("t", [g, p.hyp("h")], a + dot(Vec("w"), Vec("w")) >= 1)
    r = _run(_th([("h", a >= 1)], a + dot(Vec("w"), Vec("w")) >= 1, sound))
    assert r.status == PROVED, r.reasons

    def fixed(p):                             # a is fixed by the hypothesis a >= 1: "for all a: a >= 1" is false
        f = p.solve("s", [p.hyp("h")], a >= 1)
        return p.solve("t", [p.generalize(f, a)], b >= 1)
    assert _run(_th([("h", a >= 1)], b >= 1, fixed)).status == BUILD_ERROR

    def theirs(p):                            # a appears in a hypothesis the fact does not rest on: refused too
        f = p.solve("s", [], a * a >= 0)
        return p.solve("t", [p.generalize(f, a), p.hyp("h")], b * b >= 0)
    assert _run(_th([("h", a >= 1)], b * b >= 0, theirs)).status == BUILD_ERROR

    def absent(p):                            # a variable the fact does not mention binds nothing
        f = p.solve("s", [], b * b >= 0)
        return p.solve("t", [p.generalize(f, c)], b * b >= 0)
    assert _run(_th([], b * b >= 0, absent)).status == BUILD_ERROR


def test_lemma_instances_and_integer_instances_of_naturals():
    k, M = Nat("k"), Nat("M")
    s_ = Seq("s", "Real")
    th = _th([("each", forall_below(k, M, s_(k) >= 0))], a >= 0, lambda q: None)
    p = Proof(th)
    f = p.lemma("cauchy_schwarz", {"a": Vec("p"), "b": Vec("q")})
    assert text(f.formula) == "(p.q)^2 <= |p|^2*|q|^2" and f.how == "lemma"
    with pytest.raises(KernelError):
        p.lemma("cauchy_schwarz", {"no_such_var": Vec("p")})
    with pytest.raises(KernelError):
        p.lemma("erratum_claim2_strict", {})    # an erratum is not a lemma
    # k is a natural: its instance at the integer M - 2 holds only where M - 2 >= 0
    g = p.inst(p.hyp("each"), M - 2)
    assert text(g.formula) == "M - 2 >= 0 ==> 0 <= M - 2 and M - 2 < M ==> s(M - 2) >= 0"
    assert text(p.inst(p.hyp("each"), k + 1).formula) == "0 <= k + 1 and k + 1 < M ==> s(k + 1) >= 0"


# ------------------------------------------------------------------ the runner fails closed
def test_a_false_step_is_refuted_with_a_counterexample():
    r = _run(_th([("h", a >= 1)], a >= 2, lambda p: p.solve("s", [p.hyp("h")], a >= 2)))
    assert r.status == REFUTED and r.steps[0].verdict.counterexample


def test_contradictory_hypotheses_prove_nothing():
    r = _run(_th([("pos", a > 0), ("neg", a < 0)], Eq(a, 7),
                 lambda p: p.solve("s", [p.hyp("pos"), p.hyp("neg")], Eq(a, 7))))
    assert r.steps[0].verdict.status == PROVED          # ex falso ...
    assert r.status != PROVED and not r.ok             # ... but never counted


def test_hypotheses_unsatisfiable_on_the_instance_prove_nothing():
    # M <= 0 together with a per-step hypothesis: no run with M = 2 mistakes satisfies them
    k, M = Nat("k"), Nat("M")
    s = Seq("s", "Real")
    hyps = [("no_mistakes", M <= 0), ("each", forall_below(k, M, s(k) >= 0))]
    r = _run(_th(hyps, M <= 0, lambda p: p.solve("s", [p.hyp("no_mistakes")], M <= 0)))
    assert r.nonvacuity.status != SAT and r.status != PROVED


def test_a_disputed_or_undecided_second_opinion_is_not_proved(monkeypatch):
    import proofs.verify.checks as checks
    th = _th([("h", a >= 1)], a >= 0, lambda p: p.solve("s", [p.hyp("h")], a >= 0), tid="t_disputed")
    for status in (UNKNOWN, REFUTED):
        class Fake:
            def __init__(self, *args, **kw):
                pass

            def get(self, status=status):
                return Verdict(status, "cvc5", 0.0, reason="simulated")
        monkeypatch.setattr(checks, "PendingCvc5", Fake)
        r = _run(th)
        assert r.status != PROVED and not r.ok


def test_an_erratum_whose_counterexample_does_not_falsify_is_not_refuted():
    th = Theorem(id="t_erratum", name="x", source=SRC, kind="erratum", hypotheses=[("h", a >= 1)],
                 conclusion=a >= 0, counterexample={"a": 3})
    r = _run(th)
    assert r.status != REFUTED and "conclusion holds" in " ".join(r.reasons)


def test_lemmas_pass_on_their_trusted_rules():
    def proof(p):
        cs = p.lemma("cauchy_schwarz", {"a": Vec("p"), "b": Vec("q")})
        return p.solve("s", [cs], dot(Vec("p"), Vec("q"))**2 <= dot(Vec("p"), Vec("p")) * dot(Vec("q"), Vec("q")))
    r = _run(_th([], dot(Vec("p"), Vec("q"))**2 <= dot(Vec("p"), Vec("p")) * dot(Vec("q"), Vec("q")), proof))
    assert r.status == PROVED
    assert r.own_rules == [] and "finite_sum_linearity" in r.rules     # inherited from cauchy_schwarz


def test_build_is_solver_free_and_keeps_the_final_fact():
    from proofs.catalogue import registry
    b = build(registry.get("block_novikoff_unit"))
    assert not b.error and b.fact.formula == registry.get("block_novikoff_unit").conclusion
    assert {s.kind for s in b.proof.steps} == {"solve", "identity"}


def test_theorem_statement_is_hypotheses_implies_conclusion():
    th = _th([("h", a >= 1), ("g", b >= a)], b >= 1, lambda p: None)
    assert th.statement == Implies(And(a >= 1, b >= a), b >= 1)
    assert text(th.statement) == "a >= 1 and b >= a ==> b >= 1"
    th2 = dataclasses.replace(th, hypotheses=())
    assert th2.statement == (b >= 1)


_ = (VEC, vzero, c)
