# The type checkers, to check integrations/strands.py here (test_strands_types.py):
# the main pyright and mypy runs exclude it, since the tools venv cannot hold Strands.
python -m pip install --quiet --disable-pip-version-check --group ../../pyproject.toml:lint
