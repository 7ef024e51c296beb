// Each OAuth request gw makes to its hub, as one request function and one
// response validator (the oauth4webapi shape): RFC 8628 device authorization and
// token polling, RFC 8693 token exchange, RFC 7009 revocation.
import type { ExchangeOutcome, SidecarLogin } from '../sidecar/hub-session.js';
import { describeNetworkFailure } from './describe-network-failure.js';

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const CLIENT_ID = 'gw-cli';
const TIMEOUT_MS = 15_000;

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string | null;
  expiresIn: number;
  /** RFC 8628 §3.2: 5 s when the server says nothing. */
  interval: number;
}

export type PollAnswer =
  | { kind: 'token'; token: string; person: string | null; team: string | null; expiresIn: number | null }
  | { kind: 'error'; error: string; description: string };

type Json = Record<string, unknown>;

async function postForm(fetchImpl: typeof fetch, url: string, form: Record<string, string>, userAgent: string): Promise<{ status: number; body: Json }> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST', body: new URLSearchParams(form), signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': userAgent },
    });
  } catch (error) {
    // The URL is the hub's endpoint (no secret in it); the form, which may hold a token, is never quoted.
    throw new Error(`cannot reach ${url}: ${describeNetworkFailure(error, TIMEOUT_MS)}`, { cause: error });
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's error page, or not a gw hub at all.
  }
  if (typeof body !== 'object' || body === null) throw new Error(`${url} answered HTTP ${response.status} without a JSON body (is it a gw hub?)`);
  return { status: response.status, body: body as Json };
}

function oauthFailure(body: Json, status: number): string {
  const error = typeof body.error === 'string' ? body.error : `http_${status}`;
  return typeof body.error_description === 'string' ? `${error}: ${body.error_description}` : error;
}

export async function requestDeviceCode(fetchImpl: typeof fetch, hub: string, clientHost: string, userAgent: string): Promise<DeviceAuthorization> {
  const { status, body } = await postForm(fetchImpl, `${hub}/oauth/device/code`, { client_id: CLIENT_ID, client_host: clientHost }, userAgent);
  if (status !== 200) throw new Error(`the hub refused to start a login (${oauthFailure(body, status)})`);
  const { device_code: deviceCode, user_code: userCode, verification_uri: verificationUri, expires_in: expiresIn } = body;
  if (typeof deviceCode !== 'string' || typeof userCode !== 'string' || typeof verificationUri !== 'string' || typeof expiresIn !== 'number') {
    throw new Error('the hub\'s device authorization answer lacks device_code, user_code, verification_uri or expires_in');
  }
  const interval = typeof body.interval === 'number' && body.interval > 0 ? body.interval : 5;
  const complete = typeof body.verification_uri_complete === 'string' ? body.verification_uri_complete : null;
  return { deviceCode, userCode, verificationUri, verificationUriComplete: complete, expiresIn, interval };
}

export async function pollOnce(fetchImpl: typeof fetch, hub: string, deviceCode: string, userAgent: string): Promise<PollAnswer> {
  const { status, body } = await postForm(fetchImpl, `${hub}/oauth/token`, { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: CLIENT_ID }, userAgent);
  if (status === 200 && typeof body.access_token === 'string') {
    return {
      kind: 'token', token: body.access_token,
      person: typeof body.person === 'string' ? body.person : null, team: typeof body.team === 'string' ? body.team : null,
      expiresIn: typeof body.expires_in === 'number' ? body.expires_in : null,
    };
  }
  return { kind: 'error', error: typeof body.error === 'string' ? body.error : `http_${status}`, description: typeof body.error_description === 'string' ? body.error_description : '' };
}

/** RFC 8693: the personal token for a person-bound gws- session credential. `rejected` when the hub says the token is no good. */
export async function exchangeAtHub(fetchImpl: typeof fetch, login: SidecarLogin, now: number): Promise<ExchangeOutcome> {
  const { status, body } = await postForm(fetchImpl, `${login.hub}/oauth/token`, {
    grant_type: TOKEN_EXCHANGE_GRANT, subject_token: login.token, subject_token_type: ACCESS_TOKEN_TYPE, requested_token_type: ACCESS_TOKEN_TYPE,
  }, 'gw-sidecar/0.1.0');
  if (status !== 200) return { ok: false, rejected: status === 400 && body.error === 'invalid_grant', reason: oauthFailure(body, status) };
  const { access_token: credential, team, person, expires_in: expiresIn } = body;
  if (typeof credential !== 'string' || typeof team !== 'string' || typeof person !== 'string' || typeof expiresIn !== 'number') {
    return { ok: false, rejected: false, reason: 'the hub\'s token exchange answer is incomplete' };
  }
  // An older hub answers with the team's key (sk-gw-), which this sidecar no longer sends.
  if (!credential.startsWith('gws-')) return { ok: false, rejected: false, reason: 'the hub is older than this gw: upgrade the hub' };
  const teamSettings = typeof body.team_settings === 'object' && body.team_settings !== null ? (body.team_settings as Json) : {};
  return { ok: true, grant: { credential, team, person, expiresAt: now + expiresIn * 1000, teamSettings } };
}

export async function revokeAtHub(fetchImpl: typeof fetch, hub: string, token: string): Promise<void> {
  const { status, body } = await postForm(fetchImpl, `${hub}/oauth/revoke`, { token, token_type_hint: 'access_token', client_id: CLIENT_ID }, 'gw-cli/0.1.0');
  if (status !== 200) throw new Error(`the hub did not revoke the token (${oauthFailure(body, status)})`);
}
