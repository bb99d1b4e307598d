"""The parent side of the isolation: what a worker may see, how the grader checks from outside
that every layer is in place before the student's code runs, and how the reports describe it.

* :func:`view_config` lists the allow-list view: the Python standard library and the shared
  libraries it loads (every site-packages/dist-packages directory inside them covered), the
  allowed packages (``[limits] packages``, default ``["numpy"]``; never the suite's own
  packages), four device nodes and ``/etc/ld.so.cache``.  Nothing else of the host exists in the
  worker: not the grader, not the spec, not other submissions, not the output directory.
* :func:`verify` reads the worker's ``/proc/<pid>`` entries (status, namespaces, root directory)
  and compares them with what the worker reported and with the grader's own; a mismatch is a
  failed layer.
* :class:`IsolationUnavailable` is the one-line refusal (exit code 3 on the command line).
* :func:`describe` is the grader's own sentence about the isolation, the only one any report
  prints (the worker's words never reach a report).
"""
from __future__ import annotations

import glob
import importlib.util
import os
import platform
import sys
import sysconfig

__all__ = ["IsolationUnavailable", "SUITE_PACKAGES", "view_config", "verify", "describe", "project_root",
           "HOW", "level", "isolation_level", "isolation_level_words", "LEVELS"]

SUITE_PACKAGES = ("learners", "proofs", "adversary", "refutation", "sandbox", "grading", "mistakebound")
DEVICES = ("null", "zero", "random", "urandom")
HOW = {
    "namespaces": "run the grader as root with CAP_SYS_ADMIN, or allow unprivileged user namespaces "
                  "(sysctl user.max_user_namespaces > 0; on Debian/Ubuntu kernels also "
                  "kernel.unprivileged_userns_clone = 1 and kernel.apparmor_restrict_unprivileged_userns = 0; "
                  "in Docker: --cap-add SYS_ADMIN or --security-opt seccomp=unconfined)",
    "filesystem view": "the kernel must allow bind mounts and pivot_root in the worker's mount namespace "
                       "(the same settings as for the namespaces)",
    "user": "run the grader as root (each worker gets its own uid) or allow unprivileged user namespaces",
    "rlimits": "the grader's own hard resource limits must be at least the spec's [limits]",
    "seccomp": "a Linux kernel with seccomp filters (CONFIG_SECCOMP_FILTER) on x86_64 or aarch64",
    "packages": "install the package in the grader's environment, or remove it from [limits] packages",
    "setup": "see the reason; the worker could not start",
    "reference learner": "the reference learner runs in the grader's own process: numba needs a writable cache "
                         "directory (a writable home, or NUMBA_CACHE_DIR)",
    "verification": "the worker's /proc entries must be readable by the grader (same uid, or CAP_SYS_PTRACE)",
}


class IsolationUnavailable(Exception):
    """An isolation layer cannot be set up: the grader refuses rather than grade weaker."""

    def __init__(self, layer: str, reason: str):
        self.layer = layer
        self.reason = " ".join(str(reason).split())[:300]
        super().__init__(self.line())

    def __reduce__(self):       # crosses process pools whole: (layer, reason), not the one line
        return (type(self), (self.layer, self.reason))

    def line(self) -> str:
        how = HOW.get(self.layer, HOW["setup"])
        if self.layer in ("reference learner", "packages"):    # --insecure would not help
            return f"the grader cannot grade here: {self.layer}: {self.reason}; {how}"
        return (f"isolation layer '{self.layer}' cannot be set up ({self.reason}); {how}; "
                "or pass --insecure to grade without it (every report then says so)")


