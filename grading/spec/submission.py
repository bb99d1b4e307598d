"""Reading a submission: a directory, a single .py file, a .zip or a tar archive (.tar, .tar.gz,
.tgz), all of it untrusted.

Nothing is extracted to disk here: the files are read into memory (the worker writes them into its
own empty directory), and only regular files are kept.  The limits (each breach is an InputError
naming it: the submission gets 0 with that reason, the batch goes on):

* at most ``MAX_FILES`` files, ``MAX_BYTES`` bytes in total (counted while reading, so an archive
  that lies about its sizes or a compression bomb stops at the cap), an archive file of at most
  ``MAX_BYTES`` and at most ``MAX_ENTRIES`` entries of any kind;
* member names: relative, no ``..``, no drive letters, no control characters, at most
  ``MAX_NAME`` characters per path component and ``MAX_PATH`` in all, at most ``MAX_DEPTH``
  directories deep;
* symbolic and hard links, devices and FIFOs are skipped (a link could point at the grader's
  files); in a directory, files are opened with O_NOFOLLOW and checked to be regular after opening;
* compiled Python (``__pycache__/``, ``*.pyc``, ``*.pyo``) is dropped: the code graded is the code
  shown (the worker compiles every module of the submission from its source, too).

What was skipped is listed on the returned mapping (``Files.skipped``), for the report.

Member names that appear in a message are quoted as student text (``sandbox.wire``).
"""
from __future__ import annotations

import os
import posixpath
import re
import stat
import tarfile
import zipfile

from learners.errors import InputError

from sandbox.wire import student_text

__all__ = ["load_submission", "submission_name", "ARCHIVE_EXTS", "Files"]

MAX_FILES = 200
MAX_BYTES = 8 << 20
MAX_ENTRIES = 1000
MAX_NAME = 100
MAX_PATH = 200
MAX_DEPTH = 8
MAX_EXPANDED = 16 << 20      # a compressed tar stream, expanded (headers and padding included)
MAX_RATIO = 200              # ... and at most this many times the archive's own size (past 1 MiB)
MAX_HEADER = 64 << 10        # one pax or long-name header
ARCHIVE_EXTS = (".zip", ".tar", ".tar.gz", ".tgz")


_EXTS = (".tar.gz", ".tgz", ".tar", ".zip", ".py")


def safe_base(path: str) -> str:
    base = os.path.basename(os.path.normpath(path))
    for ext in _EXTS:
        if base.lower().endswith(ext) and len(base) > len(ext):
            base = base[: -len(ext)]
            break
    safe = re.sub(r"[^A-Za-z0-9_-]+", "_", base).strip("_-")[:64].strip("_-")
    return safe or "submission"


def submission_name(path: str) -> str:
    """The submission's name in results: its file name reduced to letters, digits, - and _."""
    return safe_base(path)


def _safe_rel(name: str) -> str | None:
    """The member's path, normalised, or None when it is not a safe relative path."""
    name = name.replace("\\", "/")
    if not name or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    if any((not c.isprintable()) or c in '\0' for c in name):
        return None
    norm = posixpath.normpath(name)
    if norm in (".", "") or norm == ".." or norm.startswith("../") or "/../" in f"/{norm}/":
        return None
    return norm


def _check_name(path: str, name: str) -> str | None:
    """The member's relative path; None to skip it (macOS resource forks); InputError if unsafe."""
    rel = _safe_rel(name)
    if rel is None:
        raise InputError(f"submission {path!r} contains an unsafe path {student_text(name, 120)}")
    parts = rel.split("/")
    if any(part.startswith("__MACOSX") for part in parts):
        return None
    if len(rel) > MAX_PATH or any(len(p) > MAX_NAME for p in parts) or len(parts) > MAX_DEPTH + 1:
        raise InputError(f"submission {path!r} contains a file name that is too long or too deep "
                         f"{student_text(name, 120)} (at most {MAX_NAME} characters per name, {MAX_PATH} in all, "
                         f"{MAX_DEPTH} directories deep)")
    return rel


class Files(dict):
    """{relative path: bytes}, and ``skipped``: what was left out and why (for the report)."""

    def __init__(self, *a, skipped=(), **kw):
        super().__init__(*a, **kw)
        self.skipped = list(skipped)


def _compiled(rel: str) -> bool:
    """Compiled Python: graded code must be the source the student shows."""
    parts = rel.split("/")
    return "__pycache__" in parts or parts[-1].lower().endswith((".pyc", ".pyo"))


