// Sign-in that proves the person (issue 26, deliverable 7), against a real hub process and a
// real oidc-provider: an email counts only when the issuer says email_verified is the boolean
// true (missing, or the string "false", is refused) unless the hub's setting
// oidc_verifies_email says the issuer verifies every address; and the sign-in is bound to the
// browser that started it, so a callback URL opened by anyone else signs nobody in. Both for
// console sign-in (/ui/oidc) and for device-login approval (/device/oidc).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudit, waitForState } from '../helpers.js';
import { PERSON, runChecked, startHubRig, type HubRig } from './support.js';
import { Jar, signInAtIssuer, startIssuer, type Issuer } from './oidc-driver.js';

const OIDC_SECRET = 'oidc-client-secret-for-proof-tests-0007';
const ADMIN = 'ops@example.com';
let rig: HubRig;
let issuer: Issuer;

async function setSettings(pairs: Array<[string, string]>): Promise<void> {
  for (const [name, value] of pairs) await runChecked(['settings', 'set', name, value], rig.hub.home);
  // The running hub reads state.json on its next poll.
  await waitForState(rig.hub);
}

beforeAll(async () => {
  rig = await startHubRig({ env: { GW_OIDC_SECRET: OIDC_SECRET } });
  issuer = await startIssuer(OIDC_SECRET, [`${rig.hub.url}/device/oidc/callback`, `${rig.hub.url}/ui/oidc/callback`]);
  await setSettings([['oidc_issuer', issuer.url], ['oidc_client_id', 'gw-hub'], ['oidc_client_secret', 'env:GW_OIDC_SECRET'], ['public_url', rig.hub.url], ['admin_emails', ADMIN]]);
}, 60_000);

afterAll(async () => {
  await issuer?.close();
  await rig?.close();
});

/** Starts a console sign-in in `jar` and signs in at the issuer as `login`; the callback URL, unopened. */
async function consoleCallback(jar: Jar, login: string): Promise<string> {
  const started = await jar.fetch(`${rig.hub.url}/ui/oidc/start`);
  expect(started.status).toBe(302);
  return signInAtIssuer(jar, started.headers.get('location')!, `${rig.hub.url}/ui/oidc/callback`, login);
}

function adminSessionSet(response: Response): boolean {
  return response.headers.getSetCookie().some((line) => line.startsWith('gw_admin=') && !/max-age=0\b/i.test(line));
}

/** A device code, and its OIDC approval started from the verification page in `jar`, signed in as `login`. */
async function deviceCallback(jar: Jar, login: string): Promise<{ userCode: string; callback: string }> {
  const code = await (await fetch(`${rig.hub.url}/oauth/device/code`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=gw-cli' })).json() as { user_code: string };
  const entry = await (await jar.fetch(`${rig.hub.url}/device?user_code=${code.user_code}`)).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(entry)![1]!;
  const started = await jar.fetch(`${rig.hub.url}/device`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, user_code: code.user_code, action: 'oidc' }).toString(),
  });
  expect(started.status).toBe(303);
  return { userCode: code.user_code, callback: await signInAtIssuer(jar, started.headers.get('location')!, `${rig.hub.url}/device/oidc/callback`, login) };
}

async function approvedBy(userCode: string): Promise<string | null> {
  const listed = JSON.parse(await runChecked(['device', 'list', '--json'], rig.hub.home)) as Array<{ code: string; approved_by: string | null }>;
  return listed.find((entry) => entry.code === userCode)?.approved_by ?? null;
}