def project_root() -> str:
    """Directory holding the grader's packages (learners, proofs, adversary, grading)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --- the allow-list view -----------------------------------------------------------------------
def _expose(path: str, out: list, kind: str = "bind") -> None:
    """Entries that make ``path`` appear in the new root: symbolic links on the way are
    re-created (``/lib -> usr/lib``), then the real directory or file is bound."""
    path = os.path.abspath(path)
    parts = path.strip("/").split("/")
    for i in range(1, len(parts) + 1):
        pre = "/" + "/".join(parts[:i])
        if os.path.islink(pre):
            entry = ["link", pre, os.readlink(pre)]
            if entry not in out:
                out.append(entry)
            rest = "/".join(parts[i:])
            _expose(os.path.join(os.path.realpath(pre), rest) if rest else os.path.realpath(pre), out, kind)
            return
    if os.path.exists(path) and [kind, path] not in out:
        out.append([kind, path])


def _ld_dirs() -> list[str]:
    """The dynamic loader's search path (/etc/ld.so.conf and its includes)."""
    out = []

    def read(p, depth=0):
        try:
            lines = open(p).read().splitlines()
        except OSError:
            return
        for ln in lines:
            ln = ln.split("#", 1)[0].strip()
            if not ln:
                continue
            if ln.startswith("include") and depth < 3:
                for q in sorted(glob.glob(ln.split(None, 1)[1] if " " in ln else "")):
                    read(q, depth + 1)
            elif ln.startswith("/"):
                out.append(ln)
    read("/etc/ld.so.conf")
    return out


def stdlib_dirs() -> list[str]:
    """Where a ``python -I -S`` of this interpreter imports the standard library from (the base
    installation's, never a virtual environment's directory)."""
    out = [os.path.dirname(os.__file__)]
    dyn = sysconfig.get_config_var("DESTSHARED")
    if dyn and os.path.isdir(dyn):
        out.append(dyn)
    zipped = os.path.join(sys.base_prefix, "lib", f"python{sys.version_info[0]}{sys.version_info[1]}.zip")
    if os.path.isfile(zipped):
        out.append(zipped)
    return out


def _lib_dirs() -> list[str]:
    """The shared libraries the standard library's and the packages' extension modules load
    (the interpreter and libpython are already in memory)."""
    ma = sysconfig.get_config_var("MULTIARCH") or ""
    cand = [f"/lib/{ma}", f"/usr/lib/{ma}", f"/usr/local/lib/{ma}"] if ma else []
    cand += ["/lib64", "/usr/lib64"] + _ld_dirs()
    seen, out = set(), []
    for p in cand:
        rp = os.path.realpath(p)
        if os.path.isdir(rp) and rp not in seen:
            seen.add(rp)
            out.append(p)
    return out


