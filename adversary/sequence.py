"""The sequence file: the one format every part of the suite reads and writes for a worst-case
(or any) example sequence, with the target it is evaluated against.

Wire format (JSON, one object)::

    {
      "format": "mistakebound.sequence/1",
      "algorithm": "perceptron" | "winnow" | "kernel_perceptron" | "weighted_majority"
                   | "randomized_weighted_majority",
      "examples": [[num, ...], ...],          # num: an integer or a string "p/q" (exact); experts:
                                              # one row of +1/-1 advice per round, one column per expert
      "labels": [...],                        # +1/-1 (perceptrons, experts), 0/1 (Winnow)
      "beta": num,                            # experts only: the penalty (default 1/2)
      "target": ...,                          # see below; null = no target (no bound)
      "epochs": 1,                            # passes over the examples, in the given order
      "bias": false,                          # perceptrons: learn a bias b (update b += y)
      "target_bias": num,                     # perceptron with bias: b* (optional, default 0)
      "evaluate": "auto" | "hinge",           # perceptrons: "hinge" = evaluate the hinge bound at the
                                              # target as given even when it separates (default auto)
      "variant": "halve" | "eliminate" | "winnow2",   # Winnow only (required)
      "alpha": num, "theta": num | null,      # Winnow only (defaults 2 and n)
      "kernel": "poly:c=1,k=2",               # kernel perceptron only (required)
      "claims": {"mistakes": int, "bound": num, "ratio": num, ...},   # optional; recomputed
      "meta": {...}                           # free-form: strategy, gamma, dim, seed, seconds, notes
    }

``target``:

* perceptron: w* (a list of d numbers).  The bound is R^2 |w*|^2 after scaling w* so that
  min y (w*.x) = 1 (with a bias: x augmented by a constant 1 and w* by b*);
* winnow: the relevant variable indices (0-based, distinct); the labels must equal their OR;
* kernel_perceptron: w* in dual form, one coefficient per example (w* = sum_j beta_j phi(x_j)).

Numbers are kept as ``fractions.Fraction`` in memory; a float in a file (a user's float data) is
read as its exact binary value.  Unknown top-level keys are kept (``extra``) and written back.
Every problem is reported as one :class:`learners.errors.InputError` line naming it.
"""
from __future__ import annotations

import json
import math
import numbers
import os
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from learners.errors import InputError
from learners.io import write_text_atomic
from learners.numbers import fraction_str, to_fraction

__all__ = ["FORMAT", "ALGORITHMS", "WINNOW_VARIANTS", "Sequence", "num_to_wire", "parse_kernel_spec"]

FORMAT = "mistakebound.sequence/1"
ALGORITHMS = ("perceptron", "winnow", "kernel_perceptron", "weighted_majority", "randomized_weighted_majority")
WINNOW_VARIANTS = ("halve", "eliminate", "winnow2")
_KNOWN_KEYS = {
    "format", "algorithm", "examples", "labels", "target", "target_bias", "epochs", "bias",
    "variant", "alpha", "theta", "kernel", "claims", "meta", "evaluate", "beta",
}
_CLAIM_NUM_KEYS = ("bound", "ratio", "margin", "gamma_sq", "r_sq", "w_norm_sq", "hinge_loss",
                   "hinge_bound", "expected_mistakes")


def num_to_wire(v):
    """A Fraction on the wire: a plain int when integral, else the string "p/q"."""
    f = Fraction(v)
    return int(f) if f.denominator == 1 else fraction_str(f)


def _num(v, what: str) -> Fraction:
    if v is None or isinstance(v, (list, dict)):
        raise InputError(f"{what} must be a number (an integer or \"p/q\"), got {json.dumps(v)}")
    if isinstance(v, float) and not math.isfinite(v):
        raise InputError(f"{what} is {v} (NaN and infinity are not allowed)")
    return to_fraction(v, what=what)


