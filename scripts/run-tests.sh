#!/usr/bin/env bash
# The README's test command (`npm test`, which CI runs through .ci/run on a fresh clone):
#   1. installs, once, what the tests drive (coding tools, Debian packages) and Node 26;
#   2. builds on the machine's own Node;
#   3. lints, and meanwhile runs the unit tier and the README journey, on the machine's own Node
#      (gw supports 20.18.1+);
#   4. runs every test, both tiers, on Node 26 LTS: vitest and every process the tests start
#      (gw, the coding tools, SDK clients) run on it, through PATH and process.execPath.
# docs/testing.md says which Node lines are supported and which one each step uses.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-test-deps.sh
bash scripts/ensure-test-node.sh >/dev/null
# Incremental (dist/.tsbuildinfo): npm install's prepare built this clone already, so this re-checks in ~6 s of CPU, not ~25.
npm run build
# The linter (eslint with type information, then knip: about 80 s of CPU on one core) runs beside the
# unit tier and the README journey, which leave a core free for much of their time; its output is
# printed when it ends, and its failure fails the run before the Node 26 run starts.
lint_log="$(mktemp)"
npm run lint >"$lint_log" 2>&1 &
lint_pid=$!
trap 'kill "$lint_pid" 2>/dev/null || true; rm -f "$lint_log"' EXIT
echo "tests on this machine's Node $(node --version): the unit tier and the README journey" >&2
npx vitest run --project unit
npx vitest run test/e2e/docs/doc-blocks.test.ts -t '^README\.md '
lint_status=0
wait "$lint_pid" || lint_status=$?
cat "$lint_log"
if [ "$lint_status" -ne 0 ]; then echo "npm run lint failed (exit $lint_status)" >&2; exit "$lint_status"; fi
bash scripts/vitest-on-test-node.sh run
