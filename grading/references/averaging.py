"""Averaged and voted perceptrons as courses write them (``[contract] average``,
``average_start``): the answer of a run (the weights summed or averaged after every example, or
the votes), their comparison and display, the common mistakes a diagnosis may confirm, and the
ties a run meets after its first update (the first step's tie is graded apart from the rest)."""
from __future__ import annotations

from fractions import Fraction

__all__ = ["averaged", "late_ties", "winnow_ties", "compare_votes", "show_votes", "average_causes"]


def averaged(c, run, n: int, per_epoch: bool = False):
    """The averaged perceptron's answer, as courses keep it (Freund & Schapire 1999; Daume, "A
    Course in Machine Learning", Alg. 7): the weights after every step summed (``average =
    "sum"``) or averaged (``"mean"``), the start counted once too when ``average_start``;
    ``per_epoch``: the common bug of a counter (an accumulation) once per pass instead of once per
    example.  ``"voted"``: the votes [(w, b, count)], a vector's count the number of steps after
    which it was the current weights (a new vector counts its own mistake step; the start's count
    starts at 1 when ``average_start``), votes of count 0 left out."""
    steps = run.steps
    if c.average == "voted":
        votes = []
        cur, cb, k = tuple(run.initial_weights), run.initial_bias, 1 if c.average_start else 0
        for s in steps:
            if s.mistake:
                votes.append((cur, cb, k))
                cur, cb, k = tuple(s.weights), s.bias, 0
            k += 1
        votes.append((cur, cb, k))
        return [v for v in votes if v[2] > 0]
    seen = [(s.weights, s.bias) for t, s in enumerate(steps) if not per_epoch or (t + 1) % n == 0]
    if c.average_start:
        seen.insert(0, (run.initial_weights, run.initial_bias))
    d = len(run.initial_weights)
    zero = run.initial_weights[0] * 0 if d else Fraction(0)
    w = [sum((v[j] for v, _ in seen), zero) for j in range(d)]
    b = sum((bb for _, bb in seen), zero) if run.initial_bias is not None else None
    if c.average == "mean" and seen:
        w = [v / len(seen) for v in w]
        b = b / len(seen) if b is not None else None
    return w, b


def near_tie(st) -> bool:
    """Is the step a tie: activation 0 -- or, in a float64 replay (``[contract] arithmetic =
    "float"``), an activation that is 0 up to rounding (0.1 * 0.3 - 0.03 = 3.5e-18), where code
    that sums in another order may decide the other way."""
    a = st.activation
    if not isinstance(a, float):
        return a == 0
    scale = sum(abs(float(v)) for v in st.weights) + abs(float(st.bias or 0.0))
    return abs(a) <= 1e-9 * max(1.0, scale)


def late_ties(run) -> bool:
    """Does the run meet a tie (activation 0, or 0 up to rounding in a float replay) after its first update?"""
    left = False
    for st in run.steps:
        if left and near_tie(st):
            return True
        left = left or st.mistake and (tuple(st.weights) != tuple(run.initial_weights) or st.bias != run.initial_bias)
    return False


def winnow_ties(c, run) -> bool:
    """Does a Winnow run meet a tie anywhere: w.x = theta (with a margin contract, y (w.x - theta)
    = margin, where the strict and the non-strict update differ)?  Winnow starts at w = 1, not
    at a tie, so any step can be one; the tie rule is the only difference between the two
    conventions, and a run without a tie is the same under both."""
    theta = None
    for st in run.steps:
        if theta is None:
            theta = c.theta_value(len(st.weights))
        if c.margin is not None:
            if (1 if st.label == 1 else -1) * (st.activation - theta) == c.margin:
                return True
        elif st.activation == theta:
            return True
    return False


def compare_votes(exp, got, compare_vector, close, fmt_num) -> tuple[bool, str]:
    """A voted perceptron's votes, in order (votes of count 0 left out on both sides):
    ``compare_vector((w, b), (w, b))`` compares one vote's weights as any answer is compared."""
    if got is None:
        return False, "expected a list of (weights, count) votes"
    if len(got) != len(exp):
        return False, f"expected {len(exp)} votes (of count > 0), got {len(got)}"
    for k, ((ew, eb, ec), (gw, gb, gc)) in enumerate(zip(exp, got)):
        ok, msg = compare_vector((ew, eb), (gw, gb))
        if not ok:
            return False, f"vote {k}: {msg}"
        if not close(gc, ec):
            return False, f"vote {k}: count is {fmt_num(gc)}, expected {fmt_num(ec)}"
    return True, ""


def show_votes(names, votes, fmt_vec, fmt_num) -> str:
    wn, bn = names
    parts = [f"({fmt_vec(w)}{', ' + fmt_num(b) if b is not None else ''}, {fmt_num(k)})" for w, b, k in votes[:8]]
    more = f", ... ({len(votes)} votes)" if len(votes) > 8 else ""
    return (f"votes ({wn}{', ' + bn if votes and votes[0][1] is not None else ''}, count) = [" + ", ".join(parts)
            + more + "]")


_AVG = {"sum": "the sum of the weights after every example", "mean": "the mean of the weights after every example",
        "voted": "the votes (w, count) of every weight vector", "none": "the last weights"}


def average_causes(c) -> list[tuple]:
    """The averaged and voted perceptrons' common mistakes (as courses write them): (name,
    message, the change of the contract, the reference's bugs) -- grading.checks.diagnose confirms them."""
    out = []
    course = _AVG[c.average] + (" (the start counted once)" if c.average_start else "")
    if c.average in ("sum", "mean"):
        out.append(("averaging counter per epoch", "the reference re-run accumulating the weights once per pass "
                    "(at the end of each epoch) instead of after every example reproduces your answers: the "
                    f"averaging counter must move with every example; the course returns {course}", None,
                    {"average_per_epoch"}))
    alts = {"none": "last weights instead of the average", "sum": "sum instead of the average",
            "mean": "average instead of the sum"}
    for a, name in alts.items():
        if a != c.average and c.average in ("sum", "mean"):     # (votes are not one vector)
            out.append((name, f"the reference re-run returning {_AVG[a]} reproduces your answers; the course "
                        f"returns {course}", {"average": a, "average_start": False}, ()))
    other = not c.average_start
    if c.average == "voted":
        name = "first count starts at 1" if other else "first count starts at 0"
        msg = (f"the reference re-run with the start's count starting at {int(other)} reproduces your answers; the "
               f"course's first count starts at {int(c.average_start)}")
    else:
        name = "start counted in the average" if other else "start left out of the average"
        msg = (f"the reference re-run {'with' if other else 'without'} the start weights among the averaged vectors "
               f"reproduces your answers; the course averages {course}")
    out.append((name, msg, {"average_start": other}, ()))
    return out
