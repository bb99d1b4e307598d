"""The course's contract: how its code is called and what exactly it must compute.

A spec's ``[contract]`` table (and its ``[contract.call]`` sub-table) states what a course's
handout asks for -- the data the code receives, the learner's conventions, where the answer is
read -- so that code written for that course is graded as written, with no adapter::

    [contract]
    inputs = "numpy"            # X (and y, K, w0) as numpy arrays instead of lists
    order = "get_order"         # the visiting order: MIT 6.86x's get_order(n)
    returns = "w_b"             # the answer is (theta, theta_0)

    [contract.call]             # perceptron(feature_matrix, labels, T)
    method = "perceptron"
    args = ["X", "y", "T"]

Every key has a default that gives the assignment's classic contract (``train(X, y, epochs=1)``,
lists, index order, ties are mistakes, learning rate 1, zero start, fixed epochs), so a spec
without ``[contract]`` grades exactly as before.  Each key is checked here: a bad value is one
line naming the key (docs/grading.md, "The contract", documents them one by one).

The contract drives everything that depends on it: the request sent to the sandbox
(:mod:`grading.references.plan`), the reference run (:mod:`grading.references.reference`), the invariants that apply
(:mod:`grading.checks.checks_properties`) and the causes a diagnosis may confirm (:mod:`grading.checks.diagnose`).
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["Contract", "CallPlan", "Arg", "DATA_NAMES", "AVERAGES", "visiting_order", "global_orders", "given_start", "seeded_start"]

# test data a call may pass (docs/grading.md lists what each one is)
DATA_NAMES = ("X", "y", "T", "n", "d", "K", "kernel", "w0", "b0", "eta", "theta", "alpha", "beta", "X_val", "y_val",
              "H")
INPUTS = ("lists", "numpy", "pandas")          # pandas: X a DataFrame (columns x0, x1, ...), y a Series
LABELS = ("pm1", "01", "bool")
LABEL_SHAPES = ("flat", "column")
X_LAYOUTS = ("rows", "columns")
ORDERS = ("index", "get_order", "shuffle:SEED", "numpy_permutation:SEED", "global_permutation", "global_shuffle")
GLOBAL_ORDERS = ("global_permutation", "global_shuffle")     # a new order every pass, from the seeded global RNG
X_DTYPES = ("auto", "float", "int", "bool")
STEPS = ("constant", "1/(j+1)", "1/(j+1)^2", "1/(t+1)")   # eta times this; j the example's index, t the time step
TIES = {"perceptron": ("mistake", "no_mistake", "predict+1", "predict-1"),
        "kernel_perceptron": ("mistake", "no_mistake", "predict+1", "predict-1"),
        "winnow": ("predict+1", "predict-1"),
        "weighted_majority": ("predict+1", "predict-1"),      # W(+1) = W(-1)
        "passive_aggressive": ("mistake",),                   # PA's update does not depend on a prediction
        "hedge": ("mistake",),                                # Hedge predicts no label: a step of loss > 0
        "halving": ("predict+1", "predict-1"),                # an even vote over the version space
        "soa": ("predict+1", "predict-1")}                    # Ldim(V_x^+) = Ldim(V_x^-)
STOPS = ("epochs", "converged")
ARITHMETICS = ("auto", "exact", "float")
# what the code's answer holds (an adapter's): the weights as ``returns`` says; the weights and then the
# mistakes (a count, or the 0-based steps of the mistakes); the mistakes alone; the predictions alone
ANSWERS = ("weights", "weights_mistakes", "mistakes", "predictions")
VARIANTS = ("halve", "eliminate", "winnow2")
DUALS = ("signed", "counts")
RETURNS = {"perceptron": ("w_b", "w", "w_bias_first", "w_bias_last"),
           "winnow": ("w",),
           "kernel_perceptron": ("alpha", "alpha_b"),
           "weighted_majority": ("w_b",), "passive_aggressive": ("w",),     # WM: (weights, mistakes)
           "hedge": ("w_b",),                                                # Hedge: (weights, total loss)
           "halving": ("w",), "soa": ("w",)}         # no weights: the answer is the mistakes or the predictions
AVERAGES = ("none", "sum", "mean", "voted")       # the perceptron's answer: last weights, their sum, mean, votes
HELPERS = ("perceptron_single_step_update",)       # supplied helpers besides the order and init helpers


@dataclass(frozen=True)
class Arg:
    """One argument of a call: the name of a piece of test data (``ref``), a literal value, a
    table of arguments (``items``: a dict such as ``{"Thres": [n]}``) or a list of arguments
    (``seq``) -- data may sit inside a table or a list."""
    ref: str | None = None
    value: object = None
    items: tuple | None = None       # ((key, Arg), ...)
    seq: tuple | None = None         # (Arg, ...)

    def describe(self) -> str:
        if self.items is not None:
            return "{" + ", ".join(f"{k!r}: {a.describe()}" for k, a in self.items) + "}"
        if self.seq is not None:
            return "[" + ", ".join(a.describe() for a in self.seq) + "]"
        return self.ref if self.ref is not None else repr(self.value)

    def refs(self) -> set:
        if self.items is not None:
            return set().union(*[a.refs() for _, a in self.items])
        if self.seq is not None:
            return set().union(*[a.refs() for a in self.seq])
        return {self.ref} if self.ref else set()


@dataclass(frozen=True)
class CallPlan:
    """Which object, which method, which arguments, where the answer is read."""
    method: str
    args: tuple = ()                 # Arg, positional
    kwargs: tuple = ()               # (name, Arg)
    object: str | None = None        # construct this class first (then ``method`` is its method)
    init_args: tuple = ()
    init_kwargs: tuple = ()
    repeat: str | None = None        # "T": call the method T times (one pass per call)
    defaults: tuple = ()             # (keyword, value): the handout's default values
    weights: str = "return"          # "return", "return[KEY]", an attribute name, or "name()" (a method without arguments)
    bias: str | None = None          # attribute (or "name()") holding b when weights are read from the object

    def refs(self) -> set:
        out = set()
        for a in self.args + self.init_args + tuple(a for _, a in self.kwargs + self.init_kwargs):
            out |= a.refs()
        if self.repeat:
            out.add(self.repeat)
        return out

    def signature(self, omit=()) -> str:
        """The call as the handout writes it (for feedback): ``perceptron(X, y, T)``."""
        def one(args, kwargs):
            parts = [a.describe() for a in args] + [f"{k}={a.describe()}" for k, a in kwargs if k not in omit]
            return ", ".join(parts)
        call = f"{self.method}({one(self.args, self.kwargs)})"
        if self.object:
            call = f"{self.object}({one(self.init_args, self.init_kwargs)}).{call}"
        if self.repeat:
            call += f" ({self.repeat} times)"
        return call


@dataclass(frozen=True)
class Contract:
    algorithm: str
    style: str = "function"
    inputs: str = "lists"
    labels: str = "pm1"
    label_shape: str = "flat"
    x_layout: str = "rows"
    order: str = "index"
    order_helper: str = "get_order"
    ties: str = "mistake"
    learning_rate: Fraction = Fraction(1)
    init: str = "zero"
    init_helper: str = "initial_weights"
    step_helper: str = "perceptron_single_step_update"   # the course's name of its one-step helper
    stop: str = "epochs"
    bias: bool = True
    normalize: bool = False
    threshold: str = "n"
    factor: Fraction = Fraction(2)
    variant: str = "halve"
    dual: str = "signed"
    kernel: str = "linear"
    kernel_bias: bool = False
    returns: str = "w_b"
    supplied: tuple = ()
    x_dtype: str = "auto"            # X's element type as handed out: auto (float; Winnow int), float, int, bool
    passes: int = 0                  # > 0: every call makes this many passes (a loop hard-coded in the code)
    margin: Fraction | None = None   # Winnow: update when y (w.x - theta) <= margin (labels +1/-1), whatever the prediction
    separable: Fraction | None = None   # stop = "converged" with no maximum: test data separable with this margin
    step: str = "constant"           # the step size of example j: eta, eta/(j+1) or eta/(j+1)^2
    margin_strict: bool = False      # (a diagnosis' change) update when y (w.x - theta) < margin
    start_ties: str = ""             # (a scoring change) the ties met at the start state under this convention
    seed: int | None = None          # numpy's and random's global generators seeded so before every call
    weights_name: str = ""           # the handout's names of the weights and the bias, in feedback
    bias_name: str = ""
    convention_credit: Fraction = Fraction(1, 2)   # of a test's points when one tie convention explains it
    oracle: str = ""                 # the course's own solution: the expected answers come from it (grading.checks.oracle)
    tolerance: float = 1e-9          # relative tolerance of the comparison of weights
    average: str = "none"           # perceptron: the answer is the last weights, their sum or mean, or the votes
    average_start: bool = False      # the start counts as one averaged vector (a voted list's first count starts at 1)
    start: tuple | None = None       # init = "own": the (w0, b0) the code drew, read by a call with T = 0
    penalty: Fraction = Fraction(1, 2)   # Weighted Majority: each wrong expert's weight times this (beta)
    hedge_weights: str = "raw"       # Hedge: the answered weights as they are, or divided by their sum
    arithmetic: str = "exact"        # "float": the reference replays the course's float64 arithmetic (grading.references.reference)
    adapter: str = ""                # the course's adapter: Python code calling the course's API (grading.spec.adapter)
    adapter_src: str = ""            # where it came from (a path, or "inline"), for messages
    answer: str = "weights"          # what the adapter returns: weights, weights_mistakes, mistakes, predictions
    call: CallPlan = field(default_factory=lambda: CallPlan(method="train"))

    def replace(self, **changes) -> "Contract":
        return dataclasses.replace(self, **changes)

    # --- what the contract implies ---------------------------------------------------------
    @property
    def epochs_fixed(self) -> bool:
        """True when the call has no epochs argument: every call is one pass."""
        return "T" not in self.call.refs()

    @property
    def gram(self) -> bool:
        return "K" in self.call.refs()

    def step_of(self, j: int, t: int = 0) -> Fraction:
        """The step-size factor of example j visited at time step t (0 for the first example of
        the run, counting every example of every pass): the learning rate multiplies it."""
        if self.step == "1/(j+1)":
            return Fraction(1, j + 1)
        if self.step == "1/(j+1)^2":
            return Fraction(1, (j + 1) ** 2)
        if self.step == "1/(t+1)":
            return Fraction(1, t + 1)
        return Fraction(1)

    @property
    def unbounded(self) -> bool:
        """Passes until one makes no mistake, with no maximum in the call (``separable``)."""
        return self.stop == "converged" and self.separable is not None and self.passes == 0 and self.epochs_fixed

    def target(self, d: int):
        """The grader's separating target under ``separable``: w* = (1, -1/2, 1/4, ...), b* = 1/4
        with a bias (else 0); the test data keep the points at distance >= margin from it."""
        w = [Fraction((-1) ** j, 2 ** j) for j in range(d)]
        return w, (Fraction(1, 4) if self.bias else Fraction(0))

    def separable_case(self, X, y):
        """(X, y) relabelled by the target and cleared of the points closer to it than the margin
        (so that "repeat passes until one makes no mistake" ends; at least one example stays)."""
        d = len(X[0])
        w, b = self.target(d)
        keep_X, keep_y = [], []
        for x in X:
            a = sum(wj * Fraction(v) for wj, v in zip(w, x)) + b
            if abs(a) >= self.separable:
                keep_X.append(x)
                keep_y.append(1 if a > 0 else -1)
        if not keep_X:
            x = [1.0] * d
            keep_X, keep_y = [x], [1 if sum(w) + b > 0 else -1]
        return keep_X, keep_y

    @property
    def per_pass_order(self) -> bool:
        """True when every pass visits its own order (drawn from the seeded global generator)."""
        return self.order in GLOBAL_ORDERS

    @property
    def one_step_runs(self) -> bool:
        """Can the code be run on a prefix of the visiting sequence, one pass, the examples in the
        order given (the step-by-step feedback and the invariants)?  Not when the code draws its
        own order every pass or makes a fixed number of passes per call."""
        return (not self.per_pass_order and self.passes <= 1 and self.step == "constant" and not self.unbounded
                and self.average == "none")

    def order_indices(self, n: int, T: int = 1) -> list:
        """The visiting order of one pass over n examples (the same order every pass); with a
        per-pass order, the list of the T passes' orders."""
        if self.per_pass_order:
            return global_orders(self.order, self.seed or 0, n, T)
        return visiting_order(self.order, n)

    def theta_value(self, n_features: int) -> Fraction:
        """Winnow's threshold for n features."""
        if self.threshold == "n":
            return Fraction(n_features)
        if self.threshold == "n/2":
            return Fraction(n_features, 2)
        return Fraction(self.threshold)

    def initial_weights(self, d: int):
        """(w0, b0) as Fractions: zero, the given start (:func:`given_start`), or the seeded
        draw of the supplied init helper."""
        if self.init == "zero":
            return [Fraction(0)] * d, Fraction(0)
        if self.init == "given":
            return given_start(d, self.bias)
        if self.init == "own":
            if self.start is None or len(self.start[0]) != d:
                raise ValueError("init = \"own\": the code's start has not been read for this number of features")
            return [Fraction(v) for v in self.start[0]], Fraction(self.start[1])
        return seeded_start(int(self.init.split(":", 1)[1]), d), Fraction(0)

    @property
    def label_values(self):
        """(positive, negative) label as the course's code receives them."""
        return {"pm1": (1, -1), "01": (1, 0), "bool": (True, False)}[self.labels]


