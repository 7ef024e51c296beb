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
});
