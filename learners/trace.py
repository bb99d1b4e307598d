"""``Trace``: the one record of a learner's run that proofs, adversary and grading all read.

A run visits examples in a fixed order; step ``t`` (0-based over all epochs) looks at example
``index``, computes its ``activation`` (perceptron: w.x + b; kernel perceptron: f(x); Winnow:
w.x), predicts, and updates on a mistake.  A step records the state *after* the step; the
state before the first step is ``initial_weights`` / ``initial_bias``.

Weights are tuples of ``Fraction`` in exact mode and of ``float`` in float mode.  For the kernel
perceptron the weights are the dual coefficients alpha (one per example).

Potentials (the quantities the mistake-bound proofs speak of), after each step:

* ``w_norm_sq``   -- |w|^2 (for the kernel perceptron, alpha^T K alpha: |w|^2 in feature space);
* ``w_dot_target``-- w.w* when a target is given (bias included through the augmented vector
  (w, b).(w*, b*) when the run has a bias).

``record`` says which steps were kept: ``"all"``, ``"mistakes"`` (the steps where an update
happened; between two of them the weights do not change) or ``"none"`` (only the totals).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Sequence as _SequenceABC
from typing import Any, Iterator, Sequence

import numpy as np

from learners.numbers import to_json_number

__all__ = ["Step", "Trace", "ArraySeq", "RECORD_MODES"]

RECORD_MODES = ("all", "mistakes", "none")


class ArraySeq(_SequenceABC):
    """A read-only list-like view of a 1-D numpy array (``Trace.order``, ``Trace.mistake_flags``):
    items come out as Python ``int`` / ``bool``, ``==`` compares element-wise with any sequence
    and gives one bool (as a list does), but no Python object is built per step until someone
    iterates.  ``numpy.asarray(seq)`` gives the array without copying."""

    __slots__ = ("_a", "_py")

    def __init__(self, a: np.ndarray):
        self._a = a
        self._py = bool if a.dtype == np.bool_ else int

    def __len__(self):
        return self._a.shape[0]

    def __getitem__(self, k):
        if isinstance(k, slice):
            return self._a[k].tolist()
        return self._py(self._a[k])

    def __iter__(self):
        return iter(self._a.tolist())

    def __array__(self, dtype=None, copy=None):
        return self._a if dtype is None else self._a.astype(dtype)

    def tolist(self):
        return self._a.tolist()

    def __eq__(self, other):
        if isinstance(other, ArraySeq):
            other = other._a
        elif isinstance(other, (str, bytes)) or not isinstance(other, (_SequenceABC, np.ndarray)):
            return NotImplemented
        if len(other) != len(self._a):
            return False
        try:
            return bool(np.array_equal(self._a, np.asarray(other)))
        except (TypeError, ValueError):
            return self.tolist() == list(other)

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def __repr__(self):
        return repr(self._a.tolist()) if len(self._a) <= 20 else \
            f"ArraySeq({self._a[:10].tolist()} ... {len(self._a)} items)"

    def __reduce__(self):
        return (ArraySeq, (self._a,))


@dataclass(frozen=True)
class Step:
    t: int                 # global step number, 0-based, over all epochs
    epoch: int             # 0-based epoch
    index: int             # index of the example in the data set
    label: int             # +1/-1 (perceptrons) or 0/1 (Winnow)
    activation: Any        # w.x + b before the update (Winnow: w.x)
    prediction: int        # +1/-1 or 0/1
    mistake: bool          # True when the learner updated
    weights: tuple | None = None   # weights after the step
    bias: Any = None               # bias after the step (None when the learner has none)
    w_norm_sq: Any = None          # |w|^2 after the step (bias included when present)
    w_dot_target: Any = None       # w.w* after the step (None without a target)

    def to_json(self, exact: bool) -> dict:
        d = {
            "t": self.t, "epoch": self.epoch, "index": self.index, "label": self.label,
            "activation": to_json_number(self.activation, exact),
            "prediction": self.prediction, "mistake": self.mistake,
        }
        if self.weights is not None:
            d["weights"] = [to_json_number(v, exact) for v in self.weights]
        if self.bias is not None:
            d["bias"] = to_json_number(self.bias, exact)
        if self.w_norm_sq is not None:
            d["w_norm_sq"] = to_json_number(self.w_norm_sq, exact)
        if self.w_dot_target is not None:
            d["w_dot_target"] = to_json_number(self.w_dot_target, exact)
        return d


@dataclass
class Trace:
    algorithm: str                     # "perceptron", "averaged", "voted", "kernel_perceptron", "winnow"
    exact: bool
    n_examples: int
    n_features: int
    epochs: int
    record: str
    steps: list[Step]
    mistakes: int
    n_steps: int
    weights: tuple                     # final weights (dual alpha for the kernel perceptron)
    bias: Any                          # final bias (None without bias)
    initial_weights: tuple
    initial_bias: Any
    # example index visited at each step, and one mistake flag per step (always complete): a list,
    # or a list-like read-only view of a numpy array (learners.perceptron.ArraySeq) for long runs
    order: Sequence[int] = field(default_factory=list)
    mistake_flags: Sequence[bool] = field(default_factory=list)
    target: tuple | None = None
    target_bias: Any = None
    params: dict = field(default_factory=dict)        # options of the run (bias, normalize, kernel, ...)
    extras: dict = field(default_factory=dict)        # learner-specific results (averaged weights, votes, ...)

    # --- convenient views -------------------------------------------------------------

    def mistake_indices(self) -> list[int]:
        """Example index of every update, in order (complete whatever ``record`` was)."""
        return [i for i, m in zip(self.order, self.mistake_flags) if m]

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    # --- serialisation ----------------------------------------------------------------
    def header(self) -> dict:
        e = self.exact
        h = {
            "algorithm": self.algorithm, "exact": e, "n_examples": self.n_examples,
            "n_features": self.n_features, "epochs": self.epochs, "record": self.record,
            "mistakes": self.mistakes, "n_steps": self.n_steps,
            "weights": [to_json_number(v, e) for v in self.weights],
            "bias": None if self.bias is None else to_json_number(self.bias, e),
            "initial_weights": [to_json_number(v, e) for v in self.initial_weights],
            "initial_bias": None if self.initial_bias is None else to_json_number(self.initial_bias, e),
            "params": self.params,
        }
        if self.target is not None:
            h["target"] = [to_json_number(v, e) for v in self.target]
            if self.target_bias is not None:
                h["target_bias"] = to_json_number(self.target_bias, e)
        return h

    def to_jsonl_lines(self) -> Iterator[str]:
        """One JSON object per line: a header ``{"trace": {...}}`` then one line per recorded step."""
        yield json.dumps({"trace": self.header()})
        for s in self.steps:
            yield json.dumps(s.to_json(self.exact))

