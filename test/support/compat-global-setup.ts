// The e2e project's globalSetup: empties the compatibility cells before the run, so that
// test-results/compat/ (test-results/compat-latest/ with GW_COMPAT_CLIENTS_DIR set) holds this
// run's cells only, and names the command that turns them into docs/compatibility.md. It
// writes no tracked file (npm run compat and npm run compat:latest do, on request).
import { rmSync } from 'node:fs';
import { CLIENTS_DIR, RUN_CELLS_DIR, readRecordedCells } from './compat-matrix.js';

export function setup(): void {
  rmSync(RUN_CELLS_DIR, { recursive: true, force: true });
}

export function teardown(): void {
  const cells = readRecordedCells(RUN_CELLS_DIR);
  const command = CLIENTS_DIR ? 'npm run compat:latest -- --write-only' : 'npm run compat';
  if (cells.length > 0) console.log(`${cells.length} compatibility cells recorded in ${RUN_CELLS_DIR}: ${command} writes docs/compatibility.md from them`);
}
