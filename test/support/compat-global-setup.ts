// vitest globalSetup: clears the compatibility cells before the run and, after it, writes
// the README's matrix from them (compat-matrix.ts). A regressed cell fails the run.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CELLS_DIR, REPO_ROOT, readRecordedCells, updateReadme } from './compat-matrix.js';

export function setup(): void {
  rmSync(CELLS_DIR, { recursive: true, force: true });
}

export function teardown(): void {
  const cells = readRecordedCells();
  if (cells.length === 0) return;
  const readmePath = path.join(REPO_ROOT, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const { text, regressions } = updateReadme(readme, cells);
  if (text !== readme) writeFileSync(readmePath, text);
  if (regressions.length > 0) {
    // vitest reports an error thrown here but still exits 0: the exit code is set explicitly.
    console.error(`compatibility matrix: cells that passed before now fail:\n  ${regressions.join('\n  ')}`);
    process.exitCode = 1;
  }
}
