# Install the pinned npm packages (real MCP servers and the MCP Inspector CLI).
set -euo pipefail
npm ci --no-audit --no-fund
