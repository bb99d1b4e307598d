"""proofs.bounds: the proved bounds as formulas, and the implication check."""
import pytest

from proofs.bounds import BOUNDS, bound, implies
from proofs import registry


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
