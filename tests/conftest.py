import os

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
