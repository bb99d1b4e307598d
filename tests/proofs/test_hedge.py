"""Hedge (Freund & Schapire 1997): the learner against its definition, its two theorems proved by
the kernel (and false edits of them not), the adversary row certified exactly, and the Coq
learner statement printed from the catalogue entry."""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from learners import InputError, run_hedge, run_randomized_weighted_majority
from learners.hedge import rational_power
from proofs.catalogue import registry
from proofs.catalogue.core import PROVED
from proofs.verify.runner import run_catalogue

HALVES = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)])


def tables(values=HALVES, max_n=4, max_t=8):
    return st.integers(1, max_n).flatmap(lambda n: st.lists(st.lists(values, min_size=n, max_size=n),
                                                            min_size=1, max_size=max_t))


def _reference(L, beta):
    """Hedge from its definition: w_i = beta^(option i's loss so far), the step's loss averaged by w."""
    n, total, cum = len(L[0]), Fraction(0), [Fraction(0)] * len(L[0])
    for row in L:
        w = [rational_power(beta, c) for c in cum]
        total += sum(wi * li for wi, li in zip(w, row)) / sum(w)
        cum = [c + li for c, li in zip(cum, row)]
    return total, cum


@settings(max_examples=150, deadline=None)
@given(tables())
def test_hedge_exact_is_its_definition(L):
    beta = Fraction(1, 4)                       # beta^(k/2) = 2^-k: every weight rational
    tr = run_hedge(L, beta=beta)
    total, cum = _reference(L, beta)
    assert tr.extras["hedge_loss"] == total and tr.extras["expert_losses"] == cum
    assert tr.weights == tuple(rational_power(beta, c) for c in cum)
    assert math.isclose(run_hedge(L, beta=beta, exact=False).extras["hedge_loss"], float(total), rel_tol=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.tuples(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n),
                                                                 st.sampled_from([1, -1])), min_size=1, max_size=8)))
def test_hedge_with_0_1_losses_is_rwm_expected_mistakes(rows):
    A, y = [r for r, _ in rows], [lab for _, lab in rows]
    L = [[int(a != lab) for a in r] for r, lab in rows]
    assert run_hedge(L, beta=Fraction(1, 3)).extras["hedge_loss"] == \
        run_randomized_weighted_majority(A, y, beta=Fraction(1, 3)).extras["expected_mistakes"]


@settings(max_examples=150, deadline=None)
@given(tables(st.floats(0, 1), max_n=5, max_t=30), st.floats(0.05, 0.95))
def test_hedge_meets_freund_schapire_bound_in_floats(L, beta):
    tr = run_hedge(L, beta=beta, exact=False)
    n = len(L[0])
    for Lj in tr.extras["expert_losses"]:
        assert tr.extras["hedge_loss"] <= (math.log(1 / beta) * Lj + math.log(n)) / (1 - beta) + 1e-9


@settings(max_examples=100, deadline=None)
@given(tables(st.floats(0, 1), max_n=5, max_t=40).filter(lambda L: len(L[0]) >= 2))
def test_hedge_tuned_regret_in_floats(L):
    T, n = len(L), len(L[0])
    beta = math.exp(-math.sqrt(2 * math.log(n) / T))
    tr = run_hedge(L, beta=beta, exact=False)
    assert tr.extras["hedge_loss"] - min(tr.extras["expert_losses"]) <= math.sqrt(2 * T * math.log(n)) + 1e-9


def test_hedge_bad_input():
    with pytest.raises(InputError, match="not rational"):
        run_hedge([[Fraction(1, 2), 0]], beta=Fraction(1, 2))          # sqrt(1/2)
    with pytest.raises(InputError, match=r"\[0, 1\]"):
        run_hedge([[2, 0]])
    with pytest.raises(InputError, match="beta"):
        run_hedge([[1, 0]], beta=1)
    assert run_hedge([[Fraction(1, 2), 0]], beta=Fraction(1, 2), exact=False).extras["hedge_loss"] == 0.25


def test_rational_power():
    assert rational_power(Fraction(8, 27), Fraction(2, 3)) == Fraction(4, 9)
    assert rational_power(Fraction(1, 2), Fraction(1, 2)) is None
    assert rational_power(Fraction(9, 10), Fraction(0)) == 1


# ------------------------------------------------------------------ the theorems
HEDGE = ["hedge_bound", "hedge_regret_bound"]


@pytest.fixture(scope="module")
def cat():
    return run_catalogue(HEDGE)


