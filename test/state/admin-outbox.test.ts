// What an admin-change record says changed: ids and names, a device login's decision and
// person, setting values except secret ones; never a key, token or hash.
import { describe, expect, it } from 'vitest';
import { describeStateChange } from '../../src/state/admin-outbox.js';
import { emptyState, type StateData } from '../../src/state/schema.js';

function withDevice(status: string, person: string | null): StateData {
  const state = emptyState();
  state.device_codes.push({ user_code: 'ABCDEFGH', status, person, device_code_hash: 'f'.repeat(64) } as unknown as StateData['device_codes'][number]);
  return state;
}

describe('describeStateChange', () => {
  it('names a device login by its code with the decision and the person approved', () => {
    expect(describeStateChange(withDevice('pending', null), withDevice('approved', 'ada@example.com')))
      .toEqual({ device_codes: { changed: ['ABCD-EFGH approved ada@example.com'] } });
    expect(describeStateChange(withDevice('pending', null), withDevice('denied', null)))
      .toEqual({ device_codes: { changed: ['ABCD-EFGH denied'] } });
  });

  it('leaves the device code hash and other secrets out', () => {
    const described = JSON.stringify(describeStateChange(emptyState(), withDevice('pending', null)));
    expect(described).toBe(JSON.stringify({ device_codes: { added: ['ABCD-EFGH'] } }));
  });

  it('is empty when nothing changed', () => {
    expect(describeStateChange(withDevice('pending', null), withDevice('pending', null))).toEqual({});
  });
});
