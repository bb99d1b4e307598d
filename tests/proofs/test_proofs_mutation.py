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

from catalogue_mutants import (REVIEWED_TRUE, EditedProof, count_solve_calls, entailed, mutation_summary,
                              proof_edits, statement_edits, unchanged_lemmas_built_once, write_mutation_report)
from proofs.catalogue import registry
from proofs.verify.checks import Options
from proofs.catalogue.core import BUILD_ERROR, PROVED
from proofs.verify.runner import run_catalogue
pytestmark = pytest.mark.slow       # minutes of work: not in the quick check (-m "not slow")

THEOREMS = [t for t in registry.all_theorems() if t.kind == "theorem"]
COUNTS: dict = collections.defaultdict(collections.Counter)
# a mutated step that the solvers cannot decide in 1 s is "unknown" (never "proved"); the
# catalogue's own steps take well under a second.  Whether each hypothesis is needed plays no part
# in an outcome (not asked); cvc5 only on a step z3 proved: the outcome is the same
OPTIONS = Options(timeout_ms=1000, necessity=False, eager_cross_check=False)


@pytest.fixture(scope="module", autouse=True)
def _report(request):
    from proofs.engines import cache
    saved = cache.enabled()
    cache.set_enabled(False)              # every mutant's verdicts come from the engines, none from disk
    with unchanged_lemmas_built_once():   # the unchanged lemmas are built once, not once per mutant
        yield
    cache.set_enabled(saved)
    workeroutput = getattr(request.config, "workeroutput", None)
    if workeroutput is not None:
        # a worker of ``-n 2``: its output is not shown, and the other worker ran other mutants; the
        # controller adds up the counts of both and reports them (tests/conftest.py)
        workeroutput["mutation_counts"] = json.dumps({k: dict(v) for k, v in COUNTS.items()})
        return
    capman = request.config.pluginmanager.get_plugin("capturemanager")
    if COUNTS and capman is not None:
        with capman.global_and_fixture_disabled():      # shown even when output is captured
            print("\n" + "\n".join(mutation_summary(COUNTS)))
    write_mutation_report(COUNTS)


def _status(th, make_proof=None):
    return run_catalogue([th], make_proof=make_proof, options=OPTIONS).by_id(th.id)


# A proof edit leaves the statement as it is, so the engines' verdict on an edit that may build is
# not asserted (any outcome is sound: the statement is true); what is asserted is that the edits
# which must not build (a retyped, forged, or strengthened-and-matched fact) are build errors, and
# that no edit crashes the runner.  Every must-not-build edit runs; of the others, one in
# UNASSERTED_SAMPLE (a fixed rotation over steps and kinds) -- all of them with
# MISTAKEBOUND_MUTATION_FULL=1 or when a mutation report is written.
UNASSERTED_SAMPLE = 3
FULL = os.environ.get("MISTAKEBOUND_MUTATION_FULL") == "1" or bool(os.environ.get("MISTAKEBOUND_MUTATION_REPORT"))


@pytest.mark.parametrize("th", THEOREMS, ids=[t.id for t in THEOREMS])
def test_mutation_proof_edits_never_prove_a_false_statement(th):
    n, sizes = count_solve_calls(th)
    assert n > 0, "every theorem's proof has at least one solver step"
    bad = []
    for i, edit in enumerate(proof_edits(n, sizes)):
        if not (FULL or edit.expect_build_error or i % UNASSERTED_SAMPLE == 0):
            COUNTS["sampled out:proof"]["not run"] += 1
            continue
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
            reviewed = (th.id, edit.label()) in REVIEWED_TRUE
            # a reviewed case is true for its written reason: z3 is not asked again (where the
            # original does not imply it, the question runs into its 60 s guard every time)
            e = "reviewed" if reviewed else entailed(th, mutant)
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

from proofs.printers.concrete import evaluate  # noqa: E402
from proofs.catalogue.core import REFUTED  # noqa: E402
from proofs.language.formula import And, Implies, dot, num  # noqa: E402
from proofs.kernel.kernel import Proof  # noqa: E402


