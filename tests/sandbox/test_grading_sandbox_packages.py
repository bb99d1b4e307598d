"""Allowed packages come with the native libraries their wheels ship beside them: scikit-learn's
``sklearn`` loads ``libgomp`` from ``scikit_learn.libs`` (auditwheel names the directory after
the distribution, not the package), so a spec listing ``sklearn`` must get that directory in the
worker's view too -- in every isolation mode."""
import importlib.util

import pytest

from sandbox.isolation import package_locations
from sandbox.worker import Limits, Worker

sklearn = pytest.importorskip("sklearn")
PACKAGES = ["numpy", "scipy", "sklearn", "joblib", "threadpoolctl"] + ["narwhals"] * (importlib.util.find_spec("narwhals") is not None)
USE = b"""
def train(X, y, epochs=1):
    from sklearn.linear_model import Perceptron     # here: its import is timed like a call, not a start
    clf = Perceptron(max_iter=epochs, tol=None, shuffle=False, eta0=1.0).fit(X, y)
    return [float(v) for v in clf.coef_[0]], float(clf.intercept_[0])
"""
CALL = {"op": "call", "name": "train", "args": [[[1.0, 2.0], [-1.0, 0.5]], [1, -1]], "kwargs": {"epochs": 1},
        "returns": "w_b"}


def test_a_package_brings_its_distributions_companion_libraries():
    import os
    locs = package_locations("sklearn")
    libs = [p for p in locs if p.endswith(".libs")]
    if not any(os.path.isdir(os.path.join(os.path.dirname(locs[0]), d)) for d in os.listdir(os.path.dirname(locs[0]))
               if d.startswith("scikit_learn") and d.endswith(".libs")):
        pytest.skip("this scikit-learn was not installed from a manylinux wheel (no scikit_learn.libs)")
    assert [os.path.basename(p) for p in libs] == ["scikit_learn.libs"]


def test_scikit_learn_runs_in_the_sandbox_when_the_spec_lists_it():
    with Worker({"perceptron.py": USE}, "perceptron", Limits(cpu_seconds=20, memory_mb=1024,
                                                             packages=PACKAGES)) as w:
        r = w.call(CALL, timeout=60)
    assert r.error is None, r.message
    assert r.ok == {"w": [2.0, 1.5], "b": 0.0}, r.ok


def test_an_allowed_package_brings_what_it_needs_at_run_time():
    """pandas imports dateutil, and dateutil (before 4.0) imports six: allowing pandas must be
    enough for ``import pandas`` to work in the worker (extras and other platforms' requirements
    stay out)."""
    import importlib.metadata as md
    from sandbox.isolation import with_requirements
    pytest.importorskip("pandas")
    got = with_requirements(["numpy", "pandas"])
    assert got[:2] == ["numpy", "pandas"] and "dateutil" in got
    dateutil_needs_six = any(r.split(";")[0].strip().startswith("six")
                             for r in md.requires("python-dateutil") or [])
    assert ("six" in got) == dateutil_needs_six, (got, md.version("python-dateutil"))
    assert "pytest" not in got and "pyarrow" not in got          # pandas' test and pyarrow extras
    assert with_requirements(["numpy"]) == ["numpy"]
