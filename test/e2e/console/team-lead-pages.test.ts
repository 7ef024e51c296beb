// The console as a team lead's home (issue 40, deliverable 4), in real Chromium against a real hub:
// a page per team (people, keys, budget, spend) reached from the Teams list and the overview; the
// Prices page (list, set, remove; the Usage page's unpriced panel links to it with the model filled
// in); the Settings page (secrets only as set or not set); and a confirm step naming what a
// revoke or a removal destroys. Each role signs in: a viewer sees the actions disabled with the
// reason and the hub refuses them anyway; a team admin sees only their own teams.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { confirmStep, layoutProblems, openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { runGwSetup } from '../../support/gateway-process.js';
import { waitUntil } from '../helpers.js';
import { PERSON, TEAM, startHubRig, type HubRig } from '../device-login/support.js';

const OTHER = 'ml';

let rig: HubRig;
let browser: ConsoleBrowser;
let page: Page;
const tokens = { admin: '', viewer: '', team_admin: '' };
let key = { id: '', secret: '' };

async function gw(args: string[]): Promise<string> {
  const result = await runGwSetup(args, { home: rig.hub.home });
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

const tokenOf = (stdout: string): string => /gwa-\w+/.exec(stdout)?.[0] ?? '';

async function signInAs(token: string): Promise<void> {
  await page.context().clearCookies();
  await signIn(page, rig.hub.url, token);
}

async function keyStatus(id: string): Promise<string> {
  const keys = await (await fetch(`${rig.hub.url}/admin/api/keys?team=${TEAM}`, { headers: { authorization: `Bearer ${tokens.admin}` } })).json() as Array<{ id: string; status: string }>;
  return keys.find((item) => item.id === id)?.status ?? 'missing';
}

async function prices(): Promise<Array<{ provider: string; model: string; input_mtok: number }>> {
  return JSON.parse(await gw(['prices', 'list', '--json'])) as Array<{ provider: string; model: string; input_mtok: number }>;
}

beforeAll(async () => {
  rig = await startHubRig();
  await gw(['teams', 'create', OTHER]);
  await gw(['people', 'add', 'bo@example.com', '--team', OTHER]);
  tokens.admin = tokenOf(await gw(['admin', 'tokens', 'create', '--name', 'ops@example.com']));
  tokens.viewer = tokenOf(await gw(['admin', 'tokens', 'create', '--name', 'viewer@example.com', '--role', 'viewer']));
  tokens.team_admin = tokenOf(await gw(['admin', 'tokens', 'create', '--name', 'lead@example.com', '--role', 'team_admin', '--team', TEAM]));
  const made = await runGwSetup(['keys', 'create', '--team', TEAM, '--name', 'ci'], { home: rig.hub.home });
  // The key on stdout, its id in the note on stderr.
  key = { id: /vk_\w+/.exec(made.stderr)?.[0] ?? '', secret: made.stdout.trim() };
  expect(key.id).toMatch(/^vk_/);
  // One call to a model with no price: the Usage page's unpriced panel has a model to link.
  const chat = () => fetch(`${rig.hub.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'an unpriced call' }] }),
  });
  await waitUntil(async () => (await chat()).status === 200, { what: 'the hub to read the new key' });
  await waitUntil(async () => (await fetch(`${rig.hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${tokens.team_admin}` } })).status === 200, { what: 'the hub to read the admin tokens' });
  browser = await openConsoleBrowser();
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

describe('a page per team', () => {
  it('opens from the overview and the Teams list: people, keys, budget, spend; a revoke asks first, naming the key', async () => {
    await signInAs(tokens.admin);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByLabel('Teams').getByRole('link', { name: TEAM, exact: true }).click();
    await page.getByRole('heading', { name: `Team ${TEAM}` }).waitFor();
    await page.getByRole('table', { name: 'People of the team' }).getByRole('cell', { name: PERSON, exact: true }).waitFor();
    expect(await page.getByRole('table', { name: 'People of the team' }).getByText('bo@example.com').count()).toBe(0);
    await page.getByRole('table', { name: 'Keys of the team' }).getByRole('cell', { name: key.id, exact: true }).waitFor();
    expect(await page.getByTestId('team-spend').textContent()).toMatch(/^\$\d+\.\d{6}$/);

    await page.getByLabel('Budget (USD)').fill('5');
    await page.getByRole('button', { name: 'Set budget' }).click();
    const budget = page.getByRole('table', { name: 'Team budgets' });
    await expect.poll(async () => [await budget.getByTestId('spent').textContent(), await budget.getByTestId('left').textContent()]).toEqual(['$0.000000', '$5.000000']);

    // The confirm step names the key and says it cannot be undone; Cancel leaves the key working.
    await page.getByRole('button', { name: `Revoke ${key.id}` }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.textContent()).toContain(`Revoke key ${key.id}?`);
    expect(await dialog.textContent()).toContain('cannot be undone');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await keyStatus(key.id)).toBe('active');
    await page.getByRole('button', { name: `Revoke ${key.id}` }).click();
    await confirmStep(page, `Revoke key ${key.id}`);
    await page.getByText(`Revoked ${key.id}.`).waitFor();
    expect(await keyStatus(key.id)).toBe('revoked');
    expect(await layoutProblems(page)).toEqual([]);
    await browser.shot('team');

    await openPage(page, 'Teams');
    await page.getByRole('link', { name: OTHER, exact: true }).click();
    await page.getByRole('heading', { name: `Team ${OTHER}` }).waitFor();
    await page.getByRole('cell', { name: 'bo@example.com', exact: true }).waitFor();
  }, 60_000);

  it('is read-only for a viewer, with the reason, and the hub refuses the change anyway', async () => {
    await signInAs(tokens.viewer);
    await page.goto(`${rig.hub.url}/ui#teams/${TEAM}`);
    expect(await page.getByTestId('read-only').textContent()).toBe('You are a viewer: you can read this team, not change it.');
    const remove = page.getByRole('button', { name: `Remove ${PERSON}` });
    expect(await remove.isDisabled()).toBe(true);
    expect(await remove.getAttribute('title')).toContain('viewer');
    expect(await page.getByRole('button', { name: 'Add person' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    const refused = await fetch(`${rig.hub.url}/admin/api/people/${encodeURIComponent(PERSON)}`, { method: 'DELETE', headers: { authorization: `Bearer ${tokens.viewer}` } });
    expect(refused.status).toBe(403);
  }, 30_000);

  it('shows a team admin only their own teams', async () => {
    await signInAs(tokens.team_admin);
    await page.getByLabel('Teams').getByRole('link', { name: TEAM, exact: true }).waitFor();
    expect(await page.getByLabel('Teams').getByRole('link', { name: OTHER, exact: true }).count()).toBe(0);
    await openPage(page, 'Teams');
    await page.getByRole('link', { name: TEAM, exact: true }).waitFor();
    expect(await page.getByRole('link', { name: OTHER, exact: true }).count()).toBe(0);
    await page.goto(`${rig.hub.url}/ui#teams/${OTHER}`);
    expect(await page.getByRole('alert').textContent()).toBe(`${OTHER} is not one of your teams: you are a team admin of ${TEAM}.`);
    expect(await page.getByText('bo@example.com').count()).toBe(0);
    // Their own team's page offers the changes they may make.
    await page.goto(`${rig.hub.url}/ui#teams/${TEAM}`);
    await page.getByRole('button', { name: 'Add person' }).waitFor();
    expect(await page.getByTestId('read-only').count()).toBe(0);
  }, 30_000);
});

describe('the Prices page', () => {
  it('is linked from the unpriced panel with the model filled in; sets a price, and removes it after a confirm step', async () => {
    await signInAs(tokens.admin);
    await openPage(page, 'Usage');
    await page.getByRole('link', { name: 'Set a price for mock/echo' }).click();
    await page.getByRole('heading', { name: 'Prices' }).waitFor();
    expect(await page.getByLabel('Model (provider/model)').inputValue()).toBe('mock/echo');
    await page.getByLabel('Input (USD)').fill('3');
    await page.getByLabel('Output (USD)').fill('15');
    await page.getByRole('button', { name: 'Set price' }).click();
    const row = page.getByRole('table', { name: 'Prices' }).getByRole('row', { name: /mock\/echo/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('$3$15');
    expect((await prices()).map((price) => [`${price.provider}/${price.model}`, price.input_mtok])).toEqual([['mock/echo', 3]]);
    expect(await layoutProblems(page)).toEqual([]);
    await browser.shot('prices');

    await page.getByRole('button', { name: 'Remove price mock/echo' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('Remove the price of mock/echo?');
    await confirmStep(page, 'Remove price mock/echo');
    await page.getByText('No prices of the hub\'s own').waitFor();
    expect(await prices()).toEqual([]);
  }, 60_000);

  it('is read-only for a team admin, saying why', async () => {
    await signInAs(tokens.team_admin);
    await openPage(page, 'Prices');
    expect(await page.getByTestId('read-only').textContent()).toBe(`Only an admin changes prices: you are a team admin of ${TEAM}.`);
    expect(await page.getByRole('button', { name: 'Set price' }).isDisabled()).toBe(true);
  }, 30_000);
});

describe('the Settings page', () => {
  it('shows the hub settings `gw settings` knows, changes one, and shows a secret only as set', async () => {
    await gw(['settings', 'set', 'oidc_client_secret', 'env:GW_TEAM_LEAD_SECRET']);
    await signInAs(tokens.admin);
    await openPage(page, 'Settings');
    const row = (name: string) => page.locator(`tr[data-setting="${name}"]`);
    for (const name of ['oidc_issuer', 'oidc_client_id', 'admin_emails', 'enforce_auth', 'access_token_minutes', 'role_groups']) await row(name).waitFor();
    await expect.poll(async () => row('oidc_client_secret').getByTestId('secret').textContent()).toBe('set');
    expect(await page.content()).not.toContain('GW_TEAM_LEAD_SECRET');
    expect(await row('audit_sink_token').getByTestId('secret').textContent()).toBe('not set');

    await page.getByLabel('New value of access_token_minutes').fill('30');
    await row('access_token_minutes').getByRole('button', { name: 'Save' }).click();
    await page.getByText('access_token_minutes = 30').first().waitFor();
    expect((await gw(['settings', 'get', 'access_token_minutes'])).trim()).toBe('30');
    await page.getByLabel('New value of admin_emails').fill('lead@example.com');
    await row('admin_emails').getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => row('admin_emails').locator('code').nth(1).textContent()).toBe('lead@example.com');
    expect(await layoutProblems(page)).toEqual([]);
    await browser.shot('settings');
  }, 60_000);

  it('is read-only for a viewer', async () => {
    await signInAs(tokens.viewer);
    await openPage(page, 'Settings');
    expect(await page.getByTestId('read-only').textContent()).toBe('Only an admin changes settings: you are a viewer (read-only).');
    await page.locator('tr[data-setting="enforce_auth"]').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
  }, 30_000);
});
