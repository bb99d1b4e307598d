"""The child's side of a contract's call plan: make the call the course's handout describes.

Loaded by ``_child.py`` (by path, before the sandbox is set up) and used for ``op = "plan"``
requests.  Standard library only; numpy is imported -- lazily -- only when the request says
the course's code takes arrays.  A request carries

* ``values``: the test data by name (X, y, T, K, w0, ...), already in the course's encoding
  (labels, column vectors) -- the parent prepared them; ``arrays``: the names to hand over as
  numpy arrays, with their dtype; ``kernel``: a kernel spec when a callable kernel is passed;
* ``plan``: which class to construct (``object``, ``init_args``, ``init_kwargs``), which
  function or method to call with which arguments (``{"ref": name}`` or ``{"lit": value}``),
  how many times (``repeat``), and where the answer is read (``read``: the return value, or
  attributes / argument-less methods of the object);
* ``helpers``: functions to place in the student's module for this call (the course's
  ``get_order``, a start-weight helper, ``perceptron_single_step_update``).

The answer is plain values only (numbers and nested lists of numbers; non-finite floats as
strings); the parent applies the contract's return layout and checks every value.
"""
import copy
import math
import random

MAX_ITEMS = 1_000_000
INT_LIMIT = 2 ** 63
_np = None
_originals = {}


def _numpy():
    global _np
    if _np is None:
        import numpy
        _np = numpy
    return _np


# --- plain values out ---------------------------------------------------------------------
def plain(v, bad, depth=0, count=None):
    """Numbers and nested lists of numbers (at most 3 levels, MAX_ITEMS numbers)."""
    count = count if count is not None else [0]
    if v is None:
        return None
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        if not -INT_LIMIT < v < INT_LIMIT:
            raise bad("an integer in your answer is too large (|n| >= 2**63)")
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else repr(v)
    if isinstance(v, (str, bytes, dict)):
        raise bad(f"expected numbers, got {type(v).__name__}")
    if hasattr(v, "tolist") and not isinstance(v, (list, tuple)):
        try:
            v = v.tolist()
        except Exception:
            raise bad(f"expected numbers, got {type(v).__name__}") from None
        return plain(v, bad, depth, count)
    if isinstance(v, (list, tuple)):
        if depth >= 3:
            raise bad("expected a vector or a pair, got a deeper nesting")
        out = []
        for x in v:
            count[0] += 1
            if count[0] > MAX_ITEMS:
                raise bad("the answer is too long")
            out.append(plain(x, bad, depth + 1, count))
        return out
    try:
        f = float(v)
    except Exception:
        raise bad(f"expected numbers, got {type(v).__name__}") from None
    return f if math.isfinite(f) else repr(f)


def _flat_kind(v):
    """A number, a flat list of numbers or a list of such lists (what the wire accepts)."""
    if not isinstance(v, list):
        return True
    if all(not isinstance(x, list) for x in v):
        return True
    return all(isinstance(x, list) and all(not isinstance(z, list) for z in x) for x in v)


def fields(name, v, bad):
    """Answer fields for one value: ``{name: v}`` when it is a number, a vector or a matrix;
    a tuple such as (w, b) goes item by item (``name_n`` items, ``name_0``, ``name_1``...)."""
    if v is None or _flat_kind(v):
        return {name: v}
    if len(v) > 6 or not all(x is None or _flat_kind(x) for x in v):
        raise bad("expected numbers, a vector, a matrix or a short tuple of them")
    out = {f"{name}_n": len(v)}
    for i, x in enumerate(v):
        out[f"{name}_{i}"] = x
    return out


def vote_rows(v, bad):
    """A voted perceptron's votes -- a list of (w, count) or (w, b, count) -- as a matrix: each
    vote's parts (vectors and numbers) laid end to end in one row."""
    if hasattr(v, "tolist") and not isinstance(v, (list, tuple)):
        v = v.tolist()
    if not isinstance(v, (list, tuple)):
        raise bad(f"expected a list of (weights, count) votes, got {type(v).__name__}")
    if len(v) > 100_000:
        raise bad("the answer is too long")
    rows = []
    for item in v:
        if hasattr(item, "tolist") and not isinstance(item, (list, tuple)):
            item = item.tolist()
        if not isinstance(item, (list, tuple)):
            raise bad(f"expected each vote as (weights, count), got {type(item).__name__}")
        row = []
        for part in item:
            p = plain(part, bad, 1)
            if isinstance(p, list):
                if any(isinstance(x, list) for x in p):
                    p = [z for x in p for z in (x if isinstance(x, list) else [x])]
                row.extend(p)
            else:
                row.append(p)
        rows.append(row)
    return rows


