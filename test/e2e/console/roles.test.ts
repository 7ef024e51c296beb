// Roles in the console (issue 40), in real Chromium against a real hub: a viewer and a team_admin
// of eng sign in with their admin tokens and try each page's actions. The header names the role;
// what the role allows goes through, what it does not is refused by the hub (403) and the page
// says so in words; nothing a refused action asked for happened. test/e2e/admin/admin-route-table.test.ts
// holds every admin route to the same roles at the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { confirmStep, openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { waitForState } from '../helpers.js';
import { TEAM, runChecked, startHubRig, type HubRig } from '../device-login/support.js';

const OTHER = 'ml';
const REFUSED = /does not allow this/;

let rig: HubRig;
let browser: ConsoleBrowser;
let page: Page;
const tokens = { viewer: '', team_admin: '' };

beforeAll(async () => {
  rig = await startHubRig({
    prepare: async (home) => {
      await runChecked(['teams', 'create', OTHER], home);
      await runChecked(['people', 'add', 'bo@example.com', '--team', OTHER], home);
      tokens.viewer = /gwa-\w+/.exec(await runChecked(['admin', 'tokens', 'create', '--name', 'viewer@example.com', '--role', 'viewer'], home))?.[0] ?? '';
      tokens.team_admin = /gwa-\w+/.exec(await runChecked(['admin', 'tokens', 'create', '--name', 'lead@example.com', '--role', 'team_admin', '--team', TEAM], home))?.[0] ?? '';
    },
  });
  await waitForState(rig.hub);
  browser = await openConsoleBrowser();
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

async function signInAs(token: string): Promise<void> {
  await page.context().clearCookies();
  await signIn(page, rig.hub.url, token);
}

async function alertText(): Promise<string> {
  const alert = page.getByRole('alert');
  await alert.waitFor();
  return (await alert.textContent() ?? '').trim();
}

async function createKey(team: string): Promise<void> {
  await openPage(page, 'Keys');
  await page.getByLabel('Team').selectOption(team);
  await page.getByRole('button', { name: 'Create key' }).click();
}

async function setBudget(scope: string): Promise<void> {
  await openPage(page, 'Budgets');
  await page.getByLabel('Scope').selectOption(scope);
  await page.getByLabel('Amount (USD)').fill('5');
  await page.getByRole('button', { name: 'Set budget' }).click();
}

async function keysOf(team: string): Promise<number> {
  const keys = await (await fetch(`${rig.hub.url}/admin/api/keys?team=${team}`, { headers: { authorization: `Bearer ${tokens.viewer}` } })).json() as unknown[];
  return keys.length;
}

describe('a viewer', () => {
  it('is named a viewer, reads every page, and each change is refused in words', async () => {
    await signInAs(tokens.viewer);
    expect(await page.getByTestId('role').textContent()).toBe('viewer: read-only');
    const before = await keysOf(TEAM);
    await createKey(TEAM);
    expect(await alertText()).toMatch(REFUSED);
    expect(await keysOf(TEAM)).toBe(before);
    await openPage(page, 'Teams');
    await page.getByLabel('Name').fill('viewer-made');
    await page.getByRole('button', { name: 'Create team' }).click();
    expect(await alertText()).toMatch(REFUSED);
    await setBudget(`team:${TEAM}`);
    expect(await alertText()).toMatch(REFUSED);
    // Reads answer: the Requests page shows its table, with no refusal.
    await openPage(page, 'Requests');
    await page.getByRole('table').first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await browser.shot('roles-viewer');
  }, 60_000);
});

describe('a team_admin of eng', () => {
  it('is named with their team; changes eng\'s keys, people and budgets; is refused on ml and on the hub\'s own things', async () => {
    await signInAs(tokens.team_admin);
    expect(await page.getByTestId('role').textContent()).toBe(`team admin of ${TEAM}`);

    await createKey(TEAM);
    await page.getByTestId('new-key').waitFor();
    await createKey(OTHER);
    expect(await alertText()).toMatch(new RegExp(`${REFUSED.source}.*not ${OTHER}`));

    await openPage(page, 'People');
    await page.getByLabel('Email').fill('dee@example.com');
    await page.getByLabel('Team').selectOption(TEAM);
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByText('Added dee@example.com.').waitFor();
    await page.getByRole('button', { name: 'Remove bo@example.com' }).click();
    await confirmStep(page, 'Remove bo@example.com');
    expect(await alertText()).toMatch(REFUSED);
    await page.getByRole('cell', { name: 'bo@example.com', exact: true }).waitFor();

    await setBudget(`team:${TEAM}`);
    const budget = page.getByRole('table', { name: 'Budgets in force' }).getByRole('row', { name: new RegExp(`team:${TEAM}`) });
    await budget.waitFor();
    // Spent and left this period beside the budget: nothing spent of the $5 yet.
    await expect.poll(async () => [await budget.getByTestId('spent').textContent(), await budget.getByTestId('left').textContent()]).toEqual(['$0.000000', '$5.000000']);
    await setBudget(`team:${OTHER}`);
    expect(await alertText()).toMatch(REFUSED);

    await openPage(page, 'Teams');
    await page.getByLabel('Name').fill('lead-made');
    await page.getByRole('button', { name: 'Create team' }).click();
    expect(await alertText()).toMatch(REFUSED);
    await browser.shot('roles-team-admin');
  }, 60_000);
});

describe('the overview', () => {
  it('is where a sign-in lands: spend today, the last hour, budgets spent and left, providers, waiting logins', async () => {
    // A waiting gw login, and a call refused for an unknown key (a 401 in the last hour).
    const started = await fetch(`${rig.hub.url}/oauth/device/code`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=gw-cli' });
    expect(started.status).toBe(200);
    await signInAs(tokens.team_admin);
    await page.goto(`${rig.hub.url}/ui`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await expect.poll(async () => page.getByTestId('pending-devices').textContent()).toBe('1');
    const budgets = page.getByRole('table', { name: 'Budgets this period' });
    const row = budgets.getByRole('row', { name: new RegExp(`team:${TEAM}`) });
    await row.waitFor();
    // Nothing spent yet against the $5 budget the team_admin set: all of it left.
    expect((await row.textContent()) ?? '').toContain('$0.000000$5.000000$5.000000');
    expect(await page.getByTestId('spend-today').textContent()).toMatch(/^\$\d+\.\d{6}$/);
    expect(await page.getByTestId('refused-hour').textContent()).toMatch(/^\d+\+?$/);
    await browser.shot('overview');
  }, 60_000);
});
