// Issue 39: Claude Code signs in to gw by itself (Anthropic's gateway protocol). Against a
// real hub, through the HTTP shapes Claude Code 2.1.197 sends (read from its /login code:
// discovery, an empty form to the device authorization endpoint, the device_code grant,
// then `grant_type=refresh_token&refresh_token=…` with no client id): short access tokens,
// refresh tokens that rotate and revoke the sign-in when reused, sign-out and removal that
// end access, and GET /managed/settings per team with ETag and 304.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudit, waitForState, waitUntil } from '../helpers.js';
import { runGwSetup } from '../../support/gateway-process.js';
import { PERSON, TEAM, runChecked, startHubRig, type HubRig } from './support.js';

let rig: HubRig;
const BOB = 'bob@example.com';

beforeAll(async () => {
  rig = await startHubRig({
    prepare: async (home) => {
      await runChecked(['people', 'add', BOB, '--team', TEAM], home);
      await runChecked(['policy', 'set', `team:${TEAM}`, '--allow-models', 'anthropic/claude-sonnet-4-5,anthropic/claude-haiku-4-5,openai/*'], home);
    },
  });
}, 60_000);

afterAll(async () => { await rig?.close(); });

type Json = Record<string, unknown>;

async function form(url: string, fields: Record<string, string>): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return { status: response.status, body: await response.json() as Json, headers: response.headers };
}

async function discovery(): Promise<Json> {
  return await (await fetch(`${rig.hub.url}/.well-known/oauth-authorization-server`)).json() as Json;
}

/** Claude Code's /login: an empty form to the discovered endpoint, the admin approves, one poll. */
async function signIn(person: string): Promise<Json> {
  const endpoints = await discovery();
  const started = await form(String(endpoints.device_authorization_endpoint), {});
  expect(started.status).toBe(200);
  await runChecked(['device', 'approve', String(started.body.user_code), '--person', person], rig.hub.home);
  await waitForState(rig.hub);
  const token = await form(String(endpoints.token_endpoint), { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: String(started.body.device_code) });
  expect(token.status).toBe(200);
  expect(token.headers.get('cache-control')).toBe('no-store');
  return token.body;
}

function refresh(refreshToken: string) {
  return form(`${rig.hub.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

function messages(accessToken: string): Promise<Response> {
  return fetch(`${rig.hub.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] }),
  });
}

function managedSettings(accessToken: string, etag?: string): Promise<Response> {
  return fetch(`${rig.hub.url}/managed/settings`, { headers: { authorization: `Bearer ${accessToken}`, ...(etag ? { 'if-none-match': etag } : {}) } });
}

