"""docs/langchain.md's ```py examples (`langchain`, LangGraph); ```python ones: core suite.

Fenced as ```py, which tests/test_docs.py leaves alone; ``page_tests`` (tests/env_checks.py)
runs them and checks they import only what the page's install line installs.
"""

from tests.env_checks import page_tests

globals().update(page_tests(["langchain.md"], least=1, only_here=False))
