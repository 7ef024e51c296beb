// Issue 39: gw and Anthropic's reference gateway (`claude gateway`, from the pinned Claude Code
// binary) side by side on loopback, with PostgreSQL and a real OpenID Connect provider, asked the
// same protocol questions. Field names and types, statuses and headers are compared; every
// difference left is listed in DELIBERATE and in docs/claude-code-sign-in.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { CODING_TOOLS_DIR } from '../coding-tools/run-coding-tool.js';
import { waitForState, waitUntil } from '../helpers.js';
import { PERSON, PROVIDER_KEYS, runChecked, startHubRig, type HubRig } from './support.js';
import { Jar, signInAtIssuer, startIssuer, type Issuer } from './oidc-driver.js';

const OIDC_SECRET = 'oidc-client-secret-for-reference-diff-0039';
const SETTINGS = { permissions: { deny: ['Bash(curl:*)'] } };
/** Discovery fields only gw names (docs: its revocation endpoint, gw login's switch). */
const GW_ONLY_DISCOVERY = ['revocation_endpoint', 'device_login'];
/** Discovery fields only the reference names. */
const REFERENCE_ONLY_DISCOVERY = ['scopes_supported'];

let rig: HubRig;
let issuer: Issuer;
let postgres: PostgresServer;
let reference: ChildProcess;
let referenceUrl: string;
let referenceLog = '';

type Json = Record<string, unknown>;

function shapeOf(value: Json): Record<string, string> {
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, Array.isArray(field) ? 'array' : field === null ? 'null' : typeof field]));
}

async function post(url: string, fields: Record<string, string>): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : JSON.parse(text) as Json, headers: response.headers };
}

async function startReference(port: number): Promise<void> {
  referenceUrl = `http://127.0.0.1:${port}`;
  const folder = await mkdtemp(path.join(os.tmpdir(), 'gw-reference-gateway-'));
  const config = {
    listen: { host: '127.0.0.1', port, public_url: referenceUrl },
    upstreams: [{ provider: 'anthropic', base_url: rig.fakes.anthropic.url, auth: { api_key: PROVIDER_KEYS.anthropic } }],
    oidc: { issuer: issuer.url, client_id: 'gw-hub', client_secret: OIDC_SECRET, scopes: ['openid', 'email'] },
    session: { jwt_secret: 'reference-gateway-jwt-secret-at-least-32-characters' },
    store: { postgres_url: await postgres.createDatabase() },
    managed: { policies: [{ match: {}, cli: SETTINGS }] },
  };
  const file = path.join(folder, 'gateway.yaml');
  // JSON is YAML.
  await writeFile(file, JSON.stringify(config));
  const claude = path.join(CODING_TOOLS_DIR, 'node_modules', '.bin', 'claude');
  // The reference refuses loopback upstreams and issuers unless told this is a test bench.
  reference = spawn(claude, ['gateway', '--config', file], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: folder, CLAUDE_GATEWAY_ALLOW_LOOPBACK: '1' } });
  reference.stdout?.setEncoding('utf8').on('data', (chunk: string) => { referenceLog += chunk; });
  reference.stderr?.setEncoding('utf8').on('data', (chunk: string) => { referenceLog += chunk; });
  await waitUntil(async () => (await fetch(`${referenceUrl}/healthz`).then((answer) => answer.status, () => 0)) === 200, { timeoutMs: 30_000, intervalMs: 100, what: 'the reference gateway to start' })
    .catch((error: unknown) => { throw new Error(`${String(error)}: ${referenceLog.slice(-1500)}`); });
}