def visiting_order(order: str, n: int) -> list[int]:
    idx = list(range(n))
    if order == "index":
        return idx
    if order == "get_order":          # MIT 6.86x project 1: random.seed(1); random.shuffle(indices)
        random.Random(1).shuffle(idx)
        return idx
    kind, _, seed = order.partition(":")
    if kind == "shuffle":
        random.Random(int(seed)).shuffle(idx)
        return idx
    if kind == "numpy_permutation":   # np.random.seed(SEED); np.random.permutation(n)
        import numpy as np
        return [int(v) for v in np.random.RandomState(int(seed)).permutation(n)]
    raise ValueError(order)


def global_orders(order: str, seed: int, n: int, T: int) -> list:
    """The orders of T passes of code that draws a new one every pass from the global generator
    seeded with ``seed`` before the call: ``np.random.permutation(n)`` (numpy's legacy global
    state, as ``np.random.seed(seed)`` leaves it) or ``random.shuffle`` of 0..n-1."""
    out = []
    if order == "global_permutation":
        import numpy as np
        rs = np.random.RandomState(seed)
        for _ in range(T):
            out.append([int(v) for v in rs.permutation(n)])
        return out
    rng = random.Random(seed)
    for _ in range(T):
        idx = list(range(n))
        rng.shuffle(idx)
        out.append(idx)
    return out


def given_start(d: int, bias: bool):
    """The start (w0, b0) handed to a course's code under ``init = "given"``: small dyadic
    values, the same for every input with d features (so that the runs on the prefixes of one
    input, which the step-by-step feedback and the invariants compare, share their start)."""
    w0 = [Fraction((7 * j + 3) % 9 - 4, 4) for j in range(d)]
    return w0, (Fraction(1, 4) if bias else Fraction(0))


def seeded_start(seed: int, d: int) -> list[Fraction]:
    """The weights the supplied init helper returns under ``init = "random:SEED"``: multiples of
    1/4 in [-2, 2] drawn with ``random.Random(SEED)`` (the child draws the same numbers)."""
    rng = random.Random(seed)
    return [Fraction(rng.randint(-8, 8), 4) for _ in range(d)]

