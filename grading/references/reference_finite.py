"""The reference runs of the finite-class assignment shapes: the Halving algorithm and the
Standard Optimal Algorithm (SOA) over a class H given as its truth table (Littlestone 1988;
Shalev-Shwartz 2012, "Online Learning and Online Convex Optimization", section 1.2; Blum's
15-859 notes).

A test input is the usual (X, y, epochs) of the grader, one row of X per step: the row is an
:class:`Instance`, ``[x]`` with x the index of the step's instance in the domain 0..m-1, and
it carries the class ``H`` (a tuple of hypotheses, each the tuple of its +1/-1 labels on the
domain) that the whole input shares -- so that the grader's prefix runs (``X[:k]``), its
reordered copies and its cache keys keep the class with the steps.  The course's code receives
``H`` (in its label encoding), ``X`` (the flat list of instance indices) and ``y``.

Both learners keep the version space V (the hypotheses consistent with every label so far) and
remove, after every step -- a mistake or not --, the hypotheses that disagree with its label.
Halving predicts the majority label of V; SOA the label y whose V_x^y has the larger Littlestone
dimension.  A tie (an even vote; equal dimensions) predicts +1, as ``learners.halving`` and
``learners.littlestone`` do (``[contract] ties = "predict+1"``); ``"predict-1"`` is the same
run on the negated class and labels.  The run's ``activation`` is the vote sum_{h in V} h(x)
(Halving) or Ldim(V_x^+) - Ldim(V_x^-) (SOA); ``weights`` the 0/1 membership of every
hypothesis in V after the step.  Exact (integers) from :func:`learners.run_halving` and
:func:`learners.littlestone.run_soa`; the common mistakes (:data:`FINITE_BUGS`) are replayed by
:func:`finite_loop`, which with no bug is the same run (the tests check it).
"""
from __future__ import annotations

from learners import run_halving
from learners.littlestone import Littlestone, run_soa

__all__ = ["FINITE_ALGORITHMS", "FINITE_BUGS", "Instance", "instances", "class_of", "points_of",
           "finite_reference_run", "finite_loop", "finite_reference_seconds", "fmt_instances"]

FINITE_ALGORITHMS = ("halving", "soa")
# the common mistakes, each one change of the learner (grading.checks.diagnose confirms them by a re-run):
# Halving that removes the hypotheses agreeing with the label (and keeps the wrong ones), that shrinks V only
# on its mistakes, or that predicts with the first hypothesis of V (the Consistent algorithm); SOA that
# compares the sizes of V_x^+ and V_x^- instead of their Littlestone dimensions (Halving's vote), or that
# shrinks V only on its mistakes
FINITE_BUGS = ("removes_consistent", "update_only_on_mistakes", "first_consistent", "sizes_not_ldim")


class Instance(list):
    """One step of a finite-class input: ``[x]``, x the instance's index in the domain, carrying
    the class ``H`` (tuple of tuples of +1/-1) the input is labelled against."""
    __slots__ = ("H",)

    def __init__(self, x, H):
        super().__init__([int(x)])
        self.H = H

    def __repr__(self):
        return f"Instance({self[0]}, H={self.H!r})"

    def __reduce__(self):
        return (Instance, (self[0], self.H))


def instances(H, points) -> list:
    """The rows of a test input: one :class:`Instance` per step, sharing the class ``H``."""
    Ht = tuple(tuple(int(v) for v in h) for h in H)
    return [Instance(x, Ht) for x in points]


def class_of(X) -> tuple:
    """The class H of a test input (its rows share it)."""
    if not X or getattr(X[0], "H", None) is None:
        raise ValueError("a finite-class input needs rows that carry the class H (grading.references.reference_finite)")
    return X[0].H


def points_of(X) -> list:
    return [int(r[0]) for r in X]


def fmt_instances(X) -> str:
    """The input as feedback shows it: the instances visited and the class (labels +1/-1)."""
    H = class_of(X)
    hs = "[" + ", ".join("[" + ", ".join(str(v) for v in h) + "]" for h in H) + "]"
    return f"[{', '.join(str(x) for x in points_of(X))}] over the class H = {hs}"


def finite_reference_run(c, X, y, Run, RStep, bugs=frozenset()):
    """The run under the contract ``c`` (its tie convention) as the grader's ``Run``; with
    ``bugs``, the one change each names."""
    H, pts = class_of(X), points_of(X)
    ys = [int(v) for v in y]
    if bugs:
        return _as_run(finite_loop(c.algorithm, H, pts, ys, c.ties, bugs), ys, len(H), Run, RStep)
    flip = -1 if c.ties == "predict-1" else 1        # a tie predicting -1: the run on -H and -y, V the same
    Hf = [[flip * v for v in h] for h in H]
    yf = [flip * v for v in ys]
    if c.algorithm == "halving":
        tr = run_halving([[h[x] for x in pts] for h in Hf], yf)
    else:
        tr = run_soa(Hf, pts, yf)
    steps = [(flip * int(s.activation), s.mistake, tuple(int(v) for v in s.weights)) for s in tr.steps]
    return _as_run(steps, ys, len(H), Run, RStep)


def _as_run(steps, ys, n, Run, RStep):
    out = [RStep(t=t, epoch=0, index=t, label=ys[t], activation=a, mistake=bool(m), weights=w)
           for t, (a, m, w) in enumerate(steps)]
    last = out[-1].weights if out else (1,) * n
    return Run(steps=out, initial_weights=(1,) * n, initial_bias=None, weights=last, bias=None,
               mistakes=sum(s.mistake for s in out), passes=1,
               extras={"version_space_sizes": [sum(s.weights) for s in out]})


def finite_loop(algorithm, H, pts, ys, ties="predict+1", bugs=frozenset()):
    """Halving or SOA written out step by step, with the changes ``bugs`` (:data:`FINITE_BUGS`):
    a list of (activation, mistake, membership of V after the step)."""
    n = len(H)
    V = [True] * n
    L = Littlestone(H) if algorithm == "soa" else None
    out = []
    for x, lab in zip(pts, ys):
        alive = [h for h in range(n) if V[h]]
        if algorithm == "soa" and "sizes_not_ldim" not in bugs:
            mask = sum(1 << h for h in alive)
            act = L.ldim(mask & L.plus[x]) - L.ldim(mask & L.minus[x])
        else:
            act = sum(H[h][x] for h in alive)
        if "first_consistent" in bugs and alive:
            pred = H[alive[0]][x]
        else:
            pred = 1 if (act > 0 or act == 0 and ties != "predict-1") else -1
        m = pred != lab
        if m or "update_only_on_mistakes" not in bugs:
            for h in alive:
                if (H[h][x] == lab) == ("removes_consistent" in bugs):
                    V[h] = False
        out.append((act, m, tuple(int(v) for v in V)))
    return out


def finite_reference_seconds(c, X, y) -> float:
    import time
    t0 = time.process_time()
    H, pts = class_of(X), points_of(X)
    if c.algorithm == "halving":
        run_halving([[h[x] for x in pts] for h in H], list(y), record="none")
    else:
        run_soa(H, pts, list(y), record="none")
    return time.process_time() - t0
