"""The parent's side of a contract's call plan: the request for one test input, and the
contract's return layout applied to the plain values the child sends back.

The request holds the test data in the course's encoding (labels +1/-1, 0/1 or booleans; y as
a column vector; numpy arrays or lists; a Gram matrix; a start w0), the plan (which object,
which method, which arguments), and the helpers to supply.  The child (``_plan_child.py``)
makes the call and answers with numbers and nested lists only; :func:`read_answer` turns them
into an :class:`~grading.references.reference.Answer` -- ``(w, b)``, ``w`` with the bias as its first or
last coordinate, ``coef_`` of shape (1, d) and ``intercept_`` of shape (1,), a column vector
theta -- or says in one sentence what the course's layout expected instead.
"""
from __future__ import annotations

from grading.spec.contract import given_start
from grading.references.reference import Answer
from grading.references.reference_finite import FINITE_ALGORITHMS, class_of, points_of

__all__ = ["request", "read_answer", "LayoutError", "encode_labels"]

MAX_ABS_INT = 10 ** 30          # a weight this large is a wrong answer, not a number to parse


class LayoutError(Exception):
    def __init__(self, msg):
        super().__init__(msg)
        self.msg = msg


def encode_labels(c, y) -> list:
    """Labels as the course's code receives them (y is +1/-1; Winnow: 0/1)."""
    pos, neg = c.label_values
    positive = (lambda v: v == 1)
    out = [pos if positive(v) else neg for v in y]
    if c.label_shape == "column":
        return [[v] for v in out]
    return out


def _x_kind(c) -> str:
    """X's element type as the course hands it out: float, int (Winnow's 0/1) or bool."""
    if c.x_dtype != "auto":
        return c.x_dtype
    return "int" if c.algorithm in ("winnow",) + FINITE_ALGORITHMS else "float"


def _rows(c, X):
    conv = {"float": float, "int": int, "bool": bool}[_x_kind(c)]
    return [[conv(v) for v in r] for r in X]


def _values(c, X, y, T, refs):
    out = {}
    if c.algorithm in FINITE_ALGORITHMS:       # H (its truth table), X the instances' indices, y
        pos, neg = c.label_values
        if "H" in refs:
            out["H"] = [[pos if v == 1 else neg for v in h] for h in class_of(X)]
        if "X" in refs:
            out["X"] = points_of(X)
        if "y" in refs:
            out["y"] = encode_labels(c, y)
        return out
    if "X" in refs:
        out["X"] = _rows(c, X)
    if "y" in refs:
        out["y"] = encode_labels(c, y)
    if "T" in refs:
        out["T"] = int(T)
    if "n" in refs:
        out["n"] = len(X)
    if "d" in refs:
        out["d"] = len(X[0])
    if "K" in refs:
        # float64 Gram matrix, as the reference's float mode computes it (exact on the test data:
        # small dyadic values, whose products and sums float64 represents exactly)
        import numpy as np
        from learners.kernels import parse_kernel
        out["K"] = parse_kernel(c.kernel).gram_float(np.array(X, dtype=float)).tolist()
    if "w0" in refs or "b0" in refs:
        w0, b0 = given_start(len(X[0]), c.bias)
        out["w0"] = [float(v) for v in w0]
        out["b0"] = float(b0)
    if "eta" in refs:
        out["eta"] = float(c.learning_rate)
    if "theta" in refs:
        out["theta"] = float(c.theta_value(len(X[0])))
    if "alpha" in refs:
        out["alpha"] = float(c.factor)
    if "beta" in refs:
        out["beta"] = float(c.penalty)
    if "X_val" in refs or "y_val" in refs:
        rows = _rows(c, X)
        out["X_val"] = list(reversed(rows))
        out["y_val"] = list(reversed(encode_labels(c, y)))
    if c.x_layout == "columns":       # one column per example: X is d x n
        for k in ("X", "X_val"):
            if k in out:
                out[k] = [list(col) for col in zip(*out[k])]
    return out


def _arg(a):
    if a.items is not None:
        return {"dict": {k: _arg(x) for k, x in a.items}}
    if a.seq is not None:
        return {"list": [_arg(x) for x in a.seq]}
    return {"ref": a.ref} if a.ref is not None else {"lit": a.value}


