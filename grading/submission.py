"""Reading a submission: a directory, a single .py file or a .zip (zip-slip safe).

Only regular files are read into memory (at most ``MAX_FILES`` files, ``MAX_BYTES`` in total);
symbolic links are skipped (a link could point at the grader's files).  Nothing is extracted
to disk here: the worker writes the files into its own empty directory.
"""
from __future__ import annotations

import os
import posixpath
import stat
import zipfile

from learners.errors import InputError

__all__ = ["load_submission", "submission_name"]

MAX_FILES = 200
MAX_BYTES = 8 << 20


def submission_name(path: str) -> str:
    base = os.path.basename(os.path.normpath(path))
    for ext in (".zip", ".py"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    safe = "".join(c if (c.isalnum() or c in "-_.") else "_" for c in base).strip(".") or "submission"
    return safe


def _safe_rel(name: str) -> str | None:
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    norm = posixpath.normpath(name)
    if norm in (".", "") or norm.startswith("../") or norm == ".." or "/../" in f"/{norm}/":
        return None
    if any(part.startswith("__MACOSX") for part in norm.split("/")):
        return None
    return norm


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
    files: dict[str, bytes] = {}
    total = 0
    if os.path.isdir(path):
        for dirpath, dirnames, filenames in os.walk(path, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
            for fn in sorted(filenames):
                full = os.path.join(dirpath, fn)
                st = os.lstat(full)
                if not stat.S_ISREG(st.st_mode):
                    continue
                rel = os.path.relpath(full, path).replace(os.sep, "/")
                total += st.st_size
                if len(files) >= MAX_FILES or total > MAX_BYTES:
                    raise InputError(f"submission {path!r} is too large (max {MAX_FILES} files, {MAX_BYTES >> 20} MB)")
                with open(full, "rb") as fh:
                    files[rel] = fh.read()
    elif path.endswith(".py"):
        if os.path.getsize(path) > MAX_BYTES:
            raise InputError(f"submission {path!r} is too large")
        with open(path, "rb") as fh:
            files[f"{module}.py"] = fh.read()
    elif path.endswith(".zip"):
        try:
            with zipfile.ZipFile(path) as zf:
                for info in zf.infolist():
                    if info.is_dir():
                        continue
                    if (info.external_attr >> 16) & 0o170000 == 0o120000:
                        continue  # a symbolic link stored in the zip
                    rel = _safe_rel(info.filename)
                    if rel is None:
                        raise InputError(f"submission {path!r} contains an unsafe path {info.filename!r}")
                    total += info.file_size
                    if len(files) >= MAX_FILES or total > MAX_BYTES:
                        raise InputError(f"submission {path!r} is too large (max {MAX_FILES} files, "
                                         f"{MAX_BYTES >> 20} MB uncompressed)")
                    data = zf.read(info)
                    if len(data) > MAX_BYTES:
                        raise InputError(f"submission {path!r} is too large")
                    files[rel] = data
        except zipfile.BadZipFile:
            raise InputError(f"submission {path!r} is not a valid zip file") from None
    else:
        raise InputError(f"submission {path!r} must be a directory, a .py file or a .zip file")
    return _flatten(files, module)
