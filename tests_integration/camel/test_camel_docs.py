"""The CAMEL page's examples, run here.

Fenced as ```py, which tests/test_docs.py leaves alone; ``page_tests`` (tests/env_checks.py)
runs them and checks they import only what the page's install line installs.
"""

from tests.env_checks import page_tests

globals().update(page_tests(["camel.md"]))
