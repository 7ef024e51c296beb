// The README's matrix is rewritten from the cells a run recorded; a cell that passed before
// and fails now is reported as a regression (the global teardown then fails the run).
import { describe, expect, it } from 'vitest';
import { MATRIX_END, MATRIX_START, parseMatrix, updateReadme, type Cell } from './compat-matrix.js';

const empty = `# gw\n\n${MATRIX_START}\n${MATRIX_END}\n\nmore\n`;
const cell = (pass: boolean, overrides: Partial<Cell> = {}): Cell => ({ client: 'Anthropic SDK', version: '1.0.0', provider: 'gemini', capability: 'stream', pass, ...overrides });

describe('compatibility matrix', () => {
  it('writes a row per client with ✓, ✗ and — and keeps the text around the markers', () => {
    const { text, regressions } = updateReadme(empty, [cell(true), cell(false, { capability: 'text' })]);
    expect(regressions).toEqual([]);
    expect(text.startsWith('# gw\n\n')).toBe(true);
    expect(text.endsWith(`${MATRIX_END}\n\nmore\n`)).toBe(true);
    const row = parseMatrix(text).get('Anthropic SDK')!;
    expect(row.label).toBe('Anthropic SDK 1.0.0');
    expect(row.marks.slice(6)).toEqual(['✗', '✓', '—']);
    expect(row.marks.slice(0, 6).every((mark) => mark === '—')).toBe(true);
  });

  it('reports a cell that passed before and fails now, and keeps rows this run did not reach', () => {
    const first = updateReadme(empty, [cell(true), cell(true, { client: 'Claude Code', provider: 'openai', capability: 'tool round trip' })]).text;
    const { text, regressions } = updateReadme(first, [cell(false)]);
    expect(regressions).toEqual(['Anthropic SDK → gemini: stream']);
    expect(parseMatrix(text).get('Claude Code')!.marks[2]).toBe('✓');
  });

  it('a cell that passes once and fails once in the same run is a failure', () => {
    const { text } = updateReadme(empty, [cell(true), cell(false)]);
    expect(parseMatrix(text).get('Anthropic SDK')!.marks[7]).toBe('✗');
  });

  it('refuses a README without the markers', () => {
    expect(() => updateReadme('# gw\n', [cell(true)])).toThrow(/markers/);
  });
});
