// docs/compatibility.md's matrix is written by npm run compat from the cells a test run
// recorded; a cell that passed before and fails now is reported as a regression. The page
// itself is checked: well-formed, and naming the client versions the suite drives.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENTS, DOC_PATH, admitsNode, LATEST_END, LATEST_START, MATRIX_END, MATRIX_START, REPO_ROOT, packageVersion, parseMatrix, recordCell, updateLatestTable, updateMatrix, writeCompatibilityDoc, writeLatestTable, type Cell } from './compat-matrix.js';

const empty = `# gw\n\n${MATRIX_START}\n${MATRIX_END}\n\nmore\n`;
const cell = (pass: boolean, overrides: Partial<Cell> = {}): Cell => ({ client: 'Anthropic SDK', version: '1.0.0', provider: 'gemini', capability: 'stream', pass, node: 'v26.12.1', ...overrides });

describe('compatibility matrix', () => {
  it('writes a row per client with ✓, ✗ and — and keeps the text around the markers', () => {
    const { text, regressions } = updateMatrix(empty, [cell(true), cell(false, { capability: 'text' })]);
    expect(regressions).toEqual([]);
    expect(text.startsWith('# gw\n\n')).toBe(true);
    expect(text.endsWith(`${MATRIX_END}\n\nmore\n`)).toBe(true);
    const row = parseMatrix(text).get('Anthropic SDK')!;
    expect(row.label).toBe('Anthropic SDK 1.0.0');
    expect(row.marks.slice(6)).toEqual(['✗', '✓', '—']);
    expect(row.marks.slice(0, 6).every((mark) => mark === '—')).toBe(true);
  });

  it('reports a cell that passed before and fails now, and keeps rows this run did not reach', () => {
    const first = updateMatrix(empty, [cell(true), cell(true, { client: 'Claude Code', provider: 'openai', capability: 'tool round trip' })]).text;
    const { text, regressions } = updateMatrix(first, [cell(false)]);
    expect(regressions).toEqual(['Anthropic SDK → gemini: stream']);
    expect(parseMatrix(text).get('Claude Code')!.marks[2]).toBe('✓');
  });

  it('a cell that passes once and fails once in the same run is a failure', () => {
    const { text } = updateMatrix(empty, [cell(true), cell(false)]);
    expect(parseMatrix(text).get('Anthropic SDK')!.marks[7]).toBe('✗');
  });

  it('names the Node each row ran on, keeps it for a row this run did not reach, and reads a page without the column', () => {
    const first = updateMatrix(empty, [cell(true), cell(true, { client: 'Codex', version: '0.171.0', provider: 'openai', capability: 'text', node: 'v20.20.2' })]).text;
    expect(first).toContain('| client | Node | openai: text |');
    expect(first).toContain(`| Anthropic SDK 1.0.0 | v26.12.1 | ${Array(6).fill('—').join(' | ')} | — | ✓ | — |`);
    const second = updateMatrix(first, [cell(true, { node: 'v24.11.0' })]).text;
    expect(parseMatrix(second).get('Anthropic SDK')!.node).toBe('v24.11.0');
    expect(parseMatrix(second).get('Codex')!.node).toBe('v20.20.2');
    const old = `${MATRIX_START}\n| client | ${Array(9).fill('x').join(' | ')} |\n| Codex 0.169.0 | ✓ | ${Array(8).fill('—').join(' | ')} |\n${MATRIX_END}\n`;
    expect(parseMatrix(old).get('Codex')).toEqual({ label: 'Codex 0.169.0', node: undefined, marks: ['✓', ...Array<string>(8).fill('—')] });
    expect(updateMatrix(old, []).text).toContain(`| Codex 0.169.0 | ? | ✓ | ${Array(8).fill('—').join(' | ')} |`);
  });

  it('refuses a page without the markers', () => {
    expect(() => updateMatrix('# gw\n', [cell(true)])).toThrow(/markers/);
  });
});

