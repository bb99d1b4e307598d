"""Littlestone's lower bound on r-literal monotone disjunctions, played against a learner
(Littlestone 1988, "Learning quickly when irrelevant attributes abound", Machine Learning 2,
section 7): the n variables are split into r blocks of 2^l(c) variables, and in each block a binary
search, one example per halving, turns on the left half of the block's remaining candidates (and
nothing else) and is labelled against the learner's prediction; the block's literal is kept among
the candidates that agree with the label.  Every example is a mistake, and the disjunction of the r
literals left labels every example as given.

With l = floor(lg(n/r)) and k = floor(n / 2^l) - r blocks of 2^(l+1) (the others of 2^l) the
blocks fit in n variables and force r l + k >= r floor(lg(n/r)) mistakes, the most any split into
r power-of-two blocks gives (two exponents two apart can be moved one closer each at no cost in
variables).  For every deterministic algorithm the same construction is the Coq theorem
``DisjunctionLowerBound.disjunction_lower_bound_blocks`` (``verify --coq``:
``learner_disjunction_lower_bound_blocks``); here it runs against the suite's learners --
Winnow (both variants, exact) and Halving over the class of all r-subsets -- and the row is
certified by replaying the finished sequence through the same learner.

``disjunction_cells()`` lists the adversary table's rows.
"""
from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

from learners import run_halving, run_winnow

__all__ = ["block_exponents", "forced_count", "force_blocks", "predictor", "disjunction_row", "disjunction_cells",
           "LEARNERS"]

LEARNERS = ("winnow_halve", "winnow_eliminate", "halving")


def block_exponents(n: int, r: int) -> list[int]:
    """The exponents of r power-of-two blocks that fit in n variables and sum to the most: with
    l = floor(lg(n/r)), k = floor(n/2^l) - r blocks of 2^(l+1) and r - k of 2^l."""
    if not (isinstance(n, int) and isinstance(r, int)) or not 1 <= r <= n:
        raise ValueError(f"need integers 1 <= r <= n, got n = {n!r}, r = {r!r}")
    l = (n // r).bit_length() - 1
    k = n // 2 ** l - r
    return [l + 1] * k + [l] * (r - k)


def forced_count(n: int, r: int) -> int:
    """The mistakes the blocks force: r floor(lg(n/r)) + k."""
    return sum(block_exponents(n, r))


def force_blocks(exponents, n: int, predict) -> dict:
    """The block-by-block binary search against ``predict(X, y, x) -> 0 or 1`` (the learner's
    prediction on x after the labelled examples X, y).  Returns X, y (labels in {0, 1}), the
    literal left in each block, and how many steps each block took."""
    X, y, target, start = [], [], [], 0
    for e in exponents:
        lo, h = start, 2 ** e
        while h > 1:
            h //= 2
            x = [1 if lo <= v < lo + h else 0 for v in range(n)]
            label = 1 - predict(X, y, x)
            X.append(x)
            y.append(label)
            if label == 0:
                lo += h
        target.append(lo)
        start += 2 ** e
    if start > n:
        raise ValueError(f"the blocks need {start} variables, only {n} are given")
    return {"X": X, "y": y, "target": target}


def _subsets(n: int, r: int):
    return list(combinations(range(n), r))


def predictor(learner: str, n: int, r: int):
    """(predict, replay) for one of ``LEARNERS``: ``predict(X, y, x)`` runs the learner on the
    sequence so far and reads its prediction on x (0 or 1); ``replay(X, y)`` is its full run on
    the finished sequence, returning its mistakes (every one of them recounted from scratch)."""
    if learner in ("winnow_halve", "winnow_eliminate"):
        variant = learner.split("_", 1)[1]

        def predict(X, y, x):
            return int(run_winnow(X + [x], y + [1], variant=variant, exact=True).steps[-1].prediction)

        def replay(X, y):
            return run_winnow(X, y, variant=variant, exact=True).mistakes if X else 0
        return predict, replay
    if learner == "halving":
        H = _subsets(n, r)

        def labels(X):
            return [[1 if any(x[v] for v in S) else -1 for x in X] for S in H]

        def predict(X, y, x):
            tr = run_halving(labels(X + [x]), [2 * b - 1 for b in y] + [1])
            return 1 if tr.steps[-1].prediction == 1 else 0

        def replay(X, y):
            return run_halving(labels(X), [2 * b - 1 for b in y]).mistakes if X else 0
        return predict, replay
    raise ValueError(f"unknown learner {learner!r} (known: {', '.join(LEARNERS)})")


def disjunction_row(n: int, r: int, learner: str) -> dict:
    """One row: the blocks of ``block_exponents(n, r)`` forced against the learner, replayed;
    certified when every example is a mistake, the r literals (one per block, distinct, below n)
    label every example, and the count reaches the forced r floor(lg(n/r)) + k."""
    predict, replay = predictor(learner, n, r)
    exps = block_exponents(n, r)
    seq = force_blocks(exps, n, predict)
    X, y, target = seq["X"], seq["y"], seq["target"]
    M = replay(X, y)
    consistent = all(int(any(x[v] for v in target)) == lab for x, lab in zip(X, y))
    forced = sum(exps)
    ok = (consistent and M == len(X) == forced and len(set(target)) == r and all(0 <= v < n for v in target))
    halving_bound = math.log2(math.comb(n, r))          # what Halving (so the best learner) guarantees
    return {"mistakes": M, "bound": Fraction(forced), "ok": ok, "lower": True,
            "figures": {"n": n, "r": r, "learner": learner, "block_exponents": exps, "target": target,
                        "r_floor_lg_n_over_r": r * ((n // r).bit_length() - 1), "consistent": consistent,
                        "every_step_a_mistake": M == len(X), "lg_binom_n_r": round(halving_bound, 4)},
            "data": {"X": X, "y": y, "target": target, "learner": learner}}


def disjunction_cells():
    """(algorithm, label, name, builder) for the adversary table: n not a multiple of r 2^l, so
    some blocks are larger, against Winnow's two variants and Halving."""
    return [
        ("lower_bound", "r-of-n blocks Winnow n=48 r=4", "lower_blocks_winnow_halve_n48_r4",
         lambda: disjunction_row(48, 4, "winnow_halve")),
        ("lower_bound", "r-of-n blocks Win.elim n=40 r=3", "lower_blocks_winnow_eliminate_n40_r3",
         lambda: disjunction_row(40, 3, "winnow_eliminate")),
        ("lower_bound", "r-of-n blocks Halving n=20 r=3", "lower_blocks_halving_n20_r3",
         lambda: disjunction_row(20, 3, "halving")),
    ]
