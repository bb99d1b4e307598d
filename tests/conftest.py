import os

import pytest

from hypothesis import HealthCheck, settings

# Property tests are derandomized and keep no example database: a run is reproducible.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# The proof cache (proofs/cache.py) of the test session is a fresh temporary directory: tests never
# read the user's cache, and every session starts cold.
def _session_cache_dir():
    import atexit
    import shutil
    import tempfile
    d = tempfile.mkdtemp(prefix="mistakebound-test-cache-")
    atexit.register(shutil.rmtree, d, True)
    return d


os.environ["XDG_CACHE_HOME"] = _session_cache_dir()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Under ``-n 2 --dist loadgroup`` the Coq tests share one build because they run in one worker
    (the "coq" xdist group).  A pytest that drops xdist's group suffix would split them (two cold
    Coq builds side by side): refuse that in one line rather than run the suite twice as slowly."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or not config.getvalue("loadgroup"):
        return
    split = [it.nodeid for it in items if it.get_closest_marker("xdist_group") and "@" not in it.nodeid]
    if split:
        raise pytest.UsageError(f"this pytest ignores xdist groups ({split[0]} has no @group suffix): "
                                "install pytest < 9.2 (the test extra pins it)")


def pytest_configure(config):
    """The same refusal before any worker starts, for the pytest releases known to drop the groups."""
    if getattr(config.option, "dist", "no") != "loadgroup" or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    major, minor = (int(p) if p.isdigit() else 0 for p in pytest.__version__.split(".")[:2])
    if (major, minor) >= (9, 2):
        raise pytest.UsageError(f"pytest {pytest.__version__} ignores xdist groups (the Coq tests would run in two "
                                "workers, two cold Coq builds side by side): install pytest < 9.2 (the test extra "
                                "pins it)")
