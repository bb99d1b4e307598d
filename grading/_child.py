"""The sandboxed worker: runs ONE submission's code and answers calls over a private pipe.

This file is executed as a script (``python -I -S -B _child.py REQ_FD RESP_FD``) and imports only
the standard library: it must start fast and must not give the student's code a way to reach the
grader's packages (no numpy, no hypothesis, no learners here).

Start-up, in order, before any student code is loaded:

1. read the configuration (first line on the request pipe);
2. when running as root: new mount and network namespaces (``unshare``), hide the grader's files
   behind empty read-only tmpfs mounts (re-binding the Python installation the child needs),
   give the working directory to an unprivileged uid that no other worker uses;
3. resource limits (CPU, address space, processes, file size, open files);
4. drop privileges (setgroups([]), setgid, setuid) when running as root;
5. chdir to the empty working directory, load the student module, say ``ready``.

Then one request per line (JSON), one answer per line (JSON).  The expected outputs never come
here: the parent compares.  Answers are plain numbers; anything else is reported as a bad return.
"""
import copy
import ctypes
import json
import math
import os
import resource
import sys
import traceback

CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000
CLONE_NEWPID = 0x20000000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18

REQ_FD = int(sys.argv[1])
RESP_FD = int(sys.argv[2])
_req = os.fdopen(REQ_FD, "rb", buffering=0)
_resp = os.fdopen(RESP_FD, "wb", buffering=0)
_applied = {}


def _load_plan():
    """grading/_plan_child.py (the contract's call plans), loaded now: the grader's directory is
    hidden once the sandbox is up."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_plan_child.py")
    spec = importlib.util.spec_from_file_location("_mb_plan", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_plan = _load_plan()


def _send(obj):
    data = (json.dumps(obj, allow_nan=True) + "\n").encode()
    view = memoryview(data)
    while view:
        n = os.write(RESP_FD, view)
        view = view[n:]


_buf = b""


def _recv():
    global _buf
    while b"\n" not in _buf:
        chunk = os.read(REQ_FD, 1 << 16)
        if not chunk:
            return None
        _buf += chunk
    line, _buf = _buf.split(b"\n", 1)
    return json.loads(line)


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def _pid_namespace(libc):
    """Become PID 1 of a new PID namespace (fork once; the outer process only waits).

    When the worker dies, the kernel kills and reaps every process left in the namespace: no
    orphan or zombie survives a fork bomb or a setsid() escape, and /proc shows only the worker's
    own processes (the grader's command line and environment are out of sight)."""
    if libc.unshare(CLONE_NEWPID) != 0:
        _applied["pid_namespace"] = False
        return
    pid = os.fork()
    if pid > 0:
        os.close(REQ_FD)
        os.close(RESP_FD)
        libc.prctl(1, 9, 0, 0, 0)
        while True:
            try:
                _, status = os.waitpid(pid, 0)
                break
            except InterruptedError:
                continue
        if os.WIFSIGNALED(status):
            import signal
            sig = os.WTERMSIG(status)
            signal.signal(sig, signal.SIG_DFL)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            os.kill(os.getpid(), sig)
        os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
    if libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | 8, None) == 0:  # 8 = MS_NOEXEC
        _applied["pid_namespace"] = True
    else:
        _applied["pid_namespace"] = "new namespace, host /proc still mounted"


def _isolate(cfg):
    libc = _libc()
    root = os.geteuid() == 0
    if root and libc is not None and cfg.get("namespaces", True):
        flags = CLONE_NEWNS | (CLONE_NEWNET if not cfg.get("network", False) else 0)
        libc.prctl(1, 9, 0, 0, 0)   # PR_SET_PDEATHSIG: die with the grader
        if libc.unshare(flags) == 0:
            _applied["network"] = "blocked (new network namespace)" if flags & CLONE_NEWNET else "allowed"
            ok = libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) == 0
            hidden = []
            if ok:
                keep = [os.path.realpath(p) for p in cfg.get("keep", []) if os.path.isdir(p)]
                keep_fds = {}
                for p in keep:
                    try:
                        keep_fds[p] = os.open(p, os.O_RDONLY | os.O_DIRECTORY)
                    except OSError:
                        pass
                for p in cfg.get("hide", []):
                    rp = os.path.realpath(p)
                    if os.path.isfile(rp):
                        if libc.mount(b"/dev/null", rp.encode(), None, MS_BIND, None) == 0:
                            hidden.append(rp)
                        continue
                    if not os.path.isdir(rp) or rp == "/":
                        continue
                    if libc.mount(b"tmpfs", rp.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                                  b"size=64k,mode=0755") != 0:
                        continue
                    hidden.append(rp)
                    for k, fd in keep_fds.items():
                        if k.startswith(rp.rstrip("/") + "/"):
                            try:
                                os.makedirs(k, exist_ok=True)
                                libc.mount(f"/proc/self/fd/{fd}".encode(), k.encode(), None,
                                           MS_BIND | MS_REC, None)
                            except OSError:
                                pass
                    libc.mount(None, rp.encode(), None, 32 | MS_RDONLY | MS_NOSUID | MS_NODEV, None)  # remount ro
                for fd in keep_fds.values():
                    os.close(fd)
            _applied["hidden_paths"] = hidden
            _pid_namespace(libc)
        else:
            _applied["network"] = "not isolated (unshare failed)"
    else:
        _applied["network"] = "not isolated (needs root)" if not cfg.get("network", False) else "allowed"

    lim = cfg.get("limits", {})
    table = [("cpu", resource.RLIMIT_CPU), ("as", resource.RLIMIT_AS),
             ("nproc", resource.RLIMIT_NPROC), ("fsize", resource.RLIMIT_FSIZE),
             ("nofile", resource.RLIMIT_NOFILE), ("core", resource.RLIMIT_CORE)]
    set_ = []
    for key, r in table:
        if key in lim and lim[key] is not None:
            v = int(lim[key])
            try:
                resource.setrlimit(r, (v, v))
                set_.append(key)
            except (ValueError, OSError):
                pass
    _applied["limits"] = set_

    work = cfg["workdir"]
    uid = cfg.get("uid")
    if root and uid is not None:
        gid = cfg.get("gid", uid)
        os.chown(work, uid, gid)
        for dirpath, dirnames, filenames in os.walk(work):
            for name in dirnames + filenames:
                os.lchown(os.path.join(dirpath, name), uid, gid)
        os.chmod(work, 0o700)
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        _applied["user"] = f"uid {uid}"
    else:
        _applied["user"] = f"uid {os.getuid()} (unchanged)"
    if libc is not None and sys.platform.startswith("linux"):
        libc.prctl(1, 9, 0, 0, 0)   # PR_SET_PDEATHSIG = SIGKILL: die with the grader (set after setuid)
    os.chdir(work)
    os.umask(0o077)


