"""The sandboxed worker: runs ONE submission's code and answers calls over a private pipe.

Executed as a script (``python -I -S -B -u _child.py REQ_FD RESP_FD``); standard library only.
Start-up, before any student code is loaded:

1. read the configuration (first line on the request pipe);
2. ``_jail.setup``: namespaces, the allow-list file-system view, credentials, resource limits,
   no_new_privs and the seccomp filter (see ``_jail.py``, ``_view.py``, ``_seccomp.py``); the outer process
   reports the worker's pid (``{"outer": ...}``) and waits for it;
3. report what was set up (``{"armed": ...}``) and wait for ``{"op": "load"}``: the grader checks
   the worker from outside (its /proc entries) before it lets the student's code in;
4. load the student module, say ``{"ready": ...}``.

Then one request per line (JSON), one answer per line (JSON), each answer echoing the request's
``id``.  The expected outputs never come here: the parent compares.  Nothing this process sends is
trusted: the student's code runs here and can write anything on the answer pipe; the parent
validates every message (``sandbox/wire.py``).
"""
import copy
import ctypes  # noqa: F401  (loaded before the view is built: _jail and _seccomp use it)
import importlib.machinery
import importlib.util
import json
import math
import os
import sys
import traceback

TEMPLATE = len(sys.argv) > 1 and sys.argv[1] == "--template"
REQ_FD = -1 if TEMPLATE else int(sys.argv[1])       # a template's children get theirs at the fork
RESP_FD = -1 if TEMPLATE else int(sys.argv[2])
HERE = os.path.dirname(os.path.abspath(__file__))
INT_LIMIT = 2 ** 63


def _send(obj):
    data = (json.dumps(obj, allow_nan=True) + "\n").encode()
    view = memoryview(data)
    while view:
        n = os.write(RESP_FD, view)
        view = view[n:]


_buf = b""
digest = None          # sandbox/_digest.py, loaded in main()


def _recv():
    global _buf
    while b"\n" not in _buf:
        chunk = os.read(REQ_FD, 1 << 16)
        if not chunk:
            return None
        _buf += chunk
    line, _buf = _buf.split(b"\n", 1)
    return json.loads(line)


_SIBLINGS = {}


def _sibling(name):
    """A helper module of this directory, loaded by path (this directory is not on sys.path);
    loaded once (a template loads them before it forks)."""
    if name in _SIBLINGS:
        return _SIBLINGS[name]
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _SIBLINGS[name] = mod
    return mod


# --- plain numbers in and out ---------------------------------------------------------
class BadReturn(Exception):
    pass


