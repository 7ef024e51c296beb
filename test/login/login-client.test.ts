// The client side of gw login without a hub: the poll loop's RFC 8628 behaviour
// (slow_down adds 5 s for every later poll, network errors retried, distinct
// endings), the credential store's keychain time-out and file fallback, and the
// sidecar's loopback guard.
import { chmod, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CredentialStore } from '../../src/login/credential-store.js';
import { LoginFailure, waitForApproval, type WaitInput } from '../../src/login/device-login.js';
import { withTimeout, type Keychain } from '../../src/login/keychain.js';
import { checkLocalRequest } from '../../src/sidecar/loopback-guard.js';
import { makeHome } from '../support/gateway-process.js';

const homes: string[] = [];
afterEach(async () => { await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true }))); });

function scriptedFetch(answers: Array<Record<string, unknown> | Error>): typeof fetch {
  return (async () => {
    const next = answers.shift();
    if (next === undefined) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return new Response(JSON.stringify(next), { status: 'access_token' in next ? 200 : 400, headers: { 'content-type': 'application/json' } });
  });
}

function waitInput(answers: Array<Record<string, unknown> | Error>, slept: number[], expiresIn = 600): WaitInput {
  let now = 0;
  return {
    fetch: scriptedFetch(answers), hub: 'http://hub.test', userAgent: 'test',
    authorization: { deviceCode: 'dc', userCode: 'BCDF-GHJK', verificationUri: 'http://hub.test/device', verificationUriComplete: null, expiresIn, interval: 5 },
    now: () => now, sleep: async (ms) => { slept.push(ms); now += ms; }, signal: new AbortController().signal, onProgress: () => undefined,
  };
}

describe('waiting for approval', () => {
  it('adds 5 s to the interval on slow_down, for that and every later poll, and retries network errors', async () => {
    const slept: number[] = [];
    const issued = await waitForApproval(waitInput([
      { error: 'authorization_pending' }, { error: 'slow_down' }, new Error('ECONNRESET'), { error: 'authorization_pending' },
      { access_token: 'atu-x', person: 'a@b.c', team: 'eng' },
    ], slept));
    expect(slept).toEqual([5000, 5000, 10000, 10000, 10000]);
    expect(issued).toMatchObject({ token: 'atu-x', person: 'a@b.c', team: 'eng' });
  });
  it.each([
    ['access_denied', 'denied'], ['expired_token', 'expired'], ['invalid_grant', 'refused'],
  ])('ends on %s with reason %s', async (error, reason) => {
    const failure = await waitForApproval(waitInput([{ error }], [])).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(LoginFailure);
    expect((failure as LoginFailure).reason).toBe(reason);
  });
  it('stops at expires_in even while the network is down', async () => {
    const failure = await waitForApproval(waitInput([new Error('down'), new Error('down'), new Error('down')], [], 12)).catch((caught: unknown) => caught);
    expect((failure as LoginFailure).reason).toBe('expired');
  });
});

describe('the credential store', () => {
  const login = { hub: 'http://hub.test', token: 'atu-secret', person: 'a@b.c', team: 'eng', now: new Date() };

  it('falls back to a 0600 file, saying so, when a keychain call hangs past its time-out', async () => {
    const home = await makeHome('gw-cred-');
    homes.push(home);
    const hanging: Keychain = {
      set: () => withTimeout(() => new Promise<void>(() => undefined), 50),
      get: () => withTimeout(() => new Promise<string | null>(() => undefined), 50),
      delete: () => withTimeout(() => new Promise<boolean>(() => undefined), 50),
    };
    const started = Date.now();
    const saved = await new CredentialStore(home, hanging).save(login);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(saved.notice).toMatch(/did not answer within 0\.1 s.*plain text at .*login\.json/);
    expect((await stat(path.join(home, 'login.json'))).mode & 0o777).toBe(0o600);
    expect((await new CredentialStore(home, hanging).load())?.token).toBe('atu-secret');
  });
  it('keeps only a pointer in the file when the keychain answers', async () => {
    const home = await makeHome('gw-cred-');
    homes.push(home);
    const secrets = new Map<string, string>();
    const keychain: Keychain = {
      set: async (account, secret) => { secrets.set(account, secret); },
      get: async (account) => secrets.get(account) ?? null,
      delete: async (account) => secrets.delete(account),
    };
    const store = new CredentialStore(home, keychain);
    expect((await store.save(login)).notice).toBeNull();
    expect(await readFile(path.join(home, 'login.json'), 'utf8')).not.toContain('atu-secret');
    expect((await store.load())?.where).toBe('the system keychain');
    await store.remove();
    expect(secrets.size).toBe(0);
    expect(await store.load()).toBeNull();
  });
  it('refuses a credentials file other users can read', async () => {
    const home = await makeHome('gw-cred-');
    homes.push(home);
    const store = new CredentialStore(home, null);
    await store.save(login);
    await chmod(path.join(home, 'login.json'), 0o644);
    await expect(store.load()).rejects.toThrow(/chmod 600/);
  });
});

describe('the sidecar loopback guard', () => {
  it.each([
    [{ host: '127.0.0.1:8080' }, null],
    [{ host: 'localhost:8080' }, null],
    [{ host: '[::1]:8080' }, null],
    [{ host: 'evil.example:8080' }, 'foreign-host'],
    [{ host: '127.0.0.1.nip.io' }, 'foreign-host'],
    [{}, 'foreign-host'],
    [{ host: '127.0.0.1:8080', origin: 'https://evil.example' }, 'cross-origin'],
    [{ host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080' }, null],
    [{ host: '127.0.0.1:8080', 'sec-fetch-site': 'cross-site' }, 'cross-origin'],
    [{ host: '127.0.0.1:8080', 'sec-fetch-site': 'none' }, null],
    [{ host: '127.0.0.1:8080', origin: 'null' }, 'cross-origin'],
  ])('%j → %s', (headers, expected) => {
    expect(checkLocalRequest(headers)).toBe(expected);
  });
});
