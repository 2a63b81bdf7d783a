#!/usr/bin/env bash
# Build, serve or check the documentation site, in .venvs/docs.
# Usage: bash scripts/docs.sh [build|serve|check]
#   build (default)  build into site/ with --strict, as CI does
#   serve            serve on http://127.0.0.1:8000, rebuilt as the pages change
#   check            build, then open every page in headless Chromium (scripts/check_site.py)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_env.sh
mapfile -t pythons < <(find_pythons)
python=$(python_for 3.11)
python=${python:-${pythons[0]:-$(command -v python3)}}
echo "== docs: .venvs/docs"
ensure_venv "$python" .venvs/docs -e . --group docs
export NO_MKDOCS_2_WARNING=1
case "${1:-build}" in
build)
    echo "-- mkdocs build --strict (into site/)"
    .venvs/docs/bin/mkdocs build --strict --site-dir site
    ;;
serve)
    echo "-- mkdocs serve: http://127.0.0.1:8000 (Ctrl-C stops)"
    exec .venvs/docs/bin/mkdocs serve --dev-addr 127.0.0.1:8000
    ;;
check)
    site=$(mktemp -d)
    echo "-- mkdocs build --strict (into $site)"
    .venvs/docs/bin/mkdocs build --strict --site-dir "$site"
    echo "-- every page in headless Chromium"
    .venvs/docs/bin/python scripts/check_site.py "$site"
    rm -rf "$site"
    ;;
*)
    echo "scripts/docs.sh: unknown command ${1} (build, serve or check)" >&2
    exit 2
    ;;
esac
