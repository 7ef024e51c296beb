// The hub's answer to "who is calling?" for a person's credentials (spec,
// Authentication, personal tokens): an atu- token, or the gws- session credential a
// sidecar got at token exchange. Both resolve to token → person → team, checked on
// every request against the current state, so a removed person or a revoked token
// is refused within the state reload (~1 s). The identity carries the team's live
// key id (budgets and limits per team key); the live key itself never leaves here.
import type { Identity } from '../auth/authenticate.js';
import type { PersonalIdentity, TokenResolution } from '../auth/personal-identity.js';
import { ensureLiveKey } from '../state/live-keys.js';
import { findTokenRecord, tokenStatus } from '../state/personal-tokens.js';
import type { PersonalTokenRecord } from '../state/schema.js';
import type { HubContext } from './hub-context.js';
import { readSessionCredential } from './session-credential.js';

export function createHubIdentity(hub: HubContext): PersonalIdentity {
  async function resolveRecord(record: PersonalTokenRecord | null, via: Identity['via']): Promise<TokenResolution> {
    if (!record) return { ok: false, reason: 'unknown' };
    const status = tokenStatus(record, hub.now());
    if (status !== 'active') return { ok: false, reason: status };
    const state = hub.store.snapshot();
    const person = state.people.find((candidate) => candidate.email === record.person);
    if (!person || !state.teams.some((team) => team.name === person.team)) return { ok: false, reason: 'revoked' };
    const { key } = await ensureLiveKey(hub.store, person.team, hub.secret);
    return { ok: true, identity: { team: person.team, keyId: key.id, person: person.email, via, tokenId: record.id } };
  }
  return {
    resolveToken: (token) => resolveRecord(findTokenRecord(hub.store.snapshot(), token), 'personal-token'),
    async resolveSession(credential) {
      const tokenId = readSessionCredential(hub.secret, credential, hub.now());
      if (tokenId === null) return { ok: false, reason: 'unknown' };
      return resolveRecord(hub.store.snapshot().tokens.find((candidate) => candidate.id === tokenId) ?? null, 'hub-session');
    },
  };
}
