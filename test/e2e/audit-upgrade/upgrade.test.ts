// Upgrades keep trails (issue 27): a home and a PostgreSQL store made by the gw of the issue's
// day (commit 144156f, built from git once and cached by old-build.ts) are served and verified by this build.
// The old and new records verify as one trail (the file chain goes on from the old head; the
// store's old chain stays intact beside the new boot's), the trust file holds the key already
// there (seeded with a note when the home predates trust files), nothing asks the operator to
// start over (the store asks for `gw db migrate`, the documented upgrade step, and only that),
// and an OCSF export of the mixed trail verifies offline.
import { cp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGw, startGatewayProcess, type CliResult, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { CHAT_BODY } from '../helpers.js';
import { oldBuild, type OldBuild } from './old-build.js';

let old: OldBuild;
let postgres: PostgresServer | undefined;
const running: GatewayProcess[] = [];
/** Words that would mean the upgrade asks the operator to throw the trail away or accept a gap. */
const START_OVER = /start over|accept-audit-gap|UNTRUSTED|BROKEN|refus/i;

beforeAll(async () => {
  old = await oldBuild();
}, 20 * 60_000);

afterAll(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop('SIGKILL')));
  await postgres?.destroy();
});

async function serve(options: { bin?: string; home: string; args?: string[]; logLevel?: string }): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess({ home: options.home, args: ['--standalone', ...(options.args ?? [])], env: { GW_LOG_LEVEL: options.logLevel ?? 'warn' }, timeoutMs: 60_000, ...(options.bin ? { bin: options.bin } : {}) });
  running.push(gateway);
  return gateway;
}

async function stop(gateway: GatewayProcess): Promise<void> {
  expect(await gateway.stop()).toBe(0);
  running.splice(running.indexOf(gateway), 1);
}

async function chat(gateway: GatewayProcess, key: string, times = 2): Promise<void> {
  for (let index = 0; index < times; index += 1) {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: CHAT_BODY });
    await response.text();
    expect(response.status).toBe(200);
  }
}

