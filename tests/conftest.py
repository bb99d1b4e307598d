import os

import pytest

from hypothesis import HealthCheck, settings

# Property tests are derandomized and keep no example database: a run is reproducible.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# The proof cache (proofs/engines/cache.py) of the test session is a fresh temporary directory: tests never
# read the user's cache, and every session starts cold.
def _session_cache_dir():
    import atexit
    import shutil
    import tempfile
    d = tempfile.mkdtemp(prefix="mistakebound-test-cache-")
    atexit.register(shutil.rmtree, d, True)
    return d


os.environ["XDG_CACHE_HOME"] = _session_cache_dir()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """A module-scoped fixture that several tests of its module ask for (a graded batch, a checked
    catalogue, a built site) is made once per worker process: under ``-n 2 --dist loadgroup`` the
    tests that share it run in one worker (an xdist group named after the module), so that it is
    never made twice side by side.  Autouse fixtures (settings, not work) do not count; a test that
    is already in a group (the Coq tests) keeps its group, and one that asks for the session's Coq
    build joins theirs."""
    users: dict = {}
    for it in items:
        # every test that asks for the session's Coq build (itself or through another fixture) runs
        # in the Coq group: elsewhere its worker would build Coq a second time, side by side
        if not it.get_closest_marker("xdist_group") and "coq_report" in getattr(it, "fixturenames", ()):
            it.add_marker(pytest.mark.xdist_group("coq"))
            continue
        if not it.get_closest_marker("xdist_group") and _uses_a_module_fixture(it):
            users.setdefault(it.nodeid.split("::")[0], []).append(it)
    for path, its in users.items():
        if len(its) > 1:
            for it in its:
                it.add_marker(pytest.mark.xdist_group(os.path.basename(path).removesuffix(".py")))
    # the longest unit of work, the Coq group (one build, then every Coq test), is handed out first:
    # xdist hands out the largest groups first, in collection order among equals, so the worker that
    # takes it starts it at once and the other worker shares out the rest around it
    items.sort(key=lambda it: not any(m.args[:1] == ("coq",) for m in it.iter_markers("xdist_group")))


def _uses_a_module_fixture(item) -> bool:
    try:
        info = item._fixtureinfo
        auto = set(item.session._fixturemanager._getautousenames(item))
    except AttributeError:          # another pytest's internals: no grouping, only a slower run
        return False
    for name in info.names_closure:
        defs = info.name2fixturedefs.get(name)
        if name not in auto and defs and defs[-1].scope == "module":
            return True
    return False


def pytest_collection_finish(session):
    """Under ``-n 2 --dist loadgroup`` the Coq tests share one build because they run in one worker
    (the "coq" xdist group).  A pytest that drops xdist's group suffix would split them (two cold
    Coq builds side by side): refuse that in one line rather than run the suite twice as slowly."""
    config = session.config
    if not os.environ.get("PYTEST_XDIST_WORKER") or not config.getvalue("loadgroup"):
        return
    split = [it.nodeid for it in session.items if it.get_closest_marker("xdist_group") and "@" not in it.nodeid]
    if split:
        raise pytest.UsageError(f"this pytest ignores xdist groups ({split[0]} has no @group suffix): "
                                "install pytest < 9.2 (the test extra pins it)")


_MUTATION_COUNTS: list = []


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """xdist (controller): what a worker's mutation tests counted (tests/proofs/test_proofs_mutation.py)."""
    got = getattr(node, "workeroutput", {}).get("mutation_counts")
    if got:
        import json
        _MUTATION_COUNTS.append(json.loads(got))


def pytest_terminal_summary(terminalreporter):
    """Under ``-n 2`` the mutation suite's report (mutants per class, false statements proved)
    adds up what every worker ran, and is printed once, here."""
    if not _MUTATION_COUNTS:
        return
    import collections
    from catalogue_mutants import mutation_summary, write_mutation_report
    total: dict = collections.defaultdict(collections.Counter)
    for counts in _MUTATION_COUNTS:
        for kind, outcomes in counts.items():
            total[kind].update(outcomes)
    for line in mutation_summary(total):
        terminalreporter.write_line(line)
    write_mutation_report(total)


def pytest_configure(config):
    """The same refusal before any worker starts, for the pytest releases known to drop the groups."""
    if getattr(config.option, "dist", "no") != "loadgroup" or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    major, minor = (int(p) if p.isdigit() else 0 for p in pytest.__version__.split(".")[:2])
    if (major, minor) >= (9, 2):
        raise pytest.UsageError(f"pytest {pytest.__version__} ignores xdist groups (the Coq tests would run in two "
                                "workers, two cold Coq builds side by side): install pytest < 9.2 (the test extra "
                                "pins it)")


# ------------------------------------------------------------------ the Coq tests' shared work
# One build of the Coq development per session (the "coq" xdist group runs in one worker), shared by
# every Coq test module: a module that asked for its own would pay the generation of every statement
# and step again (several seconds of Python each time) only to reuse every compiled file.
@pytest.fixture(scope="session")
def coq_report():
    from coq_support import require_coq
    from coq import build
    require_coq()
    return build.build()          # the default build directory: reused when nothing changed


@pytest.fixture(scope="session")
def verify_coq_runs(coq_report, tmp_path_factory):
    """``mistakebound verify --coq`` as a user runs it, once for the whole catalogue (the text on
    stdout, the JSON report in a file) and once for a selection of one catalogue theorem and one
    learner theorem (JSON on stdout): (full run, its JSON, selective run), each a CompletedProcess."""
    import json
    import subprocess
    import sys
    out = tmp_path_factory.mktemp("verify_coq") / "coq.json"
    full = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--coq", "--json", str(out)],
                          capture_output=True, text=True)
    data = json.loads(out.read_text()) if out.exists() else None
    some = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--coq", "--theorem", "cauchy_schwarz",
                           "--theorem", "learner_perceptron_radius", "--json", "-"], capture_output=True, text=True)
    return full, data, some