def _num(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        v = int(v)
        if not -INT_LIMIT < v < INT_LIMIT:
            raise BadReturn("an integer in your answer is too large (|n| >= 2**63)")
        return v
    if isinstance(v, float):
        return float(v)
    try:
        f = float(v)
    except Exception:
        raise BadReturn(f"expected a number, got {type(v).__name__}")
    return f


def _vec(v):
    if hasattr(v, "tolist"):
        try:
            v = v.tolist()
        except Exception:
            pass
    if isinstance(v, (str, bytes, dict)) or not hasattr(v, "__iter__"):
        raise BadReturn(f"expected a list of numbers, got {type(v).__name__}")
    out = []
    for x in v:
        if hasattr(x, "tolist") and not isinstance(x, (int, float)):
            x = x.tolist()
        if isinstance(x, (list, tuple)):
            raise BadReturn("expected a flat list of numbers, got a nested list")
        out.append(_num(x))
        if len(out) > 1_000_000:
            raise BadReturn("returned list is too long")
    return out


def _wire(x):
    """JSON-safe: non-finite floats become strings."""
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    if isinstance(x, list):
        return [_wire(v) for v in x]
    return x


def _shape_result(kind, r):
    if kind == "w_b":
        if isinstance(r, (tuple, list)) and len(r) == 2 and not hasattr(r[1], "__len__") and \
                hasattr(r[0], "__len__") and not isinstance(r[0], (str, bytes)):
            return {"w": _vec(r[0]), "b": _num(r[1])}
        return {"w": _vec(r), "b": None}
    if kind == "vector":
        return {"w": _vec(r)}
    if kind == "label":
        return {"label": _num(r)}
    return {"value": None}


def _kernel(spec):
    name, _, rest = spec.partition(":")
    params = {}
    for part in filter(None, rest.split(",")):
        k, _, v = part.partition("=")
        num, _, den = v.partition("/")
        params[k.strip()] = float(num) / float(den or 1)
    if name == "linear":
        return lambda a, b: float(sum(p * q for p, q in zip(a, b)))
    if name == "poly":
        c, k = params.get("c", 1.0), int(params.get("k", 2))
        return lambda a, b: float((c + sum(p * q for p, q in zip(a, b))) ** k)
    if name == "gaussian":
        c = params.get("c", 1.0)
        return lambda a, b: math.exp(-c * sum((p - q) ** 2 for p, q in zip(a, b)))
    raise ValueError(f"unknown kernel {spec}")


def _short_tb(exc):
    tb = traceback.extract_tb(exc.__traceback__)
    where = ""
    for fr in tb:
        if os.path.abspath(fr.filename).startswith(os.getcwd()):
            where = f" (line {fr.lineno} of {os.path.basename(fr.filename)})"
    msg = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {msg}{where}"[:500]


# --- request dispatch --------------------------------------------------------------------
# The one place that knows how a request becomes a call of the student's code and how its result
# becomes plain numbers.  A request is {"id", "op", ...}; the answer {"ok": {...}, "modified": bool}
# (the caller adds the id).  Raise BadReturn for a result that is not plain numbers.
def dispatch(mod, module_name, req, state):
    op = req.get("op")
    if op == "plan":        # a course contract's call plan (sandbox/_plan_child.py)
        return state["plan"].run(mod, module_name, req, _kernel, BadReturn)
    if op == "call":
        fn = getattr(mod, req["name"], None)
        if fn is None or not callable(fn):
            raise BadReturn(f"{module_name}.py does not define {req['name']}()")
        args = list(req.get("args", []))
        kwargs = dict(req.get("kwargs", {}))
        if "kernel" in req:
            args.insert(req["kernel_pos"], _kernel(req["kernel"]))
        before = copy.deepcopy(args[:2])
        r = fn(*args, **kwargs)
        modified = before != args[:2]
        return {"ok": _wire(_shape_result(req.get("returns", "w_b"), r)), "modified": bool(modified)}
    if op == "new":
        cls = getattr(mod, req["name"], None)
        if cls is None:
            raise BadReturn(f"{module_name}.py does not define {req['name']}")
        state["obj"] = cls(*req.get("args", []))
        return {"ok": {}}
    if op in ("predict", "update"):
        obj = state.get("obj")
        if obj is None:
            raise BadReturn("no object")
        x = list(req["x"])
        before = list(x)
        if op == "predict":
            r = obj.predict(x)
            return {"ok": _wire({"label": _num(r)}), "modified": before != x, "watched": {"x": x}}
        obj.update(x, req["y"])
        return {"ok": {}, "modified": before != x, "watched": {"x": x}}
    return {"error": "protocol", "message": f"unknown op {op}"}


def _answer(mod, module_name, req, state):
    try:
        ans = dispatch(mod, module_name, req, state)
        watched = ans.pop("watched", None)
        if watched is not None:
            ans["inputs"] = {k: digest.echo(v) for k, v in watched.items()}     # the grader hashes them
        return ans
    except BadReturn as e:
        return {"error": "bad-return", "message": str(e)}
    except RecursionError as e:
        return {"error": "exception", "message": _short_tb(e)}
    except OSError as e:
        if e.errno == 27:  # EFBIG: RLIMIT_FSIZE reached (Python ignores SIGXFSZ)
            return {"error": "output", "message": "output limit exceeded (too much printing or file writing)"}
        return {"error": "exception", "message": _short_tb(e)}
    except MemoryError:
        return {"error": "memory", "message": "MemoryError: the memory limit was reached"}
    except BaseException as e:  # noqa: BLE001 - SystemExit too: a submission may call exit()
        if isinstance(e, SystemExit):
            return {"error": "exit", "message": f"called exit({str(e.code)[:100]})"}
        return {"error": "exception", "message": _short_tb(e)}


# --- start-up -----------------------------------------------------------------------------
class _SourceOnly(importlib.machinery.SourceFileLoader):
    """The submission's modules compiled from their source every time: a ``__pycache__`` or a
    ``.pyc`` never stands in for the code the student shows."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)


def _source_only_hook(top):
    """A path hook for the submission's directory (and its packages): ``.py`` files only, through
    :class:`_SourceOnly` -- no bytecode, no sourceless ``.pyc``, no extension module of the student's."""
    top = os.path.abspath(top)

    def hook(path):
        p = os.path.abspath(path or ".")
        if p == top or p.startswith(top + "/"):
            return importlib.machinery.FileFinder(p, (_SourceOnly, [".py"]))
        raise ImportError("not the submission's directory")
    return hook


def _load(cfg, view, inert=None):
    module = cfg["module"]
    sys.dont_write_bytecode = True
    sys.path_hooks.insert(0, _source_only_hook(os.getcwd()))
    sys.path_importer_cache.clear()
    sys.path.insert(0, os.getcwd())
    if inert is not None and cfg.get("harmless"):     # [limits] harmless_imports: inert stand-ins
        inert.install([str(n) for n in cfg["harmless"]], sys.meta_path)
    if cfg["jail"].get("packages_at"):     # container mode: <box>/pkgs (sandbox/_landlock.py)
        sys.path.append(cfg["jail"]["packages_at"])
    elif view:
        sys.path.append("/packages")
    else:   # --insecure without a file-system view: the allowed packages' own directories
        for p in cfg.get("package_dirs", []):
            if p not in sys.path:
                sys.path.append(p)
    sys.argv = [module + ".py"]
    path = os.path.join(os.getcwd(), module + ".py")
    if not os.path.exists(path):
        _send({"ready": False, "error": "missing", "message": f"no file {module}.py in the submission"})
        return None
    try:
        spec = importlib.util.spec_from_file_location(module, path, loader=_SourceOnly(module, path))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[module] = mod
        spec.loader.exec_module(mod)
    except BaseException as e:  # noqa: BLE001 - anything the student's module does at import
        _send({"ready": False, "error": "import", "message": _short_tb(e)})
        return None
    _send({"ready": True})
    return mod


def main():
    cfg = _recv()
    if cfg is None:
        return
    jail = _sibling("_jail")
    seccomp = _sibling("_seccomp")
    view = _sibling("_view")
    plan = _sibling("_plan_child")      # loaded now: this directory is out of the worker's view later
    inert = _sibling("_inert") if cfg.get("harmless") else None
    global digest
    digest = _sibling("_digest")
    try:
        armed = jail.setup(cfg["jail"], _send, REQ_FD, RESP_FD, seccomp.install, view.build, _sibling("_landlock"))
    except jail.LayerError as e:
        _send({"armed": False, "layer": e.layer, "reason": e.reason[:300]})
        return
    except Exception as e:  # noqa: BLE001 - reported to the grader, which refuses to go on
        _send({"armed": False, "layer": "setup", "reason": f"{type(e).__name__}: {e}"[:300]})
        return
    if TEMPLATE:
        _sibling("_template_child").after_jail(cfg, armed, _sibling("_landlock"))
    _send({"armed": armed})
    go = _recv()
    if not go or go.get("op") != "load":
        return
    mod = _load(cfg, armed["view"] and armed["mode"] != "landlock", inert)
    if mod is None:
        return
    state = {"plan": plan}
    while True:
        req = _recv()
        if req is None or req.get("op") == "quit":
            return
        ans = _answer(mod, cfg["module"], req, state)
        ans["id"] = req.get("id")
        try:
            _send(ans)
        except (TypeError, ValueError) as e:
            _send({"id": req.get("id"), "error": "bad-return", "message": f"cannot send the answer: {e}"[:300]})


if __name__ == "__main__":
    if TEMPLATE:        # a preloaded template: forks one worker per request (sandbox/_template_child.py)
        _sibling("_template_child").serve(int(sys.argv[2]), sys.modules[__name__])
    else:
        main()
