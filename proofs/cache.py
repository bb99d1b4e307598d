"""The proof cache: every engine's definite answer stored under the hash of exactly what was checked.

Like Coq's ``.vo`` files or Lean's ``.olean`` files, a verdict computed once is not recomputed while
nothing it depends on changes.  The key of an entry is the SHA-256 of

* the question: the engine, the kind of question and the very text the engine read (the SMT-LIB 2
  text sent to z3 or cvc5; for sympy, a structural serialization of the identity's two sides);
* the engines' versions (z3, cvc5, sympy) and the suite's own version;
* the source code every verdict depends on: the proof kernel, the rules, the formula objects and
  every printer, the engine drivers and this module (:data:`CODE_FILES`).

Only definite answers are stored (proved / refuted / sat / unsat): "unknown" and timeouts are never
stored, since a later run with more time may decide them.  The proof kernel still builds every
theorem on every run; only the engines' answers come from here.

An entry is a JSON file ``<dir>/v1/<k[:2]>/<k>.json`` holding the full key and a checksum of the
answer; a file that cannot be read or parsed, whose key is not the key asked for, or whose checksum
does not match is a miss (never trusted, and overwritten by the next definite answer).  Files are
written atomically (a temporary file renamed into place), mode 0644 in directories of mode 0755, so
several runs may share the cache.  The directory is ``$XDG_CACHE_HOME/mistakebound`` (default
``~/.cache/mistakebound``).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import threading

__all__ = ["directory", "enabled", "set_enabled", "key", "load", "store", "context", "STATS", "CODE_FILES",
           "formula_key", "engine_versions", "tree_hash"]

FORMAT = 1

# what a verdict depends on besides the text itself: the kernel and rules (what a step means), the
# formula objects, substitution and every printer (what the engines read), the concrete instances
# and sympy's reading of identities, the engine drivers and their child processes, and this module
CODE_FILES = ("kernel.py", "rules.py", "formula.py", "substitution.py", "functions.py", "smtlib.py", "render.py",
              "symbolic.py", "concrete.py", "core.py", "engines.py", "checks.py", "workers.py", "engine_worker.py",
              "cvc5_worker.py", "nonvacuity_worker.py", "cache.py")
ENGINES = ("z3-solver", "cvc5", "sympy")
SUITE = "mistakebound"

_ENABLED = [True]
STATS = {"hits": 0, "misses": 0, "stored": 0, "rejected": 0}
_CONTEXT: list = []


def enabled() -> bool:
    return _ENABLED[0]


def set_enabled(flag: bool) -> None:
    """``False``: neither read nor write the cache (``mistakebound verify --no-cache``)."""
    _ENABLED[0] = bool(flag)


def directory() -> str:
    """``$XDG_CACHE_HOME/mistakebound``; ``~/.cache/mistakebound`` when the variable is unset, empty or
    not an absolute path (as the XDG Base Directory specification says)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mistakebound")


# --------------------------------------------------------------------------- the key
def _dist_version(dist: str) -> str:
    """``name version`` of an installed distribution from its ``.dist-info`` directory (read from the
    file system, without importing the package or ``importlib.metadata``), with the size and time of
    its RECORD, so a reinstall of the same version also changes the key."""
    norm = dist.replace("-", "_").lower()
    for d in sys.path:
        try:
            names = os.listdir(d or ".")
        except OSError:
            continue
        for n in names:
            if n.endswith(".dist-info") and n.lower().startswith(norm + "-"):
                rec = os.path.join(d, n, "RECORD")
                try:
                    st = os.stat(rec)
                    stamp = f"{st.st_size}:{st.st_mtime_ns}"
                except OSError:
                    stamp = "-"
                return f"{n[len(norm) + 1:-len('.dist-info')]} {stamp}"
    return "absent"


def engine_versions() -> dict:
    return {d: _dist_version(d) for d in ENGINES}


def context() -> str:
    """The hash of everything every entry depends on besides its question (computed once)."""
    if not _CONTEXT:
        _CONTEXT.append(code_context(os.path.dirname(os.path.abspath(__file__))))
    return _CONTEXT[0]


