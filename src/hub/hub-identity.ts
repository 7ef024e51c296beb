// The hub's answer to "who is this atu- token?" (spec, Authentication, personal
// tokens): person → team → the team's live key, which the door puts in x-gw-vk.
// Membership is re-checked on every request against the current state, so a
// removed person or revoked token is refused within the state reload (~1 s).
import type { Identity } from '../auth/authenticate.js';
import type { PersonalIdentity, TokenResolution } from '../auth/personal-identity.js';
import { deriveLiveKey, ensureLiveKey, isSupersededLiveKey } from '../state/live-keys.js';
import { findTokenRecord, tokenStatus } from '../state/personal-tokens.js';
import type { HubContext } from './hub-context.js';
import { readPersonProof } from './person-proof.js';

export const KEY_ROTATED_HEADER = 'x-gw-key-rotated';

export function createHubIdentity(hub: HubContext): PersonalIdentity {
  return {
    async resolveToken(token): Promise<TokenResolution> {
      const state = hub.store.snapshot();
      const now = hub.now();
      const record = findTokenRecord(state, token);
      if (!record) return { ok: false, reason: 'unknown' };
      const status = tokenStatus(record, now);
      if (status !== 'active') return { ok: false, reason: status };
      const person = state.people.find((candidate) => candidate.email === record.person);
      if (!person || !state.teams.some((team) => team.name === person.team)) return { ok: false, reason: 'revoked' };
      const { live, key } = await ensureLiveKey(hub.store, person.team, hub.secret);
      const identity: Identity = { team: person.team, keyId: key.id, person: person.email, via: 'personal-token' };
      return { ok: true, identity, liveKey: deriveLiveKey(hub.secret, live.team, live.salt) };
    },
    resolveProof(proof, identity) {
      const tokenId = readPersonProof(hub.secret, proof, hub.now());
      if (tokenId === null) return null;
      const state = hub.store.snapshot();
      const record = state.tokens.find((candidate) => candidate.id === tokenId);
      if (!record || tokenStatus(record, hub.now()) !== 'active') return null;
      const person = state.people.find((candidate) => candidate.email === record.person);
      // The proof only names a person of the team whose key came with it.
      return person && person.team === identity.team ? person.email : null;
    },
    responseHeaders(identity): Record<string, string> {
      return identity.keyId !== null && isSupersededLiveKey(hub.store.snapshot(), identity.keyId) ? { [KEY_ROTATED_HEADER]: '1' } : {};
    },
  };
}
