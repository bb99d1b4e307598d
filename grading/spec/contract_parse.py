"""Reading a spec's ``[contract]`` table into a :class:`~grading.spec.contract.Contract`: every key
checked, one line per bad value, naming the key (docs/grading.md, "The contract")."""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from learners.errors import InputError

from grading.spec.contract import DATA_NAMES, GLOBAL_ORDERS, ORDERS, RETURNS, TIES, Arg, CallPlan, Contract
from grading.spec.spec_keys import key, names

__all__ = ["parse_contract", "CONTRACT_KEYS", "CALL_KEYS"]

CONTRACT_KEYS = names("contract")          # declared in grading.spec.spec_keys, with the docs' text
CALL_KEYS = names("contract.call")


class _Where:
    def __init__(self, src):
        self.src = src

    def fail(self, key, msg):
        raise InputError(f"{self.src}: contract.{key} {msg}")


def _choice(d, key, allowed, default, w, shown=None):
    if key not in d:
        return default
    v = d[key]
    if not isinstance(v, str) or v not in allowed:
        w.fail(key, f"must be one of {', '.join(shown or allowed)}; got {v!r}")
    return v


def _declared(d, name, w):
    """A [contract] key whose values and default grading.spec.spec_keys declares."""
    k = key("contract", name)
    return _choice(d, name, k.choices, k.default, w)


def _default(name):
    """A [contract] key's declared default (grading.spec.spec_keys)."""
    return key("contract", name).default


FLOAT_ALGORITHMS = ("perceptron", "winnow", "weighted_majority", "passive_aggressive", "hedge")


FINITE_CLASS = ("halving", "soa")      # a class given as its truth table (grading.references.reference_finite)


HEDGE_LOSS_DENOMINATOR = 4     # Hedge's test losses are k/4, k = 0..4 (grading.references.problems_unit)


def _dyadic(q: Fraction) -> bool:
    """Does float64 hold q exactly (its denominator a power of two)?"""
    return q.denominator & (q.denominator - 1) == 0


def _float_rate(alg, eta, variant, factor, penalty) -> bool:
    """Does the course's rate make its code compute in float: a perceptron learning rate, a
    Weighted Majority penalty float64 cannot hold (0.01, 0.3), a Winnow2 factor whose demotion
    w / alpha float64 cannot hold (any factor but a power of two: 3, 1.5, 1.1)?  Passive-Aggressive
    has no rate: its float course says ``arithmetic = "float"``."""
    if alg == "perceptron":
        return not _dyadic(eta)
    if alg == "weighted_majority":
        return not _dyadic(penalty)
    if alg == "hedge":          # the test losses are k/4: beta^(k/4) rational for every k iff beta^(1/4) is
        from learners.hedge import rational_power
        return rational_power(penalty, Fraction(1, HEDGE_LOSS_DENOMINATOR)) is None
    if alg == "winnow" and variant == "winnow2":
        return not (_dyadic(factor) and _dyadic(1 / factor))
    return False


def _fraction(d, key, default, w, positive=True):
    if key not in d:
        return default
    v = d[key]
    try:
        if isinstance(v, bool):
            raise ValueError
        q = Fraction(v) if isinstance(v, (int, str)) else Fraction(v).limit_denominator(1 << 20)
        if isinstance(v, float) and float(q) != v:
            raise ValueError
    except (ValueError, ZeroDivisionError, TypeError):
        w.fail(key, f"must be a number (or \"p/q\"); got {v!r}")
    if positive and q <= 0:
        w.fail(key, f"must be positive; got {v!r}")
    return q


def _seeded(v, kinds):
    """'kind:SEED' -> True when well formed for one of ``kinds``."""
    kind, sep, seed = v.partition(":")
    return sep and kind in kinds and seed.lstrip("-").isdigit()


