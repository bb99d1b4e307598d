"""The grading spec's keys, declared once: every table's keys with their type, values, default and
meaning -- the parser (grading.spec.spec, grading.spec.contract_parse) reads its type checks, defaults and
"unknown key" refusals from here, and docs/grading.md's key tables are generated from here
(``python -m grading.spec.spec_keys`` rewrites them), so the two cannot drift.

The idea is otter-grader's (C. Pyles et al., UC Berkeley, 2020-): its configuration is declared
once, with each key's documentation, and the tables of its docs are generated from that declaration.

Checks that are not one key's type (cross-key rules, values that depend on the algorithm, paths)
stay code: a key's ``check`` names the function that holds them, and a derived default is a small
function here (``Derived``), of what the parser knows so far (the algorithm, the style, ...).
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from fractions import Fraction

from sandbox.worker import Limits

from grading.spec.contract import (ANSWERS, ARITHMETICS, AVERAGES, DUALS, HELPERS, INPUTS, LABEL_SHAPES, LABELS, ORDERS, STEPS, STOPS,
                       VARIANTS, X_DTYPES, X_LAYOUTS)

__all__ = ["Key", "Derived", "REQUIRED", "KEYS", "TABLES", "keys_of", "key", "names", "ALGORITHMS", "markdown",
           "render_docs", "sections", "DOCS_PATH"]

ALGORITHMS = ("perceptron", "winnow", "kernel_perceptron", "weighted_majority", "passive_aggressive", "hedge",
              "halving", "soa")
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")


class _Required:
    def __repr__(self):
        return "REQUIRED"


REQUIRED = _Required()         # no default: the parser refuses the spec without it


@dataclass(frozen=True)
class Derived:
    """A default computed from what the parser knows so far (``ctx``: src, algorithm, style, name,
    epochs, kernel_bias); ``doc`` is how the docs state it.  ``fn`` None: the parser's own code
    derives it (``Key.check``)."""
    doc: str
    fn: object = None

    def __call__(self, ctx):
        return self.fn(ctx)


@dataclass(frozen=True)
class Key:
    """One key of one table of the spec.

    ``type`` is what the TOML value must be: grading.spec.spec checks it for every table but
    [contract], whose parser checks each key in its own words (an int is accepted as a float, a
    boolean is never an int); ``choices`` the values allowed (the parser reads them from here);
    ``values`` the values in words for the docs when neither says it; ``check`` the function
    holding the key's other rules (cross-key, per algorithm, paths)."""
    table: str
    name: str
    type: type | None
    default: object
    meaning: str
    choices: tuple = ()
    values: str = ""
    check: str = ""
    group: str = ""            # [contract] keys: the docs' group (receives, computes, read)
    used: bool = True          # False: accepted and ignored (free text)


_SPEC, _CONTRACT, _CALL = "grading.spec.spec.load_spec", "grading.spec.contract_parse.parse_contract", \
    "grading.spec.contract_parse._parse_call"


# derived defaults (the code beside the table)
def _name(c): return os.path.splitext(c["src"])[0]
def _title(c): return c["name"]
def _module(c): return c["algorithm"]
def _entry(c): return "train" if c["style"] == "function" else "Perceptron"
def _bias(c): return c["algorithm"] == "perceptron"
def _labels(c): return "01" if c["algorithm"] == "winnow" else "pm1"
def _max_epochs(c): return max(3, c["epochs"])
def _kernel(c): return "poly:c=1,k=2" if c["algorithm"] == "kernel_perceptron" else "linear"
def _ties(c): return "predict+1" if c["algorithm"] in ("winnow", "weighted_majority", "halving", "soa") else "mistake"


def _returns(c):
    return {"perceptron": "w_b", "winnow": "w", "kernel_perceptron": "alpha_b" if c["kernel_bias"] else "alpha",
            "weighted_majority": "w_b", "hedge": "w_b"}.get(c["algorithm"], "w")


def _limit(name):
    """A sandbox limit's default: sandbox.limits.Limits' (float where the spec reads a float)."""
    v = getattr(Limits(), name)
    return tuple(v) if isinstance(v, list) else v


def _algorithm_of(c): return c["algorithm"]


