// The hub as witness of a sidecar's chains, per sender (issue 27): the hub files each
// checkpoint under the sidecar's person and device login (from its credential) and its
// instance id (from the push). A laptop whose trail and keys were deleted and made again
// (a reinstall without gw audit rotate) is refused at start by the hub's inventory; once
// started with --accept-audit-gap, `gw audit verify --witness <hub>` fails and says why.
// A real hub and a real sidecar, as two `gw serve` processes.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess } from '../../support/gateway-process.js';
import { waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, TEAM, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';

let rig: HubRig;
let laptop: string;
const env = { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' };

const chat = (base: string) => fetch(`${base}/v1/chat/completions`, {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
});

async function serveCalls(count: number, args: string[] = []): Promise<void> {
  const sidecar = await rig.jar.start({ home: laptop, env, args });
  for (let index = 0; index < count; index += 1) expect((await chat(sidecar.url)).status).toBe(200);
  await waitUntil(async () => {
    const health = await (await fetch(`${sidecar.url}/health`)).json() as { components: Record<string, { witnesses?: Array<{ witnessed_seq: number | null }> }> };
    return (health.components.audit_witness?.witnesses?.[0]?.witnessed_seq ?? 0) >= 1;
  }, { timeoutMs: 15_000, what: 'a checkpoint at the hub' });
  expect(await sidecar.stop()).toBe(0);
}

beforeAll(async () => {
  rig = await startHubRig();
  laptop = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-inventory-laptop`);
  const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
  expect(await login.exited).toBe(0);
}, 60_000);

afterAll(async () => { await rig?.close(); });

it('a sidecar reinstalled without gw audit rotate is refused at start by its hub, and verify --witness <hub> fails after --accept-audit-gap', async () => {
  await serveCalls(3);
  const instance = (await readFile(path.join(laptop, 'instance-id'), 'utf8')).trim();
  const kept = (await readFile(path.join(rig.hub.home, 'witness.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { from: Record<string, unknown> });
  expect(kept.at(-1)!.from).toMatchObject({ team: TEAM, person: PERSON, instance, device: expect.stringMatching(/^tok_/) });
  expect((await runGw(['audit', 'verify', '--witness', rig.hub.url], { home: laptop, env: NO_KEYCHAIN })).code).toBe(0);

  for (const name of ['audit', 'audit.pub', 'audit-signing.key', 'audit-trust.json']) await rm(path.join(laptop, name), { recursive: true, force: true });
  const refused = await startGatewayProcess({ home: laptop, env }).then(async (gateway) => { await gateway.stop(); return null; }, (error: Error) => error.message);
  expect(refused, 'the sidecar started on a replaced trail').not.toBeNull();
  expect(refused).toContain('GW_ERR_AUDIT_WITNESS_ROLLBACK');
  expect(refused).toContain(`the audit trail in ${path.join(laptop, 'audit')} is behind its witness (hub ${rig.hub.url})`);

  await serveCalls(1, ['--accept-audit-gap']);
  const verified = await runGw(['audit', 'verify', '--witness', rig.hub.url], { home: laptop, env: NO_KEYCHAIN });
  expect(verified.code, verified.stdout + verified.stderr).toBe(1);
  expect(verified.stdout).toMatch(/MISMATCH: replaced without closing: instance gwi_\w+, person alice@example.com, device tok_\w+'s chain .* without a closing record/);
}, 120_000);
