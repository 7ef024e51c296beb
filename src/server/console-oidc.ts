// Admins signing in to the console through the hub's OpenID Connect provider (issue 18): the
// same issuer and client as device-login approval (settings oidc_*), the authorization code flow
// with PKCE, state and nonce (src/hub/oidc-approval.ts), and an allow-list: an email in
// `admin_emails`, or `admin_group` among the ID token's or userinfo's `groups`. The session it
// issues names the email and what let them in; admin-routes.ts re-checks that on every call.
// The sign-in is bound to the browser that started it (a short-lived cookie the callback must
// bring back), so a callback URL opened anywhere else gets no session.
// The IdP must know the redirect URI <public_url>/ui/oidc/callback.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { beginSignIn, finishSignIn, sameBrowser, signInCookie, type OidcClientConfig, type PendingSignIn } from '../hub/oidc-approval.js';
import { SESSION_COOKIE, SESSION_SECONDS, issueSession, oidcSessionId, type OidcGrant } from '../admin/admin-session.js';
import type { AuditFields } from '../audit/record.js';
import type { AdminTokenRecord, Settings } from '../state/schema.js';
import type { RouteEntry } from '../pipeline/route-table.js';

export interface ConsoleOidc {
  /** The hub's OIDC client for a console sign-in (redirect to /ui/oidc/callback), or null when none is set. */
  config(baseUrl: string): OidcClientConfig | null;
  fetch: typeof fetch;
}

interface Context {
  settings(): Settings;
  hubSecret: Buffer;
  audit(fields: AuditFields): void;
  baseUrl(request: FastifyRequest): string;
  route(method: RouteEntry['method'], url: string, operation: string): { config: { route: RouteEntry } };
  headers: Record<string, string>;
}

const CALLBACK = '/ui/oidc/callback';
const BROWSER_COOKIE = 'gw_console_oidc';
const COOKIE_PATH = '/ui/oidc';
const MAX_PENDING = 1_000;

/**
 * What makes a signed-in email a console admin under the current settings; null when nothing does.
 * admin_emails and admin_group give the admin role; a role_groups group a narrower one (a
 * team_admin group before a viewer group, in the setting's order).
 */
function grantFor(settings: Settings, email: string, groups: readonly string[]): OidcGrant | null {
  if (settings.admin_emails.includes(email)) return { email, group: null };
  if (settings.admin_group !== null && groups.includes(settings.admin_group)) return { email, group: settings.admin_group };
  const member = settings.role_groups.filter((entry) => groups.includes(entry.group));
  const chosen = member.find((entry) => entry.role === 'team_admin') ?? member[0];
  return chosen ? { email, group: chosen.group } : null;
}

/**
 * The admin a session's grant stands for under the current settings, with its role, or null when
 * the grant no longer holds (the email off the list, the group no longer admin_group nor in role_groups).
 */
export function adminOfGrant(settings: Settings, grant: OidcGrant): AdminTokenRecord | null {
  const admin = { id: `oidc:${grant.email}`, name: grant.email, hash: '', hint: '', created_at: '', created_by: 'oidc', revoked_at: null };
  if (grant.group === null) return settings.admin_emails.includes(grant.email) ? { ...admin, role: 'admin' } : null;
  if (settings.admin_group === grant.group) return { ...admin, role: 'admin' };
  const entry = settings.role_groups.find((candidate) => candidate.group === grant.group);
  return entry ? { ...admin, role: entry.role, teams: entry.teams } : null;
}