beforeAll(async () => {
  postgres = await startPostgres();
  rig = await startHubRig({ env: { GW_OIDC_SECRET: OIDC_SECRET } });
  // The reference's port is chosen first: the issuer must know its callback.
  const port = await freePort();
  issuer = await startIssuer(OIDC_SECRET, [`http://127.0.0.1:${port}/oauth/callback`, `${rig.hub.url}/device/oidc/callback`]);
  await startReference(port);
  const file = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-settings.json`);
  await writeFile(file, JSON.stringify(SETTINGS));
  await runChecked(['claude-settings', 'set', '--file', file], rig.hub.home);
  await runChecked(['settings', 'set', 'oidc_issuer', issuer.url], rig.hub.home);
  await runChecked(['settings', 'set', 'oidc_client_id', 'gw-hub'], rig.hub.home);
  await runChecked(['settings', 'set', 'oidc_client_secret', 'env:GW_OIDC_SECRET'], rig.hub.home);
  await runChecked(['settings', 'set', 'public_url', rig.hub.url], rig.hub.home);
  await waitForState(rig.hub);
}, 90_000);

/** Claude Code's /login against either gateway, approved through the OIDC provider in a browser: the token answer. */
async function signIn(base: string): Promise<Json> {
  const document = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json() as Json;
  const started = await post(String(document.device_authorization_endpoint), {});
  const jar = new Jar();
  const code = String(started.body.user_code);
  let location: string;
  if (base === referenceUrl) {
    const answer = await jar.fetch(`${base}/device`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base }, body: new URLSearchParams({ user_code: code }).toString() });
    location = String(answer.headers.get('location'));
  } else {
    const entry = await (await jar.fetch(`${base}/device?user_code=${code}`)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(entry)?.[1] ?? '';
    const answer = await jar.fetch(`${base}/device`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, user_code: code, action: 'oidc' }).toString() });
    location = String(answer.headers.get('location'));
  }
  const callbackPrefix = base === referenceUrl ? `${base}/oauth/callback` : `${base}/device/oidc/callback`;
  const callback = await signInAtIssuer(jar, location, callbackPrefix, `true:${PERSON}`);
  expect((await jar.fetch(callback)).status).toBe(200);
  const token = await post(String(document.token_endpoint), { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: String(started.body.device_code) });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return { ...token.body, cache_control: token.headers.get('cache-control') };
}

afterAll(async () => {
  reference?.kill('SIGTERM');
  await issuer?.close();
  await rig?.close();
  await postgres?.destroy();
});

describe('gw and the reference gateway answer the protocol alike', () => {
  it('discovery', async () => {
    const [ours, theirs] = await Promise.all([rig.hub.url, referenceUrl].map(async (base) => await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json() as Json));
    const common = Object.keys(theirs).filter((key) => !REFERENCE_ONLY_DISCOVERY.includes(key));
    expect(Object.keys(ours).filter((key) => !GW_ONLY_DISCOVERY.includes(key)).sort()).toEqual(common.sort());
    for (const key of common) expect(shapeOf(ours)[key], key).toBe(shapeOf(theirs)[key]);
    expect(ours.gateway_protocol_version).toBe(theirs.gateway_protocol_version);
    expect(ours.grant_types_supported).toEqual(expect.arrayContaining(theirs.grant_types_supported as string[]));
    expect(new URL(String(ours.device_authorization_endpoint)).pathname).toBe(new URL(String(theirs.device_authorization_endpoint)).pathname);
  });

  it('device authorization with Claude Code\'s empty form', async () => {
    const [ours, theirs] = await Promise.all([rig.hub.url, referenceUrl].map((base) => post(`${base}/oauth/device_authorization`, {})));
    expect(ours.status).toBe(theirs.status);
    expect(shapeOf(ours.body)).toEqual(shapeOf(theirs.body));
    expect(ours.headers.get('cache-control')).toBe(theirs.headers.get('cache-control'));
  });

  it('the token endpoint\'s refusals: an unknown grant alike; a device code it never issued and a forged refresh token are invalid_grant in gw (deliberate)', async () => {
    const unknownGrant = await Promise.all([rig.hub.url, referenceUrl].map((base) => post(`${base}/oauth/token`, { grant_type: 'password' })));
    expect(unknownGrant.map((answer) => [answer.status, answer.body.error])).toEqual([[400, 'unsupported_grant_type'], [400, 'unsupported_grant_type']]);
    const [ours, theirs] = await Promise.all([rig.hub.url, referenceUrl].map((base) => post(`${base}/oauth/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'never-issued' })));
    expect([ours.status, ours.body.error, theirs.status, theirs.body.error]).toEqual([400, 'invalid_grant', 400, 'expired_token']);
    const [ourRefresh, theirRefresh] = await Promise.all([rig.hub.url, referenceUrl].map((base) => post(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: 'forged' })));
    // The reference hands the refresh token to the identity provider and answers what it makes of it
    // (here 503 temporarily_unavailable: this provider's client has no refresh grant); gw decides itself.
    expect([ourRefresh.status, ourRefresh.body.error]).toEqual([400, 'invalid_grant']);
    expect(theirRefresh.status).toBeGreaterThanOrEqual(400);
  });

  it('the token answer, and the managed settings with ETag and 304', async () => {
    const [ours, theirs] = [await signIn(rig.hub.url), await signIn(referenceUrl)];
    const fields = ['access_token', 'token_type', 'expires_in', 'cache_control'];
    for (const field of fields) expect(shapeOf(ours)[field], field).toBe(shapeOf(theirs)[field]);
    // The reference passes on the identity provider's refresh token, so it has one only when the
    // provider issued one (offline_access); gw's own refresh token is always there (deliberate).
    expect(typeof ours.refresh_token).toBe('string');
    expect(['string', 'undefined']).toContain(typeof theirs.refresh_token);
    expect([ours.token_type, ours.cache_control]).toEqual([theirs.token_type, theirs.cache_control]);
    expect(ours.expires_in).toBe(theirs.expires_in);
    const settings = await Promise.all([[rig.hub.url, ours], [referenceUrl, theirs]].map(async ([base, token]) => {
      const answer = await fetch(`${String(base)}/managed/settings`, { headers: { authorization: `Bearer ${String((token as Json).access_token)}` } });
      const body = await answer.json() as Json;
      const again = await fetch(`${String(base)}/managed/settings`, { headers: { authorization: `Bearer ${String((token as Json).access_token)}`, 'if-none-match': String(answer.headers.get('etag')) } });
      return { status: answer.status, body, etag: answer.headers.get('etag'), again: again.status };
    }));
    expect(shapeOf(settings[0]?.body ?? {})).toEqual(shapeOf(settings[1]?.body ?? {}));
    for (const served of settings) {
      expect(served.status).toBe(200);
      expect(served.etag).toBe(`"${String(served.body.checksum)}"`);
      expect(String(served.body.checksum)).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(served.body.uuid).toBe(served.body.checksum);
      expect(served.again).toBe(304);
      expect(served.body.settings).toMatchObject(SETTINGS);
    }
  }, 60_000);

  it('no token: both 401 in Anthropic\'s error shape', async () => {
    const [ours, theirs] = await Promise.all([rig.hub.url, referenceUrl].map(async (base) => {
      const answer = await fetch(`${base}/managed/settings`);
      return { status: answer.status, body: await answer.json() as { type?: string; error?: { type?: string } } };
    }));
    expect([ours.status, ours.body.type, ours.body.error?.type]).toEqual([theirs.status, theirs.body.type, theirs.body.error?.type]);
  });
});
