"""The Winnow theorems: stated on Winnow's run (per-variable weights, 0/1 examples, the label as the
disjunction of the relevant variables, threshold n, the update rule), proved through the kernel,
non-vacuous on a real run, their errata refuted by runs that run_winnow replays; and edits that
claim more than was proved do not verify."""
import dataclasses
import re
from fractions import Fraction

import pytest

from learners import run_winnow
from proofs.catalogue import registry
from proofs.printers.concrete import evaluate
from proofs.catalogue.core import BUILD_ERROR, PROVED, REFUTED
from proofs.language.formula import Eq, forall_below
from proofs.language.functions import lg
from proofs.language.substitution import subst
from proofs.verify.runner import run_catalogue
from proofs.catalogue.winnow_run import HALF, M, beta, i, n, r, run_hypotheses, w

THEOREMS = ["winnow_halving_bound", "winnow_elimination_bound", "winnow_halving_bound_integer", "winnow_halving_pow2",
            "winnow_elimination_pow2", "winnow_halving_pow2_tight"]
LEMMAS = ["winnow_relevant_weights", "winnow_total_weight"]
ERRATA = ["erratum_winnow_pow2_halving_n1", "erratum_winnow_pow2_elimination_r0", "erratum_winnow_pow2_tight_r0"]
VARIANT = {"winnow_halving_bound": "halve", "winnow_elimination_bound": "eliminate",
           "winnow_halving_bound_integer": "halve", "winnow_halving_pow2": "halve",
           "winnow_elimination_pow2": "eliminate", "winnow_halving_pow2_tight": "halve"}


@pytest.fixture(scope="module")
def cat():
    return run_catalogue(THEOREMS + ERRATA)


def test_every_winnow_entry_as_expected(cat):
    for tid in THEOREMS + LEMMAS:
        r = cat.by_id(tid)
        assert r.status == PROVED and r.ok, (tid, r.reasons)
        assert set(r.rules) <= {"induction", "finite_sum_linearity", "pow2_log2"}, (tid, r.rules)
        for s in r.steps:                                  # z3 and cvc5 on the same text, every step
            assert s.verdict.engine == "z3" and s.verdict.status == PROVED, (tid, s.step.id)
            assert [v.engine for v in s.cross] == ["cvc5"] and s.cross[0].status == PROVED, (tid, s.step.id)
    for tid in ERRATA:
        r = cat.by_id(tid)
        assert r.status == REFUTED and r.ok and r.exact[0] and r.witness[0], (tid, r.reasons)


def test_the_bounds_rest_on_the_two_general_lemmas(cat):
    for tid in THEOREMS:
        assert set(cat.by_id(tid).lemmas) == set(LEMMAS), tid
        assert all(v == PROVED for v in cat.by_id(tid).lemmas.values())


def test_hypotheses_describe_winnow():
    for tid in THEOREMS:
        th = registry.get(tid)
        names = [nm for nm, _ in th.hypotheses]
        assert names[:6] == ["n_pos", "relevant_among_variables", "examples_labelled_by_target", "weights_start_at_1",
                             "mistake_at_threshold_n", "update_on_mistake"], tid
        text = th.statement_text()
        assert "y(t) = min(1, sum_{i=0..r - 1} x(t, i))" in text           # the label: OR of the relevant x_i
        assert "sum_{i=0..n - 1} w(t, i)*x(t, i) >= n <=> y(t) = 0" in text  # predicts 1 iff w.x >= n, wrongly
        assert "w(t + 1, i) = 2*w(t, i)" in text
    # the halving rule is literally the general theorems' demotion at beta = 1/2 (the lemma applies as it is)
    general = dict(run_hypotheses("scales"))["update_on_mistake"]
    assert subst(general, {beta: HALF}) == dict(run_hypotheses("halves"))["update_on_mistake"]
    assert subst(general, {beta: 0}) != dict(run_hypotheses("eliminates"))["update_on_mistake"]


