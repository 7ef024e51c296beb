// The witnessed inventory with real `gw serve` processes and a file witness (issue 27,
// deliverables 2 and 3): the witness files each chain under its sender (the home's instance
// id), so a home whose trail and keys were deleted and made again (a reinstall without
// gw audit rotate) is refused at start and fails verify --witness; a trail rolled back to an
// older copy is refused at start; a chain closed on purpose may be followed by a new key;
// and a second home writing to the same witness is another sender, not a finding.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createPrivateKey } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { signCheckpointWithKey, type SignedCheckpoint } from '../../../src/audit/checkpoint.js';
import { makeHome, runGwSetup as runGw, startGatewayProcess } from '../../support/gateway-process.js';
import { CHAT_BODY, GatewayJar } from '../helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });
afterAll(async () => { await jar.stopAll(); });

async function witnessFile(): Promise<string> {
  return path.join(await mkdtemp(path.join(os.tmpdir(), 'gw-witness-volume-')), 'witness.jsonl');
}

async function homeWitnessedBy(witness: string): Promise<string> {
  const home = await makeHome();
  expect((await runGw(['settings', 'set', 'audit_witness', witness], { home })).code).toBe(0);
  return home;
}

/** Starts gw on the home, makes `count` calls, stops it (its last checkpoint reaches the witness as it stops). */
async function serveCalls(home: string, count: number, args: string[] = []): Promise<void> {
  const gateway = await jar.start({ home, args });
  const key = gateway.bootstrapKey ?? (await readFile(path.join(home, 'test-key'), 'utf8')).trim();
  if (gateway.bootstrapKey) await writeFile(path.join(home, 'test-key'), key);
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-gw-vk': key, 'content-type': 'application/json' }, body: CHAT_BODY });
    expect(response.status).toBe(200);
  }
  expect(await gateway.stop()).toBe(0);
}

/** What a start that must be refused printed; fails the test when it started. */
async function refusedStart(home: string): Promise<string> {
  const started = await startGatewayProcess({ home }).then(async (gateway) => { await gateway.stop(); return null; }, (error: Error) => error.message);
  expect(started, 'gw serve started, it should have refused').not.toBeNull();
  return started!;
}

async function witnessLines(file: string): Promise<Array<SignedCheckpoint & { from?: { instance?: string } }>> {
  return (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as SignedCheckpoint & { from?: { instance?: string } });
}

