"""The side conditions of the learner theorems are formula objects printed by the catalogue's printer,
and one that restricts more than the catalogue entry's hypotheses is refused (no Coq needed)."""
from __future__ import annotations

import dataclasses

import pytest

from coq import learner_theorems as lth
from coq.learner_sides import Reads, Side, print_side
from proofs.language.formula import And, Eq, Int, Nat

pytestmark = pytest.mark.xdist_group("coq")

AT_MOST_3 = Side(Nat("len_ex") <= 3, "domain", Reads(lets=(("len_ex", "length ex"),)))


def _theorem(tid):
    return next(lt for lt in lth.LEARNER_THEOREMS if lt.id == tid)


def _with_side(lt, side):
    return dataclasses.replace(lt, learner=dataclasses.replace(lt.learner, side=lt.learner.side + (side,)))


def test_every_side_condition_is_printed_from_its_formula_object():
    files, errors = lth.learner_files()
    assert errors == {}
    sided = [lt for lt in lth.LEARNER_THEOREMS if getattr(lt.learner, "side", ())]
    assert {lt.id for lt in sided} >= {"learner_halving", "learner_weighted_majority", "learner_kernel_perceptron_radius",
                                       "learner_hedge", "learner_hedge_regret"}
    for lt in sided:
        stmt = lth.learner_statement(lt)
        for s in lt.learner.side:
            assert isinstance(s, Side) and print_side(s) in stmt
    # Halving's consistent hypothesis j is the catalogue's target_in_class read on the inputs
    halving = _theorem("learner_halving")
    assert [s.why for s in halving.learner.side] == ["domain", "domain", "reads target_in_class"]
    assert "(forall (row : list Z) (lab : Z), In (row, lab) ex -> let adv := fun i : nat => nth i row 0%Z in " \
           "((adv (j)%nat) = lab)%Z)" in lth.learner_statement(halving)


@pytest.mark.parametrize("why", ["domain", "reads target_in_class", "link"])
def test_at_most_three_examples_added_to_halving_is_refused(why):
    lt = _with_side(_theorem("learner_halving"), dataclasses.replace(AT_MOST_3, why=why))
    files, errors = lth.learner_files([lt])
    assert set(errors) == {"learner_halving"}
    assert "learner_halving: side condition (let len_ex := length ex in (len_ex <= 3)%nat)" in errors[lt.id]
    assert "learner_halving_statement" not in files[lth.STATEMENT_FILE]
    if why == "domain":
        assert "stronger than halving_bound's hypotheses: learners.run_halving accepts" in errors[lt.id]


def test_a_restriction_on_the_rows_of_weighted_majority_is_refused():
    """Labels +1 only: the Python learner accepts -1 labels, so the condition is stronger than the
    catalogue's hypotheses."""
    row = lth.WEIGHTED_MAJORITY.side[-1]
    plus_only = dataclasses.replace(row, formula=And(row.formula, Eq(Int("lab"), 1)))
    lt = _theorem("learner_weighted_majority")
    lt = dataclasses.replace(lt, learner=dataclasses.replace(lt.learner, side=lt.learner.side[:-1] + (plus_only,)))
    errors = lth.learner_files([lt])[1]
    assert "stronger than weighted_majority_bound's hypotheses" in errors["learner_weighted_majority"]


def test_a_stronger_reading_of_a_catalogue_hypothesis_is_refused():
    """Halving's target, hypothesis j right on every example, strengthened to 'and every label is +1'."""
    lt = _theorem("learner_halving")
    target = lt.learner.side[-1]
    stronger = dataclasses.replace(target, formula=And(target.formula, Eq(Int("lab"), 1)))
    lt = dataclasses.replace(lt, learner=dataclasses.replace(lt.learner, side=lt.learner.side[:-1] + (stronger,)))
    errors = lth.learner_files([lt])[1]
    assert "stronger than halving_bound's hypothesis target_in_class" in errors["learner_halving"]


