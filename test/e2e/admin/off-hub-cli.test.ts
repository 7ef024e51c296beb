// Off-hub administration from the CLI (issue 40): `gw audit verify --hub URL` on a laptop with an
// admin token has the hub verify its own trail; a viewer's token may, a missing token is a usage
// error before anything is sent. The real CLI against a real hub.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeHome, runGw, runGwSetup, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar, waitForState } from '../helpers.js';

const jar = new GatewayJar();
let hub: GatewayProcess;
let viewerToken = '';

beforeAll(async () => {
  hub = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const made = await runGwSetup(['admin', 'tokens', 'create', '--name', 'auditor@example.com', '--role', 'viewer'], { home: hub.home });
  expect(made.code, made.stderr).toBe(0);
  viewerToken = /gwa-\w+/.exec(`${made.stdout}${made.stderr}`)?.[0] ?? '';
  await waitForState(hub);
}, 30_000);

afterAll(async () => { await jar.stopAll(); });

it('gw audit verify --hub: the hub verifies its trail for a viewer\'s token, off the hub', async () => {
  const laptop = await makeHome('gw-off-hub-');
  const verified = await runGw(['audit', 'verify', '--hub', hub.url], { home: laptop, env: { GW_ADMIN_TOKEN: viewerToken } });
  expect(verified.code, verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/^intact: .+, \d+ records$/m);
  expect(verified.stdout).toContain(`the hub ${hub.url} verified its trail`);
  expect(verified.stdout + verified.stderr).not.toContain(viewerToken);
  const json = await runGw(['audit', 'verify', '--hub', hub.url, '--json'], { home: laptop, env: { GW_ADMIN_TOKEN: viewerToken } });
  expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, chains: [expect.objectContaining({ ok: true })] });
  const missing = await runGw(['audit', 'verify', '--hub', hub.url], { home: laptop });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('remote administration needs an admin token');
}, 30_000);