KEYS: tuple[Key, ...] = (
    Key('assignment', 'name', str, Derived("the file's name", _name),
        meaning='the name in reports'),
    Key('assignment', 'title', str, Derived("`name`", _title),
        meaning='the title of the feedback'),
    Key('assignment', 'description', str, None, used=False,
        meaning='free text, not used for grading'),
    Key('assignment', 'data_files', list, (), values='a list of relative paths', check=_SPEC,
        meaning=('files the course hands out with the handout (`["train.csv"]`), relative to the spec, at most 8 MB '
                 "in all: placed beside the code under the same names in every worker (the course's solution's too), "
                 'in place of any submitted file so named -- a module that reads its data when it is imported '
                 '(`np.loadtxt("train.csv")` at the top) runs as on the student\'s machine')),
    Key('assignment', 'algorithm', str, REQUIRED, choices=ALGORITHMS, check=_SPEC,
        meaning='the learner'),
    Key('assignment', 'style', str, "function", choices=("function", "class"), check=_SPEC,
        meaning=('a call (see `[contract.call]`), or an online class with `predict(x)` / `update(x, y)` (perceptron '
                 'only)')),
    Key('assignment', 'module', str, Derived("the algorithm's name", _module), values='a Python module name',
        check=_SPEC,
        meaning='the file students submit: `module.py`'),
    Key('assignment', 'entry', str, Derived('`"train"`; class style `"Perceptron"`', _entry), values='a name',
        meaning='the function, or the class of the online style'),
    Key('assignment', 'bias', bool, Derived("`true` for the perceptron, else `false`", _bias), check=_SPEC,
        meaning='the perceptron learns b (b += y)'),
    Key('assignment', 'normalize', bool, False, check=_SPEC,
        meaning='scale every example to unit length first (not Winnow)'),
    Key('assignment', 'labels', str, Derived('`"pm1"`; Winnow `"01"`', _labels), choices=LABELS, check=_SPEC,
        group='receives',
        meaning='the labels as the code receives them: +1/-1, 1/0, True/False (the first is the positive class)'),
    Key('assignment', 'epochs', int, 1, values='an integer >= 1', check=_SPEC,
        meaning='the default of the classic `train(X, y, epochs=1)` (the `default_arguments` test)'),
    Key('assignment', 'max_epochs', int, Derived("`max(3, epochs)`", _max_epochs), values='an integer >= 1',
        check=_SPEC,
        meaning='generated tests draw T in 1..max_epochs (1 when the call has no T)'),
    Key('assignment', 'kernel', str, Derived('`"poly:c=1,k=2"` (kernel perceptron), else `"linear"`', _kernel),
        values='`"linear"`, `"poly:c=C,k=K"`, `"gaussian:c=C"` / `"rbf:sigma=S"`', check=_SPEC,
        meaning='the kernel'),
    Key('assignment', 'solution', str, "", values='a path relative to the spec',
        meaning="the course's reference solution, for `--check-spec`"),
    # [contract]: docs/grading.md shows them in the groups of "The contract"
    Key('contract', 'call', dict, Derived('`train(X, y, epochs=T)` (+ `kernel`)'), check=_CALL,
        meaning='the call: the table `[contract.call]` below'),
    Key('contract', 'inputs', str, "lists", choices=INPUTS, check=_CONTRACT, group='receives',
        meaning=("X (and y, K, w0, X_val...) as lists of lists or as numpy arrays (float64; Winnow's X as int64); or "
                 'as a course that reads its data with pandas hands them on: X (and X_val) a `DataFrame` with one '
                 'column per feature, named `x0`, `x1`, ..., y (and y_val) a `Series` named `y` (a one-column '
                 'DataFrame with `label_shape = "column"`), K and w0 numpy arrays. Needs `[limits] packages = '
                 '["numpy", "pandas"]` (what pandas needs at run time comes with it; pandas is the `grading` extra: `pip install .[grading]`); the '
                 "inputs-not-modified test encodes the frame's class, column and row labels, dtypes, shape and "
                 "values. pandas' classes are Python: a submission that patches pandas' own methods to hide a change "
                 'it made could fool that one test (nothing else: the answers are compared in the grader)')),
    Key('contract', 'x_dtype', str, "auto", choices=X_DTYPES, check=_CONTRACT, group='receives',
        meaning=("X's element type as the course hands it out: auto = float (Winnow: int); Winnow's 0/1 features may "
                 'come as floats (`(x + 1) / 2`), ints or booleans')),
    Key('contract', 'label_shape', str, "flat", choices=LABEL_SHAPES, check=_CONTRACT, group='receives',
        meaning='y as a flat vector or as an (n, 1) column'),
    Key('contract', 'x_layout', str, "rows", choices=X_LAYOUTS, check=_CONTRACT, group='receives',
        meaning='X with one example per row (n x d) or per column (d x n)'),
    Key('contract', 'order', str, "index", choices=ORDERS, check=_CONTRACT, group='computes',
        meaning=("the visiting order of every pass: 0..n-1; MIT 6.86x's `get_order(n)` (`random.seed(1)`, "
                 '`random.shuffle`); `random.Random(SEED).shuffle`; `np.random.RandomState(SEED).permutation(n)` -- '
                 'the same order every pass; or a **new order every pass** drawn by the code itself from the global '
                 'generator: `np.random.permutation(n)` / `random.shuffle` of 0..n-1 (needs `seed`)')),
    Key('contract', 'seed', int, None, values='an integer in [0, 2^32)', check=_CONTRACT, group='computes',
        meaning=('the grader seeds `random` and `numpy.random` with it before every call of the submission (and of '
                 'the oracle), and the reference draws the same orders: code that shuffles as the handout says is '
                 'compared with a run that shuffles the same way. Without it, a submission that shuffles where the '
                 'handout fixes the order is still "data shuffled"')),
    Key('contract', 'order_helper', str, "get_order", values='a Python name', check=_CONTRACT, group='computes',
        meaning="the name of the course's order function (see `supplied`, and the step-by-step runs below)"),
    Key('contract', 'ties', str, Derived('`"mistake"`; Winnow, Weighted Majority, Halving and SOA `"predict+1"`', _ties),
        values='`"mistake"`, `"no_mistake"`, `"predict+1"`, `"predict-1"`', check=_CONTRACT, group='computes',
        meaning=('perceptron and kernel perceptron: a tie y(w.x + b) = 0 is a mistake (`<= 0`), is not (`< 0`), or '
                 'sign(0) = +1 / -1 (a mistake only on a negative / positive example). Winnow: `"predict+1"` (w.x = '
                 'theta predicts 1, the default) or `"predict-1"`. Weighted Majority: a tie W(+1) = W(-1). Halving: an '
                 'even vote of the version space; SOA: Ldim(V_x^+) = Ldim(V_x^-) -- `"predict+1"` (the learners\' '
                 '`learners.halving` and `learners.littlestone`, the default) or `"predict-1"`')),
    Key('contract', 'learning_rate', None, Fraction(1), values='a number > 0 or `"p/q"`', check=_CONTRACT,
        group='computes',
        meaning=('eta in w += eta y x, b += eta y (kernel perceptron: alpha_i += eta y_i); dyadic values (1/2, '
                 "1/4...) keep float code exact; another (0.01) makes the perceptron's arithmetic float "
                 '(`arithmetic`)')),
    Key('contract', 'arithmetic', str, "auto", choices=ARITHMETICS, check=_CONTRACT, group='computes',
        meaning=("the reference computes exactly (fractions), or **replays the course's float64 arithmetic** in "
                 "its order of operations, so that its decisions at exact ties (an activation that rounds to "
                 "+-1e-18) are the course code's own. Perceptron: a = (w_1 x_1 + ... + w_d x_d, left to right, as "
                 "numpy's `dot` sums for d < 16) + b, w_j += (eta y) x_j, b += eta y. Winnow: the active weights "
                 "summed left to right, a promotion w_j * alpha, a demotion w_j / alpha. Weighted Majority: W(+1) "
                 "and W(-1) each summed over the experts in index order, every wrong weight times beta. Hedge: "
                 "sum_i w_i and sum_i w_i l_i each left to right, their quotient the learner's loss, w_i * beta ** l_i. "
                 "Passive-Aggressive: a = w.x left to right, l = max(0, 1 - y a), tau = min(C, l / |x|^2), "
                 "w_j + (tau y) x_j. `auto`: float exactly when float64 cannot hold the course's rate -- the "
                 "perceptron's learning rate (0.01, 0.02...), Weighted Majority's `penalty` (0.3), a Winnow2 "
                 "`factor` that is not a power of two (1.1, 3: w / alpha is rounded); Passive-Aggressive has no "
                 'rate and says `"float"` itself. In float, the generated and timed data keep clear of '
                 "activations that only rounding decides, the invariants read the weights back to the exact "
                 "values rounding blurred (w / eta, Winnow's alpha^k), and answers are compared to `tolerance`. "
                 "Wherever a failure is rounding only (every number within 1e-5, relative, of the reference's), "
                 'the feedback says so ("cause: rounding -- the only difference is rounding ...")')),
    Key('contract', 'init', str, "zero", values='`"zero"`, `"given"`, `"random:SEED"`, `"own"`', check=_CONTRACT,
        group='computes',
        meaning=('the start: 0; a start w0 (and b0) the call passes (data `w0`, `b0`); the weights of a helper the '
                 'grader supplies (`init_helper`, multiples of 1/4 in [-2, 2] drawn with `random.Random(SEED)`); the '
                 "code's **own** start (Raschka's `RandomState(1).normal(0, 0.01, 1 + d)`), read with the same call "
                 'making no pass (T = 0) -- from the oracle when there is one, else from the submission -- and the '
                 'reference runs from it (compare with `tolerance`). Without an oracle any start the submission draws'
                 " is accepted -- the contract does not state it; with one, the start is the course solution's, and a"
                 ' submission must draw the same')),
    Key('contract', 'init_helper', str, "initial_weights", values='a Python name', check=_CONTRACT, group='computes',
        meaning='the name of that helper: `initial_weights(d)`'),
    Key('contract', 'step_helper', str, HELPERS[0], values='a Python name', check=_CONTRACT, group='computes',
        meaning=('the course\'s name of its one-step helper (see `supplied`): `step_helper = "update"` supplies '
                 '`update(feature_vector, label, current_theta, current_theta_0)`')),
    Key('contract', 'stop', str, "epochs", choices=STOPS, check=_CONTRACT, group='computes',
        meaning=('T passes, or passes until one makes no mistake (at most T, or `passes`). Both give the same weights'
                 ' -- a pass without a mistake changes nothing, and neither does any pass after it -- so the key '
                 'changes how feedback names a missing pass ("stops early")')),
    Key('contract', 'separable', None, None, values='a margin > 0', check=_CONTRACT, group='computes',
        meaning=('perceptron, `stop = "converged"` with **no maximum** (no T in the call, no `passes`: `while True: '
                 "... if no mistakes: break`): every test input is labelled by the grader's target w* = (1, -1/2, "
                 '1/4, ...), b* = 1/4 (0 without a bias) and keeps only the points at distance >= the margin from it,'
                 ' so a correct loop ends after at most (R^2 + 1) / margin^2 mistakes; the reference stops at the '
                 'first pass without a mistake')),
    Key('contract', 'passes', int, 0, values='0 or 1..100', check=_CONTRACT, group='computes',
        meaning=('a number of passes hard-coded in the code (`for _ in range(20)`): every call makes that many; the '
                 'call has no T (the step-by-step tests and the invariants are then not offered)')),
    Key('contract', 'step', str, "constant", choices=STEPS, check=_CONTRACT, group='computes',
        meaning=('a step size per example: on a mistake on example j the update is scaled by this (times '
                 '`learning_rate`), e.g. alpha_j += y_j / (j + 1)^2; or a rate **decaying by time step**, eta_t = '
                 'eta_0 / (1 + t), t counting every example visited so far over all passes (0 for the first); not '
                 'dyadic, so answers are compared to `tolerance`')),
    Key('contract', 'threshold', None, "n", values='`"n"`, `"n/2"`, a number > 0', check=_CONTRACT, group='computes',
        meaning="Winnow's threshold (n = the number of features)"),
    Key('contract', 'variant', str, "halve", choices=VARIANTS, check=_CONTRACT, group='computes',
        meaning="Winnow's demotion: halve, set to 0, divide by `factor` (Winnow2 promotes by `factor` too)"),
    Key('contract', 'penalty', None, Fraction(1, 2), values='a number in (0, 1) or `"p/q"`', check=_CONTRACT,
        group='computes',
        meaning=("Weighted Majority's beta in (0, 1): every wrong expert's weight is multiplied by it on every step "
                 '(Littlestone & Warmuth 1994); the call may pass it as the data `beta` (and `defaults` may give the '
                 "handout's default); one float64 cannot hold (0.3) makes the arithmetic float (`arithmetic`). "
                 "Hedge's beta (Freund & Schapire 1997): every expert's weight is multiplied by beta^loss; the test "
                 "losses are k/4, so a beta whose 4th root is not rational (1/2) makes the arithmetic float, one "
                 "whose 4th root is rational (1/16, 81/256) keeps it exact")),
    Key('contract', 'hedge_weights', str, "raw", choices=("raw", "normalized"), check=_CONTRACT, group='computes',
        meaning=("Hedge's answered weights (Freund & Schapire 1997): `raw`, w_i = beta^(L_i) with L_i the expert's "
                 "total loss (every weight starts at 1), or `normalized`, divided by their sum (the distribution "
                 "p_i over the experts that the next step would play)")),
    Key('contract', 'factor', None, Fraction(2), values='a number > 1 or `"p/q"`', check=_CONTRACT, group='computes',
        meaning=('Winnow2\'s promotion / demotion factor (> 1; only with `variant = "winnow2"`); the call may pass it '
                 'as the data `alpha`; one that is not a power of two (1.1, 3) makes the arithmetic float '
                 '(`arithmetic`)')),
    Key('contract', 'margin', None, None, values='a number >= 0', check=_CONTRACT, group='computes',
        meaning=('Winnow with labels +1/-1: update when y (w.x - theta) <= margin, whatever the prediction (`margin ='
                 ' 0`: a tie updates whatever the label); promote on y = +1, demote on y = -1')),
    Key('contract', 'dual', str, "signed", choices=DUALS, check=_CONTRACT, group='computes',
        meaning=('kernel perceptron: alpha_i = the signed sum of y_i over the mistakes on example i (f = sum alpha_j '
                 'K), or their number (f = sum alpha_j y_j K)')),
    Key('contract', 'kernel_bias', bool, False, check=_CONTRACT, group='computes',
        meaning='kernel perceptron: f(x) = sum ... + b, with b += y on a mistake'),
    Key('contract', 'average', str, "none", choices=AVERAGES, check=_CONTRACT, group='computes',
        meaning=('perceptron: the answer is the last weights; the **unnormalised sum** of the weights after every '
                 'example (`w_sum += w` inside the example loop); their **mean** (the averaged perceptron; Daume\'s "A'
                 ' Course in Machine Learning", Alg. 7, keeps it as w - u/c with a counter c per example); or the '
                 '**votes** of the voted perceptron (Freund & Schapire 1999): a list of `(w, count)` -- `(w, b, '
                 "count)` with a bias, or the bias inside w as `returns` says --, a vector's count the number of "
                 'steps after which it was the current weights (a new vector counts its own mistake step), votes of '
                 'count 0 left out on both sides. Not with `call.repeat`; the step-by-step tests are not offered')),
    Key('contract', 'average_start', bool, False, check=_CONTRACT, group='computes',
        meaning=('the start counts once among the averaged vectors: the mean of w_0..w_N instead of w_1..w_N (a '
                 "counter `c = 1` before the loop, as in Daume's Alg. 7), or a voted list whose **first count starts "
                 'at 1** (`c = 1` before the loop) instead of 0')),
    Key('contract', 'returns', str,
        Derived('perceptron, Weighted Majority (weights, mistakes), Hedge (weights, total loss) `"w_b"`; kernel `"alpha"` (`"alpha_b"` with `kernel_bias`); else `"w"`',
                _returns),
        values=('perceptron `"w_b"`, `"w"`, `"w_bias_first"`, `"w_bias_last"`; Winnow `"w"`; kernel `"alpha"`, '
                '`"alpha_b"`; Weighted Majority, Hedge `"w_b"`'),
        check=_CONTRACT, group='read',
        meaning=('the layout: a pair (w, b) -- also (theta, theta_0), or coef_ and intercept_ from two attributes --,'
                 ' w alone (no bias), one vector with the bias as its first or last coordinate, alpha, (alpha, b). '
                 'Vectors may come as lists, numpy arrays, a (1, d) row or a (d, 1) column; a bias as a number or a '
                 '(1,) array')),
    Key('contract', 'names', dict, (), values='`{ weights = "...", bias = "..." }`', check=_CONTRACT, group='read',
        meaning=('the handout\'s names of the weights and the bias in feedback: `{ weights = "theta", bias = "theta_0"'
                 ' }` ("expected: theta = [1, 2], theta_0 = 1"; the causes too: "update theta_0 += y as well as theta'
                 ' += y x")')),
    Key('contract', 'answer', str, "weights", choices=ANSWERS, check=_CONTRACT, group='read',
        meaning=("what the adapter (`adapter`) returns, for a course whose API returns more than weights or "
                 "none: `weights` (the layout `returns` says); `weights_mistakes`, the weights then the mistakes "
                 "-- `(w, b, mistakes)` (`(w, mistakes)` without a bias) --; `mistakes` alone; `predictions` alone, "
                 "one per example visited, in the course's label encoding, made before the update. Mistakes are a "
                 "count or the list of the 0-based steps (over all passes) that were mistakes. Graded on what it "
                 "returns: the reference's mistakes and predictions under the contract (a prediction is the label "
                 "where the step is no mistake, the other label where it is); the invariants (which need the "
                 "weights of every step) are not offered without weights. Halving and SOA (no weights, no adapter "
                 "needed): `mistakes` (the default) or `predictions`, the course's function returning them itself")),
    Key('contract', 'tolerance', float, 1e-9, values='a number in (0, 0.1]', check=_CONTRACT, group='read',
        meaning=('the relative tolerance of the comparison of weights (for a random start or a step size per example;'
                 ' the dyadic test data are exact otherwise)')),
    Key('contract', 'adapter', str, "", values='a path or code', check=_CONTRACT, group='read',
        meaning=("the course's adapter: Python that calls the course's API and returns the canonical answer (see [An "
                 'adapter for any course API](#an-adapter-for-any-course-api))')),
    Key('contract', 'oracle', str, "", values='a path', check=_CONTRACT, group='read',
        meaning=("the course's own solution, relative to the spec: the expected answers come from it (see [The "
                 "instructor's solution as oracle](#the-instructors-solution-as-oracle))")),
    Key('contract', 'convention_credit', None, Fraction(1, 2), values='a number in [0, 1)', check=_CONTRACT,
        group='read',
        meaning=("the part of a failed test's points kept when its answers are exactly the algorithm's under another "
                 'tie convention, confirmed like a cause (never in the ties test itself; 0 turns it off); a test '
                 'right apart from the first step\'s tie passes whatever its value (see "The first step\'s tie, '
                 'isolated")')),
    Key('contract', 'supplied', list, (), values='a list of helper names', check=_CONTRACT, group='read',
        meaning=("functions the grader places in the student's module for each call, replacing any the student wrote:"
                 ' the order helper (`get_order`), the init helper, `perceptron_single_step_update(feature_vector, '
                 'label, current_theta, current_theta_0)` (or the name `step_helper` gives) (one step under the '
                 "contract's ties and learning rate)")),
    Key('contract.call', 'object', str, None, values='a Python name', check=_CALL,
        meaning='construct this class first (`init_args`, `init_kwargs`); `method` is then its method'),
    Key('contract.call', 'init_args', list, (), values='a list of arguments', check=_CALL,
        meaning='the constructor\'s positional arguments (data passed to the constructor: `init_args = ["X", "y"]`)'),
    Key('contract.call', 'init_kwargs', dict, (), values='a table of arguments', check=_CALL,
        meaning='the constructor\'s keyword arguments (`init_kwargs = { eta0 = "eta" }`)'),
    Key('contract.call', 'method', str, Derived("`[assignment] entry`", None), values='a Python name', check=_CALL,
        meaning='the function (or method) that trains: `perceptron`, `fit`, `train`...'),
    Key('contract.call', 'args', list, Derived('`["X", "y"]` (+ `"kernel"`)', None), values='a list of arguments',
        check=_CALL,
        meaning='the positional arguments, as the handout calls it'),
    Key('contract.call', 'kwargs', dict, Derived('`{ epochs = "T" }`', None), values='a table of arguments',
        check=_CALL,
        meaning='the keyword arguments, as the handout calls it'),
    Key('contract.call', 'repeat', str, None, values='`"T"`', check=_CALL,
        meaning='`"T"`: call the method T times (a method that makes one pass per call, e.g. `partial_fit`)'),
    Key('contract.call', 'defaults', dict, Derived("`{ epochs = [assignment].epochs }`", None),
        values='a table of numbers', check=_CALL,
        meaning=("the handout's default values of keyword arguments that pass T, eta, theta or beta: the "
                 '`default_arguments` test leaves them out, and the reference uses these values')),
    Key('contract.call', 'weights', str, "return", values='`"return"`, `"return[KEY]"`, an attribute, `"name()"`',
        check=_CALL,
        meaning=('where w (or alpha) is read: the return value, a key of a returned dict (`"return[W]"`), an '
                 'attribute (`"coef_"`) or a method without arguments (`"get_weights()"`)')),
    Key('contract.call', 'bias', str, None, values='`"return[KEY]"`, an attribute, `"name()"`', check=_CALL,
        meaning='where b is read when `weights` is an attribute (`"intercept_"`) or a key (`"return[b]"`)'),
    Key('limits', 'time_floor', float, 2.0, check=_SPEC,
        meaning="seconds: a test's wall-clock limit is at least this ..."),
    Key('limits', 'time_factor', float, 200.0, check=_SPEC,
        meaning="... and at least this many times the reference's time on the same input"),
    Key('limits', 'cpu_seconds', int, _limit('cpu_seconds'), check=_SPEC,
        meaning='RLIMIT_CPU of a worker'),
    Key('limits', 'memory_mb', int, _limit('memory_mb'), check=_SPEC,
        meaning='RLIMIT_AS of a worker'),
    Key('limits', 'processes', int, _limit('processes'), check=_SPEC,
        meaning='RLIMIT_NPROC (threads count)'),
    Key('limits', 'file_size_mb', float, float(_limit('file_size_mb')), check=_SPEC,
        meaning='RLIMIT_FSIZE (the printed output and any file written)'),
    Key('limits', 'open_files', int, _limit('open_files'), check=_SPEC,
        meaning='RLIMIT_NOFILE'),
    Key('limits', 'network', bool, False, check=_SPEC,
        meaning='`true` keeps AF_INET sockets (still a new network namespace)'),
    Key('limits', 'packages', list, _limit('packages'), values='a list of module names', check=_SPEC,
        meaning=("what the code may import besides the standard library (list a package's dependencies too); never "
                 "the suite's own packages; a package that cannot be imported in the sandbox refuses grading (exit 3)")),
    Key('limits', 'submission_seconds', float, _limit('submission_seconds'), check=_SPEC,
        meaning="one submission's wall-clock budget over all its tests"),
    Key('limits', 'harmless_imports', list, (), values='a list of module names', check=_SPEC,
        meaning=('top-level modules a course imports for plots nobody asked for (`["matplotlib", "pylab"]`): the '
                 'worker answers them, and their submodules, with **inert stand-ins** (`sandbox/_inert.py`) -- every '
                 'call, attribute, index and `with` does nothing, `fig, ax = plt.subplots()` unpacks, `from pylab '
                 "import *` gets the plotting names only (not numpy's). Nothing of the host is made visible: the "
                 "stand-in is a module of the worker's own that imports nothing. Not a standard-library module, not a"
                 ' package of `packages`')),
    Key('hypothesis', 'max_examples', int, 40, values='an integer >= 1', check=_SPEC,
        meaning='generated inputs per test'),
    Key('hypothesis', 'max_n', int, 8, values='an integer >= 1', check=_SPEC,
        meaning='examples per input (hidden tests twice as many)'),
    Key('hypothesis', 'max_d', int, 4, values='an integer >= 1', check=_SPEC,
        meaning='features'),
    Key('tests.KIND', 'points', float, 1.0, values='a number >= 0', check=_SPEC,
        meaning="the test's points"),
    Key('tests.KIND', 'hidden', bool, False,
        meaning='a hidden test: its inputs are drawn from the instructor\'s secret seed'),
    Key('tests.KIND', 'visibility', str, None, choices=VISIBILITIES, check=_SPEC,
        meaning=("when students see the result (Gradescope's visibility; hidden tests default to "
                 '`"after_due_date"`)')),
    Key('theory.ID', 'kind', str, REQUIRED, choices=("kernel", "bound"), check=_SPEC,
        meaning='`"kernel"`: is K a legal kernel? `"bound"`: does the bound hold?'),
    Key('theory.ID', 'expr', str, REQUIRED, values='a kernel or a bound', check=_SPEC,
        meaning='what the question asks about'),
    Key('theory.ID', 'algorithm', str, Derived("the assignment's", _algorithm_of),
        meaning='the learner the bound is about'),
    Key('theory.ID', 'variant', str, "halve",
        meaning="the learner's variant (Winnow's demotion)"),
    Key('theory.ID', 'points', float, 1.0,
        meaning="the question's points"),
    Key('theory.ID', 'hidden', bool, False,
        meaning='a hidden question'),
    Key('theory.ID', 'visibility', str, None,
        meaning='when students see the result (as for tests)'),
    Key('theory.ID', 'prompt', str, "",
        meaning='shown with the question'),
)

