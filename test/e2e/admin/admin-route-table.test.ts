// Every route of the admin API table (src/admin/admin-api.ts), against a real hub: refused
// without a credential, with an inference key, with a forged console cookie; served to an
// admin token. A route added to the table is covered by adding it, nothing else.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_ROUTES, type AdminRoute } from '../../../src/admin/admin-api.js';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar } from '../helpers.js';

const jar = new GatewayJar();
let hub: GatewayProcess;
let adminToken: string;

beforeAll(async () => {
  hub = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const made = await runGw(['admin', 'tokens', 'create', '--name', 'table'], { home: hub.home });
  adminToken = made.stdout.trim();
  expect(adminToken).toMatch(/^gwa-/);
  // The running hub reads the CLI's change from state.json on its next poll.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await fetch(`${hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
}, 30_000);

afterAll(async () => { await jar.stopAll(); });

function call(route: AdminRoute, headers: Record<string, string>): Promise<Response> {
  const url = route.path.replace(':email', 'nobody%40example.com').replace(':id', 'vk_000000000000').replace(':code', 'BCDF-GHJK').replace(':name', 'enforce_auth');
  return fetch(`${hub.url}${url}`, {
    method: route.method, headers: { ...headers, ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    ...(route.method === 'POST' ? { body: '{}' } : {}),
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
