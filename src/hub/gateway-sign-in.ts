// Claude Code's own /login (Anthropic's gateway protocol, docs/claude-code-sign-in.md): a
// device login started at /oauth/device_authorization is redeemed as a gateway sign-in.
// The sign-in is one personal-token record (its atu- token is never handed out); the
// person gets a short access token (a gws- session credential, access_token_minutes)
// and a refresh token `gwr-<token id>.<generation>.<HMAC>`. A refresh moves the
// generation up one, so each refresh token works once (rotation); an older one
// presented again revokes the whole sign-in (OAuth 2.0 Security BCP §4.14.2).
// Like session credentials, refresh tokens are worth nothing without the hub's state:
// a revoked sign-in or a removed person is refused at the next refresh, and the door
// refuses their access token on the next call.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { tokenStatus } from '../state/personal-tokens.js';
import type { PersonalTokenRecord, StateData } from '../state/schema.js';
import type { HubContext } from './hub-context.js';
import { jsonReply, oauthError, type HubReply, type HubRequest } from './hub-reply.js';
import { issueSessionCredential, readSessionCredential } from './session-credential.js';

export const REFRESH_TOKEN_GRANT = 'refresh_token';
const REFRESH_PREFIX = 'gwr-';
const SHAPE = /^gwr-(tok_[0-9A-Za-z]{12})\.(\d{1,9})\.([A-Za-z0-9_-]{43})$/;

function sign(secret: Buffer, tokenId: string, generation: number): string {
  // A label of its own, so no other HMAC the hub makes can be replayed as a refresh token.
  return createHmac('sha256', secret).update(`gw refresh token\n${tokenId}\n${generation}`).digest('base64url');
}

function refreshTokenFor(secret: Buffer, tokenId: string, generation: number): string {
  return `${REFRESH_PREFIX}${tokenId}.${generation}.${sign(secret, tokenId, generation)}`;
}

/** The sign-in and generation a refresh token names, or null when it is malformed or forged. */
function readRefreshToken(secret: Buffer, presented: string): { tokenId: string; generation: number } | null {
  const match = SHAPE.exec(presented);
  if (!match) return null;
  const [, tokenId = '', generationText = '', signature = ''] = match;
  const generation = Number(generationText);
  const expected = Buffer.from(sign(secret, tokenId, generation));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { tokenId, generation };
}

/** The token answer of the gateway protocol: a short access token and the sign-in's current refresh token. */
export function gatewayTokenReply(hub: HubContext, record: PersonalTokenRecord, generation: number, team: string): HubReply {
  const now = hub.now().getTime();
  const lifetimeMs = hub.store.snapshot().settings.access_token_minutes * 60_000;
  const expiresAt = new Date(Math.min(now + lifetimeMs, Date.parse(record.expires_at)));
  return jsonReply(200, {
    access_token: issueSessionCredential(hub.secret, record.id, expiresAt),
    refresh_token: refreshTokenFor(hub.secret, record.id, generation),
    token_type: 'Bearer',
    expires_in: Math.max(1, Math.floor((expiresAt.getTime() - now) / 1000)),
    person: record.person,
    team,
  });
}

type RefreshOutcome =
  | { kind: 'rotated'; record: PersonalTokenRecord; generation: number; team: string }
  | { kind: 'reused'; record: PersonalTokenRecord }
  | { kind: 'refused'; record: PersonalTokenRecord; why: string }
  | { kind: 'unknown' };

function whyRefused(state: StateData, record: PersonalTokenRecord, now: Date): string | null {
  const status = tokenStatus(record, now);
  if (status !== 'active') return status;
  const person = state.people.find((candidate) => candidate.email === record.person);
  if (!person || !state.teams.some((team) => team.name === person.team)) return 'person_removed';
  return null;
}

/** POST /oauth/token with grant_type=refresh_token. */
export async function refreshSignIn(hub: HubContext, request: HubRequest): Promise<HubReply> {
  const presented = request.params.get('refresh_token');
  if (!presented) return oauthError('invalid_request', 'refresh_token is required.');
  const named = readRefreshToken(hub.secret, presented);
  if (named === null) return oauthError('invalid_grant', 'The refresh token is not valid; sign in again (/login).');
  const outcome = await hub.store.update((draft): RefreshOutcome => {
    const record = draft.tokens.find((candidate) => candidate.id === named.tokenId);
    if (!record || record.refresh_generation === undefined) return { kind: 'unknown' };
    // Checked under the lock: two refreshes racing with one token must not both rotate it.
    if (named.generation !== record.refresh_generation) {
      if (record.revoked_at === null) record.revoked_at = hub.now().toISOString();
      return { kind: 'reused', record: { ...record } };
    }
    const why = whyRefused(draft, record, hub.now());
    if (why !== null) return { kind: 'refused', record: { ...record }, why };
    record.refresh_generation += 1;
    const team = draft.people.find((candidate) => candidate.email === record.person)?.team ?? '';
    return { kind: 'rotated', record: { ...record }, generation: record.refresh_generation, team };
  });
  return answerRefresh(hub, request, outcome);
}

function answerRefresh(hub: HubContext, request: HubRequest, outcome: RefreshOutcome): HubReply {
  if (outcome.kind === 'unknown') return oauthError('invalid_grant', 'The refresh token is not valid; sign in again (/login).');
  const base = { person: outcome.record.person, origin: request.ip };
  if (outcome.kind === 'reused') {
    hub.audit({ kind: 'login.refresh_reused', ...base, data: { token_id: outcome.record.id } });
    return oauthError('invalid_grant', 'This refresh token was already used, so the sign-in has been revoked; sign in again (/login).');
  }
  if (outcome.kind === 'refused') {
    hub.audit({ kind: 'login.refresh_refused', ...base, data: { token_id: outcome.record.id, reason: outcome.why } });
    return oauthError('invalid_grant', `The sign-in has ended (${outcome.why.replace('_', ' ')}); sign in again (/login).`);
  }
  hub.audit({ kind: 'login.refreshed', ...base, team: outcome.team, data: { token_id: outcome.record.id, generation: outcome.generation } });
  return gatewayTokenReply(hub, outcome.record, outcome.generation, outcome.team);
}

/** RFC 7009 for a gateway sign-in: the token id its refresh token or access token names (signed by this hub), or null. */
export function signInOf(hub: HubContext, presented: string): string | null {
  const named = readRefreshToken(hub.secret, presented)?.tokenId ?? readSessionCredential(hub.secret, presented, hub.now());
  if (named === null) return null;
  const record = hub.store.snapshot().tokens.find((candidate) => candidate.id === named);
  return record?.refresh_generation === undefined ? null : named;
}
