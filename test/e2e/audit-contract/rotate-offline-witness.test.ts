// `gw audit rotate` with no gw running (the home under the audit lock, role cli) tells the
// configured witness itself: the closed checkpoint of chain A, then chain B's first. When the
// witness cannot be reached it says so, and the next `gw serve` sends the witness what it lacks.
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar, waitUntil, CHAT_BODY } from '../helpers.js';
import { freePort } from '../../support/database-servers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });

interface WitnessLine { trail: string; seq: number; closed?: true }
interface Summary { closed_trail: string; closed_seq: number; trail: string; witness?: string }

async function witnessLines(file: string): Promise<WitnessLine[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as WitnessLine);
}

async function chat(gateway: GatewayProcess, key: string): Promise<void> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: CHAT_BODY,
  });
  expect(response.status).toBe(200);
  await response.text();
}

/** A home with a file witness on its own folder, served once with a few calls, then stopped. */
async function servedHome(http?: string): Promise<{ home: string; volume: string; witness: string; key: string }> {
  const home = await makeHome();
  const volume = await makeHome('gw-witness-volume-');
  const witness = http ?? path.join(volume, 'witness.jsonl');
  expect((await runGw(['settings', 'set', 'audit_witness', witness], { home })).code).toBe(0);
  const gateway = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const key = gateway.bootstrapKey!;
  for (let call = 0; call < 3; call += 1) await chat(gateway, key);
  expect(await gateway.stop()).toBe(0);
  if (http === undefined) expect((await witnessLines(witness)).length).toBeGreaterThan(0);
  return { home, volume, witness, key };
}

async function verifyWithWitness(home: string, witness: string): Promise<void> {
  const verified = await runGw(['audit', 'verify', '--witness', witness], { home });
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/2 chains, all intact/);
  expect(verified.stdout).toMatch(/witness .*: consistent/);
}

it('an offline rotation sends the closed checkpoint and the new chain\'s first to the file witness', async () => {
  const { home, witness } = await servedHome();
  const rotated = await runGw(['audit', 'rotate', '--json'], { home });
  expect(rotated.code, rotated.stderr).toBe(0);
  const summary = JSON.parse(rotated.stdout) as Summary;
  expect(summary.witness).toBe(`file ${witness}: sent`);
  const lines = await witnessLines(witness);
  expect(lines.filter((line) => line.trail === summary.closed_trail && line.closed === true).map((line) => line.seq)).toEqual([summary.closed_seq]);
  expect(lines.some((line) => line.trail === summary.trail)).toBe(true);
  await verifyWithWitness(home, witness);
}, 120_000);

it('a witness out of reach at an offline rotation is said so, and the next gw serve sends it the closed checkpoint', async () => {
  const { home, volume, witness, key } = await servedHome();
  await rename(volume, `${volume}-unmounted`); // the witness's volume is away during the rotation
  const rotated = await runGw(['audit', 'rotate', '--json'], { home });
  expect(rotated.code, rotated.stderr).toBe(0);
  expect(rotated.stderr).toMatch(/could not be reached .*the next gw serve sends it the closed checkpoint/);
  const summary = JSON.parse(rotated.stdout) as Summary;
  expect(summary.witness).toBe(`file ${witness}: unreachable, left for the next start`);
  await rename(`${volume}-unmounted`, volume);
  expect((await witnessLines(witness)).some((line) => line.closed === true)).toBe(false);

  const gateway = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  await waitUntil(async () => (await witnessLines(witness)).some((line) => line.trail === summary.closed_trail && line.closed === true), { timeoutMs: 20_000, what: 'the closed checkpoint at the witness' });
  await chat(gateway, key);
  expect(await gateway.stop()).toBe(0);
  const lines = await witnessLines(witness);
  const closedAt = lines.findIndex((line) => line.trail === summary.closed_trail && line.closed === true);
  const firstOfB = lines.findIndex((line) => line.trail === summary.trail);
  expect(closedAt).toBeGreaterThanOrEqual(0);
  expect(firstOfB).toBeGreaterThan(closedAt); // the witness learns A ended before it hears of B
  await verifyWithWitness(home, witness);
}, 180_000);

it('an HTTP witness that is down at an offline rotation is named as unreachable, and the rotation stands', async () => {
  const url = `http://127.0.0.1:${await freePort()}/witness`; // nothing listens there
  const { home } = await servedHome(url);
  const rotated = await runGw(['audit', 'rotate', '--json'], { home });
  expect(rotated.code, rotated.stderr).toBe(0);
  expect(rotated.stderr).toMatch(new RegExp(`audit witness http ${url} could not be reached .*the next gw serve sends it the closed checkpoint`));
  expect((JSON.parse(rotated.stdout) as Summary).witness).toBe(`http ${url}: unreachable, left for the next start`);
  expect((await runGw(['audit', 'verify'], { home })).code).toBe(0);
}, 120_000);
