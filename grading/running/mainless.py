"""Starting the grader's own processes without re-running the caller's script.

multiprocessing's fork server and spawned children import the parent's ``__main__`` again (as
``__mp_main__``) before they run anything.  The grader's processes need nothing of it: their
code is the grader's, importable by name.  A script that calls
:func:`grading.running.grader.grade_batch` at its top level, with no ``if __name__ == "__main__":``
guard, would otherwise be re-run by every child -- which then cannot start processes itself,
dies, and leaves every submission "not graded".
"""
from __future__ import annotations

import sys
import types

__all__ = ["without_main"]


class without_main:
    """While a grading process (or the fork server) starts: the caller's ``__main__`` hidden, so
    that a child never runs the caller's script again.  The pool's code is the grader's own
    (``_serve`` and what it is handed are importable by name); a script that calls
    :func:`grading.running.grader.grade_batch` at its top level, with no ``if __name__ == "__main__":``
    guard, would otherwise be re-run by every child -- which then cannot start processes itself,
    dies, and leaves every submission "not graded"."""

    def __enter__(self):
        self.main = sys.modules.get("__main__")
        if self.main is not None and getattr(self.main, "__file__", None):
            sys.modules["__main__"] = types.ModuleType("__main__")
        return self

    def __exit__(self, *exc):
        if self.main is not None:
            sys.modules["__main__"] = self.main
        return False
