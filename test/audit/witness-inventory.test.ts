// The witnessed inventory, pure: chains per sender (instance id, device), a chain that stopped
// unclosed and was followed by one under a new key is a replacement (a reinstall without
// gw audit rotate), a closed one or a restart under the same key is not; the start check
// refuses a local trail behind the witness's live chain of this instance.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCheckpointWithKey, trailIdOf } from '../../src/audit/checkpoint.js';
import { checkWitnessAtStart } from '../../src/audit/check-witness-at-start.js';
import { compareInventory, compareWithWitness, type LocalTrail, type WitnessedCheckpoint, type WitnessSender } from '../../src/audit/compare-witness.js';
import { chainsOf, replacedChains } from '../../src/audit/witness-inventory.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';
import { buildChain } from './helpers.js';

function keyPair() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}

/** A chain of `count` records, its trail id and hashes. */
function chain(count: number, salt: string) {
  const hashes = buildChain(count).map((line) => (JSON.parse(line) as { hash: string }).hash);
  return { trail: trailIdOf(`${salt}${hashes[0]!}`), hashes };
}

const ME: WitnessSender = { team: null, person: null, key_id: null, instance: 'gwi_me' };
const OTHER: WitnessSender = { team: null, person: null, key_id: null, instance: 'gwi_other' };
let clock = 0;

function seen(of: ReturnType<typeof chain>, seq: number, signer: ReturnType<typeof keyPair>, from: WitnessSender | null = ME, closed = false): WitnessedCheckpoint {
  clock += 1;
  const checkpoint = signCheckpointWithKey(signer.privateKey, signer.publicKey, of.trail, { seq, hash: of.hashes[seq - 1]! }, closed);
  return { ...checkpoint, received_at: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(), ...(from ? { from } : {}) };
}

function local(of: ReturnType<typeof chain>, end: number, signer: ReturnType<typeof keyPair>, extra: Partial<LocalTrail> = { instance: 'gwi_me' }): LocalTrail {
  return { trail: of.trail, publicKey: signer.publicKey, head: { seq: end, hash: of.hashes[end - 1]! }, hashesAt: new Map(of.hashes.map((hash, index) => [index + 1, hash])), ...extra };
}

const oldKey = keyPair();
const newKey = keyPair();
const first = chain(10, 'first');
const second = chain(10, 'second');