@pytest.mark.parametrize("tid", HEDGE)
def test_hedge_theorems_proved(cat, tid):
    r = cat.by_id(tid)
    assert r.status == PROVED, r.reasons
    assert all(s.ok for s in r.steps) and r.nonvacuity.status == "sat"


def test_hedge_rules_and_lemmas(cat):
    assert {"exp_tangent", "finite_sum_linearity", "induction"} <= set(cat.by_id("hedge_bound").rules)
    r = cat.by_id("hedge_regret_bound")
    assert "exp_quadratic" in r.rules and "hedge_bound" in r.lemmas


def _scaled(th):
    c = th.conclusion
    lhs, rhs = c.args
    return dataclasses.replace(th, id=th.id + "_scaled", conclusion=type(c)(c.op, (lhs, rhs * Fraction(9, 10)), sort=c.sort))


def _dropped(th, name):
    return dataclasses.replace(th, id=th.id + "_without_" + name, hypotheses=[(n, f) for n, f in th.hypotheses if n != name])


EDITS = [("hedge_bound", None), ("hedge_bound", "losses_range"), ("hedge_bound", "option_in_range"),
         ("hedge_regret_bound", None), ("hedge_regret_bound", "tuned")]


@pytest.mark.parametrize("tid,drop", EDITS, ids=[f"{t}-{d or 'scaled'}" for t, d in EDITS])
def test_hedge_false_edit_is_not_proved(tid, drop):
    th = registry.get(tid)
    edited = _scaled(th) if drop is None else _dropped(th, drop)
    assert run_catalogue([edited]).by_id(edited.id).status != PROVED


# ------------------------------------------------------------------ the adversary row
def test_hedge_adversary_row_certified():
    from adversary.hedge_worst import exp_lower, exp_upper, hedge_row
    r = hedge_row(200)
    assert r["ok"] and isinstance(r["mistakes"], Fraction)
    assert 0.9 < float(r["mistakes"]) / r["bound"] <= 1
    for x in (Fraction(0), Fraction(7, 3), Fraction(513, 10)):
        assert exp_lower(x) <= exp_upper(x) and exp_upper(x) / exp_lower(x) < 1 + Fraction(1, 10 ** 30)
    e_lo, e_hi = Fraction(2718281828459045235360287, 10 ** 24), Fraction(2718281828459045235360288, 10 ** 24)
    assert e_lo < exp_lower(Fraction(1)) <= exp_upper(Fraction(1)) < e_hi       # e = 2.718281828459045235360287...


def test_hedge_spared_row_is_tight_and_is_rwms_expectation():
    from adversary.experts_worst import rwm_spared_row
    from adversary.hedge_worst import hedge_spared_row
    r = hedge_spared_row()
    lo, hi = r["figures"]["ratio_interval"]
    assert r["ok"] and r["tight"] == "ratio" and Fraction(99, 100) <= lo <= hi < 1
    assert r["mistakes"] == rwm_spared_row()["mistakes"]          # Hedge on 0/1 losses = RWM's E[M]
    small = hedge_spared_row(n=8, cycles=1, spare_cycles=1)       # too short to come near the bound
    assert small["ok"] and small["tight"] is None


def test_hedge_adversary_certificate_refuses_a_false_bound(monkeypatch):
    """The certificate compares exp((1 - beta) L) with n (1/beta)^m: a run claimed with twice its loss fails."""
    import adversary.hedge_worst as hw
    real = hw.run_hedge

    def doubled(L, **kw):
        tr = real(L, **kw)
        tr.extras["hedge_loss"] *= 2
        return tr
    monkeypatch.setattr(hw, "run_hedge", doubled)
    assert not hw.hedge_row(200)["ok"]


# ------------------------------------------------------------------ the Coq learner statement
def test_hedge_learner_statement_printed_from_the_entry():
    from coq import learner_theorems as lth
    lt = next(t for t in lth.LEARNER_THEOREMS if t.id == "learner_hedge")
    stmt = lth.learner_statement(lt)
    assert "let LH : R := Mistakebound.LearnersHedge.hedge_loss beta n Mistakebound.LearnersHedge.hedge_start ex in" in stmt
    assert "(LH <= (((ln_inv_beta * Lj) + ln_n) / (1 - beta)))" in stmt
    # the losses' range, printed from its formula object (coq.learner_sides), read through nth
    assert "let loss := fun i : nat => nth i row 0 in" in stmt and "((0 <= (loss (i)%nat)) /\\ ((loss (i)%nat) <= 1))" \
        in stmt and "sum_incl" not in stmt
    files, errors = lth.learner_files([lt])
    assert errors == {} and f"Definition learner_hedge_statement : Prop :=\n  {stmt}.\n" in files[lth.STATEMENT_FILE]
    tuned = lth.learner_statement(next(t for t in lth.LEARNER_THEOREMS if t.id == "learner_hedge_regret"))
    assert "let T : nat := length ex in\n  (T >= 1)%nat ->\n  (ln_inv_beta = (sqrt ((2 * ln_n) / (INR (T)%nat)))) ->" in tuned
    assert tuned.endswith("((LH - Lj) <= (sqrt ((INR (2 * T)%nat) * ln_n)))") and "(T : nat)" not in tuned


