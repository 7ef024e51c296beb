// Every route of the admin API table (src/admin/admin-api.ts), against a real hub: refused
// without a credential, with an inference key, with a forged console cookie; served to an
// admin token. Then the role column (issue 40): every route × every role, allowed or refused,
// from ROLE_ROWS. A route added to the table without its row in ROLE_ROWS fails the first test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES, type AdminRoute } from '../../../src/admin/admin-api.js';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar, readAudit, waitForState } from '../helpers.js';

const jar = new GatewayJar();
let hub: GatewayProcess;
let adminToken: string;
const tokens = { viewer: '', team_admin: '' };
/** Targets of team eng (the team_admin's) and of team ml (not theirs). */
const eng = { key: '', person: 'ann@example.com', removable: 'cy@example.com' };
const ml = { key: '', person: 'bo@example.com' };

/** What a setup command printed, both streams (a key's id goes to stderr). */
async function gw(...args: string[]): Promise<string> {
  const result = await runGw(args, { home: hub.home });
  expect(result.code, result.stderr).toBe(0);
  return `${result.stdout}${result.stderr}`;
}
const adminTokenIn = (text: string) => /gwa-\w+/.exec(text)?.[0] ?? '';

beforeAll(async () => {
  hub = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  adminToken = adminTokenIn(await gw('admin', 'tokens', 'create', '--name', 'table'));
  expect(adminToken).toMatch(/^gwa-/);
  for (const team of ['eng', 'ml']) await gw('teams', 'create', team);
  for (const [email, team] of [[eng.person, 'eng'], [eng.removable, 'eng'], [ml.person, 'ml']] as const) await gw('people', 'add', email, '--team', team);
  eng.key = /vk_\w+/.exec(await gw('keys', 'create', '--team', 'eng'))?.[0] ?? '';
  ml.key = /vk_\w+/.exec(await gw('keys', 'create', '--team', 'ml'))?.[0] ?? '';
  tokens.viewer = adminTokenIn(await gw('admin', 'tokens', 'create', '--name', 'viewer@example.com', '--role', 'viewer'));
  tokens.team_admin = adminTokenIn(await gw('admin', 'tokens', 'create', '--name', 'lead@example.com', '--role', 'team_admin', '--team', 'eng'));
  // The running hub reads the CLI's changes from state.json on its next poll.
  await waitForState(hub);
}, 30_000);

afterAll(async () => { await jar.stopAll(); });

interface Call { path?: string; body?: Record<string, unknown> }

function call(route: AdminRoute, headers: Record<string, string>, target: Call = {}): Promise<Response> {
  const url = target.path ?? route.path.replace(':email', 'nobody%40example.com').replace(':id', 'vk_000000000000').replace(':code', 'BCDF-GHJK').replace(':name', 'enforce_auth');
  return fetch(`${hub.url}${url}`, {
    method: route.method, headers: { ...headers, ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    ...(route.method === 'POST' ? { body: JSON.stringify(target.body ?? {}) } : {}),
  });
}

const rows = ADMIN_ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const);

