// What every state-editing command shares: open the store for one job, turn a state
// failure into one clear line (exit 2 for bad usage, 1 otherwise), print tables.
import { StateError } from '../state/state-errors.js';
import type { StateStore } from '../state/state-store.js';
import { openState, resolveStoreUrl } from '../postgres/open-state.js';
import { CliExit, type CliContext } from './cli-context.js';

/** Runs a job against the state store (state.json, or PostgreSQL with --store / GW_DATABASE_URL); a state failure becomes one line and exit 2 (usage) or 1. */
export async function withStore<T>(context: CliContext, home: string | undefined, run: (store: StateStore) => Promise<T>): Promise<T> {
  try {
    const store = await openState(context.home(home), resolveStoreUrl(undefined, context.env));
    try {
      return await run(store);
    } finally {
      await store.close();
    }
  } catch (error) {
    if (error instanceof StateError) throw new CliExit(error.kind === 'usage' ? 2 : 1, error.message);
    throw error;
  }
}

/** Left-aligned columns, two spaces apart; the first row is the header. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => `${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()}\n`).join('');
}
