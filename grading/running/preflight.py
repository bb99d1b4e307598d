"""Can this machine grade?  Checked once, before anything is graded or written.

* :func:`isolation_capabilities` starts one sandboxed worker whose module imports a few standard
  modules and every allowed package: the worker's isolation is checked from outside like every
  other worker's (``sandbox.worker``), and the imports show that a correct submission can run.
* :func:`preflight` adds the reference learner: it runs once in this process (numba, for
  instance, needs a writable cache directory).

Either problem raises :class:`~sandbox.isolation.IsolationUnavailable` -- the command line's
exit code 3 with one line -- instead of grading every submission as a failure.
"""
from __future__ import annotations

import copy
import os
import sys

from sandbox.isolation import IsolationUnavailable, describe
from sandbox.worker import Limits, Worker

__all__ = ["isolation_capabilities", "preflight"]

_CAPS: dict = {}
_PROBE_STDLIB = ("math", "random", "itertools", "collections", "functools", "copy", "json", "fractions",
                 "statistics", "ctypes")


def isolation_capabilities(limits: Limits | None = None) -> dict:
    """What this platform gives a worker, checked by starting one that imports a few standard
    modules and every allowed package (cached per process).  Keys: ``ok``; ``isolation`` (the
    checked record) and ``text`` (the grader's sentence); ``refused`` ((layer, reason)) when a
    layer is missing; ``problem`` when the probe did not load."""
    L = limits or Limits()
    key = (tuple(L.packages), L.network, L.insecure, L.namespaces, L.separate_user)
    if key not in _CAPS:
        src = "".join(f"import {m}\n" for m in _PROBE_STDLIB + tuple(L.packages)).encode()
        w = Worker({"probe.py": src}, "probe", L)
        out = {"platform": sys.platform, "root": os.geteuid() == 0}
        try:
            err = w.start()
            out.update(ok=err is None, isolation=dict(w.isolation), text=describe(w.isolation))
            if err is not None:
                out["problem"] = (f"the standard library or an allowed package ({', '.join(L.packages)}) "
                                  f"cannot be imported inside the sandbox: {err.message}")
        except IsolationUnavailable as e:
            out.update(ok=False, refused=(e.layer, e.reason))
        finally:
            w.close()
        _CAPS[key] = out
    return dict(_CAPS[key])


def preflight(spec: Spec, insecure: bool = False) -> dict:
    """Check the grader can grade here: every isolation layer (one worker started and checked
    from outside), the allowed packages importable inside it, the reference learner runnable.
    Returns the platform's capabilities; raises IsolationUnavailable."""
    lim = copy.deepcopy(spec.limits)
    lim.insecure = insecure
    caps = isolation_capabilities(lim)
    if caps.get("refused"):
        raise IsolationUnavailable(*caps["refused"])
    if not caps.get("ok"):
        raise IsolationUnavailable("packages", caps.get("problem", "the probe worker did not load"))
    if spec.tests:
        from grading.references.problems_unit import make_any_problem as make_problem
        P = make_problem(spec)
        try:
            c = spec.contract
            c = c.replace(init="zero") if c is not None and c.init == "own" else None   # (its start: the code's)
            for _, X, y, e in list(P.edge_cases().values())[:2]:
                P.expected(X, y, e, contract=c)
        except Exception as ex:  # noqa: BLE001 - the grader's own environment, not the students'
            raise IsolationUnavailable("reference learner", f"{type(ex).__name__}: {ex}") from None
    return caps
