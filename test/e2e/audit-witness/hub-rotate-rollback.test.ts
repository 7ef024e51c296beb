// Issue 36's rollback hidden by a rotation, on a sidecar whose witness is its hub (two real
// `gw serve` processes): the laptop's audit/ put back as it was before its last run, then
// `gw audit rotate` with no gw running reads the hub with the home's gw login and refuses,
// changing nothing; with --accept-audit-gap it rotates and records the gap, the hub refuses
// the closed checkpoint below what it holds (409, kept as evidence), and the sidecar starts.
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGw } from '../../support/gateway-process.js';
import { waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';

let rig: HubRig;
let laptop: string;
const env = { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' };

interface HubLine { trail: string; seq: number; hash: string; closed?: true }
const hubLines = async (): Promise<HubLine[]> => (await readFile(path.join(rig.hub.home, 'witness.jsonl'), 'utf8').catch(() => ''))
  .split('\n').filter(Boolean).map((line) => JSON.parse(line) as HubLine);

/** Serves `count` calls on the sidecar, waits until the hub holds `until`, stops; returns the sidecar's stderr. */
async function serveCalls(count: number, until: () => Promise<boolean>): Promise<string> {
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
  return sidecar.stderr();
}

beforeAll(async () => {
  rig = await startHubRig();
  laptop = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-rollback-laptop`);
  const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
  expect(await login.exited).toBe(0);
}, 60_000);

afterAll(async () => { await rig?.close(); });

it('an offline rotation of a sidecar cut behind its hub is refused; accepted, the hub refuses the closed checkpoint below what it holds', async () => {
  await serveCalls(2, async () => (await hubLines()).length > 0);
  const backup = await mkdtemp(path.join(os.tmpdir(), 'gw-audit-backup-'));
  await cp(path.join(laptop, 'audit'), backup, { recursive: true });
  const before = (await hubLines()).at(-1)!;
  await serveCalls(3, async () => (await hubLines()).some((line) => line.trail === before.trail && line.seq > before.seq));
  const witnessed = (await hubLines()).filter((line) => line.trail === before.trail).reduce((best, line) => (line.seq > best.seq ? line : best));
  await rm(path.join(laptop, 'audit'), { recursive: true });
  await cp(backup, path.join(laptop, 'audit'), { recursive: true });
  await rm(path.join(laptop, 'audit', 'audit.lock'), { force: true });
  const hubBefore = await hubLines();

  const refused = await runGw(['audit', 'rotate'], { home: laptop, env: NO_KEYCHAIN });
  expect(refused.code, refused.stdout).toBe(1);
  expect(refused.stderr).toContain('GW_ERR_AUDIT_ROTATE_BEHIND_WITNESS');
  expect(refused.stderr).toContain(`behind its witness (hub ${rig.hub.url.replace(/\/+$/, '')})`);
  expect(refused.stderr).toMatch(new RegExp(`the witness holds its checkpoint at seq ${witnessed.seq}`));
  expect(await readdir(path.join(laptop, 'audit'))).not.toContain('chains');
  expect(await hubLines()).toEqual(hubBefore);

  const rotated = await runGw(['audit', 'rotate', '--accept-audit-gap', '--json'], { home: laptop, env: NO_KEYCHAIN });
  expect(rotated.code, rotated.stderr).toBe(0);
  const summary = JSON.parse(rotated.stdout) as { closed_trail: string; closed_seq: number; trail: string };
  expect(summary.closed_seq).toBeLessThan(witnessed.seq);
  const closedChain = (await readFile(path.join(laptop, 'audit', 'chains', `${summary.closed_trail}.jsonl`), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { kind: string; data?: Record<string, unknown> });
  expect(closedChain.find((line) => line.kind === 'audit.gap')?.data).toMatchObject({ witnessed_trail: witnessed.trail, witnessed_seq: witnessed.seq, accepted_by: 'gw audit rotate --accept-audit-gap' });

  // The next start sends the hub the closed checkpoint it lacks: refused (behind), kept as evidence; the new chain is accepted.
  const stderr = await serveCalls(1, async () => (await hubLines()).some((line) => line.trail === summary.trail));
  expect(stderr).toMatch(new RegExp(`refused checkpoint ${summary.closed_seq}: 409: .*seq ${summary.closed_seq} is behind the witnessed seq ${witnessed.seq}`));
  expect((await hubLines()).some((line) => line.trail === summary.closed_trail && line.closed === true && line.seq === summary.closed_seq)).toBe(true);
}, 240_000);