def _int(v, what: str, *, minimum: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        else:
            raise InputError(f"{what} must be an integer, got {json.dumps(v, default=str)}")
    v = int(v)
    if minimum is not None and v < minimum:
        raise InputError(f"{what} must be >= {minimum}, got {v}")
    return v


def parse_kernel_spec(spec: str) -> tuple[str, dict]:
    """``"poly:c=1,k=2"`` -> ("poly", {"c": Fraction(1), "k": 2}) via :func:`learners.kernels.parse_kernel`
    (the one kernel parser of the suite); user callables are not allowed in files."""
    from learners.kernels import parse_kernel
    if not isinstance(spec, str) or not spec.strip():
        raise InputError(f"kernel must be a string such as \"poly:c=1,k=2\", got {json.dumps(spec, default=str)}")
    K = parse_kernel(spec)
    return K.name, dict(K.params)


def kernel_spec_str(name: str, params: dict) -> str:
    from learners.kernels import Kernel
    return Kernel(name, dict(params)).spec()


@dataclass
class Sequence:
    """An example sequence with its target.  Numbers are Fractions; labels ints."""
    algorithm: str
    examples: list
    labels: list
    target: Any = None
    epochs: int = 1
    bias: bool = False
    target_bias: Any = None
    variant: str | None = None
    alpha: Any = None
    theta: Any = None
    kernel: str | None = None
    claims: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)
    evaluate: str = "auto"      # perceptrons: "auto" (separable target -> margin form) or "hinge"
    beta: Any = None            # experts algorithms: the penalty (default 1/2)

    def __post_init__(self):
        self.validate()

    # --- shape ----------------------------------------------------------------------------
    @property
    def n_examples(self) -> int:
        return len(self.examples)

    @property
    def dim(self) -> int:
        return len(self.examples[0])

    @property
    def r(self) -> int | None:
        """Winnow: the number of relevant variables."""
        return len(self.target) if self.algorithm == "winnow" and self.target is not None else None

    # --- validation (normalises in place: numbers -> Fraction, labels -> int) -------------
    def validate(self) -> "Sequence":
        if self.algorithm not in ALGORITHMS:
            raise InputError(f"algorithm {self.algorithm!r} is not one of {', '.join(ALGORITHMS)}")
        if isinstance(self.examples, (str, bytes, dict)) or not hasattr(self.examples, "__len__"):
            raise InputError("examples must be a list of rows")
        if len(self.examples) == 0:
            raise InputError("examples is empty: no examples")
        rows = []
        d = None
        for i, row in enumerate(self.examples):
            if isinstance(row, (str, bytes, dict)) or not hasattr(row, "__len__"):
                raise InputError(f"examples[{i}] is not a list of numbers")
            if d is None:
                d = len(row)
                if d == 0:
                    raise InputError("examples[0] has no features (d = 0)")
            elif len(row) != d:
                raise InputError(f"examples is ragged: examples[{i}] has {len(row)} values, examples[0] has {d}")
            rows.append(tuple(_num(v, f"examples[{i}][{j}]") for j, v in enumerate(row)))
        self.examples = rows
        n = len(rows)
        if isinstance(self.labels, (str, bytes, dict)) or not hasattr(self.labels, "__len__"):
            raise InputError("labels must be a list")
        if len(self.labels) != n:
            raise InputError(f"mismatched lengths: {n} examples but {len(self.labels)} labels")
        allowed = (0, 1) if self.algorithm == "winnow" else (1, -1)
        labs = []
        for i, v in enumerate(self.labels):
            if isinstance(v, bool) or not isinstance(v, (numbers.Number, str)):
                raise InputError(f"labels[{i}] is {json.dumps(v, default=str)}; labels must be "
                                 f"{'0 or 1' if allowed == (0, 1) else '+1 or -1'}")
            fv = to_fraction(v, what=f"labels[{i}]")
            if fv not in allowed:
                raise InputError(f"labels[{i}] is {v!r}; labels must be "
                                 f"{'0 or 1' if allowed == (0, 1) else '+1 or -1'}")
            labs.append(int(fv))
        self.labels = labs
        self.epochs = _int(self.epochs, "epochs", minimum=1)
        if not isinstance(self.bias, bool):
            raise InputError(f"bias must be true or false, got {json.dumps(self.bias, default=str)}")
        if not isinstance(self.claims, dict):
            raise InputError("claims must be an object")
        if not isinstance(self.meta, dict):
            raise InputError("meta must be an object")
        self.claims = self._normalise_claims(self.claims)
        if self.evaluate not in ("auto", "hinge"):
            raise InputError(f"evaluate must be \"auto\" or \"hinge\", got {json.dumps(self.evaluate, default=str)}")
        if self.evaluate == "hinge" and self.algorithm == "winnow":
            raise InputError("evaluate does not apply to algorithm winnow")
        getattr(self, f"_validate_{self.algorithm}")()
        return self

    def _no(self, *keys):
        for k in keys:
            if getattr(self, k) not in (None, False):
                raise InputError(f"{k} does not apply to algorithm {self.algorithm}")

    def _validate_weighted_majority(self):
        """Experts: one row of +1/-1 advice per round (one column per expert), labels +1/-1."""
        self._no("variant", "alpha", "theta", "kernel", "target", "bias", "target_bias")
        if self.epochs != 1:
            raise InputError(f"epochs does not apply to algorithm {self.algorithm} (one pass over the rounds)")
        if self.evaluate != "auto":
            raise InputError(f"evaluate does not apply to algorithm {self.algorithm}")
        for i, row in enumerate(self.examples):
            for j, v in enumerate(row):
                if v not in (1, -1):
                    raise InputError(f"examples[{i}][{j}] is {num_to_wire(v)}; expert advice must be +1 or -1")
        self.beta = Fraction(1, 2) if self.beta is None else _num(self.beta, "beta")
        low_ok = self.beta >= 0 if self.algorithm == "weighted_majority" else self.beta > 0
        if not (low_ok and self.beta < 1):
            raise InputError(f"beta is {num_to_wire(self.beta)}; it must be in "
                             f"{'[0, 1)' if self.algorithm == 'weighted_majority' else '(0, 1)'}")

    _validate_randomized_weighted_majority = _validate_weighted_majority

    def _validate_perceptron(self):
        self._no("variant", "alpha", "theta", "kernel")
        if self.target is not None:
            self.target = self._vector(self.target, self.dim, "target")
        if self.target_bias is not None:
            if not self.bias:
                raise InputError("target_bias given but bias is false")
            self.target_bias = _num(self.target_bias, "target_bias")

    def _validate_kernel_perceptron(self):
        self._no("variant", "alpha", "theta")
        if self.kernel is None:
            raise InputError("kernel_perceptron sequence needs \"kernel\" (e.g. \"poly:c=1,k=2\")")
        name, params = parse_kernel_spec(self.kernel)
        self.kernel = kernel_spec_str(name, params)
        if self.target is not None:
            self.target = self._vector(self.target, self.n_examples, "target (dual coefficients, one per example)")
        if self.target_bias is not None:
            if not self.bias:
                raise InputError("target_bias given but bias is false")
            self.target_bias = _num(self.target_bias, "target_bias")

    def _validate_winnow(self):
        self._no("kernel", "target_bias")
        if self.bias:
            raise InputError("bias does not apply to algorithm winnow")
        if self.variant is None:
            raise InputError(f"winnow sequence needs \"variant\" (one of {', '.join(WINNOW_VARIANTS)})")
        if self.variant not in WINNOW_VARIANTS:
            raise InputError(f"variant {self.variant!r} is not one of {', '.join(WINNOW_VARIANTS)}")
        n = self.dim
        for i, row in enumerate(self.examples):
            for j, v in enumerate(row):
                if v != 0 and v != 1:
                    raise InputError(f"examples[{i}][{j}] is {fraction_str(v)}; Winnow features must be 0 or 1")
        self.examples = [tuple(int(v) for v in row) for row in self.examples]
        self.alpha = Fraction(2) if self.alpha is None else _num(self.alpha, "alpha")
        if self.alpha <= 1:
            raise InputError(f"alpha must be > 1, got {fraction_str(self.alpha)}")
        if self.theta is not None:
            self.theta = _num(self.theta, "theta")
            if self.theta <= 0:
                raise InputError(f"theta must be > 0, got {fraction_str(self.theta)}")
        if self.target is not None:
            if isinstance(self.target, (str, bytes, dict)) or not hasattr(self.target, "__len__"):
                raise InputError("target must be the list of relevant variable indices")
            idx = [_int(v, f"target[{k}]") for k, v in enumerate(self.target)]
            for k, v in enumerate(idx):
                if not 0 <= v < n:
                    raise InputError(f"target[{k}] = {v} is not a variable index in 0..{n - 1}")
            if len(set(idx)) != len(idx):
                raise InputError("target lists a relevant variable twice")
            if not idx:
                raise InputError("target is empty: the OR of no variables is constant 0 (give r >= 1 indices)")
            self.target = idx
            for i, row in enumerate(self.examples):
                want = int(any(row[j] for j in idx))
                if self.labels[i] != want:
                    raise InputError(f"labels[{i}] is {self.labels[i]} but the OR of the target variables "
                                     f"{idx} on examples[{i}] is {want}")

    @staticmethod
    def _vector(v, d: int, what: str):
        if isinstance(v, (str, bytes, dict)) or not hasattr(v, "__len__"):
            raise InputError(f"{what} must be a list of {d} numbers")
        if len(v) != d:
            raise InputError(f"{what} has {len(v)} values, expected {d}")
        return tuple(_num(x, f"{what.split(' ')[0]}[{k}]") for k, x in enumerate(v))

    @staticmethod
    def _normalise_claims(c: dict) -> dict:
        out = {}
        for k, v in c.items():
            if k == "mistakes":
                out[k] = _int(v, "claims.mistakes", minimum=0)
            elif k in _CLAIM_NUM_KEYS:
                out[k] = _num(v, f"claims.{k}")
            else:
                out[k] = v
        return out

    # --- conversion -----------------------------------------------------------------------
    @classmethod
    def from_dict(cls, obj) -> "Sequence":
        if not isinstance(obj, dict):
            raise InputError("a sequence file must hold one JSON object")
        fmt = obj.get("format")
        if fmt != FORMAT:
            raise InputError(f"format is {json.dumps(fmt)}, expected \"{FORMAT}\"")
        for k in ("algorithm", "examples", "labels"):
            if k not in obj:
                raise InputError(f"missing key \"{k}\"")
        extra = {k: v for k, v in obj.items() if k not in _KNOWN_KEYS}
        return cls(
            algorithm=obj["algorithm"], examples=obj["examples"], labels=obj["labels"],
            target=obj.get("target"), epochs=obj.get("epochs", 1), bias=obj.get("bias", False),
            target_bias=obj.get("target_bias"), variant=obj.get("variant"), alpha=obj.get("alpha"),
            theta=obj.get("theta"), kernel=obj.get("kernel"), claims=dict(obj.get("claims") or {}),
            meta=dict(obj.get("meta") or {}), extra=extra, evaluate=obj.get("evaluate", "auto"),
            beta=obj.get("beta"),
        )

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"format": FORMAT, "algorithm": self.algorithm}
        if self.algorithm == "winnow":
            d["variant"] = self.variant
            d["alpha"] = num_to_wire(self.alpha)
            d["theta"] = None if self.theta is None else num_to_wire(self.theta)
        if self.algorithm == "kernel_perceptron":
            d["kernel"] = self.kernel
        if self.beta is not None:
            d["beta"] = num_to_wire(self.beta)
        d["epochs"] = self.epochs
        if self.algorithm in ("perceptron", "kernel_perceptron"):
            d["bias"] = self.bias
        if self.target is None:
            d["target"] = None
        elif self.algorithm == "winnow":
            d["target"] = list(self.target)
        else:
            d["target"] = [num_to_wire(v) for v in self.target]
        if self.target_bias is not None:
            d["target_bias"] = num_to_wire(self.target_bias)
        if self.evaluate != "auto":
            d["evaluate"] = self.evaluate
        if self.claims:
            d["claims"] = {k: (num_to_wire(v) if isinstance(v, Fraction) else v) for k, v in self.claims.items()}
        if self.meta:
            d["meta"] = self.meta
        d.update(self.extra)
        d["labels"] = list(self.labels)
        d["examples"] = [[num_to_wire(v) for v in row] for row in self.examples]
        return d

    def dumps(self) -> str:
        """JSON text: one key per line, one example per line (files diff and grep well)."""
        d = self.to_dict()
        lines = []
        for k, v in d.items():
            if k == "examples":
                body = ",\n  ".join(json.dumps(row) for row in v)
                lines.append(f' "examples": [\n  {body}\n ]')
            else:
                lines.append(f" {json.dumps(k)}: {json.dumps(v, default=str)}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    @classmethod
    def loads(cls, text: str) -> "Sequence":
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        return cls.from_dict(obj)

    @classmethod
    def load(cls, path) -> "Sequence":
        path = os.fspath(path)
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            raise InputError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{path}: is a directory") from None
        except UnicodeDecodeError:
            raise InputError(f"{path}: not a UTF-8 text file") from None
        except OSError as e:
            raise InputError(f"{path}: cannot read ({e.strerror})") from None
        try:
            return cls.loads(text)
        except InputError as e:
            raise InputError(f"{path}: {e}") from None

    def save(self, path) -> None:
        """Write atomically (a temporary file renamed into place: never half-written)."""
        write_text_atomic(path, self.dumps())


