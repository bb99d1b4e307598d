"""Compiled code works from any install: a read-only copy of the package, run by a user without a
writable home, compiles its loops without numba's on-disk cache instead of failing.

The run happens in a child process.  As root the child drops to the unprivileged user ``nobody``
(setuid); otherwise the copy and the home directory are made read-only with chmod.  A probe module
decorated with plain ``numba.njit(cache=True)`` checks that the setting really is the one where
numba refuses to cache ("no locator available").
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np
import pytest

import learners
from learners import _jit

PKG_DIR = Path(learners.__file__).resolve().parent

# The same work in the parent and in the child: the compiled paths of the grader's reference
# learners (perceptron float / fast / exact, exact Winnow); every compiled module is imported.
WORKLOAD = textwrap.dedent("""
    def workload(learners):
        import numpy as np
        rng = np.random.default_rng(3)
        X = rng.integers(-3, 4, size=(60, 4)).astype(np.float64)
        y = np.where(X @ np.array([1.0, -2.0, 0.5, 1.0]) + 0.5 > 0, 1, -1)
        out = {}
        for name, kw in [("float", {}), ("fast", {"fast": True}), ("exact", {"exact": True})]:
            tr = learners.run_perceptron(X, y, epochs=2, bias=True, record="none", **kw)
            out[name] = [tr.mistakes, [float(v) for v in tr.weights], float(tr.bias)]
        tr = learners.run_perceptron(X.astype(np.int64) * 3, y, bias=True, exact=True, record="none")
        out["int64"] = [tr.mistakes, [float(v) for v in tr.weights], tr.params["exact_engine"]]
        tr = learners.run_winnow((X > 0).astype(np.int64), (y > 0).astype(np.int64), record="none")
        out["winnow"] = [tr.mistakes, [float(v) for v in tr.weights]]
        return out
""")

CHILD = WORKLOAD + textwrap.dedent("""
    import json, os, sys
    pkg, drop = sys.argv[1], sys.argv[2] == "1"
    # Load the interpreter's modules (numpy, numba's internals, the standard library) by running
    # the workload once with the installed package, while those files are still readable ...
    import learners
    workload(learners)
    # with a warm cache the workload compiled nothing: load the compiler's own modules (lowering,
    # the runtime) as a compilation without a cache needs them
    import numba, numpy
    numba.njit(cache=False)(lambda n: numpy.empty(n).sum())(3)
    for name in [m for m in sys.modules if m == "learners" or m.startswith("learners.")]:
        del sys.modules[name]
    # ... then become an unprivileged user and import the read-only copy afresh.
    if drop:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    sys.path.insert(0, pkg)
    os.chdir(pkg)
    res = {"uid": os.getuid(), "home": os.path.expanduser("~")}
    try:
        import probe_cache
        probe_cache.f(1)
        res["probe"] = "cached"
    except RuntimeError as e:
        res["probe"] = str(e)
    import learners
    res["file"] = learners.__file__
    res["run"] = workload(learners)
    import numba
    from learners import _jit, _loops, _loops_sparse, _kernel_loops, _winnow_loops
    res["uncached"] = list(_jit.uncached())
    res["dispatchers"] = sorted(f"{v.py_func.__module__}.{v.py_func.__qualname__}"
                                for m in (_loops, _loops_sparse, _kernel_loops, _winnow_loops)
                                for v in vars(m).values() if isinstance(v, numba.core.dispatcher.Dispatcher))
    print(json.dumps(res))
""")

PROBE = "import numba\n\n\n@numba.njit(cache=True)\ndef f(x):\n    return x + 1\n"


def _read_only(path: Path):
    for p in sorted(path.rglob("*"), reverse=True):
        p.chmod(0o444 if p.is_file() else 0o555)
    path.chmod(0o555)


def _writable(path: Path):
    path.chmod(0o755)
    for p in path.rglob("*"):
        p.chmod(stat.S_IMODE(p.stat().st_mode) | 0o700)


@pytest.mark.slow
def test_compiled_loops_fall_back_to_no_cache_on_a_read_only_install():
    root = Path(tempfile.mkdtemp(prefix="mistakebound-ro-"))
    try:
        root.chmod(0o755)                               # nobody must be able to reach the copy
        site = root / "site"
        shutil.copytree(PKG_DIR, site / "learners", ignore=shutil.ignore_patterns("__pycache__"))
        (site / "probe_cache.py").write_text(PROBE)
        home = root / "home"
        home.mkdir()
        (root / "child.py").write_text(CHILD)
        _read_only(site)
        _read_only(home)
        env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
        env["HOME"] = str(home)
        drop = os.geteuid() == 0
        proc = subprocess.run([sys.executable, str(root / "child.py"), str(site), "1" if drop else "0"],
                              cwd=root, env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        res = json.loads(proc.stdout.strip().splitlines()[-1])
    finally:
        _writable(root)
        shutil.rmtree(root, ignore_errors=True)
    if drop:
        assert res["uid"] == 65534
    assert res["home"] == str(home)
    # the setting is the one where numba refuses to cache ...
    assert "no locator available" in res["probe"], res["probe"]
    # ... the copy (not the installed package) was imported, every loop compiled without a cache,
    assert res["file"].startswith(str(site))
    assert res["dispatchers"] and set(res["dispatchers"]) <= set(res["uncached"])
    # ... and the results are those of the normal install
    ns = {}
    exec(WORKLOAD, ns)
    assert res["run"] == json.loads(json.dumps(ns["workload"](learners)))


def test_a_cache_that_fails_on_io_is_skipped(tmp_path, monkeypatch):
    """A cache directory that passes numba's probe but then fails to read or write: the function
    still runs (compiled, uncached) and is named by uncached()."""
    mod = tmp_path / "probe_io.py"
    mod.write_text("from learners._jit import compiled\n\n\n@compiled\ndef g(x):\n    return 2 * x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import probe_io
    impl = probe_io.g._cache._cache_file

    def broken(*a, **k):
        raise PermissionError(13, "Permission denied", "index")
    monkeypatch.setattr(impl, "save", broken)
    monkeypatch.setattr(impl, "load", broken)
    assert probe_io.g(np.int64(20)) == 41
    assert "probe_io.g" in _jit.uncached()
    sys.modules.pop("probe_io", None)


def test_compiled_refuses_a_cache_option():
    with pytest.raises(TypeError):
        _jit.compiled(cache=False)
