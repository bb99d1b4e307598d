"""Inputs compared as bytes: a canonical encoding of a call's inputs, the same in the worker
(after the call, of what the student's code holds) and in the grader (of what it sent).

Standard library only: loaded by ``_child.py`` by path, imported by ``sandbox.worker``.  The
encoding looks at exact types (``type(v) is float``, never ``isinstance``) and never calls a
method of the student's objects: a row replaced by an object whose ``__eq__`` always answers
True, a list subclass, a float subclass or an array whose dtype or shape was changed all encode
differently from what the grader sent.

The grader decides, and it hashes: the worker only *echoes* the encoding's bytes after the call
(:func:`echo`: compressed, base64) through the answer channel, and the grader digests what it
reads back (:func:`echoed`) and compares it with its own digest of what it sent (:func:`sent`,
:func:`expected`).  No digest computed inside the student's process is used: replacing the
worker's digest function changes nothing.  (Code that rewrites the worker's own encoder can still
send any bytes it likes, as it can any answer: to pass it must send the exact bytes of the
unmodified input.)
"""
import base64
import zlib
import hashlib
import json

WATCHED = ("X", "y", "K", "w0", "X_val", "y_val", "H")
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
    if t.__name__ in ("DataFrame", "Series") and t.__module__ in ("pandas", "pandas.core.frame", "pandas.core.series"):
        try:          # its class, labels, row labels, dtypes, shape and values (another type encodes as such)
            frame = t.__name__ == "DataFrame"
            labels = [str(c) for c in v.columns.tolist()] if frame else str(v.name)
            dtypes = [d.str for d in v.dtypes.tolist()] if frame else v.dtype.str
            index = [str(i) for i in v.index.tolist()]
            return ["pd", t.__name__, labels, index, [int(s) for s in v.shape], dtypes, _plain(v.to_numpy().tolist())]
        except Exception:  # noqa: BLE001 - a broken frame is a changed one
            return ["?", "pandas"]
    if t.__name__ == "ndarray" and t.__module__ == "numpy":
        try:
            return ["nd", [int(s) for s in v.shape], v.dtype.str, _plain(v.tolist())]
        except Exception:  # noqa: BLE001 - a broken array is a changed one
            return ["?", "array"]
    return _plain(v)


def _array_bytes(v) -> bytes | None:
    """An array of one of the kinds the grader sends, as bytes: a header (shape, dtype) and its
    elements in C order -- what :func:`sent` writes for the values it sent.  Streamed through
    the hash without a Python object per element: this runs inside the timed pass, and its cost
    must stay a small linear part of it.  None for any other array (encoded by ``canonical``)."""
    try:
        kind = v.dtype.str
        if kind not in _DTYPES.values():
            return None
        return _nd_header([int(s) for s in v.shape], kind) + v.tobytes(order="C")
    except Exception:  # noqa: BLE001 - a broken array is a changed one
        return b"?array"


def _nd_header(shape, kind) -> bytes:
    return ("nd-bytes:" + json.dumps([shape, kind], separators=(",", ":")) + "\n").encode()


def _text(v, depth=0) -> str:
    """``json.dumps(_plain(v), separators=(",", ":"))``, byte for byte, written directly: the
    plain lists of numbers every call sends are encoded without building the nested lists."""
    t = type(v)
    if t is float:
        return '["F","' + v.hex() + '"]'
    if t is list or t is tuple:
        if depth > 4:
            return '["?","deep"]'
        tag = '["L",[' if t is list else '["T",['
        if all(type(x) is float for x in v):
            return tag + ",".join(['["F","' + h + '"]' for h in map(float.hex, v)]) + "]]"
        return tag + ",".join([_text(x, depth + 1) for x in v]) + "]]"
    if t is int:
        return '["I","' + str(v) + '"]'
    return json.dumps(_plain(v, depth), separators=(",", ":"))


def encode(v) -> bytes:
    """The canonical bytes of ``v`` (what :func:`digest` hashes)."""
    t = type(v)
    data = None
    if t is list or t is tuple or t is float or t is int:
        data = _text(v).encode()
    elif t.__name__ == "ndarray" and t.__module__ == "numpy":
        data = _array_bytes(v)
    if data is None:
        data = json.dumps(canonical(v), separators=(",", ":")).encode()
    return data


def digest(v) -> str:
    return hashlib.sha256(encode(v)).hexdigest()


