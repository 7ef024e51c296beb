// Issue 36, "an offline rotation hides a rollback", with real `gw` processes and a file witness:
// audit.jsonl cut back behind what the witness holds and an old checkpoint put back. `gw audit
// rotate` holds the chain against the witness first and refuses it, changing nothing; a rotation
// that went through anyway (as an older gw's did: the witness sent a closed checkpoint below
// what it holds) is a rollback at the next start; `--accept-audit-gap` records the gap once.
import { cp, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { makeHome, runGw, startGatewayProcess } from '../../support/gateway-process.js';
import { CHAT_BODY, GatewayJar, waitUntil } from '../helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });
afterAll(async () => { await jar.stopAll(); });

interface WitnessLine { trail: string; seq: number; hash: string; closed?: true }
interface Line { kind: string; data?: Record<string, unknown> }

const readLines = async <T>(file: string): Promise<T[]> => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as T);

async function serveCalls(home: string, count: number, args: string[] = []): Promise<void> {
  const gateway = await jar.start({ home, args: ['--standalone', ...args], env: { GW_LOG_LEVEL: 'warn' } });
  const key = gateway.bootstrapKey ?? (await readFile(path.join(home, 'test-key'), 'utf8')).trim();
  if (gateway.bootstrapKey) await writeFile(path.join(home, 'test-key'), key);
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-gw-vk': key, 'content-type': 'application/json' }, body: CHAT_BODY });
    expect(response.status).toBe(200);
    await response.text();
  }
  expect(await gateway.stop()).toBe(0);
}

async function refusedStart(home: string): Promise<string> {
  const started = await startGatewayProcess({ home, args: ['--standalone'] }).then(async (gateway) => { await gateway.stop(); return null; }, (error: Error) => error.message);
  expect(started, 'gw serve started, it should have refused').not.toBeNull();
  return started!;
}

/**
 * The attack: a home served twice with a file witness, its audit/ then put back as it was
 * after the first run (audit.jsonl cut back, the old checkpoint restored). Returns the newest head
 * the witness holds, which the restored chain no longer reaches.
 */
async function rolledBackHome(): Promise<{ home: string; witness: string; witnessed: WitnessLine }> {
  const home = await makeHome();
  const witness = path.join(await makeHome('gw-witness-volume-'), 'witness.jsonl');
  const set = await runGw(['settings', 'set', 'audit_witness', witness], { home });
  expect(set.code, set.stderr).toBe(0);
  await serveCalls(home, 2);
  const backup = await mkdtemp(path.join(os.tmpdir(), 'gw-audit-backup-'));
  await cp(path.join(home, 'audit'), backup, { recursive: true });
  await serveCalls(home, 3);
  const witnessed = (await readLines<WitnessLine>(witness)).at(-1)!;
  await rm(path.join(home, 'audit'), { recursive: true });
  await cp(backup, path.join(home, 'audit'), { recursive: true });
  await rm(path.join(home, 'audit', 'audit.lock'), { force: true });
  expect((await runGw(['audit', 'verify'], { home })).code).toBe(0); // the old copy is intact on its own: only the witness can tell
  return { home, witness, witnessed };
}

/** Every file of the home's audit side, with its bytes, to show a refusal changed nothing. */
async function snapshot(home: string, witness: string): Promise<Record<string, string>> {
  const files: Record<string, string> = { witness: await readFile(witness, 'utf8') };
  for (const name of await readdir(path.join(home, 'audit'), { recursive: true })) {
    if (name === 'audit.lock') continue;
    files[`audit/${name}`] = await readFile(path.join(home, 'audit', name), 'utf8').catch(() => '<folder>');
  }
  for (const name of ['audit-signing.key', 'audit.pub', 'audit-signing.key.next', 'audit-rotation.json']) files[name] = await readFile(path.join(home, name), 'utf8').catch(() => '<absent>');
  return files;
}

it('the issue\'s attack: gw audit rotate refuses the cut chain and changes nothing; gw serve refuses it too', async () => {
  const { home, witness, witnessed } = await rolledBackHome();
  const before = await snapshot(home, witness);

  const rotated = await runGw(['audit', 'rotate'], { home });
  expect(rotated.code, rotated.stdout).toBe(1);
  expect(rotated.stderr).toContain('GW_ERR_AUDIT_ROTATE_BEHIND_WITNESS');
  expect(rotated.stderr).toMatch(new RegExp(`the local trail ends at seq \\d+, the witness holds its checkpoint at seq ${witnessed.seq}`));
  expect(rotated.stderr).toContain('run gw audit rotate --accept-audit-gap');
  expect(await snapshot(home, witness)).toEqual(before); // nothing half-rotated: no closing record, no key, no journal, nothing sent

  expect(await refusedStart(home)).toContain('GW_ERR_AUDIT_WITNESS_ROLLBACK');
}, 120_000);

