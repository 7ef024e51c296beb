// Ed25519 checkpoints: verify needs only the public key; a checkpoint under another key, a
// bad signature or another trail's id fails; a trail written with the old HMAC checkpoint
// still opens and verifies, and its next checkpoint is a signed one.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditGapError, openAuditTrail } from '../../src/audit/audit-trail.js';
import { isSignatureValid, parseCheckpoint, signCheckpoint, signCheckpointWithKey, trailIdOf } from '../../src/audit/checkpoint.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';
import { verifyFile } from '../../src/audit/verify-file.js';
import { verifyLines } from '../../src/audit/verify.js';
import { buildChain, makeTempHome, steppingClock, type TempHome } from './helpers.js';

const lines = buildChain(10);
const hashOf = (line: string) => (JSON.parse(line) as { hash: string }).hash;
const head = { seq: 10, hash: hashOf(lines[9]!) };
const trail = trailIdOf(hashOf(lines[0]!));

function keyPair() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}
const key = keyPair();

describe('verifyLines with a signed checkpoint', () => {
  const signed = signCheckpointWithKey(key.privateKey, key.publicKey, trail, head);

  it('passes with the pinned public key alone, and reports the trail id', async () => {
    const result = await verifyLines(lines, { checkpoint: signed, publicKey: key.publicKey, requireSeal: true });
    expect(result).toMatchObject({ ok: true, records: 10, trail, warnings: [] });
  });

  it('fails under another key, with a bad signature, or naming another trail', async () => {
    const other = keyPair();
    const byOther = signCheckpointWithKey(other.privateKey, other.publicKey, trail, head);
    expect((await verifyLines(lines, { checkpoint: byOther, publicKey: key.publicKey })).firstBad?.reason).toMatch(/signed by another key than audit.pub/);
    const edited = { ...signed, seq: 9, hash: hashOf(lines[8]!) };
    expect((await verifyLines(lines, { checkpoint: edited, publicKey: key.publicKey })).firstBad?.reason).toMatch(/signature does not verify/);
    const elsewhere = signCheckpointWithKey(key.privateKey, key.publicKey, 'e'.repeat(64), head);
    expect((await verifyLines(lines, { checkpoint: elsewhere, publicKey: key.publicKey })).firstBad?.reason).toMatch(/names another trail/);
  });

  it('without a pinned key checks the signature against the key it names and warns; in its home, a missing audit.pub is a finding', async () => {
    const loose = await verifyLines(lines, { checkpoint: signed });
    expect(loose.ok).toBe(true);
    expect(loose.warnings).toEqual(['no pinned public key (audit.pub): the checkpoint was checked against the key it names']);
    expect((await verifyLines(lines, { checkpoint: signed, requireSeal: true })).firstBad?.reason).toMatch(/audit.pub is missing/);
  });
});

describe('the closing checkpoint of a rotated chain', () => {
  it('signs the closed flag: removing it, or adding it to an open checkpoint, breaks the signature', () => {
    const closed = signCheckpointWithKey(key.privateKey, key.publicKey, trail, head, true);
    expect(closed.closed).toBe(true);
    expect(isSignatureValid(parseCheckpoint(JSON.stringify(closed)))).toBe(true);
    const { closed: _dropped, ...reopened } = closed;
    expect(isSignatureValid(reopened)).toBe(false);
    const open = signCheckpointWithKey(key.privateKey, key.publicKey, trail, head);
    expect(isSignatureValid({ ...open, closed: true })).toBe(false);
    expect(() => parseCheckpoint(JSON.stringify({ ...open, closed: 'yes' }))).toThrow(/closed is not true/);
  });
});

describe('a trail written with the legacy HMAC checkpoint', () => {
  let home: TempHome;
  const legacyKey = randomBytes(32);
  beforeEach(async () => {
    home = await makeTempHome();
    await mkdir(home.dir, { recursive: true });
    await writeFile(home.logFile, `${lines.join('\n')}\n`);
    await writeFile(home.keyPath, legacyKey);
  });
  afterEach(async () => { await home.remove(); });

  it('opens, and the next checkpoint is signed with the new key under the trail id of its record 1', async () => {
    await writeFile(path.join(home.dir, 'checkpoint.json'), JSON.stringify(signCheckpoint(legacyKey, head)));
    expect((await verifyFile(home.logFile, { requireSeal: true })).ok).toBe(true);
    const opened = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always', now: steppingClock() });
    await opened.close();
    const checkpoint = parseCheckpoint(await readFile(path.join(home.dir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint).toMatchObject({ v: 2, trail, public_key: (await readFile(path.join(home.home, 'audit.pub'), 'utf8')).trim() });
    expect((await verifyFile(home.logFile, { requireSeal: true })).ok).toBe(true);
  });

  it('a cut log under an HMAC checkpoint still refuses the start', async () => {
    await writeFile(path.join(home.dir, 'checkpoint.json'), JSON.stringify(signCheckpoint(legacyKey, { seq: 12, hash: 'a'.repeat(64) })));
    await expect(openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always' })).rejects.toThrow(AuditGapError);
  });
});
