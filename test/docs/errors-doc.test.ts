// docs/errors.md lists every code of the one error catalog (src/errors.ts) with its status and
// whether a retry can succeed, and no code the catalog does not have. The table is written by
// hand (its "what to do" column is advice no catalog field holds); a code added to the catalog
// fails here, and the failure prints the row to fill in.
import { expect, it } from 'vitest';
import { ERROR_CATALOG, type CatalogEntry } from '../../src/errors.js';
import { readMarkdown } from './markdown-files.js';

interface DocRow { status: number; retry: string; advice: string }

/** The rows of errors.md's table: | `GW_ERR_…` | status | yes/no | what to do |. */
function documentedRows(): Map<string, DocRow> {
  const rows = new Map<string, DocRow>();
  for (const line of readMarkdown('docs/errors.md').split('\n')) {
    const match = /^\|\s*`(GW_ERR_[A-Z0-9_]+)`\s*\|\s*(\d+)\s*\|\s*(\w+)\s*\|(.*)\|\s*$/.exec(line);
    if (match) rows.set(match[1]!, { status: Number(match[2]), retry: match[3]!, advice: match[4]!.trim() });
  }
  return rows;
}

const catalog: Record<string, CatalogEntry> = ERROR_CATALOG;
const rows = documentedRows();

function rowToFillIn(code: string): string {
  const entry = catalog[code]!;
  return `| \`${code}\` | ${entry.status} | ${entry.retryable ? 'yes' : 'no'} | <what the caller or operator does> |`;
}

it('every code of src/errors.ts has a row in docs/errors.md', () => {
  const missing = Object.keys(catalog).filter((code) => !rows.has(code));
  expect(missing.map(rowToFillIn), 'rows to add to docs/errors.md').toEqual([]);
});

it('every code docs/errors.md lists is in src/errors.ts', () => {
  expect([...rows.keys()].filter((code) => !(code in catalog)), 'codes in docs/errors.md that the catalog does not have').toEqual([]);
});

it('each row states the catalog status and retryability, and what to do', () => {
  const wrong: string[] = [];
  for (const [code, row] of rows) {
    const entry = catalog[code];
    if (!entry) continue;
    if (row.status !== entry.status) wrong.push(`${code}: status ${row.status} in the doc, ${entry.status} in the catalog`);
    if (row.retry !== (entry.retryable ? 'yes' : 'no')) wrong.push(`${code}: retry "${row.retry}" in the doc, retryable ${entry.retryable} in the catalog`);
    if (row.advice.length < 10) wrong.push(`${code}: no advice`);
  }
  expect(wrong).toEqual([]);
});

it('the table is found (the parser reads the doc)', () => {
  expect(rows.size).toBeGreaterThan(40);
});