def code_context(here: str) -> str:
    """The context for the code in directory ``here`` (the ``proofs`` package)."""
    h = hashlib.sha256()
    h.update(f"format {FORMAT}\npython {sys.version_info[0]}.{sys.version_info[1]}\n".encode())
    h.update(f"{SUITE} {_dist_version(SUITE)}\n".encode())
    for d, v in engine_versions().items():
        h.update(f"{d} {v}\n".encode())
    for f in CODE_FILES:
        with open(os.path.join(here, f), "rb") as fh:
            data = fh.read()
        h.update(f"{f} {len(data)}\n".encode())
        h.update(data)
    return h.hexdigest()


def tree_hash(*packages: str) -> str:
    """The hash of every ``.py`` file of the named top-level packages (for answers that depend on more
    than the engines: the learners' replays of errata depend on the learners' and the proofs' code);
    computed once per process."""
    if packages not in _TREES:
        _TREES[packages] = _tree_hash(packages)
    return _TREES[packages]


_TREES: dict = {}


def _tree_hash(packages) -> str:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256()
    for pkg in packages:
        for d, dirs, files in sorted(os.walk(os.path.join(root, pkg))):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__")
            for f in sorted(files):
                if f.endswith(".py"):
                    with open(os.path.join(d, f), "rb") as fh:
                        data = fh.read()
                    h.update(f"{os.path.relpath(os.path.join(d, f), root)} {len(data)}\n".encode())
                    h.update(data)
    for dist in ("numpy", "numba"):
        h.update(f"{dist} {_dist_version(dist)}\n".encode())
    return h.hexdigest()


def key(*parts: str) -> str:
    """The entry's key: the context and the question's parts (engine, kind, text, ...)."""
    h = hashlib.sha256(context().encode())
    for p in parts:
        b = p.encode()
        h.update(f"\n{len(b)}\n".encode())
        h.update(b)
    return h.hexdigest()


def formula_key(e) -> str:
    """A structural serialization of a formula (every field of every node), for questions whose
    input is a formula rather than a text (sympy on an identity)."""
    memo: dict = {}

    def ser(x) -> str:
        s = memo.get(id(x))
        if s is None:
            args = ",".join(ser(a) for a in x.args)
            s = memo[id(x)] = json.dumps([x.op, x.name, x.sort, None if x.value is None else str(x.value),
                                          x.tex, x.text]) + "(" + args + ")"
        return s
    return ser(e)


# --------------------------------------------------------------------------- entries
def _path(k: str) -> str:
    return os.path.join(directory(), f"v{FORMAT}", k[:2], k + ".json")


def _check(k: str, answer) -> str:
    return hashlib.sha256((k + "\n" + json.dumps(answer, sort_keys=True)).encode()).hexdigest()


def load(k: str):
    """The stored answer for key ``k``, or None (absent, disabled, or an entry that is not exactly
    the one written for this key: never trusted)."""
    if not _ENABLED[0]:
        return None
    try:
        with open(_path(k), "rb") as fh:
            entry = json.loads(fh.read().decode("utf-8"))
        if (not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != k
                or entry.get("check") != _check(k, entry.get("answer"))):
            STATS["rejected"] += 1
            STATS["misses"] += 1
            return None
    except FileNotFoundError:
        STATS["misses"] += 1
        return None
    except (OSError, ValueError, UnicodeDecodeError):
        STATS["rejected"] += 1
        STATS["misses"] += 1
        return None
    STATS["hits"] += 1
    return entry["answer"]


def store(k: str, answer) -> None:
    """Write the entry atomically (a failure to write is not an error: the cache is an optimization)."""
    if not _ENABLED[0]:
        return
    path = _path(k)
    d = os.path.dirname(path)
    tmp = f"{path}.{os.getpid()}.{threading.get_ident():x}.tmp"
    try:
        if not os.path.isdir(d):
            old = os.umask(0o022)
            try:
                os.makedirs(d, mode=0o755, exist_ok=True)
            finally:
                os.umask(old)
        data = json.dumps({"format": FORMAT, "key": k, "answer": answer, "check": _check(k, answer)},
                          sort_keys=True).encode()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.fchmod(fd, 0o644)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, path)
        STATS["stored"] += 1
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
