# The type checkers, to check this folder's integration module here (test_camel_types.py):
# the main pyright and mypy runs exclude them, since the tools venv cannot hold them.
python -m pip install --quiet --disable-pip-version-check --group ../../pyproject.toml:lint