class RetypeInFinalStep(Proof):
    """Replaces, in the step named ``step``, the fact built from ``fact_label`` by a typed formula."""
    target_step, target_fact, formula, goal = "", "", None, None

    def solve(self, sid, facts, goal, title=""):
        if sid == self.target_step:
            facts = [self.formula if self.target_fact in getattr(f, "label", "") else f for f in facts]
            goal = self.goal
        return super().solve(sid, facts, goal, title)


def test_mutation_audit_block_novikoff_unit():
    from proofs.catalogue.perceptron_run import M, g, u, w
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
    from proofs.catalogue.block_novikoff import _growth
    from proofs.catalogue.perceptron_run import at_M, progress_invariant

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
    from proofs.catalogue.perceptron_2d import F, M, a as a_, g, k
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
    from proofs.catalogue.perceptron_run import M, g
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


# ------------------------------------------------------------------ the other classes of edits
from kernel_mutants import (CallEditedProof, call_edits, display_edits, schema_edits, table_edits,  # noqa: E402
                            table_agrees)
from proofs.verify.runner import build  # noqa: E402


def _built_steps(b):
    return [(s.id, s.kind, s.goal, tuple(f.formula for _, f in s.hyps)) for s in b.proof.steps]


@pytest.mark.parametrize("th", THEOREMS, ids=[t.id for t in THEOREMS])
def test_mutation_kernel_calls_labels_and_displays_never_prove_a_false_statement(th):
    """specialize / induction / inst / rule arguments, the step list, display forms and labels."""
    bad = []
    for edit in call_edits(th):
        holder = {}

        def make(t, edit=edit):
            holder["p"] = CallEditedProof(t, edit)
            return holder["p"]
        if edit.full_check:
            status = _status(th, make).status
        else:
            b = build(th, make)
            status = BUILD_ERROR if b.error else "built"
        if not holder["p"].applied:
            continue
        COUNTS["call:" + edit.kind][status] += 1
        if edit.expect_build_error and status != BUILD_ERROR:
            bad.append(f"{edit.label()}: {status}, expected a build error")
        if edit.kind == "steps:hide_from_list" and (b.error or _built_steps(b) != _built_steps(build(th))):
            bad.append(f"{edit.label()}: the steps checked are not the conclusion's dependencies")
        # the statement is unchanged: a full check that says "proved" has a valid proof of it
    for label, mutant in display_edits(th):
        b = build(mutant)
        COUNTS["statement:" + label][BUILD_ERROR if b.error else "built"] += 1
        if not b.error:
            bad.append(f"{label}: built, expected a build error")
    assert not bad, "; ".join(bad)


# Schema edits that leave a rule true (each read and explained): anything else that survives the
# random instances fails the suite until a person has looked at it.
SCHEMA_EDITS_STILL_TRUE: dict[tuple[str, str], str] = {
    ("sum_succ", "int_shift_down"): "the premise hi >= lo is stronger than hi >= lo - 1: a weaker rule",
    ("vsum_succ", "int_shift_down"): "the premise hi >= lo is stronger than hi >= lo - 1: a weaker rule",
    ("sum_const", "int_shift_down"): "the premise hi >= lo is stronger than hi >= lo - 1: a weaker rule",
    ("sum_split", "int_shift_down"): "the premise lo <= m is stronger than lo - 1 <= m: a weaker rule",
    ("vsum_empty", "int_shift_up"): "sum_{i=lo}^{lo-2} is empty too: the same rule",
    ("sum_empty", "int_shift_up"): "sum_{i=lo}^{lo-2} is empty too: the same rule",
}


