// The session key `gw token` and `gw run` hand a tool: one hour-long key, reused until
// it nears expiry, instead of a new key (and its rows) every time. Only the key's hash
// is in the state, as for every key; the plaintext is kept in the home, owner-only
// (session-key.json), like a plain-text login: it is this person's local credential.
import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StateData } from '../state/schema.js';
import type { StateStore } from '../state/state-store.js';
import { createKey, findKeyRecord, keyStatus } from '../state/virtual-keys.js';
// The name session keys carry: `gw keys list` and the console's Keys page hide them unless asked.
import { SESSION_KEY_NAME } from '../state/session-key-name.js';

const LIFETIME_MS = 60 * 60_000;
/** A key with less left than this is not handed out again: a tool's run should not outlive it. */
const RENEW_BEFORE_MS = 15 * 60_000;
const FILE = 'session-key.json';

interface Kept { key: string; team: string }

async function readKept(home: string): Promise<Kept | null> {
  const text = await readFile(path.join(home, FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const kept = JSON.parse(text) as Partial<Kept>;
    return typeof kept.key === 'string' && typeof kept.team === 'string' ? { key: kept.key, team: kept.team } : null;
  } catch {
    return null;
  }
}

/** The kept key when the state still has it active, in this team, with enough time left. */
function reusable(kept: Kept | null, state: StateData, team: string, now: Date): string | null {
  if (kept === null || kept.team !== team) return null;
  const record = findKeyRecord(state, kept.key);
  if (record === null || record.team !== team || record.name !== SESSION_KEY_NAME || keyStatus(record, now) !== 'active') return null;
  if (record.expires_at !== null && Date.parse(record.expires_at) - now.getTime() < RENEW_BEFORE_MS) return null;
  return kept.key;
}

/** The session key for `team`: the kept one, or a new one (expired session keys dropped first). */
export async function sessionKey(store: StateStore, home: string, team: string): Promise<string> {
  const kept = await readKept(home);
  const again = reusable(kept, store.snapshot(), team, store.now());
  if (again !== null) return again;
  await store.update((draft: StateData) => {
    const now = store.now().getTime();
    draft.keys = draft.keys.filter((key) => !(key.name === SESSION_KEY_NAME && key.expires_at !== null && Date.parse(key.expires_at) <= now));
  });
  const { key } = await createKey(store, { team, name: SESSION_KEY_NAME, expiresInMs: LIFETIME_MS });
  // Written whole, then renamed: two gw token at once never read half a file.
  const temporary = path.join(home, `${FILE}.${randomBytes(4).toString('hex')}`);
  await writeFile(temporary, JSON.stringify({ key, team } satisfies Kept), { mode: 0o600 });
  await rename(temporary, path.join(home, FILE));
  return key;
}
