// A team's live key: the virtual key whose id a person's calls at the hub are
// counted under (budgets, limits, audit key_id). It never leaves the hub: sidecars
// get person-bound gws- session credentials instead (src/hub/session-credential.ts),
// and the door does not accept a live key presented by a caller. The key is derived,
// HMAC-SHA256(hub secret, "gw live key\n" + team + "\n" + salt), so state.json holds
// no usable key. Rotation makes a new salt and gives the old key an expiry.
import { createHmac, randomBytes } from 'node:crypto';
import type { LiveKeyRecord, StateData, VirtualKeyRecord } from './schema.js';
import { StateRefusedError } from './state-errors.js';
import type { StateStore } from './state-store.js';
import { addKey, generateVirtualKey, keyStatus } from './virtual-keys.js';

const LIVE_KEY_NAME = 'live';
/** Default overlap of a rotated key (its record stays active this long; no caller holds it). */
export const DEFAULT_OVERLAP_MS = 2 * 3_600_000;

export function deriveLiveKey(secret: Buffer, team: string, salt: string): string {
  const digest = createHmac('sha256', secret).update(`gw live key\n${team}\n${salt}`).digest();
  return generateVirtualKey(() => digest);
}

/** The team's newest live key whose virtual key is still usable, or null. */
function currentLiveKey(state: StateData, team: string, now: Date): { live: LiveKeyRecord; key: VirtualKeyRecord } | null {
  for (let index = state.live_keys.length - 1; index >= 0; index -= 1) {
    const live = state.live_keys[index]!;
    if (live.team !== team || live.superseded_at !== null) continue;
    const key = state.keys.find((candidate) => candidate.id === live.key_id);
    if (key && keyStatus(key, now) === 'active') return { live, key };
  }
  return null;
}

/** In an update: retires the team's current live key (expiring after `overlapMs`) and adds a new one. */
function addLiveKey(draft: StateData, team: string, secret: Buffer, now: Date, overlapMs = DEFAULT_OVERLAP_MS): LiveKeyRecord {
  if (!draft.teams.some((candidate) => candidate.name === team)) throw new StateRefusedError(`team "${team}" does not exist`);
  for (const live of draft.live_keys) {
    if (live.team !== team || live.superseded_at !== null) continue;
    live.superseded_at = now.toISOString();
    const key = draft.keys.find((candidate) => candidate.id === live.key_id);
    const end = new Date(now.getTime() + overlapMs);
    if (key && key.revoked_at === null && (key.expires_at === null || Date.parse(key.expires_at) > end.getTime())) key.expires_at = end.toISOString();
  }
  const salt = randomBytes(16).toString('hex');
  const key = deriveLiveKey(secret, team, salt);
  const record = addKey(draft, { team, name: LIVE_KEY_NAME, expiresAt: null, key, now });
  const live: LiveKeyRecord = { team, key_id: record.id, salt, created_at: now.toISOString(), superseded_at: null };
  draft.live_keys.push(live);
  return live;
}

export async function rotateLiveKey(store: StateStore, team: string, secret: Buffer, overlapMs = DEFAULT_OVERLAP_MS): Promise<LiveKeyRecord> {
  return store.update((draft) => addLiveKey(draft, team, secret, store.now(), overlapMs));
}

/** The team's usable live key, made (or replaced, when revoked or expired) under the lock if there is none. */
export async function ensureLiveKey(store: StateStore, team: string, secret: Buffer): Promise<{ live: LiveKeyRecord; key: VirtualKeyRecord }> {
  const found = currentLiveKey(store.snapshot(), team, store.now());
  if (found) return found;
  return store.update((draft) => {
    const now = store.now();
    const again = currentLiveKey(draft, team, now);
    if (again) return again;
    addLiveKey(draft, team, secret, now, 0);
    return currentLiveKey(draft, team, now)!;
  });
}

/** Live keys due for rotation: the team's current one is older than live_key_rotation_seconds. */
export function teamsDueForRotation(state: StateData, now: Date): string[] {
  const ageMs = state.settings.live_key_rotation_seconds * 1000;
  return state.live_keys
    .filter((live) => live.superseded_at === null && Date.parse(live.created_at) + ageMs <= now.getTime())
    .map((live) => live.team);
}
