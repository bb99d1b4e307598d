"""winnow_halving_pow2_tight: M <= r(3 lg n - 2) for halving Winnow, n = 2^l >= 2, r >= 1.

The theorem is proved (z3, re-checked by cvc5, non-vacuous); weakening a hypothesis makes its
final inequality fail; the bound holds exactly on random disjunction data (run_winnow) and against
the exact adversary, which attains it; the CLI reports the search's optimality."""
import dataclasses
import json

import pytest
from hypothesis import given, settings, strategies as st

from learners import run_winnow
from learners.strategies import disjunction_datasets
from proofs.catalogue import registry
from proofs.catalogue.bounds import BOUNDS, implies
from proofs.engines.engines import PROVED, REFUTED, SAT
from proofs.verify.runner import run_catalogue

TID = "winnow_halving_pow2_tight"
COMPOSITION = "mistake_bound_tight"


def tight(n: int, r: int) -> int:
    assert n >= 2 and n & (n - 1) == 0
    return r * (3 * (n.bit_length() - 1) - 2)


@pytest.fixture(scope="module")
def res():
    return run_catalogue([TID, "erratum_winnow_pow2_tight_r0"])


def test_theorem_proved_rechecked_and_non_vacuous(res):
    r = res.by_id(TID)
    assert r.theorem.kind == "theorem" and r.status == "proved" and r.ok
    assert set(r.rules) == {"induction", "finite_sum_linearity", "pow2_log2"}
    assert "exact Winnow adversary" in r.theorem.source.where and r.theorem.source.note == ""    # this suite
    for o in r.steps:
        assert o.verdict.status == PROVED, o.step.id
        assert o.cross and all(v.status == PROVED and v.engine != o.verdict.engine for v in o.cross), o.step.id
        if o.step.hyps:
            assert o.hyps_sat is not None and o.hyps_sat.status == SAT, o.step.id
    assert r.nonvacuity.status == SAT
    assert COMPOSITION in [o.step.id for o in r.steps]


def _step(res, sid):
    return next(o for o in res.by_id(TID).steps if o.step.id == sid)


def test_composition_fails_without_each_hypothesis(res):
    comp = _step(res, COMPOSITION)
    assert set(comp.necessity) == {lab for lab, _ in comp.step.hyps}
    for h, v in comp.necessity.items():
        assert v.status == REFUTED and v.counterexample, h          # every hypothesis is needed


@pytest.mark.parametrize("sid, hyp", [
    (COMPOSITION, "r_pos"),
    (COMPOSITION, "weights_in_units_of_n"),                          # after a demotion I/n >= 1/2
    ("relevant_doublings_at_most_lg_n", "n_is_power_of_2"),
    ("weights_in_units_of_n", "general_lemmas"),
])
def test_key_lemma_hypotheses_needed(res, sid, hyp):
    assert _step(res, sid).necessity[hyp].status == REFUTED


def _weakened(name, formula):
    th = registry.get(TID)
    hs = tuple((n, formula if n == name else f) for n, f in th.hypotheses)
    return dataclasses.replace(th, hypotheses=hs)


def test_weakened_hypothesis_refutes_the_final_inequality():
    from proofs.catalogue.winnow_run import l, r
    # r >= 0 allowed (the r = 0 erratum): the last inequality fails
    v = run_catalogue([_weakened("r_pos", r >= 0)]).by_id(TID)
    assert v.status == REFUTED and any(o.verdict.status == REFUTED and o.verdict.counterexample for o in v.steps)
    # n = 1 allowed (l >= 0): fails too
    v = run_catalogue([_weakened("n_at_least_2", l >= 0)]).by_id(TID)
    assert v.status == REFUTED


def test_r_zero_erratum_refuted_by_a_real_run(res):
    e = res.by_id("erratum_winnow_pow2_tight_r0")
    assert e.status == "refuted" and e.ok and e.witness is not None and e.witness[0]
    assert run_winnow([[1, 1]], [0], variant="halve").mistakes == 1 > 0 == tight(2, 0)


def test_bound_exported():
    b = BOUNDS["winnow.halving_pow2_tight"]
    assert b.theorem == TID and "r >= 1" in b.hypotheses
    assert implies("1 + r*(3*lg(n) - 2)", "winnow.halving_pow2_tight").status == "proved"
    assert implies("r*(3*lg(n) - 2) - 1", "winnow.halving_pow2_tight").status == "refuted"


@st.composite
def _pow2_disjunctions(draw):
    n = draw(st.sampled_from([2, 4, 8, 16]))
    d = draw(disjunction_datasets(min_vars=n, max_vars=n, max_r=n, max_n=40, density=draw(st.sampled_from([None, 2, 5]))))
    return d, draw(st.integers(1, 3))


@settings(max_examples=120)
@given(_pow2_disjunctions())
@pytest.mark.slow
def test_run_winnow_never_exceeds_tight_bound(case):
    d, epochs = case
    tr = run_winnow(d.X, d.y, epochs=epochs, variant="halve", exact=True)
    assert isinstance(tr.mistakes, int)
    assert tr.mistakes <= tight(d.n, len(d.relevant))


@pytest.mark.parametrize("n, r, exact", [(2, 1, 1), (4, 1, 4), (4, 2, 7), (8, 1, 7), (8, 2, 14), (8, 4, 26),
                                         (16, 1, 10), (16, 2, 20)])
def test_exact_adversary_within_and_attaining(n, r, exact):
    from adversary.certify import certify
    from adversary.winnow_search import exhaustive_winnow
    seq = exhaustive_winnow(n, r, "halve", budget=20.0)
    c = certify(seq)
    assert c.ok and c.mistakes == exact <= tight(n, r) == c.figures["tight_bound"]
    if exact == tight(n, r):
        assert c.figures["ratio_tight"] == 1


def test_cli_reports_optimality(tmp_path, capsys):
    from mistakebound.cli import main
    f = tmp_path / "w.json"
    with pytest.raises(SystemExit) as e:
        main(["adversary", "winnow", "--n", "16", "--r", "2", "--out", str(f)])
    out, _ = capsys.readouterr()
    assert e.value.code == 0
    assert "tight_bound 20" in out and "ratio_tight 1" in out
    assert "optimal    yes" in out and "optimal by winnow_halving_pow2_tight" in out
    with pytest.raises(SystemExit) as e:
        main(["replay", str(f), "--json"])
    doc = json.loads(capsys.readouterr()[0])
    row = doc["files"][0]
    assert row["optimal"] is True and row["optimality_proof"] and row["meets_tight_bound"] is True
    assert row["figures"]["tight_bound"] == 20 and row["figures"]["ratio_tight"] == 1
    obj = json.loads(f.read_text())
    obj["meta"]["optimal"], obj["meta"]["optimality_proof"] = False, None
    g = tmp_path / "w2.json"
    g.write_text(json.dumps(obj))
    with pytest.raises(SystemExit):
        main(["replay", str(g)])
    out = capsys.readouterr()[0]
    assert "optimal    no (best found within the budget); mistakes = r(3 lg n - 2)" in out