describe('the inventory per sender', () => {
  it('keeps one chain per trail with its pinned key, newest seq and closed flag, in the order first seen', () => {
    const chains = chainsOf([seen(first, 3, oldKey), seen(first, 8, oldKey), seen(second, 2, newKey, OTHER), seen(first, 8, oldKey, ME, true)]);
    expect(chains.map((entry) => [entry.trail, entry.newest.seq, entry.closed, entry.instance])).toEqual([[first.trail, 8, true, 'gwi_me'], [second.trail, 2, false, 'gwi_other']]);
  });

  it('a chain stopped unclosed and followed by a new key is a replacement; closed, or the same key (a restart), is not', () => {
    expect(replacedChains(chainsOf([seen(first, 8, oldKey), seen(second, 2, newKey)]))).toEqual([expect.stringMatching(/^replaced without closing: instance gwi_me's chain .* stopped at seq 8 without a closing record/)]);
    expect(replacedChains(chainsOf([seen(first, 8, oldKey, ME, true), seen(second, 2, newKey)]))).toEqual([]);
    expect(replacedChains(chainsOf([seen(first, 8, oldKey), seen(second, 2, oldKey)]))).toEqual([]);
    // Another sender's chain is another machine; entries from before senders were kept are not judged.
    expect(replacedChains(chainsOf([seen(first, 8, oldKey), seen(second, 2, newKey, OTHER)]))).toEqual([]);
    expect(replacedChains(chainsOf([seen(first, 8, oldKey, null), seen(second, 2, newKey, null)]))).toEqual([]);
  });

  it('a rotation whose closing checkpoint never reached the witness is not a replacement: the new chain names the old one', () => {
    const opening = { previous_trail: first.trail, previous_seq: 9, previous_hash: first.hashes[8]! };
    expect(replacedChains(chainsOf([seen(first, 8, oldKey), seen(second, 2, newKey)]), new Map([[second.trail, opening]]))).toEqual([]);
  });
});

describe('compareWithWitness with this home\'s instance id', () => {
  it('a reinstall (the old chain unclosed, this one under a new key) fails and says to use gw audit rotate', () => {
    const result = compareWithWitness(local(second, 4, newKey), [seen(first, 8, oldKey), seen(second, 4, newKey)]);
    expect(result.ok).toBe(false);
    expect(result.findings).toEqual([expect.stringMatching(/^replaced without closing: .*Run gw audit rotate before reinstalling/)]);
  });

  it('an unclosed chain of this instance under the same key that the log no longer carries is missing; a closed one is fine', () => {
    expect(compareWithWitness(local(second, 4, oldKey), [seen(first, 8, oldKey), seen(second, 4, oldKey)]).findings).toEqual([expect.stringMatching(/^missing: the witness holds this instance's chain/)]);
    expect(compareWithWitness(local(second, 4, newKey), [seen(first, 8, oldKey, ME, true), seen(second, 4, newKey)])).toMatchObject({ ok: true, witnessedSeq: 4 });
  });

  it('another sender\'s chains are a note (a second machine), and an empty log with this instance\'s chain witnessed is deleted', () => {
    const result = compareWithWitness(local(second, 4, newKey), [seen(first, 8, oldKey, OTHER), seen(second, 4, newKey)]);
    expect(result).toMatchObject({ ok: true, notes: [expect.stringMatching(/also holds 1 chain\(s\) of 1 other sender\(s\)/)] });
    expect(compareWithWitness({ head: null, hashesAt: new Map(), instance: 'gwi_me' }, [seen(first, 8, oldKey)]).findings).toEqual([expect.stringMatching(/^deleted: the local log is empty/)]);
    expect(compareWithWitness({ head: null, hashesAt: new Map(), instance: 'gwi_me' }, [seen(first, 8, oldKey, OTHER)]).ok).toBe(true);
  });

  it('a --key that signs no chain here fails; the key of a closed chain of this instance is fine', () => {
    const named = [{ source: 'old.pub', key: oldKey.publicKey }];
    expect(compareWithWitness(local(second, 4, newKey, { instance: 'gwi_me', namedKeys: named }), [seen(second, 4, newKey)]).findings).toEqual([expect.stringMatching(/^--key old.pub .* signs no chain here/)]);
    expect(compareWithWitness(local(second, 4, newKey, { instance: 'gwi_me', namedKeys: named }), [seen(first, 8, oldKey, ME, true), seen(second, 4, newKey)]).ok).toBe(true);
  });
});

describe('compareInventory (a store)', () => {
  it('fails on a sender\'s chain replaced under a new key, passes on a restart under the same key', () => {
    const inventory = (key: ReturnType<typeof keyPair>) => [{ ...local(first, 8, oldKey, {}), name: 'chain a' }, { ...local(second, 4, key, {}), name: 'chain b' }];
    expect(compareInventory(inventory(oldKey), [seen(first, 8, oldKey), seen(second, 4, oldKey)]).ok).toBe(true);
    const replaced = compareInventory(inventory(newKey), [seen(first, 8, oldKey), seen(second, 4, newKey)]);
    expect(replaced.findings).toEqual([expect.stringMatching(/^replaced without closing/)]);
    // Chain b's record 1 names chain a's end (a rotation whose closing checkpoint never reached the witness).
    const opened = inventory(newKey).map((entry) => (entry.name === 'chain b' ? { ...entry, opening: { previous_trail: first.trail, previous_seq: 8, previous_hash: first.hashes[7]! } } : entry));
    expect(compareInventory(opened, [seen(first, 8, oldKey), seen(second, 4, newKey)]).ok).toBe(true);
  });
});

describe('checkWitnessAtStart', () => {
  const start = (of: ReturnType<typeof chain> | null, end: number, hashes = of?.hashes ?? []) => ({
    ...(of ? { trail: of.trail } : {}), head: of ? { seq: end, hash: hashes[end - 1]! } : null,
    hashAt: async (seq: number) => (seq <= end ? hashes[seq - 1] : undefined),
  });

  it('passes a trail at or past the witnessed head, and refuses one behind it or with another record there', async () => {
    const entries = [seen(first, 6, oldKey)];
    expect(await checkWitnessAtStart(start(first, 6), entries, 'gwi_me', 'file w')).toBeNull();
    expect(await checkWitnessAtStart(start(first, 9), entries, 'gwi_me', 'file w')).toBeNull();
    expect(await checkWitnessAtStart(start(first, 4), entries, 'gwi_me', 'file w')).toMatchObject({ reason: expect.stringMatching(/ends at seq 4, the witness holds its checkpoint at seq 6/), witnessed_seq: 6 });
    const rewritten = first.hashes.map((hash, index) => (index === 5 ? 'f'.repeat(64) : hash));
    expect((await checkWitnessAtStart(start(first, 9, rewritten), entries, 'gwi_me', 'file w'))?.reason).toMatch(/record 6 is not the one the witness saw/);
  });

  it('refuses a deleted or replaced trail unless the live chain was closed; other senders and a witness that holds nothing pass', async () => {
    expect((await checkWitnessAtStart(start(null, 0), [seen(first, 6, oldKey)], 'gwi_me', 'w'))?.reason).toMatch(/the local trail is gone/);
    expect((await checkWitnessAtStart(start(second, 2), [seen(first, 6, oldKey)], 'gwi_me', 'w'))?.reason).toMatch(/is not that chain: .* replaced/);
    expect(await checkWitnessAtStart(start(second, 2), [seen(first, 6, oldKey, ME, true)], 'gwi_me', 'w')).toBeNull();
    expect(await checkWitnessAtStart(start(null, 0), [seen(first, 6, oldKey, OTHER)], 'gwi_me', 'w')).toBeNull();
    expect(await checkWitnessAtStart(start(null, 0), [], 'gwi_me', 'w')).toBeNull();
  });

  it('refuses a chain closed below what the witness holds of it, or on another record, though the next chain is the live one', async () => {
    // The attack: first witnessed up to 6, cut back to 3, rotated at 4; the witness got the closed checkpoint and the next chain's first.
    const cutAndClosed = [seen(first, 6, oldKey), seen(first, 4, oldKey, ME, true), seen(second, 1, newKey)];
    expect(await checkWitnessAtStart(start(second, 2), cutAndClosed, 'gwi_me', 'w')).toMatchObject({
      reason: expect.stringMatching(/chain .* was closed at seq 4, but the witness holds it up to seq 6 .*cut back or rolled back before a rotation closed it/),
      witnessed_trail: first.trail, witnessed_seq: 6, witnessed_hash: first.hashes[5],
    });
    const forkedClose = { ...signCheckpointWithKey(oldKey.privateKey, oldKey.publicKey, first.trail, { seq: 6, hash: 'e'.repeat(64) }, true), received_at: '2026-01-02T00:00:00.000Z', from: ME };
    expect((await checkWitnessAtStart(start(second, 2), [seen(first, 6, oldKey), forkedClose, seen(second, 1, newKey)], 'gwi_me', 'w'))?.reason).toMatch(/closed at seq 6 with another record than the witness saw there/);
    // Closed on purpose at (or after) the witnessed head: nothing to refuse.
    expect(await checkWitnessAtStart(start(second, 2), [seen(first, 6, oldKey), seen(first, 7, oldKey, ME, true), seen(second, 1, newKey)], 'gwi_me', 'w')).toBeNull();
  });

  it('holds the home\'s own closed chains against the witness when the closed checkpoint never reached it', async () => {
    const entries = [seen(first, 6, oldKey), seen(second, 1, newKey)];
    const kept = (seq: number, hashes = first.hashes) => ({ trail: first.trail, seq, hash: hashes[seq - 1]!, hashAt: async (at: number) => (at <= seq ? hashes[at - 1] : undefined) });
    expect((await checkWitnessAtStart({ ...start(second, 2), closed: [kept(4)] }, entries, 'gwi_me', 'w'))?.reason).toMatch(/closed at seq 4, but the witness holds it up to seq 6/);
    expect(await checkWitnessAtStart({ ...start(second, 2), closed: [kept(8)] }, entries, 'gwi_me', 'w')).toBeNull();
    const forked = first.hashes.map((hash, index) => (index === 5 ? 'f'.repeat(64) : hash));
    expect((await checkWitnessAtStart({ ...start(second, 2), closed: [kept(8, forked)] }, entries, 'gwi_me', 'w'))?.reason).toMatch(/record 6 of the closed chain .* was forked before a rotation closed it/);
  });

  it('a rollback whose witnessed head an audit.gap accepted already is not refused again', async () => {
    const asked: Array<[string, number]> = [];
    const acceptedGap = async (trail: string, seq: number) => { asked.push([trail, seq]); return seq <= 6; };
    expect(await checkWitnessAtStart({ ...start(first, 4), acceptedGap }, [seen(first, 6, oldKey)], 'gwi_me', 'w')).toBeNull();
    expect(await checkWitnessAtStart({ ...start(first, 4), acceptedGap }, [seen(first, 7, oldKey)], 'gwi_me', 'w')).toMatchObject({ witnessed_seq: 7 });
    expect(asked).toEqual([[first.trail, 6], [first.trail, 7]]);
  });
});
