"""Mutation tests of the catalogue: no edit of a proof or of a statement makes a false statement
verify as "proved" (``pytest -k mutation``).

The mutants are generated (``tests/catalogue_mutants.py``): every edit kind at every step of
every theorem, and edits of every stated hypothesis and conclusion.  Each outcome is one of
*build error* (the kernel refused the proof), *refuted*, *unknown*, or *proved*; "proved" is
accepted only for an unchanged statement (the edit left a valid proof) or for a statement the
original implies.  Set MISTAKEBOUND_MUTATION_REPORT=FILE to write the counts by kind and outcome.
"""
from __future__ import annotations

import collections
import json
import os

import pytest

from catalogue_mutants import (REVIEWED_TRUE, EditedProof, count_solve_calls, entailed, proof_edits,
                              statement_edits)
from proofs import registry
from proofs.core import BUILD_ERROR, PROVED
from proofs.runner import run_catalogue
pytestmark = pytest.mark.slow       # minutes of work: not in the quick check (-m "not slow")

THEOREMS = [t for t in registry.all_theorems() if t.kind == "theorem"]
COUNTS: dict = collections.defaultdict(collections.Counter)


@pytest.fixture(scope="module", autouse=True)
def _report():
    # a mutated step that the solvers cannot decide in 2 s is "unknown" (never "proved"); the
    # catalogue's own steps take well under a second
    import proofs.checks
    saved = proofs.checks.TIMEOUT_MS, proofs.checks.NECESSITY, proofs.checks.EAGER_CROSS_CHECK
    proofs.checks.TIMEOUT_MS = 2000
    proofs.checks.NECESSITY = False       # whether each hypothesis is needed plays no part in an outcome
    proofs.checks.EAGER_CROSS_CHECK = False   # cvc5 only on a step z3 proved: the outcome is the same
    yield
    proofs.checks.TIMEOUT_MS, proofs.checks.NECESSITY, proofs.checks.EAGER_CROSS_CHECK = saved
    path = os.environ.get("MISTAKEBOUND_MUTATION_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({k: dict(v) for k, v in sorted(COUNTS.items())}, fh, indent=1, sort_keys=True)


def _status(th, make_proof=None):
    return run_catalogue([th], make_proof=make_proof).by_id(th.id)


@pytest.mark.parametrize("th", THEOREMS, ids=[t.id for t in THEOREMS])
def test_mutation_proof_edits_never_prove_a_false_statement(th):
    n, sizes = count_solve_calls(th)
    assert n > 0, "every theorem's proof has at least one solver step"
    bad = []
    for edit in proof_edits(n, sizes):
        holder = {}

        def make(t, edit=edit):
            holder["p"] = EditedProof(t, edit)
            return holder["p"]
        r = _status(th, make)
        if not holder["p"].applied:
            continue
        kind = "proof:" + edit.kind.split(":")[0] + (":" + edit.kind.split(":")[1] if ":" in edit.kind else "")
        COUNTS[kind][r.status] += 1
        if edit.expect_build_error and r.status != BUILD_ERROR:
            bad.append(f"{edit.label()}: {r.status}, expected a build error")
        # a proof edit leaves the statement as it is: "proved" means a valid proof of a true statement
    assert not bad, "; ".join(bad)


@pytest.mark.parametrize("th", THEOREMS, ids=[t.id for t in THEOREMS])
def test_mutation_statement_edits_never_prove_a_false_statement(th):
    bad = []
    for edit in statement_edits(th):
        mutant = edit.apply(th)
        if mutant is None or mutant.statement == th.statement:
            continue
        r = _status(mutant)
        COUNTS["statement:" + edit.kind.replace("[", ":")][r.status] += 1
        if r.status == PROVED:
            e = entailed(th, mutant)
            reviewed = (th.id, edit.label()) in REVIEWED_TRUE
            COUNTS["statement:proved"]["implied by the original" if e == "yes" else
                                       "reviewed true" if reviewed else "NOT SHOWN TRUE"] += 1
            if e != "yes" and not reviewed:
                bad.append(f"{edit.label()}: proved, the original does not imply it ({e}), and it is not reviewed")
    assert not bad, "; ".join(bad)


# ------------------------------------------------------------------ the three audited examples
# Each example of the audit is tried three ways: the composition's fact retyped (stronger) with a
# matching goal, the statement's conclusion changed to the false bound, and the proof's own
# invariant strengthened.  The false statements are shown false on exact runs.
import dataclasses  # noqa: E402
from fractions import Fraction  # noqa: E402

from proofs.concrete import evaluate  # noqa: E402
from proofs.core import REFUTED  # noqa: E402
from proofs.formula import And, Implies, dot, num  # noqa: E402
from proofs.kernel import Proof  # noqa: E402


class RetypeInFinalStep(Proof):
    """Replaces, in the step named ``step``, the fact built from ``fact_label`` by a typed formula."""
    target_step, target_fact, formula, goal = "", "", None, None

    def solve(self, sid, facts, goal, title=""):
        if sid == self.target_step:
            facts = [self.formula if self.target_fact in getattr(f, "label", "") else f for f in facts]
            goal = self.goal
        return super().solve(sid, facts, goal, title)


def test_mutation_audit_block_novikoff_unit():
    from proofs.perceptron_run import M, g, u, w
    th = registry.get("block_novikoff_unit")
    false_concl = M <= 1 / (4 * g**2)
    # 1. the invariant after M mistakes retyped as w.w* >= 2 M gamma, the goal changed to match
    class Edit(RetypeInFinalStep):
        target_step, target_fact = "unit_mistake_bound", "induction"
        formula = Implies(And(num(0) <= M, M <= M), And(dot(w(M), u) >= 2 * M * g, dot(w(M), w(M)) <= M))
        goal = false_concl
    assert _status(dataclasses.replace(th, conclusion=false_concl), lambda t: Edit(t)).status == BUILD_ERROR
    # 2. the false bound stated with the real proof: the composition step is refuted
    mutant = dataclasses.replace(th, conclusion=false_concl)
    assert _status(mutant).status in (REFUTED, BUILD_ERROR, "unknown") and _status(mutant).status != PROVED
    # 3. the proof's own invariant strengthened to 2 gamma per mistake: the induction step is refuted
    from proofs.block_novikoff import _growth
    from proofs.perceptron_run import at_M, progress_invariant

    def strong(p):
        inv = progress_invariant(p, 2 * g, 1, growth=_growth("claim1_correlation_growth", "claim2_unit_examples",
                                                               "margin", "unit_examples"))
        cs = p.lemma("cauchy_schwarz", {"a": w(M), "b": u})
        return p.solve("unit_mistake_bound", [at_M(p, inv), cs, p.rule("finite_sum_linearity", "dot_nonneg", u),
                                              p.hyp("unit_target"), p.hyp("gamma_pos")], false_concl)
    r = _status(dataclasses.replace(th, conclusion=false_concl, proof=strong))
    assert r.status == REFUTED and any("invariant_step" in why for why in r.reasons)
    # and the mutated statement is false: an orthonormal run in R^4 with w* = (1/2, 1/2, 1/2, 1/2)
    from learners import run_perceptron
    X = [[1 if i == j else 0 for j in range(4)] for i in range(4)]
    tr = run_perceptron(X, [1, 1, 1, 1], exact=True)
    env = _run_env(X, [1] * 4, tr.mistakes, gamma=Fraction(1, 2), target=[Fraction(1, 2)] * 4)
    assert all(evaluate(h, env) for _, h in th.hypotheses)
    assert evaluate(th.conclusion, env) and not evaluate(false_concl, env)       # 4 mistakes > 1/(4 gamma^2) = 1


def _run_env(X, y, M, gamma, target):
    """The perceptron run restricted to its mistakes, as values of the catalogue's symbols."""
    from learners import run_perceptron
    tr = run_perceptron(X, y, exact=True)
    w, xs, ys = [tuple(Fraction(0) for _ in X[0])], [], []
    cur = list(w[0])
    for xi, yi in zip(X, y):
        act = sum(Fraction(a) * b for a, b in zip(xi, cur))
        if yi * act <= 0:
            xs.append(tuple(Fraction(v) for v in xi))
            ys.append(yi)
            cur = [c + yi * Fraction(v) for c, v in zip(cur, xi)]
            w.append(tuple(cur))
    assert len(xs) == M == tr.mistakes          # the suite's learner agrees with this replay
    return {"M": M, "g": gamma, "u": target, "w": w, "x": xs, "y": ys, "R": 1}


def test_mutation_audit_perceptron_2d():
    from adversary.perceptron_2d import sequence_2d
    from proofs.perceptron_2d import F, M, a as a_, g, k
    th = registry.get("perceptron_2d_half_bound")
    false_concl = And(3 * g**2 * (M - 1) <= 1, M <= F + 2)
    # 1. a(k+1) >= (k+1) gamma retyped as a(k+1) >= 2(k+1) gamma, the goal changed to match
    class Edit(RetypeInFinalStep):
        target_step, target_fact = "two_consecutive_mistakes", "induction on k[k + 1]"
        formula = Implies(And(num(0) <= k + 1, k + 1 <= M), a_(k + 1) >= 2 * (k + 1) * g)
        goal = Implies(And(num(0) <= k, k + 1 < M), 1 - g**2 >= (3 * k + 2) * g**2)
    assert _status(dataclasses.replace(th, conclusion=false_concl), lambda t: Edit(t)).status == BUILD_ERROR
    # 2. the false bound stated with the real proof
    assert _status(dataclasses.replace(th, conclusion=false_concl)).status != PROVED
    # and the mutated statement is false: the plane adversary's exact unit-length run at gamma = 1/5
    seq = sequence_2d(Fraction(1, 5), unit=True, N=200)
    z = seq.examples
    A, B = [Fraction(0)], [Fraction(0)]
    for z1, z2 in z:
        A.append(A[-1] + z1)
        B.append(B[-1] + z2)
    gamma = Fraction(1, 5)
    Fv = ((1 - gamma**2) / (2 * gamma**2)).__floor__()
    env = {"M": len(z), "g": gamma, "F": Fv, "a": A, "b": B, "z1": [p for p, _ in z], "z2": [q for _, q in z]}
    assert all(evaluate(h, env) for _, h in th.hypotheses)
    assert evaluate(th.conclusion, env) and not evaluate(false_concl, env)       # 10 mistakes, 3 gamma^2 9 > 1


def test_mutation_audit_mistake_count_flipped():
    from proofs.perceptron_run import M, g
    th = registry.get("block_novikoff_unit")
    false_concl = M <= 1 / (4 * g**2)
    # the count's nonnegativity "flipped" into a stated hypothesis M <= 0: no run with mistakes
    # satisfies the hypotheses, so nothing is proved
    mutant = dataclasses.replace(th, hypotheses=th.hypotheses + (("M_nonneg", M <= 0),), conclusion=false_concl)
    r = _status(mutant)
    assert r.status != PROVED and "not shown satisfiable" in " ".join(r.reasons)
    # the same flip typed into the final step as a fact
    class Edit(RetypeInFinalStep):
        target_step, target_fact = "unit_mistake_bound", "unit_target"
        formula = M <= 0
        goal = false_concl
    assert _status(dataclasses.replace(th, conclusion=false_concl), lambda t: Edit(t)).status == BUILD_ERROR
