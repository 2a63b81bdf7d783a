# The type checkers, to check the bridges of this environment here (test_frameworks_types.py):
# the main pyright and mypy runs exclude them, since the tools venv cannot hold these frameworks.
python -m pip install --quiet --disable-pip-version-check --group ../../pyproject.toml:lint
