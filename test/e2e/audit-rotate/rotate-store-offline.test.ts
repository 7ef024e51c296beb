// gw audit rotate --store URL with no gw running on the home (issue 27): the instance's key is
// rotated in the store (a short chain closed, the next opened, in one transaction); the next
// gw serve signs with the new key, and verify --store trusts it by that rotation.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { fingerprintOf } from '../../../src/audit/key-fingerprint.js';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { GatewayJar } from '../helpers.js';
import { postgresBackend } from './rotate-backends.js';

const jar = new GatewayJar();
const backend = postgresBackend();
beforeAll(() => backend.setUp(), 120_000);
afterEach(async () => { await jar.stopAll(); });
afterAll(() => backend.tearDown());

it('rotates the home\'s instance key in the store; the next start signs with it and verify trusts it by rotation', async () => {
  const first = await backend.start(jar);
  expect(await first.stop()).toBe(0);
  const oldKey = (await readFile(path.join(first.home, 'audit.pub'), 'utf8')).trim();
  const rotated = await runGw(['audit', 'rotate', ...backend.cliArgs()], { home: first.home });
  expect(rotated.code, rotated.stderr).toBe(0);
  const newKey = (await readFile(path.join(first.home, 'audit.pub'), 'utf8')).trim();
  expect(newKey).not.toBe(oldKey);
  const again = await backend.start(jar, first.home);
  const response = await fetch(`${again.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${backend.callKey(again)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] }),
  });
  expect(response.status).toBe(200);
  await response.text();
  expect(await again.stop()).toBe(0);
  const verified = await backend.verify(first.home);
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toContain(`trusted by rotation from ${fingerprintOf(oldKey)}`);
  expect(verified.stdout).toMatch(/, closed\n/);
}, 180_000);