TABLES = ("assignment", "contract", "contract.call", "limits", "hypothesis", "tests.KIND", "theory.ID")
_BY = {(k.table, k.name): k for k in KEYS}


def keys_of(table: str) -> tuple[Key, ...]:
    return tuple(k for k in KEYS if k.table == table)


def key(table: str, name: str) -> Key:
    return _BY[(table, name)]


def names(table: str) -> frozenset:
    """The keys the parser accepts in ``table`` (anything else is refused)."""
    return frozenset(k.name for k in KEYS if k.table == table)


# --- the docs -------------------------------------------------------------------------------------

def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Fraction):          # as TOML writes it: 2, 0.5 (or "p/q" where no decimal is exact)
        if v.denominator == 1:
            return str(v.numerator)
        return repr(float(v)) if Fraction(float(v)) == v else f'"{v.numerator}/{v.denominator}"'
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return repr(v)


def _default_doc(k: Key) -> str:
    d = k.default
    if d is REQUIRED:
        return "required"
    if isinstance(d, Derived):
        return d.doc
    if k.type is dict and d == ():
        return "`{}`"
    if d is None or (d == "" and k.type is str):
        return "none"
    return f"`{_toml(d)}`"


def _values_doc(k: Key) -> str:
    if k.choices:
        return ", ".join(f"`{_toml(c)}`" for c in k.choices)
    if k.values:
        return k.values
    return {str: "a string", int: "an integer", float: "a number", bool: "`true`, `false`", list: "a list",
            dict: "a table"}.get(k.type, "")


