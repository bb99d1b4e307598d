"""The Winnow adversary game, exactly, modulo symmetry.

Winnow over n Boolean variables, target = the OR of r relevant variables.  Weights start at 1;
the learner predicts 1 iff w.x >= theta = n.  A false negative (label 1, prediction 0) multiplies
every active weight by ``b``; a false positive (label 0, prediction 1) divides every active weight
by ``b`` (``halve``: b = 2; ``winnow2``: b = alpha) or sets it to 0 (``eliminate``, promotion by 2).

So every weight is ``b**e`` for an integer exponent ``e`` (or 0 after an elimination), and the
learner's state is, up to renaming variables, two multisets of exponents: the relevant ones and
the irrelevant ones.  An example on which the learner is right changes nothing, so the adversary's
game is played over mistake-inducing examples only:

* a false negative picks >= 1 unsaturated relevant variable and any irrelevant ones with total
  weight < n (a relevant weight >= n is *saturated*: every example containing it is predicted 1);
* a false positive picks irrelevant variables only, with total weight >= n.

All arithmetic is exact: with b = p/q and exponents in [-L, L], ``b**e * (p*q)**L`` is the integer
``p**(e+L) * q**(L-e)``, so sums are compared with n as Python integers (no floats anywhere).

This module also holds the exact upper bound on the mistakes still possible from a state (used
for branch and bound, to stop a search that has provably reached the optimum, and reported next
to the results) and the closed-form bounds of the notes, compared exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from learners.errors import InputError
from learners.numbers import fraction_str, to_fraction

__all__ = ["WinnowGame", "State", "Move", "VARIANTS", "closed_form_bounds", "exact_lg_le", "floor_bound"]

VARIANTS = ("halve", "eliminate", "winnow2")


@dataclass(frozen=True)
class State:
    """Canonical state: ``rel`` = sorted exponents of the unsaturated relevant variables;
    ``irr`` = sorted tuple of (exponent, count) for the live irrelevant variables."""
    rel: tuple
    irr: tuple


@dataclass(frozen=True)
class Move:
    """A mistake-inducing example, by classes: ``rel`` and ``irr`` are tuples of
    (exponent, how many variables of that exponent are active).  ``fn`` = false negative."""
    fn: bool
    rel: tuple
    irr: tuple


class WinnowGame:
    """The game for one (n, r, variant, alpha)."""

    def __init__(self, n, r, variant="halve", alpha=2, *, max_depth=None):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InputError(f"n must be an integer >= 1, got {n!r}")
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= n:
            raise InputError(f"r must be an integer with 1 <= r <= n = {n}, got {r!r}")
        if variant not in VARIANTS:
            raise InputError(f"unknown Winnow variant {variant!r} (known: {', '.join(VARIANTS)})")
        a = to_fraction(alpha, what="alpha")
        if a <= 1:
            raise InputError(f"alpha must be > 1, got {fraction_str(a)}")
        self.n, self.r, self.variant = n, r, variant
        self.alpha = a
        self.base = a if variant == "winnow2" else Fraction(2)
        self.eliminate = variant == "eliminate"
        p, q = self.base.numerator, self.base.denominator
        self._p, self._q = p, q
        # exponent at which a relevant weight saturates: smallest s with base**s >= n
        s = 0
        while self.base ** s < n:
            s += 1
        self.sat = s
        # exponent range: relevant in [0, sat]; irrelevant in [-depth, sat]; depth <= upper bound
        if max_depth is None:
            max_depth = self._crude_depth()
        self.L = max(int(max_depth), s) + 2
        L = self.L
        self.scale = (p * q) ** L
        self.N = n * self.scale                     # theta = n, scaled
        self._units = {}
        self.minimal_fp = True      # eliminate: enumerate only minimal false positives (dominance)
        self.start = State(rel=(0,) * r if s > 0 else (), irr=((0, n - r),) if n > r else ())

    # ---- exact weights -----------------------------------------------------------------------
    def unit(self, e: int) -> int:
        """base**e scaled by (p q)**L, an exact integer for |e| <= L."""
        u = self._units.get(e)
        if u is None:
            if not -self.L <= e <= self.L:
                raise OverflowError(f"exponent {e} outside the exact range +-{self.L}")
            u = self._p ** (e + self.L) * self._q ** (self.L - e)
            self._units[e] = u
        return u

    def weight(self, e: int) -> Fraction:
        return self.base ** e

    def mass(self, classes) -> int:
        """Scaled total weight of (exponent, count) pairs."""
        return sum(self.unit(e) * c for e, c in classes)

    # ---- moves -------------------------------------------------------------------------------
    def apply(self, st: State, mv: Move) -> State:
        rel = list(st.rel)
        for e, k in mv.rel:
            for _ in range(k):
                rel.remove(e)
            if mv.fn:
                e2 = e + 1
                if e2 < self.sat:
                    rel.extend([e2] * k)
        irr = dict(st.irr)
        delta = {}
        for e, k in mv.irr:
            irr[e] -= k
            if mv.fn:
                delta[e + 1] = delta.get(e + 1, 0) + k
            elif not self.eliminate:
                delta[e - 1] = delta.get(e - 1, 0) + k
        for e, k in delta.items():
            irr[e] = irr.get(e, 0) + k
        return State(rel=tuple(sorted(rel)), irr=tuple(sorted((e, c) for e, c in irr.items() if c > 0)))

    def is_mistake(self, st: State, mv: Move) -> bool:
        s = self.mass(mv.rel) + self.mass(mv.irr)
        if mv.fn:
            return bool(mv.rel) and s < self.N
        return not mv.rel and s >= self.N

    # ---- upper bound on the mistakes still possible from a state -----------------------------
    def promotions_left(self, st: State):
        """The weights (as exponents) at which relevant variables can still be promoted."""
        out = []
        for e in st.rel:
            out.extend(range(e, self.sat))
        return out

    def ub_remaining(self, st: State) -> int:
        return self.ub_detail(st)[0]

    def ub_detail(self, st: State):
        """(upper bound, slack): slack = the mass left over in the bound's accounting beyond its
        last whole demotion (larger = less weight wasted so far; a beam-search tie-break)."""
        """An exact upper bound on the further mistakes from ``st`` (see the module docstring of
        adversary.winnow_search and docs/winnow-adversary.md for the argument).

        F <= K = number of remaining promotions.  A promotion at relevant weight w adds to the
        irrelevant mass less than (b - 1)(n - w) (halve/winnow2) or at most n - 1 - w
        (eliminate: all weights are integers).  A demotion removes at least (1 - 1/b) n
        (eliminate: n), and after the last demotion at least n/b stays (the demoted weights);
        with eliminate nothing need stay.
        """
        proms = self.promotions_left(st)
        K = len(proms)
        I = self.mass(st.irr)
        N = self.N
        if self.eliminate:
            one = self.scale
            A = sum(N - one - self.unit(e) for e in proms)
            avail = I + A - self._elim_loss(st, I)
            m = avail // N
            # each elimination kills >= 1 live irrelevant variable, and none ever comes back
            live = sum(c for _, c in st.irr)
            return K + max(0, min(m, live)), avail - max(0, m) * N
        p, q = self._p, self._q
        # work with everything multiplied by p (b = p/q): removal per FP >= (p - q) N / p -> (p-q) N
        loss = self._first_fn_loss(st, I)
        A = (p - q) * (sum(N - self.unit(e) for e in proms) - loss)
        # (b - 1) (n - w) = (p - q)/q (n - w).  Multiply every quantity by p*q:
        #   avail*pq = I*pq + (p-q) p * sum(n - w) - N q*q ... (n/b)*pq = N q^2
        #   removal*pq = (p - q) q N
        avail = I * p * q + p * A - N * q * q
        rem = (p - q) * q * N
        if avail < rem:
            return K, avail
        # strict when some promotion's bound is strict (a fill is < n - w; the first one is
        # bounded by I instead when I < n - w, and I can be met exactly)
        if K >= 2 or (K == 1 and loss == 0):
            m = (avail - 1) // rem          # strict: m * rem < avail
        else:
            m = avail // rem
        return K + max(0, m), avail - max(0, m) * rem

    def _first_fn_loss(self, st: State, I: int) -> int:
        """The next promotion adds at most min(I, n - w) irrelevant weight (times b - 1), where I
        is the irrelevant mass now (demotions before it only lower I): compared with the n - w
        counted for it, at least max(0, n - w_max - I) is lost, w_max = the largest relevant
        weight still promotable (eliminate: n - 1 - w_max - I)."""
        if not st.rel:
            return 0
        w = self.unit(st.rel[-1])
        gap = self.N - w - I - (self.scale if self.eliminate else 0)
        return max(0, gap)

    def _elim_loss(self, st: State, I: int) -> int:
        """Eliminate: a lower bound on the irrelevant mass the remaining promotions lose against
        their n - 1 - w (in scaled units).  Weights are integers, so a promotion whose irrelevant
        fill target n - 1 - w is odd is met exactly only with a weight-1 irrelevant variable, and
        it doubles that variable (weight-1 variables are never created): each odd promotion beyond
        the weight-1 variables left loses >= 1 (an unused promotion loses its whole term >= 1).
        The next promotion fills at most s <= min(I, n - 1 - w), using >= s - (I - c1) of the c1
        weight-1 variables (and >= 1 when s is odd)."""
        if not st.rel:
            return 0
        one = self.scale
        c1 = dict(st.irr).get(0, 0)
        Iu = I // one                      # eliminate: I is a whole number of units
        odd = []
        for e in st.rel:
            for j in range(e, self.sat):
                odd.append((self.n - 1 - self.unit(j) // one) % 2 == 1)
        K_odd = sum(odd)
        best = None
        for e in sorted(set(st.rel)):
            T = self.n - 1 - self.unit(e) // one
            rest_odd = K_odd - (1 if T % 2 == 1 else 0)
            smax = min(Iu, T)
            for s_ in (smax, smax - 1):
                if s_ < 0:
                    continue
                used = max(0, s_ - (Iu - c1), s_ % 2)
                f = (T - s_) + max(0, rest_odd - (c1 - used))
                best = f if best is None else min(best, f)
        return max(0, best) * one

    def _crude_depth(self) -> int:
        # a crude exact bound used only to size the exponent range (the promotions and the mass)
        b = self.base
        s = 0
        while b ** s < self.n:
            s += 1
        K = self.r * s
        if self.eliminate:
            return K + (self.n + K * self.n) // self.n + 2
        A = (b - 1) * self.n * K
        m = int((self.n + A) / ((1 - 1 / b) * self.n)) + 1
        return K + m + 2

    def ub_start(self) -> int:
        return self.ub_remaining(self.start)

    # ---- move enumeration (exhaustive search) -------------------------------------------------
    def moves(self, st: State):
        """Every mistake-inducing move from ``st``, modulo symmetry."""
        N = self.N
        irr = [(e, c, self.unit(e)) for e, c in st.irr]
        out = []
        # false positives: irrelevant picks with sum >= N
        total_irr = sum(c * u for _, c, u in irr)
        if total_irr >= N:
            units = {e: u for e, _, u in irr}
            for pick, s_ in _subsets(irr, lo=N):
                # eliminate: only minimal false positives (dropping any active variable would fall
                # below n).  Sound: killing a superset leaves a sub-multiset of live variables, and
                # a state with extra live variables can copy every move of one without them (the
                # extras stay untouched), so its value is at least as large.
                if self.eliminate and self.minimal_fp and s_ - min(units[e] for e, _ in pick) >= N:
                    continue
                out.append(Move(False, (), pick))
        # false negatives
        relc = {}
        for e in st.rel:
            relc[e] = relc.get(e, 0) + 1
        rel = [(e, c, self.unit(e)) for e, c in sorted(relc.items())]
        for rpick, rs in _subsets(rel, hi=N - 1):
            if not rpick:
                continue
            for ipick, _s in _subsets(irr, hi=N - 1 - rs):
                out.append(Move(True, rpick, ipick))
        return out


def _subsets(classes, *, lo=None, hi=None):
    """Sub-multisets of ``classes`` [(exp, count, unit)] as ((exp, k), ...) with their sum:
    sum <= hi when hi is given, sum >= lo when lo is given (pruned with the remaining mass)."""
    res = []
    m = len(classes)
    suffix = [0] * (m + 1)
    for i in range(m - 1, -1, -1):
        suffix[i] = suffix[i + 1] + classes[i][1] * classes[i][2]

    def rec(i, s, acc):
        if hi is not None and s > hi:
            return
        if lo is not None and s + suffix[i] < lo:
            return
        if i == m:
            res.append((tuple(acc), s))
            return
        e, c, u = classes[i]
        for k in range(c + 1):
            ns = s + k * u
            if hi is not None and ns > hi:
                break
            if k:
                acc.append((e, k))
            rec(i + 1, ns, acc)
            if k:
                acc.pop()

    rec(0, 0, [])
    return res


# ---- closed-form bounds, compared exactly -------------------------------------------------------

def exact_lg_le(M_minus_c: int, coef: int, n: int) -> bool:
    """Exactly: M - c <= coef * lg n, i.e. 2**(M - c) <= n**coef (integers, no floats)."""
    if M_minus_c <= 0:
        return True
    return 2 ** M_minus_c <= n ** coef


def floor_bound(c: int, coef: int, n: int) -> int:
    """The largest integer M with M <= c + coef * lg n, exactly (2**(M - c) <= n**coef)."""
    target = n ** coef
    k = target.bit_length() - 1          # 2**k <= target < 2**(k+1)
    return c + k


def closed_form_bounds(n: int, r: int, variant: str) -> dict:
    """The notes' bounds and the catalogue's sharper ones (n a power of 2: winnow_halving_pow2, winnow_elimination_pow2), as exact integer
    ceilings on M (the largest integer M the bound allows), with the formula text.

    halve:     M <= 2 + 3r(1 + lg n)  = (2 + 3r) + 3r lg n;   sharper (n = 2^p): 1 + r(3p - 2)
    eliminate: M <= 1 + 2r(1 + lg n)  = (1 + 2r) + 2r lg n;   sharper (n = 2^p): r(2p - 1)
    """
    out = {}
    pow2 = n >= 1 and (n & (n - 1)) == 0
    p = n.bit_length() - 1 if pow2 else None
    if variant in ("halve", "winnow2"):
        out["notes"] = {"formula": "2 + 3r(1 + lg n)", "max_M": floor_bound(2 + 3 * r, 3 * r, n)}
        if pow2:
            out["sharper"] = {"formula": "1 + r(3 lg n - 2)", "max_M": 1 + r * (3 * p - 2)}
            out["tight"] = {"formula": "r(3 lg n - 2)", "max_M": r * (3 * p - 2)}
    else:
        out["notes"] = {"formula": "1 + 2r(1 + lg n)", "max_M": floor_bound(1 + 2 * r, 2 * r, n)}
        if pow2:
            out["sharper"] = {"formula": "r(2 lg n - 1)", "max_M": r * (2 * p - 1)}
    return out