def _arg(v, w, where, depth=0):
    if depth > 3:
        w.fail(where, "nests tables and lists more than 3 deep")
    if isinstance(v, dict) and set(v) == {"table"}:        # { table = { Thres = ["n"] } }: a dict argument
        t = v["table"]
        if not isinstance(t, dict):
            w.fail(where, f"{{ table = ... }} must hold a table; got {t!r}")
        return Arg(items=tuple((str(k), _arg(x, w, f"{where}.{k}", depth + 1)) for k, x in t.items()))
    if isinstance(v, list) and any(isinstance(x, (str, dict, list)) for x in v):   # data inside a list
        return Arg(seq=tuple(_arg(x, w, where, depth + 1) for x in v))
    if isinstance(v, str):
        if v not in DATA_NAMES:
            w.fail(where, f"names unknown test data {v!r} (known: {', '.join(DATA_NAMES)}; a literal string is "
                          "written {{ literal = \"...\" }})")
        return Arg(ref=v)
    if isinstance(v, dict):
        if set(v) != {"literal"}:
            w.fail(where, f"a table argument must be {{ literal = ... }} or {{ table = {{ ... }} }}; got keys "
                          f"{sorted(v)}")
        return Arg(value=v["literal"])
    if isinstance(v, bool) or isinstance(v, (int, float)):
        return Arg(value=v)
    if isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v):
        return Arg(value=list(v))
    w.fail(where, f"must be a test-data name, a number, a boolean, a list of numbers or {{ literal = ... }}; "
                  f"got {v!r}")


def _args(d, key, w):
    v = d.get(key, [])
    if not isinstance(v, list):
        w.fail(f"call.{key}", f"must be a list; got {v!r}")
    return tuple(_arg(a, w, f"call.{key}") for a in v)


def _kwargs(d, key, w):
    v = d.get(key, {})
    if not isinstance(v, dict):
        w.fail(f"call.{key}", f"must be a table {{ name = value }}; got {v!r}")
    out = []
    for k, a in v.items():
        if not k.isidentifier():
            w.fail(f"call.{key}", f"has a keyword that is not a Python name: {k!r}")
        out.append((k, _arg(a, w, f"call.{key}.{k}")))
    return tuple(out)


def _name(d, key, w, default=None, call=False):
    if key not in d:
        return default
    v = d[key]
    base = v[:-2] if (call and isinstance(v, str) and v.endswith("()")) else v
    if not isinstance(v, str) or not base.isidentifier() or base.startswith("__"):
        w.fail(f"call.{key}" if key in CALL_KEYS else key, f"must be a Python name{' (or name())' if call else ''}; "
                                                           f"got {v!r}")
    return v


def _read_at(d, key, w, default):
    """Where w or b is read: ``return``, ``return[KEY]`` (a key of a returned dict), an attribute
    or ``name()``."""
    v = d.get(key)
    if isinstance(v, str) and v.startswith("return[") and v.endswith("]"):
        k = v[7:-1].strip("'\"")
        if k.lstrip("-").isdigit():     # a tuple's element is no key of a dict: the child would look up "0"
            w.fail(f"call.{key}", f"{v!r} reads the key {k!r} of a returned dict, but a returned tuple has no keys: "
                                  "returns = \"w_b\" reads a returned (w, b); for one element of a longer tuple "
                                  "(w, iters, mistakes) write an adapter (contract.adapter)")
        if not k or not k.replace("_", "a").isalnum():
            w.fail(f"call.{key}", f"return[KEY] needs a plain key (letters, digits, _); got {v!r}")
        return f"return[{k}]"
    return _name(d, key, w, default=default, call=True)


