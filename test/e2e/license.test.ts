// The license is reported in /health and never stops the data plane.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeHome, startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';

let gateway: GatewayProcess;
beforeAll(async () => {
  const home = await makeHome('gw-license-e2e-');
  await writeFile(path.join(home, 'license.json'), JSON.stringify({ licensee: 'Acme', expires_at: '2020-01-01T00:00:00Z' }));
  gateway = await startGatewayProcess({ home });
});
afterAll(async () => { await gateway?.stop(); });

it('an expired license shows in /health without turning it, and requests are still served', async () => {
  const health = await (await fetch(`${gateway.url}/health`)).json() as { status: string; components: Record<string, { status: string; state?: string }> };
  expect(health.status).toBe('ok');
  expect(health.components.license).toMatchObject({ status: 'degraded', state: 'expired', licensee: 'Acme' });
  const chat = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${gateway.bootstrapKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'still here' }] }),
  });
  expect(chat.status).toBe(200);
});
