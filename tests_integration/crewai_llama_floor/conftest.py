"""The imports and warning filters of adk_crewai_llama_dspy/, here.

The litellm that CrewAI 1.7.0 allows reads its model cost map with
``importlib.resources.open_text``, deprecated, when it is first imported: it is
imported here once with that warning ignored.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "open_text is deprecated", DeprecationWarning)
    import litellm  # noqa: F401

from tests_integration.adk_crewai_llama_dspy.conftest import *  # noqa: F403
