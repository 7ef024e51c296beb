// The compatibility matrix (client and version × provider dialect × text, stream, tool round
// trip): the tests that drive each cell record a pass or a fail under test-results/compat/
// (one JSON line per cell, one file per test process; the folder is ignored by git and
// emptied at the start of each e2e run), and `npm run compat` (scripts/compat.mjs) renders
// them into docs/compatibility.md between its markers. The tests never write a tracked file.
// Typed for the tests in test/support/compat-matrix.ts.
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CELLS_DIR = path.join(REPO_ROOT, 'test-results', 'compat');
export const DOC_PATH = path.join(REPO_ROOT, 'docs', 'compatibility.md');
export const MATRIX_START = '<!-- compat-matrix:start (written by npm run compat: scripts/compat.mjs) -->';
export const MATRIX_END = '<!-- compat-matrix:end -->';

/** Rows in this order; a client the run did not reach keeps the page's row. */
export const CLIENTS = ['Claude Code', 'Codex', 'Codex (Responses WebSocket)', 'Gemini CLI', 'opencode', 'OpenAI SDK (Chat)', 'OpenAI SDK (Responses)', 'Anthropic SDK', 'Google GenAI SDK'];
const PROVIDERS = ['openai', 'anthropic', 'gemini'];
const CAPABILITIES = ['text', 'stream', 'tool round trip'];
const WIDTH = PROVIDERS.length * CAPABILITIES.length;

/** Appends one cell to this process's results file. */
export function recordCell(cell, cellsDir = CELLS_DIR) {
  mkdirSync(cellsDir, { recursive: true });
  appendFileSync(path.join(cellsDir, `${process.pid}.jsonl`), `${JSON.stringify(cell)}\n`);
}

export function readRecordedCells(cellsDir = CELLS_DIR) {
  if (!existsSync(cellsDir)) return [];
  return readdirSync(cellsDir).filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(path.join(cellsDir, file), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)));
}

function cellIndex(provider, capability) {
  return PROVIDERS.indexOf(provider) * CAPABILITIES.length + CAPABILITIES.indexOf(capability);
}

/** The client a row label names: the longest client name it starts with. */
function clientOf(label) {
  return CLIENTS.filter((name) => label.startsWith(name)).sort((a, b) => b.length - a.length)[0];
}

/** The rows of a table already on the page, by client name: { label, marks: ('✓'|'✗'|'—')[] }. */
export function parseMatrix(block) {
  const rows = new Map();
  for (const line of block.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    const client = cells.length === 1 + WIDTH ? clientOf(cells[0]) : undefined;
    if (client === undefined) continue;
    rows.set(client, { label: cells[0], marks: cells.slice(1).map((mark) => (mark === '✓' || mark === '✗' ? mark : '—')) });
  }
  return rows;
}

/** A client's row from this run's cells over its old row; the cells that regressed (✓ before, ✗ now). */
function mergeRow(client, mine, old) {
  const marks = old ? [...old.marks] : Array(WIDTH).fill('—');
  const regressions = [];
  for (const cell of mine) {
    const index = cellIndex(cell.provider, cell.capability);
    // A cell run several times in one run counts as passing only if every run passed.
    const now = mine.filter((other) => cellIndex(other.provider, other.capability) === index).every((other) => other.pass) ? '✓' : '✗';
    if (old?.marks[index] === '✓' && now === '✗') regressions.push(`${client} → ${cell.provider}: ${cell.capability}`);
    marks[index] = now;
  }
  const label = mine.length > 0 ? `${client} ${mine[0].version}` : old.label;
  return { line: `| ${label} | ${marks.join(' | ')} |`, regressions };
}

/** The page with its matrix updated from the recorded cells, and the cells that regressed. */
export function updateMatrix(page, cells) {
  const start = page.indexOf(MATRIX_START);
  const end = page.indexOf(MATRIX_END);
  if (start < 0 || end < start) throw new Error(`the page has no compatibility matrix markers (${MATRIX_START} … ${MATRIX_END})`);
  const before = parseMatrix(page.slice(start, end));
  const lines = [
    `| client | ${PROVIDERS.flatMap((provider) => CAPABILITIES.map((capability) => `${provider}: ${capability}`)).join(' | ')} |`,
    `|---|${Array(WIDTH).fill(':-:').join('|')}|`,
  ];
  const regressions = [];
  for (const client of CLIENTS) {
    const mine = cells.filter((cell) => cell.client === client);
    const old = before.get(client);
    if (mine.length === 0 && old === undefined) continue;
    const row = mergeRow(client, mine, old);
    lines.push(row.line);
    regressions.push(...row.regressions);
  }
  const text = `${page.slice(0, start)}${MATRIX_START}\n${lines.join('\n')}\n${page.slice(end)}`;
  return { text, regressions: [...new Set(regressions)] };
}

/**
 * Writes the page from the recorded cells. Returns how many cells were read, whether the page
 * changed and the regressions; throws when no cell was recorded (nothing to write from).
 */
export function writeCompatibilityDoc({ cellsDir = CELLS_DIR, docPath = DOC_PATH } = {}) {
  const cells = readRecordedCells(cellsDir);
  if (cells.length === 0) {
    throw new Error(`no compatibility cells in ${path.relative(REPO_ROOT, cellsDir) || cellsDir}: run the e2e tests first (npm test or npm run test:e2e), or npm run compat -- --run`);
  }
  const page = readFileSync(docPath, 'utf8');
  const { text, regressions } = updateMatrix(page, cells);
  if (text !== page) writeFileSync(docPath, text);
  return { cells: cells.length, changed: text !== page, regressions };
}
