"""The one way the learners compile their inner loops: numba's ``njit`` with an on-disk cache when
one can be kept, and without it otherwise.

numba's ``cache=True`` needs a writable directory: the package's own ``__pycache__`` or the user's
cache directory (``NUMBA_CACHE_DIR``, else ``~/.cache/numba``).  An install that is read-only for
the user who runs it (a system-wide install, a container, a grading sandbox with no writable
home) has neither, and numba then refuses to *decorate* the function ("cannot cache function
...: no locator available").  :func:`compiled` catches that and compiles the same function
without a cache: the code is the same, only the compilation is repeated in every new process.
A cache directory that accepts the locator's probe but then fails to read or write its files
(another user's index file, a full disk) is handled the same way: the cache is a speed-up,
never a reason to fail.

:func:`uncached` names the functions compiled without a cache in this process.
"""
from __future__ import annotations

import functools

import numba

__all__ = ["compiled", "uncached"]

_UNCACHED: list[str] = []


def _note(fn_name: str) -> None:
    if fn_name not in _UNCACHED:
        _UNCACHED.append(fn_name)


def uncached() -> tuple[str, ...]:
    """Qualified names of the compiled functions that run without an on-disk cache."""
    return tuple(_UNCACHED)


def _skip_io_errors(method, name: str):
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except OSError:
            _note(name)
            return None          # a load miss: numba compiles; a save miss: nothing is kept
    return wrapper


def _tolerate_cache_io(disp, name: str):
    """Make the dispatcher's cache skip (instead of raise) an I/O error on load or save."""
    cache = getattr(disp, "_cache", None)
    load, save = getattr(cache, "load_overload", None), getattr(cache, "save_overload", None)
    if load is None or save is None:
        return disp
    cache.load_overload = _skip_io_errors(load, name)
    cache.save_overload = _skip_io_errors(save, name)
    return disp


def compiled(fn=None, /, **options):
    """``numba.njit(cache=True, **options)``, falling back to ``cache=False`` where no cache
    directory can be written.  Use as ``@compiled`` or ``@compiled(fastmath=...)``."""
    if "cache" in options:
        raise TypeError("compiled() decides the cache itself")

    def decorate(f):
        name = f"{f.__module__}.{f.__qualname__}"
        try:
            disp = numba.njit(cache=True, **options)(f)
        except RuntimeError as e:
            if "cannot cache" not in str(e):
                raise
            _note(name)
            return numba.njit(cache=False, **options)(f)
        return _tolerate_cache_io(disp, name)

    return decorate if fn is None else decorate(fn)
