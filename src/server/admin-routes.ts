// The admin API (src/admin/admin-api.ts) and the console (/ui) on fastify. Neither takes an
// inference credential: the admin credential is an admin token (Bearer gwa-…) or a console
// session cookie, checked here before any handler; a call without one is refused (401) and
// recorded (`admin.refused`, at most once per address a minute), every change is recorded
// (`admin.change`) naming the admin. The console is static files under console/ with a
// strict CSP: no inline script or style, nothing from another origin.
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_ROUTES, AdminInputError, type AdminContext, type AdminRoute } from '../admin/admin-api.js';
import { SESSION_COOKIE, SESSION_SECONDS, csrfFor, csrfMatches, issueSession, readOidcSessionId, readSession } from '../admin/admin-session.js';
import { adminOfGrant, registerConsoleOidc, type ConsoleOidc } from './console-oidc.js';
import { principalOf, refuseAccess } from '../admin/admin-role.js';
import type { AuditFields } from '../audit/record.js';
import { findAdminToken } from '../state/admin-tokens.js';
import type { AdminTokenRecord } from '../state/schema.js';
import { StateError } from '../state/state-errors.js';
import { GatewayError } from '../errors.js';
import type { RouteEntry } from '../pipeline/route-table.js';

export interface AdminServerContext extends AdminContext {
  audit: (fields: AuditFields) => void;
  /**
   * A laptop sidecar: the console shows the logged-in person their own trail, read-only, with no
   * admin token: the sidecar's local guard (loopback Host and Origin) already fronts every route.
   */
  personal?: { person(): string | null };
  /** A hub with an OIDC provider: admins in admin_emails or admin_group sign in through it. */
  oidc?: ConsoleOidc;
}

/** What a sidecar's read-only console may call: its own trail, nothing that changes state. */
const PERSONAL_OPERATIONS = new Set(['admin.whoami', 'requests.search', 'requests.get', 'sessions.list', 'sessions.show', 'usage.report', 'audit.state', 'audit.verify']);

/** console/ at the repository's top, from src/server or dist/server alike. */
const CONSOLE_DIR = path.resolve(import.meta.dirname, '../../console');
const CONSOLE_TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const VENDOR_FILES: Record<string, [file: string, type: string]> = {
  '/ui/vendor/preact-htm.js': ['../node_modules/htm/preact/standalone.module.js', CONSOLE_TYPES['.js']!],
  '/ui/vendor/uplot.js': ['../node_modules/uplot/dist/uPlot.esm.js', CONSOLE_TYPES['.js']!],
  '/ui/vendor/uplot.css': ['../node_modules/uplot/dist/uPlot.min.css', CONSOLE_TYPES['.css']!],
};

/**
 * Every file the console is made of, as a route each: index.html at /ui, the rest at their path
 * under /ui (a page module is /ui/pages/keys.js). Listed once at start, so a request can only
 * name a file that was there: no path from the URL ever reaches the file system.
 */
