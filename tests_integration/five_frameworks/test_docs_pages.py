"""The Agno, Semantic Kernel, AutoGen, Haystack and smolagents pages' examples, here.

Fenced as ```py, which tests/test_docs.py leaves alone; ``page_tests`` (tests/env_checks.py)
runs them and checks they import only what the page's install line installs.
"""

from tests.env_checks import page_tests

globals().update(
    page_tests(["agno.md", "semantic-kernel.md", "autogen.md", "haystack.md", "smolagents.md"])
)
