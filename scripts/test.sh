#!/usr/bin/env bash
# Run the test suite, each interpreter in its own virtualenv under .venvs/ with all
# optional dependencies installed.
# Usage: bash scripts/test.sh [--all] [3.X ...] [pytest args...]
#   bash scripts/test.sh                 the core suite (tests/) on one interpreter:
#                                        CPython 3.11 when present, else the first found
#   bash scripts/test.sh --all           what CI runs: the core suite on every CPython
#                                        3.10-3.13 found and, in two parallel lanes, every
#                                        integration environment (scripts/integration.sh)
#   bash scripts/test.sh 3.12            only CPython 3.12
#   bash scripts/test.sh 3.11 -k toolkit one interpreter, some tests
# COVERAGE_ON=3.11 also measures branch coverage on that interpreter.
# Property tests use hypothesis's derandomized "ci" profile when CI is set and a fast
# "dev" profile otherwise; HYPOTHESIS_PROFILE=thorough hunts with many more examples.
# Exit code: 0 when every run passed, 5 when no run collected a test (pytest's own
# code for that, e.g. a -k that matches nothing), 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_env.sh

all=0
if [ "${1:-}" = "--all" ]; then
    all=1
    shift
fi

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
elif [ "$all" = 0 ]; then
    # A newcomer's run: one interpreter, 3.11 when present.
    one=$(python_for 3.11)
    pythons=("${one:-${pythons[0]}}")
fi

failed=()
empty=()
lane_pids=()
lane_logs=()
if [ "$all" = 1 ]; then
    # The integration environments build and run in two lanes beside the core suites:
    # mostly one process each, they keep both cores busy once the core suites are
    # done. Each lane's output is shown after the core suites, so none interleave.
    # The heaviest environments (the framework ones, install, the MCP suite) are
    # spread over the two lanes.
    lanes=(
        "five_frameworks install strands langchain_floor openai_agents_floor mcp_floor agent_sdks agent_sdks_floor frameworks_floor crewai_llama_floor camel camel_floor"
        "adk_crewai_llama_dspy mcp_conformance mcp_npm langchain_standard strands_floor pydantic_ai_floor langchain_chat_openai google_genai_floor google_adk_floor mcp_scale"
    )
    listed=" ${lanes[*]} "
    for dir in tests_integration/*/; do  # an environment no lane names joins the last
        name=$(basename "$dir")
        if [ -f "$dir/requirements.txt" ] && [[ "$listed" != *" $name "* ]]; then
            lanes[1]+=" $name"
        fi
    done
    for lane in "${lanes[@]}"; do
        log=$(mktemp)
        # shellcheck disable=SC2086  # the lane is a list of names
        bash scripts/integration.sh $lane >"$log" 2>&1 &
        lane_pids+=("$!")
        lane_logs+=("$log")
    done
fi
for python in "${pythons[@]}"; do
    version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    dir=".venvs/py$version"
    echo "== Python $version ($python)"
    extra=()  # the tools' groups, when .ci/run made this venv the tools' one
    if [ "$dir" = "${STANDARD_TOOL_TOOLS_VENV:-}" ]; then
        read -ra extra <<<"${STANDARD_TOOL_TOOLS_GROUPS:-}"
    fi
    ensure_venv "$python" "$dir" -e ".[all]" --group test "${extra[@]+"${extra[@]}"}"
    bash scripts/fetch_test_suite.sh "$dir/bin/python"
    echo "-- running the core suite on Python $version (a few minutes; a dot per passed test)"
    code=0
    if [ "${COVERAGE_ON:-}" = "$version" ]; then
        # Branch coverage on one interpreter (CI sets COVERAGE_ON); the report's
        # floor fails the run if coverage drops.
        "$dir/bin/python" -m coverage run -m pytest -q -p no:cacheprovider "$@" || code=$?
        if [ "$code" = 0 ] &&
            ! "$dir/bin/python" -m coverage report --fail-under=85 | grep -E '^TOTAL|failure'; then
            code=1
        fi
    else
        "$dir/bin/python" -m pytest -q -p no:cacheprovider "$@" || code=$?
    fi
    # pytest exits 5 when it collected no test: say so rather than call it a failure.
    if [ "$code" = 5 ]; then
        echo "scripts/test.sh: no tests collected on Python $version (pytest exit 5)" >&2
        empty+=("$version")
    elif [ "$code" != 0 ]; then
        failed+=("$version")
    fi
done

for index in "${!lane_pids[@]}"; do
    lane_code=0
    wait "${lane_pids[$index]}" || lane_code=$?
    cat "${lane_logs[$index]}"
    rm -f "${lane_logs[$index]}"
    [ "$lane_code" = 0 ] || failed+=("integration")
done

if [ "${#failed[@]}" -ne 0 ]; then
    echo "tests failed on Python ${failed[*]}"
    exit 1
fi
if [ "${#empty[@]}" -eq "${#pythons[@]}" ]; then
    exit 5
fi
# Success prints nothing more: the last line stays pytest's own summary.
