// The console's Usage page in real Chromium against a real hub (issue 30, "spend at a glance"):
// two teams and two people call the mock, first with no price (the page counts the unpriced
// calls and shows the `gw prices set` command, never a bare $0), then priced. The stacked bars
// cover the chosen range; totals and top spenders equal `gw usage --json` over the same days;
// a budget set with the CLI shows the spend and what is left as `gw budgets test` and the
// gateway's refusal say; the CSV download holds exactly the table shown. The browser runs in
// Kiritimati (UTC+14, no DST), so its days are not UTC's for most of the day: the page counts
// the browser's days, as `gw usage --tz` does.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudit } from '../helpers.js';
import { PERSON, TEAM, runChecked, startHubRig, type HubRig } from '../device-login/support.js';
import { layoutProblems, openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';

const BOB = 'bob@example.com';
const OPS = 'ops';
const UNPRICED_MODEL = 'mock/unpriced-echo';
let rig: HubRig;
let browser: ConsoleBrowser;
let adminToken: string;
/** Calls to the echo models made so far: each leaves one request record. */
let calls = 0;
const tokens: Record<string, string> = {};

function chat(credential: string, model: string, maxTokens?: number): Promise<Response> {
  calls += 1;
  return fetch(`${rig.hub.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello spend page' }], ...(maxTokens ? { max_tokens: maxTokens } : {}) }),
  });
}

async function adminGet<T>(path: string): Promise<T> {
  return await (await fetch(`${rig.hub.url}${path}`, { headers: { authorization: `Bearer ${adminToken}` } })).json() as T;
}

async function issuePersonToken(person: string): Promise<string> {
  const form = (path: string, fields: Record<string, string>) => fetch(`${rig.hub.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const started = await (await form('/oauth/device/code', { client_id: 'gw-cli' })).json() as { device_code: string; user_code: string };
  const approved = await fetch(`${rig.hub.url}/admin/api/devices/${started.user_code}/approve`, {
    method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ person }),
  });
  if (approved.status !== 200) throw new Error(`approving ${person}: ${approved.status}`);
  for (let tries = 0; tries < 50; tries += 1) {
    const issued = await (await form('/oauth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code })).json() as { access_token?: string };
    if (issued.access_token) return issued.access_token;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no token for ${person}`);
}

/** Request records the trail holds, settled: each call's record lands just after its answer. */
async function requestRecords(count: number) {
  let records: Awaited<ReturnType<typeof readAudit>> = [];
  await expect.poll(async () => {
    records = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'request' && typeof record.model === 'string' && String(record.model).includes('echo'));
    return records.length;
  }, { timeout: 15_000 }).toBe(count);
  return records;
}

/** The totals table as rows of cell texts: header, body rows, total. */
async function shownTable(): Promise<string[][]> {
  const table = browser.page.getByRole('table', { name: 'Usage totals' });
  return table.locator('tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim())));
}

const ZONE = 'Pacific/Kiritimati';
/** Today in the browser's zone (en-CA writes YYYY-MM-DD). */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const daysBefore = (day: string, count: number) => new Date(Date.parse(`${day}T00:00:00Z`) - count * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  [rig, browser] = await Promise.all([
    startHubRig({ prepare: async (home) => {
      await runChecked(['teams', 'create', OPS], home);
      await runChecked(['people', 'add', BOB, '--team', OPS], home);
    } }),
    openConsoleBrowser({ timezoneId: ZONE }),
  ]);
  adminToken = (await runChecked(['admin', 'tokens', 'create', '--name', 'lead@example.com'], rig.hub.home)).trim();
  // The running hub reads the CLI's change from state.json on its next poll.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await fetch(`${rig.hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
  tokens[PERSON] = await issuePersonToken(PERSON);
  tokens[BOB] = await issuePersonToken(BOB);
  await signIn(browser.page, rig.hub.url, adminToken);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

describe('the Usage page', () => {
  it('counts calls with no price and says so, with the command that prices them, instead of $0', async () => {
    for (const person of [PERSON, PERSON, BOB]) expect((await chat(tokens[person]!, 'mock/echo')).status).toBe(200);
    const records = await requestRecords(calls);
    expect(records.every((record) => (record.cost as { price?: string } | undefined)?.price === 'unknown')).toBe(true);
    await openPage(browser.page, 'Usage');
    const headline = browser.page.getByTestId('usage-headline');
    await expect.poll(() => headline.textContent()).toBe('3 requests, no priced spend; 3 calls unpriced.');
    await expect(browser.page.getByTestId(`spend-${TEAM}`).textContent()).resolves.toBe('2 calls unpriced');
    await expect(browser.page.getByTestId(`spend-${OPS}`).textContent()).resolves.toBe('1 call unpriced');
    await expect(browser.page.getByTestId('unpriced-model-mock/echo').textContent()).resolves.toContain('gw prices set mock/echo --input … --output …');
    expect(await browser.page.locator('main').textContent()).not.toContain('0.000000');
  }, 60_000);

  it('shows stacked bars for the chosen range, totals and top spenders as gw usage has them, unpriced calls counted', async () => {
    await runChecked(['prices', 'set', 'mock/echo', '--input', '3', '--output', '15'], rig.hub.home);
    // The hub reads the CLI's change from state.json on its next poll: a priced call proves it.
    await expect.poll(async () => {
      await chat(tokens[PERSON]!, 'mock/echo');
      const last = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'request').at(-1);
      return (last?.cost as { nano_usd?: number } | undefined)?.nano_usd !== undefined;
    }, { timeout: 15_000 }).toBe(true);
    for (const person of [PERSON, BOB, BOB]) expect((await chat(tokens[person]!, 'mock/echo')).status).toBe(200);
    expect((await chat(tokens[BOB]!, UNPRICED_MODEL)).status).toBe(200);
    const records = await requestRecords(calls);
    const unpricedRecords = records.filter((record) => (record.cost as { price?: string } | undefined)?.price === 'unknown').length;
    // The three before the price, the unpriced model's one; the poll's first call may have come before the price was read.
    expect(unpricedRecords).toBeGreaterThanOrEqual(4);

    await openPage(browser.page, 'Requests');
    await openPage(browser.page, 'Usage');
    const report = browser.page.waitForResponse((response) => response.url().includes('/admin/api/usage?') && response.url().includes(`since=${daysBefore(today(), 6)}&`));
    await browser.page.getByRole('button', { name: '7d', exact: true }).click();
    // The page asks for the browser's days: every call made today counts on the zone's today.
    const asked = await report;
    expect(new URL(asked.url()).searchParams.get('tz')).toBe(ZONE);
    const answered = await asked.json() as { tz: string; daily: Array<{ day: string }> };
    expect(answered.tz).toBe(ZONE);
    expect([...new Set(answered.daily.map((cell) => cell.day))]).toEqual([today()]);
    const spendChart = browser.page.locator('figure', { has: browser.page.getByRole('img', { name: 'Spend per day by team (USD)' }) });
    await spendChart.locator('canvas').waitFor();
    await expect(spendChart.getAttribute('data-days')).resolves.toBe('7');
    await expect(spendChart.getAttribute('data-to')).resolves.toBe(today());
    // The legend names every band without hovering.
    await expect(spendChart.getByRole('list', { name: /^Legend/ }).textContent()).resolves.toMatch(new RegExp(`${TEAM}.*|${OPS}.*`));
    const legend = await browser.page.getByRole('list', { name: 'Legend: Requests per day by team' }).locator('li').allTextContents();
    expect(legend.map((entry) => entry.split(' ')[0]).sort()).toEqual([TEAM, OPS].sort());

    const from = daysBefore(today(), 6);
    const usage = JSON.parse(await runChecked(['usage', '--by', 'team', '--since', from, '--until', dayAfter(today()), '--tz', ZONE, '--json'], rig.hub.home)) as { tz: string; rows: Array<{ group: string; calls: number; cost_nano_usd: number; unpriced_calls: number }> };
    expect(usage.tz).toBe(ZONE);
    await expect.poll(async () => (await shownTable()).length).toBe(usage.rows.length + 2);
    const table = await shownTable();
    for (const row of usage.rows) {
      const shown = table.find((cells) => cells[0] === row.group)!;
      expect(Number(shown[1])).toBe(row.calls);
      expect(Number(shown[4])).toBeCloseTo(row.cost_nano_usd / 1e9, 9);
      expect(Number(shown[5])).toBe(row.unpriced_calls);
    }
    expect(Number(await browser.page.getByTestId('unpriced-total').textContent())).toBe(unpricedRecords);
    await expect(browser.page.getByRole('region', { name: 'Unpriced calls' }).textContent()).resolves.toContain(`${unpricedRecords} calls unpriced`);
    await expect(browser.page.getByTestId(`unpriced-model-${UNPRICED_MODEL}`).textContent()).resolves.toContain(`gw prices set ${UNPRICED_MODEL} --input … --output …`);
    // Top spenders: the priced groups by cost, as gw usage orders them.
    const top = await browser.page.getByRole('table', { name: 'Top spenders' }).locator('tbody tr th').allTextContents();
    expect(top).toEqual(usage.rows.filter((row) => row.cost_nano_usd > 0).slice(0, 5).map((row) => row.group));

    // Cost per key: grouped by key, each key's calls and spend.
    await browser.page.getByLabel('Group by').selectOption('key_id');
    const byKey = JSON.parse(await runChecked(['usage', '--by', 'key', '--since', from, '--until', dayAfter(today()), '--tz', ZONE, '--json'], rig.hub.home)) as { rows: Array<{ group: string; calls: number; cost_nano_usd: number }> };
    await browser.page.getByRole('img', { name: 'Spend per day by key (USD)' }).waitFor();
    await expect.poll(async () => (await shownTable())[0]![0]).toBe('key');
    const keyTable = await shownTable();
    for (const row of byKey.rows) expect(Number(keyTable.find((cells) => cells[0] === row.group.replace('(no key)', '(none)'))![4])).toBeCloseTo(row.cost_nano_usd / 1e9, 9);
    await browser.page.getByLabel('Group by').selectOption('team');
    await browser.page.getByRole('button', { name: '90d', exact: true }).click();
    await expect.poll(() => spendChart.getAttribute('data-days')).toBe('90');
    // A range typed in: three days, the report's window the same days.
    await browser.page.getByLabel('From').fill(daysBefore(today(), 2));
    await expect.poll(() => spendChart.getAttribute('data-days')).toBe('3');
    await expect(spendChart.getAttribute('data-from')).resolves.toBe(daysBefore(today(), 2));
    await expect(browser.page.getByRole('table', { name: 'Usage totals' }).locator('caption').textContent()).resolves.toBe(`Totals ${daysBefore(today(), 2)} to ${today()} (days in ${ZONE})`);
    await browser.page.getByRole('button', { name: '30d', exact: true }).click();
    await expect.poll(() => spendChart.getAttribute('data-days')).toBe('30');
  }, 90_000);

  it('shows a budget against spend as gw budgets test and the gateway count it', async () => {
    await runChecked(['budgets', 'set', `team:${TEAM}`, '--amount', '0.001', '--period', 'day'], rig.hub.home);
    const status = async () => (await adminGet<{ budgets: Array<{ scope: string; spent_nano_usd: number; left_nano_usd: number; amount_nano_usd: number }> }>('/admin/api/budgets/status')).budgets.find((budget) => budget.scope === `team:${TEAM}`);
    // The hub rebuilds the new budget's count from the trail once it reads the change.
    await expect.poll(async () => (await status())?.spent_nano_usd ?? 0, { timeout: 15_000 }).toBeGreaterThan(0);
    const row = (await status())!;
    const cli = await runChecked(['budgets', 'test', '--team', TEAM], rig.hub.home);
    const spentByCli = /: (\$[0-9.e-]+) spent since/.exec(cli)![1]!;
    await openPage(browser.page, 'Requests');
    await openPage(browser.page, 'Usage');
    const shown = browser.page.getByTestId(`budget-team:${TEAM}`);
    await shown.waitFor();
    const cells = await shown.locator('th, td').allTextContents();
    expect(cells[0]).toBe(`team:${TEAM}`);
    expect(cells[2]).toBe('$0.0010');
    expect(cells[3]).toBe(spentByCli);
    // A call that may cost more than is left is refused, naming what is left: the page's figure.
    const refused = await chat(tokens[PERSON]!, 'mock/echo', 100_000);
    expect(refused.status).toBe(402);
    const message = ((await refused.json()) as { error: { message: string; code?: string } }).error.message;
    expect(message).toContain(`has ${cells[4]} left`);
    expect(row.left_nano_usd).toBe(row.amount_nano_usd - row.spent_nano_usd);
    expect(cells[5]).toBe(`${((row.spent_nano_usd / row.amount_nano_usd) * 100).toFixed(1)}%`);
  }, 60_000);

  it('refuses a usage window bound that is not a time, naming it', async () => {
    const answer = await fetch(`${rig.hub.url}/admin/api/usage?by=team&until=next-tuesday`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toBe('until must be a time (ISO 8601, e.g. 2026-11-24 or 2026-11-24T09:00:00Z); got next-tuesday');
  });

  it('refuses a time zone it does not know with the catalog\'s code', async () => {
    const answer = await fetch(`${rig.hub.url}/admin/api/usage?by=day&tz=Mars%2FOlympus_Mons`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: { message: string; code: string } };
    expect(body.error.code).toBe('GW_ERR_USAGE_UNKNOWN_TIME_ZONE');
    expect(body.error.message).toContain('unknown time zone "Mars/Olympus_Mons"');
  });

  it('downloads a CSV of exactly the table shown; nothing overflows at 1280 px', async () => {
    const table = await shownTable();
    const [download] = await Promise.all([browser.page.waitForEvent('download'), browser.page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^gw-usage-by-team-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const parsed = csv.trimEnd().split('\r\n').map((line) => line.split(','));
    // The table's rows, and the zone of its days (the caption on screen) as a last column.
    expect(parsed).toEqual(table.map((row, index) => [...row, index === 0 ? 'Days in' : ZONE]));
    expect(parsed.length).toBeGreaterThan(3);
    expect(await layoutProblems(browser.page)).toEqual([]);
    await browser.shot('usage');
  }, 60_000);
});
