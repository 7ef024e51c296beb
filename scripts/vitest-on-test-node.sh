#!/usr/bin/env bash
# Runs vitest with the given arguments on the Node the tests use (Node 26, scripts/ensure-test-node.sh),
# with that Node first on PATH, so every process the tests start (gw through process.execPath, the coding
# tools through their `#!/usr/bin/env node`) runs on it too.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
test_node="$(bash scripts/ensure-test-node.sh)"
echo "vitest on Node $("$test_node" --version)" >&2
PATH="$(dirname "$test_node"):$PATH" exec "$test_node" node_modules/vitest/vitest.mjs "$@"
