"""What the worker sends, checked before the grader interprets any of it.

The student's code runs inside the worker and can write anything on the answer pipe (it can call
the worker's own ``_send``, or write raw bytes to the descriptor), so every message is untrusted:

* **size**: one message is one line of at most ``MAX_MESSAGE`` bytes (1 MiB); a longer one is a
  bad answer (the reader stops buffering at the cap: a flood costs the grader 1 MiB, not more);
* **syntax**: UTF-8 JSON; integers of at most 19 digits, parsed by a hook *before* Python builds
  them (no 10**999999 ever exists in the grader); floats are parsed by ``float`` (a literal like
  ``1e-999999999`` is 0.0, never a ``Fraction`` or a ``Decimal``); nesting depth at most 4;
* **schema**: each message kind (``outer``, ``armed``, ``ready``, answers) has fixed keys and
  types; an answer's numbers come out as ``int`` (|n| < 2**63) or ``float`` (``inf``/``nan``
  included) and its vectors as flat lists of them;
* **text**: a message string from the worker (an exception message, a traceback line) is student
  text: :func:`student_text` escapes control and formatting characters, truncates it and wraps it
  in « » so that no report line can be mistaken for the grader's own.

Every check raises :class:`WireError` (a one-line reason in the grader's words); nothing else can
escape from here, whatever the bytes.
"""
from __future__ import annotations

import json
import math

__all__ = ["WireError", "MAX_MESSAGE", "decode", "parse_outer", "parse_armed", "parse_ready", "parse_answer",
           "student_text", "student_block", "ERROR_KINDS"]

MAX_MESSAGE = 1 << 20
MAX_DEPTH = 4
MAX_INT_DIGITS = 19
INT_LIMIT = 2 ** 63
MAX_TEXT = 400
ERROR_KINDS = ("exception", "bad-return", "memory", "exit", "protocol", "output")
LAYER_NAMES = ("namespaces", "filesystem view", "user", "rlimits", "seccomp", "setup")
_NS = ("user", "mount", "pid", "ipc", "uts", "net")
_LIMIT_KEYS = ("cpu", "as", "nproc", "fsize", "nofile", "core")


class WireError(Exception):
    """A message that breaks the rules; ``str(e)`` is one line in the grader's words."""


def _int(s: str) -> int:
    if len(s.lstrip("-")) > MAX_INT_DIGITS:
        raise WireError(f"a number in the answer has more than {MAX_INT_DIGITS} digits")
    v = int(s)
    if not -INT_LIMIT < v < INT_LIMIT:
        raise WireError("an integer in the answer is too large (|n| >= 2**63)")
    return v


def _const(s: str) -> float:
    return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[s])


