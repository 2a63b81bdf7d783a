"""The agno bridge's tests, run against the oldest release its extra allows."""

from tests_integration.five_frameworks.test_agno import *  # noqa: F403  (the same tests, collected here)
