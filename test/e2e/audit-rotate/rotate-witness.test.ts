// gw audit rotate with a witness (issue 27): the witness is sent the closed checkpoint (signed
// `closed`) and the new chain's checkpoints; `gw audit verify --witness` then holds every chain of
// the home against it and passes, and fails when the closed chain is gone from the home.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw } from '../../support/gateway-process.js';
import { copyHome, GatewayJar, waitUntil } from '../helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });

it('a rotated home verifies against its witness, which holds the closed checkpoint; the closed chain deleted is a mismatch', async () => {
  const home = await makeHome();
  const witness = path.join(await makeHome('gw-witness-volume-'), 'witness.jsonl');
  expect((await runGw(['settings', 'set', 'audit_witness', witness], { home })).code).toBe(0);
  const gateway = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const key = gateway.bootstrapKey!;
  const chat = async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
  };
  await chat();
  const token = (await runGw(['admin', 'tokens', 'create', '--name', 'rotator'], { home })).stdout.trim();
  await waitUntil(async () => (await fetch(`${gateway.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status === 200, { timeoutMs: 15_000 });
  const rotated = await runGw(['audit', 'rotate', '--hub', gateway.url], { home, env: { GW_ADMIN_TOKEN: token } });
  expect(rotated.code, rotated.stderr).toBe(0);
  await chat();
  expect(await gateway.stop()).toBe(0);
  await waitUntil(async () => (await readFile(witness, 'utf8').catch(() => '')).includes('"closed":true'), { timeoutMs: 15_000, what: 'the closed checkpoint at the witness' });

  const verified = await runGw(['audit', 'verify', '--witness', witness], { home });
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/2 chains, all intact/);
  expect(verified.stdout).toMatch(/witness .*: consistent/);

  const copy = await mkdtemp(path.join(os.tmpdir(), 'gw-rotate-witness-'));
  await copyHome(home, copy);
  await rm(path.join(copy, 'audit', 'chains'), { recursive: true });
  const deleted = await runGw(['audit', 'verify', '--witness', witness], { home: copy });
  expect(deleted.code).toBe(1);
  expect(deleted.stdout).toMatch(/names the closed chain .* which is not here/);
}, 120_000);
