// docs/compatibility.md's matrix is written by npm run compat from the cells a test run
// recorded; a cell that passed before and fails now is reported as a regression. The page
// itself is checked: well-formed, and naming the client versions the suite drives.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENTS, DOC_PATH, MATRIX_END, MATRIX_START, REPO_ROOT, packageVersion, parseMatrix, recordCell, updateMatrix, writeCompatibilityDoc, type Cell } from './compat-matrix.js';

const empty = `# gw\n\n${MATRIX_START}\n${MATRIX_END}\n\nmore\n`;
const cell = (pass: boolean, overrides: Partial<Cell> = {}): Cell => ({ client: 'Anthropic SDK', version: '1.0.0', provider: 'gemini', capability: 'stream', pass, ...overrides });

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
    expect(rows.get('Codex')).toEqual({ label: 'Codex 9.9.9', marks: ['✓', ...Array<string>(8).fill('—')] });
    expect(rows.get('Anthropic SDK')!.marks[7]).toBe('✓');
    expect(writeCompatibilityDoc({ cellsDir, docPath }).changed).toBe(false);
  });

  it('says what to run when no cell was recorded', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'gw-compat-'));
    expect(() => writeCompatibilityDoc({ cellsDir: path.join(folder, 'none'), docPath: path.join(folder, 'page.md') })).toThrow(/npm run test:e2e.*npm run compat -- --run/);
  });
});

describe('docs/compatibility.md', () => {
  const rows = parseMatrix(readFileSync(DOC_PATH, 'utf8'));
  const tools = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/e2e/coding-tools/tools/package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
  const versions: Record<string, string | undefined> = {
    'Claude Code': tools['@anthropic-ai/claude-code'],
    Codex: tools['@openai/codex'],
    'Codex (Responses WebSocket)': tools['@openai/codex'],
    'Gemini CLI': tools['@google/gemini-cli'],
    opencode: tools['opencode-ai'],
    'OpenAI SDK (Chat)': packageVersion('openai'),
    'OpenAI SDK (Responses)': packageVersion('openai'),
    'Anthropic SDK': packageVersion('@anthropic-ai/sdk'),
    'Google GenAI SDK': packageVersion('@google/genai'),
  };

  it('has a row for every client, inside its markers', () => {
    expect([...rows.keys()]).toEqual(CLIENTS);
  });

  it('names the version of each client the suite drives (after a bump: npm run compat -- --run)', () => {
    expect(Object.fromEntries([...rows].map(([client, row]) => [client, row.label]))).toEqual(Object.fromEntries(CLIENTS.map((client) => [client, `${client} ${versions[client]}`])));
  });
});
