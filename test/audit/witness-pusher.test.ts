// The pusher sends the newest checkpoint to each witness off the caller's path, retries a
// witness that is down, does not resend what a witness refused, and reports each in health.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCheckpoint, signCheckpointWithKey, type SignedCheckpoint } from '../../src/audit/checkpoint.js';
import { WitnessPusher, type WitnessAnswer, type WitnessTarget } from '../../src/audit/witness-pusher.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';
import { sleep, waitUntil } from '../e2e/helpers.js';

const { privateKey } = generateKeyPairSync('ed25519');
const publicKey = rawPublicKey(privateKey);
const checkpointAt = (seq: number): SignedCheckpoint => signCheckpointWithKey(privateKey, publicKey, 'c'.repeat(64), { seq, hash: 'd'.repeat(64) });

const trailA = 'a'.repeat(64);
const trailB = 'b'.repeat(64);
const checkpointOf = (trail: string, seq: number, closed = false): SignedCheckpoint => signCheckpointWithKey(privateKey, publicKey, trail, { seq, hash: 'd'.repeat(64) }, closed);
/** `A12c`: trail A, seq 12, closed. */
const labelOf = (checkpoint: SignedCheckpoint): string => `${checkpoint.trail === trailA ? 'A' : 'B'}${checkpoint.seq}${checkpoint.closed ? 'c' : ''}`;

function labellingTarget(): WitnessTarget & { seen: string[] } {
  const seen: string[] = [];
  return { name: 'labels', seen, send: async (checkpoint) => { seen.push(labelOf(checkpoint)); return { ok: true }; } };
}

function recordingTarget(answer: (checkpoint: SignedCheckpoint) => Promise<WitnessAnswer>): WitnessTarget & { seen: number[] } {
  const seen: number[] = [];
  return { name: 'test', seen, send: async (checkpoint) => { seen.push(checkpoint.seq); return answer(checkpoint); } };
}

