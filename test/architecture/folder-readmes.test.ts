// The house rule: each src/<folder>/ carries a README that opens with three lines saying what it
// owns, what it may import, and what it must not; a large folder may list its parts after a blank
// line (src/audit/README.md).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');

it('every src/ folder has its README, opening with three lines (owns / may import / must not)', () => {
  const folders = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  expect(folders.length).toBeGreaterThan(10);
  const problems = folders.flatMap((folder) => {
    const file = path.join(src, folder, 'README.md');
    if (!existsSync(file)) return [`${folder}: no README.md`];
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n\n')[0]?.split('\n') ?? [];
    if (lines.length !== 3) return [`${folder}: ${lines.length} lines, not 3`];
    const [owns, imports, mustNot] = lines as [string, string, string];
    return [
      ...(/^Owns /.test(owns) ? [] : [`${folder}: line 1 does not start "Owns"`]),
      ...(/^(May import|Imports nothing)/.test(imports) ? [] : [`${folder}: line 2 does not say what it may import`]),
      ...(/^Must /.test(mustNot) ? [] : [`${folder}: line 3 does not start "Must"`]),
    ];
  });
  expect(problems).toEqual([]);
});
