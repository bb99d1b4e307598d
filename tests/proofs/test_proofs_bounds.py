"""proofs.catalogue.bounds: the proved bounds as formulas, and the implication check."""
import pytest

from proofs.catalogue.bounds import BOUNDS, bound, implies
from proofs.catalogue import registry


def test_every_bound_names_a_catalogue_theorem():
    ids = set(registry.theorem_ids())
    for b in BOUNDS.values():
        assert b.theorem in ids
        assert registry.get(b.theorem).kind == "theorem"
        b.expr  # parses


@pytest.mark.parametrize("claimed,bid,status", [
    ("R**2*W**2 + 1", "perceptron.margin_one", "proved"),
    ("R**2*W**2/2", "perceptron.margin_one", "refuted"),
    ("R**2*W**2 + 2*L", "perceptron.hinge_exact", "proved"),
    ("R**2*W**2 + L", "perceptron.hinge_exact", "refuted"),
    ("3 + 3*r*(1 + lg(n))", "winnow.halving", "proved"),
    ("2 + 3*r*lg(n)", "winnow.halving", "refuted"),
    ("2 + 3*r*(1 + lg(n))", "winnow.halving_integer", "proved"),
])
def test_implies(claimed, bid, status):
    v = implies(claimed, bid)
    assert v.status == status, v
    if status == "refuted":
        assert v.counterexample


def test_unknown_bound_is_input_error():
    with pytest.raises(ValueError):
        bound("nope")
    with pytest.raises(ValueError):
        implies("R**", "perceptron.margin_one")


# ------------------------------------------------------------------ the term table, on instances
import random  # noqa: E402

from kernel_mutants import table_agrees  # noqa: E402


@pytest.mark.parametrize("bid", sorted(BOUNDS))
def test_every_bound_is_its_theorems_conclusion_on_random_instances(bid):
    b = BOUNDS[bid]
    rnd = random.Random(bid)
    for _ in range(25):
        why = table_agrees(b, rnd)
        assert not why, why


def test_every_table_entry_is_used_and_a_wrong_entry_is_caught():
    import proofs.catalogue.bounds as pb
    from proofs.printers.render import text
    rnd = random.Random(7)
    used = {text(k) for b in BOUNDS.values() if b.terms is None for k, _ in pb.perceptron_terms()
            if k in set(_subterms(b))}
    assert used == {text(k) for k, _ in pb.perceptron_terms()}
    for j, (key, val) in enumerate(pb.perceptron_terms()):
        wrong = "2*(" + val + ")"
        terms = pb.perceptron_terms()[:j] + ((key, wrong),) + pb.perceptron_terms()[j + 1:]
        caught = any(table_agrees(b, rnd, terms=terms) for b in BOUNDS.values() if b.terms is None
                     for _ in range(5))
        assert caught, f"the entry {text(key)} -> {wrong} is not caught"


def _subterms(b):
    from proofs.language.substitution import walk
    th = registry.get(b.theorem)
    return list(walk(th.conclusion))


def test_the_explanation_is_printed_from_the_theorem():
    from proofs.printers.render import text
    b = BOUNDS["perceptron.hinge"]
    th = registry.get(b.theorem)
    assert text(th.statement) in b.explanation() and "L = " in b.explanation()
    v = implies("R**2*W**2 + 2*L + 1", "perceptron.hinge")
    assert v.status == "proved" and text(th.conclusion) in v.reason



def test_check_bound_prints_the_theorem_it_uses():
    from proofs.printers.render import text
    from refutation.bound_proof import proved_statement
    th = registry.get("block_novikoff_margin_one")
    assert text(th.statement) in proved_statement("block_novikoff")
    assert proved_statement("one_per_trial").startswith("M <= n")       # a definition keeps its wording
