// RFC 8693 token exchange at POST /oauth/token: a sidecar trades its personal
// atu- token for a gws- session credential bound to its person (at most an hour,
// never past the token's own expiry) and the team's settings. The team's live key
// stays in the hub. The response is no-store; the credential is never logged.
import { ensureLiveKey } from '../state/live-keys.js';
import { findTokenRecord, tokenStatus } from '../state/personal-tokens.js';
import type { StateData } from '../state/schema.js';
import type { HubContext } from './hub-context.js';
import { jsonReply, oauthError, type HubReply, type HubRequest } from './hub-reply.js';
import { SESSION_LIFETIME_MS, issueSessionCredential } from './session-credential.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

export type ExchangeValidation = { ok: true; subjectToken: string } | { ok: false; error: string; description: string };

/** RFC 8693 §2.1: the parameters, checked before any lookup. */
export function validateExchangeRequest(params: URLSearchParams): ExchangeValidation {
  const subjectToken = params.get('subject_token');
  const subjectType = params.get('subject_token_type');
  if (!subjectToken || !subjectType) return { ok: false, error: 'invalid_request', description: 'subject_token and subject_token_type are required.' };
  if (subjectType !== ACCESS_TOKEN_TYPE) return { ok: false, error: 'invalid_request', description: `subject_token_type must be ${ACCESS_TOKEN_TYPE}.` };
  const requested = params.get('requested_token_type');
  if (requested !== null && requested !== ACCESS_TOKEN_TYPE) return { ok: false, error: 'invalid_request', description: `requested_token_type must be ${ACCESS_TOKEN_TYPE}.` };
  if (params.has('actor_token')) return { ok: false, error: 'invalid_request', description: 'Delegation (actor_token) is not supported.' };
  return { ok: true, subjectToken };
}

/** The person and team a token stands for, or why it cannot be exchanged (one text for every reason). */
function resolveSubject(state: StateData, token: string, now: Date) {
  const record = findTokenRecord(state, token);
  if (!record || tokenStatus(record, now) !== 'active') return null;
  const person = state.people.find((candidate) => candidate.email === record.person);
  if (!person || !state.teams.some((team) => team.name === person.team)) return null;
  return { record, person };
}

export async function exchangeToken(hub: HubContext, request: HubRequest): Promise<HubReply> {
  const validation = validateExchangeRequest(request.params);
  if (!validation.ok) return oauthError(validation.error, validation.description);
  const now = hub.now();
  const subject = resolveSubject(hub.store.snapshot(), validation.subjectToken, now);
  if (subject === null) return oauthError('invalid_grant', 'The personal token is not valid (unknown, revoked, expired, or its person was removed); run gw login.');
  // The key id names the team key in the audit record; its plaintext is not needed here.
  const { key } = await ensureLiveKey(hub.store, subject.person.team, hub.secret);
  const expiresAt = new Date(Math.min(now.getTime() + SESSION_LIFETIME_MS, Date.parse(subject.record.expires_at)));
  const settings = hub.store.snapshot().settings;
  hub.audit({ kind: 'login.exchange', person: subject.person.email, team: subject.person.team, key_id: key.id, origin: request.ip, data: { token_id: subject.record.id } });
  return jsonReply(200, {
    access_token: issueSessionCredential(hub.secret, subject.record.id, expiresAt),
    issued_token_type: ACCESS_TOKEN_TYPE,
    // RFC 8693 §2.2.1: the credential is sent in x-gw-vk, not with the Bearer scheme.
    token_type: 'N_A',
    expires_in: Math.max(1, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
    team: subject.person.team,
    person: subject.person.email,
    team_settings: { enforce_auth: settings.enforce_auth, body_limit_bytes: settings.body_limit_bytes, models: hub.models?.() ?? [] },
  });
}
