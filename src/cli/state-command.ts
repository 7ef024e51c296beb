// What every state-editing command shares: open the store for one job, turn a state
// failure into one clear line (exit 2 for bad usage, 1 otherwise), print tables.
import { StateError } from '../state/state-errors.js';
import os from 'node:os';
import type { StateStore } from '../state/state-store.js';
import type { StateData } from '../state/schema.js';
import { openState, resolveStoreUrl } from '../postgres/open-state.js';
import { addOutboxEntry, describeStateChange } from '../state/admin-outbox.js';
import { CliExit, type CliContext } from './cli-context.js';
import { recordAdminChangesNow } from './record-admin-changes.js';

/** Runs a job against the state store (state.json, or PostgreSQL with --store / GW_DATABASE_URL); a state failure becomes one line and exit 2 (usage) or 1. */
export async function withStore<T>(context: CliContext, home: string | undefined, run: (store: StateStore) => Promise<T>): Promise<T> {
  try {
    // On a hub, for an admin's remote command: the live store; the admin API records the change itself.
    if (context.store) return await run(context.store);
    const storeUrl = resolveStoreUrl(undefined, context.env);
    const store = await openState(context.home(home), storeUrl);
    try {
      const result = await run(recordingChanges(store, context.command ?? 'gw'));
      if (storeUrl === undefined) await recordAdminChangesNow(context, store, context.home(home));
      return result;
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

/** `cli:<user>@<host>`: who made a change from this computer's shell. */
export function cliActor(): string {
  let user = 'unknown';
  try { user = os.userInfo().username; } catch { /* no passwd entry in a container */ }
  return `cli:${user}@${os.hostname()}`;
}

/**
 * The store every command gets: each update also writes an admin-outbox entry naming the actor,
 * the command and what changed (src/state/admin-outbox.ts), in the same write, so a change made
 * from the shell always becomes an audit record when a gw moves the outbox into its trail.
 */
function recordingChanges(store: StateStore, command: string): StateStore {
  const update = <T>(mutate: (draft: StateData) => T): Promise<T> => store.update((draft) => {
    const before = structuredClone(draft);
    const result = mutate(draft);
    const changes = describeStateChange(before, draft);
    if (Object.keys(changes).length > 0) addOutboxEntry(draft, { at: store.now().toISOString(), actor: cliActor(), command, changes });
    return result;
  });
  // Methods are bound to the store itself: its private fields are not reachable through the proxy.
  return new Proxy(store, {
    get(target, name) {
      if (name === 'update') return update;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