def pandas_input(arr, shape, name):
    """A DataFrame with columns x0, x1, ... (y: one column named y) or a Series named y, holding
    a copy of ``arr`` (pandas is imported only for a course whose handout hands out pandas)."""
    import pandas as pd
    if shape == "frame":
        cols = ["y"] if name.startswith("y") else [f"x{j}" for j in range(arr.shape[1] if arr.ndim == 2 else 0)]
        return pd.DataFrame(arr.copy(), columns=cols)
    return pd.Series(arr.copy(), name=name)


# --- helpers the course supplies ----------------------------------------------------------
def order_rule(rule, n):
    """The visiting orders of grading.spec.contract.visiting_order, again: the worker cannot import the
    grader's package (tests/grading/test_grading_contract_reference.py checks that the two agree)."""
    idx = list(range(n))
    if rule == "index":
        return idx
    if rule == "get_order":
        random.Random(1).shuffle(idx)
        return idx
    kind, _, seed = rule.partition(":")
    if kind == "shuffle":
        random.Random(int(seed)).shuffle(idx)
        return idx
    if kind == "numpy_permutation":
        return [int(v) for v in _numpy().random.RandomState(int(seed)).permutation(n)]
    raise ValueError(f"unknown order {rule}")


def _make_helper(h, arrays):
    kind = h["kind"]
    if kind == "order":
        rule = h["rule"]

        def get_order(n_samples):
            return order_rule(rule, int(n_samples))
        return get_order
    if kind == "init":
        seed = int(h["seed"])

        def initial_weights(d):
            rng = random.Random(seed)
            w = [rng.randint(-8, 8) / 4 for _ in range(int(d))]
            return _numpy().array(w) if arrays else w
        return initial_weights
    if kind == "step":
        ties, eta, pos = h["ties"], float(h["eta"]), h["positive"]

        def perceptron_single_step_update(feature_vector, label, current_theta, current_theta_0):
            yv = 1 if label == pos else -1
            x = [float(v) for v in _flat(feature_vector)]
            th = [float(v) for v in _flat(current_theta)]
            a = sum(p * q for p, q in zip(th, x)) + float(current_theta_0)
            if ties == "mistake":
                m = yv * a <= 0
            elif ties == "no_mistake":
                m = yv * a < 0
            else:
                pred = (1 if a >= 0 else -1) if ties == "predict+1" else (1 if a > 0 else -1)
                m = pred != yv
            if m:
                th = [p + eta * yv * q for p, q in zip(th, x)]
                current_theta_0 = float(current_theta_0) + eta * yv
            return (_numpy().array(th) if arrays else th), current_theta_0
        return perceptron_single_step_update
    raise ValueError(f"unknown helper kind {kind}")


def _flat(v):
    if hasattr(v, "tolist"):
        v = v.tolist()
    out = []
    for x in v:
        if isinstance(x, (list, tuple)):
            out.extend(x)
        else:
            out.append(x)
    return out


def _install_helpers(mod, helpers, arrays):
    for name, fn in _originals.items():      # the previous call's helpers go, the student's come back
        if fn is None:
            try:
                delattr(mod, name)
            except AttributeError:
                pass
        else:
            setattr(mod, name, fn)
    _originals.clear()
    for name, h in helpers.items():
        _originals[name] = getattr(mod, name, None)
        setattr(mod, name, _make_helper(h, arrays))


# --- the call -----------------------------------------------------------------------------
class _Counted:
    """A kernel callable that counts its calls (the step count of the linear-time test)."""

    def __init__(self, fn):
        self.fn = fn
        self.calls = 0

    def __call__(self, a, b):
        self.calls += 1
        return self.fn(a, b)


def _seed(seed):
    """Seed the global generators the course's code may draw from: random, and numpy's legacy
    global state when numpy is importable (imported here only if the code imported it)."""
    import sys
    random.seed(seed)
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed(seed)


