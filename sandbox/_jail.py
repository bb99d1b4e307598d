"""The worker's own isolation, set up before any student code is loaded (standard library only).

Loaded by ``_child.py`` from this directory by path; it runs as the first thing in the worker.
Layers, in order:

1. **Namespaces.**  As root with CAP_SYS_ADMIN: new mount, PID, IPC, UTS and network namespaces
   (``unshare``).  Otherwise (root without CAP_SYS_ADMIN, an ordinary user): a new *user*
   namespace with the same five, in which the worker's uid is mapped to 1000; as root the worker
   first drops to its own uid ``UID_BASE + pid``.  Then ``fork``: the child is PID 1 of the new
   PID namespace (when it dies the kernel kills every process left in it); the outer process only
   waits and reports.
2. **Allow-list file-system view** (``_view.py``): a new root holding only the Python standard
   library, the shared libraries, the allowed packages, four device nodes, a fresh ``/proc`` and
   ``/work`` (a size-capped tmpfs with a copy of the submission: the only writable place).
3. **Credentials.**  Root: no groups, the per-worker uid/gid.  User namespace: every capability
   dropped (effective, permitted, inheritable, ambient, bounding set).
4. **Resource limits** (CPU, address space, processes, file size, open files, no core dumps).
5. **no_new_privs and the seccomp filter** (``_seccomp.py``).

A layer that cannot be set up is reported as ``{"armed": false, "layer": ..., "reason": ...}``
and the worker exits, unless the grader runs with ``--insecure``: then it is listed under
``missing`` and the worker goes on without it.
"""
import ctypes
import errno
import os
import resource
import signal
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 1, 4, 24, 47, 4
UID_BASE = 3_000_000
_MAPS_FAILED = "the user namespace's id maps could not be written"
INSIDE_ID = 1000


class LayerError(Exception):
    def __init__(self, layer, reason):
        super().__init__(f"{layer}: {reason}")
        self.layer = layer
        self.reason = reason


class _State:
    def __init__(self, cfg, send):
        self.cfg = cfg
        self.send = send
        self.insecure = bool(cfg.get("insecure"))
        self.missing = []
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.mode = "none"
        self.namespaces = []
        self.uid = None
        self.host_uid = os.geteuid()
        self.inside_root = False
        self.view = False
        self.proc = False
        self.landlock = 0               # the Landlock ABI used (container mode), 0 when none
        self.landlock_abi = lambda libc: 0
        self.no_namespaces = ""

    def fail(self, layer, reason):
        if not self.insecure:
            raise LayerError(layer, reason)
        self.missing.append([layer, reason[:300]])

    def err(self, what):
        e = ctypes.get_errno()
        return f"{what}: {os.strerror(e)} (errno {e})"

    def mount(self, src, dst, fstype, flags, data=None):
        enc = (lambda s: None if s is None else os.fsencode(s))
        if self.libc.mount(enc(src), enc(dst), enc(fstype), flags, enc(data)) != 0:
            raise OSError(ctypes.get_errno(), self.err(f"mount {dst}"))


def _pdeathsig(libc):
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _write(path, text):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


# --- 1. namespaces -------------------------------------------------------------------------
def _namespaces(st):
    cfg = st.cfg
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | (0 if cfg.get("network") else CLONE_NEWNET)
    names = ["mount", "pid", "ipc", "uts"] + ([] if cfg.get("network") else ["net"])
    root = os.geteuid() == 0
    if not cfg.get("namespaces", True):
        st.fail("namespaces", "disabled in the sandbox limits")
        return
    if root and st.libc.unshare(flags) == 0:
        st.mode, st.namespaces = "root", names
        return
    if root and st.uid is not None:
        why = _userns_mapped_by_helper(st)
        st.inside_root = why is None
    else:
        why = _userns_self_mapped(st)
    if why is _MAPS_FAILED:     # inside a user namespace without maps (--insecure): nothing more here
        return
    if why is None:
        if st.libc.unshare(flags) != 0:
            st.fail("namespaces", st.err("unshare in the user namespace"))
            return
        st.mode, st.namespaces = "userns", ["user"] + names
        return
    # no namespace can be made here (a container's seccomp profile, user namespaces refused):
    # the same allow-list through Landlock, under the worker's own uid (root) or the grader's
    st.landlock = st.landlock_abi(st.libc)
    if st.landlock >= 1 and (root and st.uid is not None or st.landlock >= 6):
        st.mode, st.no_namespaces = "landlock", why
        return
    if st.landlock >= 1:
        why += "; Landlock cannot scope the worker's signals here (ABI 6, Linux 6.12, needed under the grader's uid)"
    else:
        why += "; Landlock, the view without namespaces, is not available either (Linux 5.13 and later)"
    st.fail("namespaces", why)


