// The console's governance pages (issue 30, item 1) in real Chromium against a real hub: a team
// lead signs in and manages budgets, policies per scope, DLP rules and routing rules in the
// browser, and each change takes effect on the next real call: a budget refuses (402 with the
// budget's message), a policy refuses a team's key, a DLP rule blocks a pattern (and the test
// box names the rule without showing the match anywhere), a routing rule sends a model name to
// its target (and `routes test` in the page names it). A form given what the CLI refuses shows
// the CLI's own message; every change is an admin.change record naming the admin; every page
// passes the 1280-px layout check, and its screenshot is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { confirmStep, openConsoleBrowser, openPage, layoutProblems, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { readAudit } from '../helpers.js';
import { TEAM, runChecked, startHubRig, type HubRig } from '../device-login/support.js';

const ADMIN = 'lead@example.com';
let rig: HubRig;
let browser: ConsoleBrowser;
let adminToken: string;
let teamKey: string;

function chat(model: string, content = 'hello governance', maxTokens?: number): Promise<Response> {
  return fetch(`${rig.hub.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${teamKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }], ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }) }),
  });
}

async function errorOf(response: Response): Promise<{ status: number; message: string }> {
  const body = await response.json() as { error?: { message?: string } };
  return { status: response.status, message: body.error?.message ?? '' };
}

/** Polls until `check` holds (the hub reads a CLI change from state.json on its next poll). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The admin.change records of one action, from the hub's trail. */
async function changes(action: string): Promise<Array<Record<string, unknown>>> {
  return (await readAudit(rig.hub.home)).filter((record) => record.kind === 'admin.change')
    .map((record) => record.data as Record<string, unknown>).filter((data) => data.action === action);
}

/** What the CLI itself says to the same refused command, run in the hub's home. */
async function cliRefusal(args: string[]): Promise<string> {
  const result = await runGw(args, { home: rig.hub.home });
  expect(result.code).not.toBe(0);
  return result.stderr.trim();
}

async function checkLayout(name: string): Promise<void> {
  expect(await layoutProblems(browser.page)).toEqual([]);
  await browser.shot(name);
}

beforeAll(async () => {
  [rig, browser] = await Promise.all([startHubRig(), openConsoleBrowser()]);
  // A price for the mock, so a hard budget can hold its calls (an unpriced model is refused outright).
  await runChecked(['prices', 'set', 'mock/echo', '--input', '3', '--output', '15'], rig.hub.home);
  adminToken = (await runChecked(['admin', 'tokens', 'create', '--name', ADMIN], rig.hub.home)).trim();
  teamKey = /sk-gw-\S+/.exec(await runChecked(['keys', 'create', '--team', TEAM, '--name', 'governance'], rig.hub.home))![0];
  await eventually(async () => (await fetch(`${rig.hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status === 200, 'the admin token');
  await eventually(async () => (await chat('mock/echo')).status === 200, 'the team key');
  await signIn(browser.page, rig.hub.url, adminToken);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

describe('budgets in the browser', () => {
  it('a budget set in the page refuses the next call over it with the budget\'s message; removing it lets calls through', async () => {
    const { page } = browser;
    await openPage(page, 'Budgets');
    await page.getByText('No budgets').waitFor();
    const form = page.getByRole('form', { name: 'Set a budget' });
    await form.getByLabel('Scope').selectOption(`team:${TEAM}`);
    await form.getByLabel('Amount (USD)').fill('0.001');
    await form.getByLabel('Period').selectOption('day');
    await form.getByRole('button', { name: 'Set budget' }).click();
    await page.getByRole('status').filter({ hasText: `budget team:${TEAM}` }).waitFor();
    await page.getByRole('table', { name: 'Budgets in force' }).getByRole('row', { name: new RegExp(`team:${TEAM}`) }).waitFor();

    // The worst case of a call (4096 tokens out) is more than $0.001: refused before it runs.
    const refused = await errorOf(await chat('mock/echo'));
    expect(refused.status).toBe(402);
    expect(refused.message).toMatch(new RegExp(`^Budget team:${TEAM} \\(\\$0\\.001\\d* a day, hard, UTC\\)`));

    const [record] = await changes('budgets.set');
    expect(record).toMatchObject({ admin_name: ADMIN, via: 'console', target: `team:${TEAM}` });
    await page.getByRole('form', { name: 'Check budgets' }).getByRole('button', { name: 'Check budgets' }).click();
    await page.getByRole('status').filter({ hasText: 'spent since' }).waitFor();
    await checkLayout('budgets');

    await page.getByRole('button', { name: `Remove budget team:${TEAM}` }).click();
    await confirmStep(page, `Remove budget team:${TEAM}`);
    await page.getByText('No budgets').waitFor();
    expect((await chat('mock/echo')).status).toBe(200);
    expect(await changes('budgets.remove')).toEqual([expect.objectContaining({ admin_name: ADMIN, target: `team:${TEAM}` })]);
  }, 60_000);

  it('a refused amount says so in the form\'s words (the CLI names its flag), and changes nothing', async () => {
    const { page } = browser;
    const form = page.getByRole('form', { name: 'Set a budget' });
    await form.getByLabel('Scope').selectOption(`team:${TEAM}`);
    await form.getByLabel('Amount (USD)').fill('-1');
    await form.getByRole('button', { name: 'Set budget' }).click();
    const expected = await cliRefusal(['budgets', 'set', `team:${TEAM}`, '--amount=-1', '--period=day']);
    expect(expected).toBe('gw: invalid --amount "-1": USD > 0');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Amount must be more than 0 USD (not "-1")');
    expect(await changes('budgets.set')).toHaveLength(1);
  }, 30_000);
});

describe('policies in the browser', () => {
  it('a model deny set for a team in the page refuses a call with that team\'s key; removing it lets it through', async () => {
    const { page } = browser;
    await openPage(page, 'Policies');
    const form = page.getByRole('form', { name: 'Change a policy' });
    await form.getByLabel('Scope').selectOption(`team:${TEAM}`);
    await form.getByLabel('Deny models').fill('mock/*');
    await form.getByLabel('Requests/min').fill('600');
    await form.getByRole('button', { name: 'Save policy' }).click();
    const row = page.getByRole('table', { name: 'Policies in force' }).getByRole('row', { name: new RegExp(`team:${TEAM}`) });
    await expect(row.textContent()).resolves.toContain('deny_models=mock/*');
    await expect(row.textContent()).resolves.toContain('requests_per_minute=600');

    const refused = await errorOf(await chat('mock/echo'));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain(`team:${TEAM}`);

    const test = page.getByRole('form', { name: 'Test a policy' });
    await test.getByLabel('As team').selectOption(TEAM);
    await test.getByLabel('Model').fill('mock/echo');
    await test.getByRole('button', { name: 'Test policy' }).click();
    const refusal = page.getByRole('status').filter({ hasText: 'matches deny_models' });
    await refusal.waitFor();
    // A refusal in the test box is not printed as a success.
    expect(await refusal.locator('pre').first().getAttribute('data-outcome')).toBe('refused');
    expect(await changes('policy.set')).toEqual([expect.objectContaining({ admin_name: ADMIN, via: 'console', target: `team:${TEAM}` })]);
    await checkLayout('policies');

    await page.getByRole('button', { name: `Remove policy team:${TEAM}` }).click();
    await confirmStep(page, `Remove policy team:${TEAM}`);
    await page.getByText('No policies').waitFor();
    expect((await chat('mock/echo')).status).toBe(200);
    expect(await changes('policy.remove')).toEqual([expect.objectContaining({ admin_name: ADMIN, target: `team:${TEAM}` })]);
  }, 60_000);

  it('a refused value says so in the form\'s words', async () => {
    const { page } = browser;
    const form = page.getByRole('form', { name: 'Change a policy' });
    await form.getByLabel('Scope').selectOption(`team:${TEAM}`);
    await form.getByLabel('Requests/min').fill('lots');
    await form.getByRole('button', { name: 'Save policy' }).click();
    expect(await cliRefusal(['policy', 'set', `team:${TEAM}`, '--rpm=lots'])).toBe('gw: invalid --rpm "lots": use a whole number (0 clears)');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Requests/min must be a whole number (0 clears) (not "lots")');
    expect(await changes('policy.set')).toHaveLength(1);
  }, 30_000);
});

describe('DLP rules in the browser', () => {
  const SECRET = 'ACME-314159';

  it('a custom rule added for a team blocks a call carrying the pattern; the test box names the rule and shows the match nowhere', async () => {
    const { page } = browser;
    await openPage(page, 'DLP');
    await page.getByLabel('Rules in force for').selectOption(`team:${TEAM}`);
    const form = page.getByRole('form', { name: 'Add a custom rule' });
    await form.getByLabel('Rule id').fill('acme_order');
    await form.getByLabel('Pattern (RE2)').fill('ACME-[0-9]{6}');
    await form.getByLabel('Action').selectOption('block');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('table', { name: 'DLP rules in force' }).getByRole('row', { name: /acme_order/ }).waitFor();

    const blocked = await errorOf(await chat('mock/echo', `order ${SECRET} please`));
    expect(blocked.status).toBe(403);
    expect(blocked.message).toContain('acme_order');
    expect(blocked.message).not.toContain(SECRET);
    expect((await chat('mock/echo', 'order ACME-12 please')).status).toBe(200);

    const test = page.getByRole('form', { name: 'Test this text' });
    await test.getByLabel('Text to test').fill(`ship ${SECRET} today`);
    await test.getByLabel('As team').selectOption(TEAM);
    await test.getByRole('button', { name: 'Test text' }).click();
    const finding = page.getByRole('status').filter({ hasText: 'matches' });
    await expect(finding.textContent()).resolves.toMatch(/blocked \(403\) by acme_order/);
    expect(await finding.locator('pre').first().getAttribute('data-outcome')).toBe('refused');
    // The sample is in its own box only: not in what the page shows, not in the trail, not in the hub's logs.
    expect(await page.locator('main').evaluate((main) => main.textContent)).not.toContain(SECRET);
    const audit = JSON.stringify(await readAudit(rig.hub.home));
    expect(audit).not.toContain(SECRET);
    expect(rig.hub.stdout() + rig.hub.stderr()).not.toContain(SECRET);
    expect(await changes('dlp.add')).toEqual([expect.objectContaining({ admin_name: ADMIN, via: 'console', target: 'acme_order' })]);
    await checkLayout('dlp');
  }, 60_000);

  it('an action set to redact lets the call through with the match replaced; removing the rule ends it', async () => {
    const { page } = browser;
    const form = page.getByRole('form', { name: 'Set a rule\'s action' });
    await form.getByLabel('Rule').selectOption('acme_order');
    await form.getByLabel('Action').selectOption('redact');
    await form.getByRole('button', { name: 'Set action' }).click();
    await page.getByRole('status').filter({ hasText: 'acme_order → redact' }).waitFor();
    // The list reloads after the command's answer is shown.
    await expect.poll(() => page.getByRole('row', { name: /acme_order/ }).textContent()).toContain('redact');
    const response = await chat('mock/echo', `order ${SECRET} please`);
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain(SECRET);

    await page.getByRole('button', { name: 'Remove rule acme_order' }).click();
    await confirmStep(page, 'Remove rule acme_order');
    await expect.poll(() => page.getByRole('row', { name: /acme_order/ }).count()).toBe(0);
    expect(await changes('dlp.remove')).toEqual([expect.objectContaining({ admin_name: ADMIN, target: 'acme_order' })]);
  }, 60_000);

  it('a pattern RE2 refuses shows the CLI\'s own message', async () => {
    const { page } = browser;
    const form = page.getByRole('form', { name: 'Add a custom rule' });
    await form.getByLabel('Rule id').fill('backref');
    await form.getByLabel('Pattern (RE2)').fill('(a)\\1');
    await form.getByRole('button', { name: 'Add rule' }).click();
    const expected = await cliRefusal(['dlp', 'add', 'backref', '--pattern=(a)\\1', '--action=block', `--scope=team:${TEAM}`]);
    expect(expected).toContain('RE2');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(expected);
  }, 30_000);
});

describe('routing rules in the browser', () => {
  it('a rule added in the page sends its model name to the target; routes test in the page names it', async () => {
    const { page } = browser;
    await openPage(page, 'Routing');
    await page.getByText('No routing rules').waitFor();
    // Before the rule, the name is no model gw knows.
    expect((await chat('team-fast')).status).toBe(404);
    const form = page.getByRole('form', { name: 'Add a routing rule' });
    await form.getByLabel('Model name').fill('team-fast');
    await form.getByLabel('Targets, one a line').fill('mock/echo');
    await form.getByRole('button', { name: 'Save route' }).click();
    await page.getByRole('table', { name: 'Routing rules in force' }).getByRole('row', { name: /team-fast/ }).waitFor();

    const response = await chat('team-fast');
    expect(response.status).toBe(200);
    await response.text();
    await eventually(async () => (await readAudit(rig.hub.home)).some((record) => record.kind === 'request' && record.status === 200 && record.provider === 'mock' && record.model === 'mock/echo' && record.rule === 'team-fast'), 'the routed call in the trail');

    const test = page.getByRole('form', { name: 'Routes test' });
    await test.getByLabel('Model').fill('team-fast');
    await test.getByRole('button', { name: 'Test route' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'rule "team-fast"' }).textContent()).resolves.toContain('1. mock/echo (weight 1) (first pick)');
    expect(await changes('routes.add')).toEqual([expect.objectContaining({ admin_name: ADMIN, via: 'console', target: 'team-fast' })]);
    await checkLayout('routes');

    // The form is ready for the next rule: fallback (the CLI's default) is ticked again.
    await expect(form.getByLabel('fall back').isChecked()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Remove route team-fast' }).click();
    await confirmStep(page, 'Remove route team-fast');
    await page.getByText('No routing rules').waitFor();
    expect(await changes('routes.remove')).toEqual([expect.objectContaining({ admin_name: ADMIN, target: 'team-fast' })]);
  }, 60_000);

  it('a target the CLI refuses says so in the form\'s words', async () => {
    const { page } = browser;
    const form = page.getByRole('form', { name: 'Add a routing rule' });
    await form.getByLabel('Model name').fill('broken');
    await form.getByLabel('Targets, one a line').fill('nowhere');
    await form.getByRole('button', { name: 'Save route' }).click();
    expect(await cliRefusal(['routes', 'add', 'broken', '--target=nowhere', '--retries=0'])).toBe('gw: invalid --target "nowhere": start with provider/model');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Target must start with provider/model (not "nowhere")');
  }, 30_000);
});
