#!/usr/bin/env bash
# Fetch the official JSON-Schema-Test-Suite into .cache/json-schema-test-suite/.
# It ships inside the jsonschema source distribution; the version is pinned so the
# figures in docs/dialects.md reproduce. Idempotent: does nothing when present.
# Usage: bash scripts/fetch_test_suite.sh [python]
set -euo pipefail
cd "$(dirname "$0")/.."
version=4.26.0
dest=.cache/json-schema-test-suite
stamp="$dest/.jsonschema-$version"
if [ -f "$stamp" ]; then
    exit 0
fi
python=${1:-python3}
echo "-- fetching the JSON-Schema-Test-Suite (jsonschema $version's source) into $dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$python" -m pip download --quiet --no-deps --no-binary :all: "jsonschema==$version" -d "$tmp"
tar -xzf "$tmp/jsonschema-$version.tar.gz" -C "$tmp" "jsonschema-$version/json/tests"
rm -rf "$dest"
mkdir -p "$dest"
cp -R "$tmp/jsonschema-$version/json/tests/." "$dest/"
touch "$stamp"