def _parse_call(d, algorithm, entry, default_epochs, w, adapter=False) -> CallPlan:
    if d is None and adapter:        # the adapter's function: answer(X, y, T) (grading.spec.adapter)
        return CallPlan(method="answer", args=(Arg(ref="X"), Arg(ref="y"), Arg(ref="T")))
    if d is None and algorithm == "hedge":      # hedge(L, beta): the loss table and beta
        return CallPlan(method=entry, args=(Arg(ref="X"), Arg(ref="beta")))
    if d is None and algorithm in FINITE_CLASS:     # halving(H, X, y): the class, the instances, the labels
        return CallPlan(method=entry, args=(Arg(ref="H"), Arg(ref="X"), Arg(ref="y")))
    if d is None:
        args = (Arg(ref="X"), Arg(ref="y")) + ((Arg(ref="kernel"),) if algorithm == "kernel_perceptron" else ())
        return CallPlan(method=entry, args=args, kwargs=(("epochs", Arg(ref="T")),),
                        defaults=(("epochs", default_epochs),))
    if not isinstance(d, dict):
        w.fail("call", "must be a table")
    bad = sorted(set(d) - CALL_KEYS)
    if bad:
        w.fail("call", f"has an unknown key {bad[0]!r} (known: {', '.join(sorted(CALL_KEYS))})")
    obj = _name(d, "object", w)
    if obj is not None and "method" not in d:
        w.fail("call.method", "is required with call.object (the method that trains, e.g. \"fit\")")
    method = _name(d, "method", w, default=entry)
    if obj is None and any(k in d for k in ("init_args", "init_kwargs")):
        w.fail("call.init_args", "needs call.object (the class whose constructor takes them)")
    plan = CallPlan(method=method, args=_args(d, "args", w), kwargs=_kwargs(d, "kwargs", w), object=obj,
                    init_args=_args(d, "init_args", w), init_kwargs=_kwargs(d, "init_kwargs", w))
    rep = d.get("repeat", key("contract.call", "repeat").default)
    if rep is not None and rep != "T":
        w.fail("call.repeat", f"must be \"T\" (call the method T times); got {rep!r}")
    weights = _read_at(d, "weights", w, key("contract.call", "weights").default)
    bias = _read_at(d, "bias", w, None)
    keyed = weights.startswith("return[")
    if weights != "return" and not keyed and obj is None:
        w.fail("call.weights", "names an attribute, which needs call.object")
    if bias is not None and weights == "return":
        w.fail("call.bias", "is read from the object: set call.weights too (or return (w, b) from the method)")
    if bias is not None and keyed != bias.startswith("return["):
        w.fail("call.bias", "and call.weights must both be keys of the returned dict (return[KEY]) or neither")
    defaults = d.get("defaults", {})
    if not isinstance(defaults, dict):
        w.fail("call.defaults", f"must be a table {{ keyword = default }}; got {defaults!r}")
    kws = dict(plan.kwargs + plan.init_kwargs)
    dd = []
    for k, v in defaults.items():
        if k not in kws:
            w.fail("call.defaults", f"names {k!r}, which is not a keyword of call.kwargs or call.init_kwargs")
        if kws[k].ref not in ("T", "eta", "theta", "beta"):
            w.fail("call.defaults", f"{k!r}: only arguments passing T, eta, theta or beta can have a default here")
        if isinstance(v, bool) or not isinstance(v, (int, float, str)):
            w.fail("call.defaults", f"{k!r} must be a number; got {v!r}")
        dd.append((k, v))
    plan = dataclasses.replace(plan, repeat=rep, weights=weights, bias=bias, defaults=tuple(dd))
    if plan.repeat and "T" in {a.ref for a in plan.args} | {a.ref for _, a in plan.kwargs}:
        w.fail("call.repeat", "and an argument T in the same call: the method would run T x T passes")
    return plan


