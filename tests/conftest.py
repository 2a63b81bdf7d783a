"""Hypothesis profiles: a deterministic one for CI, a fast one for local work.

- ``ci`` (chosen when ``CI`` is set): derandomized, so every run draws the same
  examples and CI cannot go red by chance; no example database is read or written.
- ``dev`` (the default elsewhere): fewer examples, for a quick local loop.
- ``thorough``: many random examples, for hunting bugs before a release
  (``HYPOTHESIS_PROFILE=thorough bash scripts/test.sh 3.12``). A failure it finds
  becomes an explicit ``@example`` or regression test, never a flaky CI run.

``HYPOTHESIS_PROFILE`` overrides the choice.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile(
    "ci",
    max_examples=200,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=_SLOW_IS_FINE,
)
settings.register_profile(
    "dev", max_examples=40, database=None, deadline=None, suppress_health_check=_SLOW_IS_FINE
)
settings.register_profile(
    "thorough", max_examples=2000, database=None, deadline=None, suppress_health_check=_SLOW_IS_FINE
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)
