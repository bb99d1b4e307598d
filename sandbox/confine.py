"""Confining a process that will run untrusted code: it may read, but write only in one directory.

A user's theorem file (``mistakebound verify --file``) is Python that runs in a process of its
own; what it hands back is decided by the checker elsewhere.  That is sound only if the file
cannot reach what the checking process reads later: the proof cache, the suite's sources (the
checker's rule table, ``proofs/kernel/rules.py``), the site directories a later interpreter loads.
:func:`confine` restricts the calling process, irrevocably and before the untrusted code runs:

* **landlock** (Salaün, Linux 5.13, 2021; ``sandbox._landlock``): read and execute anywhere,
  write (create, remove, rename, truncate) only beneath ``writable`` and to four device nodes;
  no TCP bind or connect (ABI 4); no signal to a process outside the domain and no abstract UNIX
  socket outside it (ABI 6).  A Landlock domain cannot be left: not by root, not through a new
  namespace (mounts are refused inside it), and ``ptrace`` reaches only processes inside it.
* **namespaces** (where Landlock is not available): a user namespace with its own mount, network
  and PID namespaces; every mount made read-only, ``writable`` bound writable again, then
  every capability dropped (with ``no_new_privs``), so the flags cannot be cleared
  (``mount_setattr``, Linux 5.12; a user namespace made later gets the mounts with their flags
  locked).
  The process then forks: the child, PID 1 of the new PID namespace, cannot name (signal, trace)
  any process outside it, and ``/proc/<pid>/mem`` of the outside is on a read-only mount.
* **reduced**: neither could be set up; nothing is confined, and the caller must say so.

The caller must be single-threaded (``unshare`` of a user namespace and ``landlock_restrict_self``
apply to the calling thread only).  Standard library only.
"""
from __future__ import annotations

import ctypes
import os

__all__ = ["confine", "possible", "read_record", "LEVELS"]

LEVELS = {"landlock": "landlock (it could write only in its own temporary directory)",
          "namespaces": "namespaces (a read-only view of the file system but its own temporary directory)",
          "reduced": "reduced (neither Landlock nor namespaces could confine it: it could write anywhere "
                     "this user can)"}

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x00020000, 0x10000000, 0x20000000, 0x40000000
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
NR_MOUNT_SETATTR = 442                 # x86_64 and aarch64 alike
AT_FDCWD, AT_RECURSIVE = -100, 0x8000
MOUNT_ATTR_RDONLY = 1
DEVICES = ("null", "zero", "random", "urandom")


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, PR_SET_NO_NEW_PRIVS, PR_SET_PDEATHSIG = 24, 47, 4, 38, 1


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _drop_capabilities(libc) -> bool:
    """No capability left, none to be regained (the bounding and ambient sets emptied): root's
    powers beyond its files (modules, raw devices, tracing) are gone."""
    for cap in range(64):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            break
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    hdr = _CapHeader(0x20080522, 0)
    data = (_CapData * 2)()
    return libc.capset(ctypes.byref(hdr), data) == 0


def _libc():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _err(what: str) -> str:
    e = ctypes.get_errno()
    return f"{what}: {os.strerror(e) if e else 'refused'}"


def confine(writable: str, *, landlock: bool = True, namespaces: bool = True) -> dict:
    """Confine the calling process (single-threaded) to writes beneath ``writable``.

    Returns the record ``{"level": "landlock" | "namespaces" | "reduced", "network": ...,
    "landlock": ABI version, "why": why a layer is missing, "forked": True when this process is
    now the child in a new PID namespace}``.  ``landlock``/``namespaces`` False skip that layer
    (tests: each alone)."""
    writable = os.path.realpath(writable)
    rec = {"level": "reduced", "network": "host", "landlock": 0, "why": [], "forked": False}
    try:
        libc = _libc()
    except (OSError, AttributeError) as e:
        rec["why"].append(f"no C library to call: {e}")
        return rec
    for name, on, layer in (("landlock", landlock, _landlock), ("namespaces", namespaces, _namespaces)):
        if not on:
            continue
        try:
            why = layer(libc, writable, rec)
        except Exception as e:  # noqa: BLE001 - a layer that cannot be set up is reported, never fatal
            why = f"{name}: {type(e).__name__}: {e}"
        if why is None:
            rec["level"] = name
            return rec
        rec["why"].append(why)
    return rec


def possible() -> set:
    """The levels this system allows, found by the caller itself, without confining it: Landlock's
    ABI (a query with no effect) and a user namespace made by a forked child that exits at once.
    The caller compares the level a confined process reports with these: the record is written
    before the untrusted code runs, but where nothing confines it, that code could replace it."""
    out = {"reduced"}
    try:
        libc = _libc()
    except (OSError, AttributeError):
        return out
    from sandbox import _landlock as ll
    try:
        if ll.abi(libc) >= 2:
            out.add("landlock")
    except (AttributeError, OSError):
        pass
    try:
        pid = os.fork()
    except OSError:
        return out
    if pid == 0:                     # the probe: one unshare, then gone
        code = 1
        try:
            code = 0 if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID) == 0 else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        out.add("namespaces")
    return out


