"""numpy's BLAS, single-threaded for the learners' blocked products, and what it runs on.

The kernel perceptron and the voted perceptron multiply many small blocks (a few hundred rows)
in a loop.  On a machine whose cores are shared, a two-thread BLAS pays a synchronisation for
every block and loses to one thread (several times slower under load), so those loops run with
one BLAS thread (:func:`one_thread`) and restore the caller's setting afterwards.

Only OpenBLAS (what numpy's wheels bundle) is controlled; with any other BLAS, or where the
library cannot be found, :func:`one_thread` does nothing.  :func:`blas_info` reports the library,
its core type (``OPENBLAS_CORETYPE`` forces an older one: dgemm then runs several times slower)
and the thread count, for the benchmarks.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import threading

__all__ = ["one_thread", "blas_info"]

_LOCK = threading.Lock()
_FOUND = None      # (get_threads, set_threads, corename, config) ctypes functions, or () if none


def _openblas():
    global _FOUND
    if _FOUND is not None:
        return _FOUND
    _FOUND = ()
    try:
        import numpy as np
        np.dot(np.ones((2, 2)), np.ones((2, 2)))          # make sure the library is loaded
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
            paths = sorted({ln.split()[-1] for ln in fh if "openblas" in ln.lower() and "/" in ln})
    except (OSError, ImportError):
        return _FOUND
    for path in paths:
        try:
            lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 0) | ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        for pre, suf in (("scipy_", "64_"), ("", "64_"), ("", "")):
            try:
                get = getattr(lib, f"{pre}openblas_get_num_threads{suf}")
                put = getattr(lib, f"{pre}openblas_set_num_threads{suf}")
            except AttributeError:
                continue
            get.restype = ctypes.c_int
            put.argtypes = [ctypes.c_int]
            name = getattr(lib, f"{pre}openblas_get_corename{suf}", None)
            conf = getattr(lib, f"{pre}openblas_get_config{suf}", None)
            for f in (name, conf):
                if f is not None:
                    f.restype = ctypes.c_char_p
            _FOUND = (get, put, name, conf)
            return _FOUND
    return _FOUND


@contextlib.contextmanager
def one_thread():
    """Run the block with one OpenBLAS thread (the caller's count is restored after)."""
    found = _openblas()
    if not found:
        yield
        return
    get, put = found[0], found[1]
    with _LOCK:
        before = get()
        if before != 1:
            put(1)
    try:
        yield
    finally:
        if before != 1:
            with _LOCK:
                put(before)


def blas_info() -> dict:
    """{"library", "core", "threads", "OPENBLAS_CORETYPE"} of numpy's BLAS (None where unknown)."""
    found = _openblas()
    info = {"library": None, "core": None, "threads": None,
            "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE")}
    if found:
        get, _, name, conf = found
        info["threads"] = get()
        if name is not None:
            info["core"] = name().decode(errors="replace")
        if conf is not None:
            info["library"] = conf().decode(errors="replace")
    return info