def test_a_side_condition_on_an_unknown_variable_or_a_link_to_nothing_is_refused():
    lt = _with_side(_theorem("learner_kernel_perceptron_radius"), Side(Nat("i") < Nat("bound"), "domain",
                                                                        lt_reads := lth.KERNEL_PERCEPTRON.side[0].reads))
    assert "speaks of bound" in lth.learner_files([lt])[1]["learner_kernel_perceptron_radius"]
    # the kernel perceptron's visiting order: an index below n - 1 only is refused (Python visits n - 1)
    lt = _with_side(_theorem("learner_kernel_perceptron_radius"), Side(Nat("i") + 1 < Nat("n"), "domain", lt_reads))
    assert "stronger than block_novikoff_radius's hypotheses" in \
        lth.learner_files([lt])[1]["learner_kernel_perceptron_radius"]
    # a link must tie a read of the learner's input to a catalogue variable
    wm = _theorem("learner_weighted_majority")
    link = wm.learner.side[0]
    bad = dataclasses.replace(link, formula=Eq(link.formula.args[0], link.formula.args[0]))
    wm = dataclasses.replace(wm, learner=dataclasses.replace(wm.learner, side=(bad,) + wm.learner.side[1:]))
    assert "is not an equation between" in lth.learner_files([wm])[1]["learner_weighted_majority"]


def test_winnow_reads_any_r_of_the_n_variables_through_a_renaming():
    """learner_winnow_halving_any: the catalogue's variable i is the learner's sigma(i), for every sigma
    with sigma(i) < n below r -- any set of r relevant variables.  A renaming condition that restricts
    more than sigma (a bound on r), or excludes the identity, is refused."""
    lt = _theorem("learner_winnow_halving_any")
    stmt = lth.learner_statement(lt)
    assert stmt.startswith("forall (n : nat) (r : nat) (sigma : nat -> nat) (ex : list ((nat -> bool) * bool)),")
    assert "(forall (i : nat), (((0 <= i)%nat /\\ (i < r)%nat) -> ((sigma (i)%nat) < n)%nat)) ->" in stmt
    assert "xb ((sigma (i)%nat))%nat" in stmt and "(xb (i)%nat)" not in stmt
    assert "winnow_halving RN n ex" in stmt and "sigma" not in stmt.split("let M")[1]
    from proofs.language.formula import forall_below
    sigma, i = lth._sigma, Nat("i")
    small_r = Side(Nat("r") <= 3, "renaming")
    errors = lth.learner_files([_with_side(lt, small_r)])[1]
    assert "is not a condition on an input the learner's run does not read" in errors[lt.id]
    not_identity = Side(forall_below(i, Nat("r"), sigma(i) + 1 < Nat("n")), "renaming")
    errors = lth.learner_files([_with_side(lt, not_identity)])[1]
    assert "excludes the identity renaming" in errors[lt.id]
    on_examples = Side(And(forall_below(i, Nat("r"), sigma(i) < Nat("n")), Nat("len_ex") <= 3), "renaming",
                       Reads(lets=(("len_ex", "length ex"),)))
    assert lt.id in lth.learner_files([_with_side(lt, on_examples)])[1]


def test_a_further_hypothesis_must_be_a_catalogue_entrys():
    """The kernel theorems' feature map K(a, b) = phi(a).phi(b) is read from the catalogue entry that
    states it; a formula of the theorem's own (at most 3 examples) or a name no entry has is refused."""
    lt = _theorem("learner_kernel_perceptron_radius")
    assert lt.extra == (("kernel_freund_schapire_bound", "feature_map"),)
    assert "(forall (a : Vec) (b : Vec), ((K a b) = (dot dim_phi (phi a) (phi b)))) ->" in lth.learner_statement(lt)
    own = dataclasses.replace(lt, extra=lt.extra + (("few", Nat("n") <= 3),))
    assert "must name a catalogue entry's hypothesis" in lth.learner_files([own])[1][lt.id]
    unknown = dataclasses.replace(lt, extra=(("kernel_freund_schapire_bound", "few_examples"),))
    assert "has no hypothesis few_examples" in lth.learner_files([unknown])[1][lt.id]


