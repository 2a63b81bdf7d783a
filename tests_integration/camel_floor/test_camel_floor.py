"""The camel bridge's tests, run against the oldest release its extra allows."""

from tests_integration.camel.test_camel import *  # noqa: F403  (the same tests, collected here)
