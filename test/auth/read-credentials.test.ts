import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCredentials, readEveryCredential } from '../../src/auth/read-credentials.js';

const GW_KEY = 'sk-gw-AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKK';
const OTHER_GW_KEY = 'sk-gw-ZZZZyyyyXXXXwwwwVVVVuuuuTTTTssssRRRRqqqqPP';

describe('readCredentials', () => {
  it('takes x-gw-vk as it is, without a prefix check', () => {
    expect(readCredentials(['x-gw-vk', 'anything-goes'])).toEqual({ outcome: 'found', credential: { place: 'x-gw-vk', kind: 'virtual-key', value: 'anything-goes' } });
  });

  it.each(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'])('takes an sk-gw- value from %s', (place) => {
    const value = place === 'authorization' ? `Bearer ${GW_KEY}` : GW_KEY;
    expect(readCredentials([place, value])).toEqual({ outcome: 'found', credential: { place, kind: 'virtual-key', value: GW_KEY } });
  });

  it.each(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'])('never takes a provider key in %s for a virtual key', (place) => {
    const value = place === 'authorization' ? 'Bearer sk-ant-api03-provider' : 'sk-proj-provider';
    expect(readCredentials([place, value])).toEqual({ outcome: 'none', foreign: true });
  });

  it('recognises personal atu- tokens outside x-gw-vk', () => {
    expect(readCredentials(['Authorization', 'Bearer atu-abc'])).toMatchObject({ outcome: 'found', credential: { kind: 'personal-token' } });
  });

  it('accepts the same key in two places', () => {
    expect(readCredentials(['x-api-key', GW_KEY, 'authorization', `Bearer ${GW_KEY}`])).toMatchObject({ outcome: 'found' });
  });

  it('refuses two different gw keys', () => {
    expect(readCredentials(['x-api-key', GW_KEY, 'authorization', `Bearer ${OTHER_GW_KEY}`])).toEqual({ outcome: 'ambiguous', places: ['x-api-key', 'authorization'] });
  });

  it('refuses a credential header sent twice with different values (Node would keep only the first)', () => {
    expect(readCredentials(['authorization', `Bearer ${GW_KEY}`, 'authorization', 'Bearer sk-ant-other'])).toMatchObject({ outcome: 'ambiguous' });
  });

  it('serves a gw key next to an upstream token, as Claude Desktop sends them', () => {
    expect(readCredentials(['authorization', 'Bearer sk-ant-oat01-xyz', 'x-api-key', GW_KEY])).toMatchObject({ outcome: 'found', credential: { place: 'x-api-key' } });
  });

  it('calls non-ASCII bytes in a gw credential malformed', () => {
    expect(readCredentials(['x-gw-vk', 'sk-gw-Ã©'])).toEqual({ outcome: 'malformed', place: 'x-gw-vk' });
    expect(readCredentials(['x-api-key', 'sk-gw-Ã©abc'])).toEqual({ outcome: 'malformed', place: 'x-api-key' });
  });

  it('matches header names case-insensitively and ignores unrelated headers', () => {
    expect(readCredentials(['X-Api-Key', GW_KEY, 'cookie', 'sk-gw-not-a-place'])).toMatchObject({ outcome: 'found', credential: { place: 'x-api-key' } });
  });

  it('reads a lone credential header (the usual request, read without maps or sets) as the rules over every header do', () => {
    const name = fc.constantFrom('x-gw-vk', 'Authorization', 'authorization', 'X-Api-Key', 'x-goog-api-key', 'API-KEY', 'api-key', 'content-type', 'user-agent', 'x-gw-vkx', 'api-keys');
    const value = fc.oneof(
      fc.constantFrom(GW_KEY, OTHER_GW_KEY, `Bearer ${GW_KEY}`, `bearer  ${OTHER_GW_KEY}`, 'Bearer sk-proj-provider', 'atu-personal', 'gws-session', ' sk-gw-caf\u00e9 ', 'Basic abc', ''),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(fc.property(fc.array(fc.tuple(name, value), { maxLength: 4 }), (pairs) => {
      const rawHeaders = pairs.flat();
      expect(readCredentials(rawHeaders)).toEqual(readEveryCredential(rawHeaders));
    }), { numRuns: 2000 });
  });
});