def test_mutation_rule_schemas_edited_are_caught_on_random_instances():
    """Every edit of every trusted rule's schema (an integer constant off by one, a premise
    dropped, the conclusion flipped or made strict): the random-instance check of the rules
    finds an instance the edited schema gets wrong -- false there, or speaking of a value outside
    a function's domain where the rule does not."""
    import approx_eval
    from approx_eval import approx
    from proofs.printers.concrete import NotExact, evaluate
    from proofs.kernel.rules import RULES
    from test_proofs_rules import _instance
    survivors = []
    approx_eval.STRICT = True
    try:
        for rid, name, ek, sorts, mutated in schema_edits():
            build_ = RULES[rid].schemas[name][1]
            caught = applied = False
            for seed in range(150):
                args, env = _instance(seed, rid, name, ints_as_vars=True)
                checked = _checked(rid, name, args)
                f, orig = mutated(*checked), build_(*checked)
                if f is None or f == orig:
                    continue
                applied = True
                holds = _value(f, env, evaluate, approx, NotExact)
                if holds is False or (holds is None and _value(orig, env, evaluate, approx, NotExact) is not None):
                    caught = True
                    break
            if not applied:
                continue
            COUNTS["schema:" + ek]["caught" if caught else "reviewed: still true"] += 1
            if not caught and (name, ek) not in SCHEMA_EDITS_STILL_TRUE:
                survivors.append(f"{rid}.{name}/{ek}")
    finally:
        approx_eval.STRICT = False
    assert not survivors, "schema edits not caught: " + ", ".join(survivors)


def _value(f, env, evaluate, approx, NotExact):
    """True/False: the formula's value on the instance (exact when it can be, else 60 digits);
    None: it speaks of a value outside a function's domain (lg or sqrt of a negative number, a
    power with a negative exponent, an empty sum of vectors on its own)."""
    try:
        return evaluate(f, env) is True
    except NotExact:
        pass
    except (ValueError, TypeError, ZeroDivisionError):
        return None
    try:
        return bool(approx(f, env))
    except (NotExact, ValueError, TypeError, ZeroDivisionError):
        return None


def _checked(rid, name, args):
    from proofs.kernel.rules import RULES, _check_sorts
    return _check_sorts(rid, name, RULES[rid].schemas[name][0], args)


def test_mutation_bounds_table_edits_are_caught():
    from proofs.catalogue.bounds import BOUNDS
    rnd = random.Random(11)
    missed = []
    for label, terms, variables in table_edits():
        caught = any(table_agrees(b, rnd, terms=terms, variables=variables)
                     for b in BOUNDS.values() for _ in range(4))
        COUNTS[label]["caught" if caught else "missed"] += 1
        if not caught:
            missed.append(label)
    assert not missed, "table edits not caught: " + ", ".join(missed)


import random  # noqa: E402


# ------------------------------------------------------------------ sorts, the domain, the trusted base
from kernel_mutants import SortEditedProof, domain_edits, guarded  # noqa: E402


@pytest.mark.parametrize("how", ["subst", "hand"])
def test_mutation_sorts_dressed_as_natural_are_guarded(how):
    """At every inst, lemma and specialize of every theorem, every natural-number variable is given
    t - 1 made to look natural (through a substitution, or by hand): the instance the kernel makes
    carries t - 1 >= 0 (or the proof no longer builds).  Was: no guard, so a weight bound at a
    negative index followed."""
    bad, n = [], 0
    for th in THEOREMS:
        holder = {}

        def make(t):
            holder["p"] = SortEditedProof(t, how)
            return holder["p"]
        build(th, make)
        p = holder.get("p")
        for call, terms, fact in (p.sort_log if p is not None else []):
            for t in terms:
                n += 1
                ok = guarded(fact.formula, t)
                COUNTS[f"sorts:{how}_{call}"]["guarded" if ok else "NOT GUARDED"] += 1
                if not ok:
                    bad.append(f"{th.id}: {call} at {t!r}")
    assert n > 20, f"only {n} natural-number instances edited"
    assert not bad, "unguarded: " + "; ".join(bad[:5])


def test_mutation_assumptions_against_the_domain_never_hold():
    """check-bound with assumptions no run satisfies (each domain constraint contradicted, a
    quantity given two values, the setting contradicted, a new name pinned off the domain): bad
    input or "vacuous", never "holds" -- the claim M <= 0 is false for every run."""
    from learners.errors import InputError
    from refutation.bound_check import check_bound
    bad = []
    for label, alg, conds in domain_edits():
        try:
            v = check_bound(alg, "0", budget=5, search=False, assume=conds)
            out = v.status
        except InputError as e:
            out = "bad input" if "leaves the domain" in str(e) else f"other error: {e}"
        COUNTS[label][out] += 1
        if out not in ("bad input", "vacuous"):
            bad.append(f"{alg} {conds}: {out}")
    assert not bad, "; ".join(bad)