describe('npm run compat (writeCompatibilityDoc)', () => {
  it('writes the page from the recorded results files, and leaves it as it is when nothing changed', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'gw-compat-'));
    const cellsDir = path.join(folder, 'compat');
    const docPath = path.join(folder, 'compatibility.md');
    writeFileSync(docPath, empty);
    recordCell(cell(true), cellsDir);
    recordCell(cell(true, { client: 'Codex', version: '9.9.9', provider: 'openai', capability: 'text' }), cellsDir);
    expect(writeCompatibilityDoc({ cellsDir, docPath })).toEqual({ cells: 2, changed: true, regressions: [] });
    const rows = parseMatrix(readFileSync(docPath, 'utf8'));
    expect(rows.get('Codex')).toEqual({ label: 'Codex 9.9.9', node: 'v26.12.1', marks: ['✓', ...Array<string>(8).fill('—')] });
    expect(rows.get('Anthropic SDK')!.marks[7]).toBe('✓');
    expect(writeCompatibilityDoc({ cellsDir, docPath }).changed).toBe(false);
  });

  it('says what to run when no cell was recorded', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'gw-compat-'));
    expect(() => writeCompatibilityDoc({ cellsDir: path.join(folder, 'none'), docPath: path.join(folder, 'page.md') })).toThrow(/npm run test:e2e.*npm run compat -- --run/);
  });
});

describe('npm run compat:latest (the pinned-vs-latest table)', () => {
  const pinnedPage = updateMatrix(`${empty}\n${LATEST_START}\n${LATEST_END}\n`, [
    cell(true), cell(true, { capability: 'text' }),
    cell(true, { client: 'Codex', version: '0.169.0', provider: 'openai', capability: 'text' }),
  ]).text;
  const run = { date: '2026-11-27', node: 'v20.20.2', gwNode: '20.18.1', packages: [{ name: '@anthropic-ai/sdk', pinned: '1.0.0', version: '1.1.0', node: null, forGwNode: '1.1.0' }, { name: 'openai', pinned: '6.49.0', version: '7.59.0', node: '>=22.0.0', forGwNode: '6.49.0' }] };
  const rowOf = (text: string, client: string) => text.slice(text.indexOf(LATEST_START)).split('\n').find((line) => line.startsWith(`| ${client} `));

  it('writes each cell as pinned / latest with both versions, and names the latest cells that fail', () => {
    const { text, failed } = updateLatestTable(pinnedPage, [
      cell(true, { version: '1.1.0' }), cell(false, { version: '1.1.0', capability: 'text' }),
      cell(true, { client: 'Codex', version: '0.171.0', provider: 'openai', capability: 'text' }),
    ], run);
    expect(failed).toEqual(['Anthropic SDK 1.1.0 → gemini: text']);
    expect(rowOf(text, 'Anthropic SDK')).toBe(`| Anthropic SDK 1.0.0 / 1.1.0 | ${Array(6).fill('—').join(' | ')} | ✓ / ✗ | ✓ / ✓ | — |`);
    expect(rowOf(text, 'Codex')).toBe(`| Codex 0.169.0 / 0.171.0 | ✓ / ✓ | ${Array(8).fill('—').join(' | ')} |`);
    expect(text).toContain('Run 2026-11-27 on Node v20.20.2.');
    expect(text).toContain("| package | pinned | newest | newest needs Node | newest for gw's Node 20.18.1 |");
    expect(text).toContain('| openai | 6.49.0 | 7.59.0 | >=22.0.0 | 6.49.0 |');
    expect(text).toContain('| @anthropic-ai/sdk | 1.0.0 | 1.1.0 | any | 1.1.0 |');
    // The pinned table is left as it was.
    expect(text.slice(0, text.indexOf(MATRIX_END))).toBe(pinnedPage.slice(0, pinnedPage.indexOf(MATRIX_END)));
  });

  it('shows a pinned row the latest run did not reach as not run, and a cell that failed once as failing', () => {
    const { text, failed } = updateLatestTable(pinnedPage, [cell(true, { client: 'Codex', version: '0.171.0', provider: 'openai', capability: 'text' }), cell(false, { client: 'Codex', version: '0.171.0', provider: 'openai', capability: 'text' })], run);
    expect(rowOf(text, 'Anthropic SDK')).toContain('| Anthropic SDK 1.0.0 / not run | — | — | — | — | — | — | ✓ / — | ✓ / — | — |');
    expect(failed).toEqual(['Codex 0.171.0 → openai: text']);
  });

  it('replaces the table of an earlier run and refuses a page without its markers', () => {
    const once = updateLatestTable(pinnedPage, [cell(false, { version: '1.1.0' })], run).text;
    const twice = updateLatestTable(once, [cell(true, { version: '1.2.0' })], { ...run, date: '2026-12-01' }).text;
    expect(rowOf(twice, 'Anthropic SDK')).toContain('Anthropic SDK 1.0.0 / 1.2.0');
    expect(twice).not.toContain('2026-11-27');
    expect(twice.split(LATEST_START)).toHaveLength(2);
    expect(() => updateLatestTable(empty, [cell(true)], run)).toThrow(/pinned-vs-latest markers/);
  });

  it("reads the engines ranges npm packages declare against gw's oldest Node", () => {
    expect(admitsNode('>=22.0.0', '20.18.1')).toBe(false);
    expect(admitsNode('>=20', '20.18.1')).toBe(true);
    expect(admitsNode(null, '20.18.1')).toBe(true);
    expect(admitsNode('^20.19.0 || >=22', '20.18.1')).toBe(false);
    expect(admitsNode('^20.18 || >=22', '20.18.1')).toBe(true);
    expect(admitsNode('>= 20.0.0 < 21', '20.18.1')).toBe(true);
    expect(admitsNode('20.x', '20.18.1')).toBe(true);
    expect(admitsNode('~20.17.0', '20.18.1')).toBe(false);
    expect(admitsNode('1 - 30', '20.18.1')).toBeUndefined();
  });

  it('writes the page from the cells of the latest run, and says what to run when there are none', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'gw-compat-latest-'));
    const cellsDir = path.join(folder, 'compat-latest');
    const docPath = path.join(folder, 'compatibility.md');
    writeFileSync(docPath, pinnedPage);
    expect(() => writeLatestTable({ cellsDir, docPath })).toThrow(/npm run compat:latest/);
    recordCell(cell(false, { version: '1.1.0' }), cellsDir);
    expect(writeLatestTable({ cellsDir, docPath, ...run })).toEqual({ cells: 1, changed: true, failed: ['Anthropic SDK 1.1.0 → gemini: stream'] });
    expect(readFileSync(docPath, 'utf8')).toContain('| Anthropic SDK 1.0.0 / 1.1.0 |');
    // The Node the cells ran on, not the one that wrote the page.
    expect(readFileSync(docPath, 'utf8')).toContain('Run 2026-11-27 on Node v26.12.1.');
  });
});