def _cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def table_markdown(keys, prefix_other: str = "") -> str:
    rows = ["| key | values | default | meaning |", "|---|---|---|---|"]
    for k in keys:
        shown = f"`{k.name}`" if k.table == prefix_other or not prefix_other else f"`[{k.table}] {k.name}`"
        rows.append(f"| {shown} | {_cell(_values_doc(k))} | {_cell(_default_doc(k))} | {_cell(k.meaning)} |")
    return "\n".join(rows)


def _list(table):
    return ", ".join(f"`{k.name}`" for k in keys_of(table))


def markdown(section: str) -> str:
    """The generated text of one marked section of docs/grading.md: ``every`` (the "Every key"
    tables) or a group of [contract] keys (``contract:receives``, ``contract:computes``,
    ``contract:read``, ``contract.call``)."""
    if section == "every":
        parts = []
        for t in TABLES:
            head = f"**`[{t}]`**"
            if t == "contract":
                parts.append(f"{head} -- every key above ([The contract](#the-contract)): {_list(t)}.")
            elif t == "contract.call":
                parts.append(f"{head}: {_list(t)} ([the call](#contractcall-the-call-declared)).")
            else:
                parts.append(f"{head}\n\n{table_markdown(keys_of(t))}")
        return "\n\n".join(parts)
    if section.startswith("contract:"):
        g = section.split(":", 1)[1]
        return table_markdown([k for k in KEYS if k.group == g], prefix_other="contract")
    if section == "contract.call":
        return table_markdown(keys_of("contract.call"))
    raise ValueError(f"no generated section {section!r}")