def test_mutation_schema_edits_at_run_time_stop_the_start_up_check(tmp_path, monkeypatch):
    """Every edit of every schema, made in memory after a clean start-up check was cached: the
    start-up check that verify runs sees the edit (the fingerprint covers the code in memory, so
    the cached pass is not reused) and names the rule -- except the reviewed edits that leave the
    rule true.  The start-up check is the schemas' checks one after another, so each edit is put
    to its own schema's check with the seed the start-up check would use; the first edit of each
    kind also goes through the whole cached start-up check."""
    from proofs.kernel import trusted_base
    from proofs.kernel.rules import RULES
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    trusted_base.check()                                  # the clean pass, cached
    clean = trusted_base.rules_fingerprint()
    import random
    from proofs.kernel.rules import _check_sorts
    survivors, whole = [], set()
    for rid, name, ek, sorts, mutated in schema_edits():
        old = RULES[rid].schemas[name]
        applied = False
        for seed in range(20):            # an edit that changes nothing on any instance is not a mutant
            args, _ = trusted_base._instance(random.Random(seed), rid, name)
            checked = _check_sorts(rid, name, sorts, args)
            f = mutated(*checked)
            if f is not None and f != old[1](*checked):
                applied = True
                break
        if not applied:
            continue
        RULES[rid].schemas[name] = (sorts, mutated)
        try:
            fp = trusted_base.rules_fingerprint()
            assert fp != clean, f"{rid}.{name}/{ek}: the edit leaves the start-up check's fingerprint unchanged"
            if ek not in whole:
                whole.add(ek)
                try:
                    trusted_base.check()
                    caught = False
                except trusted_base.TrustedBaseError as e:
                    caught = f"{rid}.{name}" in str(e)
            else:
                caught = any(f"{rid}.{name}" in m for m in
                             trusted_base.schema_failures(rid, name, seed=int(fp[:8], 16)))
        finally:
            RULES[rid].schemas[name] = old
        COUNTS["start-up:schema_" + ek]["stopped" if caught else "passed"] += 1
        if not caught and (name, ek) not in SCHEMA_EDITS_STILL_TRUE:
            survivors.append(f"{rid}.{name}/{ek}")
    assert whole == {"int_shift_up", "int_shift_down", "drop_premise", "conclusion_flip", "conclusion_tighten"}
    assert not survivors, "schema edits the start-up check let through: " + ", ".join(survivors)


def test_mutation_table_edits_at_run_time_stop_check_bound(tmp_path, monkeypatch):
    """Every entry of proofs.catalogue.bounds' term table scaled or shifted and every pair of its variables
    swapped, in memory: check-bound's start-up check of its table names an entry."""
    import proofs.catalogue.bounds as pb
    from proofs.kernel.trusted_base import TrustedBaseError
    from refutation import bound_table
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    bound_table.check()
    missed = []
    base_terms, base_vars = pb.perceptron_terms, pb.VARIABLES
    for label, terms, variables in table_edits():
        try:
            if terms is not None:
                pb.perceptron_terms = lambda terms=terms: terms
            if variables is not None:
                pb.VARIABLES = variables
            pb._expr_of.cache_clear()        # as in a process started on the edited table
            bound_table.check()
            caught = False
        except TrustedBaseError as e:
            caught = "check-bound entry" in str(e)
        finally:
            pb.perceptron_terms, pb.VARIABLES = base_terms, base_vars
            pb._expr_of.cache_clear()
        COUNTS["start-up:" + label]["stopped" if caught else "passed"] += 1
        if not caught:
            missed.append(label)
    assert not missed, "table edits check-bound's start-up check let through: " + ", ".join(missed)