@pytest.mark.parametrize("tid", ["learner_hedge", "learner_hedge_regret"])
def test_hedge_losses_in_range_is_a_formula_object_checked_against_run_hedge(tid):
    """Hedge's rows: every loss in [0, 1], the domain learners.run_hedge accepts; losses in [0, 1/2]
    (run_hedge accepts 1) or rows of exactly n losses read as "at most n" are refused."""
    from fractions import Fraction

    from proofs.language.formula import num
    lt = _theorem(tid)
    (side,) = lt.learner.side
    assert isinstance(side, Side) and side.why == "domain"
    assert "(forall (row : list R), In row ex -> let loss := fun i : nat => nth i row 0 in (forall (i : nat), " \
           "(((0 <= i)%nat /\\ (i < n)%nat) -> ((0 <= (loss (i)%nat)) /\\ ((loss (i)%nat) <= 1))))) ->" \
        in lth.learner_statement(lt)
    body = side.formula.args[-1].args[-1]              # 0 <= loss(i) and loss(i) <= 1
    assert body.op == "and" and body.args[1].op == "le"
    half = dataclasses.replace(side, formula=_swap(side.formula, body.args[1], body.args[1].args[0] <= num(Fraction(1, 2))))
    hedged = dataclasses.replace(lt, learner=dataclasses.replace(lt.learner, side=(half,)))
    errors = lth.learner_files([hedged])[1]
    assert "stronger than" in errors[tid] and "learners.run_hedge accepts" in errors[tid], errors


def _swap(f, old, new):
    """``f`` with the node ``old`` replaced by ``new``."""
    from proofs.language.formula import Expr
    if f is old or f == old:
        return new
    if f.op in ("var", "num") or not f.args:
        return f
    return Expr(f.op, tuple(_swap(a, old, new) for a in f.args), f.name, f.sort, f.value, f.tex, f.text)



def test_hedge_exact_sides_are_checked_against_the_exact_python_learner():
    """The rational Hedge's inputs (b, m, rows of k): k <= m, m >= 1 and b > 0 hold on every loss table
    run_hedge(exact=True) accepts (read with m the common denominator, b = beta^(1/m)); a side that
    bounds m further, or the losses below m, is refused; beta is linked to Q2R b ^ m."""
    from proofs.language.formula import Nat
    lt = _theorem("learner_hedge_exact")
    assert [s.why for s in lt.learner.side] == ["domain", "domain", "domain", "link"]
    assert lth.learner_files([lt])[1] == {}
    stmt = lth.learner_statement(lt)
    assert "(let b_m := Q2R b ^ m in (b_m = beta)) ->" in stmt and "((k (i)%nat) <= m)%nat" in stmt
    for strong in (Side(Nat("m") <= 2, "domain"),                         # the losses 1/3 (m = 3, 6) are accepted
                   dataclasses.replace(lt.learner.side[0], formula=_swap(
                       lt.learner.side[0].formula, lt.learner.side[0].formula.args[-1].args[-1],
                       lt.learner.side[0].formula.args[-1].args[-1].args[0] + 1 <= Nat("m")))):  # k < m: loss 1 too
        bad = dataclasses.replace(lt, learner=dataclasses.replace(lt.learner, side=lt.learner.side + (strong,)))
        errors = lth.learner_files([bad])[1]
        assert "stronger than" in errors[lt.id] and "run_hedge(exact=True) accepts" in errors[lt.id], errors


def test_a_verdict_asked_again_is_the_same_and_a_changed_condition_is_asked_afresh():
    """Every build prints every learner statement: the side checks' verdicts are kept in the process
    (coq.learner_sides._CHECKED), keyed by everything they read -- a refusal is refused again, and the
    same theorem with its own conditions back is accepted, not answered from the refusal."""
    from coq import learner_sides
    lt = _theorem("learner_halving")
    bad = _with_side(lt, AT_MOST_3)
    for _ in range(2):
        _, errors = lth.learner_files([bad])
        assert "side condition (let len_ex := length ex in (len_ex <= 3)%nat)" in errors[lt.id]
    assert any(v is not None and "len_ex <= 3" in v for v in learner_sides._CHECKED.values())
    _, errors = lth.learner_files([lt])
    assert errors == {}
