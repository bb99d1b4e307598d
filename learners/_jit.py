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

numba itself is imported on the first *call* of a compiled function, not when a module of loops
is imported: until then :func:`compiled` hands out a stand-in, and the first call turns every
stand-in into its numba dispatcher (in the modules that hold them, so that compiled code calling
compiled code sees dispatchers).  Importing numba and loading its compilation context costs a
fresh process several tenths of a second, which a learner that never reaches a compiled loop
(a small problem, taken on by a pure-Python twin of the loop) does not pay.  Each dispatcher
keeps numba's on-disk cache and loads only the specialisation a call's argument types need.

:func:`uncached` names the functions compiled without a cache in this process.
"""
from __future__ import annotations

import functools
import sys
import threading

__all__ = ["compiled", "uncached", "live"]

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


def _dispatcher(f, options):
    import numba
    name = f"{f.__module__}.{f.__qualname__}"
    try:
        disp = numba.njit(cache=True, **options)(f)
    except RuntimeError as e:
        if "cannot cache" not in str(e):
            raise
        _note(name)
        return numba.njit(cache=False, **options)(f)
    return _tolerate_cache_io(disp, name)


_LOCK = threading.RLock()
_PENDING: list["_Deferred"] = []
_LIVE = False            # True once numba is in use: compiled() then returns dispatchers at once


class _Deferred:
    """A compiled function before numba is imported: the first call (or attribute look-up)
    makes every pending function's dispatcher, and calls through to this one."""

    def __init__(self, f, options):
        self.py_func = f
        self._options = options
        self._disp = None
        functools.update_wrapper(self, f)

    def __call__(self, *args, **kwargs):
        return (self._disp or _go_live(self))(*args, **kwargs)

    def __getattr__(self, name):
        if name.startswith("__") or name in ("_disp", "_options", "py_func"):
            raise AttributeError(name)
        return getattr(self._disp or _go_live(self), name)

    def __repr__(self):
        return f"<compiled {self.py_func.__module__}.{self.py_func.__qualname__} (numba not loaded yet)>"


def _go_live(which):
    """Make the dispatcher of every pending function and put it where the stand-in was."""
    global _LIVE
    with _LOCK:
        if which._disp is None:
            pending = list(_PENDING)
            for d in pending:
                if d._disp is None:
                    d._disp = _dispatcher(d.py_func, d._options)
            modules = {d.py_func.__module__ for d in pending}
            for mod_name in modules:
                mod = sys.modules.get(mod_name)
                if mod is None:
                    continue
                for key, val in list(vars(mod).items()):
                    if isinstance(val, _Deferred) and val._disp is not None:
                        setattr(mod, key, val._disp)
            _PENDING.clear()
            _LIVE = True
        return which._disp


def live() -> bool:
    """Whether numba has been put to use in this process (a compiled function was called)."""
    return _LIVE


def compiled(fn=None, /, **options):
    """``numba.njit(cache=True, **options)``, falling back to ``cache=False`` where no cache
    directory can be written; numba is imported at the first call.  Use as ``@compiled`` or
    ``@compiled(fastmath=...)``."""
    if "cache" in options:
        raise TypeError("compiled() decides the cache itself")

    def decorate(f):
        with _LOCK:
            if _LIVE:
                return _dispatcher(f, options)
            d = _Deferred(f, options)
            _PENDING.append(d)
            return d

    return decorate if fn is None else decorate(fn)