def _key(r, key, bad):
    if not isinstance(r, dict) and not (hasattr(r, "keys") and hasattr(r, "__getitem__")):
        raise bad(f"expected a dict with the key {key!r}, got {type(r).__name__}")
    try:
        return r[key]
    except Exception:
        raise bad(f"the returned dict has no key {key!r}") from None


def _read(obj, where, bad):
    name = where[:-2] if where.endswith("()") else where
    if not hasattr(obj, name):
        raise bad(f"after the call, the object has no attribute {name!r}")
    v = getattr(obj, name)
    return v() if where.endswith("()") else v


def run(mod, module_name, req, kernel, bad):
    """Make the planned call; returns the message for the parent."""
    arrays = req.get("arrays", {})
    data = {}
    counted = None
    for k, v in req.get("values", {}).items():
        if k in arrays:
            np = _numpy()
            shape, _, kind = arrays[k].rpartition(":")
            data[k] = np.array(v, dtype={"float": float, "int": np.int64, "bool": bool}.get(kind))
            if shape:                   # the course's pandas objects, built from that array
                data[k] = pandas_input(data[k], shape, k)
        else:               # fresh from the request's JSON: held by nothing else, no copy needed
            data[k] = v
    if "kernel" in req:
        counted = _Counted(kernel(req["kernel"]))
        data["kernel"] = counted
    _install_helpers(mod, req.get("helpers", {}), bool(arrays))
    plan = req["plan"]

    def arg(a):
        if "dict" in a:
            return {k: arg(x) for k, x in a["dict"].items()}
        if "list" in a:
            return [arg(x) for x in a["list"]]
        return data[a["ref"]] if "ref" in a else copy.deepcopy(a["lit"])
    # the inputs the grader watches: echoed as bytes after the call (``_digest``), digested and
    # compared by the grader with its own digests of what it sent -- no copy is kept here (a copy would be work in
    # the timed pass that is not the student's)
    watched = [k for k in ("X", "y", "K", "w0", "X_val", "y_val", "H") if k in data]
    obj = None
    if plan.get("object"):
        cls = getattr(mod, plan["object"], None)
        if cls is None or not callable(cls):
            raise bad(f"{module_name}.py does not define {plan['object']}")
        obj = cls(*[arg(a) for a in plan.get("init_args", [])],
                  **{k: arg(a) for k, a in plan.get("init_kwargs", {}).items()})
        fn = getattr(obj, plan["method"], None)
        if fn is None or not callable(fn):
            raise bad(f"{plan['object']} has no method {plan['method']}()")
    else:
        fn = getattr(mod, plan["method"], None)
        if fn is None or not callable(fn):
            raise bad(f"{module_name}.py does not define {plan['method']}()")
    times = int(data["T"]) if plan.get("repeat") else 1
    if "seed" in req:        # the handout's shuffling from the global generators, seeded as for the reference
        _seed(int(req["seed"]))
    r = None
    for _ in range(times):
        r = fn(*[arg(a) for a in plan.get("args", [])], **{k: arg(a) for k, a in plan.get("kwargs", {}).items()})
    read = plan.get("read", {"w": "return"})
    if read.get("votes"):
        v = _key(r, read["w"][7:-1], bad) if read["w"].startswith("return[") else \
            (r if read["w"] == "return" else _read(obj, read["w"], bad))
        out = {"ret" if read["w"].startswith("return") else "attr_w": vote_rows(v, bad)}
    elif read["w"].startswith("return["):
        w = _key(r, read["w"][7:-1], bad)
        val = (w, _key(r, read["b"][7:-1], bad)) if read.get("b") else w
        out = fields("ret", plain(val, bad), bad)
    elif read["w"] == "return":
        out = fields("ret", plain(r, bad), bad)
    else:
        out = fields("attr_w", plain(_read(obj, read["w"], bad), bad), bad)
        if read.get("b"):
            out.update(fields("attr_b", plain(_read(obj, read["b"], bad), bad), bad))
    if counted is not None:
        out["kernel_calls"] = counted.calls
    # the inputs as the call left them: the worker encodes them by exact type, the grader digests and compares
    return {"ok": out, "watched": {k: data[k] for k in watched}}
