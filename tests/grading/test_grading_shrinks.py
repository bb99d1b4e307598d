"""Hypothesis' search for the smallest failing input, remembered per grading process
(grading.checks.shrinks): a submission that answers like an earlier one along the whole search gets the
same report without hypothesis' bookkeeping, one that strays is searched live -- and is never asked
the same input twice -- and every report is the one a fresh process gives."""
import os

import pytest

from grading.checks import shrinks
from grading.running.grader import grade_submission
from grading.checks.shrinks import FAIL, PASS, Path
from grading.spec.spec import load_spec

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading", "examples")


def _report(r):
    return (r.score, r.max_score, r.note, dict(r.diagnoses), [(t.kind, t.passed, t.score, t.output) for t in r.tests])


def _grade(shape, sample):
    spec = load_spec(shape)
    spec.hidden_seed = 4242
    # the running times the linear-time test measures are the machine's, not the search's
    spec.tests = [t for t in spec.tests if t.kind != "linear_time"]
    return grade_submission(spec, os.path.join(EX, shape, sample))


def _searches(monkeypatch):
    """Counts the live hypothesis searches (each starts a recorder)."""
    seen = []
    real = Path.recorder

    def rec(self, prefix):
        seen.append(len(prefix))
        return real(self, prefix)
    monkeypatch.setattr(Path, "recorder", rec)
    return seen


def _walk(live):
    """What the grader hands to Path.replay: the outcome, and the answer a live search reuses."""
    def run(X, y, e):
        answer = live(X, y, e)
        return answer[0], answer
    return run


def test_a_path_is_followed_only_while_the_outcomes_agree():
    p = Path()
    calls = []

    def live(X, y, e):
        calls.append(X)
        return (FAIL if X[0][0] >= 2 else PASS), X[0][0]
    # a live search tries 5, 3, 1 (passes), 2: the tree remembers it
    rec = p.recorder([])
    for v in (5, 3, 1, 2):
        rec.call([[v]], [1], 1, live)
    rec.finish(("assert",))
    assert calls == [[[5]], [[3]], [[1]], [[2]]]

    calls.clear()
    end, made = p.replay(_walk(live))
    assert end == ("assert",) and [k for k, _ in made] == [repr(([[v]], [1], 1)) for v in (5, 3, 1, 2)]

    # another submission fails at 1: no branch for that outcome, the walk stops there
    calls.clear()

    def other(X, y, e):
        calls.append(X)
        return FAIL, X[0][0]
    end, made = p.replay(_walk(other))
    assert end is None and calls == [[[5]], [[3]], [[1]]]
    # the live search that follows is answered from those calls, never asks them again
    calls.clear()
    rec = p.recorder(made)
    for v in (5, 3, 1, 0):
        rec.call([[v]], [1], 1, other)
    rec.finish(("assert",))
    assert calls == [[[0]]]
    end, _ = p.replay(_walk(other))
    assert end == ("assert",)


def test_a_different_input_at_a_known_step_is_not_recorded():
    p = Path()
    rec = p.recorder([])
    rec.call([[5]], [1], 1, lambda X, y, e: (FAIL, 0))
    rec.finish(("assert",))
    rec = p.recorder([])
    rec.call([[6]], [1], 1, lambda X, y, e: (FAIL, 0))     # not what the tree holds at its root
    rec.finish(("abort",))
    end, _ = p.replay(_walk(lambda X, y, e: (FAIL, 0)))
    assert end == ("assert",)


@pytest.mark.parametrize("shape,first,second", [
    ("winnow_hw", "strict_threshold", "strict_threshold"),     # the same answers: the search is replayed
    ("perceptron", "label_ignored", "bias_never_updated"),     # other answers: a live search, the same report
])
def test_remembered_searches_change_no_report(monkeypatch, shape, first, second):
    shrinks.clear()
    fresh = _report(_grade(shape, second))          # what a fresh process reports
    shrinks.clear()
    seen = _searches(monkeypatch)
    _grade(shape, first)
    n = len(seen)
    assert n >= 1                                   # the first buggy submission is searched live
    again = _report(_grade(shape, second))
    assert again == fresh
    if first == second:
        assert len(seen) == n                       # replayed: no live search at all
    shrinks.clear()


def test_searches_pass_between_processes_as_flat_trees():
    """A grading process's searches reach the others through the batch's parent (grading.running.batch):
    flattened, so a search thousands of calls deep travels, and merged without losing a branch."""
    shrinks.clear()
    key = ("shrink", "spec", 1)
    p = shrinks.path_for(key)
    rec = p.recorder([])
    for v in range(3000):                               # deeper than any recursion limit
        rec.call([[v]], [1], 1, lambda X, y, e: (FAIL, 0))
    rec.finish(("assert",))
    blob = shrinks.export()
    assert blob is not None and shrinks.export() is None    # nothing new since: nothing sent
    shrinks.clear()
    other = shrinks.path_for(key)                       # the other process: one branch of its own
    rec = other.recorder([])
    rec.call([[0]], [1], 1, lambda X, y, e: (PASS, 0))
    rec.finish(("none",))
    shrinks.merge(blob)
    end, made = shrinks.path_for(key).replay(_walk(lambda X, y, e: (FAIL, 0)))
    assert end == ("assert",) and len(made) == 3000
    end, made = shrinks.path_for(key).replay(_walk(lambda X, y, e: (PASS, 0)))
    assert end == ("none",) and len(made) == 1
    shrinks.merge(b"not a pickle")                      # a cache: unreadable is ignored
    shrinks.clear()


def test_a_replay_is_paced_like_the_live_search(monkeypatch):
    """Between two calls a live search spends hypothesis' own time; a replay waits it out, so a
    submission timing its calls cannot tell the two apart (a clock and a sleep of the test's own)."""
    from grading.checks import shrinks
    now = [100.0]
    monkeypatch.setattr(shrinks, "_clock", lambda: now[0])
    slept = []

    def sleep(s):
        slept.append(round(s, 9))
        now[0] += s
    monkeypatch.setattr(shrinks, "_sleep", sleep)

    def live(X, y, e):              # the submission's own call takes 0.1 s
        now[0] += 0.1
        return (FAIL if X[0][0] >= 2 else PASS), X[0][0]
    shrinks.clear()
    p = shrinks.path_for(("paced",))
    rec = p.recorder([])
    for v, between in ((5, 0.5), (3, 0.25), (1, 0.75)):
        now[0] += between           # hypothesis' work before the call
        rec.call([[v]], [1], 1, live)
    rec.finish(("assert",))
    assert slept == []
    end, _ = p.replay(_walk(live))
    assert end == ("assert",) and slept == [0.5, 0.25, 0.75]
    # the pacing travels with the trees between grading processes
    blob = shrinks.export(force=True)
    shrinks.clear()
    shrinks.merge(blob)
    slept.clear()
    end, _ = shrinks.path_for(("paced",)).replay(_walk(live))
    assert end == ("assert",) and slept == [0.5, 0.25, 0.75]
    shrinks.clear()
