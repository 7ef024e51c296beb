// Issue 14.3: a running sidecar follows the login. A revocation, a new `gw login`,
// a `gw logout` and another `gw login` against one sidecar process, with no
// restart: each change is picked up within seconds, with a message that says what
// happened and what to do, and the cycle ends with calls served again.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayProcess } from '../../support/gateway-process.js';
import { waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from './support.js';

let rig: HubRig;
let sidecar: GatewayProcess;
let laptop: string;

async function login(): Promise<void> {
  const child = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  await runChecked(['device', 'approve', await child.code, '--person', PERSON], rig.hub.home);
  expect(await child.exited).toBe(0);
}

type Answer = { status: number; code: string; message: string };
async function chat(): Promise<Answer> {
  const response = await fetch(`${sidecar.url}/v1/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'follow' }] }),
  });
  const body = await response.json() as { error?: { code?: string; message?: string } };
  return { status: response.status, code: body.error?.code ?? '', message: body.error?.message ?? '' };
}

/** Waits (within 5 s of the change) for the sidecar to answer as expected, and returns that answer. */
async function settle(expected: (answer: Answer) => boolean, what: string): Promise<Answer> {
  let last: Answer = { status: 0, code: '', message: '' };
  await waitUntil(async () => expected(last = await chat()), { timeoutMs: 5_000, intervalMs: 200, what });
  return last;
}

beforeAll(async () => {
  rig = await startHubRig();
  laptop = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-follow`);
  await login();
  sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'info' } });
}, 60_000);

afterAll(async () => { await rig?.close(); });

describe('the sidecar follows the login, with no restart', () => {
  it('revoke → refused with "run gw login"; gw login → served; gw logout → "logged out"; gw login → served', async () => {
    const pid = sidecar.child.pid;
    expect((await chat()).status).toBe(200);

    const tokens = JSON.parse(await runChecked(['tokens', 'list', '--json'], rig.hub.home)) as Array<{ id: string; person: string }>;
    await runChecked(['tokens', 'revoke', tokens.find((entry) => entry.person === PERSON)!.id], rig.hub.home);
    const revoked = await settle((answer) => answer.status === 401, 'the revocation to reach the sidecar');
    expect(revoked.message).toContain('run gw login');
    expect(revoked.message).toContain('no restart needed');

    await login();
    await settle((answer) => answer.status === 200, 'the new login to be served');

    const logout = await runChecked(['logout'], laptop, NO_KEYCHAIN);
    expect(logout).toContain('logged out');
    const loggedOut = await settle((answer) => answer.code === 'auth_logged_out', 'the logout to reach the sidecar');
    expect(loggedOut.status).toBe(401);
    expect(loggedOut.message).toContain('logged out');
    expect(loggedOut.message).toContain('run gw login');
    const health = await (await fetch(`${sidecar.url}/health`)).json() as { components: { hub: { status: string; reason: string } } };
    expect(health.components.hub).toMatchObject({ status: 'down', reason: expect.stringContaining('run gw login') });

    await login();
    await settle((answer) => answer.status === 200, 'the login after logout to be served');
    expect(sidecar.child.pid).toBe(pid);
    expect(sidecar.child.exitCode).toBeNull();

    // One line per change in the sidecar's log, none of them with a secret.
    // The log is flushed about once a second.
    await waitUntil(() => (sidecar.stderr().match(/new gw login picked up/g)?.length ?? 0) >= 2, { timeoutMs: 3_000, what: 'the log lines' });
    const log = sidecar.stderr();
    expect(log).toMatch(/refused this login .*run gw login \(no restart needed\)/);
    expect(log).toMatch(/gw logout: no longer serving through the hub/);
    expect(log.match(/new gw login picked up/g)?.length).toBe(2);
    expect(log).not.toMatch(/atu-[0-9A-Za-z]{10}|gws-tok_/);
  }, 90_000);
});