describe('WitnessPusher', () => {
  it('offer() returns at once; the witness gets the newest checkpoint, not every one', async () => {
    const pusher = new WitnessPusher({ intervalMs: 50 });
    let release: () => void = () => undefined;
    const target = recordingTarget(() => new Promise((resolve) => { release = () => resolve({ ok: true }); }));
    pusher.addTarget(target);
    pusher.offer(checkpointAt(1)); // sent at once, held by the slow witness
    for (let seq = 2; seq <= 9; seq += 1) pusher.offer(checkpointAt(seq)); // offer never waits
    release();
    await waitUntil(() => target.seen.includes(9), { timeoutMs: 2_000 });
    release();
    await waitUntil(() => pusher.health()?.witnesses[0]?.witnessed_seq === 9, { timeoutMs: 2_000 });
    expect(target.seen).toEqual([1, 9]);
    pusher.stop();
  });

  it('a checkpoint offered before any witness is known goes out when the witness is added', async () => {
    const pusher = new WitnessPusher();
    pusher.offer(checkpointAt(3));
    pusher.offer(signCheckpoint(Buffer.alloc(32), { seq: 4, hash: 'e'.repeat(64) })); // legacy HMAC: nothing to witness
    const target = recordingTarget(async () => ({ ok: true }));
    pusher.addTarget(target);
    await waitUntil(() => target.seen.length === 1, { timeoutMs: 1_000 });
    expect(target.seen).toEqual([3]);
    pusher.stop();
  });

  it('a witness that is down is retried and reported degraded, then ok once it answers', async () => {
    const pusher = new WitnessPusher({ intervalMs: 10 });
    let up = false;
    const target = recordingTarget(async () => { if (!up) throw new Error('connect ECONNREFUSED'); return { ok: true }; });
    pusher.addTarget(target);
    pusher.offer(checkpointAt(5));
    await waitUntil(() => pusher.health()?.status === 'degraded', { timeoutMs: 1_000 });
    expect(pusher.health()?.witnesses[0]).toMatchObject({ witnessed_seq: null, pending_seq: 5, error: 'unreachable: connect ECONNREFUSED' });
    up = true;
    await waitUntil(() => pusher.health()?.status === 'ok', { timeoutMs: 5_000 });
    expect(pusher.health()?.witnesses[0]).toEqual({ name: 'test', witnessed_seq: 5, pending_seq: null });
    pusher.stop();
  });

  it('a closing checkpoint goes out even at a seq the witness already has', async () => {
    const pusher = new WitnessPusher({ intervalMs: 10 });
    const target = recordingTarget(async () => ({ ok: true }));
    pusher.addTarget(target);
    pusher.offer(checkpointAt(5));
    await waitUntil(() => pusher.health()?.witnesses[0]?.witnessed_seq === 5, { timeoutMs: 2_000 });
    pusher.offer(checkpointAt(5)); // the same head again: nothing to send
    pusher.offer(signCheckpointWithKey(privateKey, publicKey, 'c'.repeat(64), { seq: 5, hash: 'd'.repeat(64) }, true));
    await waitUntil(() => target.seen.length === 2, { timeoutMs: 2_000 });
    await sleep(50);
    expect(target.seen).toEqual([5, 5]);
    pusher.stop();
  });

  it('a refusal is reported and not resent', async () => {
    const pusher = new WitnessPusher({ intervalMs: 10 });
    const target = recordingTarget(async () => ({ ok: false, refused: '409: pinned to another key' }));
    pusher.addTarget(target);
    pusher.offer(checkpointAt(7));
    await waitUntil(() => pusher.health()?.status === 'degraded', { timeoutMs: 1_000 });
    await sleep(100);
    expect(target.seen).toEqual([7]);
    expect(pusher.health()?.witnesses[0]?.error).toBe('refused checkpoint 7: 409: pinned to another key');
    pusher.stop();
  });

  it('drain() sends the pending checkpoint at once, without waiting out the interval', async () => {
    const pusher = new WitnessPusher({ intervalMs: 60_000 });
    const target = recordingTarget(async () => ({ ok: true }));
    pusher.addTarget(target);
    pusher.offer(checkpointAt(1));
    await waitUntil(() => target.seen.length === 1, { timeoutMs: 1_000 });
    pusher.offer(checkpointAt(2)); // would wait a minute
    await pusher.drain(1_000);
    expect(target.seen).toEqual([1, 2]);
  });

  it('after a rotation the new chain is witnessed from its first checkpoints, though their seq is below the closed chain\'s', async () => {
    const pusher = new WitnessPusher({ intervalMs: 10 });
    const target = labellingTarget();
    pusher.addTarget(target);
    pusher.offer(checkpointOf(trailA, 10));
    await waitUntil(() => target.seen.length === 1, { timeoutMs: 2_000 });
    pusher.offer(checkpointOf(trailA, 12, true));
    await waitUntil(() => target.seen.length === 2, { timeoutMs: 2_000 });
    pusher.offer(checkpointOf(trailB, 1));
    await waitUntil(() => target.seen.length === 3, { timeoutMs: 2_000 });
    pusher.offer(checkpointOf(trailB, 3));
    await waitUntil(() => target.seen.length === 4, { timeoutMs: 2_000 });
    pusher.offer(checkpointOf(trailA, 11)); // an old head of the closed chain: nothing to send
    await sleep(50);
    expect(target.seen).toEqual(['A10', 'A12c', 'B1', 'B3']);
    expect(pusher.health()?.witnesses[0]).toEqual({ name: 'labels', witnessed_seq: 3, pending_seq: null });
    pusher.stop();
  });

  it('a closed checkpoint still pending is not replaced by the next chain\'s: both go out, the closed one first', async () => {
    const pusher = new WitnessPusher({ intervalMs: 10 });
    let release: () => void = () => undefined;
    const seen: string[] = [];
    pusher.addTarget({ name: 'slow', send: (checkpoint) => { seen.push(labelOf(checkpoint)); return new Promise((resolve) => { release = () => resolve({ ok: true }); }); } });
    pusher.offer(checkpointOf(trailA, 10)); // held by the slow witness
    pusher.offer(checkpointOf(trailA, 12, true));
    pusher.offer(checkpointOf(trailB, 1));
    pusher.offer(checkpointOf(trailB, 2));
    for (let round = 0; round < 3; round += 1) {
      await waitUntil(() => seen.length === round + 1, { timeoutMs: 2_000 });
      release();
    }
    await waitUntil(() => pusher.health()?.witnesses[0]?.pending_seq === null, { timeoutMs: 2_000 });
    expect(seen).toEqual(['A10', 'A12c', 'B2']);
    pusher.stop();
  });

  it('a witness added after a rotation gets the closed checkpoint and the new chain\'s head; drain sends both', async () => {
    const pusher = new WitnessPusher({ intervalMs: 60_000 });
    pusher.offer(checkpointOf(trailA, 12, true));
    pusher.offer(checkpointOf(trailB, 2));
    const target = labellingTarget();
    pusher.addTarget(target);
    await pusher.drain(2_000);
    expect(target.seen).toEqual(['A12c', 'B2']);
  });

  it('a closed checkpoint the start found a witness lacking goes to that witness, before the live chain\'s', async () => {
    const pusher = new WitnessPusher({ intervalMs: 10 });
    pusher.offer(checkpointOf(trailB, 2));
    const lacking = labellingTarget();
    const other = { ...labellingTarget(), name: 'other' };
    pusher.addTarget(lacking, [checkpointOf(trailA, 12, true)]);
    pusher.addTarget(other);
    await waitUntil(() => lacking.seen.length === 2, { timeoutMs: 2_000 });
    await sleep(50);
    expect(lacking.seen).toEqual(['A12c', 'B2']);
    expect(other.seen).toEqual(['B2']);
    pusher.stop();
  });
});
