// The pure and in-process parts of device login: user codes (RFC 8628 §6.1), token
// format and hashing, the RFC 8628 §3.5 answers of the token endpoint, token
// exchange validation (RFC 8693 §2.1), and the verification page's
// wrong-code limit, against a real state store in a temporary home.
import { afterEach, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { createHubContext, type HubContext } from '../../src/hub/hub-context.js';
import { pollDeviceCode, revokeToken, startDeviceAuthorization } from '../../src/hub/device-authorization.js';
import type { HubRequest } from '../../src/hub/hub-reply.js';
import { readSessionCredential } from '../../src/hub/session-credential.js';
import { exchangeToken, validateExchangeRequest } from '../../src/hub/token-exchange.js';
import { submitDeviceForm, WRONG_CODE_TEXT } from '../../src/hub/verification-page.js';
import { USER_CODE_ALPHABET, approveDeviceCode, denyDeviceCode, formatUserCode, generateUserCode, normalizeUserCode } from '../../src/state/device-codes.js';
import { deriveLiveKey } from '../../src/state/live-keys.js';
import { addPerson } from '../../src/state/people.js';
import { generatePersonalToken, hashSecret, isWellFormedPersonalToken } from '../../src/state/personal-tokens.js';
import { openStateStore, type StateStore } from '../../src/state/state-store.js';
import { createTeam } from '../../src/state/teams.js';
import { makeHome } from '../support/gateway-process.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const cleanup of cleanups.splice(0)) await cleanup(); });

let clock = Date.parse('2030-01-01T00:00:00Z');

async function hub(): Promise<{ hub: HubContext; store: StateStore }> {
  const home = await makeHome('gw-hub-unit-');
  const store = await openStateStore(home, { now: () => new Date(clock) });
  cleanups.push(() => store.close(), () => rm(home, { recursive: true, force: true }));
  await createTeam(store, 'eng');
  await addPerson(store, 'Alice@Example.com', 'eng');
  const context = createHubContext({ store, secret: Buffer.alloc(32, 7), now: () => new Date(clock), audit: () => undefined, oidcClientSecret: () => null, fetch });
  return { hub: context, store };
}

function request(params: Record<string, string>, extra: Partial<HubRequest> = {}): HubRequest {
  return { ip: '192.0.2.7', userAgent: 'test-agent', params: new URLSearchParams(params), cookies: {}, baseUrl: 'https://hub.example', ...extra };
}

const body = (reply: { body: string }) => JSON.parse(reply.body) as Record<string, unknown>;

describe('user codes (RFC 8628 §6.1)', () => {
  it('are 8 characters of the 20-letter alphabet without vowels, shown as XXXX-XXXX', () => {
    expect(USER_CODE_ALPHABET).toHaveLength(20);
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOU01]/);
    for (let index = 0; index < 200; index += 1) expect(generateUserCode()).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
  });
  it('are read case-insensitively with dashes and spaces ignored; anything else is not a code', () => {
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDFGHJK');
    expect(normalizeUserCode(' bcdf ghjk ')).toBe('BCDFGHJK');
    expect(normalizeUserCode('BCDF-GHJA')).toBeNull();
    expect(normalizeUserCode('BCDF-GHJ')).toBeNull();
  });
});