function consoleFiles(): Record<string, [file: string, type: string]> {
  const files: Record<string, [file: string, type: string]> = { ...VENDOR_FILES };
  for (const entry of readdirSync(CONSOLE_DIR, { recursive: true, encoding: 'utf8' })) {
    const type = CONSOLE_TYPES[path.extname(entry)];
    if (type === undefined) continue;
    const url = entry === 'index.html' ? '/ui' : `/ui/${entry.split(path.sep).join('/')}`;
    files[url] = [entry, type];
  }
  return files;
}
const CONSOLE_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'cache-control': 'no-store',
};
const REFUSAL_WINDOW_MS = 60_000;

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A browser says where a request comes from (Sec-Fetch-Site, Origin): anything but this origin is
 * refused. (no-referrer would make Chromium send `Origin: null` on the console's own forms: the
 * console's pages use same-origin.) A client that sends neither is not a browser riding a cookie.
 */
function crossSite(request: FastifyRequest): boolean {
  const site = headerOf(request, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = headerOf(request, 'origin');
  return origin !== undefined && origin !== `${request.protocol}://${request.host}`;
}

function route(method: RouteEntry['method'], url: string, operation: string, jsonBody: boolean): { config: { route: RouteEntry } } {
  return { config: { route: { method, url, dialect: 'operational', operation, authenticated: false, jsonBody } } };
}

type Who = { admin: AdminTokenRecord; session: string | null } | { refused: string };

export function registerAdminRoutes(app: FastifyInstance, context: AdminServerContext): void {
  const lastRefusal = new Map<string, { at: number; suppressed: number }>();
  const refuse = (request: FastifyRequest, reply: FastifyReply, reason: string): FastifyReply => {
    recordRefusal(request, reason);
    return reply.code(401).header('www-authenticate', 'Bearer realm="gw admin"').send({ error: { message: `admin credential required: ${reason}`, code: 'admin_unauthorized' } });
  };
  /** A refusal is recorded (`admin.refused`) at most once per address (and admin) a minute; the rest are counted. */
  const recordRefusal = (request: FastifyRequest, reason: string, admin?: AdminTokenRecord): void => {
    const now = Date.now();
    // A known admin's refusals are counted apart from anonymous ones, so a stranger's cannot hide theirs.
    const refuser = admin ? `${request.ip} ${admin.id}` : request.ip;
    const seen = lastRefusal.get(refuser);
    if (seen && now - seen.at < REFUSAL_WINDOW_MS) {
      seen.suppressed += 1;
    } else {
      if (lastRefusal.size > 10_000) lastRefusal.clear();
      lastRefusal.set(refuser, { at: now, suppressed: 0 });
      const who: Record<string, string> = admin ? { admin_id: admin.id, admin_name: admin.name, role: principalOf(admin).role } : {};
      context.audit({ kind: 'admin.refused', origin: request.ip, route: request.routeOptions.url ?? request.url.split('?')[0]!, data: { reason, method: request.method, ...who, earlier_refusals_not_recorded: seen?.suppressed ?? 0 } });
    }
  };

  const refuseRole = (request: FastifyRequest, reply: FastifyReply, admin: AdminTokenRecord, reason: string): FastifyReply => {
    recordRefusal(request, `role: ${reason}`, admin);
    const { status, code } = new GatewayError('GW_ERR_ADMIN_ROLE_REFUSED');
    return reply.code(status).header('cache-control', 'no-store').send({ error: { message: `Your role (${principalOf(admin).role}) does not allow this: ${reason}.`, code } });
  };

  const identify = (request: FastifyRequest): Who => {
    if (context.personal) {
      const person = context.personal.person() ?? 'this laptop';
      return { admin: { id: 'sidecar', name: person, hash: '', hint: '', created_at: '', created_by: 'sidecar', revoked_at: null }, session: null };
    }
    const state = context.store.snapshot();
    const bearer = /^Bearer\s+(\S+)$/i.exec(headerOf(request, 'authorization') ?? '')?.[1];
    if (bearer !== undefined) {
      const admin = findAdminToken(state, bearer);
      return admin ? { admin, session: null } : { refused: bearer.startsWith('gwa-') ? 'unknown or revoked admin token' : 'not an admin token (inference keys and personal tokens are not admin credentials)' };
    }
    const session = cookieOf(request, SESSION_COOKIE);
    if (session === undefined) return { refused: 'no admin token (Authorization: Bearer gwa-…) and no console session' };
    const tokenId = readSession(context.hubSecret, session, Date.now());
    const grant = tokenId === null ? null : readOidcSessionId(tokenId);
    // An OIDC session stands for an email (audited as `oidc:<email>`), its role read from the settings now.
    const admin = grant ? adminOfGrant(state.settings, grant) ?? undefined
      : tokenId === null ? undefined : (state.admin_tokens ?? []).find((record) => record.id === tokenId && record.revoked_at === null);
    if (!admin) return { refused: 'console session expired or its admin token revoked: sign in again' };
    if (request.method !== 'GET') {
      // A cookie rides along on a cross-site form; the header and a same-site Origin cannot.
      if (crossSite(request)) return { refused: 'cross-site request' };
      if (!csrfMatches(context.hubSecret, session, headerOf(request, 'x-gw-csrf'))) return { refused: 'missing or wrong x-gw-csrf header' };
    }
    return { admin, session };
  };

  const serveApi = async (entry: AdminRoute, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const who = identify(request);
    if ('refused' in who) return refuse(request, reply, who.refused);
    const body = typeof request.body === 'object' && request.body !== null && !Buffer.isBuffer(request.body) ? request.body as Record<string, unknown> : {};
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const adminRequest = { admin: who.admin, params: request.params as Record<string, string>, query, body };
    // The role, on the hub, before the handler: a page that hides a button is a courtesy, this is the rule.
    const refusal = refuseAccess(principalOf(who.admin), entry.access, () => entry.teamOf?.(context.store.snapshot(), adminRequest) ?? null);
    if (refusal !== null) return refuseRole(request, reply, who.admin, refusal);
    try {
      const answer = await entry.handler(context, adminRequest);
      if (answer.change) {
        context.audit({
          kind: 'admin.change', origin: request.ip, route: entry.path, operation: entry.operation,
          data: { admin_id: who.admin.id, admin_name: who.admin.name, via: who.session ? 'console' : 'api', action: answer.change.action, target: answer.change.target, ...answer.change.detail },
        });
      }
      const extra = entry.operation !== 'admin.whoami' ? {} : context.personal ? { personal: true } : who.session ? { csrf: csrfFor(context.hubSecret, who.session) } : {};
      return reply.code(answer.status).header('cache-control', 'no-store').send(entry.operation === 'admin.whoami' ? { ...(answer.body as object), ...extra } : answer.body);
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'GW_ERR_ADMIN_ROLE_REFUSED') return refuseRole(request, reply, who.admin, error.message);
      // A refusal with a catalog code (src/errors.ts) keeps its status and code.
      if (error instanceof GatewayError) return reply.code(error.status).send({ error: { message: error.message, code: error.code } });
      const status = error instanceof AdminInputError ? 400 : error instanceof StateError ? (error.kind === 'usage' ? 400 : error.kind === 'refused' ? 409 : 500) : 500;
      const message = error instanceof AdminInputError || error instanceof StateError ? error.message : 'internal error';
      return reply.code(status).send({ error: { message, code: status === 409 ? 'conflict' : status === 400 ? 'invalid_request' : 'internal' } });
    }
  };

  for (const entry of ADMIN_ROUTES.filter((candidate) => !context.personal || PERSONAL_OPERATIONS.has(candidate.operation))) {
    app.route({ method: entry.method, url: entry.path, ...route(entry.method, entry.path, entry.operation, entry.method === 'POST'), handler: (request, reply) => serveApi(entry, request, reply) });
  }

  for (const [url, [file, type]] of Object.entries(consoleFiles())) {
    app.get(url, route('GET', url, 'console.file', false), async (_request, reply) => reply.headers({ ...CONSOLE_HEADERS, 'content-type': type }).send(await readFile(path.join(CONSOLE_DIR, file))));
  }
  // A browser opening the gateway's address lands on the console, not on a JSON 404.
  app.get('/', route('GET', '/', 'console.root', false), async (_request, reply) => reply.code(302).headers({ location: '/ui', 'cache-control': 'no-store' }).send());
  if (context.personal) return;
  app.post('/ui/login', route('POST', '/ui/login', 'console.login', false), async (request, reply) => {
    const form = new URLSearchParams(Buffer.isBuffer(request.gw?.rawBody) ? request.gw.rawBody.toString('utf8') : await readBody(request));
    if (crossSite(request)) return refuse(request, reply, 'cross-site sign-in');
    const admin = findAdminToken(context.store.snapshot(), form.get('token')?.trim() ?? '');
    if (!admin) {
      refuse(request, reply.code(401), 'console sign-in with an unknown or revoked admin token');
      return reply;
    }
    context.audit({ kind: 'admin.sign_in', origin: request.ip, route: '/ui/login', data: { admin_id: admin.id, admin_name: admin.name, via: 'admin_token' } });
    const secure = request.protocol === 'https' ? '; Secure' : '';
    return reply.code(303).headers({ location: '/ui', 'cache-control': 'no-store',
      'set-cookie': `${SESSION_COOKIE}=${issueSession(context.hubSecret, admin.id, Date.now())}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}${secure}` }).send();
  });
  if (context.oidc) {
    registerConsoleOidc(app, context.oidc, {
      settings: () => context.store.snapshot().settings, hubSecret: context.hubSecret, audit: context.audit, headers: CONSOLE_HEADERS,
      baseUrl: (request) => context.store.snapshot().settings.public_url ?? `${request.protocol}://${request.host}`,
      route: (method, url, operation) => route(method, url, operation, false),
    });
  }
  app.post('/ui/logout', route('POST', '/ui/logout', 'console.logout', false), async (_request, reply) =>
    reply.code(303).headers({ location: '/ui', 'set-cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` }).send());
}

async function readBody(request: FastifyRequest): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16 * 1024) break;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
