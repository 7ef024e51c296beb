// Issue 13.1: what a sidecar receives from the hub is bound to its person, lives at
// most an hour, and stops working within 5 s when the person is removed; the team's
// live key never leaves the hub, and a live key presented at the hub is refused.
// Real processes: a hub, `gw login`, a sidecar, and the credential used directly.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, TEAM, liveKeysOf, runChecked, startHubRig, startLogin, type HubRig } from './support.js';

let rig: HubRig;
let sidecar: GatewayProcess;
let laptop: string;
let token: string;

beforeAll(async () => {
  rig = await startHubRig();
  laptop = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-bound`);
  const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
  expect(await login.exited).toBe(0);
  token = (JSON.parse(await readFile(path.join(laptop, 'login.json'), 'utf8')) as { token: string }).token;
  sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'info' } });
}, 60_000);

afterAll(async () => { await rig?.close(); });

const CHAT = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'bound' }] });
const chat = (base: string, headers: Record<string, string> = {}) => fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: CHAT });

async function exchange(subject: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${rig.hub.url}/oauth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', subject_token: subject,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    }),
  });
  return await response.json() as Record<string, unknown>;
}

describe('person-bound credentials from the hub', () => {
  it('the exchange hands out a person-bound session credential of at most an hour, never the team key', async () => {
    const answer = await exchange(token);
    const credential = String(answer.access_token);
    expect(credential).toMatch(/^gws-/);
    expect(Number(answer.expires_in)).toBeLessThanOrEqual(3600);
    expect(answer).toMatchObject({ person: PERSON, team: TEAM });
    expect(JSON.stringify(answer)).not.toMatch(/sk-gw-/);
    for (const live of await liveKeysOf(rig.hub.home)) expect(JSON.stringify(answer)).not.toContain(live);
    const served = await chat(rig.hub.url, { 'x-gw-vk': credential });
    expect(served.status).toBe(200);
  });

  it('a live key presented at the hub is refused: no call without a person', async () => {
    const live = await liveKeysOf(rig.hub.home);
    expect(live.length).toBeGreaterThan(0);
    for (const key of live) expect((await chat(rig.hub.url, { 'x-gw-vk': key })).status).toBe(401);
    const forged = String((await exchange(token)).access_token).replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect((await chat(rig.hub.url, { 'x-gw-vk': forged })).status).toBe(401);
  });

  it('the sidecar is served, and the hub audit names the person on every call it serves for it', async () => {
    expect((await chat(sidecar.url)).status).toBe(200);
    const served = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'request' && record.team === TEAM);
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((record) => record.person === PERSON)).toBe(true);
  });

  it('a removed person is refused within 5 s, through the sidecar and with a copied credential', async () => {
    const copied = String((await exchange(token)).access_token);
    expect((await chat(rig.hub.url, { 'x-gw-vk': copied })).status).toBe(200);
    expect((await chat(sidecar.url)).status).toBe(200);
    await runChecked(['people', 'remove', PERSON], rig.hub.home);
    const started = Date.now();
    await waitUntil(async () => (await chat(rig.hub.url, { 'x-gw-vk': copied })).status === 401, { timeoutMs: 5_000, intervalMs: 200, what: 'the copied credential to be refused' });
    await waitUntil(async () => (await chat(sidecar.url)).status === 401, { timeoutMs: Math.max(500, 5_000 - (Date.now() - started)), intervalMs: 200, what: 'the sidecar to be refused' });
    expect(Date.now() - started).toBeLessThan(5_000);
    const refused = await chat(sidecar.url);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('run gw login');
  }, 20_000);
});
