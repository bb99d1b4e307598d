"""Weighted Majority (Littlestone & Warmuth 1994) with penalty beta, over n experts.

Every expert starts with weight 1.  Each step predicts the label whose experts carry more weight
(a tie predicts +1), then multiplies the weight of every expert that was wrong by beta (on every
step, a mistake of the learner or not).  With m the mistakes of the best expert it makes at most
(m ln(1/beta) + ln n) / ln(2/(1 + beta)) mistakes (``proofs/catalogue/weighted_majority_bound.py``);
beta = 1/2 gives 2.41 (m + lg n).  beta = 0 is Halving (:mod:`learners.halving`).

Exact mode keeps every weight a ``Fraction``; float mode multiplies in float64 (with beta a
power of two and fewer than ~1000 penalties per expert every weight is exact in both).
``Step.activation`` is W(+1) - W(-1), ``Step.weights`` the weights after the step;
``extras["total_weight"]`` the total weight after every step.
"""
from __future__ import annotations

from fractions import Fraction

from learners.core import check_record
from learners.experts import check_advice, check_beta, expert_mistakes
from learners.trace import Step, Trace

__all__ = ["run_weighted_majority"]


def run_weighted_majority(A, y, *, beta=Fraction(1, 2), exact: bool = True, record: str = "all") -> Trace:
    """WM on the advice table A (T x n of +1/-1) and labels y."""
    record = check_record(record)
    A, yl = check_advice(A, y)
    b = check_beta(beta, allow_zero=True, exact=exact)
    T, n = A.shape
    one = Fraction(1) if exact else 1.0
    w = [one] * n
    steps, mis, totals = [], [], []
    for t in range(T):
        row = A[t].tolist()
        act = one * 0
        for i in range(n):                 # one addition at a time, in index order
            act += w[i] if row[i] == 1 else -w[i]
        pred = 1 if act >= 0 else -1
        m = pred != yl[t]
        mis.append(m)
        for i in range(n):
            if row[i] != yl[t]:
                w[i] = w[i] * b
        total = one * 0
        for v in w:
            total += v
        totals.append(total)
        if record == "all" or (m and record == "mistakes"):
            steps.append(Step(t=t, epoch=0, index=t, label=yl[t], activation=act, prediction=pred, mistake=m,
                              weights=tuple(w)))
    return Trace(algorithm="weighted_majority", exact=exact, n_examples=T, n_features=n, epochs=1, record=record,
                 steps=steps, mistakes=sum(mis), n_steps=T, weights=tuple(w), bias=None, initial_weights=(one,) * n,
                 initial_bias=None, order=list(range(T)), mistake_flags=mis,
                 params={"beta": str(Fraction(b)) if exact else b},
                 extras={"total_weight": totals, "expert_mistakes": expert_mistakes(A, yl)})
