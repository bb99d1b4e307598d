"""The allow-list file-system view without namespaces: Landlock (Salaün, Linux 5.13, 2021), for
where no mount namespace can be made -- a container run the way Docker runs one by default (root
without CAP_SYS_ADMIN, a seccomp profile refusing ``unshare`` and ``mount``), or an ordinary user
whose kernel refuses unprivileged user namespaces (Ubuntu 24.04's AppArmor default).

Standard library only (``ctypes``); loaded by ``_child.py`` by path and run by ``_jail.setup`` in
the worker before any student code.  The worker restricts itself, irrevocably, to:

* read (files and directory listings) the Python standard library (without the
  ``site-packages``/``dist-packages`` directories inside it), the shared libraries, the allowed
  packages and ``/etc/ld.so.cache`` -- the same allow-list as the mount-namespace view
  (``isolation.view_config``: every hidden directory left out by allowing its siblings one by one,
  as a Landlock rule covers a whole hierarchy);
* read and write the four device nodes, and everything in its own directory (the only writable
  place; no ``execute`` anywhere);
* nothing of ``/proc``: without namespaces every entry there is the host's (its processes, the
  host-global files a container runtime masks -- ``stat``, ``meminfo``, ``sys/``... -- and even
  the worker's own ``net/`` and ``mountinfo``); its own descriptors' links still resolve;
* no TCP bind or connect (ABI 4), no signal to a process outside its domain and no connection to
  an abstract UNIX socket outside it (ABI 6: the grader and the other workers are out of reach
  even under the grader's own uid).

Reaching what the view allows: as root the worker drops to a uid of its own, which cannot enter a
directory like ``/root`` (mode 0700) where the Python installation may live.  Before dropping, the
worker opens each allowed directory it imports from (``O_PATH``) and is given it as
``/proc/self/fd/N`` -- a process may always follow its own descriptors' links, which lead to the
directory itself without a walk through its ancestors (the standard library's path on
``sys.path`` and in loaded packages, and ``<box>/pkgs/<name>`` symbolic links for the allowed
packages, beside which their ``.libs`` companions sit for ``$ORIGIN``).
"""
import ctypes
import os

NR_CREATE, NR_ADD_RULE, NR_RESTRICT = 444, 445, 446       # the same on x86_64 and aarch64
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1, 2, 4, 8
FS_REMOVE_DIR, FS_REMOVE_FILE, FS_MAKE_CHAR, FS_MAKE_DIR, FS_MAKE_REG = 16, 32, 64, 128, 256
FS_MAKE_SOCK, FS_MAKE_FIFO, FS_MAKE_BLOCK, FS_MAKE_SYM = 512, 1024, 2048, 4096
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 8192, 16384, 32768
NET_BIND_TCP, NET_CONNECT_TCP = 1, 2
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1, 2
PR_SET_NO_NEW_PRIVS = 38
FILE_ONLY = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV


class _Ruleset(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("fd", ctypes.c_int32)]


