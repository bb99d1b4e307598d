"""What the tests share: the outcome record, the failure exception, and the formatting of
inputs and states in feedback."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .problems import fmt_num, fmt_vec

__all__ = ["TestOutcome", "Failure", "fmt_X", "fmt_num", "fmt_vec", "before", "before_bias", "error_text", "finite"]


@dataclass
class TestOutcome:
    kind: str
    name: str
    points: float
    score: float
    passed: bool
    output: str
    hidden: bool = False
    visibility: str | None = None
    seconds: float = 0.0
    diagnoses: list = field(default_factory=list)


class Failure(Exception):
    """A test input on which the student's code could not be run or read (the message says why)."""

    def __init__(self, msg):
        super().__init__(msg)
        self.msg = msg


def fatal(msg: str) -> bool:
    """A failure after which running the same code on more inputs is pointless."""
    return "time limit" in msg or "crash" in msg or "too many times" in msg


def before(trace, t):
    """The weights before step t (0-based) of a reference run."""
    return trace.initial_weights if t == 0 else trace.steps[t - 1].weights


def before_bias(trace, t):
    return trace.initial_bias if t == 0 else trace.steps[t - 1].bias


def fmt_X(X):
    return "[" + ", ".join(fmt_vec(r) for r in X) + "]"


def finite(v) -> bool:
    try:
        f = float(v)
    except (TypeError, ValueError, OverflowError):
        return False
    return math.isfinite(f)


def error_text(r) -> str:
    kinds = {"timeout": "time limit", "crash": "crash", "exception": "your code raised",
             "bad-return": "bad return value", "memory": "memory limit", "exit": "exit",
             "protocol": "protocol error", "output": "output limit"}
    k = kinds.get(r.error, r.error)
    return f"{k}: {r.message}"