export function registerConsoleOidc(app: FastifyInstance, oidc: ConsoleOidc, context: Context): void {
  const pending = new Map<string, PendingSignIn>();
  const page = (reply: FastifyReply, status: number, title: string, text: string) => reply.code(status).headers({ ...context.headers, 'content-type': 'text/html; charset=utf-8' })
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><link rel="stylesheet" href="/ui/app.css"></head><body><main><h1>${escape(title)}</h1><p role="alert">${escape(text)}</p><p><a href="/ui">Back to the console</a></p></main></body></html>`);
  const configOf = (request: FastifyRequest) => {
    const config = oidc.config(context.baseUrl(request));
    return config ? { ...config, redirectUri: `${context.baseUrl(request)}${CALLBACK}` } : null;
  };

  app.get('/ui/sign-in-options', context.route('GET', '/ui/sign-in-options', 'console.sign_in_options'), async (request, reply) => {
    const settings = context.settings();
    const offered = configOf(request) !== null && (settings.admin_emails.length > 0 || settings.admin_group !== null);
    return reply.header('cache-control', 'no-store').send({ oidc_issuer: offered ? settings.oidc_issuer : null });
  });

  app.get('/ui/oidc/start', context.route('GET', '/ui/oidc/start', 'console.oidc_start'), async (request, reply) => {
    const config = configOf(request);
    if (!config) return page(reply, 400, 'Not available', 'This hub has no identity provider configured (settings oidc_issuer and oidc_client_id).');
    const now = Date.now();
    for (const [state, entry] of pending) if (entry.expiresAt <= now) pending.delete(state);
    if (pending.size >= MAX_PENDING) return page(reply, 429, 'Too many sign-ins', 'Too many sign-ins are under way: try again in a few minutes.');
    try {
      const started = await beginSignIn(config, 'console', oidc.fetch, now);
      pending.set(started.state, started.pending);
      const cookie = signInCookie(BROWSER_COOKIE, COOKIE_PATH, started.pending.browser, request.protocol === 'https');
      return reply.code(302).headers({ location: started.url, 'cache-control': 'no-store', 'set-cookie': cookie }).send();
    } catch (error) {
      return page(reply, 502, 'Identity provider unavailable', `The identity provider could not be reached: ${error instanceof Error ? error.message : String(error)}.`);
    }
  });

  app.get(CALLBACK, context.route('GET', CALLBACK, 'console.oidc_callback'), async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const state = query.get('state') ?? '';
    const started = pending.get(state);
    if (started && !sameBrowser(started, cookieOf(request, BROWSER_COOKIE))) {
      // Left pending: the browser that started it may still finish.
      context.audit({ kind: 'admin.refused', origin: request.ip, route: CALLBACK, data: { reason: 'console sign-in callback opened in a browser other than the one that started it', method: 'GET' } });
      return page(reply, 400, 'Sign-in failed', 'This sign-in was started in another browser: finish it there, or sign in again from this one.');
    }
    pending.delete(state);
    reply.header('set-cookie', signInCookie(BROWSER_COOKIE, COOKIE_PATH, '', request.protocol === 'https'));
    const config = configOf(request);
    if (!started || started.expiresAt <= Date.now() || !config) return page(reply, 400, 'Sign-in failed', 'This sign-in expired or was not started here: sign in again from the console.');
    if (query.get('error')) return page(reply, 400, 'Sign-in failed', `The identity provider refused the sign-in (${query.get('error')}).`);
    let email: string;
    let groups: string[];
    try {
      ({ email, groups } = await finishSignIn(config, query.get('code') ?? '', started, oidc.fetch, Date.now()));
    } catch (error) {
      return page(reply, 400, 'Sign-in failed', `${error instanceof Error ? error.message : String(error)}.`);
    }
    const grant = grantFor(context.settings(), email, groups);
    if (!grant) {
      context.audit({ kind: 'admin.refused', origin: request.ip, route: CALLBACK, person: email, data: { reason: 'console sign-in through OIDC by someone neither in admin_emails nor in admin_group or role_groups', method: 'GET', issuer: config.issuer } });
      return page(reply, 403, 'Not an admin', `Signed in as ${email}, who is not an admin of this hub (the hub's settings admin_emails, admin_group and role_groups decide).`);
    }
    context.audit({ kind: 'admin.sign_in', origin: request.ip, route: CALLBACK, person: email, data: { admin_id: `oidc:${email}`, admin_name: email, via: 'oidc', issuer: config.issuer, granted_by: grant.group === null ? 'admin_emails' : grant.group === context.settings().admin_group ? `admin_group:${grant.group}` : `role_groups:${grant.group}`, role: adminOfGrant(context.settings(), grant)?.role ?? 'admin' } });
    const secure = request.protocol === 'https' ? '; Secure' : '';
    const session = `${SESSION_COOKIE}=${issueSession(context.hubSecret, oidcSessionId(grant), Date.now())}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}${secure}`;
    return reply.code(303).headers({ location: '/ui', 'cache-control': 'no-store',
      'set-cookie': [signInCookie(BROWSER_COOKIE, COOKIE_PATH, '', request.protocol === 'https'), session] }).send();
  });
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
