"""The hypothesis profiles of the test run (the shared strategies are in strategies.py,
the oracles in oracles.py)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# CI runs the thorough "ci" profile (HYPOTHESIS_PROFILE=ci in .ci/run); by hand the
# default "dev" profile keeps the suite quick.
settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, max_examples=300,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
