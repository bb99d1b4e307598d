"""The perceptron against Winnow when one input variable is relevant (Kivinen, Warmuth & Auer
1997, "The Perceptron algorithm versus Winnow: linear versus logarithmic mistake bounds when few
input variables are relevant", Artificial Intelligence 97): on the n rows of an n x n Hadamard
matrix (entries +-1, rows pairwise orthogonal), labelled by one variable x_1, the perceptron
started at 0 errs on every row -- before row t its weight vector is a sum of earlier rows, each
orthogonal to row t, so w.x_t = 0, a tie, and a tie is a mistake -- while Winnow, run on the same
rows read as 0/1 inputs, makes O(log n) mistakes on the one-literal disjunction x_1.

Block-Novikoff's bound is met exactly: u = e_1 labels every row with margin 1 and |u| = 1, every
row has |x|^2 = n, so (R |u| / gamma)^2 = n = the perceptron's mistakes.  The catalogue's
``perceptron_orthogonal_run`` proves that every run on pairwise orthogonal examples errs on every
one; this module builds the rows (Sylvester's construction, columns permuted so that the labelling
variable x_1 takes both signs), replays both learners exactly and certifies the figures.
``hadamard_cells()`` lists the adversary table's rows.
"""
from __future__ import annotations

import math
from fractions import Fraction

from learners import run_perceptron, run_winnow

__all__ = ["sylvester", "hadamard_rows", "perceptron_hadamard", "hadamard_cells"]


def sylvester(n: int) -> list[list[int]]:
    """Sylvester's Hadamard matrix of order n = 2^k: H[t][i] = (-1)^popcount(t & i)."""
    if not isinstance(n, int) or n < 1 or n & (n - 1):
        raise ValueError(f"a Sylvester Hadamard matrix needs n a power of 2, got {n!r}")
    return [[-1 if bin(t & i).count("1") % 2 else 1 for i in range(n)] for t in range(n)]


def hadamard_rows(n: int) -> list[list[int]]:
    """Sylvester's rows with column i moved to i XOR (n - 1): still pairwise orthogonal, and the
    first variable is (-1)^popcount(t), so both labels occur for n >= 2."""
    H = sylvester(n)
    return [[row[i ^ (n - 1)] for i in range(n)] for row in H]


def perceptron_hadamard(n: int) -> dict:
    """The row: the perceptron (no bias, w = 0, exact) on the rows labelled by x_1 against
    Block-Novikoff's (R|u|/gamma)^2 = n; Winnow's mistakes on the 0/1 rows as a figure, checked
    against its catalogue bound 2 + 3(1 + lg n) (``winnow_halving_bound``, r = 1)."""
    X = hadamard_rows(n)
    y = [row[0] for row in X]
    tr = run_perceptron(X, y, exact=True)
    orthogonal = all(sum(a * b for a, b in zip(X[s], X[t])) == (n if s == t else 0)
                     for s in range(n) for t in range(n))
    margin = min(yt * row[0] for yt, row in zip(y, X))                  # u = e_1: y_t u.x_t
    R2 = max(sum(v * v for v in row) for row in X)
    bound = Fraction(R2, margin ** 2)                                   # |u| = 1
    Xw = [[(1 + v) // 2 for v in row] for row in X]
    yw = [(1 + v) // 2 for v in y]
    wm = run_winnow(Xw, yw, variant="halve", exact=True).mistakes
    winnow_bound = 2 + 3 * (1 + math.log2(n))
    ok = orthogonal and margin == 1 and tr.mistakes == n == bound and wm <= winnow_bound and len(set(y)) == min(n, 2)
    return {"mistakes": tr.mistakes, "bound": bound, "ok": ok,
            "figures": {"n": n, "target": "x_1", "orthogonal": orthogonal, "margin": margin, "R2": R2,
                        "every_step_a_tie": all(s.activation == 0 for s in tr.steps),
                        "winnow_mistakes": wm, "winnow_bound": round(winnow_bound, 4)},
            "data": {"X": X, "y": y}}


def hadamard_cells():
    """(algorithm, label, name, builder) for the adversary table."""
    return [("perceptron_vs_winnow", f"perceptron Hadamard n={n} (KWA)", f"kwa_hadamard_n{n}",
             lambda n=n: perceptron_hadamard(n)) for n in (16, 64)]
