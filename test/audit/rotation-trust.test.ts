// Verify of a rotated pair of chains, pure (src/audit/verify.ts + src/audit/rotation-trust.ts):
// the closing record and closed checkpoint under the old key, the next chain naming it under the
// new key. The new key is trusted only through a trusted, intact, closed chain that introduces it.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENESIS_PREV, sealAppended } from '../../src/audit/chain.js';
import { signCheckpointWithKey, trailIdOf, type SignedCheckpoint } from '../../src/audit/checkpoint.js';
import { fingerprintOf } from '../../src/audit/key-fingerprint.js';
import type { AuditFields } from '../../src/audit/record.js';
import { applyRotationTrust, checkClosedChainsFollowed, type ChainToTrust } from '../../src/audit/rotation-trust.js';
import { verifyLines } from '../../src/audit/verify.js';

interface Key { privateKey: KeyObject; publicKey: string }

function newKey(): Key {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey: publicKey.export({ format: 'jwk' }).x! };
}

interface Chain { lines: string[]; checkpoint: SignedCheckpoint; head: { seq: number; hash: string } }

function chainOf(fields: AuditFields[], key: Key, closed = false): Chain {
  let prev = GENESIS_PREV;
  const lines: string[] = [];
  let first = '';
  fields.forEach((field, index) => {
    const sealed = sealAppended(field, { v: 1, seq: index + 1, ts: '2026-11-27T10:00:00.000Z', prev });
    prev = sealed.record.hash;
    if (index === 0) first = sealed.record.hash;
    lines.push(sealed.line);
  });
  const head = { seq: fields.length, hash: prev };
  return { lines, head, checkpoint: signCheckpointWithKey(key.privateKey, key.publicKey, trailIdOf(first), head, closed) };
}

const closing = (next: Key): AuditFields => ({ kind: 'audit.chain_closed', data: { reason: 'rotate', next_public_key: next.publicKey, next_key_fingerprint: fingerprintOf(next.publicKey) } });
const opening = (closed: Chain): AuditFields => ({
  kind: 'audit.chain_opened',
  data: { previous_trail: closed.checkpoint.trail, previous_seq: closed.head.seq, previous_hash: closed.head.hash, previous_public_key: closed.checkpoint.public_key },
});
const start: AuditFields = { kind: 'gateway.start', data: { pid: 1 } };

/** An old chain closed toward `next` and a new chain opened from it under `signer` (default `next`). */
function rotatedPair(old: Key, next: Key, signer = next): { closed: Chain; opened: Chain } {
  const closed = chainOf([start, { kind: 'request', status: 200 }, closing(next)], old, true);
  const opened = chainOf([opening(closed), { kind: 'request', status: 200 }], signer);
  return { closed, opened };
}

async function verifyAll(chains: Chain[], trustedKeys: string[], allowUntrusted = false): Promise<ChainToTrust[]> {
  const verified = await Promise.all(chains.map(async (chain, index) => ({
    name: `chain ${index}`, result: await verifyLines(chain.lines, { checkpoint: chain.checkpoint, publicKey: chain.checkpoint.public_key, requireSeal: true }),
  })));
  checkClosedChainsFollowed(verified);
  applyRotationTrust(verified, { trustedKeys, allowUntrusted });
  return verified;
}

describe('a rotated pair of chains', () => {
  const old = newKey();
  const next = newKey();

  it('verifies with only the old key trusted; the new key is trusted by rotation from the old', async () => {
    const { closed, opened } = rotatedPair(old, next);
    const [first, second] = await verifyAll([closed, opened], [old.publicKey]);
    expect(first!.result).toMatchObject({ ok: true, closed: true, closing: { seq: 3, next_public_key: next.publicKey } });
    expect(second!.result).toMatchObject({ ok: true, trustedByRotationFrom: fingerprintOf(old.publicKey), opening: { previous_seq: 3 } });
  });

  it('trusts transitively: a third key introduced by the second chain', async () => {
    const third = newKey();
    const { closed } = rotatedPair(old, next);
    const secondClosed = chainOf([opening(closed), closing(third)], next, true);
    const last = chainOf([opening(secondClosed), start], third);
    const results = await verifyAll([closed, secondClosed, last], [old.publicKey]);
    expect(results.map((chain) => chain.result.ok)).toEqual([true, true, true]);
    expect(results[2]!.result.trustedByRotationFrom).toBe(fingerprintOf(next.publicKey));
  });

  it('fails when the old key is not trusted (no chain to introduce the new one)', async () => {
    const { closed, opened } = rotatedPair(old, next);
    const results = await verifyAll([closed, opened], []);
    expect(results.every((chain) => !chain.result.ok)).toBe(true);
    expect(results[1]!.result.firstBad?.reason).toContain('not trusted');
  });

  it('fails when the closing record is edited', async () => {
    const { closed, opened } = rotatedPair(old, next);
    closed.lines[2] = closed.lines[2]!.replace('"reason":"rotate"', '"reason":"routine"');
    const [first, second] = await verifyAll([closed, opened], [old.publicKey]);
    expect(first!.result.ok).toBe(false);
    expect(first!.result.firstBad?.reason).toContain('hash mismatch');
    expect(second!.result.ok).toBe(false);
  });

  it('fails when the new chain is signed by a fresh key the closing record did not introduce', async () => {
    const { closed, opened } = rotatedPair(old, next, newKey());
    const [, second] = await verifyAll([closed, opened], [old.publicKey]);
    expect(second!.result.ok).toBe(false);
    expect(second!.result.firstBad?.reason).toMatch(/not by [0-9a-f]{16}, the key .* closing record introduced/);
  });

  it('fails when the new chain names a chain that was not closed (no closed checkpoint)', async () => {
    const { closed, opened } = rotatedPair(old, next);
    const open = { ...closed, checkpoint: signCheckpointWithKey(old.privateKey, old.publicKey, closed.checkpoint.trail, closed.head) };
    const [first, second] = await verifyAll([open, opened], [old.publicKey]);
    expect(first!.result.warnings.join()).toContain('no closed checkpoint seals it yet');
    expect(second!.result.firstBad?.reason).toContain('which was not closed');
  });

  it('fails when the closed checkpoint does not verify, or seals a record that is not the closing one', async () => {
    const { closed, opened } = rotatedPair(old, next);
    const forged = { ...closed, checkpoint: { ...closed.checkpoint, signature: closed.checkpoint.signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) } };
    const [first, second] = await verifyAll([forged, opened], [old.publicKey]);
    expect(first!.result.firstBad?.reason).toContain('signature does not verify');
    expect(second!.result.ok).toBe(false);
    const early = chainOf([start, { kind: 'request', status: 200 }], old, true);
    const [alone] = await verifyAll([early], [old.publicKey]);
    expect(alone!.result.firstBad?.reason).toContain("not at the chain's closing record");
  });

  it('fails a record written after the closing record, and a closed chain no chain opens from', async () => {
    const after = chainOf([start, closing(next), start], old);
    expect((await verifyLines(after.lines)).firstBad?.reason).toContain('written after the chain was closed');
    const { closed } = rotatedPair(old, next);
    const [alone] = await verifyAll([closed], [old.publicKey]);
    expect(alone!.result.firstBad?.reason).toContain('no chain opens from this closed chain');
  });
});
