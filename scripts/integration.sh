#!/usr/bin/env bash
# Run the integration environments: each folder tests_integration/NAME/ is one
# environment that the core suite's virtualenvs cannot hold (a framework whose
# dependencies conflict with another's, a library pinned at our stated floor, npm
# packages for real MCP servers). Usage: bash scripts/integration.sh [NAME ...]
#
# A folder holds:
#   requirements.txt  pip requirement lines installed beside the project and the test group
#   python-version    optional, one line "3.X" (default 3.11): the interpreter to use
#   setup.sh          optional, run from the folder with the env's bin/ first on PATH
#                     before the tests (for example `npm ci` for MCP servers)
#   test_*.py         the tests, run with that environment's pytest
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_env.sh

names=("$@")
if [ "${#names[@]}" -eq 0 ]; then
    for dir in tests_integration/*/; do
        [ -f "$dir/requirements.txt" ] && names+=("$(basename "$dir")")
    done
fi

failed=()
for name in "${names[@]}"; do
    dir="tests_integration/$name"
    if [ ! -f "$dir/requirements.txt" ]; then
        echo "scripts/integration.sh: no environment $dir (it needs a requirements.txt)" >&2
        exit 2
    fi
    version=3.11
    [ -f "$dir/python-version" ] && version=$(tr -d '[:space:]' <"$dir/python-version")
    python=$(python_for "$version")
    if [ -z "$python" ]; then
        echo "scripts/integration.sh: $name needs CPython $version, not found" >&2
        exit 2
    fi
    venv=".venvs/int-$name"
    echo "== integration: $name (Python $version)"
    keyed=""  # setup.sh may install into the venv too: a kept venv is keyed by it
    [ -f "$dir/setup.sh" ] && keyed="$dir/setup.sh"
    VENV_KEY_FILES="$keyed" ensure_venv "$python" "$venv" -e . --group test -r "$dir/requirements.txt"
    if [ -f "$dir/setup.sh" ]; then
        # The venv's real path, not a link to a kept one: what setup.sh installs with
        # pip (pyright...) names its interpreter by the path pip ran with.
        bin="$(cd "$venv/bin" && pwd -P)"
        (cd "$dir" && PATH="$bin:$PATH" bash setup.sh)
    fi
    if ! "$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir=. -c pyproject.toml "$dir"; then
        failed+=("$name")
    fi
done

if [ "${#failed[@]}" -ne 0 ]; then
    echo "integration environments failed: ${failed[*]}"
    exit 1
fi
