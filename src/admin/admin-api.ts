// The admin API (/admin/api/…): everything the CLI manages on a hub, over HTTP, for the
// console (/ui) and for `gw … --hub URL`. One table of routes, each a small handler over
// the same state functions the CLI calls; the server (src/server/admin-routes.ts) checks
// the admin credential before any handler runs and writes one `admin.change` record per
// change, naming the admin (token id and name) and the target, never a secret.
import { listKeys, createKey, keyStatus, revokeKey } from '../state/virtual-keys.js';
import { addPerson, listPeople, normalizeEmail, removePerson } from '../state/people.js';
import { createTeam, listTeams } from '../state/teams.js';
import { revokePersonalToken, tokenStatus } from '../state/personal-tokens.js';
import { approveDeviceCode, denyDeviceCode, formatUserCode, isLive } from '../state/device-codes.js';
import { SETTING_DEFINITIONS, assertSettingName, formatSetting } from '../state/settings.js';
import { RemoteSettingRefused, setSettingRemotely } from './remote-settings.js';
import { addAdminToken, adminTokensOf, revokeAdminToken } from '../state/admin-tokens.js';
import { parseDuration } from '../state/parse-duration.js';
import { ensureLiveKey } from '../state/live-keys.js';
import { SESSION_KEY_NAME } from '../state/session-key-name.js';
import { withKeyUsage } from './key-usage.js';
import type { StateStore } from '../state/state-store.js';
import type { StateData } from '../state/schema.js';
import { principalOf, refuseCommand, teamOfKey, teamOfPerson, teamOfPersonalToken, type RouteAccess } from './admin-role.js';
import { GatewayError } from '../errors.js';
import type { AdminTokenRecord } from '../state/schema.js';
import type { TrailReader } from './trail-reader.js';
import { CACHE_GROUPINGS, isCacheGrouping, withCacheColumns } from './summarize-cache-usage.js';
import type { AuditPage } from './audit-page.js';
import { SessionQueryError, listSessions, showSession } from './session-routes.js';
import { AuditRotationError, type RotationSummary } from '../audit/file-trail-handle.js';
import { StateError } from '../state/state-errors.js';
import type { SpendCounter } from '../spend/spend-counter.js';
import { budgetStatus } from './budget-status.js';
import { fieldWording } from './field-wording.js';
import { UsageWindowError, usageWindow, type UsageWindow } from './usage-window.js';

export interface AdminContext {
  store: StateStore;
  hubSecret: Buffer;
  trail: TrailReader;
  /** The console's Audit page: the trail's state, a verification on demand, the trails witnessed. */
  auditPage: AuditPage;
  /** Absent where gw serve did not hand them in (a sidecar, a test harness): the route answers 404. */
  commands?: AdminCommands;
  /** gw audit rotate on this running gw: closes its chain, opens the next under a new key (docs/audit-rotate.md). */
  rotateAudit?: (options: { acceptGap: boolean }) => Promise<RotationSummary>;
  /** The counter the gateway admits calls against budgets with (absent on a sidecar: the route answers 404). */
  spendCounter?: SpendCounter;
}

async function rotateAudit(context: AdminContext, request: AdminRequest): Promise<AdminAnswer> {
  if (!context.rotateAudit) return { status: 404, body: { error: { message: 'this gw cannot rotate its audit trail' } } };
  let summary: RotationSummary;
  try {
    // Held against the witnesses first: a chain behind one is refused (409) unless the gap is accepted (recorded as audit.gap).
    summary = await context.rotateAudit({ acceptGap: request.body.accept_audit_gap === true });
  } catch (error) {
    if (error instanceof AuditRotationError) throw new StateError('refused', error.message);
    throw error;
  }
  // Recorded (admin.change) once the handler returns: the first act of the new chain names who rotated.
  const detail = { closed_trail: summary.closed_trail, closed_seq: summary.closed_seq, previous_key: summary.previous_key_fingerprint };
  return { status: 200, body: summary, change: { action: 'audit.rotate', target: summary.next_key_fingerprint, detail } };
}

/**
 * Governance commands run on the hub for an admin (`gw policy set … --hub URL`): the CLI's own
 * code, handed in by `gw serve` (src/cli/remote-commands.ts), so remote does what local does.
 */
export interface AdminCommands {
  /** Checks the arguments (a known command, nothing naming the hub's files); throws AdminInputError. */
  read(argv: unknown): { argv: string[]; action: string; changes: boolean };
  /** The command for the audit record, secrets hidden. */
  describe(argv: readonly string[]): string;
  run(command: { argv: string[]; action: string; changes: boolean }): Promise<{ exit_code: number; stdout: string; stderr: string }>;
}

