// The witness comparison, pure: a witnessed {trail, seq, hash} must be a point of the local
// chain and a floor it reaches; the first key a witness saw for a trail is pinned.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCheckpointWithKey, trailIdOf } from '../../src/audit/checkpoint.js';
import { compareWithWitness, type LocalTrail, type WitnessedCheckpoint } from '../../src/audit/compare-witness.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';
import { buildChain } from './helpers.js';

const lines = buildChain(20);
const hashes = lines.map((line) => (JSON.parse(line) as { hash: string }).hash);
const trail = trailIdOf(hashes[0]!);

function keyPair() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}
const key = keyPair();

function witnessed(seq: number, signer = key, hash = hashes[seq - 1]!, trailId = trail): WitnessedCheckpoint {
  return { ...signCheckpointWithKey(signer.privateKey, signer.publicKey, trailId, { seq, hash }), received_at: '2026-01-01T00:00:00.000Z' };
}

function local(end: number, publicKey = key.publicKey): LocalTrail {
  const hashesAt = new Map(hashes.slice(0, end).map((hash, index) => [index + 1, hash]));
  return { trail, publicKey, head: { seq: end, hash: hashes[end - 1]! }, hashesAt };
}

describe('compareWithWitness', () => {
  it('a trail that passes through every witnessed point and reaches the newest is consistent', () => {
    const result = compareWithWitness(local(20), [witnessed(1), witnessed(10), witnessed(20)]);
    expect(result).toEqual({ ok: true, findings: [], notes: [], witnessedSeq: 20 });
  });

  it('a log cut below the newest witnessed seq is truncated or rolled back', () => {
    const result = compareWithWitness(local(12), [witnessed(1), witnessed(18)]);
    expect(result.ok).toBe(false);
    expect(result.findings).toEqual([expect.stringMatching(/^truncated or rolled back: the witness holds a checkpoint at seq 18 .* the local log ends at seq 12$/)]);
  });

  it('a record that differs from the witnessed hash at its seq is a rewrite', () => {
    const changed = local(20);
    const hashesAt = new Map(changed.hashesAt);
    hashesAt.set(10, 'f'.repeat(64));
    const result = compareWithWitness({ ...changed, hashesAt }, [witnessed(10)]);
    expect(result.findings).toEqual([expect.stringMatching(/^rewritten: record 10 is not the one the witness saw/)]);
  });

  it('a trail re-chained under a new key is a mismatch against the pinned key, even when the witness got the new checkpoints too', () => {
    const other = keyPair();
    expect(compareWithWitness(local(20, other.publicKey), [witnessed(5), witnessed(20)]).findings[0]).toMatch(/^re-chained under a new key/);
    const sentLater = compareWithWitness(local(20), [witnessed(5), witnessed(20, other)]);
    expect(sentLater.findings[0]).toMatch(/signed by another key .*re-chained it under a new key/);
  });

  it('a trail the witness never saw fails, and other trails from the sender are named', () => {
    const result = compareWithWitness(local(20), [witnessed(3, key, 'a'.repeat(64), 'b'.repeat(64))]);
    expect(result.ok).toBe(false);
    expect(result.findings[0]).toMatch(/holds no checkpoint of this trail .*1 other trail/);
  });

  it('an empty local log while the witness holds checkpoints is a deleted trail', () => {
    const result = compareWithWitness({ head: null, hashesAt: new Map() }, [witnessed(4)]);
    expect(result.findings[0]).toMatch(/the local log is empty.*deleted/);
  });

  it('a witnessed checkpoint with a bad signature is ignored and noted', () => {
    const forged = { ...witnessed(20), hash: 'e'.repeat(64) };
    const result = compareWithWitness(local(20), [witnessed(20), forged]);
    expect(result.ok).toBe(true);
    expect(result.notes[0]).toMatch(/1 witnessed checkpoint\(s\) with a bad signature were ignored/);
  });
});
