import os

from hypothesis import HealthCheck, settings

# Property tests are derandomized and keep no example database: a run is reproducible.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