# ------------------------------------------------------------------ Coq refuses weakened learners
@pytest.mark.slow
def test_coq_hedge_that_keeps_its_weights_and_an_adversary_that_agrees_prove_nothing(tmp_path, coq_report):
    """LearnersHedge.v weakened so that the weights never move (the learner then averages the
    losses uniformly: option 0 always at loss 1, option 1 at 0 give T/2 against a bound that stays
    at ln 2 / (1 - beta)), and LittlestoneLowerBound.v with an adversary that labels as the
    algorithm predicts: neither learner theorem is kernel-checked."""
    from coq import build
    from coq_support import copy_build
    bdir = copy_build(tmp_path)
    hedge, llb = (build.SRC / "LearnersHedge.v").read_text(), (build.SRC / "LittlestoneLowerBound.v").read_text()
    update = "fun i => w i * Rpower beta (nth i row 0)."
    against = "Definition against (p : Z) : Z := if Z.eqb p 1 then (-1)%Z else 1%Z."
    assert hedge.count(update) == 1 and llb.count(against) == 1
    ids = ["learner_hedge", "learner_ldim_lower_bound"]
    rep = build.build(ids, build_dir=bdir, sources={"LearnersHedge.v": hedge.replace(update, "fun i => w i."),
                                                    "LittlestoneLowerBound.v": llb.replace(against,
                                                                                           "Definition against (p : Z) : Z := p.")})
    assert sorted((t.id, t.status) for t in rep.learners) == sorted((i, build.FAILED) for i in ids)
    assert not rep.ok


@pytest.mark.slow
def test_coq_hedge_learner_computes_pythons_loss(tmp_path, coq_report):
    """The Coq learner of learner_hedge (LearnersHedge.v, over the reals) on 20 random tables of
    0/1 losses: Coq proves hedge_loss equal to run_hedge's exact total (beta^1 = beta and beta^0 = 1
    by Rpower's laws, then field), and refuses the total plus 1/100."""
    import random
    import subprocess
    from coq import build
    rng = random.Random(11)

    def r(q):
        q = Fraction(q)
        return f"({q.numerator} / {q.denominator})"

    def goal(L, beta, value):
        rows = "; ".join("[" + "; ".join(str(v) for v in row) + "]" for row in L)
        return (f"Goal hedge_loss {r(beta)} {len(L[0])} hedge_start [{rows}] = {r(value)}.\nProof.\n"
                "  cbv [hedge_loss hedge_step_loss hedge_update hedge_start sum_lt nth].\n"
                "  rewrite ?Rpower_O, ?Rpower_1 by lra. field.\nQed.\n")
    cases = []
    for _ in range(20):
        n, T = rng.randint(1, 3), rng.randint(1, 4)
        L = [[rng.randint(0, 1) for _ in range(n)] for _ in range(T)]
        beta = rng.choice([Fraction(1, 2), Fraction(1, 3), Fraction(3, 4)])
        cases.append((L, beta, run_hedge(L, beta=beta).extras["hedge_loss"]))
    head = ("Require Import Mistakebound.Prelude Mistakebound.LearnersHedge.\nRequire Import Reals List Lra.\n"
            "Import ListNotations.\nOpen Scope R_scope.\n")
    bdir = str(build.default_build_dir())

    def compiles(text, name):
        f = tmp_path / f"{name}.v"
        f.write_text(head + text)
        return subprocess.run(["coqc", "-R", bdir, "Mistakebound", str(f)], cwd=tmp_path, capture_output=True,
                              text=True).returncode == 0
    assert compiles("".join(goal(*c) for c in cases), "Agree")
    L, beta, v = cases[0]
    assert not compiles(goal(L, beta, v + Fraction(1, 100)), "Off")
