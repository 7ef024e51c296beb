// An operator-configured witness (setting audit_witness) with a real `gw serve`: a file on
// another volume keeps every pushed checkpoint, and `gw audit verify --witness <file>`
// catches a re-chained trail and a deleted one; an HTTP witness that is down shows in
// /health while the gateway keeps serving.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw } from '../../support/gateway-process.js';
import { CHAT_BODY, GatewayJar, waitUntil } from '../helpers.js';
import { rechainUnderNewKey } from './rechain.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });
afterAll(async () => { await jar.stopAll(); });

async function homeWitnessedBy(witness: string): Promise<string> {
  const home = await makeHome();
  const set = await runGw(['settings', 'set', 'audit_witness', witness], { home });
  expect(set.code).toBe(0);
  return home;
}

async function callTimes(url: string, key: string, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'x-gw-vk': key, 'content-type': 'application/json' }, body: CHAT_BODY });
    expect(response.status).toBe(200);
  }
}

it('a file witness keeps the checkpoints; verify --witness passes, then reports a re-chained trail and a deleted one', async () => {
  const volume = await mkdtemp(path.join(os.tmpdir(), 'gw-witness-volume-'));
  const witnessFile = path.join(volume, 'witness.jsonl');
  const home = await homeWitnessedBy(witnessFile);
  const gateway = await jar.start({ home });
  await callTimes(gateway.url, gateway.bootstrapKey!, 3);
  expect(await gateway.stop()).toBe(0);
  const intact = await runGw(['audit', 'verify', '--witness', witnessFile], { home });
  expect(intact.stdout).toMatch(/consistent \(witnessed up to seq \d+\)/);
  expect(intact.code).toBe(0);

  await rechainUnderNewKey(home, 2);
  expect((await runGw(['audit', 'verify'], { home })).code).toBe(0);
  const rechained = await runGw(['audit', 'verify', '--witness', witnessFile], { home });
  expect(rechained.code).toBe(1);
  expect(rechained.stdout).toContain('MISMATCH: re-chained under a new key');

  await rm(path.join(home, 'audit'), { recursive: true });
  const deleted = await runGw(['audit', 'verify', '--witness', witnessFile], { home });
  expect(deleted.code).toBe(1);
  expect(deleted.stdout).toMatch(/MISMATCH: deleted: the local log is empty, but the witness holds this instance's chain/);
  await rm(volume, { recursive: true, force: true });
}, 60_000);

it('an HTTP witness that is down at start and after is retried and reported in /health (start check skipped); requests are served all along', async () => {
  const home = await homeWitnessedBy('http://127.0.0.1:9/witness');
  const gateway = await jar.start({ home });
  await callTimes(gateway.url, gateway.bootstrapKey!, 2);
  let body: { status: string; components: Record<string, { status: string; witnesses?: Array<{ name: string; error?: string; pending_seq: number | null }> }> } | undefined;
  await waitUntil(async () => {
    const response = await fetch(`${gateway.url}/health`);
    body = await response.json() as typeof body;
    return response.status === 200 && body?.components.audit_witness?.status === 'degraded';
  }, { timeoutMs: 10_000, what: 'the witness reported down' });
  expect(body!.status).toBe('degraded');
  expect(body!.components.audit_witness!.witnesses![0]).toMatchObject({ name: 'http http://127.0.0.1:9/witness', error: expect.stringMatching(/^unreachable: /) });
  expect(body!.components.audit_witness!.witnesses![0]!.pending_seq).toBeGreaterThanOrEqual(1);
  // It could not be asked at start either: gw started anyway (availability) and says the start check was skipped.
  expect((body!.components.audit_witness as { start_check?: string[] }).start_check).toEqual([expect.stringMatching(/^http http:\/\/127\.0\.0\.1:9\/witness could not be read at start .*started without comparing the trail with it$/)]);
  await callTimes(gateway.url, gateway.bootstrapKey!, 1);
}, 40_000);
