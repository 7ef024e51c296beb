// GET/POST /device: the person types the code, sees where the login came from,
// and either asks the hub admin for approval (with their email) or signs in at
// the OIDC provider; or denies it. Wrong codes are limited per IP with one text
// for unknown, expired and used codes (RFC 8628 §5.1); forms carry a CSRF token
// matched against a SameSite=Strict cookie, so another site cannot post them.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { approveDeviceCode, claimDeviceCode, denyDeviceCode, findLiveUserCode, formatUserCode } from '../state/device-codes.js';
import { isEmail, placeByGroups } from '../state/people.js';
import { shellCommand } from '../shell-quote.js';
import type { DeviceCodeRecord } from '../state/schema.js';
import { type HubContext } from './hub-context.js';
import { htmlReply, redirectReply, type HubReply, type HubRequest } from './hub-reply.js';
import { beginSignIn, finishSignIn, sameBrowser, signInCookie, type OidcClientConfig } from './oidc-approval.js';
import { confirmPage, entryPage, messagePage, waitingPage } from './verification-html.js';

const CSRF_COOKIE = 'gw_device_csrf';
/** Binds an OIDC approval to the browser that started it (oidc-approval.ts). */
const OIDC_BROWSER_COOKIE = 'gw_device_oidc';
export const WRONG_CODE_TEXT = 'That code is not valid: check it against your terminal, or run gw login again.';
const OIDC_CALLBACK_PATH = '/device/oidc/callback';

