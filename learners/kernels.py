"""Kernels for the kernel perceptron: linear, polynomial (c + x.x')^k with c >= 0, Gaussian
exp(-c |x - x'|^2), any user callable, and ``"precomputed"`` (the data *is* the kernel matrix, as
in scikit-learn: n x n for training, m x n_train for prediction).

A kernel is given as a :class:`Kernel`, a spec string (``"linear"``, ``"poly:c=1,k=2"``,
``"gaussian:c=0.5"``, ``"precomputed"``) or a callable ``K(a, b) -> number``; a callable receives
two 1-D numpy arrays (float64, or of ``Fraction`` in exact mode), so ``lambda a, b: (1 + a @ b) ** 2``
works in both modes.  Polynomial and
linear kernels are exact on rational data (``Fraction`` in, ``Fraction`` out), and so is a
precomputed matrix of rationals; the Gaussian kernel is irrational and refuses exact mode.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from learners.errors import InputError
from learners.numbers import to_fraction, fraction_str

__all__ = ["Kernel", "parse_kernel", "linear", "polynomial", "gaussian", "as_kernel_arg"]


@dataclass(frozen=True)
class Kernel:
    name: str                       # "linear", "poly", "gaussian", "callable", "precomputed"
    params: dict = field(default_factory=dict)
    func: object = None             # the user callable for name == "callable"

    @property
    def exact_capable(self) -> bool:
        return self.name in ("linear", "poly", "callable", "precomputed")

    def spec(self) -> str:
        if self.name == "linear":
            return "linear"
        if self.name == "poly":
            return f"poly:c={fraction_str(self.params['c'])},k={self.params['k']}"
        if self.name == "gaussian":
            return f"gaussian:c={fraction_str(self.params['c'])}"
        if self.name == "precomputed":
            return "precomputed"
        return getattr(self.func, "__name__", "callable")

    def __call__(self, a, b):
        if self.name == "linear":
            return sum(x * y for x, y in zip(a, b))
        if self.name == "poly":
            c, k = self.params["c"], self.params["k"]
            s = sum(x * y for x, y in zip(a, b))
            if not isinstance(s, Fraction) and not isinstance(s, int):
                c = float(c)
            return (c + s) ** k
        if self.name == "gaussian":
            c = float(self.params["c"])
            s = sum((float(x) - float(y)) ** 2 for x, y in zip(a, b))
            return math.exp(-c * s)
        if self.name == "precomputed":
            raise InputError("a precomputed kernel has no function to evaluate: its values are the data")
        return self.func(as_kernel_arg(a), as_kernel_arg(b))

    def gram_float(self, A: np.ndarray) -> np.ndarray:
        """G[j, i] = K(x_j, x_i) for float data (vectorised for the built-in kernels)."""
        if self.name == "linear":
            return A @ A.T
        if self.name == "poly":
            return (float(self.params["c"]) + A @ A.T) ** self.params["k"]
        if self.name == "gaussian":
            sq = np.einsum("ij,ij->i", A, A)
            D = np.maximum(sq[:, None] + sq[None, :] - 2 * A @ A.T, 0.0)
            return np.exp(-float(self.params["c"]) * D)
        if self.name == "precomputed":
            return np.array(A, dtype=np.float64)
        n = A.shape[0]
        G = np.empty((n, n))
        rows = [A[i] for i in range(n)]
        for j in range(n):
            for i in range(n):
                G[j, i] = _check_value(self.func(rows[j], rows[i]), j, i, exact=False)
        return G


def as_kernel_arg(row):
    """An example as a user kernel receives it: a 1-D numpy array (float64 in float mode, of
    ``Fraction`` objects in exact mode), so that ``a @ b`` and ``a - b`` work in either mode."""
    if isinstance(row, np.ndarray):
        return row
    if all(isinstance(v, float) for v in row):
        return np.array(row, dtype=np.float64)
    a = np.empty(len(row), dtype=object)
    a[:] = list(row)
    return a


def _check_value(v, j, i, exact):
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        try:
            v = float(v) if not exact else to_fraction(v)
        except Exception:
            raise InputError(f"the kernel returned a non-number ({type(v).__name__}) for examples {j}, {i}") from None
    if exact:
        if isinstance(v, float):
            if not math.isfinite(v):
                raise InputError(f"the kernel returned {v} for examples {j}, {i}")
            raise InputError(f"the kernel returned a float for examples {j}, {i}; exact mode needs ints or Fractions")
        return to_fraction(v)
    v = float(v)
    if not math.isfinite(v):
        raise InputError(f"the kernel returned {v} for examples {j}, {i}")
    return v


def linear() -> Kernel:
    return Kernel("linear")


def polynomial(c=1, k=2) -> Kernel:
    c = to_fraction(c, what="polynomial kernel c")
    if c < 0:
        raise InputError(f"polynomial kernel needs c >= 0, got {fraction_str(c)}")
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise InputError(f"polynomial kernel degree k must be a positive integer, got {k!r}")
    return Kernel("poly", {"c": c, "k": int(k)})


def gaussian(c=1) -> Kernel:
    c = to_fraction(c, what="gaussian kernel c")
    if c <= 0:
        raise InputError(f"gaussian kernel needs c > 0, got {fraction_str(c)}")
    return Kernel("gaussian", {"c": c})


def parse_kernel(spec) -> Kernel:
    """``"linear"``, ``"poly:c=1,k=2"`` (also ``"polynomial"``), ``"gaussian:c=0.5"`` (also
    ``"rbf"``), ``"precomputed"``, a :class:`Kernel`, or a callable."""
    if isinstance(spec, Kernel):
        return spec
    if callable(spec):
        return Kernel("callable", {}, spec)
    if not isinstance(spec, str):
        raise InputError(f"kernel must be a spec string or a callable, got {type(spec).__name__}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name == "precomputed" and not rest.strip():
        return Kernel("precomputed")
    kv = {}
    if rest.strip():
        for part in rest.split(","):
            k, eq, v = part.partition("=")
            if not eq or not k.strip():
                raise InputError(f"kernel spec {spec!r}: expected key=value, got {part.strip()!r}")
            kv[k.strip()] = v.strip()
    allowed = {"linear": set(), "poly": {"c", "k"}, "polynomial": {"c", "k"}, "gaussian": {"c", "sigma"},
               "rbf": {"c", "sigma"}}
    if name not in allowed:
        raise InputError(f"unknown kernel {name!r} (known: linear, poly:c=C,k=K, gaussian:c=C, precomputed)")
    extra = set(kv) - allowed[name]
    if extra:
        raise InputError(f"kernel {name!r} has no parameter {sorted(extra)[0]!r}")
    if name == "linear":
        return linear()
    if name in ("poly", "polynomial"):
        try:
            k = int(kv.get("k", "2"))
        except ValueError:
            raise InputError(f"kernel spec {spec!r}: k must be an integer") from None
        return polynomial(kv.get("c", "1"), k)
    if "sigma" in kv:
        s = to_fraction(kv["sigma"], what="sigma")
        if s <= 0:
            raise InputError("gaussian kernel needs sigma > 0")
        return gaussian(1 / (2 * s * s))
    return gaussian(kv.get("c", "1"))
