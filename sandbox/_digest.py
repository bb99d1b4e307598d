"""Inputs compared as bytes: a canonical encoding of a call's inputs, the same in the worker
(after the call, of what the student's code holds) and in the grader (of what it sent).

Standard library only: loaded by ``_child.py`` by path, imported by ``sandbox.worker``.  The
encoding looks at exact types (``type(v) is float``, never ``isinstance``) and never calls a
method of the student's objects: a row replaced by an object whose ``__eq__`` always answers
True, a list subclass, a float subclass or an array whose dtype or shape was changed all encode
differently from what the grader sent.  The grader decides: it compares the worker's digest with
its own (``sandbox.worker``); the worker's own "modified" flag is not used.
"""
import hashlib
import json

WATCHED = ("X", "y", "K", "w0", "X_val", "y_val")
_DTYPES = {"float": "<f8", "int": "<i8", "bool": "|b1"}


def _plain(v, depth=0):
    t = type(v)
    if t is bool:
        return ["B", v]
    if t is int:
        return ["I", str(v)]
    if t is float:
        return ["F", v.hex()]
    if v is None:
        return None
    if t is list or t is tuple:
        if depth > 4:
            return ["?", "deep"]
        return ["L" if t is list else "T", [_plain(x, depth + 1) for x in v]]
    return ["?", t.__module__ + "." + t.__qualname__]


def canonical(v) -> list:
    """The worker's side: what the student's code left in an input."""
    t = type(v)
    if t.__name__ == "ndarray" and t.__module__ == "numpy":
        try:
            return ["nd", [int(s) for s in v.shape], v.dtype.str, _plain(v.tolist())]
        except Exception:  # noqa: BLE001 - a broken array is a changed one
            return ["?", "array"]
    return _plain(v)


def digest(v) -> str:
    data = json.dumps(canonical(v), separators=(",", ":")).encode()
    return hashlib.sha256(data).hexdigest()


# --- the grader's side: what it sent --------------------------------------------------------------
def _shape(v):
    shape = []
    while type(v) is list:
        shape.append(len(v))
        v = v[0] if v else None
    return shape


def _leaves(v):
    if type(v) is list:
        for x in v:
            yield from _leaves(x)
    else:
        yield v


def _convert(v, kind):
    if type(v) is list:
        return [_convert(x, kind) for x in v]
    return {"<f8": float, "<i8": int, "|b1": bool}[kind](v)


def sent(v, array: str | None) -> str:
    """The digest the worker must report for an input the grader sent as ``v`` (JSON values) and
    the worker turned into a numpy array of kind ``array`` ("float", "int", "auto") or not (None)."""
    if array is None:
        return digest(v)
    kind = _DTYPES.get(array)
    if kind is None:            # "auto": numpy's choice for Python scalars
        leaves = list(_leaves(v))
        kind = ("|b1" if leaves and all(type(x) is bool for x in leaves) else
                "<i8" if all(type(x) in (int, bool) for x in leaves) else "<f8")
    data = json.dumps(["nd", _shape(v), kind, _plain(_convert(v, kind))], separators=(",", ":")).encode()
    return hashlib.sha256(data).hexdigest()


def expected(request: dict) -> dict | None:
    """{input name: digest} the answer to ``request`` must carry, or None (no inputs watched)."""
    op = request.get("op")
    if op == "plan":       # as the worker receives them: after a JSON round trip
        values = json.loads(json.dumps({k: v for k, v in request.get("values", {}).items() if k in WATCHED}))
        arrays = request.get("arrays", {})
        return {k: sent(values[k], arrays.get(k)) for k in WATCHED if k in values}
    if op in ("predict", "update"):
        return {"x": digest(request["x"])}
    return None