it.each(rows)('%s: refused without a credential, with an inference key and with a forged session', async (_name, route) => {
  expect((await call(route, {})).status).toBe(401);
  expect((await call(route, { authorization: `Bearer ${hub.bootstrapKey}` })).status).toBe(401);
  expect((await call(route, { cookie: 'gw_admin=adm_000000000000.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).status).toBe(401);
});

it.each(rows)('%s: reaches its handler with an admin token (never a 401 or a 5xx)', async (_name, route) => {
  const status = (await call(route, { authorization: `Bearer ${adminToken}` })).status;
  expect(status).not.toBe(401);
  expect(status).toBeLessThan(500);
});

type Verdict = 'allowed' | 'refused';
/** team: a team_admin is allowed on a target of their team (own) and refused on another team's (other). */
interface RoleRow { viewer: Verdict; team_admin: Verdict | { own: Call; other: Call } }

const READ: RoleRow = { viewer: 'allowed', team_admin: 'allowed' };
const ADMIN_ONLY: RoleRow = { viewer: 'refused', team_admin: 'refused' };
const team = (own: () => Call, other: () => Call): RoleRow => ({ viewer: 'refused', team_admin: { get own() { return own(); }, get other() { return other(); } } });

/** Keyed by `METHOD path`: what a viewer and a team_admin (of eng) may call; an admin may call everything. */
const ROLE_ROWS: Record<string, RoleRow> = {
  'GET /admin/api/whoami': READ,
  'GET /admin/api/teams': READ,
  'POST /admin/api/teams': ADMIN_ONLY,
  'GET /admin/api/people': READ,
  'POST /admin/api/people': team(() => ({ body: { email: 'dee@example.com', team: 'eng' } }), () => ({ body: { email: 'dee@example.com', team: 'ml' } })),
  'DELETE /admin/api/people/:email': team(() => ({ path: `/admin/api/people/${encodeURIComponent(eng.removable)}` }), () => ({ path: `/admin/api/people/${encodeURIComponent(ml.person)}` })),
  'GET /admin/api/keys': READ,
  'POST /admin/api/keys': team(() => ({ body: { team: 'eng' } }), () => ({ body: { team: 'ml' } })),
  'DELETE /admin/api/keys/:id': team(() => ({ path: `/admin/api/keys/${eng.key}` }), () => ({ path: `/admin/api/keys/${ml.key}` })),
  'GET /admin/api/tokens': READ,
  // A personal token needs a device login; an unknown one has no team: refused (test/admin/admin-role.test.ts reads a token's team).
  'DELETE /admin/api/tokens/:id': team(() => ({ path: '/admin/api/tokens/tok_000000000000' }), () => ({ path: '/admin/api/tokens/tok_000000000000' })),
  'GET /admin/api/devices': READ,
  'POST /admin/api/devices/:code/approve': team(() => ({ body: { person: eng.person } }), () => ({ body: { person: ml.person } })),
  'POST /admin/api/devices/:code/deny': ADMIN_ONLY,
  'GET /admin/api/settings': READ,
  'POST /admin/api/settings/:name': ADMIN_ONLY,
  'GET /admin/api/admin-tokens': ADMIN_ONLY,
  'POST /admin/api/admin-tokens': ADMIN_ONLY,
  'DELETE /admin/api/admin-tokens/:id': ADMIN_ONLY,
  'GET /admin/api/requests': READ,
  'GET /admin/api/requests/:id': READ,
  'GET /admin/api/sessions': READ,
  'GET /admin/api/sessions/:id': READ,
  'GET /admin/api/usage': READ,
  'GET /admin/api/budgets/status': READ,
  'GET /admin/api/usage/cache': READ,
  'POST /admin/api/commands': team(() => ({ body: { argv: ['budgets', 'set', 'team:eng', '--amount', '5', '--period', 'month'] } }), () => ({ body: { argv: ['budgets', 'set', 'team:ml', '--amount', '5', '--period', 'month'] } })),
  'GET /admin/api/providers/health': READ,
  'GET /admin/api/audit': READ,
  'POST /admin/api/audit/verify': READ,
  'POST /admin/api/audit/rotate': ADMIN_ONLY,
  'GET /admin/api/audit/witnessed': READ,
};

it('every admin route has its row in the role matrix, and every row a route', () => {
  expect(Object.keys(ROLE_ROWS).sort()).toEqual(rows.map(([name]) => name).sort());
});

async function expectVerdict(route: AdminRoute, token: string, verdict: Verdict, target?: Call): Promise<void> {
  const response = await call(route, { authorization: `Bearer ${token}` }, target);
  const body = await response.text();
  if (verdict === 'refused') {
    expect(response.status, body).toBe(403);
    expect(JSON.parse(body).error.code).toBe('GW_ERR_ADMIN_ROLE_REFUSED');
  } else {
    expect(response.status, body).not.toBe(401);
    expect(body).not.toContain('GW_ERR_ADMIN_ROLE_REFUSED');
    expect(response.status, body).toBeLessThan(500);
  }
}

describe('roles', () => {
  // A change command run as a read for the viewer (the route is open to reads; the command is not).
  const viewerTarget = (name: string): Call | undefined => (name === 'POST /admin/api/commands' ? { body: { argv: ['budgets', 'set', 'team:eng', '--amount', '5'] } } : undefined);

  it.each(rows)('%s: viewer', async (name, route) => {
    const row = ROLE_ROWS[name];
    expect(row, `no role row for ${name}`).toBeDefined();
    await expectVerdict(route, tokens.viewer, row?.viewer ?? 'allowed', viewerTarget(name));
  });

  it.each(rows)('%s: team_admin of eng', async (name, route) => {
    const verdict = ROLE_ROWS[name]?.team_admin ?? 'allowed';
    if (typeof verdict === 'string') return expectVerdict(route, tokens.team_admin, verdict);
    await expectVerdict(route, tokens.team_admin, 'refused', verdict.other);
    // An unknown personal token has no team: refused too (the other case).
    const ownRefused = name === 'DELETE /admin/api/tokens/:id';
    await expectVerdict(route, tokens.team_admin, ownRefused ? 'refused' : 'allowed', verdict.own);
  });

  it('a viewer and a team_admin read remote commands; only an admin runs a hub-wide change', async () => {
    const commands = ADMIN_ROUTES.find((route) => route.operation === 'commands.run');
    expect(commands).toBeDefined();
    if (!commands) return;
    await expectVerdict(commands, tokens.viewer, 'allowed', { body: { argv: ['policy', 'list'] } });
    await expectVerdict(commands, tokens.team_admin, 'refused', { body: { argv: ['providers', 'remove', 'nothing'] } });
    await expectVerdict(commands, tokens.team_admin, 'refused', { body: { argv: ['policy', 'set', '*', '--rpm', '5'] } });
    await expectVerdict(commands, tokens.team_admin, 'allowed', { body: { argv: ['policy', 'set', `key:${eng.key}`, '--rpm', '5'] } });
  });

  it('whoami names the role and a team_admin\'s teams; a refusal is recorded with the admin and role, never the token', async () => {
    const who = await (await fetch(`${hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${tokens.team_admin}` } })).json();
    expect(who).toMatchObject({ name: 'lead@example.com', role: 'team_admin', teams: ['eng'] });
    const viewer = await (await fetch(`${hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${tokens.viewer}` } })).json();
    expect(viewer).toMatchObject({ role: 'viewer', teams: [] });
    const refused = (await readAudit(hub.home)).filter((line) => line.kind === 'admin.refused' && String(JSON.stringify(line.data)).includes('"role":"viewer"'));
    expect(refused.length).toBeGreaterThan(0);
    expect(JSON.stringify(refused)).toContain('viewer@example.com');
    const trail = JSON.stringify(await readAudit(hub.home));
    for (const token of Object.values(tokens)) expect(trail).not.toContain(token);
  });
});

it('GET / points a browser at the console', async () => {
  const answer = await fetch(`${hub.url}/`, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  expect(answer.headers.get('location')).toBe('/ui');
});
