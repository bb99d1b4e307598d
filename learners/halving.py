"""The Halving algorithm over a finite hypothesis class (Littlestone 1988; Blum's 15-859 notes;
Shalev-Shwartz 2012, section 1.2).

The version space V starts as the whole class H; each step predicts the majority label of V (a
tie predicts +1) and then removes every hypothesis that disagrees with the true label.  On a
mistake at least half of V disagrees, so when some h in H labels every example correctly (the
realizable case) the learner makes at most log2 |H| mistakes (``proofs/catalogue/halving_bound.py``).
Halving is Weighted Majority with penalty beta = 0.  The Littlestone dimension of H is the best
bound any deterministic learner can guarantee; log2 |H| bounds it from above.

``Step.activation`` is (#V predicting +1) - (#V predicting -1); ``Step.weights`` the 0/1
membership of every hypothesis in V after the step.
"""
from __future__ import annotations

from fractions import Fraction

from learners.core import check_record
from learners.experts import advice_from_hypotheses, check_advice, expert_mistakes
from learners.trace import Step, Trace

__all__ = ["run_halving"]


def run_halving(H, y, X=None, *, exact: bool = True, record: str = "all") -> Trace:
    """Halving over the class ``H`` (callables with examples ``X``, or label lists) on labels y."""
    record = check_record(record)
    A, yl = check_advice(advice_from_hypotheses(H, X), y)
    T, n = A.shape
    one, zero = (Fraction(1), Fraction(0)) if exact else (1.0, 0.0)
    alive = [True] * n
    steps, mis, sizes = [], [], []
    for t in range(T):
        row = A[t].tolist()
        act = sum(row[i] for i in range(n) if alive[i])
        pred = 1 if act >= 0 else -1
        m = pred != yl[t]
        mis.append(m)
        for i in range(n):
            if row[i] != yl[t]:
                alive[i] = False
        sizes.append(sum(alive))
        if record == "all" or (m and record == "mistakes"):
            steps.append(Step(t=t, epoch=0, index=t, label=yl[t], activation=one * act, prediction=pred,
                              mistake=m, weights=tuple(one if a else zero for a in alive)))
    return Trace(algorithm="halving", exact=exact, n_examples=T, n_features=n, epochs=1, record=record, steps=steps,
                 mistakes=sum(mis), n_steps=T, weights=tuple(one if a else zero for a in alive), bias=None,
                 initial_weights=(one,) * n, initial_bias=None, order=list(range(T)), mistake_flags=mis,
                 params={"class_size": n},
                 extras={"version_space_sizes": sizes, "expert_mistakes": expert_mistakes(A, yl)})
