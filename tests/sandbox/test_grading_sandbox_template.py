"""Workers forked from the preloaded template hold what a freshly started worker holds, and nothing a
submission does reaches the template or the next worker."""
import os
import resource

import pytest

from sandbox import _template
from sandbox.isolation import IsolationUnavailable
from sandbox.worker import Limits, Worker

PROBE = b'''
import os, sys, numpy
def fds():
    return [int(f) for f in os.listdir("/proc/self/fd")]
def info():
    import numpy.polynomial            # a submodule numpy loads lazily: from the view's /packages
    return [len(numpy.__file__), numpy.__file__.startswith("/packages/numpy/"),
            numpy.polynomial.__file__.startswith("/packages/numpy/"), os.getppid(), len(sys.modules)]
def draw():
    import random
    return [numpy.random.randint(0, 2 ** 31), random.getrandbits(31)]
def spoil():                            # the worker's own copy of numpy and of the harness
    numpy.ones = None
    import __main__
    __main__.HERE = "spoiled"
    return [0]
def spoiled():
    import __main__
    return [1 if numpy.ones is None else 0, 1 if __main__.HERE == "spoiled" else 0]
'''


def _call(w, name):
    r = w.call({"op": "call", "name": name, "args": [], "returns": "vector"}, timeout=30)
    assert r.error is None, r
    return r.ok["w"]


def _worker():
    return Worker({"m.py": PROBE}, "m", Limits())


@pytest.fixture
def isolated():
    w = _worker()
    try:
        err = w.start()
    except IsolationUnavailable as e:
        w.close()
        if os.environ.get("CI") == "1":
            raise
        pytest.skip(f"this machine cannot isolate a worker: {e.line()[:200]}")
    assert err is None, err
    yield w
    w.close()


def test_a_forked_worker_holds_only_its_pipes_and_sees_numpy_in_its_view(isolated):
    if not _template.ENABLED:
        pytest.skip("MISTAKEBOUND_SANDBOX_TEMPLATE=0: every worker is started afresh")
    assert isinstance(isolated.proc, _template.Forked)
    assert isolated.isolation["checked"] and not isolated.isolation["missing"]
    # stdin, stdout, stderr, its request and answer pipes, and the one listdir opens: no more
    assert len(_call(isolated, "fds")) == 6
    n, top, sub, ppid, _ = _call(isolated, "info")
    assert top == 1 and sub == 1 and ppid == 0          # PID 1 of its namespace: its parent is outside


def test_nothing_a_worker_does_reaches_the_next_one_and_draws_differ():
    seen = []
    for _ in range(2):
        with _worker() as w:
            if w.start() is not None:
                pytest.skip("no worker here")
            seen.append(_call(w, "draw"))
            assert _call(w, "spoiled") == [0, 0]      # the previous worker's changes are not here
            _call(w, "spoil")
            assert _call(w, "spoiled") == [1, 1]
    assert seen[0] != seen[1]                    # fresh seeds in each worker, as a fresh interpreter has


def test_a_package_from_outside_the_view_is_refused_by_the_template(tmp_path):
    """The template imports only what the worker's view shows: a preload that pulls in a module
    from anywhere else is refused, and the worker is then started afresh."""
    bad = tmp_path / "pkgs"
    (bad / "leaky").mkdir(parents=True)
    (bad / "leaky" / "__init__.py").write_text("import helper_outside\n")
    (bad / "helper_outside.py").write_text("x = 1\n")
    cfg = {"preload": ["leaky"], "package_dirs": [str(bad)], "packages": [[str(bad / "leaky"), "leaky"]],
           "stdlib": [os.path.dirname(os.__file__)]}
    with pytest.raises(_template.TemplateGone, match="outside the worker's view"):
        _template.Template(cfg, {"PATH": "/usr/bin:/bin"}, 30)


def test_the_template_costs_a_fraction_of_a_fresh_start():
    """CPU time of this process and its children (the template, the workers) per worker started,
    template against fresh: a ratio measured in the same run, not a speed figure."""
    def cost(n):
        a = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        for _ in range(n):
            with _worker() as w:
                if w.start() is not None:
                    pytest.skip("no worker here")
                _call(w, "spoiled")
        _template.stop_all()
        b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return sum(y.ru_utime + y.ru_stime - x.ru_utime - x.ru_stime for x, y in zip(a, b))
    if not _template.ENABLED:
        pytest.skip("MISTAKEBOUND_SANDBOX_TEMPLATE=0")
    try:
        _template.ENABLED = False
        fresh = cost(6)
    finally:
        _template.ENABLED = True
    forked = cost(6)          # the template's own start-up included
    assert forked < 0.6 * fresh, (forked, fresh)
