// What the instance keeps of its witnesses' answers: a cosignature of the checkpoint it sent,
// verifying, is appended to audit/cosignatures.jsonl (0600) in the order received and read back;
// one of another checkpoint, or forged, is logged and dropped; a failed write is logged and
// does not stop the next.
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signCheckpointWithKey } from '../../src/audit/checkpoint.js';
import { cosignatureFileOf, readCosignatureFile } from '../../src/audit/cosignature-file.js';
import { signCosignature } from '../../src/audit/cosignature.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';
import { CosignatureKeeper, fileCosignatureSink } from '../../src/gateway/cosignature-keeper.js';

const instance = generateKeyPairSync('ed25519').privateKey;
const witness = generateKeyPairSync('ed25519').privateKey;
const TRAIL = 'a'.repeat(64);
const at = (seq: number) => signCheckpointWithKey(instance, rawPublicKey(instance), TRAIL, { seq, hash: String(seq % 10).repeat(64) });
const cosign = (seq: number) => signCosignature(witness, rawPublicKey(witness), at(seq));

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'gw-cosignature-keeper-'));
  await mkdir(path.join(home, 'audit'));
});
afterEach(async () => { await rm(home, { recursive: true, force: true }); });

describe('CosignatureKeeper', () => {
  it('keeps the cosignatures of the checkpoints sent, in order, and drops (logging) any other', async () => {
    const logged: string[] = [];
    const keeper = new CosignatureKeeper((message) => logged.push(message), () => new Date('2026-11-27T12:00:00.000Z'));
    keeper.storeIn(fileCosignatureSink(home));
    keeper.keep(at(1), cosign(1), 'hub http://hub');
    keeper.keep(at(2), cosign(3), 'hub http://hub');
    keeper.keep(at(4), { ...cosign(4), signature: cosign(5).signature }, 'hub http://hub');
    keeper.keep(at(6), cosign(6), 'hub http://hub');
    await keeper.settle();
    const { cosignatures, damaged } = await readCosignatureFile(cosignatureFileOf(home));
    expect(damaged).toBe(0);
    expect(cosignatures.map((entry) => [entry.seq, entry.witness, entry.received_at, entry.checkpoint_signature])).toEqual([
      [1, 'hub http://hub', '2026-11-27T12:00:00.000Z', at(1).signature], [6, 'hub http://hub', '2026-11-27T12:00:00.000Z', at(6).signature],
    ]);
    expect((await stat(cosignatureFileOf(home))).mode & 0o777).toBe(0o600);
    expect(logged).toEqual([
      expect.stringContaining('cosignature is of another checkpoint than seq 2'),
      expect.stringContaining('does not verify'),
    ]);
    expect((await readCosignatureFile(cosignatureFileOf(home), 'b'.repeat(64))).cosignatures).toEqual([]);
  });

  it('logs a write that fails and goes on with the next', async () => {
    const logged: string[] = [];
    const keeper = new CosignatureKeeper((message) => logged.push(message));
    let calls = 0;
    keeper.storeIn(async () => { calls += 1; if (calls === 1) throw new Error('disk full'); });
    keeper.keep(at(1), cosign(1), 'hub h');
    keeper.keep(at(2), cosign(2), 'hub h');
    await keeper.settle();
    expect(calls).toBe(2);
    expect(logged).toEqual([expect.stringContaining('cannot keep its cosignature of seq 1: disk full')]);
  });
});