def _depth_ok(obj) -> bool:
    stack = [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if isinstance(o, (list, dict)):
            if d > MAX_DEPTH:
                return False
            stack.extend((v, d + 1) for v in (o.values() if isinstance(o, dict) else o))
    return True


def decode(line: bytes):
    """One message (without its newline) -> a JSON value within the limits."""
    if len(line) > MAX_MESSAGE:
        raise WireError(f"the answer is larger than {MAX_MESSAGE >> 20} MiB")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise WireError("the answer is not UTF-8 text") from None
    try:
        obj = json.loads(text, parse_int=_int, parse_constant=_const)
    except WireError:
        raise
    except RecursionError:
        raise WireError("the answer is nested too deeply") from None
    except (ValueError, KeyError, TypeError, OverflowError):
        raise WireError("the answer is not valid JSON") from None
    if not _depth_ok(obj):
        raise WireError("the answer is nested too deeply")
    return obj


def _require(cond, what):
    if not cond:
        raise WireError(what)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _text(v, what, limit=300) -> str:
    _require(isinstance(v, str), f"{what} is not text")
    return v[:limit]


# --- start-up messages (sent before any student code runs, still checked) ------------------
MODES = ("root", "userns", "landlock", "none")     # namespaces as root / in a user namespace, container mode, none


def parse_outer(obj) -> dict:
    _require(isinstance(obj, dict) and set(obj) == {"outer"} and isinstance(obj["outer"], dict),
             "the worker's start-up message is malformed")
    o = obj["outer"]
    _require(set(o) == {"pid", "uid", "mode"}, "the worker's start-up message has unknown fields")
    _require(_is_int(o["pid"]) and o["pid"] > 1 and _is_int(o["uid"]) and o["uid"] >= 0,
             "the worker's start-up message has bad ids")
    _require(o["mode"] in MODES, "the worker's start-up message has a bad mode")
    return dict(o)


def parse_armed(obj):
    """-> ("ok", record) or ("failed", layer, reason)."""
    _require(isinstance(obj, dict) and "armed" in obj, "the worker did not report its isolation")
    a = obj["armed"]
    if a is False:
        _require(set(obj) == {"armed", "layer", "reason"}, "the worker's isolation failure is malformed")
        layer = _text(obj["layer"], "layer", 40)
        return "failed", (layer if layer in LAYER_NAMES else "setup"), _text(obj["reason"], "reason")
    _require(set(obj) == {"armed"} and isinstance(a, dict), "the worker's isolation report is malformed")
    keys = {"mode", "namespaces", "view", "proc", "user", "uid", "no_new_privs", "seccomp", "limits", "missing",
            "landlock"}
    _require(set(a) == keys, "the worker's isolation report has unknown fields")
    _require(a["mode"] in MODES, "bad isolation mode")
    _require(_is_int(a["landlock"]) and 0 <= a["landlock"] < 100, "bad landlock")
    _require(isinstance(a["namespaces"], list) and all(n in _NS for n in a["namespaces"]), "bad namespaces")
    for k in ("view", "proc", "no_new_privs", "seccomp"):
        _require(isinstance(a[k], bool), f"bad {k}")
    _require(_is_int(a["uid"]) and a["uid"] >= 0, "bad uid")
    _require(isinstance(a["limits"], list) and all(k in _LIMIT_KEYS for k in a["limits"]), "bad limits")
    _require(isinstance(a["missing"], list) and all(
        isinstance(m, list) and len(m) == 2 and m[0] in LAYER_NAMES and isinstance(m[1], str) for m in a["missing"]),
        "bad missing layers")
    user = _text(a["user"], "user", 60)
    _require(user in ("unchanged", "user namespace") or (user.startswith("uid ") and user[4:].isdigit()),
             "bad user")
    rec = {k: a[k] for k in keys}
    rec["user"] = user
    rec["missing"] = [[m[0], m[1][:300]] for m in a["missing"]]
    return "ok", rec


def parse_ready(obj):
    """-> (True, None, "") or (False, "import"|"missing", student text)."""
    _require(isinstance(obj, dict) and "ready" in obj, "the worker did not say whether the module loaded")
    if obj["ready"] is True:
        _require(set(obj) == {"ready"}, "the worker's ready message has unknown fields")
        return True, None, ""
    _require(obj["ready"] is False and set(obj) == {"ready", "error", "message"}, "malformed ready message")
    _require(obj["error"] in ("import", "missing"), "malformed ready message")
    return False, obj["error"], _text(obj["message"], "the message", 2000)


# --- answers ---------------------------------------------------------------------------------
def _number(v, where):
    if isinstance(v, bool):
        return int(v)
    if _is_int(v) or isinstance(v, float):
        return v
    if isinstance(v, str) and v in ("inf", "-inf", "nan"):
        return float(v)
    raise WireError(f"{where} is not a number")


def _vector(v, where):
    _require(isinstance(v, list), f"{where} is not a list of numbers")
    return [_number(x, where) for x in v]


def _generic(v, where):
    if v is None:
        return None
    if isinstance(v, list):
        if v and isinstance(v[0], list):
            return [_vector(r, where) for r in v]
        return _vector(v, where)
    return _number(v, where)


# known answer fields; any other field may hold a number, a vector, a matrix or null
_FIELDS = {"w": lambda v: None if v is None else _vector(v, "w"),
           "b": lambda v: None if v is None else _number(v, "b"),
           "label": lambda v: None if v is None else _number(v, "the label"),
           "value": lambda v: _generic(v, "the value")}


def parse_answer(obj, expect_id: int):
    """-> ("ok", fields, modified) or ("error", kind, student text); ``modified`` is the worker's
    flag, or its echo of the inputs after the call ({name: base64 of their compressed canonical
    bytes}, digested by the grader: ``_digest.echoed``) when it sent them."""
    _require(isinstance(obj, dict), "the answer is not a JSON object")
    _require(obj.get("id") == expect_id and _is_int(obj.get("id")),
             "the answer does not belong to the request (out of step)")
    if "ok" in obj:
        _require(set(obj) <= {"id", "ok", "modified", "inputs"}, "the answer has unknown fields")
        ok = obj["ok"]
        _require(isinstance(ok, dict) and len(ok) <= 16, "the answer's result is not an object of at most 16 fields")
        out = {}
        for k, v in ok.items():
            _require(isinstance(k, str) and k.isidentifier() and len(k) <= 40, "the answer has a bad field name")
            out[k] = _FIELDS[k](v) if k in _FIELDS else _generic(v, k)
        mod = obj.get("modified", False)
        _require(isinstance(mod, bool), "the answer's 'modified' flag is not a boolean")
        inputs = obj.get("inputs")
        if inputs is not None:
            _require(isinstance(inputs, dict) and len(inputs) <= 8 and all(
                isinstance(k, str) and len(k) <= 16 and isinstance(v, str) for k, v in inputs.items()),
                "the answer's input echoes are malformed")
        return "ok", out, (mod if inputs is None else dict(inputs))
    _require(set(obj) == {"id", "error", "message"}, "the answer is neither a result nor an error")
    _require(obj["error"] in ERROR_KINDS, "the answer names an unknown kind of error")
    return "error", obj["error"], _text(obj["message"], "the message", 2000)


# --- student text in reports ------------------------------------------------------------------
_ESC = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\", "«": "\\u00ab", "»": "\\u00bb"}


def _escape(s: str) -> str:
    out = []
    for ch in s:
        if ch in _ESC:
            out.append(_ESC[ch])
        elif ch.isprintable():
            out.append(ch)
        else:
            o = ord(ch)
            out.append(f"\\x{o:02x}" if o < 0x100 else (f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"))
    return "".join(out)


def student_text(s, limit: int = MAX_TEXT) -> str:
    """Student text as one quoted line: «...», escaped, at most ``limit`` characters of it."""
    s = s if isinstance(s, str) else str(s)
    more = len(s) - limit
    body = _escape(s[:limit])
    return f"«{body}»" + (f" (+{more} more characters not shown)" if more > 0 else "")


def student_block(s: str, max_lines: int = 40, max_chars: int = 4000) -> str:
    """Printed output as lines each starting with ``| `` (escaped, truncated); never empty."""
    s = s if isinstance(s, str) else str(s)
    clipped = len(s) > max_chars
    lines = s[:max_chars].split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = lines[:max_lines]
    out = ["| " + _escape(ln)[:400] for ln in shown]
    if clipped or len(lines) > max_lines:
        out.append(f"[the grader cut the output here: at most {max_lines} lines, {max_chars} characters]")
    return "\n".join(out)


def finite(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