describe('console sign-in through OpenID Connect', () => {
  it.each([['missing', 'no email_verified claim'], ['false', 'email_verified "false" (a string)']])('refuses an admin_emails address whose issuer sends %s (%s)', async (verified) => {
    const jar = new Jar();
    const callback = await consoleCallback(jar, `${verified}:${ADMIN}`);
    const answer = await jar.fetch(callback);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('email_verified is not true');
    expect(adminSessionSet(answer)).toBe(false);
  }, 30_000);

  it('admits it with email_verified true, and the browser-binding cookie is HttpOnly, SameSite=Lax, short-lived and scoped to the callback', async () => {
    const jar = new Jar();
    const callback = await consoleCallback(jar, `true:${ADMIN}`);
    const binding = jar.setCookies.find((line) => line.startsWith('gw_console_oidc='))!;
    expect(binding).toMatch(/; Path=\/ui\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/);
    // The binding value is its own secret: the callback URL does not carry it.
    expect(callback).not.toContain(binding.split(';')[0]!.split('=')[1]!);
    const answer = await jar.fetch(callback);
    expect(answer.status).toBe(303);
    expect(adminSessionSet(answer)).toBe(true);
    expect(jar.has(rig.hub.url, 'gw_console_oidc')).toBe(false);
  }, 30_000);

  it('gives no session to whoever opens the callback URL but the browser that started the sign-in; that browser still finishes', async () => {
    const jar = new Jar();
    const callback = await consoleCallback(jar, `true:${ADMIN}`);
    const stranger = await fetch(callback, { redirect: 'manual' });
    expect(stranger.status).toBe(400);
    expect(adminSessionSet(stranger)).toBe(false);
    expect(await stranger.text()).toContain('started in another browser');
    // A stranger who copies the state into the cookie does no better: the cookie holds another value.
    const state = new URL(callback).searchParams.get('state')!;
    const forged = await fetch(callback, { redirect: 'manual', headers: { cookie: `gw_console_oidc=${state}` } });
    expect(forged.status).toBe(400);
    expect(adminSessionSet(forged)).toBe(false);
    const owner = await jar.fetch(callback);
    expect(owner.status).toBe(303);
    expect(adminSessionSet(owner)).toBe(true);
    await expect.poll(async () => (await readAudit(rig.hub.home)).some((record) => record.kind === 'admin.refused' && String(record.data?.reason).includes('other than the one that started it'))).toBe(true);
  }, 30_000);
});

describe('device-login approval through OpenID Connect', () => {
  it.each(['missing', 'false'])('does not approve for an email whose email_verified is %s', async (verified) => {
    const jar = new Jar();
    const { userCode, callback } = await deviceCallback(jar, `${verified}:${PERSON}`);
    const answer = await jar.fetch(callback);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('email_verified is not true');
    expect(await approvedBy(userCode)).toBeNull();
  }, 30_000);

  it('approves only in the browser that started it, with email_verified true', async () => {
    const jar = new Jar();
    const { userCode, callback } = await deviceCallback(jar, `true:${PERSON}`);
    expect(jar.setCookies.find((line) => line.startsWith('gw_device_oidc='))).toMatch(/; Path=\/device; HttpOnly; SameSite=Lax; Max-Age=600$/);
    const stranger = await fetch(callback, { redirect: 'manual' });
    expect(stranger.status).toBe(400);
    expect(await approvedBy(userCode)).toBeNull();
    const owner = await jar.fetch(callback);
    expect(owner.status).toBe(200);
    expect(await owner.text()).toContain(`Signed in as ${PERSON}`);
    expect(await approvedBy(userCode)).toBe(`oidc:${issuer.url}`);
  }, 30_000);
});

describe('OIDC groups decide the team (oidc_group_teams)', () => {
  it('a sign-in places the person in the team of their first mapped group: added when new, moved when elsewhere, each an admin.change', async () => {
    await runChecked(['teams', 'create', 'ml'], rig.hub.home);
    await runChecked(['people', 'add', 'dave@example.com', '--team', 'eng'], rig.hub.home);
    await setSettings([['oidc_group_teams', 'ml-people=ml,eng-people=eng']]);
    const teamOf = async (email: string) => (JSON.parse(await runChecked(['people', 'list', '--json'], rig.hub.home)) as Array<{ email: string; team: string }>).find((person) => person.email === email)?.team;
    for (const [login, email] of [['true:carol@example.com:staff+ml-people', 'carol@example.com'], ['true:dave@example.com:ml-people+eng-people', 'dave@example.com']]) {
      const jar = new Jar();
      const { userCode, callback } = await deviceCallback(jar, login);
      const answer = await jar.fetch(callback);
      expect(answer.status).toBe(200);
      expect(await approvedBy(userCode)).toBe(`oidc:${issuer.url}`);
      expect(await teamOf(email)).toBe('ml');
    }
    const changes = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'admin.change' && record.data?.via === 'oidc' && record.team === 'ml');
    expect(changes.map((record) => record.data?.action)).toEqual(['people.add', 'people.move']);
  }, 40_000);
});

// Last: it changes a setting the tests above rely on.
describe('an issuer configured as verifying every address (oidc_verifies_email on)', () => {
  it('admits an email without email_verified', async () => {
    await setSettings([['oidc_verifies_email', 'on']]);
    const jar = new Jar();
    const answer = await jar.fetch(await consoleCallback(jar, `missing:${ADMIN}`));
    expect(answer.status).toBe(303);
    expect(adminSessionSet(answer)).toBe(true);
  }, 30_000);
});
