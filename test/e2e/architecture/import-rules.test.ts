// The import rules of CONVENTIONS.md, enforced by dependency-cruiser over src/.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

it('src/ keeps the import rules (.dependency-cruiser.cjs)', () => {
  const bin = path.join(root, 'node_modules', '.bin', 'depcruise');
  let output: string;
  try {
    output = execFileSync(bin, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: root, encoding: 'utf8' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toContain('no dependency violations found');
  // dependency-cruiser reads all of src/ with the TypeScript compiler: over 30 s on a loaded 2-core machine.
}, 120_000);
