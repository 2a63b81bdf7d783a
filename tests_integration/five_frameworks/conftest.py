"""Imports that warn on import, done once here with that warning silenced.

The project runs pytest with warnings as errors. Semantic Kernel 1.45's OpenAI
connector defines a pydantic model that triggers pydantic's
``PydanticDeprecatedSince211`` while the module is imported, before any test can
filter it; importing the module here first keeps that one warning of a dependency
out of the way, and every other warning still fails the run.
"""

from __future__ import annotations

import warnings

from pydantic.warnings import PydanticDeprecatedSince211

with warnings.catch_warnings():
    warnings.simplefilter("ignore", PydanticDeprecatedSince211)
    import semantic_kernel.connectors.ai.open_ai  # noqa: F401