def echo(v) -> str:
    """The worker's side: the encoding of what the student's code left in an input, compressed
    (zlib, fastest level: it runs inside the timed pass) and in base64, for the answer."""
    return base64.b64encode(zlib.compress(encode(v), 1)).decode("ascii")


MAX_ECHO = 64 << 20          # the most the grader expands one echoed input to


def echoed(text) -> str | None:
    """The grader's side: the digest of the bytes the worker echoed (None when they cannot be
    read: malformed, or expanding past ``MAX_ECHO`` -- such an input counts as changed)."""
    if not isinstance(text, str):
        return None
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
        d = zlib.decompressobj()
        data = d.decompress(raw, MAX_ECHO)
        if d.unconsumed_tail or not d.eof:
            return None
    except (ValueError, zlib.error, UnicodeEncodeError):
        return None
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


def _sent_pandas(v, shape, kind, name) -> str:
    """The digest of the DataFrame or Series the worker built from ``v`` (see _plan_child)."""
    leaves = list(_leaves(v))
    if kind not in _DTYPES:
        kind = ("bool" if leaves and all(type(x) is bool for x in leaves) else
                "int" if all(type(x) in (int, bool) for x in leaves) else "float")
    dt = _DTYPES[kind]
    dims = _shape(v)
    index = [str(i) for i in range(dims[0] if dims else 0)]
    if shape == "frame":
        labels = ["y"] if name.startswith("y") else [f"x{j}" for j in range(dims[1] if len(dims) == 2 else 0)]
        enc = ["pd", "DataFrame", labels, index, dims, [dt] * len(labels), _plain(_convert(v, dt))]
    else:
        enc = ["pd", "Series", name, index, dims, dt, _plain(_convert(v, dt))]
    return hashlib.sha256(json.dumps(enc, separators=(",", ":")).encode()).hexdigest()


def sent(v, array: str | None, name: str = "") -> str:
    """The digest the worker must report for an input the grader sent as ``v`` (JSON values) and
    the worker turned into a numpy array of kind ``array`` ("float", "int", "auto") or not (None)."""
    if array is None:
        return digest(v)
    if ":" in array:
        shape, _, kind = array.partition(":")
        return _sent_pandas(v, shape, kind, name)
    kind = _DTYPES.get(array)
    if kind is None:            # "auto": numpy's choice for Python scalars
        leaves = list(_leaves(v))
        kind = ("|b1" if leaves and all(type(x) is bool for x in leaves) else
                "<i8" if all(type(x) in (int, bool) for x in leaves) else "<f8")
    shape = _shape(v)
    flat = list(_leaves(v))
    try:
        if _count(shape) != len(flat):
            raise ValueError("ragged")
        data = _nd_header(shape, kind) + _elements(flat, kind)
    except (ValueError, OverflowError, TypeError):
        return "?" * 64                 # not an array numpy would build: no digest can match it
    return hashlib.sha256(data).hexdigest()


def _count(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _elements(flat, kind) -> bytes:
    """The bytes of numpy's ``tobytes()`` for these values as dtype ``kind`` (little-endian)."""
    import array
    import sys
    if kind == "|b1":
        return bytes(1 if x else 0 for x in flat)
    a = array.array("d" if kind == "<f8" else "q", [{"<f8": float, "<i8": int}[kind](x) for x in flat])
    if sys.byteorder != "little":
        a.byteswap()
    return a.tobytes()


_SENT: dict = {}     # SHA-256 of the inputs' JSON text -> their digests (the grader's side)


def expected(request: dict) -> dict | None:
    """{input name: digest} the answer to ``request`` must carry, or None (no inputs watched)."""
    op = request.get("op")
    if op == "plan":       # as the worker receives them: after a JSON round trip
        text = json.dumps({k: v for k, v in request.get("values", {}).items() if k in WATCHED})
        arrays = request.get("arrays", {})
        key = hashlib.sha256((text + "\n" + json.dumps({k: arrays.get(k) for k in WATCHED})).encode()).digest()
        hit = _SENT.get(key)      # the same inputs sent again (every submission gets the same timed passes)
        if hit is None:
            values = json.loads(text)
            hit = {k: sent(values[k], arrays.get(k), k) for k in WATCHED if k in values}
            if len(_SENT) >= 512:
                _SENT.clear()
            _SENT[key] = hit
        return dict(hit)
    if op in ("predict", "update"):
        return {"x": digest(request["x"])}
    return None
