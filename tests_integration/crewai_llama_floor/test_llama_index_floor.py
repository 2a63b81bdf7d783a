"""The llama_index bridge's tests, run against the oldest release its extra allows."""

from tests_integration.adk_crewai_llama_dspy.test_llama_index import *  # noqa: F403  (the same tests, collected here)
