// The gws- session credential a sidecar gets at token exchange: its signature and
// expiry (pure), and the hub's door resolving it against the current state, so a
// revoked token or a removed person is refused on the next call.
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { buildKeyIndex } from '../../src/auth/key-index.js';
import { readCredentials } from '../../src/auth/read-credentials.js';
import { createHubContext } from '../../src/hub/hub-context.js';
import { createHubIdentity } from '../../src/hub/hub-identity.js';
import { issueSessionCredential, readSessionCredential } from '../../src/hub/session-credential.js';
import { deriveLiveKey, ensureLiveKey } from '../../src/state/live-keys.js';
import { addPerson, removePerson } from '../../src/state/people.js';
import { addPersonalToken, revokePersonalToken } from '../../src/state/personal-tokens.js';
import { openStateStore } from '../../src/state/state-store.js';
import { createTeam } from '../../src/state/teams.js';
import { makeHome } from '../support/gateway-process.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const cleanup of cleanups.splice(0)) await cleanup(); });

const clock = Date.parse('2030-01-01T00:00:00Z');
const SECRET = Buffer.alloc(32, 7);

describe('session credentials (pure)', () => {
  const credential = issueSessionCredential(SECRET, 'tok_ABCDEFGHIJKL', new Date(clock + 60_000));
  it('name the token they were issued for, until they expire', () => {
    expect(credential).toMatch(/^gws-tok_ABCDEFGHIJKL\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(readSessionCredential(SECRET, credential, new Date(clock))).toBe('tok_ABCDEFGHIJKL');
    expect(readSessionCredential(SECRET, credential, new Date(clock + 60_000))).toBeNull();
  });
  it('are refused when signed with another secret, for another token, or with a longer life', () => {
    expect(readSessionCredential(Buffer.alloc(32, 2), credential, new Date(clock))).toBeNull();
    expect(readSessionCredential(SECRET, credential.replace('tok_ABCDEFGHIJKL', 'tok_ABCDEFGHIJKM'), new Date(clock))).toBeNull();
    expect(readSessionCredential(SECRET, credential.replace(/\.(\d+)\./, (_all, expires: string) => `.${Number(expires) + 3600}.`), new Date(clock))).toBeNull();
    expect(readSessionCredential(SECRET, 'gws-nonsense', new Date(clock))).toBeNull();
  });
  it('are read as a session credential in every credential place', () => {
    for (const [name, value] of [['x-gw-vk', credential], ['authorization', `Bearer ${credential}`], ['x-api-key', credential]] as const) {
      expect(readCredentials([name, value])).toEqual({ outcome: 'found', credential: { place: name, kind: 'hub-session', value: credential } });
    }
  });
});

describe('the hub door for session credentials', () => {
  async function hub() {
    const home = await makeHome('gw-session-unit-');
    const store = await openStateStore(home, { now: () => new Date(clock) });
    cleanups.push(() => store.close(), () => rm(home, { recursive: true, force: true }));
    await createTeam(store, 'eng');
    await addPerson(store, 'alice@example.com', 'eng');
    const device = { ip: '192.0.2.7', user_agent: 'test', client_host: null };
    const { record } = await store.update((draft) => addPersonalToken(draft, { person: 'alice@example.com', device, now: new Date(clock) }));
    const context = createHubContext({ store, secret: SECRET, now: () => new Date(clock), audit: () => undefined, oidcClientSecret: () => null, fetch });
    return { store, identity: createHubIdentity(context), credential: issueSessionCredential(SECRET, record.id, new Date(clock + 3_600_000)), tokenId: record.id };
  }

  it('names the person and the team key, and refuses once the token is revoked', async () => {
    const { store, identity, credential, tokenId } = await hub();
    const resolved = await identity.resolveSession!(credential);
    const { key } = await ensureLiveKey(store, 'eng', SECRET);
    expect(resolved).toEqual({ ok: true, identity: { team: 'eng', keyId: key.id, person: 'alice@example.com', via: 'hub-session', tokenId: expect.stringMatching(/^tok_/) } });
    await revokePersonalToken(store, tokenId);
    expect(await identity.resolveSession!(credential)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('refuses once the person is removed', async () => {
    const { store, identity, credential } = await hub();
    expect((await identity.resolveSession!(credential)).ok).toBe(true);
    await removePerson(store, 'alice@example.com');
    expect((await identity.resolveSession!(credential)).ok).toBe(false);
  });

  it('keeps the team live key out of the door: presented, it is unknown', async () => {
    const { store } = await hub();
    const { live } = await ensureLiveKey(store, 'eng', SECRET);
    expect(buildKeyIndex(store.snapshot()).find(deriveLiveKey(SECRET, 'eng', live.salt))).toEqual({ status: 'unknown' });
  });
});
