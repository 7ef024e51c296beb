// A trail cut while gw is stopped is caught: the next start refuses (unless the operator
// accepts the gap, which is then a record of the trail), and `gw audit verify` fails when the
// checkpoint or the key is gone. Before, a restart silently re-sealed the cut log, and a
// deleted checkpoint or a replaced key ended with exit 0.
import { generateKeyPairSync } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { CHAT_BODY, GatewayJar, auditFile, readAudit } from './helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });
afterAll(async () => { await jar.stopAll(); });

/** A home whose trail a real gw wrote: start, three calls, a clean stop. */
async function writtenHome(): Promise<GatewayProcess> {
  const gateway = await jar.start();
  for (let index = 0; index < 3; index += 1) {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-gw-vk': gateway.bootstrapKey!, 'content-type': 'application/json' }, body: CHAT_BODY });
    await response.text();
  }
  expect(await gateway.stop()).toBe(0);
  return gateway;
}

async function cutLastRecords(home: string, count: number): Promise<void> {
  const lines = (await readFile(auditFile(home), 'utf8')).split('\n').filter(Boolean);
  await writeFile(auditFile(home), `${lines.slice(0, -count).join('\n')}\n`);
}

async function refusedStart(home: string, args: string[] = []): Promise<string> {
  const error = await startGatewayProcess({ home, args }).then(() => null, (caught: unknown) => caught);
  expect(error, 'gw serve started on a cut trail').not.toBeNull();
  return String(error);
}

it('a log cut while gw was stopped refuses the next start, naming what is missing and the way out', async () => {
  const { home } = await writtenHome();
  const before = (await readAudit(home)).length;
  await cutLastRecords(home, 2);
  const message = await refusedStart(home);
  expect(message).toContain(`records ${before - 1}–${before} are missing`);
  expect(message).toContain('--accept-audit-gap');
  // Nothing was appended, so the evidence stays as it was found.
  expect((await readAudit(home)).length).toBe(before - 2);
  const verify = await runGw(['audit', 'verify'], { home });
  expect(verify.code).toBe(1);
  expect(verify.stdout).toContain('truncated');
});

it('with --accept-audit-gap it starts, and the gap is a record of the trail', async () => {
  const { home } = await writtenHome();
  const before = await readAudit(home);
  await cutLastRecords(home, 1);
  const gateway = await jar.start({ home, args: ['--accept-audit-gap'] });
  expect(await gateway.stop()).toBe(0);
  const records = await readAudit(home);
  const gap = records.find((record) => record.kind === 'audit.gap')!;
  expect(gap.data).toMatchObject({ checkpoint_seq: before.length, log_seq: before.length - 1, checkpoint_hash: before.at(-1)!.hash });
  const verify = await runGw(['audit', 'verify'], { home });
  expect(verify.code, verify.stdout + verify.stderr).toBe(0);
});

it('a deleted checkpoint fails gw audit verify, naming the checkpoint', async () => {
  const { home } = await writtenHome();
  await rm(path.join(home, 'audit', 'checkpoint.json'));
  const verify = await runGw(['audit', 'verify'], { home });
  expect(verify.code).toBe(1);
  expect(verify.stdout).toContain('checkpoint.json is missing');
});

it('a deleted audit.pub or a replaced signing key fails verify, and the next start refuses', async () => {
  const { home } = await writtenHome();
  await rm(path.join(home, 'audit.pub'));
  const missing = await runGw(['audit', 'verify'], { home });
  expect(missing.code).toBe(1);
  expect(missing.stdout).toContain('audit.pub is missing');
  // A new key pair, as someone re-signing the checkpoint would make.
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  await writeFile(path.join(home, 'audit-signing.key'), privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  await writeFile(path.join(home, 'audit.pub'), `${publicKey.export({ format: 'jwk' }).x}\n`);
  const replaced = await runGw(['audit', 'verify'], { home });
  expect(replaced.code).toBe(1);
  expect(replaced.stdout).toContain('signed by another key than audit.pub');
  expect(await refusedStart(home)).toContain('audit-signing.key');
});

it('verify on a home with no trail yet says so (exit 2), not a raw ENOENT', async () => {
  const home = await makeHome();
  const result = await runGw(['audit', 'verify'], { home });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('no audit trail yet');
  expect(result.stderr).not.toContain('ENOENT');
});