async function auditKinds(home: string): Promise<Array<{ kind: string; data?: Record<string, unknown> }>> {
  return (await readFile(path.join(home, 'audit', 'audit.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { kind: string; data?: Record<string, unknown> });
}

/** A reinstall as the issue tells it, by someone thorough enough to drop the trust file too. */
async function deleteTrailAndKeys(home: string): Promise<void> {
  for (const name of ['audit', 'audit.pub', 'audit-signing.key', 'audit-trust.json']) await rm(path.join(home, name), { recursive: true, force: true });
}

it('a reinstall without gw audit rotate (trail and keys deleted): the start is refused, and verify --witness fails after --accept-audit-gap', async () => {
  const witness = await witnessFile();
  const home = await homeWitnessedBy(witness);
  await serveCalls(home, 3);
  const instance = (await readFile(path.join(home, 'instance-id'), 'utf8')).trim();
  expect((await witnessLines(witness)).every((line) => line.from?.instance === instance)).toBe(true);
  await deleteTrailAndKeys(home);

  const refused = await refusedStart(home);
  expect(refused).toContain('GW_ERR_AUDIT_WITNESS_ROLLBACK');
  expect(refused).toMatch(/the local trail is gone: the witness holds this instance's chain .* not closed/);

  await serveCalls(home, 1, ['--accept-audit-gap']);
  const gap = (await auditKinds(home)).find((record) => record.kind === 'audit.gap');
  const old = (await witnessLines(witness))[0]!;
  expect(gap?.data).toMatchObject({ witnessed_trail: old.trail, witness: `file ${witness}`, accepted_by: 'gw serve --accept-audit-gap' });
  expect((await runGw(['audit', 'verify'], { home })).code).toBe(0); // the new trail alone is intact: only the witness can tell
  const verified = await runGw(['audit', 'verify', '--witness', witness], { home });
  expect(verified.code, verified.stdout + verified.stderr).toBe(1);
  expect(verified.stdout).toMatch(/MISMATCH: replaced without closing: instance gwi_\w+'s chain .* stopped at seq \d+ without a closing record, and chain .* began under a new key/);
  expect(verified.stdout).toContain('Run gw audit rotate before reinstalling');
}, 90_000);

it('the issue\'s scenario word for word: audit/, audit.pub and audit-signing.key deleted, gw restarted (accepting the gap), one call: verify --witness FILE exits 1', async () => {
  const witness = await witnessFile();
  const home = await homeWitnessedBy(witness);
  await serveCalls(home, 3);
  for (const name of ['audit', 'audit.pub', 'audit-signing.key']) await rm(path.join(home, name), { recursive: true, force: true });
  await serveCalls(home, 1, ['--accept-audit-gap']);
  const verified = await runGw(['audit', 'verify', '--witness', witness], { home });
  expect(verified.code, verified.stdout + verified.stderr).toBe(1);
  expect(verified.stdout).toMatch(/MISMATCH: replaced without closing: .*Run gw audit rotate before reinstalling/);
}, 90_000);

it('a trail rolled back to an older copy while gw was stopped: the start is refused; --accept-audit-gap starts and records the witnessed head', async () => {
  const witness = await witnessFile();
  const home = await homeWitnessedBy(witness);
  await serveCalls(home, 2);
  const backup = await mkdtemp(path.join(os.tmpdir(), 'gw-audit-backup-'));
  await cp(path.join(home, 'audit'), backup, { recursive: true });
  await serveCalls(home, 3);
  const witnessed = (await witnessLines(witness)).at(-1)!;
  await rm(path.join(home, 'audit'), { recursive: true });
  await cp(backup, path.join(home, 'audit'), { recursive: true });
  await rm(path.join(home, 'audit', 'audit.lock'), { force: true });
  expect((await runGw(['audit', 'verify'], { home })).code).toBe(0); // the old copy is intact on its own

  const refused = await refusedStart(home);
  expect(refused).toContain('GW_ERR_AUDIT_WITNESS_ROLLBACK');
  expect(refused).toMatch(new RegExp(`the local trail ends at seq \\d+, the witness holds its checkpoint at seq ${witnessed.seq}`));

  await serveCalls(home, 1, ['--accept-audit-gap']);
  const gap = (await auditKinds(home)).find((record) => record.kind === 'audit.gap');
  expect(gap?.data).toMatchObject({ witnessed_trail: witnessed.trail, witnessed_seq: witnessed.seq, witnessed_hash: witnessed.hash });
  expect((await runGw(['audit', 'verify', '--witness', witness], { home })).code).toBe(1);
}, 90_000);

it('a chain closed on purpose may be followed by a new chain under a new key: start and verify --witness pass', async () => {
  const witness = await witnessFile();
  const home = await homeWitnessedBy(witness);
  await serveCalls(home, 2);
  // What gw audit rotate leaves at the witness: the old chain's last checkpoint, closed and signed by the old key.
  const last = (await witnessLines(witness)).at(-1)!;
  const oldKey = createPrivateKey(await readFile(path.join(home, 'audit-signing.key')));
  const closed = signCheckpointWithKey(oldKey, last.public_key, last.trail, { seq: last.seq, hash: last.hash }, true);
  await writeFile(witness, `${JSON.stringify({ ...closed, received_at: new Date().toISOString(), from: last.from })}\n`, { flag: 'a' });
  await deleteTrailAndKeys(home);

  await serveCalls(home, 2);
  const chains = new Set((await witnessLines(witness)).map((line) => line.trail));
  expect(chains.size).toBe(2);
  const verified = await runGw(['audit', 'verify', '--witness', witness], { home });
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/consistent \(witnessed up to seq \d+\)/);
}, 90_000);

it('a second machine writing to the same witness is another sender: both homes verify, each with a note', async () => {
  const witness = await witnessFile();
  const [first, second] = [await homeWitnessedBy(witness), await homeWitnessedBy(witness)];
  await serveCalls(first, 2);
  await serveCalls(second, 2);
  const senders = new Set((await witnessLines(witness)).map((line) => line.from?.instance));
  expect(senders.size).toBe(2);
  expect(senders.has(undefined)).toBe(false);
  for (const home of [first, second]) {
    const verified = await runGw(['audit', 'verify', '--witness', witness], { home });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stderr).toMatch(/note: the witness also holds 1 chain\(s\) of 1 other sender\(s\)/);
  }
}, 90_000);