def request(c, X, y, T, *, omit=(), order_override: bool = False) -> dict:
    """The request for one call on (X, y) with T passes.  ``omit``: keywords left out (the
    handout's defaults apply); ``order_override``: the data are already in visiting order and
    the course's order helper returns 0..n-1 (the step-by-step prefix runs)."""
    p = c.call
    refs = p.refs()
    values = _values(c, X, y, T, refs)
    arrays = {}
    if c.inputs in ("numpy", "pandas"):
        for k in ("X", "y", "K", "w0", "X_val", "y_val", "H"):
            if k in values:
                arrays[k] = _x_kind(c) if k in ("X", "X_val") else ("float" if k in ("K", "w0") else "auto")
                if c.inputs == "pandas" and k in ("X", "X_val", "y", "y_val"):   # a DataFrame, a Series
                    arrays[k] = ("frame:" if k in ("X", "X_val") or c.label_shape == "column" else "series:") + \
                        arrays[k]
    plan = {"method": p.method, "args": [_arg(a) for a in p.args],
            "kwargs": {k: _arg(a) for k, a in p.kwargs if k not in omit},
            "repeat": p.repeat, "read": {"w": p.weights, "b": p.bias}}
    if c.average == "voted":
        plan["read"]["votes"] = True       # the child sends each (w, [b,] count) as one row
    if p.object:
        plan.update(object=p.object, init_args=[_arg(a) for a in p.init_args],
                    init_kwargs={k: _arg(a) for k, a in p.init_kwargs if k not in omit})
    helpers = {}
    if c.order_helper in c.supplied or (order_override and c.order != "index"):
        helpers[c.order_helper] = {"kind": "order", "rule": "index" if order_override else c.order}
    if c.init_helper in c.supplied:
        helpers[c.init_helper] = {"kind": "init", "seed": int(c.init.split(":", 1)[1])}
    if c.step_helper in c.supplied:
        helpers[c.step_helper] = {"kind": "step", "ties": c.ties, "eta": float(c.learning_rate),
                                                    "positive": c.label_values[0]}
    req = {"op": "plan", "plan": plan, "values": values, "arrays": arrays, "helpers": helpers}
    if c.seed is not None:
        req["seed"] = int(c.seed)          # random and numpy.random seeded so before the call
    if "kernel" in refs:
        from learners.kernels import parse_kernel
        req["kernel"] = parse_kernel(c.kernel).spec()
    return req


# --- reading the answer --------------------------------------------------------------------
def _kind(v) -> str:
    if isinstance(v, list):
        return f"a list of {len(v)} items"
    if v is None:
        return "None"
    return type(v).__name__


def _num(v, what):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        if abs(v) > MAX_ABS_INT:
            return float("inf")
        return v
    if isinstance(v, float):
        return v
    if isinstance(v, str) and v in ("nan", "inf", "-inf"):
        return float(v)
    if isinstance(v, list) and len(v) == 1 and not isinstance(v[0], list):
        return _num(v[0], what)           # intercept_ of shape (1,)
    raise LayoutError(f"{what}: expected a number, got {_kind(v)}")


def _vec(v, what):
    if not isinstance(v, list):
        raise LayoutError(f"{what}: expected a vector of numbers, got {_kind(v)}")
    if len(v) == 1 and isinstance(v[0], list):
        v = v[0]                               # one row: coef_ of shape (1, d)
    elif v and all(isinstance(x, list) and len(x) == 1 for x in v):
        v = [x[0] for x in v]                  # one column: a (d, 1) column vector
    if any(isinstance(x, list) for x in v):
        raise LayoutError(f"{what}: expected a vector of numbers, got a matrix")
    return [_num(x, what) for x in v]


def _is_pair(v) -> bool:
    return (isinstance(v, list) and len(v) == 2 and isinstance(v[0], list)
            and not (isinstance(v[1], list) and (len(v[1]) != 1 or isinstance(v[1][0], list))))


def _split(c, w, d, what):
    """(w, b) from one vector carrying the bias first or last."""
    if len(w) != d + 1:
        side = "first" if c.returns == "w_bias_first" else "last"
        raise LayoutError(f"{what}: expected {d + 1} numbers (the {d} weights with the bias {side}), got {len(w)}")
    return (w[1:], w[0]) if c.returns == "w_bias_first" else (w[:-1], w[-1])


def _value(ok: dict, name: str):
    """One value of the answer: sent whole, or item by item (a tuple: ``name_n``, ``name_0``...)."""
    if f"{name}_n" in ok:
        k = ok[f"{name}_n"]
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= 6 or \
                any(f"{name}_{i}" not in ok for i in range(k)):
            raise LayoutError("malformed answer")
        return [ok[f"{name}_{i}"] for i in range(k)]
    if name not in ok:
        raise LayoutError("malformed answer")
    return ok[name]


def _votes(c, rows, d, what) -> Answer:
    """A voted perceptron's answer: one row per vote, (w, count), (w, b, count) or the bias inside
    w as the layout says; votes of count 0 are left out (they do not vote)."""
    if rows is None or not isinstance(rows, list):
        raise LayoutError(f"{what}: expected a list of (weights, count) votes, got {_kind(rows)}")
    bias = c.bias
    width = d + 1 + (1 if bias else 0)
    votes = []
    for k, r in enumerate(rows):
        shape = "(w, b, count)" if bias and c.returns == "w_b" else "(w, count)"
        if not isinstance(r, list) or len(r) != width or any(isinstance(x, list) for x in r):
            raise LayoutError(f"{what}: vote {k} is not {shape} with {d} weights")
        nums = [_num(x, what) for x in r]
        cnt = nums[-1]
        if isinstance(cnt, float) and cnt.is_integer():
            cnt = int(cnt)
        if not isinstance(cnt, int) or cnt < 0:
            raise LayoutError(f"{what}: the count of vote {k} is {cnt!r}, not a whole number >= 0")
        body = nums[:-1]
        if not bias:
            w, b = body, None
        elif c.returns == "w_bias_first":
            w, b = body[1:], body[0]
        else:
            w, b = body[:d], body[d]
        if cnt:
            votes.append((w, b, cnt))
    last = votes[-1] if votes else ([0.0] * d, 0.0 if bias else None, 0)
    return Answer(w=list(last[0]), b=last[1], votes=votes)


