"""Shared pieces of the red-team tests (tests/test_grading_redteam*.py): running the real
``mistakebound grade`` command, optionally with fewer privileges, and reading what it wrote."""
import csv
import ctypes
import json
import os
import stat
import subprocess
import sys

import pytest

ROOT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
IN_CI = os.environ.get("CI") == "1"
CAP_SYS_ADMIN = 21
NOBODY = 65534
GOOD = '''
def train(X, y, epochs=1):
    w = [0.0] * len(X[0]); b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w = [a + t * c for a, c in zip(w, x)]; b += t
    return w, b
'''
# imports the grader's own reference learner (from wherever the grader's packages live)
CHEAT = f'''
import sys
for p in {[ROOT_DIR] + [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]!r}:
    sys.path.append(p)

def train(X, y, epochs=1):
    from learners import run_perceptron
    t = run_perceptron(X, y, epochs=epochs, bias=True, exact=False)
    return [float(v) for v in t.weights], float(t.bias)
'''


def isolation_or_skip(spec_path):
    """Skip (outside CI) when this machine cannot isolate at all: the grader would refuse."""
    from grading.running.preflight import preflight
    from sandbox.isolation import IsolationUnavailable
    from grading.spec.spec import load_spec
    try:
        preflight(load_spec(spec_path))
    except IsolationUnavailable as e:
        if IN_CI:
            raise
        pytest.skip(f"this machine cannot isolate a worker: {e.line()[:200]}")


def grade(args, preexec=None, env=None, timeout=300):
    cmd = [sys.executable, "-m", "mistakebound", "grade", "--no-progress"] + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, preexec_fn=preexec,
                          env=env, cwd=ROOT_DIR)


def read_out(out):
    """{folder: (results.json as dict, feedback.md text, sizes)} plus the manifest and summary."""
    res = {}
    for name in sorted(os.listdir(out)):
        d = os.path.join(out, name)
        if os.path.isdir(d):
            rj = os.path.join(d, "results.json")
            fb = os.path.join(d, "feedback.md")
            res[name] = {"results": json.load(open(rj)) if os.path.exists(rj) else None,
                         "feedback": open(fb, encoding="utf-8").read() if os.path.exists(fb) else None,
                         "sizes": (os.path.getsize(rj) if os.path.exists(rj) else -1,
                                   os.path.getsize(fb) if os.path.exists(fb) else -1)}
    manifest = list(csv.DictReader(open(os.path.join(out, "manifest.csv")))) if os.path.exists(
        os.path.join(out, "manifest.csv")) else []
    summary = list(csv.DictReader(open(os.path.join(out, "summary.csv")))) if os.path.exists(
        os.path.join(out, "summary.csv")) else []
    return res, manifest, summary


def visible_outputs(results):
    return [t["output"] for t in results["tests"] if t["visibility"] == "visible"]


# --- fewer privileges, in a subprocess -------------------------------------------------------------
_libc = ctypes.CDLL(None, use_errno=True)