describe('personal tokens', () => {
  it('are atu- plus 256 random bits and a checksum; only their SHA-256 is stored', () => {
    const token = generatePersonalToken();
    expect(token).toMatch(/^atu-[0-9A-Za-z]{49}$/);
    expect(isWellFormedPersonalToken(token)).toBe(true);
    expect(isWellFormedPersonalToken(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('the device_code grant (RFC 8628 §3.4-3.5)', () => {
  it('answers pending, slow_down when polled faster than interval, the token once approved, then invalid_grant on reuse', async () => {
    const { hub: context, store } = await hub();
    const started = body(await startDeviceAuthorization(context, request({ client_id: 'gw-cli', client_host: 'laptop' })));
    expect(started).toMatchObject({ expires_in: 600, interval: 5, verification_uri: 'https://hub.example/device' });
    expect(started.verification_uri_complete).toBe(`https://hub.example/device?user_code=${String(started.user_code)}`);
    const poll = () => pollDeviceCode(context, request({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: String(started.device_code) }));
    expect(body(await poll()).error).toBe('authorization_pending');
    clock += 1000;
    const fast = await poll();
    expect([fast.status, body(fast).error, fast.headers['cache-control']]).toEqual([400, 'slow_down', 'no-store']);
    await approveDeviceCode(store, String(started.user_code), 'alice@example.com', 'cli');
    clock += 5000;
    const issued = await poll();
    expect(issued.status).toBe(200);
    expect(body(issued)).toMatchObject({ token_type: 'Bearer', person: 'alice@example.com', team: 'eng' });
    expect(store.snapshot().tokens[0]?.hash).toBe(hashSecret(String(body(issued).access_token)));
    expect(JSON.stringify(store.snapshot())).not.toContain(String(body(issued).access_token));
    clock += 5000;
    expect(body(await poll()).error).toBe('invalid_grant');
    expect(store.snapshot().tokens[0]?.revoked_at).not.toBeNull();
  });
  it('answers access_denied, expired_token, and invalid_grant for an unknown code', async () => {
    const { hub: context, store } = await hub();
    const denied = body(await startDeviceAuthorization(context, request({})));
    await denyDeviceCode(store, String(denied.user_code), 'cli');
    const grant = { grant_type: 'urn:ietf:params:oauth:grant-type:device_code' };
    expect(body(await pollDeviceCode(context, request({ ...grant, device_code: String(denied.device_code) }))).error).toBe('access_denied');
    const late = body(await startDeviceAuthorization(context, request({})));
    clock += 601_000;
    expect(body(await pollDeviceCode(context, request({ ...grant, device_code: String(late.device_code) }))).error).toBe('expired_token');
    expect(body(await pollDeviceCode(context, request({ ...grant, device_code: 'nope' }))).error).toBe('invalid_grant');
  });
  it('refuses to start when device_login is off', async () => {
    const { hub: context, store } = await hub();
    await store.update((draft) => { draft.settings.device_login = false; });
    const reply = await startDeviceAuthorization(context, request({}));
    expect([reply.status, body(reply).error]).toEqual([403, 'access_denied']);
  });
});

describe('token exchange (RFC 8693)', () => {
  it('validates its parameters before any lookup', () => {
    const type = 'urn:ietf:params:oauth:token-type:access_token';
    expect(validateExchangeRequest(new URLSearchParams({ subject_token: 'atu-x', subject_token_type: type }))).toEqual({ ok: true, subjectToken: 'atu-x' });
    expect(validateExchangeRequest(new URLSearchParams({ subject_token: 'atu-x' })).ok).toBe(false);
    expect(validateExchangeRequest(new URLSearchParams({ subject_token: 'atu-x', subject_token_type: 'urn:x' })).ok).toBe(false);
    expect(validateExchangeRequest(new URLSearchParams({ subject_token: 'atu-x', subject_token_type: type, actor_token: 'y' })).ok).toBe(false);
  });
  it('trades an active token for a person-bound session credential (never the team key); a revoked token gets invalid_grant', async () => {
    const { hub: context, store } = await hub();
    const started = body(await startDeviceAuthorization(context, request({})));
    await approveDeviceCode(store, String(started.user_code), 'alice@example.com', 'cli');
    clock += 10_000;
    const token = String(body(await pollDeviceCode(context, request({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: String(started.device_code) }))).access_token);
    const exchange = () => exchangeToken(context, request({ subject_token: token, subject_token_type: 'urn:ietf:params:oauth:token-type:access_token' }));
    const answer = body(await exchange());
    const live = store.snapshot().live_keys[0]!;
    expect(answer).toMatchObject({ team: 'eng', person: 'alice@example.com', token_type: 'N_A', expires_in: 3600 });
    expect(JSON.stringify(answer)).not.toContain(deriveLiveKey(Buffer.alloc(32, 7), 'eng', live.salt));
    expect(JSON.stringify(store.snapshot())).not.toContain(String(answer.access_token));
    expect(readSessionCredential(Buffer.alloc(32, 7), String(answer.access_token), new Date(clock))).toBe(store.snapshot().tokens[0]!.id);
    await revokeToken(context, request({ token }));
    expect(body(await exchange()).error).toBe('invalid_grant');
  });
});

describe('the verification page', () => {
  it('gives one text for unknown, expired and used codes and limits wrong codes to 5 per address', async () => {
    const { hub: context } = await hub();
    const csrf = 'A'.repeat(32);
    const form = (code: string) => submitDeviceForm(context, request({ csrf, user_code: code, action: 'lookup' }, { cookies: { gw_device_csrf: csrf } }));
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const reply = await form('BCDF-GHJK');
      expect(reply.status).toBe(400);
      expect(reply.body).toContain(WRONG_CODE_TEXT.replace(/:/g, ':'));
    }
    expect((await form('BCDF-GHJK')).status).toBe(429);
  });
  it('refuses a form without the CSRF cookie (another site posting it)', async () => {
    const { hub: context } = await hub();
    const reply = await submitDeviceForm(context, request({ csrf: 'B'.repeat(32), user_code: 'BCDF-GHJK' }));
    expect(reply.status).toBe(403);
  });
});
