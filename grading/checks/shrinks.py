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
(the messages, expected and actual answers are the submission's own, from its own calls).  A
replay is paced like the live search it replays: before each call it waits out the time the live
search spent before that call (hypothesis' own work), so a submission cannot tell a replayed
search from a live one by the time between its calls.  When
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


_clock = time.monotonic       # the clock and the sleep of the pacing (tests inject their own)
_sleep = time.sleep


class _Node:
    __slots__ = ("case", "key", "kids", "end", "gap")

    def __init__(self):
        self.case = None     # the input hypothesis tries here
        self.key = None      # its repr: the same input, compared exactly
        self.kids = {}       # outcome -> _Node
        self.end = None      # how the run ended here: ("assert",) / ("abort",) / ("other", name) / ("none",)
        self.gap = 0.0       # seconds the live search took before this call (since the previous one ended)


def path_for(key) -> "Path":
    p = _PATHS.get(key)
    if p is None:
        if len(_PATHS) > 64:
            _PATHS.clear()
        p = _PATHS[key] = Path()
    return p


def clear() -> None:
    _PATHS.clear()
    _SENT[0] = _CHANGES[0] = 0


class Path:
    def __init__(self):
        self.root = _Node()
        self.nodes = 1

    def replay(self, run):
        """Walk the tree calling ``run(X, y, e)`` (which returns the outcome and records what the
        caller needs).  Returns (end, calls): ``end`` the leaf's ending when the walk reached one,
        else None; ``calls`` the [(key, answer)] made, for :meth:`recorder`."""
        node, calls = self.root, []
        last = _clock()
        while node.end is None:
            if node.case is None:
                return None, calls
            X, y, e = copy.deepcopy(node.case)
            wait = node.gap - (_clock() - last)     # paced like the live search: no timing tells them apart
            if wait > 0:
                _sleep(wait)
            out, answer = run(X, y, e)
            last = _clock()
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
        self.last = _clock()

    def call(self, X, y, e, live):
        key = repr((X, y, e))
        gap = _clock() - self.last
        if self.i < len(self.prefix) and self.prefix[self.i][0] == key:
            answer = self.prefix[self.i][1]
        else:
            self.prefix = []
            answer = live(X, y, e)
        self.last = _clock()
        self.i += 1
        out = answer[0]
        if self.ok:
            n = self.node
            if n.case is None and n.end is None:
                n.case, n.key, n.gap = copy.deepcopy((X, y, e)), key, gap
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
                    _changed()
                self.node = nxt
        return answer

    def finish(self, end) -> None:
        n = self.node
        if not self.ok or time.monotonic() - self.t0 > _SLOW or n.case is not None:
            return
        if n.end is None:
            n.end = end
            _changed()


# --- shared between the grading processes of a batch ----------------------------------------------
# Each grading process sends what it added with each result; the batch's parent merges it and hands
# the merged trees to the next task of every grading process, so one process's live search serves
# the other's submissions too.  A tree holds only the grader's inputs and the outcomes that chose
# them: a replay still checks every outcome of the submission it grades.
_SENT = [0]
_CHANGES = [0]


def _changed():
    _CHANGES[0] += 1


def version() -> int:
    return _CHANGES[0]


def export(force: bool = False) -> bytes | None:
    """Every tree, flattened (a search can be hundreds of calls deep: no recursion), when anything
    changed since the last export; None otherwise."""
    if not force and _CHANGES[0] == _SENT[0]:
        return None
    _SENT[0] = _CHANGES[0]
    import pickle
    out = {}
    for key, p in _PATHS.items():
        ids, flat, stack = {id(p.root): 0}, [], [p.root]
        while stack:
            n = stack.pop()
            kids = {}
            for o, k in n.kids.items():
                if id(k) not in ids:
                    ids[id(k)] = len(ids)
                    stack.append(k)
                kids[o] = ids[id(k)]
            flat.append((ids[id(n)], n.case, n.key, n.end, kids, n.gap))
        out[key] = flat
    return pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)


def merge(blob: bytes | None, mark: bool = True) -> None:
    """Add the trees of ``blob`` (from :func:`export`) to this process's: a branch this process
    lacks is taken; where both hold a node they must hold the same input, else the other's
    subtree is left out.  ``mark``: what is merged is new here, to be exported again (the
    batch's parent, which hands it on; not a grading process, which got it from the parent)."""
    if not blob:
        return
    import pickle
    try:
        trees = pickle.loads(blob)
    except Exception:  # noqa: BLE001 - a cache: what cannot be read is searched live
        return
    for key, flat in trees.items():
        nodes = {}
        for i, case, k, end, kids, *gap in flat:
            n = _Node()
            n.case, n.key, n.end = case, k, end
            n.gap = float(gap[0]) if gap else 0.0
            nodes[i] = (n, kids)
        for n, kids in nodes.values():
            n.kids = {o: nodes[j][0] for o, j in kids.items()}
        p = path_for(key)
        stack = [(p.root, nodes[0][0])]
        while stack:
            mine, theirs = stack.pop()
            if mine.case is None and mine.end is None:
                mine.case, mine.key, mine.end, mine.kids = theirs.case, theirs.key, theirs.end, theirs.kids
                mine.gap = theirs.gap
                p.nodes += _count(theirs)
                continue
            if mine.key != theirs.key or mine.end != theirs.end:
                continue
            for o, k in theirs.kids.items():
                if o in mine.kids:
                    stack.append((mine.kids[o], k))
                else:
                    mine.kids[o] = k
                    p.nodes += _count(k)
    if mark:
        _changed()


def _count(node) -> int:
    n, stack = 0, [node]
    while stack:
        x = stack.pop()
        n += 1
        stack.extend(x.kids.values())
    return n
