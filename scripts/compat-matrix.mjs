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
/** Where a run against other clients than the pinned ones (npm run compat:latest) records its cells. */
export const LATEST_CELLS_DIR = path.join(REPO_ROOT, 'test-results', 'compat-latest');
/**
 * GW_COMPAT_CLIENTS_DIR names a folder whose node_modules holds the clients to drive (the coding
 * tools and the SDKs) instead of the pinned ones; its cells never mix with the pinned run's.
 */
export const CLIENTS_DIR = process.env.GW_COMPAT_CLIENTS_DIR ? path.resolve(process.env.GW_COMPAT_CLIENTS_DIR) : undefined;
export const RUN_CELLS_DIR = CLIENTS_DIR ? LATEST_CELLS_DIR : CELLS_DIR;
export const DOC_PATH = path.join(REPO_ROOT, 'docs', 'compatibility.md');
export const MATRIX_START = '<!-- compat-matrix:start (written by npm run compat: scripts/compat.mjs) -->';
export const MATRIX_END = '<!-- compat-matrix:end -->';
export const LATEST_START = '<!-- compat-latest:start (written by npm run compat:latest: scripts/compat-latest.mjs) -->';
export const LATEST_END = '<!-- compat-latest:end -->';

/** Rows in this order; a client the run did not reach keeps the page's row. */
export const CLIENTS = ['Claude Code', 'Claude Code (Vertex)', 'Codex', 'Codex (Responses WebSocket)', 'Gemini CLI', 'opencode', 'OpenAI SDK (Chat)', 'OpenAI SDK (Responses)', 'Anthropic SDK', 'Google GenAI SDK', 'Google GenAI SDK (Vertex)'];
const PROVIDERS = ['openai', 'anthropic', 'gemini'];
const CAPABILITIES = ['text', 'stream', 'tool round trip'];
const WIDTH = PROVIDERS.length * CAPABILITIES.length;

/**
 * Appends one cell to this process's results file, with the Node it ran on: this process's, which
 * is also the one the coding tools start on (scripts/vitest-on-test-node.sh puts it first on PATH).
 */
export function recordCell(cell, cellsDir = RUN_CELLS_DIR) {
  mkdirSync(cellsDir, { recursive: true });
  appendFileSync(path.join(cellsDir, `${process.pid}.jsonl`), `${JSON.stringify({ ...cell, node: cell.node ?? process.version })}\n`);
}

