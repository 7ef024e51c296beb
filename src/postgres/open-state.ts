// Which store holds the state: the embedded state.json in the home (the default,
// nothing to run) or PostgreSQL when --store / GW_DATABASE_URL names one. pg is
// loaded only then, so the embedded default never pays for it.
import { openStateStore, type StateStore, type StateStoreOptions } from '../state/state-store.js';
import { StateInputError } from '../state/state-errors.js';

/** True for a postgres:// or postgresql:// URL, the values --store and GW_DATABASE_URL take (not in database.ts: that loads pg). */
function isPostgresUrl(value: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(value);
}

export function resolveStoreUrl(flag: string | undefined, env: NodeJS.ProcessEnv | Record<string, string | undefined>): string | undefined {
  const value = (flag ?? env.GW_DATABASE_URL)?.trim();
  if (value === undefined || value === '') return undefined;
  if (!isPostgresUrl(value)) throw new StateInputError(`--store takes a postgres:// URL (or leave it out for the embedded state.json); got ${value.split('://')[0] ?? value}://…`);
  return value;
}

export async function openState(home: string, storeUrl: string | undefined, options?: StateStoreOptions): Promise<StateStore> {
  if (storeUrl === undefined) return openStateStore(home, options);
  const { openPostgresStateStore } = await import('./postgres-state-store.js');
  return openPostgresStateStore(storeUrl, home, options);
}