def parse_contract(doc: dict | None, *, algorithm: str, style: str, entry: str, bias: bool, normalize: bool,
                   labels: str, kernel: str, epochs: int, src: str) -> Contract:
    """The contract of a spec: ``doc`` is its ``[contract]`` table (None when absent); the other
    arguments come from ``[assignment]``."""
    w = _Where(src)
    d = doc if doc is not None else {}
    if not isinstance(d, dict):
        raise InputError(f"{src}: [contract] must be a table")
    bad = sorted(set(d) - CONTRACT_KEYS)
    if bad:
        raise InputError(f"{src}: unknown key {bad[0]!r} in [contract] (known: {', '.join(sorted(CONTRACT_KEYS))})")
    alg = algorithm

    def only(keys, algs, what):
        for k in keys:
            if k in d and alg not in algs:
                w.fail(k, f"is {what}")
    only(("threshold", "factor", "variant"), ("winnow",), "a Winnow option")
    only(("dual", "kernel_bias"), ("kernel_perceptron",), "a kernel-perceptron option")
    only(("learning_rate",), ("perceptron", "kernel_perceptron"), "a perceptron and kernel-perceptron option")
    only(("init", "init_helper", "average", "average_start"), ("perceptron",), "a perceptron option")
    if style == "class" and any(k in d for k in ("call", "order", "stop", "returns", "init", "supplied")):
        raise InputError(f"{src}: the online class style (predict/update) has its own protocol; [contract] may set "
                         "only inputs, labels and learner conventions there (use [contract.call] for a class "
                         "with fit/train)")
    c = Contract(algorithm=alg, style=style, bias=bias, normalize=normalize, labels=labels, kernel=kernel)
    inputs = _declared(d, "inputs", w)
    label_shape = _declared(d, "label_shape", w)
    x_layout = _declared(d, "x_layout", w)
    order = d.get("order", _default("order"))
    if not isinstance(order, str) or not (order in ("index", "get_order") + GLOBAL_ORDERS
                                          or _seeded(order, ("shuffle", "numpy_permutation"))):
        w.fail("order", f"must be one of {', '.join(ORDERS)}; got {order!r}")
    seed = d.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 32):
        w.fail("seed", f"must be an integer in [0, 2^32); got {seed!r}")
    if order in GLOBAL_ORDERS and seed is None:
        w.fail("order", f"{order!r} draws a new order every pass from the global generator: set contract.seed, "
                        "the seed the grader gives it before every call")
    x_dtype = _declared(d, "x_dtype", w)
    if x_dtype in ("int", "bool") and alg != "winnow":
        w.fail("x_dtype", f"{x_dtype!r} holds only Winnow's 0/1 features; the perceptrons' test data are "
                          "fractions (use \"float\")")
    passes = d.get("passes", _default("passes"))
    if isinstance(passes, bool) or not isinstance(passes, int) or not 0 <= passes <= 100:
        w.fail("passes", f"must be an integer in 1..100 (the passes one call makes); got {passes!r}")
    margin = None
    if "margin" in d:
        if alg != "winnow":
            w.fail("margin", "is a Winnow option")
        margin = _fraction(d, "margin", None, w, positive=False)
        if margin < 0:
            w.fail("margin", f"must be >= 0; got {d['margin']!r}")
        if labels != "pm1":
            w.fail("margin", "is stated for labels +1/-1 (y (w.x - theta) <= margin): set assignment.labels = "
                             "\"pm1\"")
    names = d.get("names", {})
    if not isinstance(names, dict) or set(names) - {"weights", "bias"} or \
            not all(isinstance(v, str) and v.replace(".", "_").isidentifier() for v in names.values()):
        w.fail("names", f"must be a table {{ weights = \"theta\", bias = \"theta_0\" }}; got {names!r}")
    credit = _fraction(d, "convention_credit", _default("convention_credit"), w, positive=False)
    if not 0 <= credit < 1:
        w.fail("convention_credit", f"must be in [0, 1); got {d['convention_credit']!r}")
    ties = _choice(d, "ties", TIES[alg], key("contract", "ties").default({"algorithm": alg}), w)
    eta = _fraction(d, "learning_rate", _default("learning_rate"), w)
    init = d.get("init", _default("init"))
    if not isinstance(init, str) or not (init in ("zero", "given", "own") or _seeded(init, ("random",))):
        w.fail("init", f"must be one of zero, given, random:SEED, own; got {init!r}")
    separable = None
    if "separable" in d:
        if alg != "perceptron":
            w.fail("separable", "is a perceptron option")
        separable = _fraction(d, "separable", None, w)
    step = _declared(d, "step", w)
    if step != "constant" and alg == "winnow":
        w.fail("step", "is a perceptron and kernel-perceptron option")
    oracle = d.get("oracle", _default("oracle"))
    if not isinstance(oracle, str):
        w.fail("oracle", f"must be a path (the course's solution, relative to the spec); got {oracle!r}")
    tol = d.get("tolerance", _default("tolerance"))
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not 0 < tol <= 0.1:
        w.fail("tolerance", f"must be a number in (0, 0.1] (relative); got {tol!r}")
    stop = _declared(d, "stop", w)
    threshold = d.get("threshold", _default("threshold"))
    if isinstance(threshold, bool) or not (threshold in ("n", "n/2") or isinstance(threshold, (int, float, str))):
        w.fail("threshold", f"must be \"n\", \"n/2\" or a positive number; got {threshold!r}")
    if threshold not in ("n", "n/2"):
        threshold = str(_fraction(d, "threshold", None, w))
    variant = _declared(d, "variant", w)
    factor = _fraction(d, "factor", _default("factor"), w)
    if "factor" in d and variant != "winnow2" and factor != 2:
        w.fail("factor", f"is the Winnow2 factor: with variant = {variant!r} the factor is 2 (set variant = "
                         "\"winnow2\")")
    if factor <= 1:
        w.fail("factor", f"must be > 1; got {d['factor']!r}")
    dual = _declared(d, "dual", w)
    kb = d.get("kernel_bias", _default("kernel_bias"))
    if not isinstance(kb, bool):
        w.fail("kernel_bias", f"must be true or false; got {kb!r}")
    returns = _choice(d, "returns", RETURNS[alg], key("contract", "returns").default({"algorithm": alg, "kernel_bias": kb}),
                      w)
    if alg == "perceptron" and not bias and returns != "w_b" and returns != "w":
        w.fail("returns", f"{returns!r} places a bias, but assignment.bias is false")
    if alg == "perceptron" and bias and returns == "w":
        w.fail("returns", "\"w\" has no place for the bias: with assignment.bias = true use w_b, w_bias_first or "
                          "w_bias_last")
    if alg == "kernel_perceptron" and (returns == "alpha_b") != kb:
        w.fail("returns", "must be \"alpha_b\" exactly when kernel_bias = true")
    oh = _name(d, "order_helper", w, default=_default("order_helper"))
    ih = _name(d, "init_helper", w, default=_default("init_helper"))
    sh = _name(d, "step_helper", w, default=_default("step_helper"))
    if len({oh, ih, sh}) < 3:
        w.fail("step_helper", f"order_helper, init_helper and step_helper must be three names; got {oh}, {ih}, {sh}")
    sup = d.get("supplied", [])
    if not isinstance(sup, list) or not all(isinstance(s, str) for s in sup):
        w.fail("supplied", f"must be a list of function names; got {sup!r}")
    for s in sup:
        if s not in (oh, ih, sh):
            w.fail("supplied", f"names {s!r}; the grader can supply {oh} (the visiting order), {ih} (the start "
                               f"weights) and {sh} (one perceptron step; order_helper, init_helper and step_helper "
                               "rename them)")
        if s == ih and not init.startswith("random:"):
            w.fail("supplied", f"names {ih}, which only exists with init = \"random:SEED\"")
        if s == sh and alg != "perceptron":
            w.fail("supplied", f"{sh} (one perceptron step) is a perceptron helper")
    if init.startswith("random:") and ih not in sup:
        w.fail("init", f"\"random:SEED\" needs the grader to supply {ih}(d) (add it to contract.supplied): the "
                       "start weights must be reproducible")
    average = _declared(d, "average", w)
    average_start = d.get("average_start", _default("average_start"))
    if not isinstance(average_start, bool):
        w.fail("average_start", f"must be true or false; got {average_start!r}")
    if "average_start" in d and average == "none":
        w.fail("average_start", "says whether the start is averaged: it needs contract.average")
    if average != "none" and style != "function":
        w.fail("average", "is for a call that trains and returns (the online class style predicts step by step)")
    if alg == "winnow" and c.normalize:
        w.fail("inputs", "normalize is not a Winnow option")
    only(("penalty",), ("weighted_majority", "hedge"), "a Weighted Majority and Hedge option")
    penalty = _fraction(d, "penalty", _default("penalty"), w)
    if not 0 < penalty < 1:
        w.fail("penalty", f"must be in (0, 1) (each expert's weight is multiplied by it, or a power of it); got "
                          f"{d['penalty']!r}")
    only(("hedge_weights",), ("hedge",), "a Hedge option")
    hedge_weights = _declared(d, "hedge_weights", w)
    arithmetic = _declared(d, "arithmetic", w)
    if arithmetic == "float" and alg not in FLOAT_ALGORITHMS:
        w.fail("arithmetic", "\"float\" (the reference replaying float64 arithmetic) is an option of the "
                             "perceptron, Winnow, Weighted Majority, Passive-Aggressive and Hedge")
    if arithmetic == "auto":     # a rate float64 cannot hold exactly (0.01): the course computes in float
        arithmetic = "float" if _float_rate(alg, eta, variant, factor, penalty) else "exact"
    adapter = d.get("adapter", _default("adapter"))
    if not isinstance(adapter, str) or not adapter.strip():
        if "adapter" in d:
            w.fail("adapter", f"must be a path to a .py file (relative to the spec) or the adapter's code; got "
                              f"{adapter!r}")
        adapter = ""
    if adapter:
        if style != "function":
            w.fail("adapter", "is the function the tests call: it needs assignment.style = \"function\"")
        if sup:
            w.fail("supplied", "and contract.adapter together: the adapter supplies what the course's code needs "
                               "(it runs beside it)")
    answer = _declared(d, "answer", w)
    if alg in FINITE_CLASS:
        answer = d.get("answer", "mistakes")
        if answer not in ("mistakes", "predictions"):
            w.fail("answer", f"must be \"mistakes\" or \"predictions\" for {alg}: the learner keeps a version "
                             f"space, not weights; got {answer!r}")
        for k, ok in (("order", order == "index"), ("passes", not passes), ("stop", stop == "epochs"),
                      ("x_layout", x_layout == "rows"), ("inputs", inputs != "pandas"), ("x_dtype", x_dtype == "auto")):
            if not ok:
                w.fail(k, f"is not an option of {alg}: one call runs the learner once over the instances X in the "
                          "order given (H the class as its truth table, one row per hypothesis)")
    elif answer != "weights":
        if not adapter:
            w.fail("answer", f"{answer!r} is what an adapter returns (contract.adapter): the course's API returns "
                             "more than weights, or none, and the adapter hands on what it returns")
        if alg == "weighted_majority":
            w.fail("answer", "Weighted Majority's answer is (weights, mistakes) already")
        if alg == "hedge":
            w.fail("answer", "Hedge's answer is (weights, the learner's total loss) already")
        if average != "none":
            w.fail("answer", "and contract.average together: the average is graded on its weights")
        if answer == "predictions" and margin is not None:
            w.fail("answer", "\"predictions\" with Winnow's margin rule: it updates whatever the prediction")
    call = None
    if style == "function":
        call = _parse_call(d.get("call"), alg, entry, epochs, w, adapter=bool(adapter))
        refs = call.refs()
        if "K" in refs and alg != "kernel_perceptron":
            w.fail("call", "passes the Gram matrix K, which only the kernel perceptron uses")
        if "kernel" in refs and alg != "kernel_perceptron":
            w.fail("call", "passes a kernel, which only the kernel perceptron uses")
        if "beta" in refs and alg not in ("weighted_majority", "hedge"):
            w.fail("call", "passes beta, Weighted Majority's and Hedge's penalty (contract.penalty)")
        if "H" in refs and alg not in FINITE_CLASS:
            w.fail("call", "passes H, the class of Halving and SOA (assignment.algorithm = \"halving\" or \"soa\")")
        if alg in FINITE_CLASS and ("H" not in refs or refs & {"T", "w0", "b0", "X_val", "y_val", "n", "d"}):
            w.fail("call", f"of {alg} passes the class H (its truth table), the instances X (indices into the "
                           "domain) and the labels y, one step per instance: no passes, start or sizes")
        if alg == "hedge" and refs & {"y", "T", "w0", "b0", "X_val", "y_val"}:
            w.fail("call", "passes labels, passes or a start: Hedge's call passes the loss table X (T x n, losses "
                           "in [0, 1]) and beta, one step per row")
        if "alpha" in refs and variant != "winnow2":
            w.fail("call", "passes alpha, the Winnow2 factor (contract.variant = \"winnow2\")")
        # a kernel perceptron's call without "kernel" or "K": the code picks the kernel itself (by a
        # name or hyperparameters in the call's literals); [assignment] kernel says which one it is
        if not refs & {"X", "K"}:
            w.fail("call", "passes no training data (X, or K for the kernel perceptron)")
        if "y" not in refs and alg != "hedge":
            w.fail("call", "passes no labels (y)")
        if init == "given" and "w0" not in refs:
            w.fail("init", "\"given\" needs the call to pass w0 (and b0 with a bias)")
        if init == "own" and "T" not in refs:
            w.fail("init", "\"own\" reads the code's start with a call that makes no pass: the call must pass T")
        if ("w0" in refs or "b0" in refs) and init != "given":
            w.fail("call", "passes w0/b0 but contract.init is not \"given\"")
        if "theta" in refs and alg != "winnow":
            w.fail("call", "passes theta, the Winnow threshold")
        if stop == "converged" and "T" not in refs and not passes and separable is None:
            w.fail("stop", "\"converged\" needs a maximum number of passes: T in the call, or contract.passes -- or "
                           "contract.separable (test data separable with that margin, so the loop ends)")
        if separable is not None and (stop != "converged" or "T" in refs or passes):
            w.fail("separable", "is for stop = \"converged\" with no maximum (no T in the call, no contract.passes)")
        if passes and "T" in refs:
            w.fail("passes", "is for a call without T (the passes are hard-coded); this call passes T")
        if passes and call.repeat:
            w.fail("passes", "and call.repeat together: give one")
        if average != "none" and call.repeat:
            w.fail("average", "and call.repeat together: the average is over one call's passes")
    c = c.replace(inputs=inputs, label_shape=label_shape, x_layout=x_layout, order=order, order_helper=oh, ties=ties,
                  learning_rate=eta, init=init, init_helper=ih, step_helper=sh, stop=stop, threshold=threshold, factor=factor,
                  variant=variant, dual=dual, kernel_bias=kb, returns=returns, supplied=tuple(sup), x_dtype=x_dtype,
                  passes=passes, margin=margin, seed=seed, weights_name=names.get("weights", ""),
                  bias_name=names.get("bias", ""), convention_credit=credit, oracle=oracle, tolerance=float(tol),
                  step=step, separable=separable, average=average, average_start=average_start,
                  adapter=adapter, arithmetic=arithmetic, penalty=penalty, answer=answer,
                  hedge_weights=hedge_weights)
    if call is not None:
        c = c.replace(call=call)
    return c
