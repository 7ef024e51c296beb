// The Keys, People and Teams pages (issue 30, deliverables 1 and 5) in real Chromium against a
// real hub: a key made in the page with an expiry shows that expiry, its last use and its exact
// spend after two priced calls (hand-computed from the tokens in the trail); a session key made
// by `gw token` against the hub is hidden as `gw keys list` hides it and shown with its expiry
// behind the toggle; a person and a team are added in the page, each change an admin.change in
// the trail; a refused form says what the CLI says. The same last use and spend come from the
// PostgreSQL trail reader, on a `gw serve --store` over a real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { confirmStep, layoutProblems, openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { GatewayJar, readAudit, waitUntil } from '../helpers.js';
import { openDatabase } from '../../../src/postgres/database.js';
import { createPostgresTrailReader } from '../../../src/postgres/postgres-trail-reader.js';
import { toSummary } from '../../../src/admin/trail-reader.js';
import { summarizeKeyUsage } from '../../../src/admin/key-usage.js';
import { PERSON, TEAM, runChecked, startHubRig, type HubRig } from '../device-login/support.js';

// `gw prices set mock/echo --input 3 --output 15`: USD per million tokens, so nano-USD per token.
const INPUT_NANO = 3_000;
const OUTPUT_NANO = 15_000;

let rig: HubRig;
let browser: ConsoleBrowser;
let page: Page;
let adminToken: string;

interface KeyRow { id: string; name: string | null; team: string; expires_at: string | null; revoked_at: string | null; session: boolean; last_used_at: string | null; requests: number; spend_nano_usd: number }
interface TrailLine { kind: string; ts: string; key_id?: string; operation?: string; tokens?: { input?: number; output?: number }; cost?: { nano_usd?: number }; data?: Record<string, unknown> }