def _block_user_namespaces():
    """A seccomp filter like Docker's default profile: unshare/clone with CLONE_NEWUSER -> EPERM."""
    from sandbox import _seccomp as sc
    arch = sc._arch()
    col = 0 if arch == "x86_64" else 1
    unshare_nr, clone_nr = sc._NR["unshare"][col], sc._CLONE[col]
    prog = [(sc._LD_W_ABS, 0, 0, sc._OFF_ARCH), (sc._JEQ_K, 1, 0, sc.AUDIT_ARCH[arch]),
            (sc._RET_K, 0, 0, sc.RET_ALLOW), (sc._LD_W_ABS, 0, 0, sc._OFF_NR),
            (sc._JEQ_K, 1, 0, unshare_nr), (sc._JEQ_K, 0, 3, clone_nr),
            (sc._LD_W_ABS, 0, 0, sc._OFF_ARG0), (sc._JSET_K, 0, 1, 0x10000000),
            (sc._RET_K, 0, 0, sc.RET_ERRNO | 1), (sc._RET_K, 0, 0, sc.RET_ALLOW)]
    arr = (sc._SockFilter * len(prog))(*[sc._SockFilter(*p) for p in prog])
    fprog = sc._SockFprog(len(prog), ctypes.cast(arr, ctypes.POINTER(sc._SockFilter)))
    if _libc.prctl(sc.PR_SET_SECCOMP, sc.SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp")


def _docker_default_filter():
    """Docker's default seccomp profile, as far as namespaces and mounts go: ``unshare``, ``setns``,
    ``mount``, ``umount2``, ``pivot_root`` and ``clone`` with any CLONE_NEW* flag answer EPERM, and
    ``clone3`` ENOSYS (the C library then falls back to ``clone``).  Everything else (Landlock,
    seccomp, setuid) is allowed, as in the profile."""
    from sandbox import _seccomp as sc
    arch = sc._arch()
    col = 0 if arch == "x86_64" else 1
    eperm = sc.RET_ERRNO | 1
    prog = [(sc._LD_W_ABS, 0, 0, sc._OFF_ARCH), (sc._JEQ_K, 1, 0, sc.AUDIT_ARCH[arch]),
            (sc._RET_K, 0, 0, sc.RET_ALLOW), (sc._LD_W_ABS, 0, 0, sc._OFF_NR)]
    for name in ("unshare", "setns", "mount", "umount2", "pivot_root", "open_tree", "move_mount", "fsopen",
                 "fsmount", "mount_setattr"):
        prog += [(sc._JEQ_K, 0, 1, sc._NR[name][col]), (sc._RET_K, 0, 0, eperm)]
    prog += [(sc._JEQ_K, 0, 1, sc._NOSYS["clone3"][col]), (sc._RET_K, 0, 0, sc.RET_ERRNO | 38)]
    prog += [(sc._JEQ_K, 0, 3, sc._CLONE[col]), (sc._LD_W_ABS, 0, 0, sc._OFF_ARG0),
             (sc._JSET_K, 0, 1, sc.CLONE_NEW_ANY), (sc._RET_K, 0, 0, eperm), (sc._RET_K, 0, 0, sc.RET_ALLOW)]
    arr = (sc._SockFilter * len(prog))(*[sc._SockFilter(*p) for p in prog])
    fprog = sc._SockFprog(len(prog), ctypes.cast(arr, ctypes.POINTER(sc._SockFilter)))
    if _libc.prctl(sc.PR_SET_SECCOMP, sc.SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp")


def _drop_cap_now(cap):
    """Drop ``cap`` from the bounding set and from the effective, permitted and inheritable sets."""
    if _libc.prctl(24, cap, 0, 0, 0) != 0:   # PR_CAPBSET_DROP
        raise OSError(ctypes.get_errno(), "PR_CAPBSET_DROP")

    class Hdr(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]
    hdr, data = Hdr(0x20080522, 0), (Data * 2)()
    if _libc.capget(ctypes.byref(hdr), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    word, bit = divmod(cap, 32)
    for f in ("effective", "permitted", "inheritable"):
        setattr(data[word], f, getattr(data[word], f) & ~(1 << bit))
    if _libc.capset(ctypes.byref(hdr), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def docker_like():
    """For subprocess (root): the restrictions a Docker container runs under by default -- no
    CAP_SYS_ADMIN (bounding, effective, permitted), and a seccomp filter refusing namespaces and
    mounts (``_docker_default_filter``).  The filter is installed first, while CAP_SYS_ADMIN still
    allows a filter without no_new_privs (as Docker's runtime does)."""
    def run():
        _docker_default_filter()
        _drop_cap_now(CAP_SYS_ADMIN)
    return run


def _reachable(paths):
    """In a private mount namespace, make ``paths`` reachable for an ordinary user: every ancestor
    the user cannot enter (e.g. /root, mode 0700, when Python lives in /root/.pyenv) is covered by
    an empty tmpfs into which only the needed child is bound back.  The host is not changed."""
    if _libc.unshare(0x00020000) != 0 or _libc.mount(None, b"/", None, 16384 | (1 << 18), None) != 0:
        raise OSError(ctypes.get_errno(), "mount namespace")
    todo = {}
    for p in paths:
        parts = os.path.realpath(p).strip("/").split("/")
        for i in range(1, len(parts)):
            anc = "/" + "/".join(parts[:i])
            if not os.stat(anc).st_mode & stat.S_IXOTH:
                todo.setdefault(anc, set()).add("/" + "/".join(parts[:i + 1]))
                break
    for anc, kids in todo.items():
        fds = {k: os.open(k, os.O_PATH) for k in kids}
        if _libc.mount(b"tmpfs", anc.encode(), b"tmpfs", 0, b"mode=0755") != 0:
            raise OSError(ctypes.get_errno(), f"tmpfs on {anc}")
        for k, fd in fds.items():
            (os.mkdir if os.path.isdir(f"/proc/self/fd/{fd}") else (lambda q: open(q, "w").close()))(k)
            if _libc.mount(f"/proc/self/fd/{fd}".encode(), k.encode(), None, 4096 | 16384, None) != 0:
                raise OSError(ctypes.get_errno(), f"bind {k}")


def _block_landlock():
    """A seccomp filter answering ENOSYS to the Landlock calls (a kernel without Landlock)."""
    from sandbox import _seccomp as sc
    arch = sc._arch()
    prog = [(sc._LD_W_ABS, 0, 0, sc._OFF_ARCH), (sc._JEQ_K, 1, 0, sc.AUDIT_ARCH[arch]),
            (sc._RET_K, 0, 0, sc.RET_ALLOW), (sc._LD_W_ABS, 0, 0, sc._OFF_NR)]
    for nr in (444, 445, 446):
        prog += [(sc._JEQ_K, 0, 1, nr), (sc._RET_K, 0, 0, sc.RET_ERRNO | 38)]
    prog.append((sc._RET_K, 0, 0, sc.RET_ALLOW))
    arr = (sc._SockFilter * len(prog))(*[sc._SockFilter(*p) for p in prog])
    fprog = sc._SockFprog(len(prog), ctypes.cast(arr, ctypes.POINTER(sc._SockFilter)))
    if _libc.prctl(38, 1, 0, 0, 0) != 0 or \
            _libc.prctl(sc.PR_SET_SECCOMP, sc.SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp")


def landlock_abi() -> int:
    """This kernel's Landlock ABI (0: none)."""
    _libc.syscall.restype = ctypes.c_long
    return max(int(_libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))), 0)


def preexec(*, drop_sys_admin=False, block_userns=False, nobody=False, docker=False, no_landlock=False):
    """For subprocess: root without CAP_SYS_ADMIN (dropped from the bounding set, so the command
    starts without it), user namespaces refused, and/or uid/gid nobody; ``docker``: Docker's default
    restrictions (``docker_like``); ``no_landlock``: the Landlock calls answer ENOSYS."""
    import grading
    paths = [sys.base_prefix, sys.prefix, ROOT_DIR, os.path.dirname(os.path.dirname(grading.__file__))]

    def run():
        if nobody:
            _reachable(paths)
        if docker:
            docker_like()()
        if no_landlock:
            _block_landlock()
        if block_userns:
            _block_user_namespaces()
        if drop_sys_admin and _libc.prctl(24, CAP_SYS_ADMIN, 0, 0, 0) != 0:   # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "PR_CAPBSET_DROP")
        if nobody:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
    return run


def world_dir(tmp_root, name):
    """A directory an ordinary user can read (and, for ``out``, write), outside pytest's 0700 tmp."""
    import tempfile
    d = tempfile.mkdtemp(prefix=f"mb-redteam-{name}-", dir=tmp_root)
    os.chmod(d, 0o777)
    return d