export interface AdminRequest {
  admin: AdminTokenRecord;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export interface AdminAnswer {
  status: number;
  body: unknown;
  /** A change: what the audit record says (action, target); absent for reads. */
  change?: { action: string; target: string; detail?: Record<string, string | number | boolean | null> };
}

type Handler = (context: AdminContext, request: AdminRequest) => Promise<AdminAnswer> | AdminAnswer;

export interface AdminRoute {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  operation: string;
  /** Which roles may call it (admin-role.ts); checked by the server before the handler runs. */
  access: RouteAccess;
  /** For a 'team' route: the team its target belongs to (null when there is none, or it is unknown). */
  teamOf?: (state: StateData, request: AdminRequest) => string | null;
  handler: Handler;
}

const text = (body: Record<string, unknown>, name: string): string => {
  const value = body[name];
  if (typeof value !== 'string' || value.trim() === '') throw new AdminInputError(`"${name}" is required (a string)`);
  return value.trim();
};

export class AdminInputError extends Error {}

/** A body field as given, or null: what a team check reads before the handler validates it. */
const bodyText = (body: Record<string, unknown>, name: string): string | null => (typeof body[name] === 'string' ? body[name].trim() : null);

const ok = (body: unknown): AdminAnswer => ({ status: 200, body });

/** Settings that name where a secret is held: listed as set or not set, never with their value, in the console. */
const SECRET_SETTINGS = new Set(['oidc_client_secret', 'audit_sink_token']);

/** A usage window's bound (a date or an ISO time) as an ISO time, so the trail's times compare with it. */
function usageTime(name: string, text: string | null): string | undefined {
  if (text === null || text === '') return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw new AdminInputError(`${name} must be a time (ISO 8601, e.g. 2026-11-24 or 2026-11-24T09:00:00Z); got ${text}`);
  return new Date(at).toISOString();
}

/** A usage report's window and zone (usage-window.ts); a bad bound is a 400 like any other input. */
function windowOf(query: URLSearchParams, now: Date): UsageWindow {
  try { return usageWindow(query, now); } catch (error) { throw error instanceof UsageWindowError ? new AdminInputError(error.message) : error; }
}

/** The start of a window given as a duration (15m, 1h, 30d), from now. */
function windowStart(window: string, now: Date): string {
  let span: number;
  try { span = parseDuration(window); } catch { throw new AdminInputError(`window is a duration such as 15m, 1h or 7d; got ${window}`); }
  return new Date(now.getTime() - span).toISOString();
}
const asInputError = (error: unknown): never => {
  throw error instanceof SessionQueryError ? new AdminInputError(error.message) : error;
};

export const ADMIN_ROUTES: AdminRoute[] = [
  { method: 'GET', path: '/admin/api/whoami', operation: 'admin.whoami', access: 'read', handler: (_context, request) => ok({ id: request.admin.id, name: request.admin.name, ...principalOf(request.admin) }) },
  { method: 'GET', path: '/admin/api/teams', operation: 'teams.list', access: 'read', handler: (context) => ok(listTeams(context.store.snapshot())) },
  {
    method: 'POST', path: '/admin/api/teams', operation: 'teams.create', access: 'admin',
    async handler(context, request) {
      const team = await createTeam(context.store, text(request.body, 'name'));
      await ensureLiveKey(context.store, team.name, context.hubSecret);
      return { status: 201, body: team, change: { action: 'teams.create', target: team.name } };
    },
  },
  { method: 'GET', path: '/admin/api/people', operation: 'people.list', access: 'read', handler: (context) => ok(listPeople(context.store.snapshot())) },
  {
    method: 'POST', path: '/admin/api/people', operation: 'people.add', access: 'team', teamOf: (_state, request) => bodyText(request.body, 'team'),
    async handler(context, request) {
      const person = await addPerson(context.store, text(request.body, 'email'), text(request.body, 'team'));
      return { status: 201, body: person, change: { action: 'people.add', target: person.email, detail: { team: person.team } } };
    },
  },
  {
    method: 'DELETE', path: '/admin/api/people/:email', operation: 'people.remove', access: 'team', teamOf: (state, request) => teamOfPerson(state, request.params.email ?? ''),
    async handler(context, request) {
      const { person, revokedTokens } = await removePerson(context.store, normalizeEmail(request.params.email ?? ''));
      return { status: 200, body: { person, revoked_tokens: revokedTokens }, change: { action: 'people.remove', target: person.email, detail: { revoked_tokens: revokedTokens } } };
    },
  },
  {
    method: 'GET', path: '/admin/api/keys', operation: 'keys.list', access: 'read',
    async handler(context, request) {
      const now = context.store.now();
      const team = request.query.get('team') ?? undefined;
      const keys = listKeys(context.store.snapshot(), team ? { team } : {}).map(({ hash: _hash, ...record }) => ({ ...record, status: keyStatus(record as never, now), session: record.name === SESSION_KEY_NAME }));
      // Last use and spend over a window (default 30 days, as usage): the trail bounds the cost of the read.
      return ok(withKeyUsage(keys, await context.trail.keyUsage(windowStart(request.query.get('window') ?? '30d', now))));
    },
  },
  {
    method: 'POST', path: '/admin/api/keys', operation: 'keys.create', access: 'team', teamOf: (_state, request) => bodyText(request.body, 'team'),
    async handler(context, request) {
      const expires = typeof request.body.expires === 'string' && request.body.expires !== '' ? parseDuration(request.body.expires) : undefined;
      const name = typeof request.body.name === 'string' && request.body.name.trim() !== '' ? request.body.name.trim() : null;
      const { record, key } = await createKey(context.store, { team: text(request.body, 'team'), name, ...(expires !== undefined ? { expiresInMs: expires } : {}) });
      const { hash: _hash, ...shown } = record;
      // The plaintext goes to this admin once, in this answer; the record keeps only its hash.
      return { status: 201, body: { ...shown, key }, change: { action: 'keys.create', target: record.id, detail: { team: record.team, name: record.name } } };
    },
  },
  {
    method: 'DELETE', path: '/admin/api/keys/:id', operation: 'keys.revoke', access: 'team', teamOf: (state, request) => teamOfKey(state, request.params.id ?? ''),
    async handler(context, request) {
      const { record, changed } = await revokeKey(context.store, request.params.id ?? '');
      const { hash: _hash, ...shown } = record;
      return { status: 200, body: { ...shown, changed }, change: { action: 'keys.revoke', target: record.id, detail: { team: record.team, changed } } };
    },
  },
  {
    method: 'GET', path: '/admin/api/tokens', operation: 'tokens.list', access: 'read',
    handler(context) {
      const now = context.store.now();
      return ok(context.store.snapshot().tokens.map(({ hash: _hash, ...record }) => ({ ...record, status: tokenStatus(record as never, now) })));
    },
  },
  {
    method: 'DELETE', path: '/admin/api/tokens/:id', operation: 'tokens.revoke', access: 'team', teamOf: (state, request) => teamOfPersonalToken(state, request.params.id ?? ''),
    async handler(context, request) {
      const { record, changed } = await revokePersonalToken(context.store, request.params.id ?? '');
      return { status: 200, body: { id: record.id, person: record.person, revoked_at: record.revoked_at, changed }, change: { action: 'tokens.revoke', target: record.id, detail: { person: record.person, changed } } };
    },
  },
  {
    method: 'GET', path: '/admin/api/devices', operation: 'devices.list', access: 'read',
    handler(context) {
      const now = context.store.now();
      // What the hub observed (address, time) apart from what the device claims (program, computer name).
      return ok(context.store.snapshot().device_codes.filter((code) => code.status === 'pending' && isLive(code, now)).map((code) => ({
        user_code: formatUserCode(code.user_code), status: code.status, observed: { address: code.requester.ip, at: code.created_at },
        claimed: { program: code.requester.user_agent, computer: code.requester.client_host, email: code.claimed_email ?? null }, expires_at: code.expires_at,
      })));
    },
  },
  {
    method: 'POST', path: '/admin/api/devices/:code/approve', operation: 'devices.approve', access: 'team', teamOf: (state, request) => teamOfPerson(state, bodyText(request.body, 'person') ?? ''),
    async handler(context, request) {
      const record = await approveDeviceCode(context.store, request.params.code ?? '', normalizeEmail(text(request.body, 'person')), `admin:${request.admin.id}`);
      return { status: 200, body: { user_code: formatUserCode(record.user_code), person: record.person }, change: { action: 'devices.approve', target: formatUserCode(record.user_code), detail: { person: record.person } } };
    },
  },
  {
    method: 'POST', path: '/admin/api/devices/:code/deny', operation: 'devices.deny', access: 'admin',
    async handler(context, request) {
      const record = await denyDeviceCode(context.store, request.params.code ?? '', `admin:${request.admin.name}`);
      return { status: 200, body: { user_code: formatUserCode(record.user_code), status: record.status }, change: { action: 'devices.deny', target: formatUserCode(record.user_code) } };
    },
  },
  {
    method: 'GET', path: '/admin/api/settings', operation: 'settings.list', access: 'read',
    handler(context) {
      const settings = context.store.snapshot().settings;
      // `secret`: the console shows only whether it is set (the value names the hub's environment).
      return ok(Object.keys(SETTING_DEFINITIONS).map((name) => ({
        name, value: formatSetting(assertSettingName(name), settings[assertSettingName(name)] as never),
        description: SETTING_DEFINITIONS[assertSettingName(name)].description, secret: SECRET_SETTINGS.has(name),
      })));
    },
  },
  {
    method: 'POST', path: '/admin/api/settings/:name', operation: 'settings.set', access: 'admin',
    async handler(context, request) {
      const { name, value, notes } = await setSettingRemotely(context.store, request.params.name ?? '', text(request.body, 'value')).catch((error: unknown) => {
        throw error instanceof RemoteSettingRefused ? new AdminInputError(error.message) : error;
      });
      const shown = formatSetting(name, value as never);
      return { status: 200, body: { name, value: shown, ...(notes.length > 0 ? { notes } : {}) }, change: { action: 'settings.set', target: name, detail: { value: shown, ...(notes.length > 0 ? { also: notes.join('; ') } : {}) } } };
    },
  },
  {
    method: 'GET', path: '/admin/api/admin-tokens', operation: 'admin_tokens.list', access: 'admin',
    handler: (context) => ok(adminTokensOf(context.store.snapshot()).map(({ hash: _hash, ...record }) => record)),
  },
  {
    method: 'POST', path: '/admin/api/admin-tokens', operation: 'admin_tokens.create', access: 'admin',
    async handler(context, request) {
      const { record, token } = await context.store.update((draft) => addAdminToken(draft, {
        name: text(request.body, 'name'), createdBy: request.admin.id, now: context.store.now(),
        role: bodyText(request.body, 'role') ?? 'admin', teams: Array.isArray(request.body.teams) ? request.body.teams.filter((team) => typeof team === 'string') : [],
      }));
      const { hash: _hash, ...shown } = record;
      return { status: 201, body: { ...shown, token }, change: { action: 'admin_tokens.create', target: record.id, detail: { name: record.name, role: record.role ?? 'admin', teams: (record.teams ?? []).join(',') } } };
    },
  },
  {
    method: 'DELETE', path: '/admin/api/admin-tokens/:id', operation: 'admin_tokens.revoke', access: 'admin',
    async handler(context, request) {
      const record = await context.store.update((draft) => revokeAdminToken(draft, request.params.id ?? '', context.store.now()));
      return { status: 200, body: { id: record.id, revoked_at: record.revoked_at }, change: { action: 'admin_tokens.revoke', target: record.id } };
    },
  },
  {
    method: 'GET', path: '/admin/api/requests', operation: 'requests.search', access: 'read',
    async handler(context, request) {
      const limit = Math.min(500, Math.max(1, Number(request.query.get('limit') ?? 100) || 100));
      const filter = Object.fromEntries(['person', 'team', 'key_id', 'model', 'provider', 'status', 'request_id', 'since', 'until', 'plane', 'result'].flatMap((name) => {
        const value = request.query.get(name);
        // A time with an offset (2026-11-24T09:00+02:00) is the same instant on both trails: the file trail compares ISO text.
        return value ? [[name, name === 'since' || name === 'until' ? usageTime(name, value)! : value]] : [];
      }));
      return ok(await context.trail.search(filter, limit));
    },
  },
  {
    method: 'GET', path: '/admin/api/requests/:id', operation: 'requests.get', access: 'read',
    async handler(context, request) {
      const [found] = await context.trail.search({ request_id: request.params.id ?? '' }, 1);
      return found ? ok(found) : { status: 404, body: { error: { message: `no request ${request.params.id} in the trail` } } };
    },
  },
  // Coding-agent sessions (docs/sessions.md): the recent ones, and one session's calls in order.
  {
    method: 'GET', path: '/admin/api/sessions', operation: 'sessions.list', access: 'read',
    handler: async (context, request) => ok(await listSessions(context.trail, request.query, context.store.now()).catch(asInputError)),
  },
  {
    method: 'GET', path: '/admin/api/sessions/:id', operation: 'sessions.show', access: 'read',
    async handler(context, request) {
      const found = await showSession(context.trail, request.params.id ?? '').catch(asInputError);
      return found ? ok(found) : { status: 404, body: { error: { message: `no calls of session ${request.params.id} in the trail` } } };
    },
  },
  {
    method: 'GET', path: '/admin/api/usage', operation: 'usage.report', access: 'read',
    async handler(context, request) {
      const by = request.query.get('by') ?? 'team';
      if (!['team', 'person', 'model', 'provider', 'day', 'key_id'].includes(by)) throw new AdminInputError('by is one of team, person, model, provider, day, key_id');
      const { since, until, tz } = windowOf(request.query, context.store.now());
      return ok(withCacheColumns(await context.trail.usage(by as 'team', since, until, tz), await context.trail.cacheUsage(by as 'team', since, until, tz)));
    },
  },
  {
    method: 'GET', path: '/admin/api/budgets/status', operation: 'budgets.status', access: 'read',
    async handler(context) {
      if (!context.spendCounter) return { status: 404, body: { error: { message: 'this gw keeps no budget counters' } } };
      return ok({ budgets: await budgetStatus(context.store.snapshot().budgets ?? [], context.spendCounter, context.store.now()) });
    },
  },
  {
    // The console's prompt-cache page (docs/prompt-cache.md): by team or session (any cache grouping).
    method: 'GET', path: '/admin/api/usage/cache', operation: 'usage.cache', access: 'read',
    async handler(context, request) {
      const by = request.query.get('by') ?? 'team';
      if (!isCacheGrouping(by)) throw new AdminInputError(`by is one of ${CACHE_GROUPINGS.join(', ')}`);
      const { since, until, tz } = windowOf(request.query, context.store.now());
      return ok({ by, since, until: until ?? null, tz, rows: await context.trail.cacheUsage(by, since, until, tz) });
    },
  },
  {
    method: 'POST', path: '/admin/api/commands', operation: 'commands.run', access: 'read',
    async handler(context, request) {
      if (!context.commands) return { status: 404, body: { error: { message: 'this gw runs no remote commands' } } };
      const command = context.commands.read(request.body.argv);
      const refusal = refuseCommand(principalOf(request.admin), context.store.snapshot(), command);
      if (refusal !== null) throw new GatewayError('GW_ERR_ADMIN_ROLE_REFUSED', { message: `${command.argv.slice(0, 2).join(' ')}: ${refusal}` });
      const run = await context.commands.run(command);
      // A change that went through is recorded like any other admin change; a read or a refusal is not.
      const target = command.argv.slice(2).find((argument) => !argument.startsWith('-')) ?? '';
      // A form's words beside the CLI's (which `gw … --hub` prints): the field, not the flag.
      const message = run.exit_code === 0 ? null : fieldWording(run.stderr);
      return { status: 200, body: message === null ? run : { ...run, message }, ...(command.changes && run.exit_code === 0 ? { change: { action: command.action, target, detail: { command: context.commands.describe(command.argv) } } } : {}) };
    },
  },
  {
    method: 'GET', path: '/admin/api/providers/health', operation: 'providers.health', access: 'read',
    async handler(context, request) {
      // From the trail: what callers actually got from each provider in the window (default the last hour).
      const window = request.query.get('window') ?? '1h';
      let span: number;
      try { span = parseDuration(window); } catch { throw new AdminInputError(`window is a duration such as 15m, 1h or 7d; got ${window}`); }
      const since = new Date(context.store.now().getTime() - span).toISOString();
      return ok({ window, since, providers: await context.trail.providerHealth(since) });
    },
  },
  { method: 'GET', path: '/admin/api/audit', operation: 'audit.state', access: 'read', handler: (context) => ok(context.auditPage.state()) },
  // A POST, not a GET: it reads the whole trail, so a cross-site page must not be able to start one.
  { method: 'POST', path: '/admin/api/audit/verify', operation: 'audit.verify', access: 'read', handler: async (context) => ok(await context.auditPage.verify()) },
  // A POST: it changes the trail's key; the server checks the admin credential and records the act.
  { method: 'POST', path: '/admin/api/audit/rotate', operation: 'audit.rotate', access: 'admin', handler: rotateAudit },
  { method: 'GET', path: '/admin/api/audit/witnessed', operation: 'audit.witnessed', access: 'read', handler: async (context) => ok(await context.auditPage.witnessed()) },
];