async function waitForAdmin(url: string, token: string): Promise<void> {
  await waitUntil(async () => (await fetch(`${url}/admin/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status === 200, { timeoutMs: 15_000, what: 'the admin token to work' });
}

function chat(url: string, key: string, content: string): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content }] }),
  });
}

async function keysFromApi(url: string, token: string): Promise<KeyRow[]> {
  const answer = await fetch(`${url}/admin/api/keys`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  return await answer.json() as KeyRow[];
}

/** The spend the trail's tokens give at the mock's price, worked out here rather than read from the record. */
function handComputed(records: TrailLine[]): number {
  return records.reduce((sum, record) => sum + (record.tokens?.input ?? 0) * INPUT_NANO + (record.tokens?.output ?? 0) * OUTPUT_NANO, 0);
}

/** What the CLI says when it refuses (its stderr). */
async function cliRefusal(args: string[], home: string): Promise<string> {
  const result = await runGw(args, { home });
  expect(result.code).not.toBe(0);
  return result.stderr.trim();
}

async function alertText(): Promise<string> {
  const alert = page.getByRole('alert');
  await alert.waitFor();
  return (await alert.textContent())!.trim();
}

/** A device login approved by the admin, as `gw login` does it: the person gets one active token. */
async function signInADevice(person: string): Promise<void> {
  const form = (route: string, fields: Record<string, string>) => fetch(`${rig.hub.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const started = await (await form('/oauth/device/code', { client_id: 'gw-cli' })).json() as { device_code: string; user_code: string };
  const approved = await fetch(`${rig.hub.url}/admin/api/devices/${started.user_code}/approve`, {
    method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ person }),
  });
  expect(approved.status).toBe(200);
  await waitUntil(async () => (await form('/oauth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code })).status === 200, { timeoutMs: 10_000, what: 'the device token' });
}

async function adminChange(action: string, target: string): Promise<Record<string, unknown> | undefined> {
  return (await readAudit(rig.hub.home) as TrailLine[]).find((record) => record.kind === 'admin.change' && record.data?.action === action && record.data?.target === target)?.data;
}

beforeAll(async () => {
  [rig, browser] = await Promise.all([startHubRig(), openConsoleBrowser()]);
  page = browser.page;
  await runChecked(['prices', 'set', 'mock/echo', '--input', '3', '--output', '15'], rig.hub.home);
  adminToken = (await runChecked(['admin', 'tokens', 'create', '--name', 'lead@example.com'], rig.hub.home)).trim();
  await waitForAdmin(rig.hub.url, adminToken);
  await signIn(page, rig.hub.url, adminToken);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

describe('the Keys page', () => {
  let made: { id: string; key: string };

  it('a key made in the page with an expiry shows that expiry, its last use and its exact spend over two priced calls', async () => {
    await openPage(page, 'Keys');
    await page.getByLabel('Team').locator('option', { hasText: TEAM }).waitFor({ state: 'attached' });
    await page.getByLabel('Name').fill('ci-bot');
    await page.getByLabel('Expires').fill('30d');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!.trim();
    expect(key).toMatch(/^sk-gw-/);
    const id = /vk_[0-9A-Za-z]{12}/.exec((await page.getByRole('status').first().textContent())!)![0];
    made = { id, key };
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect((await chat(rig.hub.url, key, 'first priced call')).status).toBe(200);
    expect((await chat(rig.hub.url, key, 'the second priced call, a little longer')).status).toBe(200);

    // A call's record is written just after its answer.
    let calls: TrailLine[] = [];
    await waitUntil(async () => (calls = (await readAudit(rig.hub.home) as TrailLine[]).filter((record) => record.kind === 'request' && record.key_id === id)).length >= 2, { timeoutMs: 10_000, what: 'both calls in the trail' });
    expect(calls).toHaveLength(2);
    const spend = handComputed(calls);
    expect(spend).toBeGreaterThan(0);
    // The record's own cost agrees with the hand computation: the price was applied as set.
    expect(calls.reduce((sum, record) => sum + (record.cost?.nano_usd ?? 0), 0)).toBe(spend);
    const listed = (JSON.parse(await runChecked(['keys', 'list', '--json'], rig.hub.home)) as KeyRow[]).find((row) => row.id === id)!;
    expect(Date.parse(listed.expires_at!) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    await page.reload();
    const row = page.locator(`tr[data-key="${id}"]`);
    await row.waitFor();
    await expect(row.getByTestId('expires').locator('time').getAttribute('datetime')).resolves.toBe(listed.expires_at);
    await expect(row.getByTestId('last-used').locator('time').getAttribute('datetime')).resolves.toBe(calls[1]!.ts);
    await expect(row.getByTestId('requests').textContent()).resolves.toBe('2');
    await expect(row.getByTestId('spend').textContent()).resolves.toBe(`$${(spend / 1e9).toFixed(6)}`);
    await expect(row.getByTestId('spend').getAttribute('data-nano-usd')).resolves.toBe(String(spend));
    await expect.poll(() => adminChange('keys.create', id)).toMatchObject({ admin_name: 'lead@example.com', via: 'console', team: TEAM, name: 'ci-bot' });
    expect(JSON.stringify(await readAudit(rig.hub.home))).not.toContain(key);
  }, 60_000);

  it('a session key made by gw token against the hub is hidden as gw keys list hides it, and shown with its expiry behind the toggle', async () => {
    const token = await runGw(['token'], { env: { GW_HOME: rig.hub.home, GW_URL: rig.hub.url } });
    expect(token.code, token.stderr).toBe(0);
    const sessionKeys = (JSON.parse(await runChecked(['keys', 'list', '--json', '--sessions'], rig.hub.home)) as KeyRow[]).filter((row) => row.name === 'gw token');
    expect(sessionKeys).toHaveLength(1);
    const session = sessionKeys[0]!;
    const cliDefault = (JSON.parse(await runChecked(['keys', 'list', '--json'], rig.hub.home)) as KeyRow[]).map((row) => row.id);
    expect(cliDefault).not.toContain(session.id);

    await page.reload();
    await page.locator(`tr[data-key="${made.id}"]`).waitFor();
    // The page's default list is the CLI's default list, row for row.
    expect(await page.locator('tr[data-key]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key')))).toEqual(cliDefault);
    await expect(page.getByTestId('hidden-sessions').textContent()).resolves.toBe('1 session key (gw token, gw run) not shown');
    const toggle = page.getByLabel('Show session keys');
    await toggle.check();
    const row = page.locator(`tr[data-key="${session.id}"]`);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('gw token session');
    await expect(row.getByTestId('expires').locator('time').getAttribute('datetime')).resolves.toBe(session.expires_at);
    expect(Date.parse(session.expires_at!) - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    expect(await layoutProblems(page)).toEqual([]);
    await browser.shot('keys');
    await toggle.uncheck();
    await expect.poll(() => row.count()).toBe(0);
  }, 60_000);

  it('a refused key form says what gw keys create says', async () => {
    await page.getByLabel('Name').fill('bad-expiry');
    await page.getByLabel('Expires').fill('soon');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await alertText();
    expect(shown).toContain('invalid duration "soon"');
    expect(await cliRefusal(['keys', 'create', '--team', TEAM, '--expires', 'soon'], rig.hub.home)).toContain(shown);
  }, 30_000);
});

describe('the People page', () => {
  it('adds a person to a team, shows each person\'s signed-in devices as gw people list counts them, and removes one', async () => {
    await signInADevice(PERSON);
    await openPage(page, 'People');
    await page.locator(`tr[data-person="${PERSON}"]`).waitFor();
    await page.getByLabel('Email').fill('bob@example.com');
    await page.getByLabel('Team').selectOption(TEAM);
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByText('Added bob@example.com.').waitFor();
    const row = page.locator('tr[data-person="bob@example.com"]');
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(TEAM);
    const cli = JSON.parse(await runChecked(['people', 'list', '--json'], rig.hub.home)) as Array<{ email: string; team: string; active_tokens: number }>;
    expect(cli.map((person) => person.email).sort()).toEqual([PERSON, 'bob@example.com'].sort());
    await page.locator('td[data-testid="devices"]').first().filter({ hasText: /\d/ }).waitFor();
    expect(cli.find((person) => person.email === PERSON)!.active_tokens).toBe(1);
    for (const person of cli) await expect(page.locator(`tr[data-person="${person.email}"]`).getByTestId('devices').textContent()).resolves.toBe(String(person.active_tokens));
    await expect.poll(() => adminChange('people.add', 'bob@example.com')).toMatchObject({ admin_name: 'lead@example.com', via: 'console', team: TEAM });
    expect(await layoutProblems(page)).toEqual([]);
    await browser.shot('people');
    await page.getByRole('button', { name: 'Remove bob@example.com' }).click();
    await confirmStep(page, 'Remove bob@example.com');
    await page.getByText('Removed bob@example.com; their tokens are revoked.').waitFor();
    await expect.poll(() => row.count()).toBe(0);
    await expect.poll(() => adminChange('people.remove', 'bob@example.com')).toMatchObject({ via: 'console' });
  }, 60_000);

  it('a refused person form says what gw people add says', async () => {
    await page.getByLabel('Email').fill(PERSON);
    await page.getByRole('button', { name: 'Add person' }).click();
    const shown = await alertText();
    expect(shown).toBe(`${PERSON} is already a person of this hub`);
    expect(await cliRefusal(['people', 'add', PERSON, '--team', TEAM], rig.hub.home)).toContain(shown);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByRole('alert').filter({ hasText: 'not-an-email' }).waitFor();
    expect(await cliRefusal(['people', 'add', 'not-an-email', '--team', TEAM], rig.hub.home)).toContain(await alertText());
  }, 30_000);
});

describe('the Teams page', () => {
  it('creates a team and shows each team\'s members and keys as gw teams list and gw people list count them', async () => {
    await openPage(page, 'Teams');
    await page.locator(`tr[data-team="${TEAM}"]`).waitFor();
    await page.getByLabel('Name').fill('platform');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByText('Created team platform.').waitFor();
    await page.locator('tr[data-team="platform"] td[data-testid="keys"]').filter({ hasText: /\d/ }).waitFor();
    const teams = JSON.parse(await runChecked(['teams', 'list', '--json'], rig.hub.home)) as Array<{ name: string; keys: number }>;
    const people = JSON.parse(await runChecked(['people', 'list', '--json'], rig.hub.home)) as Array<{ team: string }>;
    expect(teams.map((team) => team.name)).toContain('platform');
    for (const team of teams) {
      const row = page.locator(`tr[data-team="${team.name}"]`);
      await expect(row.getByTestId('keys').textContent()).resolves.toBe(String(team.keys));
      await expect(row.getByTestId('members').textContent()).resolves.toBe(String(people.filter((person) => person.team === team.name).length));
    }
    // eng: alice, and the keys made above (ci-bot, the session key, the team's live key).
    await expect(page.locator(`tr[data-team="${TEAM}"]`).getByTestId('members').textContent()).resolves.toBe('1');
    await expect.poll(() => adminChange('teams.create', 'platform')).toMatchObject({ admin_name: 'lead@example.com', via: 'console' });
    expect(await layoutProblems(page)).toEqual([]);
    await browser.shot('teams');
  }, 60_000);

  it('a refused team form says what gw teams create says', async () => {
    await page.getByLabel('Name').fill(TEAM);
    await page.getByRole('button', { name: 'Create team' }).click();
    const shown = await alertText();
    expect(shown).toBe(`team "${TEAM}" already exists`);
    expect(await cliRefusal(['teams', 'create', TEAM], rig.hub.home)).toContain(shown);
  }, 30_000);
});

describe('key last use and spend on a PostgreSQL trail', () => {
  const jar = new GatewayJar();
  let postgres: PostgresServer | undefined;
  let store = '';
  let gateway: GatewayProcess;
  let token = '';
  afterAll(async () => {
    await jar.stopAll();
    await postgres?.destroy();
  });

  beforeAll(async () => {
    postgres = await startPostgres();
    store = await postgres.createDatabase();
    const admin = { home: await makeHome('gw-pg-admin-') };
    const migrated = await runGw(['db', 'migrate', '--store', store], { env: { GW_HOME: admin.home } });
    expect(migrated.code, migrated.stderr).toBe(0);
    await runChecked(['teams', 'create', TEAM, '--store', store], admin.home);
    await runChecked(['prices', 'set', 'mock/echo', '--input', '3', '--output', '15', '--store', store], admin.home);
    gateway = await jar.start({ home: await makeHome('gw-pg-hub-'), args: ['--store', store, '--standalone'], env: { GW_LOG_LEVEL: 'warn' }, timeoutMs: 60_000 });
    token = (await runChecked(['admin', 'tokens', 'create', '--name', 'lead@example.com', '--store', store], gateway.home)).trim();
    await waitForAdmin(gateway.url, token);
  }, 180_000);

  it('GET /admin/api/keys gives the key\'s last use and exact spend from the PostgreSQL trail reader', async () => {
    const created = await fetch(`${gateway.url}/admin/api/keys`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ team: TEAM, name: 'pg-bot', expires: '7d' }),
    });
    expect(created.status).toBe(201);
    const { id, key, expires_at: expiresAt } = await created.json() as { id: string; key: string; expires_at: string };
    // The instance reads the new key from the store on its next poll.
    await waitUntil(async () => (await chat(gateway.url, key, 'first priced call')).status === 200, { timeoutMs: 15_000, what: 'the new key to be accepted' });
    expect((await chat(gateway.url, key, 'the second priced call, a little longer')).status).toBe(200);
    const database = openDatabase(store);
    let calls: TrailLine[] = [];
    try {
      await waitUntil(async () => {
        const rows = await database.query<{ line: string }>("SELECT line FROM gw_audit_records WHERE kind = 'request' AND facets->>'key_id' = $1 ORDER BY ts", [id]);
        calls = rows.rows.map((row) => JSON.parse(row.line) as TrailLine);
        return calls.length >= 2;
      }, { timeoutMs: 15_000, what: 'the calls in the PostgreSQL trail' });
      // The SQL sums are the in-memory sums over the same lines, for every key.
      const lines = await database.query<{ line: string }>("SELECT line FROM gw_audit_records WHERE kind = 'request'");
      const since = new Date(Date.now() - 86_400_000).toISOString();
      expect(await createPostgresTrailReader(database).keyUsage(since)).toEqual(summarizeKeyUsage(lines.rows.map((row) => toSummary(row.line)!), since));
    } finally {
      await database.end();
    }
    const spend = handComputed(calls);
    expect(spend).toBeGreaterThan(0);
    const row = (await keysFromApi(gateway.url, token)).find((entry) => entry.id === id)!;
    expect(row).toMatchObject({ expires_at: expiresAt, last_used_at: calls.at(-1)!.ts, requests: calls.length, spend_nano_usd: spend, session: false });
    const refused = await fetch(`${gateway.url}/admin/api/keys?window=soon`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(400);
    expect((await refused.json() as { error: { message: string } }).error.message).toBe('window is a duration such as 15m, 1h or 7d; got soon');
  }, 120_000);
});