it('a rotation that hid the rollback (the witness got a closed checkpoint below what it holds) is refused at start; accepted once, it stays accepted', async () => {
  const { home, witness, witnessed } = await rolledBackHome();
  // An older gw audit rotate compared nothing and sent the witness the closed checkpoint and the new chain's first.
  // The same sends, to a decoy witness the rotation compares with (it holds nothing), then copied to the real one.
  const decoy = path.join(await makeHome('gw-decoy-volume-'), 'witness.jsonl');
  expect((await runGw(['settings', 'set', 'audit_witness', decoy], { home })).code).toBe(0);
  const rotated = await runGw(['audit', 'rotate', '--json'], { home });
  expect(rotated.code, rotated.stderr).toBe(0);
  const summary = JSON.parse(rotated.stdout) as { closed_trail: string; closed_seq: number };
  expect(summary.closed_trail).toBe(witnessed.trail);
  expect(summary.closed_seq).toBeLessThan(witnessed.seq);
  await writeFile(witness, await readFile(decoy, 'utf8'), { flag: 'a' });
  expect((await runGw(['settings', 'set', 'audit_witness', witness], { home })).code).toBe(0);

  const refused = await refusedStart(home);
  expect(refused).toContain('GW_ERR_AUDIT_WITNESS_ROLLBACK');
  expect(refused).toContain(`was closed at seq ${summary.closed_seq}, but the witness holds it up to seq ${witnessed.seq}`);

  await serveCalls(home, 1, ['--accept-audit-gap']);
  const gaps = (await readLines<Line>(path.join(home, 'audit', 'audit.jsonl'))).filter((line) => line.kind === 'audit.gap');
  expect(gaps.map((gap) => gap.data)).toEqual([expect.objectContaining({ witnessed_trail: witnessed.trail, witnessed_seq: witnessed.seq, accepted_by: 'gw serve --accept-audit-gap' })]);
  await serveCalls(home, 1); // the gap is on record: the next start is not refused again
  expect((await readLines<Line>(path.join(home, 'audit', 'audit.jsonl'))).filter((line) => line.kind === 'audit.gap')).toHaveLength(1);
  expect((await runGw(['audit', 'verify', '--witness', witness], { home })).code).toBe(1); // still a finding for the auditor
}, 180_000);

it('gw audit rotate --accept-audit-gap rotates the cut chain and records the gap in it; the next start takes it as accepted', async () => {
  const { home, witness, witnessed } = await rolledBackHome();
  const rotated = await runGw(['audit', 'rotate', '--accept-audit-gap', '--json'], { home });
  expect(rotated.code, rotated.stderr).toBe(0);
  const summary = JSON.parse(rotated.stdout) as { closed_trail: string; closed_seq: number };
  const closedChain = await readLines<Line>(path.join(home, 'audit', 'chains', `${summary.closed_trail}.jsonl`));
  expect(closedChain.at(-1)?.kind).toBe('audit.chain_closed');
  expect(closedChain.at(-2)).toMatchObject({
    kind: 'audit.gap', data: { witness: `file ${witness}`, witnessed_trail: witnessed.trail, witnessed_seq: witnessed.seq, witnessed_hash: witnessed.hash, accepted_by: 'gw audit rotate --accept-audit-gap' },
  });
  await serveCalls(home, 1);
  expect((await readLines<Line>(path.join(home, 'audit', 'audit.jsonl'))).some((line) => line.kind === 'audit.gap')).toBe(false);
  expect((await runGw(['audit', 'verify'], { home })).code).toBe(0);
}, 180_000);

it('through the admin API: a running gw (its witness away at start) refuses to rotate the cut chain with a 409, and rotates with accept_audit_gap', async () => {
  const { home, witness, witnessed } = await rolledBackHome();
  const volume = path.dirname(witness);
  await rename(volume, `${volume}-away`); // unmounted at start: the start compares nothing
  const gateway = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  await rename(`${volume}-away`, volume);
  const token = (await runGw(['admin', 'tokens', 'create', '--name', 'rotator'], { home })).stdout.trim();
  const rotate = (body: object) => fetch(`${gateway.url}/admin/api/audit/rotate`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  await waitUntil(async () => (await fetch(`${gateway.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status === 200, { timeoutMs: 15_000 });

  const refused = await rotate({});
  const answer = await refused.json() as { error: { code: string; message: string } };
  expect(refused.status).toBe(409);
  expect(answer.error.code).toBe('GW_ERR_AUDIT_ROTATE_BEHIND_WITNESS');
  expect(answer.error.message).toMatch(new RegExp(`the witness holds its checkpoint at seq ${witnessed.seq}.*gw audit rotate --accept-audit-gap`));
  expect(await readdir(path.join(home, 'audit'))).not.toContain('chains');

  const rotated = await runGw(['audit', 'rotate', '--hub', gateway.url, '--accept-audit-gap', '--json'], { home, env: { GW_ADMIN_TOKEN: token } });
  expect(rotated.code, rotated.stderr).toBe(0);
  const summary = JSON.parse(rotated.stdout) as { closed_trail: string };
  expect(summary.closed_trail).toBe(witnessed.trail);
  const closedChain = await readLines<Line>(path.join(home, 'audit', 'chains', `${summary.closed_trail}.jsonl`));
  expect(closedChain.find((line) => line.kind === 'audit.gap')?.data).toMatchObject({
    witnessed_trail: witnessed.trail, witnessed_seq: witnessed.seq, accepted_by: 'POST /admin/api/audit/rotate (accept_audit_gap)',
  });
  expect(await gateway.stop()).toBe(0);
}, 180_000);