def _userns_self_mapped(st):
    """An ordinary user: a user namespace in which its own uid is 1000 (the only id mapped)."""
    euid, egid = os.geteuid(), os.getegid()
    if st.libc.unshare(CLONE_NEWUSER) != 0:
        return st.err("unshare(CLONE_NEWUSER)")
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{INSIDE_ID} {euid} 1")
        _write("/proc/self/gid_map", f"{INSIDE_ID} {egid} 1")
    except OSError as e:
        st.fail("namespaces", f"writing the user namespace's id maps: {e.strerror}")
        return _MAPS_FAILED
    return None


def _userns_mapped_by_helper(st):
    """Root without CAP_SYS_ADMIN: a user namespace mapping 0 -> 0 (to set the view up: the
    Python installation may sit below /root) and 1000 -> the per-worker uid (what the student's
    code runs as).  Only a process with CAP_SETUID in the *parent* namespace may write a map of
    more than its own id, so a helper left outside writes it, like newuidmap(1)."""
    go_r, go_w = os.pipe()
    done_r, done_w = os.pipe()
    me = os.getpid()
    helper = os.fork()
    if helper == 0:   # the helper: still root in the grader's user namespace
        code = 1
        try:
            os.close(go_w)
            os.close(done_r)
            if os.read(go_r, 1) == b"u":
                _write(f"/proc/{me}/uid_map", f"0 0 1\n{INSIDE_ID} {st.uid} 1\n")
                _write(f"/proc/{me}/gid_map", f"0 0 1\n{INSIDE_ID} {st.uid} 1\n")
                code = 0
        except OSError:
            code = 2
        os.write(done_w, bytes([code]))
        os._exit(0)
    os.close(go_r)
    os.close(done_w)
    ok = st.libc.unshare(CLONE_NEWUSER) == 0
    why = "" if ok else st.err("unshare(CLONE_NEWUSER)")
    os.write(go_w, b"u" if ok else b"x")
    os.close(go_w)
    res = os.read(done_r, 1)
    os.close(done_r)
    os.waitpid(helper, 0)
    if not ok:
        return why
    if res != b"\x00":
        st.fail("namespaces", "the helper could not write the user namespace's id maps")
        return _MAPS_FAILED
    return None


def _drop_to(uid):
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


# --- 3.-5. ---------------------------------------------------------------------------------
_RLIMITS = (("cpu", resource.RLIMIT_CPU), ("as", resource.RLIMIT_AS), ("nproc", resource.RLIMIT_NPROC),
            ("fsize", resource.RLIMIT_FSIZE), ("nofile", resource.RLIMIT_NOFILE), ("core", resource.RLIMIT_CORE))


def _rlimits(st):
    lim = st.cfg.get("limits", {})
    done = []
    for key, r in _RLIMITS:
        if lim.get(key) is None:
            continue
        v = int(lim[key])
        try:
            resource.setrlimit(r, (v, v))
            done.append(key)
        except (ValueError, OSError) as e:
            st.fail("rlimits", f"setrlimit {key}: {e}")
    return done


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _drop_bounding(st):
    for cap in range(64):
        if st.libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == errno.EINVAL:
            break
    st.libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)


def _clear_caps(st):
    hdr = _CapHeader(0x20080522, 0)
    data = (_CapData * 2)()
    if st.libc.capset(ctypes.byref(hdr), data) != 0:
        raise OSError(ctypes.get_errno(), st.err("capset"))


def _credentials(st):
    """Drop to the identity the student's code runs as; returns how the report names it."""
    if st.mode == "root":
        if st.uid is None:
            st.fail("user", "per-worker uids are switched off (Limits.separate_user)")
            return "unchanged"
        _drop_bounding(st)       # needs CAP_SETPCAP: before the uid changes
        _drop_to(st.uid)
        _clear_caps(st)
        return f"uid {st.uid}"
    if st.mode == "userns":
        _drop_bounding(st)
        if st.inside_root:       # mapped by the helper: 0 -> 0 for the set-up, 1000 -> the worker's uid
            _drop_to(INSIDE_ID)
        _clear_caps(st)
        return f"uid {st.uid}" if st.inside_root else "user namespace"
    if os.geteuid() == 0 and st.uid is not None:
        _drop_bounding(st)
        _drop_to(st.uid)
        _clear_caps(st)
        return f"uid {st.uid}"
    if st.mode == "landlock" and os.geteuid() != 0:
        return "unchanged"       # an ordinary user's own uid; Landlock scopes its signals and sockets
    st.fail("user", "the worker runs as the grader's own user")
    return "unchanged"


