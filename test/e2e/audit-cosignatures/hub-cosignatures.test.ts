// Witness cosignatures end to end (issue 27, deliverables 4 and 5): a sidecar and its hub as
// two real `gw serve` processes. The hub cosigns each checkpoint it accepts with its own
// witness key (`gw audit witness-key` prints it); the sidecar keeps the cosignatures beside
// its trail; `gw audit export --format ocsf` puts them in the events' attestations, and
// `gw audit verify --ocsf FILE --key PUB --witness-key HUB` checks them with nothing but the
// file and the keys. An edited cosignature fails and names its event; a witness key the file
// was not cosigned by fails. The same for a sidecar whose trail is in a real PostgreSQL store.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type CliResult, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { OcsfSchema } from '../../support/ocsf-schema.js';
import { waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';

const schema = new OcsfSchema();
let rig: HubRig;
let laptop: string;
let witnessKey: string;
let postgres: PostgresServer | undefined;

interface Line {
  metadata: { uid: string; sequence: number };
  attestation_list: Array<{ signatures?: Array<{ certificate?: { uid: string } }> }>;
  unmapped: { gw_signatures?: Array<{ role?: string; public_key: string; signature: string }> };
}

const chat = (base: string, content: string) => fetch(`${base}/v1/chat/completions`, {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
});

/** Verifies with no home at all: an empty folder as GW_HOME, only the file and the keys. */
async function verifyOcsf(file: string, ...args: string[]): Promise<CliResult> {
  return runGw(['audit', 'verify', '--ocsf', file, ...args], { env: { GW_HOME: path.join(await makeHome('gw-auditor-'), 'none') } });
}

async function readEvents(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
}

function edited(events: string[], index: number, change: (event: Line) => void): string {
  return `${events.map((line, at) => {
    if (at !== index) return line;
    const event = JSON.parse(line) as Line;
    change(event);
    return JSON.stringify(event);
  }).join('\n')}\n`;
}

/** Serves the sidecar, makes calls, waits for the hub to have witnessed, stops (gateway.stop's checkpoint goes out and is cosigned). */
async function callsThroughSidecar(args: string[] = []): Promise<GatewayProcess> {
  const sidecar = await rig.jar.start({ home: laptop, args, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' } });
  for (let index = 0; index < 3; index += 1) expect((await chat(sidecar.url, `call ${index}`)).status).toBe(200);
  await waitUntil(async () => {
    const health = await (await fetch(`${sidecar.url}/health`)).json() as { components: Record<string, { witnesses?: Array<{ witnessed_seq: number | null }> }> };
    return (health.components.audit_witness?.witnesses?.[0]?.witnessed_seq ?? 0) >= 1;
  }, { timeoutMs: 20_000, what: 'the first checkpoint at the hub' });
  expect(await sidecar.stop()).toBe(0);
  return sidecar;
}

beforeAll(async () => {
  rig = await startHubRig();
  laptop = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-laptop`);
  const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
  expect(await login.exited).toBe(0);
}, 60_000);

afterAll(async () => {
  await rig?.close();
  await postgres?.destroy();
});

describe('the hub cosigns what it witnesses', () => {
  it('gw audit witness-key prints the hub\'s witness key, made once and kept 0600', async () => {
    const printed = await runGw(['audit', 'witness-key'], { home: rig.hub.home });
    expect(printed.code, printed.stderr).toBe(0);
    witnessKey = printed.stdout.trim();
    expect(witnessKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(path.join(rig.hub.home, 'witness-signing.key'))).mode & 0o777).toBe(0o600);
    expect((await readFile(path.join(rig.hub.home, 'witness.pub'), 'utf8')).trim()).toBe(witnessKey);
    expect((await runGw(['audit', 'witness-key'], { home: rig.hub.home })).stdout.trim()).toBe(witnessKey);
    expect(witnessKey).not.toBe((await readFile(path.join(rig.hub.home, 'audit.pub'), 'utf8')).trim());
  }, 30_000);

  it('the sidecar keeps the hub\'s cosignatures beside its trail, and its OCSF export verifies offline with --witness-key', async () => {
    await callsThroughSidecar();
    const cosignatures = path.join(laptop, 'audit', 'cosignatures.jsonl');
    expect((await stat(cosignatures)).mode & 0o777).toBe(0o600);
    const kept = (await readFile(cosignatures, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { seq: number; witness_public_key: string; public_key: string; witness: string });
    const records = (await readFile(path.join(laptop, 'audit', 'audit.jsonl'), 'utf8')).trim().split('\n').length;
    expect(kept.at(-1)).toMatchObject({ seq: records, witness_public_key: witnessKey, public_key: (await readFile(path.join(laptop, 'audit.pub'), 'utf8')).trim(), witness: `hub ${rig.hub.url}` });

    const file = path.join(await makeHome('gw-export-'), 'laptop.ocsf.jsonl');
    const exported = await runGw(['audit', 'export', '--format', 'ocsf', '--out', file], { home: laptop, env: NO_KEYCHAIN });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/cosigned by a witness/);
    const events = await readEvents(file);
    for (const line of events) expect(schema.check(JSON.parse(line) as Record<string, unknown>), line).toEqual([]);
    const last = JSON.parse(events.at(-1)!) as Line;
    expect(last.attestation_list[0]!.signatures?.[1]?.certificate?.uid).toBe(witnessKey);
    expect(last.unmapped.gw_signatures?.map((entry) => entry.role ?? 'instance')).toEqual(['instance', 'witness']);

    const laptopKey = path.join(laptop, 'audit.pub');
    const hubWitnessPub = path.join(rig.hub.home, 'witness.pub');
    const verified = await verifyOcsf(file, '--key', laptopKey, '--witness-key', hubWitnessPub);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('cosigned by witness');
    // Without --witness-key the cosignatures are checked for integrity and a note says they were not trusted.
    const alone = await verifyOcsf(file, '--key', laptopKey);
    expect(alone.code).toBe(0);
    expect(alone.stderr).toContain('were not checked against a key you trust');
    // A witness key the file was not cosigned by: fail closed.
    const stranger = await verifyOcsf(file, '--key', laptopKey, '--witness-key', path.join(rig.hub.home, 'audit.pub'));
    expect(stranger.code).toBe(1);
    expect(stranger.stdout).toMatch(/not trusted \(not given with --witness-key\)/);
    // One character of a cosignature changed: the event is named.
    const cosignedIndex = events.findIndex((line) => (JSON.parse(line) as Line).unmapped.gw_signatures?.some((entry) => entry.role === 'witness'));
    const tampered = path.join(path.dirname(file), 'tampered.jsonl');
    await writeFile(tampered, edited(events, cosignedIndex, (event) => {
      const entry = event.unmapped.gw_signatures!.find((candidate) => candidate.role === 'witness')!;
      entry.signature = `${entry.signature[0] === 'A' ? 'B' : 'A'}${entry.signature.slice(1)}`;
    }));
    const broken = await verifyOcsf(tampered, '--key', laptopKey, '--witness-key', hubWitnessPub);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`BROKEN at event ${(JSON.parse(events[cosignedIndex]!) as Line).metadata.uid}`);
    expect(broken.stdout).toContain('cosignature by witness key');
    expect((await runGw(['audit', 'verify', '--witness-key', hubWitnessPub], { home: laptop })).code).toBe(2);
  }, 90_000);
});

describe('cosignatures of a PostgreSQL chain', () => {
  it('a sidecar whose trail is in the store keeps the hub\'s cosignatures there, and gw audit export --store carries them', async () => {
    postgres = await startPostgres();
    const store = await postgres.createDatabase();
    const admin = { env: { GW_HOME: await makeHome('gw-admin-') } };
    expect((await runGw(['db', 'migrate', '--store', store], admin)).code).toBe(0);
    const sidecar = await callsThroughSidecar(['--store', store]);
    const file = path.join(await makeHome('gw-export-'), 'store.ocsf.jsonl');
    const exported = await runGw(['audit', 'export', '--format', 'ocsf', '--store', store, '--out', file], admin);
    expect(exported.code, exported.stderr).toBe(0);
    const events = await readEvents(file);
    for (const line of events) expect(schema.check(JSON.parse(line) as Record<string, unknown>), line).toEqual([]);
    expect((JSON.parse(events.at(-1)!) as Line).unmapped.gw_signatures?.at(-1)).toMatchObject({ role: 'witness', public_key: witnessKey });
    const verified = await verifyOcsf(file, '--key', path.join(sidecar.home, 'audit.pub'), '--witness-key', witnessKey);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    const tampered = path.join(path.dirname(file), 'tampered.jsonl');
    await writeFile(tampered, edited(events, events.length - 1, (event) => { event.unmapped.gw_signatures!.at(-1)!.public_key = (JSON.parse(events[0]!) as Line).unmapped.gw_signatures?.[0]?.public_key ?? 'x'; }));
    expect((await verifyOcsf(tampered, '--key', path.join(sidecar.home, 'audit.pub'), '--witness-key', witnessKey)).code).toBe(1);
  }, 180_000);
});