def _mistakes(v, what):
    """The mistakes an adapter returns: a count, or the 0-based steps that were mistakes."""
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v, None
    if isinstance(v, list):
        steps = []
        for s in v:
            if isinstance(s, float) and s.is_integer():
                s = int(s)
            if not isinstance(s, int) or isinstance(s, bool) or s < 0:
                raise LayoutError(f"{what}: the mistakes are a count or a list of step numbers (0, 1, ...); "
                                  f"got {_kind(s)} in the list")
            steps.append(s)
        return len(steps), steps
    raise LayoutError(f"{what}: expected the mistakes (a count, or a list of step numbers), got {_kind(v)}")


def _predictions(c, v, what):
    """The predictions an adapter returns, one per step, in the course's labels: True where positive."""
    pos, neg = c.label_values
    if not isinstance(v, list):
        raise LayoutError(f"{what}: expected the predictions (a list, one per example visited), got {_kind(v)}")
    if v and all(isinstance(p, list) and len(p) == 1 for p in v):
        v = [p[0] for p in v]                  # a column of predictions
    out = []
    for p in v:
        if isinstance(p, (int, float)) and p == pos:
            out.append(True)
        elif isinstance(p, (int, float)) and p == neg:
            out.append(False)
        else:
            raise LayoutError(f"{what}: a prediction is {pos!r} or {neg!r} (the course's labels); got "
                              f"{p!r}" if not isinstance(p, list) else f"{what}: a prediction is a label, got {_kind(p)}")
    return out


def _more_than_weights(c, r, d, what) -> Answer:
    """An adapter's answer under ``contract.answer``: weights and mistakes, mistakes, predictions."""
    if c.answer == "predictions":
        return Answer(w=None, predictions=_predictions(c, r, what))
    if c.answer == "mistakes":
        n, steps = _mistakes(r, what)
        return Answer(w=None, mistakes=n, mistake_steps=steps)
    bias = c.returns in ("w_b", "alpha_b") and (c.bias if c.algorithm == "perceptron" else c.kernel_bias)
    shape = "(w, b, mistakes)" if bias else "(w, mistakes)"
    if not isinstance(r, list) or len(r) != (3 if bias else 2):
        raise LayoutError(f"{what} {_kind(r)}; the adapter's layout is {shape}")
    n, steps = _mistakes(r[-1], what)
    w = _vec(r[0], what)
    b = _num(r[1], what) if bias else None
    if c.returns in ("w_bias_first", "w_bias_last"):
        w, b = _split(c, w, d, what)
    return Answer(w=w, b=b, mistakes=n, mistake_steps=steps)


def read_answer(c, ok: dict, d: int) -> Answer:
    """The child's plain values -> Answer, by the contract's return layout; ``d``: the number
    of features (for the layouts that carry the bias in the weight vector).  The values have
    passed the wire's checks (numbers, vectors, matrices; :mod:`sandbox.wire`)."""
    if not isinstance(ok, dict):
        raise LayoutError("malformed answer")
    layout = c.returns
    if c.answer != "weights" and ("ret" in ok or "ret_n" in ok):
        return _more_than_weights(c, _value(ok, "ret"), d, f"{c.call.method}() returned")
    if "ret" in ok or "ret_n" in ok:
        r = _value(ok, "ret")
        what = f"{c.call.method}() returned"
        if c.call.weights.startswith("return["):       # read from keys of a returned dict (the child did)
            what = f"{c.call.method}(){c.call.weights[6:]}"
        if c.average == "voted":
            return _votes(c, r, d, what)
        if layout in ("w_b", "alpha_b"):
            if _is_pair(r):
                return Answer(w=_vec(r[0], what), b=_num(r[1], what))
            if r is None:
                raise LayoutError(f"{what} None; the course's layout is "
                                  f"{'(w, b)' if layout == 'w_b' else '(alpha, b)'}")
            return Answer(w=_vec(r, what), b=None)
        w = _vec(r, what)
        if layout in ("w_bias_first", "w_bias_last"):
            w, b = _split(c, w, d, what)
            return Answer(w=w, b=b)
        return Answer(w=w, b=None)
    wname = c.call.weights
    if c.average == "voted":
        return _votes(c, _value(ok, "attr_w"), d, f"the attribute {wname}")
    w = _vec(_value(ok, "attr_w"), f"the attribute {wname}")
    if layout in ("w_bias_first", "w_bias_last"):
        w, b = _split(c, w, d, f"the attribute {wname}")
        return Answer(w=w, b=b)
    bv = _value(ok, "attr_b") if ("attr_b" in ok or "attr_b_n" in ok) else None
    b = _num(bv, f"the attribute {c.call.bias}") if bv is not None else None
    return Answer(w=w, b=b)

