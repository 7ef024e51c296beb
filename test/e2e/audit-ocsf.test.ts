// The trail where an auditor's SIEM looks (issue 27): `gw audit export --format ocsf` writes
// one OCSF 1.9 event per record of a real trail (model calls, a refused credential, a device
// login, admin changes, two starts and stops), each complete and defined per the schema files
// in test/fixtures/ocsf-schema, and `gw audit verify --ocsf FILE --key PUB` checks the file with
// nothing else: an edited, dropped or reordered event fails and is named. The same for a
// chain of a real PostgreSQL store.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type CliResult, type GatewayProcess } from '../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../support/database-servers.js';
import { OcsfSchema } from '../support/ocsf-schema.js';
import { CHAT_BODY, GatewayJar, readAudit, takeApprovedToken, waitForState, waitUntil } from './helpers.js';

const jar = new GatewayJar();
const schema = new OcsfSchema();
afterAll(async () => { await jar.stopAll(); });

interface OcsfLine {
  class_uid: number;
  metadata: { uid: string; sequence: number };
  actor?: { user?: { name?: string } };
  raw_data: string;
}

async function gw(args: string[], home?: string): Promise<CliResult> {
  return runGw(args, home ? { home } : {});
}

async function chat(gateway: GatewayProcess, key: string): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-gw-vk': key, 'content-type': 'application/json' }, body: CHAT_BODY });
  await response.text();
  return response.status;
}

/** Verifies with no home at all: an empty folder as GW_HOME, only the file and the key. */
async function verifyOcsf(file: string, ...args: string[]): Promise<CliResult> {
  return runGw(['audit', 'verify', '--ocsf', file, ...args], { env: { GW_HOME: path.join(await makeHome('gw-auditor-'), 'none') } });
}

async function readEvents(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
}

