// gw audit rotate on a running gw under load (issue 27), one body run against the file store and
// a real PostgreSQL: calls to the mock provider keep coming while the admin API rotates; every
// call's record lands in the old chain before its closing record or in the new chain after its
// opening record; verify passes with only the old key trusted (the new one "trusted by rotation"),
// a restart under the new key is accepted, and verify fails when the closing record is edited or
// the new chain is put under a fresh key that no rotation introduced.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../../src/audit/key-fingerprint.js';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { copyHome, GatewayJar, sleep, type AuditLine } from '../helpers.js';
import { fileBackend, postgresBackend, type RotateBackend } from './rotate-backends.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });

async function adminToken(gateway: GatewayProcess, backend: RotateBackend): Promise<string> {
  const made = await runGw(['admin', 'tokens', 'create', '--name', 'rotator', ...backend.cliArgs()], { home: gateway.home });
  const token = made.stdout.trim();
  expect(token, made.stderr).toMatch(/^gwa-/);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && (await fetch(`${gateway.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status !== 200) await sleep(100);
  return token;
}

/** Calls from `workers` loops until stopped; resolves with how many were answered 200. */
function startLoad(gateway: GatewayProcess, key: string, workers: number): { stop(): Promise<number> } {
  let running = true;
  let answered = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] }),
      });
      await response.text();
      expect(response.status).toBe(200);
      answered += 1;
    }
  });
  return { stop: async () => { running = false; await Promise.all(loops); return answered; } };
}

const kinds = (chain: AuditLine[]) => chain.map((record) => record.kind);

describe.each([['file store', fileBackend()], ['PostgreSQL', postgresBackend()]] as const)('%s', (_name, backend) => {
  beforeAll(() => backend.setUp(), 120_000);
  afterAll(() => backend.tearDown());

  it('rotate under load: no call lost, none after a close; verify trusts the new key by rotation from the old; a tampered close or a swapped new chain fails', async () => {
    const gateway = await backend.start(jar);
    const token = await adminToken(gateway, backend);
    const oldKey = (await readFile(path.join(gateway.home, 'audit.pub'), 'utf8')).trim();
    const load = startLoad(gateway, backend.callKey(gateway), 6);
    await sleep(700);
    const rotated = await runGw(['audit', 'rotate', '--hub', gateway.url, '--json'], { home: gateway.home, env: { GW_ADMIN_TOKEN: token } });
    expect(rotated.code, rotated.stderr).toBe(0);
    const summary = JSON.parse(rotated.stdout) as { previous_key_fingerprint: string; next_key_fingerprint: string; next_public_key: string };
    await sleep(700);
    const answered = await load.stop();
    expect(await gateway.stop()).toBe(0);
    const newKey = (await readFile(path.join(gateway.home, 'audit.pub'), 'utf8')).trim();
    expect(newKey).not.toBe(oldKey);
    expect(summary).toMatchObject({ previous_key_fingerprint: fingerprintOf(oldKey), next_key_fingerprint: fingerprintOf(newKey), next_public_key: newKey });

    const chains = await backend.chains(gateway.home);
    const closedChain = chains.find((chain) => chain.some((record) => record.kind === 'audit.chain_closed'))!;
    const openedChain = chains.find((chain) => chain[0]?.kind === 'audit.chain_opened')!;
    expect(kinds(closedChain).at(-1)).toBe('audit.chain_closed');
    expect(closedChain.at(-1)!.data).toEqual({ reason: 'rotate', next_public_key: newKey, next_key_fingerprint: fingerprintOf(newKey) });
    expect(openedChain[0]!.data).toMatchObject({ previous_seq: closedChain.at(-1)!.seq, previous_hash: closedChain.at(-1)!.hash, previous_public_key: oldKey });
    // Calls were recorded on both sides of the rotation, and every answered call has its one record.
    expect(closedChain.filter((record) => record.kind === 'request').length).toBeGreaterThan(0);
    expect(openedChain.filter((record) => record.kind === 'request').length).toBeGreaterThan(0);
    expect(chains.flat().filter((record) => record.kind === 'request').length).toBe(answered);
    // The rotation is an admin act, recorded in the new chain, naming who and the new key.
    const act = openedChain.find((record) => record.kind === 'admin.change' && (record.data as { action?: string }).action === 'audit.rotate');
    expect(act?.data).toMatchObject({ admin_name: 'rotator', target: fingerprintOf(newKey) });

    const verified = await backend.verify(gateway.home);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`trusted by rotation from ${fingerprintOf(oldKey)}`);
    // The trust file still holds only the old key: the new one is trusted through the closed chain.
    const trust = JSON.parse(await readFile(path.join(gateway.home, 'audit-trust.json'), 'utf8')) as { keys: Array<{ public_key: string }> };
    expect(trust.keys.map((entry) => entry.public_key)).toEqual([oldKey]);

    // A restart under the rotated key is accepted as verify accepts it.
    const restarted = await backend.start(jar, gateway.home);
    expect(await restarted.stop()).toBe(0);
    const again = await backend.verify(gateway.home);
    expect(again.code, again.stdout + again.stderr).toBe(0);

    await expectTamperFails(backend, gateway.home);
  }, 240_000);
});

async function expectTamperFails(backend: RotateBackend, home: string): Promise<void> {
  const fileStore = backend.name === 'file store';
  const copy = async () => {
    if (!fileStore) return home;
    const target = await mkdtemp(path.join(os.tmpdir(), 'gw-rotate-tamper-'));
    await copyHome(home, target);
    return target;
  };
  const edited = await copy();
  await backend.editClosingRecord(edited);
  const closing = await backend.verify(edited);
  expect(closing.code, closing.stdout).toBe(1);
  expect(closing.stdout).toMatch(/BROKEN.*(hash mismatch|edited)/);
  if (!fileStore) await backend.editClosingRecordBack?.(home);
  const swapped = await copy();
  await backend.swapNewChain(swapped);
  const refused = await backend.verify(swapped);
  expect(refused.code, refused.stdout).toBe(1);
  expect(refused.stdout).toMatch(/BROKEN.*(not by [0-9a-f]{16}, the key .* introduced|not trusted)/);
}
