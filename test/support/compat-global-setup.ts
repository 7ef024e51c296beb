// The e2e project's globalSetup: empties the compatibility cells before the run, so that
// test-results/compat/ holds this run's cells only, and names the command that turns them
// into docs/compatibility.md. It writes no tracked file (npm run compat does, on request).
import { rmSync } from 'node:fs';
import { CELLS_DIR, readRecordedCells } from './compat-matrix.js';

export function setup(): void {
  rmSync(CELLS_DIR, { recursive: true, force: true });
}

export function teardown(): void {
  const cells = readRecordedCells();
  if (cells.length > 0) console.log(`${cells.length} compatibility cells recorded in test-results/compat/: npm run compat writes docs/compatibility.md from them`);
}
