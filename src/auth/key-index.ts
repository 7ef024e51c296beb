// Virtual keys indexed by the SHA-256 of the key: a request's key is hashed once
// and looked up in a Map, so lookup time says nothing about how close a guess was.
// A value with the wrong shape or checksum is refused before any hashing or lookup.
// A team's live key is not in the index: it never leaves the hub, and a call must
// name its person (a gws- session credential), so a live key presented is unknown.
import type { StateData, VirtualKeyRecord } from '../state/schema.js';
import { hashVirtualKey, isWellFormedVirtualKey } from '../state/virtual-keys.js';

export type KeyLookup =
  | { status: 'active' | 'revoked'; record: VirtualKeyRecord }
  | { status: 'unknown' | 'malformed' };

export interface KeyIndex {
  find(presented: string): KeyLookup;
}

export function buildKeyIndex(state: StateData): KeyIndex {
  const byHash = new Map<string, VirtualKeyRecord>();
  const liveKeyIds = new Set(state.live_keys.map((live) => live.key_id));
  for (const record of state.keys) if (!liveKeyIds.has(record.id)) byHash.set(record.hash, record);
  return {
    find(presented) {
      if (!isWellFormedVirtualKey(presented)) return { status: 'malformed' };
      const record = byHash.get(hashVirtualKey(presented));
      if (!record) return { status: 'unknown' };
      if (record.revoked_at) return { status: 'revoked', record };
      return { status: 'active', record };
    },
  };
}