def _site_dirs() -> list[str]:
    """Every directory third-party or the suite's packages may live in (to be covered)."""
    import site
    out = set()
    try:
        out.update(site.getsitepackages())
    except AttributeError:
        pass
    try:
        out.add(site.getusersitepackages())
    except AttributeError:
        pass
    for p in sys.path:
        if p.rstrip("/").endswith(("site-packages", "dist-packages")):
            out.add(p)
    for key in ("purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            out.add(p)
    return sorted(os.path.realpath(p) for p in out if p)


def package_locations(name: str) -> list[str]:
    """The directories (or file) of an installed top-level package, plus its bundled
    shared libraries (``<name>.libs``, as manylinux wheels ship them)."""
    if not name.isidentifier():
        raise IsolationUnavailable("packages", f"{name!r} is not a package name")
    if name in SUITE_PACKAGES:
        raise IsolationUnavailable("packages", f"'{name}' is the grader's own package and is never allowed")
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise IsolationUnavailable("packages", f"'{name}' is not installed")
    locs = list(spec.submodule_search_locations or [])[:1] or ([spec.origin] if spec.origin else [])
    if not locs or not os.path.exists(locs[0]):
        raise IsolationUnavailable("packages", f"'{name}' has no location on disk")
    out = [os.path.realpath(locs[0])]
    for libs in companion_libs(name, os.path.dirname(out[0])):
        if libs not in out:
            out.append(libs)
    return out


def with_requirements(packages) -> list[str]:
    """The packages named, then the top-level packages their distributions need at run time,
    transitively (allowing ``pandas`` brings ``dateutil``, and ``dateutil`` brings ``six``): a
    package a course allows must import in the sandbox as it does on the host.  Requirements of
    extras, and those whose platform marker names another platform, are left out."""
    import importlib.metadata as md
    import re
    try:
        dist_of = md.packages_distributions()
    except Exception:  # noqa: BLE001 - broken metadata: only the packages named
        return list(packages)

    def norm(d: str) -> str:
        return re.sub(r"[-_.]+", "-", d).lower()
    top: dict = {}
    for mod, dists in dist_of.items():
        for d in dists:
            top.setdefault(norm(d), []).append(mod)
    out, todo = [], list(packages)
    while todo:
        name = todo.pop(0)
        if name in out:
            continue
        out.append(name)
        for dist in dist_of.get(name, []):
            try:
                reqs = md.requires(dist) or []
            except md.PackageNotFoundError:
                continue
            for r in reqs:
                req, _, marker = r.partition(";")
                if re.search(r"\bextra\s*==", marker):
                    continue
                plat = re.search(r"(sys_platform|platform_system)\s*==\s*[\"']([^\"']+)", marker)
                if plat and plat.group(2).lower() not in (sys.platform, platform.system().lower()):
                    continue
                m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
                for mod in sorted(top.get(norm(m.group(1)), [])) if m else ():
                    if mod.isidentifier() and not mod.startswith("_") and mod not in SUITE_PACKAGES:
                        todo.append(mod)
    return out


def companion_libs(name: str, where: str) -> list[str]:
    """The directories of shared libraries that a package's wheel ships beside it (auditwheel's
    ``<distribution>.libs``: ``numpy.libs`` for numpy, ``scikit_learn.libs`` for sklearn, whose
    distribution is scikit-learn), found from the installed distributions' file lists."""
    out = []
    cand = {f"{name}.libs"}
    try:
        import importlib.metadata as md
        for dist in md.packages_distributions().get(name, []):
            cand.add(dist.replace("-", "_").replace(".", "_") + ".libs")
            try:
                files = md.distribution(dist).files or []
            except md.PackageNotFoundError:
                continue
            cand.update(f.parts[0] for f in files if f.parts and f.parts[0].endswith(".libs"))
    except Exception:  # noqa: BLE001 - broken metadata: only the package's own name is tried
        pass
    for c in sorted(cand):
        p = os.path.join(where, c)
        if "/" not in c and os.path.isdir(p):
            out.append(os.path.realpath(p))
    return out


_VIEWS: dict = {}


def view_config(packages) -> dict:
    """The jail's view settings (cached per process): expose, hide, packages, devices."""
    key = tuple(packages)
    if key in _VIEWS:
        return _VIEWS[key]
    expose: list = []
    bound: list = []
    for p in sorted(stdlib_dirs() + _lib_dirs(), key=lambda q: len(os.path.realpath(q))):
        rp = os.path.realpath(p)
        if any(rp == b or rp.startswith(b.rstrip("/") + "/") for b in bound):
            continue          # inside a directory already in the view
        _expose(p, expose, "file" if os.path.isfile(p) else "bind")
        bound.append(rp)
    if os.path.isfile("/etc/ld.so.cache"):
        _expose("/etc/ld.so.cache", expose, "file")
    bound = [e[1] for e in expose if e[0] == "bind"]
    hide = set()
    own = [project_root()] + [os.path.join(s, n) for s in _site_dirs() for n in SUITE_PACKAGES]
    for b in bound:
        for pat in ("python*/site-packages", "python*/dist-packages", "site-packages", "dist-packages",
                    "lib/python*/site-packages", "lib/python*/dist-packages", "python3/dist-packages"):
            hide.update(os.path.realpath(p) for p in glob.glob(os.path.join(b, pat)))
        for p in _site_dirs() + own:
            if p == b or p.startswith(b.rstrip("/") + "/"):
                hide.add(p)
    pk, names = [], set()
    for name in with_requirements(packages):
        try:
            locs = package_locations(name)
        except IsolationUnavailable:
            if name in packages:          # a package the course named must be there; what it needs may not
                raise
            continue
        for loc in locs:
            base = os.path.basename(loc)
            if base not in names:
                names.add(base)
                pk.append([loc, base])
    hidden = sorted(h for h in hide if os.path.isdir(h))
    cfg = {"expose": expose, "hide": hidden, "packages": pk,
           "devices": [d for d in DEVICES if os.path.exists(f"/dev/{d}")],
           "package_dirs": sorted({os.path.dirname(p) for p, _ in pk}),
           "landlock": [list(e) for e in landlock_paths([e[1] for e in expose if e[0] in ("bind", "file")], hidden)]}
    _VIEWS[key] = cfg
    return cfg


def landlock_paths(allowed, hidden) -> list[list[str]]:
    """The same view for Landlock, which can only allow whole hierarchies: [path, "read"] for
    each allowed path; one holding a hidden directory is replaced by its entries, recursively,
    without the hidden ones, and is itself marked [path, "list"] (no right is given on it: the
    worker lists it through links of its own, ``sandbox/_landlock.py``)."""
    hidden = [os.path.realpath(h) for h in hidden]
    out = []

    def add(p, depth=0):
        rp = os.path.realpath(p)
        if any(rp == h for h in hidden):
            return
        inside = [h for h in hidden if h.startswith(rp.rstrip("/") + "/")]
        if not inside or not os.path.isdir(rp) or depth > 8:
            out.append([rp, "read"])
            return
        out.append([rp, "list"])
        try:
            names = sorted(os.listdir(rp))
        except OSError:
            return
        for n in names:
            add(os.path.join(rp, n), depth + 1)
    for p in allowed:
        add(p)
    return sorted({tuple(e) for e in out})


# --- checking the worker from outside ----------------------------------------------------------
def _status(pid: int) -> dict:
    out = {}
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            k, _, v = line.partition(":")
            out[k] = v.strip()
    return out


_NS_FILES = {"user": "user", "mount": "mnt", "pid": "pid", "ipc": "ipc", "uts": "uts", "net": "net"}


def verify(pid: int, outer_pid: int, rec: dict, sentinels) -> tuple[list, list]:
    """Check the worker ``pid`` against its report ``rec``.  Returns (what was confirmed from
    outside, [[layer, problem], ...])."""
    seen, bad = [], []
    try:
        st = _status(pid)
    except OSError as e:
        return seen, [["verification", f"cannot read /proc/{pid}/status: {e.strerror}"]]
    if st.get("PPid") != str(outer_pid):
        bad.append(["verification", "the worker is not the process the grader started"])
    uids = st.get("Uid", "").split()
    if len(set(uids)) != 1 or not uids or int(uids[0]) != rec["uid"]:
        bad.append(["user", f"the worker runs as uid {uids[:1]} instead of {rec['uid']}"])
    else:
        seen.append("uid")
    if "pid" in rec["namespaces"]:
        if len(st.get("NSpid", "").split()) < 2:
            bad.append(["namespaces", "the worker is not in a new PID namespace"])
        else:
            seen.append("pid namespace")
    if rec["seccomp"]:
        if st.get("Seccomp") != "2" or st.get("NoNewPrivs") != "1":
            bad.append(["seccomp", "the worker has no seccomp filter or no no_new_privs"])
        else:
            seen.append("seccomp")
    if rec["user"] != "unchanged" and rec["mode"] != "none":
        if any(int(st.get(k, "1"), 16) for k in ("CapEff", "CapPrm", "CapInh", "CapAmb")):
            bad.append(["user", "the worker still holds capabilities"])
        else:
            seen.append("no capabilities")
    for name in rec["namespaces"]:
        f = _NS_FILES[name]
        try:
            if os.stat(f"/proc/{pid}/ns/{f}").st_ino == os.stat(f"/proc/self/ns/{f}").st_ino:
                bad.append(["namespaces", f"the worker shares the grader's {name} namespace"])
            elif f"{name} ns" not in seen:
                seen.append(f"{name} ns")
        except PermissionError:
            pass               # not ours to read (no CAP_SYS_PTRACE): the status checks above stand
        except OSError as e:
            bad.append(["namespaces", f"cannot read the worker's {name} namespace: {e.strerror}"])
    if rec["view"] and rec["mode"] == "landlock":
        if rec["landlock"] < 1:
            bad.append(["filesystem view", "the worker reports a Landlock view without Landlock"])
    elif rec["view"]:
        try:
            os.stat(f"/proc/{pid}/root/")
            visible = [p for p in sentinels if p and _same_file(p, f"/proc/{pid}/root{p}")]
            if visible:
                bad.append(["filesystem view", f"the worker can see {visible[0]}"])
            else:
                seen.append("view")
        except PermissionError:
            pass
        except OSError as e:
            bad.append(["filesystem view", f"cannot read the worker's root: {e.strerror}"])
    return seen, bad


def _same_file(host: str, inside: str) -> bool:
    """Is the host path ``host`` what the worker sees at the same name?  By identity (device and
    inode), never by name: a submission may well hold a folder called like a host path."""
    try:
        a = os.stat(host)
    except OSError:
        return False
    try:
        b = os.stat(inside)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


LEVELS = {"namespaces": "namespaces (new namespaces and a mount view of its own)",
          "container": "container (no namespace can be made here: Landlock's view, seccomp and limits instead)",
          "reduced": "reduced (a layer is missing: --insecure)"}


def level(rec: dict, missing) -> str:
    """The isolation level of a worker: "namespaces" (new namespaces and the mount view),
    "container" (no namespace could be made: Landlock's view, seccomp, its own uid -- a container
    run the way Docker runs one by default, or user namespaces refused), "reduced" (a layer is
    missing: --insecure)."""
    if missing:
        return "reduced"
    return "container" if rec.get("mode") == "landlock" else "namespaces"


def isolation_level(iso: dict) -> str:
    """The level of a checked record (``Worker.isolation``)."""
    return iso.get("level") or level(iso, iso.get("missing"))


def isolation_level_words(iso: dict) -> str:
    """The level with its meaning, for a report's first lines."""
    lv = isolation_level(iso)
    return LEVELS.get(lv, lv)


def describe(iso: dict, limits=None) -> str:
    """The grader's own sentence about how a submission ran (from its checked record)."""
    if not iso:
        return "isolation unknown: the worker never started"
    parts = []
    ns = iso.get("namespaces") or []
    if ns:
        parts.append("own " + ", ".join(ns) + " namespaces")
    if iso.get("view") == "allow-list":
        parts.append("a private file-system view (your files, the Python standard library"
                     + (", " + ", ".join(iso.get("packages", [])) if iso.get("packages") else "")
                     + "; nothing of the grader"
                     + (f"; Landlock ABI {iso['landlock']}, without namespaces" if iso.get("mode") == "landlock" else "")
                     + ")")
    u = iso.get("user", "")
    if u:
        parts.append(f"running as {u}")
    if iso.get("seccomp"):
        parts.append("no_new_privs and a seccomp filter")
    if iso.get("network"):
        parts.append(f"network {iso['network']}")
    if iso.get("limits"):
        parts.append("limits " + ",".join(iso["limits"]))
    if iso.get("budget"):
        parts.append("budget: " + iso["budget"])
    parts.append(f"isolation level {isolation_level_words(iso)}")
    text = "; ".join(parts)
    if iso.get("checked"):
        text += "; checked by the grader from outside before your code ran"
    missing = iso.get("missing") or []
    if missing:
        names = sorted({m[0] for m in missing})
        text = ("WITHOUT FULL ISOLATION (the grader ran with --insecure): missing layers: "
                + ", ".join(names) + ". In place: " + (text or "nothing but the wall-clock limit"))
    return text
