// The sidecar's door: credential-less local calls are served as the logged-in
// person (DESIGN.md, "Modes"); the person's own atu- token, if a tool sends it,
// means the same; any other token is refused (only the hub knows them).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Identity } from '../auth/authenticate.js';
import type { PersonalIdentity } from '../auth/personal-identity.js';
import type { HubSession } from './hub-session.js';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function createSidecarIdentity(session: HubSession): PersonalIdentity {
  const identity = (): Identity => {
    const { person, team } = session.identity;
    return { team: team ?? 'hub', keyId: null, person, via: 'sidecar-login' };
  };
  return {
    // Compared with the login in force now: it changes with gw login, without a restart.
    resolveToken: async (token) => (timingSafeEqual(digest(token), digest(session.login.token)) ? { ok: true, identity: identity() } : { ok: false, reason: 'unknown' }),
    defaultIdentity: identity,
  };
}
