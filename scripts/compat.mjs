// npm run compat: writes docs/compatibility.md from the compatibility cells the last e2e run
// recorded in test-results/compat/ (npm test and npm run test:e2e leave them there).
// npm run compat -- --run first runs the tests that record cells (the coding tools and the
// SDK matrix), after installing their dependencies and building gw.
// Exits 1 when there is nothing to write from, or when a cell the page showed as passing
// failed in that run (the page is still written: it says what the run saw).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CELLS_DIR, DOC_PATH, REPO_ROOT, writeCompatibilityDoc } from './compat-matrix.mjs';

/** The tests that record cells (scripts/compat-matrix.mjs recordCell). */
const CELL_TESTS = ['test/e2e/coding-tools', 'test/e2e/formats/vertex/vertex-clients.test.ts', 'test/e2e/translation/sdk-matrix.test.ts'];

function run(command, args) {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit' });
  return result.status ?? 1;
}

function runCellTests() {
  if (run('bash', ['scripts/ensure-test-deps.sh']) !== 0) return 1;
  if (run('npm', ['run', 'build']) !== 0) return 1;
  // A failing cell fails its test; the page is written either way, so it shows the failure.
  // One file at a time: each starts its own gw and several coding tools at once. On the test run's
  // Node (26: the newest clients declare Node >= 22), as npm test runs them.
  return run('bash', ['scripts/vitest-on-test-node.sh', 'run', '--project', 'e2e', '--no-file-parallelism', ...CELL_TESTS]);
}

function main(argv) {
  const unknown = argv.filter((arg) => arg !== '--run');
  if (unknown.length > 0) {
    console.error(`usage: npm run compat [-- --run]   (unknown: ${unknown.join(' ')})`);
    return 2;
  }
  const testsStatus = argv.includes('--run') ? runCellTests() : 0;
  let outcome;
  try {
    outcome = writeCompatibilityDoc();
  } catch (error) {
    console.error(`compat: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const doc = path.relative(REPO_ROOT, DOC_PATH);
  console.log(`compat: ${outcome.cells} cells from ${path.relative(REPO_ROOT, CELLS_DIR)}/; ${doc} ${outcome.changed ? 'updated' : 'unchanged'}`);
  if (outcome.regressions.length > 0) {
    console.error(`compat: cells that passed before now fail:\n  ${outcome.regressions.join('\n  ')}`);
    return 1;
  }
  return testsStatus;
}

process.exitCode = main(process.argv.slice(2));