describe('Claude Code signs in to a gw hub', () => {
  it('the discovery document names gateway protocol 1, the device authorization endpoint and the refresh grant', async () => {
    const document = await discovery();
    expect(document).toMatchObject({
      gateway_protocol_version: 1, issuer: rig.hub.url, device_authorization_endpoint: `${rig.hub.url}/oauth/device_authorization`,
      token_endpoint: `${rig.hub.url}/oauth/token`, token_endpoint_auth_methods_supported: ['none'],
    });
    expect(document.grant_types_supported).toEqual(expect.arrayContaining(['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token']));
  });

  it('a sign-in gets an hour\'s access token and a refresh token; the access token is served as the person', async () => {
    const tokens = await signIn(PERSON);
    expect(tokens).toMatchObject({ token_type: 'Bearer', person: PERSON, team: TEAM });
    expect(Number(tokens.expires_in)).toBeGreaterThan(3500);
    expect(Number(tokens.expires_in)).toBeLessThanOrEqual(3600);
    expect(String(tokens.refresh_token)).toMatch(/^gwr-/);
    expect((await messages(String(tokens.access_token))).status).toBe(200);
    // The record is written when the response closes, a moment after the client has read it.
    const served = async () => (await readAudit(rig.hub.home)).filter((record) => record.kind === 'request' && record.person === PERSON);
    await waitUntil(async () => (await served()).length > 0, { timeoutMs: 5_000, what: 'the call\'s record under the person' });
    expect((await served())[0]).toMatchObject({ status: 200, person: PERSON });
  });

  it('each refresh rotates the refresh token; a reused one revokes the whole sign-in, and it is recorded', async () => {
    const first = await signIn(PERSON);
    const second = await refresh(String(first.refresh_token));
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ token_type: 'Bearer', person: PERSON });
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await messages(String(second.body.access_token))).status).toBe(200);
    const reused = await refresh(String(first.refresh_token));
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    // The family is gone: the newest tokens stop working too.
    expect((await refresh(String(second.body.refresh_token))).body.error).toBe('invalid_grant');
    await waitUntil(async () => (await messages(String(second.body.access_token))).status === 401, { timeoutMs: 5_000, what: 'the sign-in\'s access token to be refused' });
    const trail = await readAudit(rig.hub.home);
    expect(trail.some((record) => record.kind === 'login.refreshed' && record.person === PERSON)).toBe(true);
    expect(trail.some((record) => record.kind === 'login.refresh_reused' && record.person === PERSON)).toBe(true);
    expect(JSON.stringify(trail)).not.toContain(String(first.refresh_token));
  });

  it('bad input gets an OAuth error: a forged refresh token, a malformed device code, an unknown grant', async () => {
    const forged = await refresh('gwr-tok_AAAAAAAAAAAA.0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(forged).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const malformed = await form(`${rig.hub.url}/oauth/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'not a code' });
    expect(malformed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await form(`${rig.hub.url}/oauth/token`, { grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
  });

  it('signing out (RFC 7009 with the refresh token) ends the access token and the refresh', async () => {
    const tokens = await signIn(PERSON);
    expect((await form(`${rig.hub.url}/oauth/revoke`, { token: String(tokens.refresh_token) })).status).toBe(200);
    await waitUntil(async () => (await messages(String(tokens.access_token))).status === 401, { timeoutMs: 5_000, what: 'the revoked sign-in to be refused' });
    expect((await refresh(String(tokens.refresh_token))).body.error).toBe('invalid_grant');
  });

  it('the access lifetime is a hub setting, and gw login keeps its long personal token', async () => {
    await runChecked(['settings', 'set', 'access_token_minutes', '5'], rig.hub.home);
    await waitForState(rig.hub);
    const short = await signIn(PERSON);
    expect(Number(short.expires_in)).toBeLessThanOrEqual(300);
    expect(Number((await refresh(String(short.refresh_token))).body.expires_in)).toBeLessThanOrEqual(300);
    await runChecked(['settings', 'set', 'access_token_minutes', '60'], rig.hub.home);
    // gw login's endpoint: no refresh token, the atu- token of personal_token_days.
    const started = await form(`${rig.hub.url}/oauth/device/code`, { client_id: 'gw-cli', client_host: 'laptop' });
    await runChecked(['device', 'approve', String(started.body.user_code), '--person', PERSON], rig.hub.home);
    await waitForState(rig.hub);
    const classic = await form(`${rig.hub.url}/oauth/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: String(started.body.device_code), client_id: 'gw-cli' });
    expect(String(classic.body.access_token)).toMatch(/^atu-/);
    expect(classic.body.refresh_token).toBeUndefined();
    expect(Number(classic.body.expires_in)).toBeGreaterThan(29 * 86_400);
  });

  it('managed settings: 404 before any, then the team\'s with the allow-list and telemetry added, ETag and 304, each change and delivery recorded', async () => {
    const tokens = await signIn(PERSON);
    const access = String(tokens.access_token);
    const none = await managedSettings(access);
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const file = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-claude-settings.json`);
    await writeFile(file, JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] }, env: { DISABLE_AUTOUPDATER: '1' } }));
    await runChecked(['claude-settings', 'set', '--team', TEAM, '--file', file], rig.hub.home);
    await waitForState(rig.hub);
    const served = await managedSettings(access);
    expect(served.status).toBe(200);
    const body = await served.json() as { uuid: string; checksum: string; settings: Json };
    expect(body.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(body.uuid).toBe(body.checksum);
    expect(served.headers.get('etag')).toBe(`"${body.checksum}"`);
    expect(body.settings).toMatchObject({
      permissions: { deny: ['Bash(curl:*)'] }, availableModels: ['claude-sonnet-4-5', 'claude-haiku-4-5'],
      env: { DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_ENABLE_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: rig.hub.url },
    });
    const again = await managedSettings(access, `"${body.checksum}"`);
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(`"${body.checksum}"`);
    await writeFile(file, JSON.stringify({ permissions: { deny: ['Bash(wget:*)'] } }));
    await runChecked(['claude-settings', 'set', '--team', TEAM, '--file', file], rig.hub.home);
    await waitForState(rig.hub);
    const changed = await managedSettings(access, `"${body.checksum}"`);
    expect(changed.status).toBe(200);
    expect((await changed.json() as { checksum: string }).checksum).not.toBe(body.checksum);
    await waitUntil(async () => (await readAudit(rig.hub.home)).some((record) => record.kind === 'admin.change' && JSON.stringify(record.data).includes('claude_settings')), { timeoutMs: 5_000, what: 'the admin.change record' });
    // Each delivery is recorded when its response closes: wait for the second, then check there is no third (the 304).
    const deliveries = async () => (await readAudit(rig.hub.home)).filter((record) => record.kind === 'settings.delivered');
    await waitUntil(async () => (await deliveries()).length >= 2, { timeoutMs: 5_000, what: 'both settings.delivered records' });
    const delivered = await deliveries();
    expect(delivered.length).toBe(2);
    expect(delivered[0]).toMatchObject({ person: PERSON, team: TEAM, data: { scope: `team:${TEAM}`, checksum: body.checksum } });
  });

  it('an admin sets a team\'s managed settings remotely through the admin API (--hub), recorded with who did it', async () => {
    const token = (await runChecked(['admin', 'tokens', 'create', '--name', 'lead'], rig.hub.home)).trim();
    expect(token).toMatch(/^gwa-/);
    await waitForState(rig.hub);
    const remote = { GW_ADMIN_TOKEN: token };
    const settings = { permissions: { deny: ['Bash(rm:*)'] } };
    const refused = await runGwSetup(['claude-settings', 'set', '--hub', rig.hub.url, '--team', TEAM, '--file', '/etc/hostname'], { home: rig.hub.home, env: remote });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--file names something on the hub');
    await runChecked(['claude-settings', 'set', '--hub', rig.hub.url, '--team', TEAM, '--json', JSON.stringify(settings)], rig.hub.home, remote);
    const shown = await runChecked(['claude-settings', 'show', '--hub', rig.hub.url, '--team', TEAM], rig.hub.home, remote);
    expect(JSON.parse(shown)).toEqual(settings);
    const access = String((await signIn(PERSON)).access_token);
    const served = await (await managedSettings(access)).json() as { settings: Json };
    expect(served.settings).toMatchObject(settings);
    const record = (await readAudit(rig.hub.home)).find((line) => line.kind === 'admin.change' && line.data?.admin_name === 'lead');
    expect(String(record?.data?.command)).toContain('claude-settings set');
  });

  it('removing the person ends the sign-in: the access token is refused and the refresh too', async () => {
    const tokens = await signIn(BOB);
    expect((await messages(String(tokens.access_token))).status).toBe(200);
    await runChecked(['people', 'remove', BOB], rig.hub.home);
    await waitUntil(async () => (await messages(String(tokens.access_token))).status === 401, { timeoutMs: 5_000, what: 'the removed person to be refused' });
    const refused = await refresh(String(tokens.refresh_token));
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    await waitUntil(async () => (await readAudit(rig.hub.home)).some((record) => record.kind === 'login.refresh_refused' && record.person === BOB), { timeoutMs: 5_000, what: 'the refused refresh to be recorded' });
  });
});
