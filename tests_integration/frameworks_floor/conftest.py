"""The imports and warning filters of five_frameworks/ and adk_crewai_llama_dspy/, here.

five_frameworks/'s conftest imports Semantic Kernel's OpenAI connector once with
its import-time warning silenced; DSPy's tests need no more than the project's
settings.
"""

from tests_integration.five_frameworks.conftest import *  # noqa: F403
