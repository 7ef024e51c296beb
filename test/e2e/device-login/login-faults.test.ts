// Device login's bad inputs and faults, each with its documented outcome: a
// denied login, an expired code, Ctrl-C, polling too fast (slow_down), a reused
// device_code (invalid_grant, and the token it issued revoked), device login
// turned off, and gw logout revoking at the hub.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from '../../../src/state/state-store.js';
import { makeHome } from '../../support/gateway-process.js';
import { takeApprovedToken, waitForState, waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from './support.js';

let rig: HubRig;
beforeAll(async () => { rig = await startHubRig(); }, 60_000);
afterAll(async () => { await rig?.close(); });

const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) => fetch(`${rig.hub.url}${path}`, {
  method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields),
});
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('gw login ends clearly', () => {
  it('on denial (exit 1), expiry (exit 1) and Ctrl-C (exit 130); logout revokes at the hub', async () => {
    const [denied, expired, cancelled, approved] = await Promise.all([1, 2, 3, 4].map(async () => startLogin(rig.hub.url, await makeHome('gw-laptop-'), NO_KEYCHAIN)));
    const codes = await Promise.all([denied!.code, expired!.code, cancelled!.code, approved!.code]);
    await runChecked(['device', 'deny', codes[0]], rig.hub.home);
    const store = await openStateStore(rig.hub.home);
    await store.update((draft) => {
      const record = draft.device_codes.find((code) => code.user_code === codes[1].replace('-', ''));
      record!.expires_at = new Date(Date.now() - 1000).toISOString();
    });
    await store.close();
    await runChecked(['device', 'approve', codes[3], '--person', PERSON], rig.hub.home);
    await waitForState(rig.hub);
    cancelled!.child.kill('SIGINT');
    expect(await denied!.exited).toBe(1);
    expect(denied!.stderr()).toContain('the login was denied');
    expect(await expired!.exited).toBe(1);
    expect(expired!.stderr()).toContain('the code expired before it was approved: run gw login again');
    expect(await cancelled!.exited).toBe(130);
    expect(cancelled!.stderr()).toContain('login cancelled; nothing was stored');
    expect(await approved!.exited).toBe(0);
    const laptop = /plain text at (\S+)\/login\.json/.exec(approved!.stderr())![1]!;
    const logout = await runChecked(['logout'], laptop, NO_KEYCHAIN);
    expect(logout).toContain('logged out');
    const tokens = JSON.parse(await runChecked(['tokens', 'list', '--json'], rig.hub.home)) as Array<{ status: string }>;
    expect(tokens.map((token) => token.status)).toEqual(['revoked']);
  }, 40_000);
});

describe('the token endpoint', () => {
  it('answers slow_down to a client polling faster than interval', async () => {
    const started = await (await form('/oauth/device/code', { client_id: 'gw-cli' })).json() as { device_code: string };
    const first = await (await form('/oauth/token', { grant_type: DEVICE_GRANT, device_code: started.device_code })).json() as { error: string };
    const second = await form('/oauth/token', { grant_type: DEVICE_GRANT, device_code: started.device_code });
    expect(first.error).toBe('authorization_pending');
    expect(second.status).toBe(400);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(((await second.json()) as { error: string }).error).toBe('slow_down');
  });
  it('refuses a reused device_code with invalid_grant and revokes the token it issued', async () => {
    const started = await (await form('/oauth/device/code', { client_id: 'gw-cli' })).json() as { device_code: string; user_code: string };
    await runChecked(['device', 'approve', started.user_code, '--person', PERSON], rig.hub.home);
    await waitForState(rig.hub);
    const issued = await takeApprovedToken(rig.hub.url, started.device_code) as { access_token: string };
    expect(issued.access_token).toMatch(/^atu-/);
    const chat = () => fetch(`${rig.hub.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${issued.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'x' }] }) });
    expect((await chat()).status).toBe(200);
    const replay = await (await form('/oauth/token', { grant_type: DEVICE_GRANT, device_code: started.device_code })).json() as { error: string };
    expect(replay.error).toBe('invalid_grant');
    await waitUntil(async () => (await chat()).status === 401, { intervalMs: 200, what: 'the replayed login\'s token to be refused' });
  });
  it('answers unsupported_grant_type, and a form that is not a form with invalid_request', async () => {
    expect(((await (await form('/oauth/token', { grant_type: 'password' })).json()) as { error: string }).error).toBe('unsupported_grant_type');
    const json = await fetch(`${rig.hub.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([json.status, ((await json.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
  });
  it('refuses to start device logins when the hub turns them off', async () => {
    await runChecked(['settings', 'set', 'device_login', 'off'], rig.hub.home);
    // Until the running hub reads the setting (every 250 ms) a code may still start; each try counts
    // toward the per-address limit, hence the slow retry.
    await waitUntil(async () => (await form('/oauth/device/code', { client_id: 'gw-cli' })).status === 403, { intervalMs: 500, what: 'device logins to be refused' });
    const login = startLogin(rig.hub.url, await makeHome('gw-laptop-'), NO_KEYCHAIN);
    expect(await login.exited).toBe(1);
    expect(login.stderr()).toContain('Device login is turned off on this hub');
    await runChecked(['settings', 'set', 'device_login', 'on'], rig.hub.home);
  }, 20_000);
});
