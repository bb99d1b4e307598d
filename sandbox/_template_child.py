"""The worker template (standard library only; loaded by ``_child.py`` by path): an interpreter
that has already started, loaded the sandbox's helper modules and imported the allowed packages
the grader names (numpy), and forks one worker per request -- the zygote of Android or of
systemd's nspawn, here so that each worker does not pay for an interpreter and numpy again.

The template never runs a submission's code, never reads a submission and holds nothing secret:
it is started by the grader with a scrubbed environment, stdin, stdout and stderr on /dev/null,
and one private socket.  Each request on that socket brings the worker's three pipe ends (request,
answer, printed output, as SCM_RIGHTS); the template forks, and the child, before anything else:

1. starts a session of its own, puts the printed-output pipe on fds 1 and 2 and closes every other
   descriptor (the template's socket, the pidfds of its other children, the parent's ends), so it
   holds exactly what a freshly started worker holds;
2. draws fresh seeds for ``random`` and numpy's global generator (a fork copies the template's);
3. runs ``_child.main`` exactly as a freshly started worker does: namespaces, the allow-list view,
   credentials, resource limits, seccomp (``_jail.setup``), the grader's check from outside, and
   only then the submission's module.

After the view is built, :func:`after_jail` moves the preloaded packages' module paths to where the
view shows them (``/packages/<name>``), so their lazily imported submodules load from the view.

A fork shares no writable memory with the template (copy-on-write) and the template never runs
code of the child, so nothing a submission does reaches the template or another submission.  The
template answers ``{"pid": ...}`` with a pidfd of the child, and ``{"exit": pid, "rc": ...}``
when a child ends (it is their parent and reaps them); it exits when the grader closes the socket,
and dies with the grader (PR_SET_PDEATHSIG).
"""
import ctypes
import importlib
import json
import os
import select
import signal
import socket
import sys

PR_SET_PDEATHSIG = 1


def _reply(sock, obj, fds=()):
    data = json.dumps(obj).encode()
    if fds:
        socket.send_fds(sock, [data], list(fds))
    else:
        sock.send(data)


def _under(path, roots):
    p = os.path.realpath(path)
    return any(p == r or p.startswith(r.rstrip("/") + "/") for r in roots)


def _preload(cfg):
    """Import the packages to preload from their installed locations only; every module they
    bring must come from the standard library or from the allowed packages themselves (else the
    template would hand a submission a module its view does not show).  Returns a problem or None."""
    saved = list(sys.path)
    before = set(sys.modules)
    sys.path.extend(cfg.get("package_dirs", []))
    try:
        for name in cfg.get("preload", []):
            importlib.import_module(name)
    except Exception as e:  # noqa: BLE001 - reported: the grader then starts workers afresh
        return f"importing the packages failed: {type(e).__name__}: {e}"[:300]
    finally:
        sys.path[:] = saved
        sys.path_importer_cache.clear()
    allowed = [os.path.realpath(p) for p in cfg.get("stdlib", [])] + [os.path.realpath(loc) for loc, _ in cfg.get("packages", [])]
    for name in set(sys.modules) - before:
        f = getattr(sys.modules[name], "__file__", None)
        if f and not _under(f, allowed):
            return f"the module {name} comes from outside the worker's view ({f})"
    if len(os.listdir("/proc/self/task")) != 1:
        return "importing the packages started threads (a fork would copy a process mid-way)"
    with open("/proc/self/maps") as fh:       # a fork shares MAP_SHARED memory with its parent
        shared = [ln.split()[5:] or ["(anonymous)"] for ln in fh if ln.split()[1][1] == "w" and ln.split()[1][3] == "s"]
    if shared:
        return f"the template holds writable shared memory ({shared[0][0]}), which a fork would share"
    return None


def serve(ctrl_fd, child):
    """The template's loop (``child``: the ``_child`` module, run as ``__main__``)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    sock = socket.socket(fileno=ctrl_fd)
    if os.getppid() == 1:
        return
    msg = sock.recv(1 << 20)
    if not msg:
        return
    cfg = json.loads(msg)
    for name in ("_jail", "_seccomp", "_view", "_landlock", "_plan_child", "_digest", "_inert"):
        child._sibling(name)
    import random  # noqa: F401 - loaded once here, seeded afresh in each child
    problem = _preload(cfg)
    _reply(sock, {"template": problem is None, "reason": problem or ""})
    if problem:
        return
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN)
    kids = {}
    while True:
        for fd, _ in poller.poll():
            if fd == sock.fileno():
                try:
                    data, fds, _, _ = socket.recv_fds(sock, 1 << 16, 3)
                except OSError:
                    return
                if not data:
                    return            # the grader closed the socket: the children die with this process
                if len(fds) != 3:
                    for f in fds:
                        os.close(f)
                    _reply(sock, {"pid": None})
                    continue
                req = json.loads(data)
                pid = os.fork()
                if pid == 0:
                    _child_start(child, req, fds)        # never returns
                for f in fds:
                    os.close(f)
                pidfd = os.pidfd_open(pid)
                kids[pidfd] = pid
                poller.register(pidfd, select.POLLIN)
                _reply(sock, {"pid": pid}, [pidfd])
            elif fd in kids:
                pid = kids.pop(fd)
                poller.unregister(fd)
                os.close(fd)
                _, status = os.waitpid(pid, 0)
                _reply(sock, {"exit": pid, "rc": os.waitstatus_to_exitcode(status)})


def _child_start(child, req, fds):
    """In the forked child: hold what a fresh worker holds, then run the worker."""
    code = 0
    try:
        req_r, resp_w, out_w = fds
        os.setsid()
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        keep = sorted({0, 1, 2, req_r, resp_w})
        lo = 0
        for k in keep + [max(os.sysconf("SC_OPEN_MAX"), keep[-1] + 1)]:
            if k > lo:                  # never an empty range (os.closerange(a, a) may close more)
                os.closerange(lo, k)
            lo = k + 1
        child.REQ_FD, child.RESP_FD = req_r, resp_w
        os.chdir(req["cwd"])
        import random
        random.seed()
        np_random = sys.modules.get("numpy.random")
        if np_random is not None:
            np_random.seed()
        child.main()
    except BaseException:  # noqa: BLE001 - the worker ends; the grader sees its pipes close
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        os._exit(code)


def after_jail(cfg, armed, landlock):
    """Inside the view: the preloaded packages' modules point at ``/packages/<name>`` (where the
    view shows them) instead of their host directories, which the worker cannot see."""
    if not armed.get("view") or armed.get("mode") == "landlock":
        return            # container mode: _landlock.reach has pointed them at <box>/pkgs already
    moves = [(loc, "/packages/" + base) for loc, base in cfg["jail"].get("packages", [])]
    landlock.repoint_modules(sys.modules, moves, forget_cached=True)
    sys.path_importer_cache.clear()
