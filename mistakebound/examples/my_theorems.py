"""A theorem of one's own, on the proof kernel: a corollary of Block-Novikoff.

"On unit examples, with a unit target that separates them with margin at least 1/3, the
perceptron makes at most 9 mistakes."  The run is described with the catalogue's own vocabulary
(``proofs.catalogue.perceptron_run``: w(k) the weights before the k-th mistake, x(k), y(k) its example and
label, u the target w*, g the margin gamma), so the catalogue's Block-Novikoff theorem applies to
it as a lemma, at the very same formulas.

Check it:   python -m mistakebound verify --file mistakebound/examples/my_theorems.py
"""
from fractions import Fraction

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import Eq, dot, forall_below, num
from proofs.catalogue.perceptron_run import M, g, k, run_hypotheses, u, x, y

HYPOTHESES = run_hypotheses() + [                      # w(0) = 0, the updates, the mistakes, labels +-1
    ("margin", forall_below(k, M, y(k) * dot(x(k), u) >= g)),
    ("unit_examples", forall_below(k, M, Eq(dot(x(k), x(k)), 1))),
    ("unit_target", Eq(dot(u, u), 1)),
    ("gamma_pos", g > 0),
    ("margin_at_least_a_third", g >= num(Fraction(1, 3))),
]


def nine_mistakes(p):
    # the catalogue's theorem, stated at our variables: its hypotheses => M <= 1/gamma^2
    bn = p.lemma("block_novikoff_unit")
    ours = [p.hyp(name) for name, _ in HYPOTHESES if name != "margin_at_least_a_third"]
    bound = p.solve("block_novikoff", [bn] + ours, M <= 1 / g**2,
                    title="our hypotheses are Block-Novikoff's: M <= 1/gamma^2")
    return p.solve("at_most_nine", [bound, p.hyp("margin_at_least_a_third")], M <= 9,
                   title="gamma >= 1/3 gives 1/gamma^2 <= 9")


THEOREMS = [
    Theorem(
        id="perceptron_margin_third_nine_mistakes",
        name="With margin at least 1/3 the perceptron makes at most 9 mistakes",
        source=Source("", "a corollary of Block-Novikoff (Blum's notes, Theorem 1)",
                      "gamma >= 1/3 on unit examples with a unit target: M <= 1/gamma^2 <= 9."),
        hypotheses=HYPOTHESES,
        conclusion=M <= 9,
        proof=nine_mistakes,
    ),
]
