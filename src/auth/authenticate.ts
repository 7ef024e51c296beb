// The door: turns the credential a request presented into an identity, or a
// refusal with a catalog error. No I/O: keys are looked up by their SHA-256 digest
// in an in-memory index, so no secret is ever compared byte by byte.
import { GatewayError } from '../errors.js';
import type { Settings } from '../state/schema.js';
import type { KeyIndex } from './key-index.js';
import type { CredentialReading } from './read-credentials.js';

export interface Identity {
  team: string;
  keyId: string | null;
  person: string | null;
  /** How the identity was established: a presented key or personal token, or the gateway's default identity. */
  via: 'virtual-key' | 'default-team' | 'personal-token' | 'hub-session' | 'sidecar-login';
  /** On a hub, the personal token (device login) a person's credential resolved through: its public id, never the token. */
  tokenId?: string;
}

export type RefusalReason = 'missing' | 'required' | 'malformed' | 'unknown' | 'revoked' | 'expired' | 'ambiguous';

export type AuthDecision =
  | { ok: true; identity: Identity }
  | { ok: false; reason: RefusalReason; error: GatewayError };

const WWW_AUTHENTICATE = { 'www-authenticate': 'Bearer realm="gw"' };

/** The decision (and catalog error) for a refusal; unknown, revoked, expired and malformed look alike outside. */
export function refuse(reason: RefusalReason, foreign = false): AuthDecision {
  // A credential was sent but it is no gw one: say that (never what was sent) rather than "none sent".
  if (foreign && (reason === 'missing' || reason === 'required')) {
    return { ok: false, reason, error: new GatewayError('GW_ERR_AUTH_NOT_GW_KEY', { headers: WWW_AUTHENTICATE }) };
  }
  switch (reason) {
    case 'ambiguous':
      return { ok: false, reason, error: new GatewayError('GW_ERR_AUTH_AMBIGUOUS') };
    case 'missing':
      return { ok: false, reason, error: new GatewayError('GW_ERR_AUTH_MISSING', { headers: WWW_AUTHENTICATE }) };
    case 'required':
      return { ok: false, reason, error: new GatewayError('GW_ERR_AUTH_REQUIRED', { headers: WWW_AUTHENTICATE }) };
    default:
      // One answer for unknown, revoked, expired and malformed: the reason stays internal.
      return { ok: false, reason, error: new GatewayError('GW_ERR_AUTH_INVALID', { headers: WWW_AUTHENTICATE }) };
  }
}

/** `defaultIdentity`: a sidecar's logged-in person, who serves credential-less calls when enforce_auth is off. */
export function authenticate(reading: CredentialReading, keys: KeyIndex, settings: Settings, now: Date, defaultIdentity: Identity | null = null): AuthDecision {
  if (reading.outcome === 'ambiguous') return refuse('ambiguous');
  if (reading.outcome === 'malformed') return refuse('malformed');
  if (reading.outcome === 'none') {
    const foreign = reading.foreign === true;
    if (settings.enforce_auth) return refuse('required', foreign);
    if (defaultIdentity) return { ok: true, identity: defaultIdentity };
    if (settings.default_team) {
      return { ok: true, identity: { team: settings.default_team, keyId: null, person: null, via: 'default-team' } };
    }
    return refuse('missing', foreign);
  }
  const { credential } = reading;
  // Personal atu- tokens and gws- session credentials are resolved by the door's
  // PersonalIdentity (personal-identity.ts) before this; without one, they cannot be served.
  if (credential.kind !== 'virtual-key') return refuse('unknown');
  const lookup = keys.find(credential.value);
  if (lookup.status !== 'active') return refuse(lookup.status);
  if (lookup.record.expires_at && Date.parse(lookup.record.expires_at) <= now.getTime()) return refuse('expired');
  return { ok: true, identity: { team: lookup.record.team, keyId: lookup.record.id, person: null, via: 'virtual-key' } };
}
