// The witness end to end, as issue 13 tells it: a sidecar and its hub as two real
// `gw serve` processes. The sidecar sends its signed checkpoints to the hub as it runs;
// then its trail is cut and re-chained under a new key, with a checkpoint to match, so
// that `gw audit verify` alone passes. `gw audit verify --witness <hub>` (authenticated
// by the laptop's own gw login) reports it, and the re-chained sidecar's next push is
// refused by the hub and shown in its /health.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, TEAM, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';
import { rechainUnderNewKey } from './rechain.js';

let rig: HubRig;
let sidecar: GatewayProcess;
let laptop: string;

const chat = (base: string, content: string) => fetch(`${base}/v1/chat/completions`, {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
});

const verifyWitness = () => runGw(['audit', 'verify', '--witness', rig.hub.url], { home: laptop, env: NO_KEYCHAIN });

beforeAll(async () => {
  rig = await startHubRig();
  laptop = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-laptop`);
  const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
  expect(await login.exited).toBe(0);
}, 60_000);

afterAll(async () => { await rig?.close(); });

describe('a sidecar witnessed by its hub', () => {
  it('pushes its signed checkpoints to the hub, which keeps them under the sidecar\'s person and team', async () => {
    sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' } });
    for (let index = 0; index < 3; index += 1) expect((await chat(sidecar.url, `call ${index}`)).status).toBe(200);
    await waitUntil(async () => {
      const health = await (await fetch(`${sidecar.url}/health`)).json() as { components: Record<string, { witnesses?: Array<{ witnessed_seq: number | null }> }> };
      return (health.components.audit_witness?.witnesses?.[0]?.witnessed_seq ?? 0) >= 1;
    }, { timeoutMs: 15_000, what: 'the first checkpoint at the hub' });
    expect(await sidecar.stop()).toBe(0); // gateway.stop's checkpoint goes out as the sidecar stops
    const kept = (await readFile(path.join(rig.hub.home, 'witness.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const localLines = (await readFile(path.join(laptop, 'audit', 'audit.jsonl'), 'utf8')).trim().split('\n');
    expect(kept.at(-1)).toMatchObject({ v: 2, seq: localLines.length, from: { team: TEAM, person: PERSON } });
    expect(kept.at(-1)!.public_key).toBe((await readFile(path.join(laptop, 'audit.pub'), 'utf8')).trim());
    const verified = await verifyWitness();
    expect(verified.stdout).toContain(`consistent (witnessed up to seq ${localLines.length})`);
    expect(verified.code).toBe(0);
  }, 60_000);

  it('a trail cut and re-chained under a new key passes gw audit verify alone, and --witness against the hub reports it', async () => {
    const { seq } = await rechainUnderNewKey(laptop, 2);
    const alone = await runGw(['audit', 'verify'], { home: laptop });
    expect(alone.code).toBe(0); // the forgery is consistent with itself: this is what the witness is for
    const witnessed = await verifyWitness();
    expect(witnessed.code).toBe(1);
    expect(witnessed.stdout).toContain('MISMATCH: re-chained under a new key');
    expect(witnessed.stdout).toMatch(new RegExp(`MISMATCH: truncated or rolled back: the witness holds a checkpoint at seq \\d+ .*the local log ends at seq ${seq}`));
    const json = await runGw(['audit', 'verify', '--json', '--witness', rig.hub.url], { home: laptop, env: NO_KEYCHAIN });
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, witness: { ok: false, source: rig.hub.url } });
  }, 30_000);

  it('the re-chained sidecar is refused at start by the hub\'s inventory; with --accept-audit-gap it serves, and the hub refuses its checkpoints (kept as evidence)', async () => {
    const refused = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' } }).then(() => null, (error: Error) => error.message);
    expect(refused).toContain('GW_ERR_AUDIT_WITNESS_ROLLBACK');
    sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' }, args: ['--accept-audit-gap'] });
    expect((await chat(sidecar.url, 'after the forgery')).status).toBe(200);
    let witness: { status?: string; witnesses?: Array<{ error?: string }> } = {};
    await waitUntil(async () => {
      const health = await (await fetch(`${sidecar.url}/health`)).json() as { components: Record<string, typeof witness> };
      witness = health.components.audit_witness ?? {};
      return witness.witnesses?.[0]?.error !== undefined;
    }, { timeoutMs: 15_000, what: 'the hub\'s refusal' });
    expect(witness.status).toBe('degraded');
    expect(witness.witnesses?.[0]?.error).toMatch(/refused checkpoint \d+: 409: .*pinned to key .*re-chained under a new key/);
    const kept = await readFile(path.join(rig.hub.home, 'witness.jsonl'), 'utf8');
    expect(kept).toContain((await readFile(path.join(laptop, 'audit.pub'), 'utf8')).trim());
    expect(await sidecar.stop()).toBe(0);
    expect((await verifyWitness()).code).toBe(1);
  }, 40_000);
});
