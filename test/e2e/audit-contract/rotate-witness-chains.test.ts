// A running gw rotated under a few calls, with a file witness (issue 27): the witness holds the
// closed checkpoint of chain A and the checkpoints of chain B from its first ones, though B's
// seqs start below A's (the pusher tracks each trail on its own), and verify --witness passes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar, waitUntil, CHAT_BODY } from '../helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });

interface WitnessLine { trail: string; seq: number; closed?: true }

async function witnessLines(file: string): Promise<WitnessLine[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as WitnessLine);
}

async function chat(gateway: GatewayProcess): Promise<void> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${gateway.bootstrapKey!}`, 'content-type': 'application/json' }, body: CHAT_BODY,
  });
  expect(response.status).toBe(200);
  await response.text();
}

it('after a rotation the witness holds chain A\'s closed checkpoint and chain B\'s from its first, and verify --witness passes', async () => {
  const home = await makeHome();
  const witness = path.join(await makeHome('gw-witness-volume-'), 'witness.jsonl');
  expect((await runGw(['settings', 'set', 'audit_witness', witness], { home })).code).toBe(0);
  const gateway = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  for (let call = 0; call < 6; call += 1) await chat(gateway);
  const token = (await runGw(['admin', 'tokens', 'create', '--name', 'rotator'], { home })).stdout.trim();
  await waitUntil(async () => (await fetch(`${gateway.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status === 200, { timeoutMs: 15_000 });
  const rotated = await runGw(['audit', 'rotate', '--hub', gateway.url, '--json'], { home, env: { GW_ADMIN_TOKEN: token } });
  expect(rotated.code, rotated.stderr).toBe(0);
  const summary = JSON.parse(rotated.stdout) as { closed_trail: string; closed_seq: number; trail: string };
  // Chain B's first checkpoint reaches the witness while B is still short, with no call after the rotation.
  await waitUntil(async () => (await witnessLines(witness)).some((line) => line.trail === summary.trail), { timeoutMs: 20_000, what: 'chain B at the witness' });
  for (let call = 0; call < 2; call += 1) await chat(gateway);
  expect(await gateway.stop()).toBe(0);

  const lines = await witnessLines(witness);
  const closedA = lines.filter((line) => line.trail === summary.closed_trail && line.closed === true);
  expect(closedA.map((line) => line.seq)).toEqual([summary.closed_seq]);
  const chainB = lines.filter((line) => line.trail === summary.trail).map((line) => line.seq);
  expect(Math.min(...chainB)).toBeLessThan(summary.closed_seq);
  expect(Math.max(...chainB)).toBeGreaterThan(Math.min(...chainB)); // the later heads too, up to gateway.stop's
  const verified = await runGw(['audit', 'verify', '--witness', witness], { home });
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/2 chains, all intact/);
  expect(verified.stdout).toMatch(/witness .*: consistent/);
}, 120_000);