class _Acc:
    """Collects files under the caps."""

    def __init__(self, path):
        self.path = path
        self.files: dict[str, bytes] = {}
        self.total = 0
        self.entries = 0
        self.skipped: list[str] = []

    def skip(self, rel: str, why: str) -> None:
        if len(self.skipped) < 20:
            self.skipped.append(f"{student_text(rel, 120)} ({why})")

    def too_large(self):
        return InputError(f"submission {self.path!r} is too large (max {MAX_FILES} files, {MAX_BYTES >> 20} MB "
                          f"uncompressed, {MAX_ENTRIES} archive entries)")

    def entry(self):
        self.entries += 1
        if self.entries > MAX_ENTRIES:
            raise self.too_large()

    def add(self, rel: str, read) -> None:
        """``read(n)`` returns at most n bytes of the member."""
        if _compiled(rel):
            self.skip(rel, "compiled Python: only source is graded")
            return
        if len(self.files) >= MAX_FILES:
            raise self.too_large()
        left = MAX_BYTES - self.total
        data = read(left + 1)
        if len(data) > left:
            raise self.too_large()
        self.total += len(data)
        if rel in self.files:
            raise InputError(f"submission {self.path!r} contains the file {student_text(rel, 120)} twice")
        self.files[rel] = data


def _read_dir(path: str, acc: _Acc) -> None:
    for dirpath, dirnames, filenames in os.walk(path, followlinks=False):
        for d in dirnames:
            if d == "__pycache__":
                acc.skip(os.path.relpath(os.path.join(dirpath, d), path).replace(os.sep, "/") + "/",
                         "compiled Python: only source is graded")
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        for fn in sorted(filenames):
            acc.entry()
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, path).replace(os.sep, "/")
            try:
                fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                acc.skip(rel, "a symbolic link or unreadable")
                continue          # a symbolic link (or unreadable): skipped
            with os.fdopen(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    continue      # a FIFO, a device...: skipped
                rel = _check_name(path, rel)
                if rel is not None:
                    acc.add(rel, fh.read)


def _read_zip(path: str, acc: _Acc) -> None:
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_ENTRIES:
                raise acc.too_large()
            declared = 0
            for info in infos:
                acc.entry()
                declared += max(0, info.file_size)
                if info.file_size > (1 << 20) and info.file_size > MAX_RATIO * max(1, info.compress_size):
                    raise InputError(f"submission {path!r} is a compression bomb: the member "
                                     f"{student_text(info.filename, 120)} declares {info.file_size} bytes from "
                                     f"{info.compress_size} (at most {MAX_RATIO} times)")
                if declared > MAX_EXPANDED or len(info.extra) > MAX_HEADER or len(info.comment) > MAX_HEADER:
                    raise acc.too_large()
                if info.is_dir():
                    continue
                if (info.external_attr >> 16) & 0o170000 not in (0, 0o100000):
                    acc.skip(info.filename, "a link or special file")
                    continue      # a symbolic link or another special file stored in the zip
                rel = _check_name(path, info.filename)
                if rel is None:
                    continue
                with zf.open(info) as fh:
                    acc.add(rel, fh.read)
    except InputError:
        raise
    except zipfile.BadZipFile:
        raise InputError(f"submission {path!r} is not a valid zip file") from None
    except Exception as e:  # noqa: BLE001 - zlib.error, a truncated member, an unknown method...
        raise InputError(f"submission {path!r} cannot be read as a zip file ({type(e).__name__})") from None


def _expand(path: str, raw: bytes) -> bytes:
    """The tar stream of an archive file: gzip, bzip2 and xz undone here, by magic number (never
    by the name), under a cap on the expanded size and on the expansion ratio."""
    import bz2
    import lzma
    import zlib
    if raw[:2] == b"\x1f\x8b":
        d, kind = zlib.decompressobj(16 + zlib.MAX_WBITS), "gzip"
    elif raw[:3] == b"BZh":
        d, kind = bz2.BZ2Decompressor(), "bzip2"
    elif raw[:6] == b"\xfd7zXZ\x00":
        d, kind = lzma.LZMADecompressor(), "xz"
    else:
        return raw
    out = bytearray()
    buf = raw
    try:
        while True:
            room = MAX_EXPANDED + 1 - len(out)
            if kind == "gzip":        # zlib: bounded output per call, the rest kept in unconsumed_tail
                piece = d.decompress(buf, room)
                buf = d.unconsumed_tail
                done = d.eof or (not buf and not piece)
            else:
                piece = d.decompress(buf, max_length=room)
                buf = b""
                done = d.eof or (d.needs_input and not piece)
            out += piece
            if len(out) > MAX_EXPANDED or (len(out) > (1 << 20) and len(out) > MAX_RATIO * len(raw)):
                raise InputError(f"submission {path!r} is a compression bomb: its {kind} stream of {len(raw)} bytes "
                                 f"expands past {len(out)} bytes (at most {MAX_EXPANDED >> 20} MB and {MAX_RATIO} "
                                 "times the archive)")
            if done:
                break
    except InputError:
        raise
    except Exception as e:  # noqa: BLE001 - a corrupt stream
        raise InputError(f"submission {path!r} cannot be read as a {kind}-compressed tar archive "
                         f"({type(e).__name__})") from None
    return bytes(out)


def _tar_size(field: bytes) -> int:
    if field[:1] in (b"\x80", b"\xff"):             # base-256 (GNU): huge or negative
        return int.from_bytes(field[1:], "big") if field[:1] == b"\x80" else -1
    text = field.split(b"\0", 1)[0].strip()
    try:
        return int(text or b"0", 8)
    except ValueError:
        return -1


def _scan_tar(path: str, data: bytes) -> None:
    """Every header of the tar stream checked before ``tarfile`` reads any: pax and long-name
    headers (``x``, ``g``, ``L``, ``K``) of at most MAX_HEADER bytes, sizes that fit in the
    stream, at most MAX_ENTRIES headers."""
    off, n = 0, 0
    while off + 512 <= len(data):
        block = data[off:off + 512]
        if block == bytes(512):
            return
        n += 1
        if n > 2 * MAX_ENTRIES:
            raise InputError(f"submission {path!r} is too large (more than {MAX_ENTRIES} archive entries)")
        size = _tar_size(block[124:136])
        kind = block[156:157]
        if size < 0 or off + 512 + size > len(data) + 512:
            raise InputError(f"submission {path!r} has a tar header whose size ({size} bytes) lies: the archive "
                             "holds less")
        if kind in (b"x", b"g", b"L", b"K") and size > MAX_HEADER:
            raise InputError(f"submission {path!r} has a {'pax' if kind in b'xg' else 'long-name'} header of {size} "
                             f"bytes (at most {MAX_HEADER >> 10} KiB)")
        off += 512 + (size + 511) // 512 * 512


def _read_tar(path: str, acc: _Acc) -> None:
    import io
    with open(path, "rb") as fh:
        raw = fh.read(MAX_BYTES + 1)
    data = _expand(path, raw)
    _scan_tar(path, data)
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tf:
            while True:
                m = tf.next()
                if m is None:
                    break
                acc.entry()
                if m.size > MAX_BYTES - acc.total:
                    raise acc.too_large()     # before the reader would skip or read past it
                if not m.isreg():
                    if not m.isdir():
                        acc.skip(m.name, "a link or special file")
                    continue      # directories, links, devices, FIFOs: skipped
                rel = _check_name(path, m.name)
                if rel is None:
                    continue
                fh = tf.extractfile(m)
                acc.add(rel, fh.read)
    except InputError:
        raise
    except tarfile.TarError:
        raise InputError(f"submission {path!r} is not a valid tar archive") from None
    except Exception as e:  # noqa: BLE001 - a truncated stream, a bad compression...
        raise InputError(f"submission {path!r} cannot be read as a tar archive ({type(e).__name__})") from None


def _flatten(files: dict[str, bytes], module: str) -> dict[str, bytes]:
    """If the module sits in one sub-folder (a zipped folder), lift that folder to the top."""
    if f"{module}.py" in files:
        return files
    hits = [k for k in files if posixpath.basename(k) == f"{module}.py"]
    if len(hits) == 1:
        prefix = posixpath.dirname(hits[0]) + "/"
        return {k[len(prefix):]: v for k, v in files.items() if k.startswith(prefix)}
    return files


def load_submission(path: str, module: str) -> dict[str, bytes]:
    """Return {relative path: bytes} of the submission's files."""
    if not os.path.exists(path):
        raise InputError(f"submission {path!r} does not exist")
    acc = _Acc(path)
    low = path.lower()
    if os.path.isdir(path):
        _read_dir(path, acc)
    elif low.endswith(".py"):
        if os.path.getsize(path) > MAX_BYTES:
            raise acc.too_large()
        with open(path, "rb") as fh:
            acc.add(f"{module}.py", fh.read)
    elif low.endswith(ARCHIVE_EXTS):
        if os.path.getsize(path) > MAX_BYTES:
            raise InputError(f"submission {path!r} is too large (the archive is over {MAX_BYTES >> 20} MB)")
        (_read_zip if low.endswith(".zip") else _read_tar)(path, acc)
    else:
        raise InputError(f"submission {path!r} must be a directory, a .py file, a .zip or a tar archive")
    return Files(_flatten(acc.files, module), skipped=acc.skipped)


def skipped_note(files) -> str:
    """The report's sentence about what the archive reader left out ('' when nothing)."""
    skipped = getattr(files, "skipped", None)
    if not skipped:
        return ""
    more = "" if len(skipped) < 20 else ", ..."
    return "not graded (left out of the submission): " + ", ".join(skipped) + more
