// First start with an empty home: a `local` team and key, so `gw serve` is
// usable at once. Decided inside one locked update, so two processes starting
// together cannot both create it.
import type { VirtualKeyRecord } from './schema.js';
import type { StateStore } from './state-store.js';
import { addTeam } from './teams.js';
import { addKey, generateVirtualKey } from './virtual-keys.js';

const LOCAL_TEAM = 'local';

/** Returns the plaintext key (to print once) when it created one; null when any team exists. */
export async function bootstrapLocalTeam(store: StateStore): Promise<{ key: string; record: VirtualKeyRecord } | null> {
  // The cheap check keeps every later start from taking the lock.
  if (store.snapshot().teams.length > 0) return null;
  const key = generateVirtualKey();
  const record = await store.update((draft) => {
    if (draft.teams.length > 0) return null;
    const now = store.now();
    addTeam(draft, LOCAL_TEAM, now);
    return addKey(draft, { team: LOCAL_TEAM, name: LOCAL_TEAM, expiresAt: null, key, now });
  });
  return record === null ? null : { key, record };
}