def _model_run(model: dict, how: str):
    sizes = dict((k, int(v)) for k, v in re.findall(r"(\w+) = (\d+)", how))
    m, nn = sizes["M"], sizes["n"]
    x = [[int(model[f"x({t}, {i})"]) for i in range(nn)] for t in range(m)]
    y = [int(model[f"y({t})"]) for t in range(m)]
    w = [[Fraction(model[f"w({t}, {i})"]) for i in range(nn)] for t in range(m + 1)]
    return sizes, x, y, w


@pytest.mark.parametrize("tid", THEOREMS)
def test_the_non_vacuity_model_is_a_winnow_run(cat, tid):
    """The model of the theorem's hypotheses (M mistakes over n variables) is a run of Winnow:
    run_winnow on its examples makes a mistake on each, with the model's weights after each."""
    r = cat.by_id(tid)
    sizes, x, y, w = _model_run(r.nonvacuity.counterexample, r.nonvacuity_how)
    assert sizes["M"] >= 1
    tr = run_winnow(x, y, variant=VARIANT[tid], exact=True)
    assert tr.mistakes == sizes["M"] and all(s.mistake for s in tr.steps)
    assert [list(tr.initial_weights)] + [list(s.weights) for s in tr.steps] == w
    relevant = range(sizes["r"])
    assert all(lab == int(any(row[i] for i in relevant)) for row, lab in zip(x, y))


def test_errata_are_the_theorems_without_their_side_condition():
    for eid, tid, dropped in [("erratum_winnow_pow2_tight_r0", "winnow_halving_pow2_tight", {"r_pos"}),
                              ("erratum_winnow_pow2_elimination_r0", "winnow_elimination_pow2", {"r_pos"}),
                              ("erratum_winnow_pow2_halving_n1", "winnow_halving_pow2", {"n_at_least_2"})]:
        e, th = registry.get(eid), registry.get(tid)
        assert e.conclusion == th.conclusion
        assert [h for h in th.hypotheses if h[0] not in dropped] == list(e.hypotheses)
        env = e.counterexample
        assert all(evaluate(f, env) for _, f in e.hypotheses) and not evaluate(e.conclusion, env)


def test_r_zero_runs_replayed():
    assert run_winnow([[1, 1]], [0], variant="halve", exact=True).mistakes == 1
    assert run_winnow([[1, 1]], [0], variant="eliminate", exact=True).weights == (0, 0)


# ------------------------------------------------------------------ edits that claim more
def _variant(th, **changes):
    return dataclasses.replace(th, id=th.id, **changes)


def test_a_stronger_tight_bound_does_not_verify():
    th = registry.get("winnow_halving_pow2_tight")
    # the adversary attains r(3 lg n - 2): one less is false, and the proof's last step is refuted
    bad = _variant(th, conclusion=M <= r * (3 * lg(n) - 3))
    res = run_catalogue([bad]).by_id(th.id)
    assert res.status != PROVED


@pytest.mark.slow
def test_strengthened_hypothesis_and_conclusion_do_not_verify():
    th = registry.get("winnow_halving_bound")
    # weights starting at 2 and the bound lowered by 1: the lemmas' hypotheses no longer hold
    start_at_2 = forall_below(i, n, Eq(w(0, i), 2))
    hs = [(nm, start_at_2 if nm == "weights_start_at_1" else f) for nm, f in th.hypotheses]
    bad = _variant(th, hypotheses=tuple(hs), conclusion=M <= 1 + 3 * (r * (1 + lg(n))))
    assert run_catalogue([bad]).by_id(th.id).status != PROVED


def test_a_retyped_fact_is_a_build_error():
    from proofs.kernel.kernel import Proof

    class Retyping(Proof):
        def solve(self, sid, facts, goal, title=""):
            if sid == "mistake_bound":
                facts = [f.formula if k == 0 else f for k, f in enumerate(facts)]
            return super().solve(sid, facts, goal, title)
    th = registry.get("winnow_elimination_bound")
    res = run_catalogue([th], make_proof=Retyping).by_id(th.id)
    assert res.status == BUILD_ERROR and "must be a fact of this proof" in res.reasons[0]
