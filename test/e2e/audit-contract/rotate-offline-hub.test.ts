// A sidecar rotated with `gw audit rotate` while it was stopped (no audit_witness setting: its
// witness is its hub, which the command cannot reach without the sidecar running): its next
// start finds the hub without the closed chain's checkpoint and sends it, before the new
// chain's, whose checkpoints go out from its first though their seqs are below the closed
// chain's. A real hub and a real sidecar, as two `gw serve` processes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';

let rig: HubRig;
let laptop: string;
const env = { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' };

interface HubLine { trail: string; seq: number; closed?: true }
const hubLines = async (): Promise<HubLine[]> => (await readFile(path.join(rig.hub.home, 'witness.jsonl'), 'utf8').catch(() => ''))
  .split('\n').filter(Boolean).map((line) => JSON.parse(line) as HubLine);

async function serveCalls(count: number, until: () => Promise<boolean>): Promise<void> {
  const sidecar = await rig.jar.start({ home: laptop, env });
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${sidecar.url}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
  }
  await waitUntil(until, { timeoutMs: 20_000, what: 'the checkpoints at the hub' });
  expect(await sidecar.stop()).toBe(0);
}

beforeAll(async () => {
  rig = await startHubRig();
  laptop = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-rotate-laptop`);
  const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
  expect(await login.exited).toBe(0);
}, 60_000);

afterAll(async () => { await rig?.close(); });

it('the next start of a sidecar rotated offline sends its hub the closed checkpoint, then the new chain from its first; verify --witness <hub> passes', async () => {
  await serveCalls(5, async () => (await hubLines()).length > 0);
  const rotated = await runGw(['audit', 'rotate', '--json'], { home: laptop, env: NO_KEYCHAIN });
  expect(rotated.code, rotated.stderr).toBe(0);
  const summary = JSON.parse(rotated.stdout) as { closed_trail: string; closed_seq: number; trail: string };
  expect((await hubLines()).some((line) => line.closed === true)).toBe(false); // the hub is told by the sidecar, not the command

  const isClosedA = (line: HubLine) => line.trail === summary.closed_trail && line.closed === true;
  await serveCalls(1, async () => (await hubLines()).some(isClosedA) && (await hubLines()).some((line) => line.trail === summary.trail));
  const lines = await hubLines();
  const closedAt = lines.findIndex(isClosedA);
  expect(lines[closedAt]!.seq).toBe(summary.closed_seq);
  const ofB = lines.flatMap((line, index) => (line.trail === summary.trail ? [{ index, seq: line.seq }] : []));
  expect(ofB[0]!.index).toBeGreaterThan(closedAt);
  expect(ofB[0]!.seq).toBeLessThan(summary.closed_seq);
  const verified = await runGw(['audit', 'verify', '--witness', rig.hub.url], { home: laptop, env: NO_KEYCHAIN });
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/2 chains, all intact/);
}, 120_000);
