// RFC 8628 on the hub: POST /oauth/device/code starts a login, POST /oauth/token
// with the device_code grant is polled until the person is approved, and
// POST /oauth/revoke (RFC 7009) ends a token.
import { createDeviceCode, formatUserCode, DEVICE_CODE_TTL_MS } from '../state/device-codes.js';
import { addPersonalToken, hashSecret, revokePersonalToken } from '../state/personal-tokens.js';
import type { DeviceCodeRecord, PersonalTokenRecord } from '../state/schema.js';
import { POLL_INTERVAL_SECONDS, type HubContext } from './hub-context.js';
import { cleanLine, jsonReply, oauthError, type HubReply, type HubRequest } from './hub-reply.js';
import { gatewayTokenReply, signInOf } from './gateway-sign-in.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export function startDeviceAuthorization(hub: HubContext, request: HubRequest): Promise<HubReply> {
  return startLogin(hub, request, false);
}

/** The gateway protocol's endpoint (Claude Code's /login, named by the discovery document): redeemed as a sign-in with a refresh token. */
export function startGatewayAuthorization(hub: HubContext, request: HubRequest): Promise<HubReply> {
  return startLogin(hub, request, true);
}

async function startLogin(hub: HubContext, request: HubRequest, gateway: boolean): Promise<HubReply> {
  if (!hub.store.snapshot().settings.device_login) {
    return oauthError('access_denied', 'Device login is turned off on this hub (setting device_login).', 403);
  }
  if (await hub.newCodes.isBlocked(request.ip)) return oauthError('slow_down', 'Too many logins started from this address; wait a few minutes.', 429);
  await hub.newCodes.count(request.ip);
  const requester = { ip: request.ip, user_agent: cleanLine(request.userAgent), client_host: cleanLine(request.params.get('client_host'), 64) || null };
  const { record, deviceCode } = await createDeviceCode(hub.store, requester, gateway);
  const userCode = formatUserCode(record.user_code);
  return jsonReply(200, {
    device_code: deviceCode,
    user_code: userCode,
    verification_uri: `${request.baseUrl}/device`,
    verification_uri_complete: `${request.baseUrl}/device?user_code=${userCode}`,
    expires_in: DEVICE_CODE_TTL_MS / 1000,
    interval: POLL_INTERVAL_SECONDS,
  });
}

/** One poll of the device_code grant: the RFC 8628 §3.5 answers, or the token once approved. */
export async function pollDeviceCode(hub: HubContext, request: HubRequest): Promise<HubReply> {
  const deviceCode = request.params.get('device_code');
  if (!deviceCode) return oauthError('invalid_request', 'device_code is required.');
  const hash = hashSecret(deviceCode);
  const record = hub.store.snapshot().device_codes.find((candidate) => candidate.device_code_hash === hash);
  if (!record) return oauthError('invalid_grant', 'Unknown device_code.');
  const now = hub.now().getTime();
  const last = await hub.lastPoll.swap(hash, now);
  if (record.status === 'used') return replayed(hub, record);
  if (Date.parse(record.expires_at) <= now) return oauthError('expired_token', 'The code expired before it was approved; run gw login again.');
  if (record.status === 'denied') return oauthError('access_denied', whoDenied(record.denied_by));
  // A small tolerance: timers and networks make a client waiting exactly `interval` arrive a little early.
  if (last !== undefined && now - last < POLL_INTERVAL_SECONDS * 1000 - 250) {
    return { ...oauthError('slow_down', `Polled faster than every ${POLL_INTERVAL_SECONDS} s; add 5 s to the interval.`), polling: 'slow_down' };
  }
  if (record.status === 'pending') return { ...oauthError('authorization_pending', 'Waiting for the login to be approved.'), polling: 'authorization_pending' };
  return issueToken(hub, hash);
}

async function issueToken(hub: HubContext, hash: string): Promise<HubReply> {
  const issued = await hub.store.update((draft) => {
    const record = draft.device_codes.find((candidate) => candidate.device_code_hash === hash);
    // Re-checked under the lock: two polls racing must not both get a token.
    if (!record || record.status !== 'approved' || record.person === null) return null;
    const person = draft.people.find((candidate) => candidate.email === record.person);
    if (!person) return null;
    const { record: token, token: plaintext } = addPersonalToken(draft, { person: person.email, device: record.requester, now: hub.now() });
    // A gateway sign-in keeps its atu- token to itself: the person gets access and refresh tokens instead.
    if (record.gateway === true) token.refresh_generation = 0;
    record.status = 'used';
    record.token_id = token.id;
    return { token: { ...token }, plaintext, team: person.team };
  });
  hub.lastPoll.forget(hash);
  if (issued === null) return oauthError('invalid_grant', 'The code cannot be redeemed.');
  const gateway = issued.token.refresh_generation !== undefined;
  hub.audit({ kind: 'login.token_issued', person: issued.token.person, team: issued.team, origin: issued.token.device.ip, data: { token_id: issued.token.id, ...(gateway ? { refresh: true } : {}) } });
  if (gateway) return gatewayTokenReply(hub, issued.token, 0, issued.team);
  return jsonReply(200, {
    access_token: issued.plaintext,
    token_type: 'Bearer',
    expires_in: Math.round((Date.parse(issued.token.expires_at) - hub.now().getTime()) / 1000),
    person: issued.token.person,
    team: issued.team,
  });
}

/** RFC 8628 §3.5 + oidc-provider's behaviour: a device_code used twice revokes what it issued. */
async function replayed(hub: HubContext, record: DeviceCodeRecord): Promise<HubReply> {
  let revoked: PersonalTokenRecord | null = null;
  if (record.token_id !== null) {
    revoked = await revokePersonalToken(hub.store, record.token_id).then((result) => result.record, () => null);
  }
  hub.audit({ kind: 'login.code_replayed', person: record.person ?? undefined, origin: record.requester.ip, data: { token_id: revoked?.id ?? null } });
  return oauthError('invalid_grant', 'This code was already used; the token it issued has been revoked.');
}

/** RFC 7009: the answer is 200 whether or not the token existed, so it says nothing to a prober. */
export async function revokeToken(hub: HubContext, request: HubRequest): Promise<HubReply> {
  const token = request.params.get('token');
  if (!token) return oauthError('invalid_request', 'token is required.');
  // An atu- token by itself; a gateway sign-in's access or refresh token by the sign-in it names.
  const target = token.startsWith('atu-') ? token : signInOf(hub, token);
  if (target !== null) {
    const result = await revokePersonalToken(hub.store, target).catch(() => null);
    if (result?.changed) hub.audit({ kind: 'login.token_revoked', person: result.record.person, origin: request.ip, data: { token_id: result.record.id } });
  }
  return jsonReply(200, {});
}

/** The access_denied description gw login prints: who denied, as far as the hub knows. */
function whoDenied(deniedBy: string | null | undefined): string {
  if (deniedBy === 'verification_page') return 'The login was denied on the verification page.';
  if (deniedBy === 'cli') return 'The login was denied by an admin (gw device deny on the hub).';
  if (deniedBy?.startsWith('admin:')) return `The login was denied by an admin (${deniedBy.slice('admin:'.length)}, gw device deny).`;
  return 'The login was denied.';
}
