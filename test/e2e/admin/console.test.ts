// The admin console (/ui) in real headless Chromium against a real hub, and the admin API
// from the CLI of another home (issue 18): an admin signs in with an admin token, approves
// a waiting `gw login` (which then finishes), creates a key and sees it once, revokes it
// (a call with it is refused), filters the request explorer to one person and opens a
// request, and reads a usage chart whose totals match the API's. Refusals: no credential,
// a person's token, an inference key, a cross-site form. Every change is an audit record
// naming the admin. Screenshots of each page go to test-results/console/.
import { mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw } from '../../support/gateway-process.js';
import { readAudit } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, TEAM, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';

const OIDC_SECRET = 'oidc-client-secret-for-console-tests';
const CHROMIUM = {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};
const SHOTS = path.resolve(import.meta.dirname, '../../../test-results/console');
let rig: HubRig;
let context: BrowserContext;
let page: Page;
let profile: string;
let adminToken: string;
let personToken: string;

function chat(credential: string, model = 'mock/echo'): Promise<Response> {
  return fetch(`${rig.hub.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello console' }] }),
  });
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  profile = await mkdtemp(path.join(os.tmpdir(), 'gw-chromium-'));
  const [started, launched] = await Promise.all([
    startHubRig({ env: { GW_OIDC_SECRET: OIDC_SECRET } }),
    chromium.launchPersistentContext(profile, { ...CHROMIUM, locale: 'en-US', viewport: { width: 1200, height: 900 } }),
  ]);
  rig = started;
  context = launched;
  page = context.pages()[0] ?? await context.newPage();
  // A locator that finds nothing fails the step, naming it, well before the test's own time-out.
  page.setDefaultTimeout(10_000);
  // A price for the mock, so calls have a cost the Usage page sums (as gw usage does).
  await runChecked(['prices', 'set', 'mock/echo', '--input', '3', '--output', '15'], rig.hub.home);
  adminToken = (await runChecked(['admin', 'tokens', 'create', '--name', 'ops@example.com'], rig.hub.home)).trim();
  expect(adminToken).toMatch(/^gwa-/);
  // The running hub reads the CLI's change from state.json on its next poll.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await fetch(`${rig.hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
}, 60_000);

afterAll(async () => {
  await context?.close();
  await rig?.close();
  await rm(profile, { recursive: true, force: true });
});

describe('the console in Chromium', () => {
  it('signs in with an admin token; the session cookie is HttpOnly and SameSite=Strict', async () => {
    await page.goto(`${rig.hub.url}/ui`);
    await page.getByLabel(/Admin token/).fill(adminToken);
    await shot('sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as ops@example.com').waitFor();
    const cookie = (await context.cookies()).find((entry) => entry.name === 'gw_admin')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    expect(await page.evaluate(() => document.cookie)).not.toContain('gw_admin');
  });

  it('approves a waiting gw login with one click, showing what the hub saw apart from what the device claims; the login finishes', async () => {
    const login = startLogin(rig.hub.url, await makeHome('gw-laptop-'), NO_KEYCHAIN);
    const code = await login.code;
    await page.getByRole('button', { name: 'Device logins' }).click();
    await page.reload();
    const row = page.getByRole('row', { name: new RegExp(code) });
    await row.waitFor();
    await expect(row.getByText(/from 127\.0\.0\.1/).count()).resolves.toBe(1);
    await expect(row.locator('.claim').textContent()).resolves.toContain('program:');
    await shot('device-logins');
    await row.getByLabel('Approve for').selectOption(PERSON);
    await row.getByRole('button', { name: `Approve ${code}` }).click();
    await page.getByText(`Approved ${code}.`).waitFor();
    expect(await login.exited).toBe(0);
    const records = await readAudit(rig.hub.home);
    expect(records.find((record) => record.kind === 'admin.change' && record.data?.action === 'devices.approve')?.data).toMatchObject({ admin_name: 'ops@example.com', via: 'console', person: PERSON, target: code });
  }, 40_000);

  it('creates a key and shows it once; revoking it makes a call with it refused', async () => {
    await page.getByRole('button', { name: 'Keys' }).click();
    // The team list arrives after the form: submitting before would be stopped by the required select.
    await page.getByLabel('Team').locator('option', { hasText: TEAM }).waitFor({ state: 'attached' });
    await page.getByLabel('Name').fill('console-made');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!.trim();
    expect(key).toMatch(/^sk-gw-/);
    await shot('keys-new-key');
    expect((await chat(key)).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.reload();
    expect(await page.content()).not.toContain(key);
    const id = /vk_[0-9A-Za-z]{12}/.exec((await page.getByRole('row', { name: /console-made/ }).textContent())!)![0];
    await page.getByRole('button', { name: `Revoke ${id}` }).click();
    // A confirm step names the key before it is revoked.
    await page.getByRole('alertdialog').getByRole('button', { name: `Revoke key ${id}`, exact: true }).click();
    await page.getByText(`Revoked ${id}.`).waitFor();
    const deadline = Date.now() + 3_000;
    let status = 200;
    while (Date.now() < deadline && (status = (await chat(key)).status) !== 401) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(status).toBe(401);
    const audit = JSON.stringify(await readAudit(rig.hub.home));
    expect(audit).not.toContain(key);
  });

  it('filters the request explorer to one person and opens a request', async () => {
    personToken = await issuePersonToken();
    for (let index = 0; index < 3; index += 1) expect((await chat(personToken)).status).toBe(200);
    await page.getByRole('button', { name: 'Requests' }).click();
    await page.getByLabel('person').fill(PERSON);
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByRole('row').filter({ hasText: PERSON });
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    // Only the header row is left once the filtered answer is in.
    await expect.poll(() => page.getByRole('row').filter({ hasNotText: PERSON }).count()).toBe(1);
    await rows.first().getByRole('button', { name: /^Open request req_/ }).click();
    const detail = page.getByRole('region', { name: /^Request req_/ });
    await expect(detail.textContent()).resolves.toContain(`person ${PERSON}`);
    await shot('requests');
  });

  it('shows usage and spend as charts whose totals match the API and gw usage', async () => {
    await page.getByRole('button', { name: 'Usage' }).click();
    await page.getByLabel('Group by').selectOption('person');
    await page.getByRole('img', { name: 'Requests per day by person' }).locator('canvas').waitFor();
    await page.getByRole('img', { name: 'Spend per day by person (USD)' }).locator('canvas').waitFor();
    const shown = Number(await page.getByTestId(`requests-${PERSON}`).textContent());
    const report = await (await fetch(`${rig.hub.url}/admin/api/usage?by=person`, { headers: { authorization: `Bearer ${adminToken}` } })).json() as { groups: Array<{ group: string; requests: number }> };
    const fromTrail = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'request' && record.person === PERSON).length;
    expect(shown).toBe(report.groups.find((group) => group.group === PERSON)!.requests);
    expect(shown).toBe(fromTrail);
    const spent = Number(await page.getByTestId(`spend-${PERSON}`).textContent());
    const usage = JSON.parse(await runChecked(['usage', '--by', 'person', '--json'], rig.hub.home)) as { rows: Array<{ group: string; calls: number; cost_nano_usd: number }> };
    const row = usage.rows.find((entry) => entry.group === PERSON)!;
    expect(row.calls).toBe(shown);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeCloseTo(row.cost_nano_usd / 1e9, 6);
    await shot('usage');
  });

  it('shows each provider\'s health from what callers got', async () => {
    // One call the provider fails: the mock answers mock/error-500 with a 500.
    await chat(personToken, 'mock/error-500');
    // Its record lands just after the answer: the page must be read after it.
    await expect.poll(async () => (await readAudit(rig.hub.home)).some((record) => record.kind === 'request' && record.provider === 'mock' && Number(record.status) >= 500)).toBe(true);
    await page.getByRole('button', { name: 'Providers' }).click();
    const row = page.getByRole('table', { name: 'Provider health' }).getByRole('row', { name: /^mock / });
    await row.waitFor();
    const records = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'request' && record.provider === 'mock');
    const cells = await row.getByRole('cell').allTextContents();
    expect(Number(cells[2])).toBe(records.length);
    expect(Number(cells[3])).toBe(records.filter((record) => Number(record.status) >= 500).length);
    expect(Number(cells[3])).toBeGreaterThanOrEqual(1);
    await shot('providers');
  });

  it('verifies the trail with one click, and a record edited on disk is named BROKEN', async () => {
    await page.getByRole('button', { name: 'Audit' }).click();
    await page.getByText('writable').waitFor();
    await page.getByRole('button', { name: 'Verify now' }).click();
    await expect(page.getByRole('status', { name: 'Verification' }).textContent()).resolves.toMatch(/Intact.*intact, \d+ records/);
    await shot('audit');
    // An insider edits an old record in place (same length, valid JSON): the next verification names it.
    const file = path.join(rig.hub.home, 'audit', 'audit.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    const target = lines.findIndex((line) => line.includes('"kind":"request"') && line.includes('"status":200'));
    expect(target).toBeGreaterThan(0);
    // A byte offset: records may hold non-ASCII text, so characters and bytes differ.
    const line = lines[target]!;
    const offset = Buffer.byteLength(`${lines.slice(0, target).join('\n')}\n`) + Buffer.byteLength(line.slice(0, line.indexOf('"status":200') + '"status":'.length));
    const handle = await open(file, 'r+');
    try {
      await handle.write('201', offset);
      await page.getByRole('button', { name: 'Verify now' }).click();
      // The earlier verdict stays on the page until the new one replaces it.
      await expect.poll(() => page.getByRole('status', { name: 'Verification' }).textContent()).toMatch(new RegExp(`BROKEN at seq ${target + 1}:`));
      await shot('audit-broken');
    } finally {
      await handle.write('200', offset);
      await handle.close();
    }
  });
});

describe('refusals', () => {
  it('an unauthenticated browser, a person\'s token and an inference key are refused (401) and recorded', async () => {
    const anonymous = await fetch(`${rig.hub.url}/admin/api/people`);
    expect(anonymous.status).toBe(401);
    const asPerson = await fetch(`${rig.hub.url}/admin/api/people`, { headers: { authorization: `Bearer ${personToken}` } });
    expect(asPerson.status).toBe(401);
    expect(JSON.stringify(await asPerson.json())).toContain('not an admin token');
    const records = await readAudit(rig.hub.home);
    expect(records.some((record) => record.kind === 'admin.refused')).toBe(true);
    expect(JSON.stringify(records)).not.toContain(personToken);
  });

  it('a cross-site form riding the console cookie is refused', async () => {
    const cookie = (await context.cookies()).find((entry) => entry.name === 'gw_admin')!;
    const forged = await fetch(`${rig.hub.url}/admin/api/teams`, {
      method: 'POST', headers: { cookie: `gw_admin=${cookie.value}`, origin: 'https://evil.example', 'content-type': 'application/json' }, body: JSON.stringify({ name: 'evil' }),
    });
    expect(forged.status).toBe(401);
    const noHeader = await fetch(`${rig.hub.url}/admin/api/teams`, {
      method: 'POST', headers: { cookie: `gw_admin=${cookie.value}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'evil' }),
    });
    expect(noHeader.status).toBe(401);
    expect(JSON.stringify(await noHeader.json())).toContain('x-gw-csrf');
    const teams = await (await fetch(`${rig.hub.url}/admin/api/teams`, { headers: { authorization: `Bearer ${adminToken}` } })).json() as Array<{ name: string }>;
    expect(teams.map((team) => team.name)).not.toContain('evil');
  });
});

describe('the CLI, remotely', () => {
  it('gw keys create --hub with an admin token from another home works; the change names the admin', async () => {
    const elsewhere = await makeHome('gw-admin-laptop-');
    const made = await runGw(['keys', 'create', '--team', TEAM, '--name', 'remote', '--hub', rig.hub.url], { home: elsewhere, env: { GW_ADMIN_TOKEN: adminToken } });
    expect(made.code, made.stderr).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(/^sk-gw-/);
    expect((await chat(key)).status).toBe(200);
    const listed = await runGw(['keys', 'list', '--hub', rig.hub.url], { home: elsewhere, env: { GW_ADMIN_TOKEN: adminToken } });
    expect(listed.stdout).toContain('remote');
    const change = (await readAudit(rig.hub.home)).find((record) => record.kind === 'admin.change' && record.data?.action === 'keys.create' && record.data?.via === 'api');
    expect(change?.data).toMatchObject({ admin_name: 'ops@example.com', team: TEAM, name: 'remote' });
  });

  it('gw login --admin keeps the admin token for that hub; later --hub commands use it with nothing in the environment', async () => {
    const elsewhere = await makeHome('gw-admin-login-');
    const login = await runGw(['login', '--admin', '--hub', rig.hub.url], { home: elsewhere, env: { ...NO_KEYCHAIN, GW_ADMIN_TOKEN: adminToken } });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Logged in to ${rig.hub.url} as admin ops@example.com`);
    const added = await runGw(['people', 'add', 'bob@example.com', '--team', TEAM, '--hub', rig.hub.url], { home: elsewhere, env: NO_KEYCHAIN });
    expect(added.code, added.stderr).toBe(0);
    expect(await runChecked(['people', 'list', '--json'], rig.hub.home)).toContain('bob@example.com');
  });

  it('without an admin token it is refused (exit 2) and the hub records the refusal', async () => {
    const before = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'admin.refused').length;
    const missing = await runGw(['keys', 'create', '--team', TEAM, '--hub', rig.hub.url], { home: await makeHome() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('gw login --admin');
    const wrong = await runGw(['people', 'add', 'mallory@example.com', '--team', TEAM, '--hub', rig.hub.url], { home: await makeHome(), env: { GW_ADMIN_TOKEN: 'gwa-notarealtokennotarealtokennotarealtokenabc' } });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('the hub refused');
    // Refusals are recorded at most once a minute per address, and the first one from this test run may already be counted.
    const after = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'admin.refused');
    expect(after.length).toBeGreaterThanOrEqual(Math.max(before, 1));
    const people = await runChecked(['people', 'list', '--json'], rig.hub.home);
    expect(people).not.toContain('mallory');
  });
});

describe('a laptop sidecar', () => {
  it('shows the logged-in person their own requests read-only at /ui, behind the local guard, with nothing that changes state', async () => {
    const laptop = await makeHome('gw-console-laptop-');
    const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
    const code = await login.code;
    await fetch(`${rig.hub.url}/admin/api/devices/${code}/approve`, {
      method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ person: PERSON }),
    });
    expect(await login.exited).toBe(0);
    const sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' } });
    const served = await fetch(`${sidecar.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'from the laptop' }] }) });
    expect(served.status).toBe(200);
    const laptopPage = await context.newPage();
    await laptopPage.goto(`${sidecar.url}/ui`);
    await laptopPage.getByText(`Your own requests on this laptop: ${PERSON} (read-only)`).waitFor();
    expect(await laptopPage.getByRole('navigation').getByRole('button').allTextContents()).toEqual(['Requests', 'Sessions', 'Usage', 'Audit']);
    await expect.poll(() => laptopPage.getByRole('row').filter({ hasText: PERSON }).count()).toBeGreaterThanOrEqual(1);
    await laptopPage.screenshot({ path: path.join(SHOTS, 'sidecar-requests.png'), fullPage: true });
    // The person can check their own trail too; the hub lists it among the trails it witnesses.
    await laptopPage.getByRole('button', { name: 'Audit' }).click();
    await laptopPage.getByRole('button', { name: 'Verify now' }).click();
    await expect(laptopPage.getByRole('status', { name: 'Verification' }).textContent()).resolves.toMatch(/Intact/);
    await laptopPage.close();
    await expect.poll(async () => {
      const trails = await (await fetch(`${rig.hub.url}/admin/api/audit/witnessed`, { headers: { authorization: `Bearer ${adminToken}` } })).json() as Array<{ from: { person: string } | null }>;
      return trails.some((trail) => trail.from?.person === PERSON);
    }, { timeout: 15_000 }).toBe(true);
    await page.getByRole('button', { name: 'Requests' }).click();
    await page.getByRole('button', { name: 'Audit' }).click();
    await page.getByRole('table', { name: 'Witnessed trails' }).getByRole('row', { name: new RegExp(PERSON) }).waitFor();
    await shot('audit-witnessed');
    // Nothing that changes state exists on a sidecar, and its guard refuses a foreign Host.
    expect((await fetch(`${sidecar.url}/admin/api/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404);
    expect((await fetch(`${sidecar.url}/admin/api/people`)).status).toBe(404);
    // fetch may not set Host: a raw request, as a DNS-rebinding page would make.
    const foreign = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${sidecar.url}/admin/api/requests`, { headers: { host: 'evil.example' } }, (response) => { response.resume(); resolve(response.statusCode ?? 0); });
      request.on('error', reject).end();
    });
    expect(foreign).toBe(403);
  }, 60_000);
});

const GROUPS: Record<string, string[]> = { 'lead@example.com': ['gw-admins', 'staff'], 'reader@example.com': ['gw-readers', 'staff'] };

describe('admins signing in through the hub\'s OpenID Connect provider', () => {
  let idp: Server;
  let issuer: string;
  let fresh: Browser;
  afterAll(async () => {
    await fresh?.close();
    await new Promise<void>((resolve) => { if (!idp) return resolve(); idp.closeAllConnections(); idp.close(() => resolve()); });
  });

  beforeAll(async () => {
    // Each admin signs in from a browser of their own: no console cookie of the others'.
    fresh = await chromium.launch(CHROMIUM);
    idp = createServer();
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [{
        client_id: 'gw-hub', client_secret: OIDC_SECRET, redirect_uris: [`${rig.hub.url}/device/oidc/callback`, `${rig.hub.url}/ui/oidc/callback`],
        grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
      }],
      // Whoever signs in is who they type; lead@ is in the gw-admins group, reader@ in gw-readers (a viewer group).
      findAccount: async (_context, id) => ({ accountId: id, claims: async () => ({ sub: id, email: id, email_verified: true, groups: GROUPS[id] ?? ['staff'] }) }),
      claims: { openid: ['sub'], email: ['email', 'email_verified', 'groups'] },
      cookies: { keys: ['gw-console-test-cookie-key'] },
      features: { devInteractions: { enabled: true } },
    });
    idp.on('request', provider.callback());
    for (const [name, value] of [['oidc_issuer', issuer], ['oidc_client_id', 'gw-hub'], ['oidc_client_secret', 'env:GW_OIDC_SECRET'], ['public_url', rig.hub.url],
      ['admin_emails', 'ops2@example.com'], ['admin_group', 'gw-admins'], ['role_groups', 'gw-readers=viewer']]) {
      await runChecked(['settings', 'set', name!, value!], rig.hub.home);
    }
    // The running hub reads the settings on its next poll.
    const offered = async () => ((await (await fetch(`${rig.hub.url}/ui/sign-in-options`)).json()) as { oidc_issuer: string | null }).oidc_issuer;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && await offered() !== issuer) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await offered()).toBe(issuer);
  }, 30_000);

  async function signIn(email: string): Promise<{ browser: BrowserContext; tab: Page }> {
    const browser = await fresh.newContext({ locale: 'en-US', viewport: { width: 1200, height: 900 } });
    const tab = await browser.newPage();
    tab.setDefaultTimeout(10_000);
    await tab.goto(`${rig.hub.url}/ui`);
    const link = tab.getByRole('link', { name: `Sign in with ${new URL(issuer).host}` });
    await link.waitFor();
    if (email === 'ops2@example.com') await tab.screenshot({ path: path.join(SHOTS, 'sign-in-with-oidc.png'), fullPage: true });
    await link.click();
    await tab.fill('input[name=login]', email);
    await tab.fill('input[name=password]', 'any password');
    await tab.click('button:has-text("Sign-in")');
    await tab.click('button:has-text("Continue")');
    await tab.waitForURL(new RegExp(`^${rig.hub.url}/ui`));
    return { browser, tab };
  }

  it('an admin named in admin_emails signs in and changes things as themselves; the session cookie is HttpOnly and SameSite=Strict', async () => {
    const { browser, tab } = await signIn('ops2@example.com');
    try {
      await tab.getByText('Signed in as ops2@example.com').waitFor();
      const cookie = (await browser.cookies()).find((entry) => entry.name === 'gw_admin')!;
      expect({ httpOnly: cookie.httpOnly, sameSite: cookie.sameSite }).toEqual({ httpOnly: true, sameSite: 'Strict' });
      await tab.getByRole('button', { name: 'Teams' }).click();
      await tab.getByLabel('Name').fill('oidc-made');
      await tab.getByRole('button', { name: 'Create team' }).click();
      await tab.getByText('Created team oidc-made.').waitFor();
      // A record lands just after its answer.
      await expect.poll(async () => (await readAudit(rig.hub.home)).find((record) => record.kind === 'admin.change' && record.data?.action === 'teams.create' && record.data?.target === 'oidc-made')?.data)
        .toMatchObject({ admin_id: 'oidc:ops2@example.com', admin_name: 'ops2@example.com', via: 'console' });
      const records = await readAudit(rig.hub.home);
      expect(records.find((record) => record.kind === 'admin.sign_in' && record.person === 'ops2@example.com')?.data).toMatchObject({ via: 'oidc', issuer, granted_by: 'admin_emails' });
    } finally {
      await browser.close();
    }
  }, 40_000);

  it('a member of admin_group signs in; when the group stops being the admin group, their session stops at once', async () => {
    const { browser, tab } = await signIn('lead@example.com');
    try {
      await tab.getByText('Signed in as lead@example.com').waitFor();
      await tab.screenshot({ path: path.join(SHOTS, 'sign-in-oidc.png'), fullPage: true });
      const whoami = () => tab.evaluate(async () => (await fetch('/admin/api/whoami')).status);
      expect(await whoami()).toBe(200);
      await runChecked(['settings', 'set', 'admin_group', 'none'], rig.hub.home);
      await expect.poll(whoami, { timeout: 10_000 }).toBe(401);
    } finally {
      await browser.close();
      await runChecked(['settings', 'set', 'admin_group', 'gw-admins'], rig.hub.home);
    }
  }, 40_000);

  it('a member of a role_groups viewer group signs in as a viewer: reads, is refused a change, and loses the session when the group goes', async () => {
    const { browser, tab } = await signIn('reader@example.com');
    try {
      await tab.getByText('Signed in as reader@example.com').waitFor();
      expect(await tab.getByTestId('role').textContent()).toBe('viewer: read-only');
      await tab.getByRole('button', { name: 'Teams' }).click();
      await tab.getByLabel('Name').fill('reader-made');
      await tab.getByRole('button', { name: 'Create team' }).click();
      expect(await tab.getByRole('alert').textContent()).toMatch(/Your role \(viewer\) does not allow this/);
      const records = await readAudit(rig.hub.home);
      expect(records.find((record) => record.kind === 'admin.sign_in' && record.person === 'reader@example.com')?.data).toMatchObject({ via: 'oidc', granted_by: 'role_groups:gw-readers', role: 'viewer' });
      const whoami = () => tab.evaluate(async () => (await fetch('/admin/api/whoami')).status);
      expect(await whoami()).toBe(200);
      await runChecked(['settings', 'set', 'role_groups', 'none'], rig.hub.home);
      await expect.poll(whoami, { timeout: 10_000 }).toBe(401);
    } finally {
      await browser.close();
    }
  }, 40_000);

  it('someone the identity provider knows but the hub does not list is refused, and the refusal is recorded', async () => {
    const { browser, tab } = await signIn('someone@example.com');
    try {
      await tab.getByRole('heading', { name: 'Not an admin' }).waitFor();
      expect(await tab.getByRole('alert').textContent()).toContain('Signed in as someone@example.com, who is not an admin of this hub');
      expect((await browser.cookies()).some((entry) => entry.name === 'gw_admin')).toBe(false);
      await expect.poll(async () => (await readAudit(rig.hub.home)).filter((record) => record.kind === 'admin.refused' && record.person === 'someone@example.com').length).toBe(1);
    } finally {
      await browser.close();
    }
  }, 40_000);
});

/** A device login approved by the hub admin over the API, as a person's atu- token. */
async function issuePersonToken(): Promise<string> {
  const form = (path: string, fields: Record<string, string>) => fetch(`${rig.hub.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const started = await (await form('/oauth/device/code', { client_id: 'gw-cli' })).json() as { device_code: string; user_code: string };
  const approved = await fetch(`${rig.hub.url}/admin/api/devices/${started.user_code}/approve`, {
    method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ person: PERSON }),
  });
  expect(approved.status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const issued = await (await form('/oauth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code })).json() as { access_token: string };
  return issued.access_token;
}