# --- plain numbers in and out ---------------------------------------------------------
class BadReturn(Exception):
    pass


def _num(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return v
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


def main():
    cfg = _recv()
    if cfg is None:
        return
    _isolate(cfg)
    sys.path.insert(0, os.getcwd())
    for p in cfg.get("sys_path", []):
        sys.path.append(p)
    sys.argv = [cfg["module"] + ".py"]
    mod = None
    try:
        import importlib.util
        path = os.path.join(os.getcwd(), cfg["module"] + ".py")
        if not os.path.exists(path):
            _send({"ready": False, "error": "missing", "message": f"no file {cfg['module']}.py in the submission",
                   "isolation": _applied})
            return
        spec = importlib.util.spec_from_file_location(cfg["module"], path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[cfg["module"]] = mod
        spec.loader.exec_module(mod)
    except BaseException as e:  # noqa: BLE001 - anything the student's module does at import
        _send({"ready": False, "error": "import", "message": _short_tb(e), "isolation": _applied})
        return
    _send({"ready": True, "isolation": _applied})

    obj = None
    while True:
        req = _recv()
        if req is None or req.get("op") == "quit":
            return
        op = req.get("op")
        try:
            if op == "call":
                fn = getattr(mod, req["name"], None)
                if fn is None or not callable(fn):
                    raise BadReturn(f"{cfg['module']}.py does not define {req['name']}()")
                args = list(req.get("args", []))
                kwargs = dict(req.get("kwargs", {}))
                if "kernel" in req:
                    args.insert(req["kernel_pos"], _kernel(req["kernel"]))
                before = copy.deepcopy(args[:2])
                r = fn(*args, **kwargs)
                modified = before != args[:2]
                _send({"ok": _wire(_shape_result(req.get("returns", "w_b"), r)), "modified": modified})
            elif op == "plan":
                _send(_plan.run(mod, cfg["module"], req, _kernel, BadReturn))
            elif op == "new":
                cls = getattr(mod, req["name"], None)
                if cls is None:
                    raise BadReturn(f"{cfg['module']}.py does not define {req['name']}")
                obj = cls(*req.get("args", []))
                _send({"ok": {}})
            elif op in ("predict", "update"):
                if obj is None:
                    raise BadReturn("no object")
                x = list(req["x"])
                before = list(x)
                if op == "predict":
                    r = obj.predict(x)
                    _send({"ok": {"label": _num(r)}, "modified": before != x})
                else:
                    obj.update(x, req["y"])
                    _send({"ok": {}, "modified": before != x})
            else:
                _send({"error": "protocol", "message": f"unknown op {op}"})
        except BadReturn as e:
            _send({"error": "bad-return", "message": str(e)})
        except RecursionError as e:
            _send({"error": "exception", "message": _short_tb(e)})
        except OSError as e:
            if e.errno == 27:  # EFBIG: RLIMIT_FSIZE reached (Python ignores SIGXFSZ)
                _send({"error": "output", "message": "output limit exceeded (too much printing or file writing)"})
            else:
                _send({"error": "exception", "message": _short_tb(e)})
        except MemoryError:
            _send({"error": "memory", "message": "MemoryError: the memory limit was reached"})
        except BaseException as e:  # noqa: BLE001 - SystemExit too: a submission may call exit()
            if isinstance(e, SystemExit):
                _send({"error": "exit", "message": f"called exit({e.code})"})
            else:
                _send({"error": "exception", "message": _short_tb(e)})


if __name__ == "__main__":
    main()
