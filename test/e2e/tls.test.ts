// A hub that terminates TLS itself: gw serve --tls-cert/--tls-key.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeHome, startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';

let gateway: GatewayProcess;

beforeAll(async () => {
  const home = await makeHome('gw-tls-');
  const cert = path.join(home, 'cert.pem');
  const key = path.join(home, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  gateway = await startGatewayProcess({ home, args: ['--tls-cert', cert, '--tls-key', key] });
});
afterAll(async () => { await gateway?.stop(); });

it('serves HTTPS with the given certificate, and the data plane works over it', async () => {
  expect(gateway.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
  const health = await request(`${gateway.url}/health`, { dispatcher });
  expect(await health.body.json()).toMatchObject({ status: 'ok' });
  const chat = await request(`${gateway.url}/v1/chat/completions`, {
    method: 'POST', dispatcher,
    headers: { authorization: `Bearer ${gateway.bootstrapKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'over tls' }] }),
  });
  expect(chat.statusCode).toBe(200);
  expect(JSON.stringify(await chat.body.json())).toContain('mock reply: over tls');
  await dispatcher.close();
});

it('refuses a half TLS configuration with one clear line', async () => {
  const home = await makeHome('gw-tls-half-');
  await expect(startGatewayProcess({ home, args: ['--tls-cert', path.join(home, 'missing.pem')] })).rejects.toThrow(/--tls-cert and --tls-key go together/);
});
