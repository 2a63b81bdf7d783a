"""docs/strands.md's examples, run where Strands is installed.

Fenced as ```py, which tests/test_docs.py leaves alone; ``page_tests`` (tests/env_checks.py)
runs them and checks they import only what the page's install line installs.
"""

from tests.env_checks import page_tests

globals().update(page_tests(["strands.md"], least=3))
