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


# ------------------------------------------------------------------ the term table, on instances
import random  # noqa: E402
from fractions import Fraction  # noqa: E402

from approx_eval import approx, close, mpf  # noqa: E402


def random_env(rnd: random.Random) -> dict:
    """Values for every variable of the bound theorems' conclusions: the perceptron's run (w* = u,
    the mistakes x(i), y(i), i < M), R, gamma, b*, and Winnow's n, r."""
    M = rnd.randint(0, 4)
    n = rnd.randint(1, 64)
    q = lambda lo, hi: Fraction(rnd.randint(lo * 4, hi * 4), 4)  # noqa: E731
    return {"M": M, "R": q(0, 3) + Fraction(1, 4), "g": q(0, 2) + Fraction(1, 8), "bu": q(-2, 2),
            "u": (q(-2, 2), q(-2, 2)), "x": {t: (q(-2, 2), q(-2, 2)) for t in range(M)},
            "y": {t: rnd.choice((-1, 1)) for t in range(M)}, "n": n, "r": rnd.randint(0, n)}


def table_agrees(b, rnd, terms=None, variables=None) -> str:
    """"" when the bound's expression, at the symbols' values (their definitions evaluated on a
    random instance), equals the theorem's conclusion's right-hand side there; else why not."""
    import sympy as sp

    import proofs.bounds as pb
    th = registry.get(b.theorem)
    c = th.conclusion.args[0] if th.conclusion.op == "and" else th.conclusion
    saved = pb.VARIABLES
    try:
        if variables is not None:
            pb.VARIABLES = variables
        expr = pb._expr_of(b.theorem, pb.perceptron_terms() if terms is None and b.terms is None
                           else (terms if terms is not None else b.terms))
    finally:
        pb.VARIABLES = saved
    env = random_env(rnd)
    want = approx(c.args[1], env)
    vals = {str(s): approx(pb.definitions()[str(s)], env) for s in expr.free_symbols}
    got = sp.lambdify(sorted(vals), expr, "mpmath")(*[vals[k] for k in sorted(vals)])
    return "" if close(got, want) else f"{b.id}: {expr} = {got} but the conclusion's bound is {want} at {env}"


@pytest.mark.parametrize("bid", sorted(BOUNDS))
def test_every_bound_is_its_theorems_conclusion_on_random_instances(bid):
    b = BOUNDS[bid]
    rnd = random.Random(bid)
    for _ in range(25):
        why = table_agrees(b, rnd)
        assert not why, why


def test_every_table_entry_is_used_and_a_wrong_entry_is_caught():
    import proofs.bounds as pb
    from proofs.render import text
    rnd = random.Random(7)
    used = {text(k) for b in BOUNDS.values() if b.terms is None for k, _ in pb.perceptron_terms()
            if k in set(_subterms(b))}
    assert used == {text(k) for k, _ in pb.perceptron_terms()}
    for j, (key, val) in enumerate(pb.perceptron_terms()):
        for wrong in ("2*(" + val + ")", val + " + 1"):
            terms = pb.perceptron_terms()[:j] + ((key, wrong),) + pb.perceptron_terms()[j + 1:]
            caught = any(table_agrees(b, rnd, terms=terms) for b in BOUNDS.values() if b.terms is None
                         for _ in range(5))
            assert caught, f"the entry {text(key)} -> {wrong} is not caught"


def _subterms(b):
    from proofs.substitution import walk
    th = registry.get(b.theorem)
    return list(walk(th.conclusion))


def test_the_explanation_is_printed_from_the_theorem():
    from proofs.render import text
    b = BOUNDS["perceptron.hinge"]
    th = registry.get(b.theorem)
    assert text(th.statement) in b.explanation() and "L = " in b.explanation()
    v = implies("R**2*W**2 + 2*L + 1", "perceptron.hinge")
    assert v.status == "proved" and text(th.conclusion) in v.reason


_ = mpf
