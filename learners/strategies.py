"""Hypothesis strategies for the suite's property tests -- and for anyone else's.

Every strategy draws exact data (``Fraction`` entries) with a known certificate:

* :func:`separable_datasets` -- linearly separable data with a target w* such that
  y (w*.x) >= margin for every example (the margin-1 form of Block-Novikoff after scaling);
* :func:`inseparable_datasets` -- arbitrary labels with a target w* and its exact total hinge loss
  L = sum max(0, 1 - y w*.x);
* :func:`disjunction_datasets` -- {0,1} examples labelled by a monotone disjunction of r of the n
  variables (Winnow's setting).

They compose like any hypothesis strategy (``.map``, ``.filter``, ``st.tuples``)::

    @given(separable_datasets(max_n=8, max_d=3))
    def test_block_novikoff(data):
        trace = run_perceptron(data.X, data.y, exact=True)
        assert trace.mistakes <= data.bound
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

__all__ = ["SeparableData", "InseparableData", "DisjunctionData", "separable_datasets", "inseparable_datasets",
           "disjunction_datasets"]


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


@dataclass(frozen=True)
class SeparableData:
    X: list          # n tuples of Fraction
    y: list          # n labels +1/-1
    target: tuple    # w* (Fractions)
    margin: Fraction  # min y (w*.x) > 0

    @property
    def R_sq(self) -> Fraction:
        return max(_dot(x, x) for x in self.X)

    @property
    def bound(self) -> Fraction:
        """Block-Novikoff: M <= R^2 |w*|^2 / margin^2 (= 1/gamma^2 with gamma = margin/(R|w*|))."""
        return self.R_sq * _dot(self.target, self.target) / (self.margin * self.margin)


@dataclass(frozen=True)
class InseparableData:
    X: list
    y: list
    target: tuple
    hinge_loss: Fraction  # sum max(0, 1 - y w*.x)

    @property
    def R_sq(self) -> Fraction:
        return max(_dot(x, x) for x in self.X)

    @property
    def bound(self) -> Fraction:
        """The hinge-loss bound M <= R^2 |w*|^2 + 2 L (holds for every w*)."""
        return self.R_sq * _dot(self.target, self.target) + 2 * self.hinge_loss


@dataclass(frozen=True)
class DisjunctionData:
    X: list          # n_examples lists of 0/1
    y: list          # 0/1 = OR of the relevant variables
    relevant: tuple  # indices of the r relevant variables
    n: int

    @property
    def r(self) -> int:
        return len(self.relevant)


def _ints(lo, hi):
    return st.integers(min_value=lo, max_value=hi)


@st.composite
def separable_datasets(draw, min_n=1, max_n=10, min_d=1, max_d=4, max_coord=5, max_denominator=3):
    """Separable data sets with rational entries and an integer target w*.

    Each example's coordinates are integers in [-max_coord, max_coord] over a common denominator
    q <= max_denominator; an example orthogonal to w* is moved off the hyperplane, so every
    example has y (w*.x) >= 1/q."""
    d = draw(_ints(min_d, max_d))
    n = draw(_ints(min_n, max_n))
    q = draw(_ints(1, max_denominator))
    w = draw(st.lists(_ints(-max_coord, max_coord), min_size=d, max_size=d).filter(any))
    k = next(i for i, v in enumerate(w) if v != 0)
    X, y = [], []
    for _ in range(n):
        xi = draw(st.lists(_ints(-max_coord, max_coord), min_size=d, max_size=d))
        s = _dot(w, xi)
        if s == 0:
            xi[k] += 1
            s = _dot(w, xi)
        X.append(tuple(Fraction(v, q) for v in xi))
        y.append(1 if s > 0 else -1)
    target = tuple(Fraction(v) for v in w)
    margin = min(yy * _dot(target, x) for x, yy in zip(X, y))
    return SeparableData(X=X, y=y, target=target, margin=margin)


@st.composite
def inseparable_datasets(draw, min_n=1, max_n=10, min_d=1, max_d=4, max_coord=4):
    """Arbitrary labels (usually not separable) with a target w* and its exact hinge loss."""
    d = draw(_ints(min_d, max_d))
    n = draw(_ints(min_n, max_n))
    X = [tuple(Fraction(v) for v in draw(st.lists(_ints(-max_coord, max_coord), min_size=d, max_size=d)))
         for _ in range(n)]
    y = draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
    den = draw(_ints(1, 3))
    target = tuple(Fraction(v, den) for v in draw(st.lists(_ints(-3, 3), min_size=d, max_size=d)))
    L = sum(max(Fraction(0), 1 - yy * _dot(target, x)) for x, yy in zip(X, y))
    return InseparableData(X=X, y=y, target=target, hinge_loss=L)


@st.composite
def disjunction_datasets(draw, min_vars=1, max_vars=12, max_r=4, min_n=1, max_n=30, density=None):
    """{0,1} examples labelled by the OR of r relevant variables (1 <= r <= max_r)."""
    nv = draw(_ints(min_vars, max_vars))
    r = draw(_ints(1, min(max_r, nv)))
    relevant = tuple(sorted(draw(st.lists(_ints(0, nv - 1), min_size=r, max_size=r, unique=True))))
    m = draw(_ints(min_n, max_n))
    X = []
    for _ in range(m):
        X.append(draw(st.lists(st.sampled_from([0, 1]) if density is None else
                               st.sampled_from([0] * (10 - density) + [1] * density),
                               min_size=nv, max_size=nv)))
    y = [1 if any(x[i] for i in relevant) else 0 for x in X]
    return DisjunctionData(X=X, y=y, relevant=relevant, n=nv)
