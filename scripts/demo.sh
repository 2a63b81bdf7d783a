#!/usr/bin/env bash
# Run the main demo: no network and no API key (a scripted model plays the LLM).
# Usage: bash scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_env.sh
mapfile -t pythons < <(find_pythons)
python=${pythons[0]:-$(command -v python3)}
echo "== demo: offline, no API key (a scripted model plays the LLM); installing into .venvs/demo"
ensure_venv "$python" .venvs/demo -e .
echo "-- running examples/demo.py"
exec .venvs/demo/bin/python examples/demo.py
