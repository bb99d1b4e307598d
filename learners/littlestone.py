"""The Littlestone dimension of a finite class and the Standard Optimal Algorithm (Littlestone
1988, section 3; Shalev-Shwartz 2012, section 1.2).

A class is given by its truth table: ``H[h][x]`` in {+1, -1} is hypothesis h's label on point x of
a finite domain.  A version space is a set of hypotheses, kept as a bit mask.  The Littlestone
dimension is defined by recursion on the class:

    Ldim(empty) = -1;  Ldim(V) = max(0, max over points x that split V of
                                      1 + min(Ldim(V_x^+), Ldim(V_x^-)))

(V_x^y: the hypotheses of V labelling x with y; x splits V when both are non-empty), memoised on
the version space, the search over x cut off once it reaches floor(lg |V|), an upper bound.
:func:`mistake_tree` returns a complete tree of depth Ldim(H) every root-to-leaf path of which is
labelled by some hypothesis (a shattered tree: every deterministic learner can be made to err at
every node); SOA predicts at x the label y with the larger Ldim(V_x^y) (a tie predicts +1), and makes
at most Ldim(H) mistakes on any sequence some h in H labels (``proofs/catalogue/soa_bound.py``): a mistake
leaves the smaller of the two subclasses, whose dimension is below Ldim(V).
"""
from __future__ import annotations

from learners.errors import InputError
from learners.trace import Step, Trace

__all__ = ["Littlestone", "check_class", "run_soa"]


def check_class(H) -> list[tuple[int, ...]]:
    """The truth table as tuples of +1/-1, one per hypothesis, all over the same domain."""
    try:
        rows = [tuple(h) for h in H]
    except TypeError:
        raise InputError("the class must be a list of hypotheses, each the list of its labels on the domain") from None
    if not rows or not rows[0]:
        raise InputError("the class must hold at least one hypothesis over a non-empty domain")
    if len({len(r) for r in rows}) != 1:
        raise InputError("every hypothesis must label every point of the domain")
    for h, r in enumerate(rows):
        for x, v in enumerate(r):
            if isinstance(v, bool) or v not in (1, -1):
                raise InputError(f"H[{h}][{x}] is {v!r}; labels must be +1 or -1")
    return [tuple(int(v) for v in r) for r in rows]


class Littlestone:
    """The class's Ldim, its shattered tree and SOA, with the memo shared between them."""

    def __init__(self, H):
        self.H = check_class(H)
        self.n, self.d = len(self.H), len(self.H[0])
        self.all = (1 << self.n) - 1
        self.plus = [sum(1 << h for h in range(self.n) if self.H[h][x] == 1) for x in range(self.d)]
        self.minus = [self.all & ~p for p in self.plus]
        self._memo: dict[int, int] = {}

    def restrict(self, V: int, x: int, y: int) -> int:
        return V & (self.plus[x] if y == 1 else self.minus[x])

    def ldim(self, V: int | None = None) -> int:
        V = self.all if V is None else V
        if V == 0:
            return -1
        got = self._memo.get(V)
        if got is not None:
            return got
        cap = V.bit_count().bit_length() - 1          # floor(lg |V|) bounds Ldim(V) (each node halves V)
        best = 0
        for x in range(self.d):
            if best >= cap:
                break
            a, b = V & self.plus[x], V & self.minus[x]
            if a and b:
                best = max(best, 1 + min(self.ldim(a), self.ldim(b)))
        self._memo[V] = best
        return best

    def mistake_tree(self, V: int | None = None):
        """A complete tree of depth Ldim(V): None (a leaf), or (x, {+1: subtree, -1: subtree})."""
        V = self.all if V is None else V
        k = self.ldim(V)
        if k <= 0:
            return None
        for x in range(self.d):
            a, b = V & self.plus[x], V & self.minus[x]
            if a and b and self.ldim(a) >= k - 1 and self.ldim(b) >= k - 1:
                return (x, {1: self._cut(a, k - 1), -1: self._cut(b, k - 1)})
        raise AssertionError("no point achieves Ldim")            # unreachable by the recursion's definition

    def _cut(self, V: int, depth: int):
        """A tree of exactly ``depth`` levels in a class of Ldim >= depth."""
        if depth == 0:
            return None
        for x in range(self.d):
            a, b = V & self.plus[x], V & self.minus[x]
            if a and b and self.ldim(a) >= depth - 1 and self.ldim(b) >= depth - 1:
                return (x, {1: self._cut(a, depth - 1), -1: self._cut(b, depth - 1)})
        raise AssertionError("no point achieves the depth")

    def soa_predict(self, V: int, x: int) -> int:
        return 1 if self.ldim(V & self.plus[x]) >= self.ldim(V & self.minus[x]) else -1

    def soa_worst(self, V: int | None = None) -> int:
        """The most mistakes an adversary can force on SOA from V, labels consistent with V
        (exhaustive game: every point, every label some hypothesis of V gives it)."""
        V = self.all if V is None else V
        memo: dict[int, int] = {}

        def go(U):
            if U in memo:
                return memo[U]
            best = 0
            for x in range(self.d):
                a, b = U & self.plus[x], U & self.minus[x]
                if a and b:
                    p = self.soa_predict(U, x)
                    best = max(best, (p != 1) + go(a), (p != -1) + go(b))
            memo[U] = best
            return best
        return go(V)


def run_soa(H, points, y, *, record: str = "all") -> Trace:
    """SOA over the class ``H`` (truth table) on the examples ``points`` (indices into the domain)
    with labels ``y``.  ``Step.activation`` is Ldim(V_x^+) - Ldim(V_x^-); ``Step.weights`` the 0/1
    membership of every hypothesis in the version space after the step."""
    from learners.core import check_record
    record = check_record(record)
    L = H if isinstance(H, Littlestone) else Littlestone(H)
    pts, ys = list(points), list(y)
    if len(pts) != len(ys):
        raise InputError(f"{len(pts)} point(s) but {len(ys)} label(s)")
    V = L.all
    steps, flags, dims = [], [], []
    for t, (x, lab) in enumerate(zip(pts, ys)):
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < L.d:
            raise InputError(f"point {x!r} at step {t} is not in the domain 0..{L.d - 1}")
        if lab not in (1, -1) or isinstance(lab, bool):
            raise InputError(f"label {lab!r} at step {t} must be +1 or -1")
        act = L.ldim(V & L.plus[x]) - L.ldim(V & L.minus[x])
        pred = L.soa_predict(V, x)
        m = pred != lab
        flags.append(m)
        V = L.restrict(V, x, lab)
        dims.append(L.ldim(V))
        if record == "all" or (m and record == "mistakes"):
            steps.append(Step(t=t, epoch=0, index=x, label=lab, activation=act, prediction=pred, mistake=m,
                              weights=tuple((V >> h) & 1 for h in range(L.n))))
    return Trace(algorithm="soa", exact=True, n_examples=len(pts), n_features=L.n, epochs=1, record=record,
                 steps=steps, mistakes=sum(flags), n_steps=len(pts), weights=tuple((V >> h) & 1 for h in range(L.n)),
                 bias=None, initial_weights=(1,) * L.n, initial_bias=None, order=pts, mistake_flags=flags,
                 params={"class_size": L.n, "domain": L.d, "ldim": L.ldim()},
                 extras={"ldim_after": dims, "realizable": V != 0})
