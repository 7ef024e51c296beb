// kill -9 in the middle of gw audit rotate, at each step (GW_TEST_ROTATE_PAUSE, a test-only hook
// that stops the rotation there), on the file store and on PostgreSQL: the next gw serve finishes
// the rotation from its journal (or undoes it when the closing record never landed) and the trail
// then verifies, the new key trusted by rotation from the old. Also: rotate with no gw running
// (under the audit lock), and the refusal, naming --hub, while one runs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../../src/audit/key-fingerprint.js';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar, sleep, waitUntil } from '../helpers.js';
import { fileBackend, postgresBackend, type RotateBackend } from './rotate-backends.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });

const publicKey = async (home: string) => (await readFile(path.join(home, 'audit.pub'), 'utf8')).trim();

async function call(gateway: GatewayProcess, key: string): Promise<void> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

async function adminToken(gateway: GatewayProcess, backend: RotateBackend): Promise<string> {
  const token = (await runGw(['admin', 'tokens', 'create', '--name', 'rotator', ...backend.cliArgs()], { home: gateway.home })).stdout.trim();
  await waitUntil(async () => (await fetch(`${gateway.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status === 200, { timeoutMs: 15_000, what: 'the admin token' });
  return token;
}

/** Starts a gw that stops its rotation at `step`, rotates, and kills it -9 there. */
async function killedAt(backend: RotateBackend, step: string): Promise<{ home: string; oldKey: string; key: string }> {
  const pause = { GW_TEST_ROTATE_PAUSE: step };
  // On PostgreSQL each start opens a chain, so a start before the paused one leaves an earlier chain of
  // this instance in the store, which the recovery must tell from the live one. A file trail goes on in
  // one chain across starts: there the paused gw is the home's first start (one gw start fewer per step).
  let gateway: GatewayProcess;
  if (backend.name === 'PostgreSQL') {
    const first = await backend.start(jar);
    expect(await first.stop()).toBe(0);
    gateway = await backend.start(jar, first.home, pause);
  } else {
    gateway = await backend.start(jar, undefined, pause);
  }
  const key = backend.callKey(gateway);
  const oldKey = await publicKey(gateway.home);
  const token = await adminToken(gateway, backend);
  await call(gateway, key);
  void fetch(`${gateway.url}/admin/api/audit/rotate`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
  await waitUntil(() => gateway.stderr().includes(`rotation paused at step ${step}`), { timeoutMs: 20_000, what: `the pause at ${step}` });
  // A call made now waits for the new chain (or, paused before the close, is recorded in the old one).
  void call(gateway, key).catch(() => undefined);
  await sleep(200);
  expect(await gateway.stop('SIGKILL')).toBe('SIGKILL');
  return { home: gateway.home, oldKey, key };
}

const FILE_STEPS = ['journal', 'closing-record', 'closed-checkpoint', 'moved', 'new-key', 'opening-record', 'opened'] as const;
const STORE_STEPS = ['journal', 'closed-checkpoint', 'new-key'] as const;

describe.each([['file store', fileBackend(), FILE_STEPS], ['PostgreSQL', postgresBackend(), STORE_STEPS]] as const)('%s', (_name, backend, steps) => {
  beforeAll(() => backend.setUp(), 120_000);
  afterAll(() => backend.tearDown());

  it.each(steps.map((step) => [step]))('kill -9 at step %s: the next start finishes (or undoes) the rotation and the trail verifies', async (step) => {
    await backend.reset();
    const { home, oldKey, key } = await killedAt(backend, step);
    const restarted = await backend.start(jar, home);
    await call(restarted, key);
    expect(await restarted.stop()).toBe(0);
    const newKey = await publicKey(home);
    const verified = await backend.verify(home);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    const chains = await backend.chains(home);
    if (step === 'journal') {
      // Stopped before the closing record: undone, the chain goes on under the old key.
      expect(newKey).toBe(oldKey);
      expect(chains.flat().some((record) => record.kind === 'audit.chain_closed')).toBe(false);
      return;
    }
    expect(newKey).not.toBe(oldKey);
    expect(verified.stdout).toContain(`trusted by rotation from ${fingerprintOf(oldKey)}`);
    const opened = chains.find((chain) => chain[0]?.kind === 'audit.chain_opened');
    expect(opened, 'the new chain opens by naming the closed one').toBeDefined();
    expect(chains.flat().filter((record) => record.kind === 'audit.chain_closed')).toHaveLength(1);
  }, 120_000);
});

describe('with no gw running', () => {
  const backend = fileBackend();

  it('gw audit rotate rotates the home under the audit lock; while a gw runs it refuses and names --hub', async () => {
    const first = await backend.start(jar);
    await call(first, backend.callKey(first));
    const refused = await runGw(['audit', 'rotate'], { home: first.home });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--hub');
    expect(await first.stop()).toBe(0);
    const oldKey = await publicKey(first.home);
    const rotated = await runGw(['audit', 'rotate'], { home: first.home });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toMatch(/closed at seq \d+ \(key [0-9a-f]{16}\); new chain .* signed by key [0-9a-f]{16}, trusted by rotation/);
    const verified = await backend.verify(first.home);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`trusted by rotation from ${fingerprintOf(oldKey)}`);
    expect(verified.stdout).toContain('2 chains, all intact');
    // Rotated twice: the third key is trusted through the second, transitively.
    expect((await runGw(['audit', 'rotate'], { home: first.home })).code).toBe(0);
    const twice = await backend.verify(first.home);
    expect(twice.code, twice.stdout).toBe(0);
    expect(twice.stdout).toContain('3 chains, all intact');
    const gateway = await backend.start(jar, first.home);
    await call(gateway, backend.callKey(first));
    expect(await gateway.stop()).toBe(0);
    expect((await backend.verify(first.home)).code).toBe(0);
  }, 120_000);

  it('a live chain that stopped without being named by a new one, after its closed chain was deleted, fails verify', async () => {
    const first = await backend.start(jar);
    expect(await first.stop()).toBe(0);
    expect((await runGw(['audit', 'rotate'], { home: first.home })).code).toBe(0);
    const { rm, readdir } = await import('node:fs/promises');
    const folder = path.join(first.home, 'audit', 'chains');
    for (const name of await readdir(folder)) await rm(path.join(folder, name));
    const verified = await backend.verify(first.home);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toMatch(/BROKEN.*names the closed chain .* which is not here/);
  }, 120_000);
});