function csrfCookie(request: HubRequest): { value: string; header: Record<string, string> } {
  const existing = request.cookies[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return { value: existing, header: {} };
  const value = randomBytes(24).toString('base64url');
  const secure = request.baseUrl.startsWith('https:') ? '; Secure' : '';
  return { value, header: { 'set-cookie': `${CSRF_COOKIE}=${value}; Path=/device; HttpOnly; SameSite=Strict${secure}` } };
}

/** A fresh CSP nonce per page, so an injected script could never guess it. */
function newScriptNonce(): string {
  return randomBytes(16).toString('base64');
}

function csrfMatches(request: HubRequest): boolean {
  const cookie = Buffer.from(request.cookies[CSRF_COOKIE] ?? '');
  const form = Buffer.from(request.params.get('csrf') ?? '');
  return cookie.length === 32 && cookie.length === form.length && timingSafeEqual(cookie, form);
}

export function showEntryPage(_hub: HubContext, request: HubRequest): HubReply {
  const csrf = csrfCookie(request);
  return htmlReply(200, entryPage(csrf.value, (request.params.get('user_code') ?? '').slice(0, 20), null), csrf.header);
}

export function oidcConfig(hub: HubContext, baseUrl: string): OidcClientConfig | null {
  const settings = hub.store.snapshot().settings;
  if (!settings.oidc_issuer || !settings.oidc_client_id) return null;
  return {
    issuer: settings.oidc_issuer, clientId: settings.oidc_client_id, clientSecret: hub.oidcClientSecret(),
    redirectUri: `${baseUrl}${OIDC_CALLBACK_PATH}`, verifiesEmail: settings.oidc_verifies_email,
  };
}

export async function submitDeviceForm(hub: HubContext, request: HubRequest): Promise<HubReply> {
  const csrf = csrfCookie(request);
  if (!csrfMatches(request)) return htmlReply(403, messagePage('Form expired', 'This form expired or came from another site. Open the page again and retry.', 'error'), csrf.header);
  if (await hub.wrongCodes.isBlocked(request.ip)) {
    return htmlReply(429, messagePage('Too many attempts', 'Too many wrong codes from your address: wait 15 minutes and try again.', 'error'));
  }
  const record = findLiveUserCode(hub.store.snapshot(), request.params.get('user_code') ?? '', hub.now());
  if (!record || record.status !== 'pending') {
    await hub.wrongCodes.count(request.ip);
    return htmlReply(400, entryPage(csrf.value, '', WRONG_CODE_TEXT), csrf.header);
  }
  switch (request.params.get('action')) {
    case 'claim': return claim(hub, request, record);
    case 'deny':
      if (await denyDeviceCode(hub.store, record.user_code, 'verification_page').catch(() => null)) {
        hub.audit({ kind: 'admin.change', origin: request.ip, data: { via: 'verification_page', action: 'devices.deny', target: formatUserCode(record.user_code) } });
      }
      return htmlReply(200, messagePage('Login denied', 'Denied. The gw login that showed this code stops now.'));
    case 'oidc': return startOidc(hub, request, record);
    default: {
      const nonce = newScriptNonce();
      return htmlReply(200, confirmPage(csrf.value, record, oidcConfig(hub, request.baseUrl)?.issuer ?? null, nonce), csrf.header, nonce);
    }
  }
}

async function claim(hub: HubContext, request: HubRequest, record: DeviceCodeRecord): Promise<HubReply> {
  const email = (request.params.get('email') ?? '').trim().toLowerCase();
  if (!isEmail(email)) return htmlReply(400, messagePage('Email needed', 'Enter your email address (name@example.com).', 'error'));
  await claimDeviceCode(hub.store, record.id, email);
  const code = formatUserCode(record.user_code);
  const nonce = newScriptNonce();
  return htmlReply(200, waitingPage(shellCommand(['gw', 'device', 'approve', code, '--person', email]), nonce), {}, nonce);
}

async function startOidc(hub: HubContext, request: HubRequest, record: DeviceCodeRecord): Promise<HubReply> {
  const config = oidcConfig(hub, request.baseUrl);
  if (!config) return htmlReply(400, messagePage('Not available', 'This hub has no identity provider configured.', 'error'));
  try {
    const now = hub.now().getTime();
    for (const [state, pending] of hub.oidcPending) if (pending.expiresAt <= now) hub.oidcPending.delete(state);
    const { url, state, pending } = await beginSignIn(config, record.id, hub.fetch, now);
    hub.oidcPending.set(state, pending);
    return redirectReply(url, { 'set-cookie': signInCookie(OIDC_BROWSER_COOKIE, '/device', pending.browser, request.baseUrl.startsWith('https:')) });
  } catch (error) {
    return htmlReply(502, messagePage('Identity provider unavailable', `The identity provider could not be reached: ${error instanceof Error ? error.message : String(error)}.`, 'error'));
  }
}

/** GET /device/oidc/callback: the issuer sends the person back with a code; their email approves the login. */
export async function finishOidc(hub: HubContext, request: HubRequest): Promise<HubReply> {
  const state = request.params.get('state') ?? '';
  const pending = hub.oidcPending.get(state);
  const config = oidcConfig(hub, request.baseUrl);
  const clear = { 'set-cookie': signInCookie(OIDC_BROWSER_COOKIE, '/device', '', request.baseUrl.startsWith('https:')) };
  const fail = (message: string) => htmlReply(400, messagePage('Sign-in failed', message, 'error'), clear);
  // Another browser (or a client replaying a leaked callback URL) leaves the sign-in to the one that started it.
  if (pending && !sameBrowser(pending, request.cookies[OIDC_BROWSER_COOKIE])) {
    hub.audit({ kind: 'admin.refused', origin: request.ip, route: OIDC_CALLBACK_PATH, data: { reason: 'OIDC callback opened in a browser other than the one that started the sign-in', method: 'GET' } });
    return htmlReply(400, messagePage('Sign-in failed', 'This sign-in was started in another browser: finish it there, or start again from the page gw login opened.', 'error'));
  }
  hub.oidcPending.delete(state);
  if (!pending || pending.expiresAt <= hub.now().getTime() || !config) return fail('This sign-in expired or was not started here. Open the page from gw login again.');
  if (request.params.get('error')) return fail(`The identity provider refused the sign-in (${request.params.get('error')}).`);
  const record = hub.store.snapshot().device_codes.find((candidate) => candidate.id === pending.deviceId);
  if (!record) return fail(WRONG_CODE_TEXT);
  try {
    const { email, groups } = await finishSignIn(config, request.params.get('code') ?? '', pending, hub.fetch, hub.now().getTime());
    const placed = await placeByGroups(hub.store, email, groups);
    if (placed?.change) {
      const action = placed.change === 'added' ? 'people.add' : 'people.move';
      hub.audit({ kind: 'admin.change', origin: request.ip, person: email, team: placed.team, data: { via: 'oidc', actor: `oidc:${config.issuer}`, action, target: email, team: placed.team, groups: groups.slice(0, 20) } });
    }
    await approveDeviceCode(hub.store, record.user_code, email, `oidc:${config.issuer}`);
    hub.audit({ kind: 'admin.change', origin: request.ip, person: email, data: { via: 'oidc', actor: `oidc:${config.issuer}`, action: 'devices.approve', target: formatUserCode(record.user_code), person: email } });
    return htmlReply(200, messagePage('Approved', `Signed in as ${email}. Return to your terminal: gw login finishes on its own.`), clear);
  } catch (error) {
    return fail(`Not approved: ${error instanceof Error ? error.message : String(error)}.`);
  }
}
