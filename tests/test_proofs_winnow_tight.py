"""winnow_halving_pow2_tight: M <= r(3 lg n - 2) for halving Winnow, n = 2^l >= 2, r >= 1.

The theorem is proved (z3, re-checked by cvc5, non-vacuous); weakening a hypothesis makes its
final inequality fail; the bound holds exactly on random disjunction data (run_winnow) and against
the exact adversary, which attains it; the CLI reports the search's optimality."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from learners import run_winnow
from learners.strategies import disjunction_datasets
from proofs import registry
from proofs.bounds import BOUNDS, implies
from proofs.engines import check_obligation
from proofs.runner import run_catalogue

TID = "winnow_halving_pow2_tight"
COMPOSITION = "winnow_pow2_tight_mistake_bound"


def tight(n: int, r: int) -> int:
    assert n >= 2 and n & (n - 1) == 0
    return r * (3 * (n.bit_length() - 1) - 2)


@pytest.fixture(scope="module")
def res():
    return run_catalogue([TID, "erratum_winnow_pow2_tight_r0"])


def test_theorem_proved_rechecked_and_non_vacuous(res):
    r = res.by_id(TID)
    assert r.theorem.kind == "theorem" and r.status == "proved" and r.ok
    assert set(r.theorem.trusted) == {"induction", "finite_sum_linearity", "pow2_log2"}
    assert "exact Winnow adversary" in r.theorem.source.where and "issue 4" in r.theorem.source.where
    for o in r.obligations:
        assert o.verdict.status == "proved", o.obligation.id
        assert o.cross_check is not None and o.cross_check.status == "proved", o.obligation.id
        assert o.cross_check.engine != o.verdict.engine
        if o.obligation.engine == "z3":
            assert o.hypotheses_sat is not None and o.hypotheses_sat.status == "proved", o.obligation.id
    comps = [o for o in r.obligations if o.obligation.role == "composition"]
    assert [o.obligation.id for o in comps] == [COMPOSITION]


def test_composition_fails_without_each_hypothesis(res):
    comp = res.by_id(TID).obligations[[o.obligation.id for o in res.by_id(TID).obligations].index(COMPOSITION)]
    names = {n for n, _ in comp.obligation.build()["hyps"]}
    assert set(comp.dropped) == names
    for h, v in comp.dropped.items():
        assert v.status == "refuted" and v.counterexample, h          # every hypothesis is needed


@pytest.mark.parametrize("oid, hyp", [
    ("fn_additions_below_r_times_sum", "r_at_least_1"),
    ("false_positives_le_2r_lg_n_minus_1", "after_last_fp"),
    ("fn_irrelevant_part_below_n_minus_charged", "false_negative"),
    ("relevant_doublings_le_lg_n_pow2", "lg_of_weight_before_last_doubling"),
])
def test_key_lemma_hypotheses_needed(res, oid, hyp):
    o = next(o for o in res.by_id(TID).obligations if o.obligation.id == oid)
    assert o.dropped[hyp].status == "refuted"


def _weakened(replace):
    """The composition with one hypothesis replaced by a weaker one."""
    import copy
    th = registry.get(TID)
    ob = copy.copy(th.obligation(COMPOSITION))
    base = ob.build

    def build():
        d = base()
        d["hyps"] = [(n, replace.get(n, lambda e: e)(e)) for n, e in d["hyps"]]
        return d
    ob.build = build
    return ob


def test_weakened_hypothesis_refutes_the_final_inequality():
    import z3
    ok = check_obligation(_weakened({}), nonvacuity=False, cross_check=False)
    assert ok.verdict.status == "proved"
    F, D, Sp, r, l = z3.Ints("F D Sp r ell")
    # one more false positive allowed (D <= 2r(l - 1) + 1): the bound r(3l - 2) fails
    weaker_fp = {"false_positives_bound": lambda e: z3.Implies(D >= 1, D < 2 + 2 * (r * (l - 1)))}
    v = check_obligation(_weakened(weaker_fp), nonvacuity=False, cross_check=False).verdict
    assert v.status == "refuted" and v.counterexample
    # n = 1 allowed (l >= 0): fails too
    v = check_obligation(_weakened({"n_pow2_at_least_2": lambda e: l >= 0}), nonvacuity=False, cross_check=False).verdict
    assert v.status == "refuted"


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