describe('docs/compatibility.md', () => {
  // The pinned matrix only: the pinned-vs-latest table below it has rows of the same shape.
  const page = readFileSync(DOC_PATH, 'utf8');
  const rows = parseMatrix(page.slice(page.indexOf(MATRIX_START), page.indexOf(MATRIX_END)));
  const tools = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/e2e/coding-tools/tools/package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
  const versions: Record<string, string | undefined> = {
    'Claude Code': tools['@anthropic-ai/claude-code'],
    'Claude Code (Vertex)': tools['@anthropic-ai/claude-code'],
    Codex: tools['@openai/codex'],
    'Codex (Responses WebSocket)': tools['@openai/codex'],
    'Gemini CLI': tools['@google/gemini-cli'],
    opencode: tools['opencode-ai'],
    'OpenAI SDK (Chat)': packageVersion('openai'),
    'OpenAI SDK (Responses)': packageVersion('openai'),
    'Anthropic SDK': packageVersion('@anthropic-ai/sdk'),
    'Google GenAI SDK': packageVersion('@google/genai'),
    'Google GenAI SDK (Vertex)': packageVersion('@google/genai'),
  };

  it('has a row for every client, inside its markers', () => {
    expect([...rows.keys()]).toEqual(CLIENTS);
  });

  it('has the pinned-vs-latest table after the pinned one', () => {
    expect(page.indexOf(LATEST_START)).toBeGreaterThan(page.indexOf(MATRIX_END));
    expect(page.indexOf(LATEST_END)).toBeGreaterThan(page.indexOf(LATEST_START));
  });

  it('names the version of each client the suite drives (after a bump: npm run compat -- --run)', () => {
    expect(Object.fromEntries([...rows].map(([client, row]) => [client, row.label]))).toEqual(Object.fromEntries(CLIENTS.map((client) => [client, `${client} ${versions[client]}`])));
  });

  it('names the Node each row ran on, one the clients declare they support (Node 22 or later for the newest)', () => {
    for (const [client, row] of rows) expect(row.node, client).toMatch(/^v(2[2-9]|[3-9]\d)\.\d+\.\d+$/);
  });
});
