"""Inert stand-ins for packages a spec declares harmless (``[limits] harmless_imports``): a course
that imports matplotlib or pylab at module level for plots nobody asked for loads, and its calls
to them do nothing.

Loaded by ``_child.py`` by path before the sandbox is set up; it imports nothing and holds
nothing: a stand-in module answers every attribute with a fresh :class:`Inert`, which answers
every call, attribute, index and ``with`` with itself -- no object of the grader's, no file, no
package of the host.  It is not a numpy: ``from pylab import *`` gets the plotting names only.
"""

PLOT_NAMES = ("plot", "figure", "show", "scatter", "xlabel", "ylabel", "zlabel", "title", "suptitle", "legend",
              "savefig", "subplot", "subplots", "axis", "axes", "grid", "hist", "imshow", "close", "clf", "cla",
              "xlim", "ylim", "xticks", "yticks", "contour", "contourf", "colorbar", "tight_layout", "pause", "ion",
              "ioff", "text", "annotate", "bar", "barh", "errorbar", "fill_between", "axhline", "axvline",
              "semilogx", "semilogy", "loglog", "draw", "gca", "gcf", "quiver", "pcolormesh", "style", "rcParams",
              "cm", "stem", "step", "boxplot", "pie", "matshow", "twinx", "subplots_adjust", "margins")


class Inert:
    """Accepts anything, does nothing."""
    __slots__ = ()

    def __call__(self, *args, **kwargs):
        return Inert()

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if name == "subplots":
            return _subplots
        return Inert()

    def __getitem__(self, key):
        return Inert()

    def __setitem__(self, key, value):
        pass

    def __setattr__(self, name, value):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __repr__(self):
        return "<inert stand-in>"


def _subplots(*args, **kwargs):
    """``fig, ax = plt.subplots(...)``."""
    return Inert(), Inert()


class InertFinder:
    """A meta-path finder that answers the declared top-level names (and their submodules) with
    stand-in modules."""

    def __init__(self, names):
        self.names = tuple(names)

    def _ours(self, fullname):
        return any(fullname == n or fullname.startswith(n + ".") for n in self.names)

    def find_spec(self, fullname, path=None, target=None):
        if not self._ours(fullname):
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        import types
        mod = types.ModuleType(spec.name, "an inert stand-in: the spec declares this import harmless")
        mod.__all__ = list(PLOT_NAMES)
        for name in PLOT_NAMES:
            setattr(mod, name, _subplots if name == "subplots" else Inert())
        mod.__getattr__ = _module_getattr
        mod.__path__ = []
        return mod

    def exec_module(self, module):
        pass


def _module_getattr(name):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return Inert()


def install(names, meta_path):
    """Answer ``names`` with stand-ins from now on (ahead of every other finder)."""
    if names:
        meta_path.insert(0, InertFinder(names))
