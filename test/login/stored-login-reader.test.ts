// What a running sidecar reads to follow gw login / gw logout: the login record
// each time, the keychain only when the record changed (each keychain call may
// start a helper process), and a clear reason, never the token, when unreadable.
import { chmod, rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { CredentialStore } from '../../src/login/credential-store.js';
import type { Keychain } from '../../src/login/keychain.js';
import { createStoredLoginReader } from '../../src/login/stored-login-reader.js';
import { makeHome } from '../support/gateway-process.js';

const homes: string[] = [];
afterEach(async () => { for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true }); });

function memoryKeychain(): Keychain & { gets: number } {
  const secrets = new Map<string, string>();
  return {
    gets: 0,
    async set(account, secret) { secrets.set(account, secret); },
    async get(account) { this.gets += 1; return secrets.get(account) ?? null; },
    async delete(account) { return secrets.delete(account); },
  };
}

describe('the stored login reader', () => {
  it('follows save and remove, asking the keychain only when the record changed', async () => {
    const home = await makeHome('gw-reader-');
    homes.push(home);
    const keychain = memoryKeychain();
    const store = new CredentialStore(home, keychain);
    const read = createStoredLoginReader(store);
    expect(await read()).toEqual({ kind: 'none' });
    await store.save({ hub: 'https://hub.example', token: 'atu-first', person: 'alice@example.com', team: 'eng', now: new Date(1_000) });
    expect(await read()).toMatchObject({ kind: 'login', login: { hub: 'https://hub.example', token: 'atu-first', person: 'alice@example.com', source: 'the system keychain' } });
    await read();
    await read();
    expect(keychain.gets).toBe(1);
    await store.save({ hub: 'https://hub.example', token: 'atu-second', person: 'alice@example.com', team: 'eng', now: new Date(2_000) });
    expect(await read()).toMatchObject({ kind: 'login', login: { token: 'atu-second' } });
    expect(keychain.gets).toBe(2);
    await store.remove();
    expect(await read()).toEqual({ kind: 'none' });
  });

  it('says why a login file cannot be used, without the token', async () => {
    const home = await makeHome('gw-reader-');
    homes.push(home);
    const store = new CredentialStore(home, null);
    await store.save({ hub: 'https://hub.example', token: 'atu-in-the-file', person: null, team: null, now: new Date(1_000) });
    await chmod(store.file, 0o644);
    const reading = await createStoredLoginReader(store)();
    expect(reading).toMatchObject({ kind: 'unreadable', reason: expect.stringContaining('chmod 600') });
    expect(JSON.stringify(reading)).not.toContain('atu-in-the-file');
  });
});