def _container(st, landlock):
    """Container mode (no namespaces could be made): the interpreter pointed at the allowed
    directories through descriptors opened now, and the Landlock ruleset, built while they can
    still be opened (``_landlock``).  Without Landlock (--insecure) the first step still lets the
    worker's own uid import the standard library from below a directory it cannot enter."""
    cfg = st.cfg
    root = os.geteuid() == 0
    if landlock is not None and (st.mode == "landlock" or root and st.uid is not None):
        if root:
            os.chown(cfg["box"], 0, 0)     # the grader's; the worker's uid may only pass through it
            os.chmod(cfg["box"], 0o711)
        cfg["packages_at"] = landlock.reach(cfg, cfg["box"], cfg.get("stdlib", []), sys)
    ruleset = None
    if st.mode == "landlock":
        try:
            ruleset = landlock.build(st.libc, st.landlock, cfg, cfg["src"])
        except OSError as e:
            st.fail("filesystem view", str(e))
    else:
        st.fail("filesystem view", "needs the mount namespace, or Landlock")
    os.chdir(cfg["src"])
    return ruleset


def setup(cfg, send, req_fd, resp_fd, seccomp_install, build_view, landlock=None):
    """Build every layer; returns (in the worker's PID-1 process) the record sent as ``armed``.
    The outer process never returns: it waits for the worker and exits with its status."""
    st = _State(cfg, send)
    if landlock is not None:
        st.landlock_abi = landlock.abi
    _pdeathsig(st.libc)
    root = os.geteuid() == 0
    if root and cfg.get("separate_user", True):
        st.uid = UID_BASE + os.getpid()
        for dirpath, dirnames, filenames in os.walk(cfg["box"]):
            for n in [dirpath] + [os.path.join(dirpath, f) for f in dirnames + filenames]:
                os.lchown(n, st.uid, st.uid)
    _namespaces(st)
    sync_r, sync_w = os.pipe()
    pid = os.fork()
    if pid > 0:
        os.close(sync_r)
        send({"outer": {"pid": pid, "uid": st.uid if st.uid is not None else st.host_uid, "mode": st.mode}})
        os.close(sync_w)
        os.close(req_fd)
        os.close(resp_fd)
        _outer_wait(pid, (cfg.get("limits") or {}).get("cpu"))
    os.close(sync_w)
    os.read(sync_r, 1)           # the outer process has reported this process's pid
    os.close(sync_r)
    _pdeathsig(st.libc)
    ruleset = None
    if st.mode in ("root", "userns"):
        try:
            build_view(st, INSIDE_ID)
        except OSError as e:
            st.fail("filesystem view", e.strerror or str(e))
        try:
            st.libc.sethostname(b"sandbox", 7)
        except Exception:  # noqa: BLE001
            pass
    else:
        ruleset = _container(st, landlock)
    if not st.view:
        os.chdir(cfg["src"])
    limits = _rlimits(st)
    user = _credentials(st)
    _pdeathsig(st.libc)          # a change of credentials clears it
    os.umask(0o077)
    if st.view:
        os.chdir("/work")
    if ruleset is not None:
        try:
            ruleset.restrict()
            st.view = True
        except OSError as e:
            st.fail("filesystem view", str(e))
    nnp = seccomp = False
    try:
        seccomp_install(st.libc, bool(cfg.get("network")), fork=bool(cfg.get("fork")), ipc="ipc" in st.namespaces,
                        local="mount" in st.namespaces)
        nnp = seccomp = True
    except OSError as e:
        st.fail("seccomp", str(e))
    return {"mode": st.mode, "namespaces": st.namespaces, "view": st.view, "proc": st.proc, "user": user,
            "uid": st.uid if st.uid is not None else st.host_uid, "no_new_privs": nnp, "seccomp": seccomp,
            "limits": limits, "missing": st.missing, "landlock": st.landlock if st.mode == "landlock" else 0}


def _outer_wait(pid, cpu_limit=None):
    """The outer process: wait for the worker (PID 1 of its namespace) and exit like it.

    A signal that ended the worker ends this process too, so the grader reads the worker's end
    from this process's status.  SIGKILL can have no handler: this process is
    killed with it as it is (setting its action would raise, and this process would exit with
    status 1 -- read by the grader as the student's code ending the process).  The worker is the
    init of a PID namespace: the kernel's SIGXCPU at RLIMIT_CPU is not delivered to it, and the
    limit ends it with SIGKILL; when its CPU time (from wait4) has come near the limit, this
    process ends with SIGXCPU instead, which the grader reports as the CPU time limit.  "Near":
    the kernel checks the limit on its tick-sampled clock, and wait4 reports the scheduler's
    time, a few percent below it on a virtual machine (0.94 s at a limit of 1 s here); nothing
    else sends SIGKILL to the init of the worker's namespace but the grader (which ends this
    process with it and names its own reason) and the memory limit (checked first by the grader)."""
    while True:
        try:
            _, status, usage = os.wait4(pid, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            os._exit(1)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGKILL and cpu_limit and usage.ru_utime + usage.ru_stime >= 0.75 * float(cpu_limit):
            sig = signal.SIGXCPU
        try:
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        except (ValueError, OSError):
            pass
        if sig != signal.SIGKILL:
            try:
                signal.signal(sig, signal.SIG_DFL)
            except (OSError, ValueError):
                sig = signal.SIGKILL
        os.kill(os.getpid(), sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