async function recordsOf(home: string): Promise<Array<{ seq: number; kind: string; hash: string }>> {
  return (await readFile(path.join(home, 'audit', 'audit.jsonl'), 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { seq: number; kind: string; hash: string });
}

function expectClean(result: CliResult): void {
  expect(result.code, result.stdout + result.stderr).toBe(0);
  expect(result.stdout + result.stderr).not.toMatch(START_OVER);
}

/** Exports the home's (or the store's) chain as OCSF and verifies it with nothing but the file and the key. */
async function exportAndVerify(home: string, extra: string[], publicKeyFile: string): Promise<string[]> {
  const file = path.join(await makeHome('gw-upgrade-export-'), 'trail.ocsf.jsonl');
  const exported = await runGw(['audit', 'export', '--format', 'ocsf', '--out', file, ...extra], { env: { GW_HOME: home } });
  expect(exported.code, exported.stderr).toBe(0);
  const verified = await runGw(['audit', 'verify', '--ocsf', file, '--key', publicKeyFile], { env: { GW_HOME: path.join(await makeHome('gw-auditor-'), 'none') } });
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
}

describe('a home made by the old gw', () => {
  let home: string;
  let key: string;
  let oldRecords: Array<{ seq: number; kind: string; hash: string }>;

  beforeAll(async () => {
    home = await makeHome('gw-upgrade-home-');
    const first = await serve({ bin: old.bin, home });
    key = first.bootstrapKey!;
    expect(key).toMatch(/^sk-gw-/);
    await chat(first, key);
    await stop(first);
    const second = await serve({ bin: old.bin, home });
    await chat(second, key);
    await stop(second);
    expectClean(await runGw(['audit', 'verify'], { home, bin: old.bin }));
    oldRecords = await recordsOf(home);
  }, 180_000);

  it('an OCSF export the old gw made verifies offline with the new one', async () => {
    const file = path.join(await makeHome('gw-upgrade-old-export-'), 'old.ocsf.jsonl');
    const exported = await runGw(['audit', 'export', '--format', 'ocsf', '--out', file], { home, bin: old.bin });
    expect(exported.code, exported.stderr).toBe(0);
    const verified = await runGw(['audit', 'verify', '--ocsf', file, '--key', path.join(home, 'audit.pub')], { env: { GW_HOME: path.join(await makeHome('gw-auditor-'), 'none') } });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`OCSF export intact: ${oldRecords.length} events`);
  }, 60_000);

  it('is served by the new build, and old and new records verify as one trail under the key already trusted', async () => {
    const trustBefore = await readFile(path.join(home, 'audit-trust.json'), 'utf8');
    const publicKey = (await readFile(path.join(home, 'audit.pub'), 'utf8')).trim();
    const upgraded = await serve({ home });
    await chat(upgraded, key);
    await stop(upgraded);
    expect(upgraded.stdout() + upgraded.stderr()).not.toMatch(START_OVER);
    const records = await recordsOf(home);
    // One chain: the old records untouched at its start, the new ones after them.
    expect(records.slice(0, oldRecords.length)).toEqual(oldRecords);
    expect(records.length).toBeGreaterThan(oldRecords.length + 2);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect((await readFile(path.join(home, 'audit.pub'), 'utf8')).trim()).toBe(publicKey);
    const trust = JSON.parse(await readFile(path.join(home, 'audit-trust.json'), 'utf8')) as { keys: Array<{ public_key: string; note?: string }> };
    expect(trust.keys.map((entry) => entry.public_key)).toEqual([publicKey]);
    expect(trust.keys[0]!.note).toContain('seeded at start from the key already in this home');
    expect(JSON.parse(trustBefore)).toEqual(trust);
    const verified = await runGw(['audit', 'verify'], { home });
    expectClean(verified);
    expect(verified.stdout).toContain(`audit trail intact: ${records.length} records`);
    const events = await exportAndVerify(home, [], path.join(home, 'audit.pub'));
    expect(events).toHaveLength(records.length);
  }, 180_000);

  it('a home from before trust files (no audit-trust.json) gets one seeded from its own key, with a note saying so', async () => {
    const bare = await makeHome('gw-upgrade-bare-');
    await cp(home, bare, { recursive: true });
    await rm(path.join(bare, 'audit-trust.json'));
    const publicKey = (await readFile(path.join(bare, 'audit.pub'), 'utf8')).trim();
    const upgraded = await serve({ home: bare, logLevel: 'info' });
    await chat(upgraded, key, 1);
    await stop(upgraded);
    expect(upgraded.stdout() + upgraded.stderr()).toMatch(/audit trust file .* seeded with this home's signing key .*: its trail is from before trust files/);
    const trust = JSON.parse(await readFile(path.join(bare, 'audit-trust.json'), 'utf8')) as { keys: Array<{ public_key: string }> };
    expect(trust.keys.map((entry) => entry.public_key)).toEqual([publicKey]);
    expectClean(await runGw(['audit', 'verify'], { home: bare }));
  }, 120_000);
});

describe('a PostgreSQL store made by the old gw', () => {
  it('after gw db migrate, the new build serves on it; the old chain and the new verify together, and the old chain exports and verifies offline', async () => {
    postgres = await startPostgres();
    const store = await postgres.createDatabase();
    const admin = await makeHome('gw-upgrade-admin-');
    const home = await makeHome('gw-upgrade-instance-');
    expect((await runGw(['db', 'migrate', '--store', store], { env: { GW_HOME: admin }, bin: old.bin })).code).toBe(0);
    expect((await runGw(['teams', 'create', 'eng', '--store', store], { env: { GW_HOME: admin }, bin: old.bin })).code).toBe(0);
    const made = await runGw(['keys', 'create', '--team', 'eng', '--name', 'ci', '--store', store], { env: { GW_HOME: admin }, bin: old.bin });
    const key = /sk-gw-\w+/.exec(made.stdout + made.stderr)![0];
    const first = await serve({ bin: old.bin, home, args: ['--store', store] });
    await chat(first, key, 3);
    await stop(first);
    expectClean(await runGw(['audit', 'verify', '--store', store], { home, bin: old.bin }));
    const oldChains = await runGw(['audit', 'chains', '--store', store], { env: { GW_HOME: admin }, bin: old.bin });
    expect(oldChains.code, oldChains.stderr).toBe(0);
    const oldChain = oldChains.stdout.trim().split(/\s+/)[0]!;
    expect(oldChain).toMatch(/^[0-9a-f-]{36}$/);

    // The new build names the one step an upgrade of a store takes, and starts once it is done.
    const unmigrated = await startGatewayProcess({ home, args: ['--standalone', '--store', store], env: { GW_LOG_LEVEL: 'warn' }, timeoutMs: 60_000 }).then(
      async (gateway) => { running.push(gateway); return `started: ${gateway.url}`; }, (error: Error) => error.message);
    expect(unmigrated).toMatch(/gw db migrate/);
    expect(unmigrated).not.toMatch(/start over|accept-audit-gap/i);
    const migrated = await runGw(['db', 'migrate', '--store', store], { env: { GW_HOME: admin } });
    expect(migrated.code, migrated.stderr).toBe(0);
    const upgraded = await serve({ home, args: ['--store', store] });
    await chat(upgraded, key, 2);
    await stop(upgraded);
    expect(upgraded.stdout() + upgraded.stderr()).not.toMatch(START_OVER);

    const verified = await runGw(['audit', 'verify', '--store', store], { home });
    expectClean(verified);
    expect(verified.stdout).toMatch(/2 chains?, all intact|2 chains/);
    const withKey = await runGw(['audit', 'verify', '--store', store, '--key', path.join(home, 'audit.pub')], { env: { GW_HOME: admin } });
    expectClean(withKey);
    // The old boot's chain, written by the old build, exports and verifies offline with the new one.
    const events = await exportAndVerify(admin, ['--store', store, '--chain', oldChain], path.join(home, 'audit.pub'));
    expect(events.length).toBeGreaterThanOrEqual(5);
    await exportAndVerify(admin, ['--store', store], path.join(home, 'audit.pub'));
  }, 300_000);
});
