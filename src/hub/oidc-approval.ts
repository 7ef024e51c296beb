// Approving a device login through the company's OpenID Connect provider: the
// verification page sends the person to the issuer (authorization code flow with
// PKCE, state and nonce), and the callback maps the verified email to a person.
// The sign-in is bound to the browser that started it: a random value in a short-lived
// cookie that the callback must bring back (oidc-state-cookie.ts), so a callback URL
// opened anywhere else (leaked, or planted in someone else's browser) signs nobody in.
// An email counts only when the issuer says `email_verified: true`, or the hub is told
// (setting oidc_verifies_email) that this issuer verifies every address it sends.
// The ID token comes straight from the token endpoint over the hub's own
// connection, so TLS authenticates it (OIDC Core §3.1.3.7, point 6); its iss,
// aud, nonce and exp are still checked.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface OidcClientConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  redirectUri: string;
  /** The issuer verifies every address it sends (setting oidc_verifies_email): email_verified may be absent. */
  verifiesEmail: boolean;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
}

export interface PendingSignIn {
  deviceId: string;
  nonce: string;
  verifier: string;
  /** The random value the starting browser holds in its sign-in cookie; never in a URL. */
  browser: string;
  expiresAt: number;
}

/** How long a started sign-in may take, and its browser cookie lives. */
const SIGN_IN_SECONDS = 600;

const discoveries = new Map<string, Discovery>();

async function readJson(response: Response, what: string): Promise<Record<string, unknown>> {
  if (!response.ok) throw new Error(`${what} answered HTTP ${response.status}`);
  const body = await response.json();
  if (typeof body !== 'object' || body === null) throw new Error(`${what} did not answer a JSON object`);
  return body as Record<string, unknown>;
}

async function discover(issuer: string, fetchImpl: typeof fetch): Promise<Discovery> {
  const cached = discoveries.get(issuer);
  if (cached) return cached;
  const body = await readJson(await fetchImpl(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) }), 'the OIDC discovery document');
  if (body.issuer !== issuer || typeof body.authorization_endpoint !== 'string' || typeof body.token_endpoint !== 'string') {
    throw new Error('the OIDC discovery document does not match the configured issuer');
  }
  const found: Discovery = {
    authorization_endpoint: body.authorization_endpoint, token_endpoint: body.token_endpoint,
    ...(typeof body.userinfo_endpoint === 'string' ? { userinfo_endpoint: body.userinfo_endpoint } : {}),
  };
  discoveries.set(issuer, found);
  return found;
}

/** The issuer's authorization URL for one device code, and what the callback must check. */
export async function beginSignIn(config: OidcClientConfig, deviceId: string, fetchImpl: typeof fetch, now: number): Promise<{ url: string; state: string; pending: PendingSignIn }> {
  const endpoints = await discover(config.issuer, fetchImpl);
  const state = randomBytes(24).toString('base64url');
  const pending: PendingSignIn = {
    deviceId, nonce: randomBytes(24).toString('base64url'), verifier: randomBytes(32).toString('base64url'),
    browser: randomBytes(24).toString('base64url'), expiresAt: now + SIGN_IN_SECONDS * 1000,
  };
  const url = new URL(endpoints.authorization_endpoint);
  const challenge = createHash('sha256').update(pending.verifier).digest('base64url');
  const query = { response_type: 'code', client_id: config.clientId, redirect_uri: config.redirectUri, scope: 'openid email', state, nonce: pending.nonce, code_challenge: challenge, code_challenge_method: 'S256' };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return { url: url.toString(), state, pending };
}

function decodeClaims(idToken: string): Record<string, unknown> {
  const payload = idToken.split('.')[1];
  if (!payload) throw new Error('the ID token is malformed');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function checkClaims(claims: Record<string, unknown>, config: OidcClientConfig, nonce: string, now: number): void {
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (claims.iss !== config.issuer) throw new Error('the ID token comes from another issuer');
  if (!audience.includes(config.clientId)) throw new Error('the ID token is for another client');
  if (claims.nonce !== nonce) throw new Error('the ID token does not carry this sign-in\'s nonce');
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) throw new Error('the ID token has expired');
}

/** Who signed in: their verified email and, when the issuer sends a `groups` claim, its values. */
export interface SignedIn {
  email: string;
  groups: string[];
}

/** Redeems the callback's code; returns who signed in. */
export async function finishSignIn(config: OidcClientConfig, code: string, pending: PendingSignIn, fetchImpl: typeof fetch, now: number): Promise<SignedIn> {
  const endpoints = await discover(config.issuer, fetchImpl);
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: config.redirectUri, code_verifier: pending.verifier, client_id: config.clientId });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (config.clientSecret !== null) {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString('base64')}`;
  }
  const tokens = await readJson(await fetchImpl(endpoints.token_endpoint, { method: 'POST', headers, body: form, signal: AbortSignal.timeout(10_000) }), 'the OIDC token endpoint');
  if (typeof tokens.id_token !== 'string') throw new Error('the OIDC token endpoint sent no ID token');
  const claims = decodeClaims(tokens.id_token);
  checkClaims(claims, config, pending.nonce, now);
  let { email, email_verified: verified, groups } = claims;
  // Many issuers put email, its verification and groups only in the userinfo answer for the code flow.
  if ((typeof email !== 'string' || verified !== true || groups === undefined) && endpoints.userinfo_endpoint && typeof tokens.access_token === 'string') {
    const info = await readJson(await fetchImpl(endpoints.userinfo_endpoint, { headers: { authorization: `Bearer ${tokens.access_token}` }, signal: AbortSignal.timeout(10_000) }), 'the OIDC userinfo endpoint');
    if (info.sub !== claims.sub) throw new Error('the userinfo answer is about someone else');
    if (typeof email !== 'string' || (verified !== true && info.email === email)) {
      email = info.email;
      verified = info.email_verified;
    }
    groups ??= info.groups;
  }
  if (typeof email !== 'string') throw new Error('the identity provider did not say who signed in (no email claim)');
  // Only the boolean true proves the address (OIDC Core §5.1): absent, "false" or "true" as a string do not.
  if (verified !== true && !config.verifiesEmail) throw new Error('the identity provider does not say this email is verified (email_verified is not true)');
  return { email: email.trim().toLowerCase(), groups: Array.isArray(groups) ? groups.filter((group): group is string => typeof group === 'string') : [] };
}

/** The callback came back to the browser that started the sign-in: its cookie holds the pending sign-in's value (constant-time compare). */
export function sameBrowser(pending: PendingSignIn, cookie: string | undefined): boolean {
  const expected = Buffer.from(pending.browser);
  const given = Buffer.from(cookie ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The Set-Cookie value binding a sign-in to this browser: HttpOnly, SameSite=Lax (the issuer's redirect back is a cross-site top-level GET), Secure over TLS. */
export function signInCookie(name: string, path: string, value: string, secure: boolean): string {
  return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${value === '' ? 0 : SIGN_IN_SECONDS}${secure ? '; Secure' : ''}`;
}
