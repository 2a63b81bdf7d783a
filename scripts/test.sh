#!/usr/bin/env bash
# Run the test suite on every CPython 3.10-3.13 found on this machine, each in its
# own virtualenv under .venvs/ with all optional dependencies installed.
# Usage: bash scripts/test.sh [3.X ...] [pytest args...]
#   bash scripts/test.sh                 every interpreter found, then tests_integration/
#   bash scripts/test.sh 3.12            only CPython 3.12
#   bash scripts/test.sh 3.11 -k toolkit one interpreter, some tests
# COVERAGE_ON=3.11 also measures branch coverage on that interpreter.
# Property tests use hypothesis's derandomized "ci" profile when CI is set and a fast
# "dev" profile otherwise; HYPOTHESIS_PROFILE=thorough hunts with many more examples.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_env.sh

# With no arguments the integration environments (tests_integration/) run too.
run_integration=0
[ "$#" -eq 0 ] && [ -z "${SKIP_INTEGRATION:-}" ] && run_integration=1

# Leading 3.X arguments pick interpreters; the rest go to pytest.
wanted=()
while [ "$#" -gt 0 ] && [[ "$1" =~ ^3\.[0-9]+$ ]]; do
    wanted+=("$1")
    shift
done

mapfile -t pythons < <(find_pythons)
if [ "${#pythons[@]}" -eq 0 ]; then
    pythons=("$(command -v python3)")
fi
if [ "${#wanted[@]}" -ne 0 ]; then
    picked=()
    for version in "${wanted[@]}"; do
        found=$(python_for "$version")
        if [ -z "$found" ]; then
            echo "scripts/test.sh: no CPython $version on this machine (found: ${pythons[*]})" >&2
            exit 2
        fi
        picked+=("$found")
    done
    pythons=("${picked[@]}")
fi

failed=()
for python in "${pythons[@]}"; do
    version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    dir=".venvs/py$version"
    echo "== Python $version ($python)"
    ensure_venv "$python" "$dir" -e ".[all]" --group test
    bash scripts/fetch_test_suite.sh "$dir/bin/python"
    if [ "${COVERAGE_ON:-}" = "$version" ]; then
        # Branch coverage on one interpreter (CI sets COVERAGE_ON); the report's
        # floor fails the run if coverage drops.
        if ! "$dir/bin/python" -m coverage run -m pytest -q -p no:cacheprovider "$@" ||
            ! "$dir/bin/python" -m coverage report --fail-under=85 | grep -E '^TOTAL|failure'; then
            failed+=("$version")
        fi
    elif ! "$dir/bin/python" -m pytest -q -p no:cacheprovider "$@"; then
        failed+=("$version")
    fi
done

if [ "$run_integration" = 1 ] && ! bash scripts/integration.sh; then
    failed+=("integration")
fi

if [ "${#failed[@]}" -ne 0 ]; then
    echo "tests failed on Python ${failed[*]}"
    exit 1
fi
# Success prints nothing more: the last line stays pytest's own summary.
