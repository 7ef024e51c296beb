// The hub's witness store: pins a trail to its first key and sender, extends it with newer
// checkpoints, keeps conflicting ones as evidence (409), survives a restart from its file,
// and answers a reader with its own trails only.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signCheckpointWithKey, type SignedCheckpoint } from '../../src/audit/checkpoint.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';
import { HubWitness } from '../../src/hub/witness-checkpoints.js';

const ALICE = { team: 'eng', person: 'alice@example.com', key_id: 'vk_1' };
const BOB = { team: 'eng', person: 'bob@example.com', key_id: 'vk_1' };
const TRAIL = 'a'.repeat(64);

function keyPair() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}
const key = keyPair();
const at = (seq: number, hash = 'b'.repeat(64), signer = key, trail = TRAIL): SignedCheckpoint =>
  signCheckpointWithKey(signer.privateKey, signer.publicKey, trail, { seq, hash });

let home: string;
let witness: HubWitness;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'gw-hub-witness-'));
  witness = new HubWitness(home, () => new Date('2026-02-01T00:00:00.000Z'));
});
afterEach(async () => { await rm(home, { recursive: true, force: true }); });

describe('HubWitness', () => {
  it('accepts a new trail and newer checkpoints; the same checkpoint again is a duplicate', async () => {
    // Each accepted verdict also carries the hub's cosignature (test/hub/witness-cosigner.test.ts).
    expect(await witness.receive(at(1), ALICE)).toMatchObject({ accepted: true, duplicate: false });
    expect(await witness.receive(at(5, 'c'.repeat(64)), ALICE)).toMatchObject({ accepted: true, duplicate: false });
    expect(await witness.receive(at(5, 'c'.repeat(64)), ALICE)).toMatchObject({ accepted: true, duplicate: true });
    const held = await witness.readFor(ALICE);
    expect(held.map((entry) => entry.seq)).toEqual([1, 5]);
    expect(held[0]).toMatchObject({ from: ALICE, received_at: '2026-02-01T00:00:00.000Z' });
  });

  it('a closing checkpoint at the witnessed head is kept (the chain ended on purpose), and nothing may follow it', async () => {
    await witness.receive(at(6), ALICE);
    const closed = signCheckpointWithKey(key.privateKey, key.publicKey, TRAIL, { seq: 6, hash: 'b'.repeat(64) }, true);
    expect(await witness.receive(closed, ALICE)).toMatchObject({ accepted: true, duplicate: false, cosignature: { seq: 6, closed: true } });
    expect((await witness.readFor(ALICE)).at(-1)).toMatchObject({ seq: 6, closed: true });
    const after = await witness.receive(at(7), ALICE);
    expect(after.accepted).toBe(false);
    expect(after.accepted ? '' : after.error.message).toMatch(/closed at seq 6 .*cannot follow/);
    const restarted = new HubWitness(home, () => new Date());
    expect((await restarted.readFor(ALICE)).at(-1)).toMatchObject({ seq: 6, closed: true });
  });

  it('refuses (409) and keeps as evidence: another key, another hash at the newest seq, a seq behind it', async () => {
    await witness.receive(at(4), ALICE);
    const other = keyPair();
    const cases: Array<[SignedCheckpoint, RegExp]> = [
      [at(9, 'd'.repeat(64), other), /pinned to key .*re-chained under a new key/],
      [at(4, 'e'.repeat(64)), /seq 4 was witnessed with another hash/],
      [at(2, 'f'.repeat(64)), /seq 2 is behind the witnessed seq 4/],
    ];
    for (const [checkpoint, reason] of cases) {
      const verdict = await witness.receive(checkpoint, ALICE);
      expect(verdict.accepted).toBe(false);
      if (verdict.accepted) continue;
      expect(verdict.error.code).toBe('GW_ERR_AUDIT_WITNESS_CONFLICT');
      expect(verdict.error.message).toMatch(reason);
    }
    const lines = (await readFile(path.join(home, 'witness.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(4);
    expect((await witness.readFor(ALICE)).map((entry) => entry.public_key)).toContain(other.publicKey);
  });

  it('refuses a checkpoint whose signature does not verify, and another sender\'s push to a pinned trail', async () => {
    const bad = await witness.receive({ ...at(1), hash: 'c'.repeat(64) }, ALICE);
    expect(bad.accepted ? null : bad.error.code).toBe('GW_ERR_REQUEST_INVALID');
    await witness.receive(at(1), ALICE);
    const foreign = await witness.receive(at(2), BOB);
    expect(foreign.accepted ? null : foreign.error.code).toBe('GW_ERR_AUDIT_WITNESS_FORBIDDEN');
  });

  it('answers a reader with the trails of its own person, and rebuilds its pins from the file after a restart', async () => {
    await witness.receive(at(3), ALICE);
    await witness.receive(at(1, 'c'.repeat(64), key, 'd'.repeat(64)), BOB);
    expect((await witness.readFor(BOB)).map((entry) => entry.trail)).toEqual(['d'.repeat(64)]);
    const restarted = new HubWitness(home, () => new Date());
    const verdict = await restarted.receive(at(7, 'c'.repeat(64), keyPair()), ALICE);
    expect(verdict.accepted).toBe(false); // the pin survived the restart
    expect((await restarted.readFor(ALICE)).map((entry) => entry.seq)).toEqual([3, 7]);
  });
});
