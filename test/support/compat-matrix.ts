// The compatibility matrix in the README (client and version × provider dialect × text,
// stream, tool round trip) is written by the tests that exercise each cell: they record
// a pass or a fail here (one JSON line per cell, per test process), and the global
// teardown (compat-global-setup.ts) renders the table into the README between its markers.
// A cell the README shows as passing that fails in this run fails the test run.
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type ProviderDialect = 'openai' | 'anthropic' | 'gemini';
export type Capability = 'text' | 'stream' | 'tool round trip';

export interface Cell {
  client: string;
  version: string;
  provider: ProviderDialect;
  capability: Capability;
  pass: boolean;
}

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CELLS_DIR = path.join(REPO_ROOT, 'test-results', 'compat');
export const MATRIX_START = '<!-- compat-matrix:start (written by the tests: test/support/compat-matrix.ts) -->';
export const MATRIX_END = '<!-- compat-matrix:end -->';

/** Rows in this order; a client the run did not reach keeps the README's row. */
export const CLIENTS = ['Claude Code', 'Codex', 'Codex (Responses WebSocket)', 'Gemini CLI', 'opencode', 'OpenAI SDK (Chat)', 'OpenAI SDK (Responses)', 'Anthropic SDK', 'Google GenAI SDK'];
const PROVIDERS: ProviderDialect[] = ['openai', 'anthropic', 'gemini'];
const CAPABILITIES: Capability[] = ['text', 'stream', 'tool round trip'];

export function recordCell(cell: Cell): void {
  mkdirSync(CELLS_DIR, { recursive: true });
  appendFileSync(path.join(CELLS_DIR, `${process.pid}.jsonl`), `${JSON.stringify(cell)}\n`);
}

/** Runs `check` and records each capability as passed when it returns, failed when it throws. */
export async function recordCells<T>(cells: { client: string; version: string; provider: ProviderDialect; capabilities: Capability[] }, check: () => Promise<T>): Promise<T> {
  let pass = false;
  try {
    const result = await check();
    pass = true;
    return result;
  } finally {
    for (const capability of cells.capabilities) recordCell({ client: cells.client, version: cells.version, provider: cells.provider, capability, pass });
  }
}

/** The version in a package's package.json under `nodeModules` (the repo's by default). */
export function packageVersion(name: string, nodeModules = path.join(REPO_ROOT, 'node_modules')): string {
  try {
    return String((JSON.parse(readFileSync(path.join(nodeModules, name, 'package.json'), 'utf8')) as { version?: unknown }).version ?? '?');
  } catch {
    return '?';
  }
}

export function readRecordedCells(): Cell[] {
  if (!existsSync(CELLS_DIR)) return [];
  return readdirSync(CELLS_DIR).filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(path.join(CELLS_DIR, file), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Cell));
}

type Mark = '✓' | '✗' | '—';
interface Row { label: string; marks: Mark[] }

function cellIndex(provider: ProviderDialect, capability: Capability): number {
  return PROVIDERS.indexOf(provider) * CAPABILITIES.length + CAPABILITIES.indexOf(capability);
}

/** The rows of the table already in the README, by client name. */
export function parseMatrix(block: string): Map<string, Row> {
  const rows = new Map<string, Row>();
  for (const line of block.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    if (cells.length !== 1 + PROVIDERS.length * CAPABILITIES.length || !CLIENTS.some((client) => cells[0]!.startsWith(client))) continue;
    const client = CLIENTS.filter((name) => cells[0]!.startsWith(name)).sort((a, b) => b.length - a.length)[0]!;
    rows.set(client, { label: cells[0]!, marks: cells.slice(1).map((mark) => (mark === '✓' || mark === '✗' ? mark : '—')) });
  }
  return rows;
}

/** The README with its matrix updated from this run's cells, and the cells that regressed (✓ before, ✗ now). */
export function updateReadme(readme: string, cells: Cell[]): { text: string; regressions: string[] } {
  const start = readme.indexOf(MATRIX_START);
  const end = readme.indexOf(MATRIX_END);
  if (start < 0 || end < start) throw new Error(`README.md has no compatibility matrix markers (${MATRIX_START} … ${MATRIX_END})`);
  const before = parseMatrix(readme.slice(start, end));
  const regressions: string[] = [];
  const lines = [
    `| client | ${PROVIDERS.flatMap((provider) => CAPABILITIES.map((capability) => `${provider}: ${capability}`)).join(' | ')} |`,
    `|---|${PROVIDERS.flatMap(() => CAPABILITIES.map(() => ':-:')).join('|')}|`,
  ];
  for (const client of CLIENTS) {
    const mine = cells.filter((cell) => cell.client === client);
    const old = before.get(client);
    if (mine.length === 0 && old === undefined) continue;
    const marks: Mark[] = old ? [...old.marks] : Array<Mark>(PROVIDERS.length * CAPABILITIES.length).fill('—');
    for (const cell of mine) {
      const index = cellIndex(cell.provider, cell.capability);
      // A cell run several times in one run counts as passing only if every run passed.
      const now: Mark = mine.filter((other) => cellIndex(other.provider, other.capability) === index).every((other) => other.pass) ? '✓' : '✗';
      if (old?.marks[index] === '✓' && now === '✗') regressions.push(`${client} → ${cell.provider}: ${cell.capability}`);
      marks[index] = now;
    }
    const label = mine.length > 0 ? `${client} ${mine[0]!.version}` : old!.label;
    lines.push(`| ${label} | ${marks.join(' | ')} |`);
  }
  const text = `${readme.slice(0, start)}${MATRIX_START}\n${lines.join('\n')}\n${readme.slice(end)}`;
  return { text, regressions: [...new Set(regressions)] };
}
