"""What the tests share: the grading context of one submission, the outcome record, the failure
exception, and the formatting of inputs and states in feedback."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from grading.references.problems import fmt_num, fmt_vec
from grading.references.reference_finite import fmt_instances

__all__ = ["GradingContext", "TestOutcome", "Failure", "fmt_X", "fmt_num", "fmt_vec", "before", "before_bias", "error_text", "finite"]


@dataclass
class GradingContext:
    """What the parts of one submission's grading (:class:`grading.checks.checks.Grader`'s calls, tests,
    diagnoses and oracle) share: the spec and its problem, the sandboxed worker running the
    submission (and how to start a fresh one), and what the tests have found out so far."""
    spec: object
    problem: object
    new_worker: object = None          # () -> a startable Worker running the submission
    worker: object = None              # the worker the calls go to (a diagnosis may swap in a fresh one)
    diagnoses: dict = field(default_factory=dict)   # the causes named so far: name -> explanation
    modified_seen: bool = False        # some call changed its inputs X or y
    nondeterministic: bool = False     # two calls on the same input answered differently
    restarts: int = 0                  # the worker restarted after a crash or a time limit
    last_call: object = None           # the worker's CallResult of the last call
    partial: float = 0.0               # the share of the running test's points earned on a failure
    clock: str = "wall-clock"          # the clock the last timed pass was read with ("CPU" or "wall-clock")


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
    if X and getattr(X[0], "H", None) is not None:      # Halving / SOA: the instances and the class they share
        return fmt_instances(X)
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
