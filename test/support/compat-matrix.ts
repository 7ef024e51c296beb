// The compatibility matrix's cells, for the tests that drive them (test/e2e/coding-tools/,
// test/e2e/translation/sdk-matrix.test.ts): each records a pass or a fail under
// test-results/compat/ (ignored by git), and `npm run compat` writes docs/compatibility.md
// from them (scripts/compat-matrix.mjs, typed here). A test run writes no tracked file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as matrix from '../../scripts/compat-matrix.mjs';

export type ProviderDialect = 'openai' | 'anthropic' | 'gemini';
export type Capability = 'text' | 'stream' | 'tool round trip';
type Mark = '✓' | '✗' | '—';

export interface Cell {
  client: string;
  version: string;
  provider: ProviderDialect;
  capability: Capability;
  pass: boolean;
  /** The Node the cell ran on ("v26.12.1"); recordCell adds this process's. */
  node?: string;
}

/** A matrix row; node is its Node column (undefined on a page written before the column). */
export interface Row { label: string; node?: string; marks: Mark[] }

export const REPO_ROOT: string = matrix.REPO_ROOT;
export const CELLS_DIR: string = matrix.CELLS_DIR;
/** GW_COMPAT_CLIENTS_DIR: a folder whose node_modules holds the clients to drive instead of the pinned ones (npm run compat:latest). */
export const CLIENTS_DIR: string | undefined = matrix.CLIENTS_DIR;
/** Where this run records its cells: test-results/compat/, or test-results/compat-latest/ against other clients. */
export const RUN_CELLS_DIR: string = matrix.RUN_CELLS_DIR;
export const DOC_PATH: string = matrix.DOC_PATH;
export const MATRIX_START: string = matrix.MATRIX_START;
export const MATRIX_END: string = matrix.MATRIX_END;
export const LATEST_START: string = matrix.LATEST_START;
export const LATEST_END: string = matrix.LATEST_END;
export const CLIENTS: readonly string[] = matrix.CLIENTS;
export const recordCell: (cell: Cell, cellsDir?: string) => void = matrix.recordCell;
export const readRecordedCells: (cellsDir?: string) => Cell[] = matrix.readRecordedCells;
export const parseMatrix: (block: string) => Map<string, Row> = matrix.parseMatrix;
/** The page with its matrix updated from this run's cells, and the cells that regressed (✓ before, ✗ now). */
export const updateMatrix: (page: string, cells: Cell[]) => { text: string; regressions: string[] } = matrix.updateMatrix;
export interface LatestPackage { name: string; pinned: string | null; version: string; node: string | null; forGwNode: string | null }
/** Whether an engines.node range admits a Node version (undefined for a range form it does not read). */
export const admitsNode: (range: string | null | undefined, node: string) => boolean | undefined = matrix.admitsNode;
/** The page with its pinned-vs-latest table written from a run's cells against the newest releases, and the latest cells that failed. */
export const updateLatestTable: (page: string, cells: Cell[], run: { date: string; node: string; gwNode?: string; packages?: LatestPackage[] }) => { text: string; failed: string[] } = matrix.updateLatestTable;
export const writeLatestTable: (options?: { packages?: LatestPackage[]; node?: string; gwNode?: string; date?: string; cellsDir?: string; docPath?: string }) => { cells: number; changed: boolean; failed: string[] } = matrix.writeLatestTable;
export const writeCompatibilityDoc: (paths?: { cellsDir?: string; docPath?: string }) => { cells: number; changed: boolean; regressions: string[] } = matrix.writeCompatibilityDoc;

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

/** The node_modules the SDK clients come from: GW_COMPAT_CLIENTS_DIR's, or the repo's. */
export const CLIENT_MODULES: string = path.join(CLIENTS_DIR ?? REPO_ROOT, 'node_modules');

/** The version in a package's package.json under `nodeModules` (the repo's by default). */
export function packageVersion(name: string, nodeModules = path.join(REPO_ROOT, 'node_modules')): string {
  try {
    return String((JSON.parse(readFileSync(path.join(nodeModules, name, 'package.json'), 'utf8')) as { version?: unknown }).version ?? '?');
  } catch {
    return '?';
  }
}
