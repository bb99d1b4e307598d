"""Hypothesis' shrinking, remembered per grading process: the same calls of the same submission
without hypothesis' bookkeeping when an earlier submission's answers took the same path.

With a fixed seed and settings, hypothesis' search for the smallest failing input is a function
of what the test reports on each input it tries: the first input is fixed, and each next one
depends only on the outcomes so far (passed, failed, or failed fatally).  A :class:`Path` keeps,
per assignment and seed, the tree of those runs: at each node the input hypothesis tried and,
per outcome, the node after it; a leaf says how the run ended.

:meth:`Path.replay` walks the tree with a new submission: it checks the submission on each
node's input, in the order hypothesis would, and follows the submission's own outcome.  When
every outcome has a branch down to a leaf, the submission has been asked exactly what the live
search would have asked it, in the same order, and has answered the same way at every step:
the live search would end on the same input, so the result is the one the live search returns
(the messages, expected and actual answers are the submission's own, from its own calls).  When
an outcome has no branch yet, the live search runs; the calls already made are handed to it
(:meth:`Path.recorder`: a call of the live search on the same input, in the same position,
gets the answer already obtained, so the submission is never asked twice) and its run is added
to the tree.  Nothing of a submission is trusted: only outcomes it produced on this very run
choose the branch, and a run that strays from the tree is searched live.  A live run that came
near hypothesis' own time limit on shrinking (where its search stops on the clock, not on the
outcomes) is not remembered.
"""
from __future__ import annotations

import copy
import time

__all__ = ["Path", "path_for", "PASS", "FAIL", "FATAL"]

PASS, FAIL, FATAL = "pass", "fail", "fatal"
_PATHS: dict = {}
_MAX_NODES = 200_000
_SLOW = 120.0            # hypothesis stops shrinking on the clock after 300 s: such runs are not kept


class _Node:
    __slots__ = ("case", "key", "kids", "end")

    def __init__(self):
        self.case = None     # the input hypothesis tries here
        self.key = None      # its repr: the same input, compared exactly
        self.kids = {}       # outcome -> _Node
        self.end = None      # how the run ended here: ("assert",) / ("abort",) / ("other", name) / ("none",)


def path_for(key) -> "Path":
    p = _PATHS.get(key)
    if p is None:
        if len(_PATHS) > 64:
            _PATHS.clear()
        p = _PATHS[key] = Path()
    return p


def clear() -> None:
    _PATHS.clear()


class Path:
    def __init__(self):
        self.root = _Node()
        self.nodes = 1

    def replay(self, run):
        """Walk the tree calling ``run(X, y, e)`` (which returns the outcome and records what the
        caller needs).  Returns (end, calls): ``end`` the leaf's ending when the walk reached one,
        else None; ``calls`` the [(key, answer)] made, for :meth:`recorder`."""
        node, calls = self.root, []
        while node.end is None:
            if node.case is None:
                return None, calls
            X, y, e = copy.deepcopy(node.case)
            out, answer = run(X, y, e)
            calls.append((node.key, answer))
            nxt = node.kids.get(out)
            if nxt is None:
                return None, calls
            node = nxt
        return node.end, calls

    def recorder(self, prefix):
        return _Recorder(self, prefix)


class _Recorder:
    """Wraps the live search's calls: answers the ones already made (same input, same position)
    from ``prefix``, and records the run in the tree."""

    def __init__(self, path, prefix):
        self.path = path
        self.prefix = list(prefix)
        self.i = 0
        self.node = path.root
        self.ok = True
        self.t0 = time.monotonic()

    def call(self, X, y, e, live):
        key = repr((X, y, e))
        if self.i < len(self.prefix) and self.prefix[self.i][0] == key:
            answer = self.prefix[self.i][1]
        else:
            self.prefix = []
            answer = live(X, y, e)
        self.i += 1
        out = answer[0]
        if self.ok:
            n = self.node
            if n.case is None and n.end is None:
                n.case, n.key = copy.deepcopy((X, y, e)), key
            if n.key != key:          # not the input the tree holds here: this run is not kept
                self.ok = False
            else:
                nxt = n.kids.get(out)
                if nxt is None:
                    if self.path.nodes >= _MAX_NODES:
                        self.ok = False
                        return answer
                    nxt = n.kids[out] = _Node()
                    self.path.nodes += 1
                self.node = nxt
        return answer

    def finish(self, end) -> None:
        n = self.node
        if not self.ok or time.monotonic() - self.t0 > _SLOW or n.case is not None:
            return
        if n.end is None:
            n.end = end
