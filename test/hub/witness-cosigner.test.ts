// The hub's cosignature of what it witnesses: each accepted checkpoint (a duplicate too) is
// answered with an Ed25519 cosignature under the hub's own witness key (witness-signing.key,
// 0600, kept across restarts, printed by gw audit witness-key), a closing checkpoint's with
// "closed"; a refused checkpoint gets none.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signCheckpointWithKey } from '../../src/audit/checkpoint.js';
import { isCosignatureValid } from '../../src/audit/cosignature.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';
import { HubWitness } from '../../src/hub/witness-checkpoints.js';

const ALICE = { team: 'eng', person: 'alice@example.com', key_id: 'vk_1' };
const TRAIL = 'a'.repeat(64);
const signer = generateKeyPairSync('ed25519').privateKey;
const signerKey = rawPublicKey(signer);
const at = (seq: number, hash = 'b'.repeat(64), closed = false) => signCheckpointWithKey(signer, signerKey, TRAIL, { seq, hash }, closed);

let home: string;
beforeEach(async () => { home = await mkdtemp(path.join(os.tmpdir(), 'gw-hub-cosigner-')); });
afterEach(async () => { await rm(home, { recursive: true, force: true }); });

describe('the hub cosigns what it accepts', () => {
  it('answers an accepted checkpoint, and a duplicate, with a cosignature under its witness key; a refused one with none', async () => {
    const witness = new HubWitness(home, () => new Date('2026-02-01T00:00:00.000Z'));
    const first = await witness.receive(at(3), ALICE);
    if (!first.accepted || !first.cosignature) throw new Error('expected an accepted, cosigned verdict');
    const witnessKey = (await readFile(path.join(home, 'witness.pub'), 'utf8')).trim();
    expect(first.cosignature).toMatchObject({ trail: TRAIL, seq: 3, hash: 'b'.repeat(64), witness_public_key: witnessKey });
    expect(witnessKey).not.toBe(signerKey);
    expect(isCosignatureValid(first.cosignature)).toBe(true);
    expect((await stat(path.join(home, 'witness-signing.key'))).mode & 0o777).toBe(0o600);
    const again = await witness.receive(at(3), ALICE);
    expect(again).toMatchObject({ accepted: true, duplicate: true, cosignature: first.cosignature });
    const behind = await witness.receive(at(2, 'c'.repeat(64)), ALICE);
    expect(behind.accepted).toBe(false);
    expect('cosignature' in behind).toBe(false);
  });

  it('keeps its key across restarts, and cosigns a closing checkpoint with "closed"', async () => {
    const before = await new HubWitness(home, () => new Date()).receive(at(1), ALICE);
    const after = await new HubWitness(home, () => new Date()).receive(at(4, 'd'.repeat(64), true), ALICE);
    if (!before.accepted || !after.accepted) throw new Error('expected accepted verdicts');
    expect(after.cosignature?.witness_public_key).toBe(before.cosignature?.witness_public_key);
    expect(after.cosignature).toMatchObject({ seq: 4, closed: true });
    expect(isCosignatureValid(after.cosignature!)).toBe(true);
    expect(isCosignatureValid({ ...after.cosignature!, closed: undefined })).toBe(false);
  });
});