/** The Nodes some cells ran on, in order, as the page writes them ("v26.12.1"); "?" for cells recorded without one. */
function nodesOf(cells) {
  return [...new Set(cells.map((cell) => cell.node ?? '?'))].join(', ');
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

/**
 * The rows of a table already on the page, by client name: { label, node, marks: ('✓'|'✗'|'—')[] };
 * node is the Node column's text, undefined in a table without one (pages written before it).
 */
export function parseMatrix(block) {
  const rows = new Map();
  for (const line of block.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    const client = cells.length === 1 + WIDTH || cells.length === 2 + WIDTH ? clientOf(cells[0]) : undefined;
    if (client === undefined) continue;
    const node = cells.length === 2 + WIDTH ? cells[1] : undefined;
    rows.set(client, { label: cells[0], node, marks: cells.slice(cells.length - WIDTH).map((mark) => (mark === '✓' || mark === '✗' ? mark : '—')) });
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
  const node = mine.length > 0 ? nodesOf(mine) : old.node ?? '?';
  return { line: `| ${label} | ${node} | ${marks.join(' | ')} |`, regressions };
}

/** The page with its matrix updated from the recorded cells, and the cells that regressed. */
export function updateMatrix(page, cells) {
  const start = page.indexOf(MATRIX_START);
  const end = page.indexOf(MATRIX_END);
  if (start < 0 || end < start) throw new Error(`the page has no compatibility matrix markers (${MATRIX_START} … ${MATRIX_END})`);
  const before = parseMatrix(page.slice(start, end));
  const lines = [
    `| client | Node | ${PROVIDERS.flatMap((provider) => CAPABILITIES.map((capability) => `${provider}: ${capability}`)).join(' | ')} |`,
    `|---|---|${Array(WIDTH).fill(':-:').join('|')}|`,
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

/** A client's marks from its cells: ✓ when every run of a cell passed, ✗ when one failed, — when none ran. */
function marksOf(cells) {
  const marks = Array(WIDTH).fill('—');
  for (const cell of cells) {
    const index = cellIndex(cell.provider, cell.capability);
    if (marks[index] !== '✗') marks[index] = cell.pass ? '✓' : '✗';
  }
  return marks;
}

function pair(pinned, latest) {
  return pinned === '—' && latest === '—' ? '—' : `${pinned} / ${latest}`;
}

/** The packages' table under the matrix: pinned and newest version, and the Node versions the newest declares. */
function packageLines(packages, gwNode) {
  if (packages.length === 0) return [];
  return ['', `| package | pinned | newest | newest needs Node | newest for gw's Node ${gwNode} |`, '|---|---|---|---|---|',
    ...packages.map((pkg) => `| ${pkg.name} | ${pkg.pinned ?? '?'} | ${pkg.version} | ${pkg.node ?? 'any'} | ${pkg.forGwNode ?? '?'} |`)];
}

/**
 * The page with its second table (pinned vs latest, cell by cell) written from a run's cells
 * against the newest releases; the pinned side is read from the page's matrix. `run` says
 * when and on which Node the run was made, which packages it installed, and the oldest Node
 * gw supports (gwNode). Returns the latest cells that failed.
 */
export function updateLatestTable(page, cells, run) {
  const start = page.indexOf(LATEST_START);
  const end = page.indexOf(LATEST_END);
  if (start < 0 || end < start) throw new Error(`the page has no pinned-vs-latest markers (${LATEST_START} … ${LATEST_END})`);
  const pinnedRows = parseMatrix(page.slice(page.indexOf(MATRIX_START), page.indexOf(MATRIX_END)));
  const lines = [
    `Run ${run.date} on Node ${run.node}. Each cell is pinned / latest; the pinned side is the table above.`,
    '',
    `| client: pinned / latest | ${PROVIDERS.flatMap((provider) => CAPABILITIES.map((capability) => `${provider}: ${capability}`)).join(' | ')} |`,
    `|---|${Array(WIDTH).fill(':-:').join('|')}|`,
  ];
  const failed = [];
  for (const client of CLIENTS) {
    const mine = cells.filter((cell) => cell.client === client);
    const pinned = pinnedRows.get(client);
    if (mine.length === 0 && pinned === undefined) continue;
    const latest = marksOf(mine);
    const pinnedMarks = pinned?.marks ?? Array(WIDTH).fill('—');
    const pinnedVersion = pinned ? pinned.label.slice(client.length).trim() : '?';
    const latestVersion = mine[0]?.version ?? 'not run';
    latest.forEach((mark, index) => {
      if (mark === '✗') failed.push(`${client} ${latestVersion} → ${PROVIDERS[Math.floor(index / CAPABILITIES.length)]}: ${CAPABILITIES[index % CAPABILITIES.length]}`);
    });
    lines.push(`| ${client} ${pinnedVersion} / ${latestVersion} | ${pinnedMarks.map((mark, index) => pair(mark, latest[index])).join(' | ')} |`);
  }
  lines.push(...packageLines(run.packages ?? [], run.gwNode ?? '?'));
  const text = `${page.slice(0, start)}${LATEST_START}\n${lines.join('\n')}\n${page.slice(end)}`;
  return { text, failed };
}

/**
 * Writes the pinned-vs-latest table from the cells of the last npm run compat:latest; throws when there are none.
 * The Node it names is the one the cells ran on (`node` only for cells recorded without one).
 */
export function writeLatestTable({ packages = [], node = process.version, gwNode = '?', date = new Date().toISOString().slice(0, 10), cellsDir = LATEST_CELLS_DIR, docPath = DOC_PATH } = {}) {
  const cells = readRecordedCells(cellsDir);
  if (cells.length === 0) throw new Error(`no compatibility cells in ${path.relative(REPO_ROOT, cellsDir) || cellsDir}: run npm run compat:latest`);
  const page = readFileSync(docPath, 'utf8');
  const ranOn = cells.every((cell) => cell.node !== undefined) ? nodesOf(cells) : node;
  const { text, failed } = updateLatestTable(page, cells, { date, node: ranOn, gwNode, packages });
  if (text !== page) writeFileSync(docPath, text);
  return { cells: cells.length, changed: text !== page, failed };
}

function versionParts(text) {
  return text.replace(/^v/, '').split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : undefined));
}

function compare(a, b) {
  for (let index = 0; index < 3; index += 1) {
    const diff = (a[index] ?? 0) - (b[index] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** One comparator of an engines range (>=, >, <=, <, =, ^, ~, a bare or x version); undefined when it is another form. */
function admitsComparator(comparator, version) {
  const match = /^(>=|<=|>|<|=|\^|~)?v?(\d+|[x*])(?:\.(\d+|[x*]))?(?:\.(\d+|[x*]))?$/.exec(comparator);
  if (!match) return undefined;
  const [, op = '', ...raw] = match;
  const bound = raw.map((part) => (part === undefined || part === 'x' || part === '*' ? undefined : Number(part)));
  const given = bound.findIndex((part) => part === undefined);
  const precision = given < 0 ? 3 : given;
  const order = compare(version, bound);
  const samePrefix = bound.slice(0, precision).every((part, index) => part === version[index]);
  switch (op) {
    case '>=': return order >= 0;
    case '>': return order > 0 && !(precision < 3 && samePrefix);
    case '<=': return order <= 0 || (precision < 3 && samePrefix);
    case '<': return order < 0 && !samePrefix;
    case '^': return order >= 0 && version[0] === bound[0] && (bound[0] !== 0 || version[1] === bound[1]);
    case '~': return order >= 0 && version[0] === bound[0] && (precision < 2 || version[1] === bound[1]);
    default: return samePrefix && (precision < 3 || order === 0);
  }
}

/**
 * Whether a package's engines.node range admits a Node version (an absent range admits any);
 * undefined for a range form this reader does not know (hyphen ranges, pre-releases).
 */
export function admitsNode(range, node) {
  if (range === null || range === undefined || range.trim() === '' || range.trim() === '*') return true;
  const version = versionParts(node);
  const alternatives = range.split('||').map((alternative) => {
    const results = alternative.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).map((comparator) => admitsComparator(comparator, version));
    return results.includes(undefined) ? undefined : results.every(Boolean);
  });
  if (alternatives.includes(true)) return true;
  return alternatives.includes(undefined) ? undefined : false;
}