DOCS_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs", "grading.md")
_MARK = re.compile(r"(<!-- keys:(?P<name>[\w.:]+):begin -->\n)(?P<body>.*?)(\n<!-- keys:(?P=name):end -->)", re.S)


def render_docs(text: str) -> str:
    """``text`` (docs/grading.md) with every marked section replaced by its generated text."""
    return _MARK.sub(lambda m: m.group(1) + markdown(m.group("name")) + m.group(4), text)


def sections(text: str) -> list[str]:
    return [m.group("name") for m in _MARK.finditer(text)]


def main(argv=None) -> int:
    """``python -m grading.spec.spec_keys``: rewrite docs/grading.md's key tables (``--check``: exit 1
    when they differ from the declaration, writing nothing)."""
    import argparse
    ap = argparse.ArgumentParser(prog="python -m grading.spec.spec_keys",
                                 description="Rewrite docs/grading.md's key tables from the keys "
                                             "declared in grading/spec/spec_keys.py.")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when the tables differ from the declaration, writing nothing")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    with open(DOCS_PATH, encoding="utf-8") as fh:
        old = fh.read()
    new = render_docs(old)
    if args.check:
        if new != old:
            print("docs/grading.md: the key tables differ from grading/spec/spec_keys.py "
                  "(run python -m grading.spec.spec_keys)", file=sys.stderr)
            return 1
        return 0
    if new != old:
        with open(DOCS_PATH, "w", encoding="utf-8") as fh:
            fh.write(new)
        print(f"rewrote {', '.join(sections(old))} in {DOCS_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