/** Two boots of a real gw: model calls, a refused key, a device login taken, admin changes from the shell. */
async function busyHome(): Promise<string> {
  const gateway = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const key = gateway.bootstrapKey!;
  expect(await chat(gateway, key)).toBe(200);
  expect(await chat(gateway, 'sk-gw-not-a-key')).toBe(401);
  const login = await (await fetch(`${gateway.url}/oauth/device/code`, { method: 'POST', body: new URLSearchParams({ client_host: 'laptop' }) })).json() as { user_code: string; device_code: string };
  for (const args of [['teams', 'create', 'eng'], ['people', 'add', 'ada@example.com', '--team', 'eng'], ['device', 'approve', login.user_code, '--person', 'ada@example.com']]) {
    const result = await gw(args, gateway.home);
    expect(result.code, result.stderr).toBe(0);
  }
  await waitForState(gateway); // the running gw reads the approval at its next state read
  expect((await takeApprovedToken(gateway.url, login.device_code)).access_token).toMatch(/^atu-/);
  expect(await chat(gateway, key)).toBe(200);
  expect(await gateway.stop()).toBe(0);
  const again = await jar.start({ home: gateway.home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  expect(await chat(again, key)).toBe(200);
  expect(await again.stop()).toBe(0);
  const kinds = new Set((await readAudit(gateway.home)).map((record) => record.kind));
  for (const kind of ['gateway.start', 'request', 'auth.refused', 'admin.change', 'login.token_issued', 'gateway.stop']) expect(kinds).toContain(kind);
  return gateway.home;
}

/** The event on `index` edited through `change`, the others untouched. */
function edited(events: string[], index: number, change: (event: Record<string, unknown>) => void): string {
  return `${events.map((line, at) => {
    if (at !== index) return line;
    const event = JSON.parse(line) as Record<string, unknown>;
    change(event);
    return JSON.stringify(event);
  }).join('\n')}\n`;
}

const uidOf = (line: string) => (JSON.parse(line) as OcsfLine).metadata.uid;

describe('the home\'s file trail', () => {
  let home: string;
  let file: string;
  let events: string[];
  beforeAll(async () => {
    home = await busyHome();
    file = path.join(await makeHome('gw-export-'), 'trail.ocsf.jsonl');
    const exported = await gw(['audit', 'export', '--format', 'ocsf', '--out', file], home);
    expect(exported.code, exported.stderr).toBe(0);
    events = await readEvents(file);
  }, 120_000);

  it('one event per record, each in its class and complete and defined per the OCSF schema files', async () => {
    const records = await readAudit(home);
    expect(events).toHaveLength(records.length);
    const parsed = events.map((line) => JSON.parse(line) as OcsfLine & Record<string, unknown>);
    for (const event of parsed) expect(schema.check(event), event.raw_data).toEqual([]);
    const classOf = (kind: string) => parsed.filter((event) => (JSON.parse(event.raw_data) as { kind: string }).kind === kind).map((event) => event.class_uid);
    expect(new Set(classOf('request'))).toEqual(new Set([6003]));
    expect(new Set([...classOf('auth.refused'), ...classOf('login.token_issued')])).toEqual(new Set([3002]));
    expect(new Set(classOf('admin.change'))).toEqual(new Set([3004]));
    expect(new Set([...classOf('gateway.start'), ...classOf('gateway.stop')])).toEqual(new Set([6002]));
    expect(parsed.map((event) => event.raw_data)).toEqual((await readFile(path.join(home, 'audit', 'audit.jsonl'), 'utf8')).split('\n').filter(Boolean));
  });

  it('verifies with only the file and the public key; without a key, or under another one, it does not', async () => {
    const verified = await verifyOcsf(file, '--key', path.join(home, 'audit.pub'));
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(new RegExp(`OCSF export intact: ${events.length} events`));
    expect((await verifyOcsf(file)).code).toBe(2);
    const stranger = await busyHomeKey();
    const refused = await verifyOcsf(file, '--key', stranger);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`BROKEN at event ${uidOf(events.at(-1)!)}`);
    expect(refused.stdout).toContain('not trusted');
  });

  it('an edited event, a dropped one, two swapped and a cut tail each fail, naming the event', async () => {
    const key = path.join(home, 'audit.pub');
    const folder = path.dirname(file);
    const request = events.findIndex((line) => (JSON.parse(line) as OcsfLine).class_uid === 6003);
    const cases: Array<[string, string, string]> = [
      ['renamed', edited(events, request, (event) => { (event.actor as { user: Record<string, string> }).user.name = 'mallory'; }), uidOf(events[request]!)],
      ['dropped', `${events.filter((_, index) => index !== 2).join('\n')}\n`, uidOf(events[3]!)],
      ['swapped', `${[events[0], events[2], events[1], ...events.slice(3)].join('\n')}\n`, uidOf(events[2]!)],
      ['cut', `${events.slice(0, -1).join('\n')}\n`, uidOf(events.at(-2)!)],
      ['rewritten', edited(events, request, (event) => { event.raw_data = (event.raw_data as string).replace('"status":200', '"status":500'); }), uidOf(events[request]!)],
    ];
    for (const [name, text, uid] of cases) {
      const tampered = path.join(folder, `${name}.ocsf.jsonl`);
      await writeFile(tampered, text);
      const result = await verifyOcsf(tampered, '--key', key);
      expect(result.code, `${name}: ${result.stdout}${result.stderr}`).toBe(1);
      expect(result.stdout, name).toContain(`BROKEN at event ${uid}`);
    }
  }, 60_000);

  it('--since writes a window that verifies with --window; --until before the checkpoint is refused offline; jsonl still exports', async () => {
    const records = await readAudit(home);
    const since = records[3]!.ts as string;
    const window = path.join(path.dirname(file), 'window.ocsf.jsonl');
    expect((await gw(['audit', 'export', '--format', 'ocsf', '--since', since, '--out', window], home)).code).toBe(0);
    const first = JSON.parse((await readEvents(window))[0]!) as OcsfLine;
    expect(first.metadata.sequence).toBe(4);
    const key = path.join(home, 'audit.pub');
    expect((await verifyOcsf(window, '--key', key)).stdout).toContain('starts at seq 4');
    expect((await verifyOcsf(window, '--key', key, '--window')).code).toBe(0);
    const early = await gw(['audit', 'export', '--format', 'ocsf', '--until', records[2]!.ts as string], home);
    expect(early.stderr).toContain('the last event is not signed');
    expect(early.stdout.split('\n').filter(Boolean)).toHaveLength(3);
    expect((await gw(['audit', 'export', '--since', 'yesterday-ish'], home)).code).toBe(2);
    const plain = path.join(path.dirname(file), 'plain.jsonl');
    expect((await gw(['audit', 'export', '--out', plain], home)).code).toBe(0);
    expect(await readFile(plain, 'utf8')).toBe(await readFile(path.join(home, 'audit', 'audit.jsonl'), 'utf8'));
  }, 60_000);
});

it('with a witness file, the records at the checkpoints it kept are signed too: a window ending on one verifies offline', async () => {
  const witness = path.join(await makeHome('gw-witness-volume-'), 'witness.jsonl');
  const home = await makeHome();
  expect((await gw(['settings', 'set', 'audit_witness', witness], home)).code).toBe(0);
  const gateway = await jar.start({ home, env: { GW_LOG_LEVEL: 'warn' } });
  expect(await chat(gateway, gateway.bootstrapKey!)).toBe(200);
  const witnessedSeqs = async () => (await readFile(witness, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { seq: number }).seq);
  await waitUntil(async () => (await witnessedSeqs()).length > 0, { timeoutMs: 20_000, what: 'a checkpoint at the witness' });
  const [early] = await witnessedSeqs();
  for (let index = 0; index < 3; index += 1) expect(await chat(gateway, gateway.bootstrapKey!)).toBe(200);
  expect(await gateway.stop()).toBe(0);
  const records = await readAudit(home);
  expect(records.length).toBeGreaterThan(early!);
  const until = records[early! - 1]!.ts as string;
  const file = path.join(await makeHome('gw-export-'), 'window.ocsf.jsonl');
  const exported = await gw(['audit', 'export', '--format', 'ocsf', '--witness', witness, '--until', until, '--out', file], home);
  expect(exported.code, exported.stderr).toBe(0);
  const events = await readEvents(file);
  expect((JSON.parse(events.at(-1)!) as OcsfLine).metadata.sequence).toBe(early);
  const verified = await verifyOcsf(file, '--key', path.join(home, 'audit.pub'));
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  // Without the witness the same window ends on an unsigned event: refused offline.
  const bare = path.join(path.dirname(file), 'bare.ocsf.jsonl');
  expect((await gw(['audit', 'export', '--format', 'ocsf', '--until', until, '--out', bare], home)).stderr).toContain('the last event is not signed');
  expect((await verifyOcsf(bare, '--key', path.join(home, 'audit.pub'))).code).toBe(1);
}, 90_000);

/** Another home's public key: a key the export was not signed by. */
async function busyHomeKey(): Promise<string> {
  const gateway = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  expect(await gateway.stop()).toBe(0);
  return path.join(gateway.home, 'audit.pub');
}

describe('a chain of the PostgreSQL store', () => {
  let postgres: PostgresServer | undefined;
  afterAll(async () => { await jar.stopAll(); await postgres?.destroy(); });

  it('exports as OCSF events the schema defines, which verify offline under the instance\'s key', async () => {
    postgres = await startPostgres();
    const store = await postgres.createDatabase();
    const admin = { env: { GW_HOME: await makeHome('gw-admin-') } };
    expect((await runGw(['db', 'migrate', '--store', store], admin)).code).toBe(0);
    expect((await runGw(['teams', 'create', 'eng', '--store', store], admin)).code).toBe(0);
    const made = await runGw(['keys', 'create', '--team', 'eng', '--name', 'ci', '--store', store], admin);
    const key = /sk-gw-\w+/.exec(made.stdout + made.stderr)![0];
    const instance = await jar.start({ args: ['--store', store, '--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
    for (let index = 0; index < 3; index += 1) expect(await chat(instance, key)).toBe(200);
    expect(await instance.stop()).toBe(0);
    const file = path.join(await makeHome('gw-export-'), 'store.ocsf.jsonl');
    const exported = await runGw(['audit', 'export', '--format', 'ocsf', '--store', store, '--out', file], admin);
    expect(exported.code, exported.stderr).toBe(0);
    const events = await readEvents(file);
    expect(events.length).toBeGreaterThanOrEqual(5);
    for (const line of events) expect(schema.check(JSON.parse(line) as Record<string, unknown>), line).toEqual([]);
    const verified = await verifyOcsf(file, '--key', path.join(instance.home, 'audit.pub'));
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    const tampered = path.join(path.dirname(file), 'tampered.jsonl');
    await writeFile(tampered, edited(events, 1, (event) => { (event.metadata as Record<string, unknown>).sequence = 7; }));
    const broken = await verifyOcsf(tampered, '--key', path.join(instance.home, 'audit.pub'));
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`BROKEN at event ${uidOf(events[1]!)}`);
  }, 180_000);
});
