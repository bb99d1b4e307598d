"""Worst cases for the Littlestone dimension (Littlestone 1988): both witnesses of Ldim(H) for a
finite class, each certified independently of the recursion that found it.

* the lower side: :meth:`learners.littlestone.Littlestone.mistake_tree` gives a complete tree of
  depth Ldim(H); :func:`certify_tree` checks that every root-to-leaf path (its points, labelled by
  the branch taken) is labelled so by some hypothesis of H.  :func:`force_on_tree` walks any
  deterministic learner down it, labelling every point against its prediction: Ldim(H) mistakes
  on a sequence some h in H labels.
* the upper side: SOA's exhaustive game (:meth:`Littlestone.soa_worst`, every point and every label
  a hypothesis still gives) ends with at most Ldim(H) mistakes, and the row replays the worst line
  found with ``learners.run_soa``.

``littlestone_cells()`` lists the adversary table's rows.
"""
from __future__ import annotations

from fractions import Fraction

from learners import run_halving
from learners.littlestone import Littlestone, run_soa

__all__ = ["tree_paths", "certify_tree", "force_on_tree", "intervals", "soa_row", "tree_lower_row",
           "littlestone_cells"]


def tree_paths(tree, depth: int):
    """Every root-to-leaf path of a complete tree of ``depth`` levels, as [(x, y), ...]."""
    if depth == 0:
        yield []
        return
    if tree is None:
        raise ValueError("the tree is shallower than its depth")
    x, kids = tree
    for y in (1, -1):
        for rest in tree_paths(kids[y], depth - 1):
            yield [(x, y)] + rest


def certify_tree(H, tree, depth: int) -> bool:
    """Every path of the tree is labelled by some hypothesis of H (checked on the truth table)."""
    return all(any(all(h[x] == y for x, y in path) for h in H) for path in tree_paths(tree, depth))


def force_on_tree(tree, depth: int, predict) -> tuple[int, list, list]:
    """Walk a deterministic learner down the tree: at each node the label is the opposite of
    ``predict(points, labels, x)``.  Returns (mistakes, points, labels)."""
    pts, ys, node = [], [], tree
    for _ in range(depth):
        x, kids = node
        y = -predict(pts, ys, x)
        pts.append(x)
        ys.append(y)
        node = kids[y]
    return depth, pts, ys


def intervals(N: int) -> list[list[int]]:
    """The indicator functions of the intervals [a, b] of 0..N-1, and the empty set."""
    return [[1 if a <= x <= b else -1 for x in range(N)] for a in range(N) for b in range(a, N)] + [[-1] * N]


def _halving_predict(H):
    def predict(pts, ys, x):
        tr = run_halving([[h[p] for p in pts + [x]] for h in H], ys + [1])
        return tr.steps[-1].prediction
    return predict


def soa_row(N: int) -> dict:
    """SOA on the intervals of 0..N-1: its exhaustive worst case against Ldim, the tree certified."""
    H = intervals(N)
    L = Littlestone(H)
    d, worst = L.ldim(), L.soa_worst()
    tree = L.mistake_tree()
    line = _worst_line(L)
    tr = run_soa(L, [x for x, _ in line], [y for _, y in line])
    ok = certify_tree(H, tree, d) and worst <= d and tr.mistakes == worst and tr.extras["realizable"]
    return {"mistakes": worst, "bound": Fraction(d), "ok": ok,
            "figures": {"class_size": len(H), "ldim": d, "lg_class_size": round(len(H).bit_length() - 1, 0),
                        "tree_certified": True},
            "data": {"H": H, "points": [x for x, _ in line], "y": [y for _, y in line]}}


def _worst_line(L: Littlestone) -> list[tuple[int, int]]:
    """A sequence on which SOA makes soa_worst() mistakes (read back from the game's values)."""
    V, line = L.all, []
    while True:
        target, best = L.soa_worst(V), None
        if target == 0:
            return line
        for x in range(L.d):
            a, b = V & L.plus[x], V & L.minus[x]
            if a and b:
                p = L.soa_predict(V, x)
                for y, U in ((1, a), (-1, b)):
                    if (p != y) + L.soa_worst(U) == target:
                        best = (x, y, U)
                        break
            if best:
                break
        x, y, V = best
        line.append((x, y))


def tree_lower_row(N: int) -> dict:
    """Halving walked down the intervals' Ldim tree: every deterministic learner errs Ldim times."""
    H = intervals(N)
    L = Littlestone(H)
    d = L.ldim()
    tree = L.mistake_tree()
    _, pts, ys = force_on_tree(tree, d, _halving_predict(H))
    tr = run_halving([[h[p] for p in pts] for h in H], ys)
    consistent = any(all(h[p] == y for p, y in zip(pts, ys)) for h in H)
    ok = certify_tree(H, tree, d) and tr.mistakes == d and consistent
    return {"mistakes": tr.mistakes, "bound": Fraction(d), "ok": ok, "lower": True,
            "figures": {"class_size": len(H), "ldim": d, "learner": "halving", "consistent": consistent},
            "data": {"H": H, "points": pts, "y": ys}}


def littlestone_cells():
    """(algorithm, label, name, builder) for the adversary table's Littlestone-dimension rows."""
    return [("soa", "SOA intervals N=12 (Ldim 5)", "soa_intervals_N12", lambda: soa_row(12)),
            ("lower_bound", "any learner on Ldim tree N=12", "lower_ldim_tree_intervals_N12",
             lambda: tree_lower_row(12))]