def abi(libc) -> int:
    """The kernel's Landlock ABI version (0: none, or refused by a seccomp profile)."""
    libc.syscall.restype = ctypes.c_long
    v = libc.syscall(NR_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(int(v), 0)


def _fs_handled(version: int) -> int:
    rights = (1 << 13) - 1
    if version >= 2:
        rights |= FS_REFER
    if version >= 3:
        rights |= FS_TRUNCATE
    if version >= 5:
        rights |= FS_IOCTL_DEV
    return rights


class Restriction:
    """A ruleset being built (as root, before the uid changes), then applied with ``restrict``."""

    def __init__(self, libc, version: int, network: bool):
        self.libc, self.version = libc, version
        self.handled = _fs_handled(version)
        attr = _Ruleset(self.handled, 0 if network or version < 4 else NET_BIND_TCP | NET_CONNECT_TCP,
                        SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL if version >= 6 else 0)
        size = 8 if version < 4 else 16 if version < 6 else 24
        fd = libc.syscall(NR_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
        if fd < 0:
            e = ctypes.get_errno()
            raise OSError(e, f"landlock_create_ruleset: {os.strerror(e)}")
        self.fd = int(fd)
        self.scoped = version >= 6
        self.rules = 0

    def allow(self, path: str, rights: int) -> bool:
        """Allow ``rights`` beneath ``path`` (a file gets only the rights a file can have).
        False when the path does not exist."""
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            if not os.path.isdir(f"/proc/self/fd/{fd}"):
                rights &= FILE_ONLY
            attr = _PathBeneath(rights & self.handled, fd)
            if self.libc.syscall(NR_ADD_RULE, self.fd, RULE_PATH_BENEATH, ctypes.byref(attr), 0) != 0:
                e = ctypes.get_errno()
                raise OSError(e, f"landlock_add_rule {path}: {os.strerror(e)}")
            self.rules += 1
            return True
        finally:
            os.close(fd)

    def restrict(self) -> None:
        """Apply the ruleset to the calling (single-threaded) process, for good."""
        if self.libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            e = ctypes.get_errno()
            raise OSError(e, f"prctl(PR_SET_NO_NEW_PRIVS): {os.strerror(e)}")
        try:
            if self.libc.syscall(NR_RESTRICT, self.fd, 0) != 0:
                e = ctypes.get_errno()
                raise OSError(e, f"landlock_restrict_self: {os.strerror(e)}")
        finally:
            os.close(self.fd)


READ = FS_READ_FILE | FS_READ_DIR
DEVICE = FS_READ_FILE | FS_WRITE_FILE | FS_IOCTL_DEV     # isatty() and the like on /dev/null
OWN = (FS_WRITE_FILE | FS_READ_FILE | FS_READ_DIR | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_DIR | FS_MAKE_REG
       | FS_MAKE_SYM | FS_REFER | FS_TRUNCATE)


def build(libc, version: int, cfg: dict, work: str) -> Restriction:
    """The worker's ruleset from the grader's allow-list (``cfg["landlock"]``: paths to read),
    the allowed packages, the devices and its own directory ``work``."""
    r = Restriction(libc, version, bool(cfg.get("network")))
    for p, how in cfg.get("landlock", []):
        if how == "read":           # a directory holding a hidden one: its entries are listed one by one
            r.allow(p, READ)
    for farm in cfg.get("farms", []):
        r.allow(farm, READ)
    for loc, _ in cfg.get("packages", []):
        r.allow(loc, READ)
    if cfg.get("packages_at"):
        r.allow(cfg["packages_at"], READ)
    for d in cfg.get("devices", []):
        r.allow(f"/dev/{d}", DEVICE)
    r.allow(work, OWN)
    return r


# --- reaching the allowed directories under another uid -----------------------------------------
def _move(value, moves):
    for old, new in moves:
        if value == old or value.startswith(old + "/"):
            return new + value[len(old):]
    return value


def repoint_modules(modules, moves, forget_cached: bool = False) -> None:
    """Point the loaded modules' paths (``__path__``, ``__file__``, their spec's origin and search
    locations) from the host directories in ``moves`` to where the worker now sees them;
    ``forget_cached``: also drop the paths of their compiled files, which the worker cannot read."""
    for mod in list(modules.values()):
        try:
            path = getattr(mod, "__path__", None)
            if isinstance(path, list):
                path[:] = [_move(p, moves) for p in path]
            f = getattr(mod, "__file__", None)
            if isinstance(f, str):
                mod.__file__ = _move(f, moves)
            spec = getattr(mod, "__spec__", None)
            if spec is not None:
                if isinstance(spec.origin, str):
                    spec.origin = _move(spec.origin, moves)
                locs = spec.submodule_search_locations
                if isinstance(locs, list):
                    locs[:] = [_move(p, moves) for p in locs]
                if forget_cached and getattr(spec, "cached", None):
                    spec.cached = None
            if forget_cached and getattr(mod, "__cached__", None):
                mod.__cached__ = None
        except (AttributeError, TypeError):
            continue


def reach(cfg: dict, box: str, stdlib: list, sys_mod) -> str:
    """Open the standard library's and the allowed packages' directories now (as root) and point
    the interpreter at them through ``/proc/self/fd``; the packages appear as ``<box>/pkgs/<name>``.
    A standard-library directory that holds a hidden one (its ``site-packages``) appears as
    ``<box>/lib-K``: a directory of links to its allowed entries only, so that the import system
    can list it without any right to list the real one.  Returns the packages' directory (put on
    ``sys.path`` when the student's module is loaded)."""
    whole = {p for p, how in cfg.get("landlock", []) if how == "read"}
    hidden = [h.rstrip("/") + "/" for h in cfg.get("hide", [])]
    moves = []
    for k, p in enumerate(stdlib):
        if not os.path.isdir(p):
            continue
        fd = os.open(p, os.O_PATH | os.O_DIRECTORY)
        real = os.path.realpath(p)
        if real in whole or any(real.startswith(w.rstrip("/") + "/") for w in whole):
            moves.append((p, f"/proc/self/fd/{fd}"))
            continue
        farm = os.path.join(box, f"lib-{k}")
        os.mkdir(farm, 0o755)
        for name in sorted(os.listdir(real)):
            if not any((os.path.join(real, name) + "/").startswith(h) for h in hidden):
                os.symlink(f"/proc/self/fd/{fd}/{name}", os.path.join(farm, name))
        moves.append((p, farm))
    pkgs = os.path.join(box, "pkgs")
    os.mkdir(pkgs, 0o755)
    for loc, base in cfg.get("packages", []):
        fd = os.open(loc, os.O_PATH)
        os.symlink(f"/proc/self/fd/{fd}", os.path.join(pkgs, base))
        moves.append((loc, os.path.join(pkgs, base)))
    real = [(os.path.realpath(a), b) for a, b in moves]
    moves = sorted(set(moves + real), key=lambda m: -len(m[0]))
    cfg["farms"] = [b for _, b in moves if os.path.basename(b).startswith("lib-")]
    sys_mod.path[:] = [_move(p, moves) for p in sys_mod.path]
    repoint_modules(sys_mod.modules, moves)
    sys_mod.path_importer_cache.clear()
    return pkgs
