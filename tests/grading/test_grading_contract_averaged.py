"""Averaged and voted perceptrons as courses write them (``[contract] average``,
``average_start``): the reference's sums, means and votes agree with the learners' own
(Freund & Schapire's votes, the averaged weights with and without the start), Daume's cached
form (w - u / c with a counter per example) is the mean with the start counted once.  (The
shipped courses' correct and buggy solutions are graded with every other example course, in
test_grading_example_courses.py.)"""
import random
from fractions import Fraction

import pytest

from grading.spec.contract import Contract
from grading.references.reference import answer_of, reference_run
from learners import averaged_weights, run_perceptron, voted_weights


def _data(seed):
    rng = random.Random(seed)
    n, d = rng.randint(1, 7), rng.randint(1, 3)
    X = [[rng.randint(-8, 8) / 4 for _ in range(d)] for _ in range(n)]
    return X, [rng.choice([1, -1]) for _ in range(n)], rng.randint(1, 3)


@pytest.mark.parametrize("seed", range(12))
def test_the_averages_and_votes_are_the_learners(seed):
    X, y, T = _data(seed)
    tr = run_perceptron(X, y, epochs=T, bias=True, exact=True, record="all")
    for start in (False, True):
        mean = answer_of(reference_run(Contract(algorithm="perceptron", average="mean", average_start=start), X, y, T),
                         True)
        assert (tuple(mean.w), mean.b) == averaged_weights(tr, include_initial=start)
        total = answer_of(reference_run(Contract(algorithm="perceptron", average="sum", average_start=start), X, y, T),
                          True)
        k = len(X) * T + start
        assert [v / k for v in total.w] == list(mean.w) and total.b / k == mean.b
    votes = answer_of(reference_run(Contract(algorithm="perceptron", average="voted"), X, y, T), True).votes
    assert [(tuple(w), b, c) for w, b, c in votes] == voted_weights(tr)
    # the first count from 1: the start gets one vote more, nothing else changes
    ones = answer_of(reference_run(Contract(algorithm="perceptron", average="voted", average_start=True), X, y, T),
                     True).votes
    assert ones[0][2] == (votes[0][2] + 1 if votes[0][0] == [0] * len(X[0]) and votes[0][2] else 1)
    assert sum(c for _, _, c in ones) == len(X) * T + 1


@pytest.mark.parametrize("seed", range(8))
def test_daume_cached_form_is_the_mean_with_the_start(seed):
    """CIML Alg. 7: u += y c x on a mistake, c += 1 per example, answer w - u / c; with the counter
    per epoch (the bug) the answer is the mean of the start and the weights at each pass's end."""
    X, y, T = _data(100 + seed)
    for per_epoch in (False, True):
        d = len(X[0])
        w, b, u, beta, c = [Fraction(0)] * d, Fraction(0), [Fraction(0)] * d, Fraction(0), 1
        for _ in range(T):
            for x, t in zip(X, y):
                if t * (sum(wj * Fraction(xj) for wj, xj in zip(w, x)) + b) <= 0:
                    w = [wj + t * Fraction(xj) for wj, xj in zip(w, x)]
                    b += t
                    u = [uj + t * c * Fraction(xj) for uj, xj in zip(u, x)]
                    beta += t * c
                if not per_epoch:
                    c += 1
            if per_epoch:
                c += 1
        ref = answer_of(reference_run(Contract(algorithm="perceptron", average="mean", average_start=True), X, y, T,
                                      bugs=frozenset({"average_per_epoch"} if per_epoch else ())), True)
        assert list(ref.w) == [wj - uj / c for wj, uj in zip(w, u)] and ref.b == b - beta / c


def test_the_invariants_are_not_offered_for_an_average():
    from grading.spec.offered import test_kinds
    from grading.spec.spec import load_spec
    spec = load_spec("averaged_perceptron")
    assert not spec.contract.one_step_runs and "invariants" not in test_kinds(spec)


def test_votes_are_read_in_the_course_layout():
    """(w, b, count) triples, the bias first inside w, votes of count 0 left out; a malformed vote
    is one sentence."""
    from sandbox._plan_child import vote_rows
    from grading.references.plan import LayoutError, read_answer

    class Bad(Exception):
        pass
    c = Contract(algorithm="perceptron", average="voted")
    rows = vote_rows([([0.0, 0.0], 0.0, 0), ([1.0, 2.0], 1.0, 3)], Bad)
    assert rows == [[0.0, 0.0, 0.0, 0], [1.0, 2.0, 1.0, 3]]
    a = read_answer(c, {"ret": rows}, 2)
    assert a.votes == [([1.0, 2.0], 1.0, 3)] and a.w == [1.0, 2.0] and a.b == 1.0
    first = c.replace(returns="w_bias_first")
    assert read_answer(first, {"ret": vote_rows([([1.0, 2.0, 3.0], 2.0)], Bad)}, 2).votes == [([2.0, 3.0], 1.0, 2)]
    for bad, msg in (([[1.0, 2.0, 3.0]], "vote 0 is not (w, b, count) with 2 weights"),
                     ([[1.0, 2.0, 3.0, 0.5]], "the count of vote 0 is 0.5"), (3.0, "expected a list of")):
        with pytest.raises(LayoutError) as e:
            read_answer(c, {"ret": bad}, 2)
        assert msg in e.value.msg
    with pytest.raises(Bad):
        vote_rows([{"w": 1}], Bad)
