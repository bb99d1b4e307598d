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

Every entry is one line of a single append-only file, ``<dir>/v2/pack``, carrying its full key and
the checksum of its answer (so a warm run reads one file, and a cold one appends each answer as it
arrives); a line that is torn, edited, not a record, or written under another key is a miss (never
trusted; the question is asked again and its answer appended).  Each record is appended in one
write under an exclusive lock, on a descriptor opened with ``O_APPEND``, so several runs may share
the cache; the file has mode 0644, in directories of mode 0755.  The directory is
``$XDG_CACHE_HOME/mistakebound`` (default ``~/.cache/mistakebound``).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import threading

__all__ = ["directory", "enabled", "set_enabled", "key", "load", "store", "context", "STATS", "CODE_FILES",
           "formula_key", "engine_versions", "tree_hash", "pack_path", "records", "forget"]

FORMAT = 2

# what a verdict depends on besides the text itself: the kernel and rules (what a step means), the
# formula objects, substitution and every printer (what the engines read) with the protocol they
# share, the concrete instances (and the exact evaluation of their bounds) and sympy's reading of
# identities, the engine drivers and their child processes, and this module
CODE_FILES = ("kernel/kernel.py", "kernel/rules.py", "language/formula.py", "language/substitution.py",
              "language/functions.py", "printers/printer.py", "printers/smtlib.py", "printers/render.py",
              "printers/symbolic.py", "printers/concrete.py", "printers/exact.py", "catalogue/core.py",
              "engines/engines.py", "verify/checks.py", "engines/workers.py", "engines/engine_worker.py",
              "engines/cvc5_worker.py", "engines/nonvacuity_worker.py", "engines/cache.py")
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
        _CONTEXT.append(code_context(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
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
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


# --------------------------------------------------------------------------- the pack
# Every entry is one line appended to a single file, ``<dir>/v2/pack``:
#
#     <key: 64 hex digits> <check: 64 hex digits> <answer: JSON on one line>\n
#
# where check = SHA-256(key + "\n" + the answer's bytes).  A warm run reads that one file once;
# a run that solves appends each answer as it arrives (one write of the whole line under an
# exclusive lock, on a descriptor opened with O_APPEND, so concurrent writers never interleave).
# A line that is torn (a writer killed mid-write), edited, copied under another key or not a
# record at all fails its check and is ignored; the last valid record of a key is the answer.
PACK_LIMIT = 8 << 20       # a pack past this size (some thirty cold runs of the catalogue) is emptied by the next writer
_LOCK = threading.Lock()
_INDEX: dict = {}          # pack path -> {key: [record lines, oldest first]}, read once per process
_FDS: dict = {}            # pack path -> a descriptor open for appending


def pack_path() -> str:
    """The pack file of the current cache directory."""
    return os.path.join(directory(), f"v{FORMAT}", "pack")


def forget() -> None:
    """Forget what this process read from the pack (as a fresh process would); close its descriptors."""
    with _LOCK:
        _INDEX.clear()
        for fd in _FDS.values():
            try:
                os.close(fd)
            except OSError:
                pass
        _FDS.clear()


def _check(k: str, payload: bytes) -> str:
    return hashlib.sha256(k.encode() + b"\n" + payload).hexdigest()


def _record(k: str, answer) -> bytes:
    payload = json.dumps(answer, sort_keys=True, separators=(",", ":")).encode()
    return f"{k} {_check(k, payload)} ".encode() + payload + b"\n"


def _lines(path: str) -> list[bytes]:
    """The pack's whole lines (a last line without its newline is torn, and left out)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return []
    return data[:data.rfind(b"\n") + 1].split(b"\n")


def _index(path: str) -> dict:
    """The pack's records by key (read at the first look-up of this process)."""
    idx = _INDEX.get(path)
    if idx is None:
        idx = {}
        for line in _lines(path):
            if len(line) > 130 and line[64:65] == b" " and line[129:130] == b" ":
                idx.setdefault(line[:64], []).append(line)
        _INDEX[path] = idx
    return idx


def records(path: str | None = None) -> list[tuple[str, object]]:
    """Every valid record of the pack, in the order written, as (key, answer) (tests, inspection)."""
    out = []
    for line in _lines(path or pack_path()):
        got = _parse(line[:64].decode("ascii", "replace"), line)
        if got is not _MISS:
            out.append((line[:64].decode(), got))
    return out


_MISS = object()


def _parse(k: str, line: bytes):
    """The answer of one record line for key ``k``, or _MISS (not this key's, torn or edited)."""
    if len(line) <= 130 or line[:64] != k.encode("ascii", "replace") or line[64:65] != b" " \
            or line[129:130] != b" ":
        return _MISS
    payload = line[130:]
    if line[65:129] != _check(k, payload).encode():
        return _MISS
    try:
        return json.loads(payload.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return _MISS


def load(k: str):
    """The stored answer for key ``k``, or None (absent, disabled, or no record that is exactly
    the one written for this key: never trusted)."""
    if not _ENABLED[0]:
        return None
    with _LOCK:
        lines = _index(pack_path()).get(k.encode("ascii", "replace"))
    if not lines:
        STATS["misses"] += 1
        return None
    for line in reversed(lines):
        got = _parse(k, line)
        if got is not _MISS:
            STATS["hits"] += 1
            return got
    STATS["rejected"] += 1
    STATS["misses"] += 1
    return None


def _open(path: str) -> int:
    fd = _FDS.get(path)
    if fd is None:
        d = os.path.dirname(path)
        if not os.path.isdir(d):
            old = os.umask(0o022)
            try:
                os.makedirs(d, mode=0o755, exist_ok=True)
            finally:
                os.umask(old)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            if os.fstat(fd).st_uid == os.getuid():
                os.fchmod(fd, 0o644)
        except (OSError, AttributeError):
            pass
        _FDS[path] = fd
    return fd


def store(k: str, answer) -> None:
    """Append the entry to the pack (a failure to write is not an error: the cache is an optimization)."""
    if not _ENABLED[0]:
        return
    line = _record(k, answer)
    path = pack_path()
    with _LOCK:
        try:
            fd = _open(path)
            _flock(fd, True)
            try:
                size = os.fstat(fd).st_size
                if size > PACK_LIMIT:
                    os.ftruncate(fd, 0)
                elif size and os.pread(fd, 1, size - 1) != b"\n":
                    line = b"\n" + line              # end a torn record first: it stays a line of its own
                view = memoryview(line)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                _flock(fd, False)
        except OSError:
            return
        idx = _INDEX.get(path)
        if idx is not None:
            idx.setdefault(k.encode("ascii", "replace"), []).append(line.strip(b"\n"))
        STATS["stored"] += 1


def _flock(fd: int, take: bool) -> None:
    try:
        import fcntl
    except ImportError:          # no advisory locks here: O_APPEND alone orders the writes
        return
    fcntl.flock(fd, fcntl.LOCK_EX if take else fcntl.LOCK_UN)
