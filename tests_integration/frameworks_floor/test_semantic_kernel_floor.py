"""The semantic_kernel bridge's tests, run against the oldest release its extra allows."""

from tests_integration.five_frameworks.test_semantic_kernel import *  # noqa: F403  (the same tests, collected here)
