import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/state/parse-duration.js';
import { openStateStore } from '../../src/state/state-store.js';
import { StateInputError, StateRefusedError } from '../../src/state/state-errors.js';
import { createTeam } from '../../src/state/teams.js';
import {
  createKey, findKeyRecord, generateVirtualKey, hashVirtualKey, isWellFormedVirtualKey, keyHint, keyStatus, listKeys, revokeKey,
} from '../../src/state/virtual-keys.js';
import { makeTempHome } from './temp-home.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('virtual key format', () => {
  it('is sk-gw- + 43 base62 characters + a 6-character checksum', () => {
    const key = generateVirtualKey();
    expect(key).toMatch(/^sk-gw-[0-9A-Za-z]{49}$/);
    expect(isWellFormedVirtualKey(key)).toBe(true);
    expect(generateVirtualKey()).not.toBe(key);
  });

  it('encodes all 256 random bits: all-zero and all-one bodies differ and both check out', () => {
    const zeros = generateVirtualKey((size) => new Uint8Array(size));
    const ones = generateVirtualKey((size) => new Uint8Array(size).fill(255));
    expect(zeros.slice(6, 49)).toBe('0'.repeat(43));
    expect(ones.slice(6, 49)).not.toBe(zeros.slice(6, 49));
    expect(isWellFormedVirtualKey(zeros)).toBe(true);
    expect(isWellFormedVirtualKey(ones)).toBe(true);
  });

  it('rejects any single-character change without a lookup', () => {
    const key = generateVirtualKey();
    fc.assert(
      fc.property(fc.integer({ min: 6, max: key.length - 1 }), fc.integer({ min: 1, max: 61 }), (position, shift) => {
        const replaced = BASE62[(BASE62.indexOf(key[position] ?? '0') + shift) % 62];
        const mutated = key.slice(0, position) + replaced + key.slice(position + 1);
        return !isWellFormedVirtualKey(mutated);
      }),
    );
  });

  it('rejects garbage, other vendors\' keys and truncations', () => {
    const key = generateVirtualKey();
    for (const value of ['', 'sk-gw-', 'sk-proj-abc', key.slice(0, -1), `${key}x`, key.replace('sk-gw-', 'sk-GW-'), ` ${key}`]) {
      expect(isWellFormedVirtualKey(value)).toBe(false);
    }
  });

  it('hashes with hex SHA-256 and hints with the first and last four characters', () => {
    expect(hashVirtualKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const key = generateVirtualKey();
    expect(keyHint(key)).toBe(`sk-gw-${key.slice(6, 10)}…${key.slice(-4)}`);
  });
});

describe('parseDuration', () => {
  it('reads s, m, h, d and w', () => {
    expect(parseDuration('45s')).toBe(45_000);
    expect(parseDuration('90m')).toBe(5_400_000);
    expect(parseDuration('12h')).toBe(43_200_000);
    expect(parseDuration('30d')).toBe(2_592_000_000);
    expect(parseDuration('2w')).toBe(1_209_600_000);
  });

  it.each(['', '30', 'd', '1.5h', '-1d', '0d', '3y', '30 days', '99999999w'])('refuses %j with a clear message', (text) => {
    expect(() => parseDuration(text)).toThrow(StateInputError);
    expect(() => parseDuration(text)).toThrow(/invalid duration .*use a whole number and a unit s, m, h, d or w/);
  });
});

describe('keys in the store', () => {
  it('stores only the hash: the plaintext key never reaches state.json', async () => {
    const home = await makeTempHome();
    const store = await openStateStore(home);
    await createTeam(store, 'ops');
    const { key, record } = await createKey(store, { team: 'ops', name: 'ci' });
    const text = await readFile(store.file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(6, 49));
    expect(text).toContain(hashVirtualKey(key));
    expect(record.id).toMatch(/^vk_[0-9A-Za-z]{12}$/);
    expect(record.hint).toBe(keyHint(key));
    expect(findKeyRecord(store.snapshot(), key)?.id).toBe(record.id);
    expect(findKeyRecord(store.snapshot(), generateVirtualKey())).toBeNull();
    await store.close();
  });

  it('refuses a key for a team that does not exist', async () => {
    const store = await openStateStore(await makeTempHome());
    await expect(createKey(store, { team: 'ghost' })).rejects.toThrow(StateRefusedError);
    await expect(createKey(store, { team: 'ghost' })).rejects.toThrow('team "ghost" does not exist');
    expect(store.snapshot().keys).toHaveLength(0);
    await store.close();
  });

  it('marks keys expired by the injected clock and revoked once', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const store = await openStateStore(await makeTempHome(), { now: () => now });
    await createTeam(store, 'ops');
    const { record: short } = await createKey(store, { team: 'ops', expiresAt: new Date('2030-01-02T00:00:00Z') });
    const { record: other } = await createKey(store, { team: 'ops' });
    expect(keyStatus(short, now)).toBe('active');
    now = new Date('2030-01-02T00:00:00Z');
    expect(keyStatus(short, now)).toBe('expired');
    expect(keyStatus(other, now)).toBe('active');
    const first = await revokeKey(store, other.id);
    expect(first.changed).toBe(true);
    expect(first.record.revoked_at).toBe('2030-01-02T00:00:00.000Z');
    now = new Date('2030-02-01T00:00:00Z');
    const second = await revokeKey(store, other.id);
    expect(second.changed).toBe(false);
    expect(second.record.revoked_at).toBe('2030-01-02T00:00:00.000Z');
    await expect(revokeKey(store, 'vk_nope')).rejects.toThrow('no key with id "vk_nope"');
    await store.close();
  });

  it('lists keys by team', async () => {
    const store = await openStateStore(await makeTempHome());
    await createTeam(store, 'a');
    await createTeam(store, 'b');
    await createKey(store, { team: 'a' });
    await createKey(store, { team: 'b' });
    await createKey(store, { team: 'b' });
    expect(listKeys(store.snapshot())).toHaveLength(3);
    expect(listKeys(store.snapshot(), { team: 'b' }).map((record) => record.team)).toEqual(['b', 'b']);
    await store.close();
  });

  it('refuses a key name with control characters', async () => {
    const store = await openStateStore(await makeTempHome());
    await createTeam(store, 'ops');
    await expect(createKey(store, { team: 'ops', name: 'evil\u001b[31m' })).rejects.toThrow(StateInputError);
    await store.close();
  });
});
