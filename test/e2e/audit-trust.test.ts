// A trail no insider can quietly start over (issue 27): `gw audit verify` trusts only the keys in
// the operator's trust file (or given with --key), gw serve seeds that file at its first start
// and refuses a key it does not hold, and a start whose checkpoint is gone while records exist
// is refused as verify refuses it. Before: a reinstall (audit/, audit.pub and the signing key
// deleted) restarted silently under a new key; cutting the last records and deleting
// checkpoint.json restarted with no warning; a re-signed trail verified with exit 0.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { rechainUnderNewKey } from './audit-witness/rechain.js';
import { CHAT_BODY, GatewayJar, auditFile, readAudit } from './helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });
afterAll(async () => { await jar.stopAll(); });

async function writtenHome(): Promise<GatewayProcess> {
  const gateway = await jar.start();
  for (let index = 0; index < 2; index += 1) {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-gw-vk': gateway.bootstrapKey!, 'content-type': 'application/json' }, body: CHAT_BODY });
    await response.text();
  }
  expect(await gateway.stop()).toBe(0);
  return gateway;
}

async function refusedStart(home: string, args: string[] = []): Promise<string> {
  const error = await startGatewayProcess({ home, args }).then(() => null, (caught: unknown) => caught);
  expect(error, 'gw serve started on a trail verify refuses').not.toBeNull();
  return String(error);
}

const trustedKeys = async (home: string) => (JSON.parse(await readFile(path.join(home, 'audit-trust.json'), 'utf8')) as { keys: Array<{ public_key: string }> }).keys.map((key) => key.public_key);

it('the first start seeds the trust file with the home\'s key; a home from before trust files is seeded at its next start, and the log says so', async () => {
  const gateway = await writtenHome();
  const own = (await readFile(path.join(gateway.home, 'audit.pub'), 'utf8')).trim();
  expect(await trustedKeys(gateway.home)).toEqual([own]);
  const listed = await runGw(['audit', 'trust', 'list'], { home: gateway.home });
  expect(listed.stdout).toContain(own);
  // As a home written by an older gw: a trail, and no trust file.
  await rm(path.join(gateway.home, 'audit-trust.json'));
  const upgraded = await jar.start({ home: gateway.home });
  expect(await upgraded.stop()).toBe(0);
  expect(upgraded.stdout() + upgraded.stderr()).toMatch(/audit trust file .* seeded with this home's signing key [0-9a-f]{16}: its trail is from before trust files/);
  expect(await trustedKeys(gateway.home)).toEqual([own]);
  expect((await runGw(['audit', 'verify'], { home: gateway.home })).code).toBe(0);
}, 90_000);

it('a reinstall (trail, audit.pub and signing key deleted) refuses the next start; --accept-audit-gap records it and trusts the new key', async () => {
  const { home } = await writtenHome();
  const [old] = await trustedKeys(home);
  await rm(path.join(home, 'audit'), { recursive: true });
  await rm(path.join(home, 'audit.pub'));
  await rm(path.join(home, 'audit-signing.key'));
  const message = await refusedStart(home);
  expect(message).toMatch(/signing key [0-9a-f]{16} is not in .*audit-trust\.json/);
  expect(message).toContain('--accept-audit-gap');
  const gateway = await jar.start({ home, args: ['--accept-audit-gap'] });
  expect(await gateway.stop()).toBe(0);
  const gap = (await readAudit(home)).find((record) => record.kind === 'audit.gap');
  expect(gap?.data).toMatchObject({ reason: expect.stringContaining('is not in'), accepted_by: 'gw serve --accept-audit-gap' });
  const keys = await trustedKeys(home);
  expect(keys).toHaveLength(2);
  expect(keys[0]).toBe(old);
  expect((await runGw(['audit', 'verify'], { home })).code).toBe(0);
}, 90_000);

it('the last records cut and checkpoint.json deleted: the start refuses, as verify does', async () => {
  const { home } = await writtenHome();
  const lines = (await readFile(auditFile(home), 'utf8')).split('\n').filter(Boolean);
  await writeFile(auditFile(home), `${lines.slice(0, -2).join('\n')}\n`);
  await rm(path.join(home, 'audit', 'checkpoint.json'));
  expect(await refusedStart(home)).toContain('checkpoint.json is missing while the log holds');
  const verify = await runGw(['audit', 'verify'], { home });
  expect(verify.code).toBe(1);
  expect(verify.stdout).toContain('checkpoint.json is missing');
}, 90_000);

it('a trail re-signed under a new key fails verify (fail closed), --allow-untrusted says UNTRUSTED, and the start refuses', async () => {
  const { home } = await writtenHome();
  await rechainUnderNewKey(home, 2, { rewriteTrust: false });
  const verify = await runGw(['audit', 'verify'], { home });
  expect(verify.code).toBe(1);
  expect(verify.stdout).toMatch(/BROKEN.*signed by key [0-9a-f]{16}, which is not trusted/);
  const looking = await runGw(['audit', 'verify', '--allow-untrusted'], { home });
  expect(looking.code).toBe(0);
  expect(looking.stdout).toContain('UNTRUSTED');
  expect(await refusedStart(home)).toContain('is not in');
}, 90_000);

it('gw audit trust add and remove decide which exported trails verify', async () => {
  const other = await writtenHome();
  const auditor = await makeHome('gw-auditor-');
  const exported = auditFile(other.home);
  // An auditor's home with a trust file of its own: the other home's key is not in it.
  expect((await runGw(['audit', 'trust', 'add', path.join(auditor, 'nothing.pub')], { home: auditor })).code).toBe(2);
  const fresh = await jar.start({ home: auditor });
  await fresh.stop();
  const refused = await runGw(['audit', 'verify', '--file', exported, '--home', auditor], {});
  expect(refused.code).toBe(1);
  const added = await runGw(['audit', 'trust', 'add', path.join(other.home, 'audit.pub'), '--name', 'the other instance'], { home: auditor });
  expect(added.stdout).toMatch(/^trusted: [0-9a-f]{16}/);
  expect((await runGw(['audit', 'verify', '--file', exported], { home: auditor })).code).toBe(0);
  const fingerprint = /trusted: ([0-9a-f]{16})/.exec(added.stdout)![1]!;
  expect((await runGw(['audit', 'trust', 'remove', fingerprint], { home: auditor })).code).toBe(0);
  expect((await runGw(['audit', 'verify', '--file', exported], { home: auditor })).code).toBe(1);
}, 90_000);