def read_record(raw: bytes, allowed, who: str) -> dict:
    """How a confined process says it was confined, read by its parent: the record it sent before
    it ran anything untrusted.  No record, one of another shape, or a level this system does not
    allow (``allowed``, from :func:`possible`: where nothing confines the process it could have
    written the record itself) is "reduced".  ``who`` names the process in the reason."""
    import json
    try:
        rec = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        rec = None
    if not isinstance(rec, dict) or rec.get("level") not in LEVELS:
        rec = {"level": "reduced", "network": "host", "why": [f"{who} sent no isolation record"]}
    elif allowed is not None and rec["level"] not in allowed:
        rec = {"level": "reduced", "network": "host",
               "why": [f"{who} reported {rec['level']}, which this system does not allow"]}
    why = [w[:200] for w in rec.get("why") if isinstance(w, str)][:4] if isinstance(rec.get("why"), list) else []
    level = rec["level"]
    return {"level": level, "words": LEVELS[level], "network": str(rec.get("network", "host"))[:80],
            "landlock": rec.get("landlock") if isinstance(rec.get("landlock"), int) else 0,
            "missing": why if level == "reduced" else []}


def _landlock(libc, writable: str, rec: dict):
    from sandbox import _landlock as ll
    try:
        abi = ll.abi(libc)
    except (AttributeError, OSError):
        abi = 0
    rec["landlock"] = abi
    if abi < 2:                 # without REFER a hard link into the directory would carry writes out of it
        return "Landlock ABI 2 (Linux 5.19) is needed" if abi else "Landlock is not available (Linux 5.13 and later)"
    if os.geteuid() == 0 and libc.unshare(CLONE_NEWNET) == 0:
        rec["network"] = "none (own network namespace)"
    try:
        r = ll.Restriction(libc, abi, network=False)
        r.allow("/", ll.READ | ll.FS_EXECUTE)
        for d in DEVICES:
            r.allow(f"/dev/{d}", ll.DEVICE)
        if not r.allow(writable, ll.OWN):
            return f"Landlock: cannot open {writable}"
        r.restrict()
    except OSError as e:
        return f"Landlock: {e}"
    if not _drop_capabilities(libc) and os.geteuid() == 0:
        return _err("capset: root's capabilities could not be dropped")     # reported as not confined
    if rec["network"] == "host" and abi >= 4:
        rec["network"] = "no TCP (Landlock)"
    return None


def _userns(libc, flags: int):
    uid, gid = os.geteuid(), os.getegid()
    if libc.unshare(CLONE_NEWUSER | flags) != 0:
        return _err("unshare(CLONE_NEWUSER)")
    try:
        with open("/proc/self/setgroups", "w") as fh:
            fh.write("deny")
        with open("/proc/self/uid_map", "w") as fh:
            fh.write(f"{uid} {uid} 1")
        with open("/proc/self/gid_map", "w") as fh:
            fh.write(f"{gid} {gid} 1")
    except OSError as e:
        return f"writing the user namespace's id maps: {e.strerror}"
    return None


def _setattr(libc, path: str, flags: int, attr_set: int, attr_clr: int) -> bool:
    attr = _MountAttr(attr_set, attr_clr, 0, 0)
    return libc.syscall(NR_MOUNT_SETATTR, ctypes.c_int(AT_FDCWD), path.encode(), ctypes.c_uint(flags),
                        ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr))) == 0


def _namespaces(libc, writable: str, rec: dict):
    why = _userns(libc, CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID)
    if why:
        return why
    if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return _err("making the mounts private")
    if not _setattr(libc, "/", AT_RECURSIVE, MOUNT_ATTR_RDONLY, 0):
        return _err("mount_setattr (Linux 5.12) making every mount read-only")
    w = writable.encode()
    if libc.mount(w, w, None, MS_BIND, None) != 0 or not _setattr(libc, writable, 0, 0, MOUNT_ATTR_RDONLY):
        return _err(f"binding {writable} writable")
    # no capability left in this user namespace (which owns the mounts), and none to be gained
    # by exec: the read-only flags cannot be cleared; a user namespace made later gets a copy of
    # the mounts with those flags locked
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or not _drop_capabilities(libc):
        return _err("dropping the capabilities")
    rec["network"] = "none (own network namespace)"
    pid = os.fork()                      # the child is PID 1 of the new PID namespace
    if pid:
        _, status = os.waitpid(pid, 0)
        os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
    libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)         # SIGKILL when the waiting process is killed
    rec["forked"] = True
    return None
