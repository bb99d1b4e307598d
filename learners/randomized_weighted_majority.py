"""Randomized Weighted Majority (Littlestone & Warmuth 1994; Blum's 15-859 notes; Cesa-Bianchi &
Lugosi 2006, ch. 2): predict with expert i with probability w_i / W, then multiply the weight of
every wrong expert by beta.

The weights do not depend on the coins, so the probability of a mistake at step t is exactly
F_t = (weight of the wrong experts) / W, and the expected number of mistakes is sum_t F_t -- a
``Fraction`` in exact mode (``extras["expected_mistakes"]``, one F_t per step in
``extras["mistake_probability"]``).  :func:`expected_mistakes_over_coins` recomputes it by
summing over every outcome of the coins (small runs only).  With m the best expert's mistakes,
E[M] <= (m ln(1/beta) + ln n) / (1 - beta) (``proofs/catalogue/randomized_weighted_majority_bound.py``).

The coins are replayed from ``seed`` (a draw u in [0, 1) picks the first expert whose cumulative
weight exceeds u W, compared exactly): ``Step.prediction`` and ``Trace.mistakes`` are that run's;
``Step.activation`` is the probability of predicting +1.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np

from learners.core import check_record
from learners.errors import InputError
from learners.experts import check_advice, check_beta, expert_mistakes
from learners.trace import Step, Trace

__all__ = ["run_randomized_weighted_majority", "expected_mistakes_over_coins"]


def _pick(w, u):
    acc = 0
    total = sum(w)
    for i, v in enumerate(w):
        acc += v
        if u * total < acc:
            return i
    return len(w) - 1


def run_randomized_weighted_majority(A, y, *, beta=Fraction(1, 2), exact: bool = True, seed=0,
                                     record: str = "all") -> Trace:
    record = check_record(record)
    A, yl = check_advice(A, y)
    b = check_beta(beta, allow_zero=False, exact=exact)
    if seed is None:
        raise InputError("the coins need an explicit seed (runs must be reproducible)")
    rng = np.random.default_rng(seed)
    T, n = A.shape
    one = Fraction(1) if exact else 1.0
    w = [one] * n
    steps, mis, probs = [], [], []
    expected = one * 0
    for t in range(T):
        row = A[t].tolist()
        total = wrong = plus = one * 0
        for i in range(n):
            total += w[i]
            if row[i] != yl[t]:
                wrong += w[i]
            if row[i] == 1:
                plus += w[i]
        f = wrong / total
        probs.append(f)
        expected += f
        u = rng.random()
        pred = row[_pick(w, Fraction(u) if exact else u)]
        m = pred != yl[t]
        mis.append(m)
        for i in range(n):
            if row[i] != yl[t]:
                w[i] = w[i] * b
        if record == "all" or (m and record == "mistakes"):
            steps.append(Step(t=t, epoch=0, index=t, label=yl[t], activation=plus / total, prediction=pred,
                              mistake=m, weights=tuple(w)))
    return Trace(algorithm="randomized_weighted_majority", exact=exact, n_examples=T, n_features=n, epochs=1,
                 record=record, steps=steps, mistakes=sum(mis), n_steps=T, weights=tuple(w), bias=None,
                 initial_weights=(one,) * n, initial_bias=None, order=list(range(T)), mistake_flags=mis,
                 params={"beta": str(Fraction(b)) if exact else b, "seed": seed},
                 extras={"expected_mistakes": expected, "mistake_probability": probs,
                         "expert_mistakes": expert_mistakes(A, yl)})


def expected_mistakes_over_coins(A, y, *, beta=Fraction(1, 2), limit: int = 200_000) -> Fraction:
    """E[M] by summing over every outcome of the coins (the expert drawn at every step), each
    outcome weighted by its probability, replaying the weights along it: n^T outcomes."""
    A, yl = check_advice(A, y)
    b = check_beta(beta, allow_zero=False, exact=True)
    T, n = A.shape
    if n ** T > limit:
        raise InputError(f"{n}^{T} coin outcomes is more than {limit}")
    total = Fraction(0)
    for picks in product(range(n), repeat=T):
        w, p, mistakes = [Fraction(1)] * n, Fraction(1), 0
        for t, i in enumerate(picks):
            row = A[t].tolist()
            p *= w[i] / sum(w)
            mistakes += row[i] != yl[t]
            w = [v * b if row[j] != yl[t] else v for j, v in enumerate(w)]
        total += p * mistakes
    return total
