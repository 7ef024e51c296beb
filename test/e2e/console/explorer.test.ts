// The request explorer as a team lead reads it (issue 30), in real Chromium against a real hub:
// a priced call, an unpriced one, a budget refusal, a policy refusal, a DLP block, a route that
// falls back, a model list, a token exchange and an MCP SDK client session (a tool called on a
// real MCP server) through the hub's /mcp. The table names each call's operation
// and, for a refusal, who refused it in words; times are local; control-plane calls show only
// with the toggle; the MCP SDK's GET probe (405 by design) is not an error; the detail shows
// tokens, cost, timings and attempts formatted, not as JSON.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutProblems, openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { SAMPLES } from '../../dlp/samples.js';
import { readAudit, waitUntil, type AuditLine } from '../helpers.js';
import { PERSON, TEAM, runChecked, startHubRig, type HubRig } from '../device-login/support.js';

const TIGHT_TEAM = 'tight';
const NOTES_SERVER = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
let rig: HubRig;
let browser: ConsoleBrowser;
let adminToken: string;
let engKey: string;
let tightKey: string;
/** The request id of each call the test makes, by what it is. */
const ids: Record<string, string> = {};

function call(credential: string, path: string, body?: unknown, header = 'authorization'): Promise<Response> {
  const value = header === 'authorization' ? `Bearer ${credential}` : credential;
  return fetch(`${rig.hub.url}${path}`, body === undefined
    ? { headers: { [header]: value } }
    : { method: 'POST', headers: { [header]: value, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function chat(name: string, credential: string, model: string, content = 'hello explorer', expected = 200, header = 'authorization'): Promise<void> {
  const response = await call(credential, '/v1/chat/completions', { model, messages: [{ role: 'user', content }] }, header);
  expect(response.status, await response.clone().text()).toBe(expected);
  ids[name] = response.headers.get('x-request-id')!;
}

/** A device login approved over the admin API, then the personal token exchanged as a sidecar does. */
async function exchangeToken(): Promise<string> {
  const form = (path: string, fields: Record<string, string>) => fetch(`${rig.hub.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const started = await (await form('/oauth/device/code', { client_id: 'gw-cli' })).json() as { device_code: string; user_code: string };
  const approved = await fetch(`${rig.hub.url}/admin/api/devices/${started.user_code}/approve`, {
    method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ person: PERSON }),
  });
  expect(approved.status).toBe(200);
  let issued: { access_token?: string } = {};
  await waitUntil(async () => {
    issued = await (await form('/oauth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code })).json() as { access_token?: string };
    return issued.access_token !== undefined;
  }, { what: 'the approved device login to issue a token' });
  const exchanged = await form('/oauth/token', {
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', subject_token: issued.access_token!, subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
  });
  expect(exchanged.status).toBe(200);
  return (await exchanged.json() as { access_token: string }).access_token;
}

async function mcpSession(): Promise<void> {
  const client = new Client({ name: 'explorer-test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.hub.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${engKey}` } } }));
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('notes__echo');
  await client.callTool({ name: 'notes__echo', arguments: { text: 'hello notes' } });
  await client.close();
}

async function requestRecords(): Promise<AuditLine[]> {
  return (await readAudit(rig.hub.home)).filter((record) => record.kind === 'request');
}

beforeAll(async () => {
  rig = await startHubRig({
    prepare: async (home) => {
      await runChecked(['teams', 'create', TIGHT_TEAM], home);
      await runChecked(['prices', 'set', 'mock/echo', '--input', '3', '--output', '15'], home);
      await runChecked(['budgets', 'set', `team:${TIGHT_TEAM}`, '--amount', '0.000001', '--period', 'month'], home);
      await runChecked(['policy', 'set', `team:${TEAM}`, '--deny-models', 'mock/forbidden*'], home);
      await runChecked(['mcp', 'add', 'notes', '--command', `${process.execPath} ${NOTES_SERVER} stdio local`], home);
      await runChecked(['routes', 'add', 'fallback-demo', '--target', 'mock/error-500,weight=100', '--target', 'mock/echo,weight=0.0001'], home);
    },
  });
  const hubHome = rig.hub.home;
  [adminToken, engKey, tightKey] = (await Promise.all([
    runChecked(['admin', 'tokens', 'create', '--name', 'ops@example.com'], hubHome),
    runChecked(['keys', 'create', '--team', TEAM, '--name', 'explorer-eng'], hubHome),
    runChecked(['keys', 'create', '--team', TIGHT_TEAM, '--name', 'explorer-tight'], hubHome),
  ])).map((output) => output.trim().split('\n').at(-1)!.trim()) as [string, string, string];
  await waitUntil(async () => (await fetch(`${rig.hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status === 200, { what: 'the hub to read the admin token' });
  await waitUntil(async () => (await call(engKey, '/v1/models')).status === 200, { what: 'the hub to read the new keys' });
  await chat('priced', engKey, 'mock/echo');
  await chat('unpriced', engKey, 'mock/no-price-set');
  // A micro-dollar a month: less than any call may cost, so the team's first call is refused.
  await chat('budget', tightKey, 'mock/echo', 'over budget', 402);
  await chat('policy', engKey, 'mock/forbidden-1', 'hello', 403);
  await chat('dlp', engKey, 'mock/echo', `my token is ${SAMPLES.githubPat}`, 403);
  const models = await call(engKey, '/v1/models');
  expect(models.status).toBe(200);
  ids.models = models.headers.get('x-request-id')!;
  const session = await exchangeToken();
  await chat('exchanged', session, 'mock/echo', 'from a sidecar session', 200, 'x-gw-vk');
  // The route's first pick fails (the mock answers mock/error-500 with a 500): the record lists both attempts.
  await chat('fallback', engKey, 'fallback-demo');
  await mcpSession();
  browser = await openConsoleBrowser();
  await signIn(browser.page, rig.hub.url, adminToken);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

async function recordOf(id: string): Promise<AuditLine> {
  let found: AuditLine | undefined;
  await waitUntil(async () => (found = (await requestRecords()).find((record) => record.request_id === id)) !== undefined, { what: `the record of ${id}` });
  return found!;
}

/** The explorer's row of one request, found by its row link's accessible name. */
function rowOf(id: string) {
  return browser.page.getByRole('row').filter({ has: browser.page.getByRole('button', { name: `Open request ${id}`, exact: true }) });
}

/** A row's cells by column header. */
async function cellsOf(id: string): Promise<Record<string, string>> {
  const headers = await browser.page.locator('table.requests thead th').allTextContents();
  const cells = await rowOf(id).getByRole('cell').allTextContents();
  return Object.fromEntries(headers.map((header, index) => [header, (cells[index] ?? '').trim()]));
}

async function showControlPlane(shown: boolean): Promise<void> {
  await browser.page.getByLabel('Show control-plane calls').setChecked(shown);
}

describe('the request explorer', () => {
  it('names each call\'s operation and, for a refusal, who refused it, in local time on one line', async () => {
    await Promise.all(Object.values(ids).map((id) => recordOf(id)));
    await openPage(browser.page, 'Requests');
    await rowOf(ids.priced!).waitFor();
    const priced = await cellsOf(ids.priced!);
    expect(priced).toMatchObject({ Operation: 'chat', Outcome: 'ok', Status: '200', Model: 'mock/echo', Team: TEAM });
    expect((await cellsOf(ids.budget!)).Outcome).toBe(`budget team:${TIGHT_TEAM} monthly budget`);
    expect((await cellsOf(ids.policy!)).Outcome).toBe('policy rule team:eng deny_models');
    expect((await cellsOf(ids.dlp!)).Outcome).toBe('DLP rule github_token');
    expect(await cellsOf(ids.exchanged!)).toMatchObject({ Operation: 'chat', Person: PERSON, Outcome: 'ok' });
    expect((await cellsOf(ids.fallback!)).Operation).toBe('chat');
    // The time as the reader's own clock shows it, in the one format of every page (keys-format.js), not the record's ISO text, and on one line.
    const record = await recordOf(ids.priced!);
    const local = await browser.page.evaluate((ts) => new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(ts)), String(record.ts));
    expect(priced.Time).toBe(local);
    expect(priced.Time).not.toContain(String(record.ts).slice(0, 10));
    const timeCell = rowOf(ids.priced!).getByRole('cell').first();
    const lines = await timeCell.evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
    // The row link is short: the id's first characters, named in full for a screen reader.
    expect((await rowOf(ids.priced!).getByRole('button').textContent())!.trim()).toBe(ids.priced!.slice(4, 12));
    expect(await layoutProblems(browser.page)).toEqual([]);
    // The table stays inside the page's column (the viewport check alone would let it pass the column's edge).
    const edges = await browser.page.evaluate(() => {
      const main = document.querySelector('main')!;
      const right = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight);
      return { table: document.querySelector('table.requests')!.getBoundingClientRect().right, column: right };
    });
    expect(edges.table).toBeLessThanOrEqual(edges.column + 1);
  });

  it('shows control-plane calls (model lists, MCP handshakes) only with the toggle', async () => {
    await showControlPlane(false);
    await rowOf(ids.priced!).waitFor();
    expect(await rowOf(ids.models!).count()).toBe(0);
    const operations = await browser.page.locator('table.requests tbody tr td:nth-child(2)').allTextContents();
    expect(operations).not.toContain('models.list');
    expect(operations).not.toContain('mcp initialize');
    await showControlPlane(true);
    await rowOf(ids.models!).waitFor();
    expect((await cellsOf(ids.models!)).Operation).toBe('models.list');
    const shown = await browser.page.locator('table.requests tbody tr td:nth-child(2)').allTextContents();
    expect(shown).toContain('mcp initialize');
    // The token exchange is a login record (login.exchange), never a request row of its own.
    expect((await readAudit(rig.hub.home)).some((line) => line.kind === 'login.exchange')).toBe(true);
    expect(shown.filter((operation) => operation === 'token exchange')).toEqual([]);
    await showControlPlane(false);
  });

  it('an MCP SDK client session through /mcp leaves no error-looking row, its GET stream probe included', async () => {
    const mcp = (await requestRecords()).filter((record) => record.operation === 'mcp');
    // The SDK did probe with a GET, answered 405 by design: that is the row that looked like an error.
    const probe = mcp.find((record) => record.status === 405);
    expect(probe, JSON.stringify(mcp)).toBeDefined();
    await showControlPlane(true);
    for (const record of mcp) {
      const id = String(record.request_id);
      await rowOf(id).waitFor();
      const outcome = rowOf(id).getByRole('cell').nth(6);
      expect(await outcome.getAttribute('class')).not.toMatch(/error|warn/);
      expect(await outcome.textContent()).not.toMatch(/not allowed|method|error/i);
    }
    const toolCall = mcp.find((record) => (record.data as { mcp?: { method?: string } } | undefined)?.mcp?.method === 'tools/call')!;
    expect(await cellsOf(String(toolCall.request_id))).toMatchObject({ Operation: 'mcp tools/call', Model: 'notes/echo', Outcome: 'ok' });
    expect((await cellsOf(String(probe!.request_id))).Operation).toBe('mcp stream probe');
    expect((await cellsOf(String(probe!.request_id))).Outcome).toMatch(/^expected/);
    await showControlPlane(false);
  });

  it('opens a formatted detail: cost in dollars, tokens as a table, timings, the route and its attempts', async () => {
    const record = await recordOf(ids.priced!) as AuditLine & { cost: { nano_usd: number }; tokens: Record<string, number> };
    await rowOf(ids.priced!).getByRole('button').click();
    const detail = browser.page.getByRole('region', { name: `Request ${ids.priced}` });
    await detail.waitFor();
    const text = (await detail.textContent())!;
    expect(text).toContain(`$${(record.cost.nano_usd / 1e9).toFixed(6)}`);
    expect(text).toMatch(/\$0\.000\d{3} \(local price, as echo\)/);
    expect(text).toContain(`total ${Number(record.latency_ms)} ms`);
    // Where the time went, as the record keeps it: the provider's wait and gw's own share.
    const timings = record.data as { upstream_ms: number; overhead_us: number };
    expect(timings.upstream_ms).toBeGreaterThanOrEqual(0);
    expect(timings.overhead_us).toBeGreaterThan(0);
    expect(timings.upstream_ms + timings.overhead_us / 1000).toBeLessThanOrEqual(Number(record.latency_ms) + 1);
    expect(text).toContain(`upstream ${timings.upstream_ms} ms · gateway ${Math.round(timings.overhead_us / 10) / 100} ms`);
    expect(text).toContain('/v1/chat/completions → mock · mock/echo');
    expect(text).not.toMatch(/[{}]|"price"|\?/);
    const tokens = detail.getByRole('table', { name: 'Tokens' });
    for (const [label, field] of [['Input', 'input'], ['Output', 'output'], ['Cache read', 'cached_read'], ['Cache write', 'cache_write'], ['Total', 'total']] as const) {
      expect((await tokens.getByRole('row', { name: new RegExp(`^${label}`) }).getByRole('cell').textContent())!.trim()).toBe(String(record.tokens[field] ?? 0));
    }
    await browser.shot('requests');
    expect(await layoutProblems(browser.page)).toEqual([]);
    await detail.getByRole('button', { name: 'Close' }).click();
    await rowOf(ids.fallback!).getByRole('button').click();
    const attempts = browser.page.getByRole('region', { name: `Request ${ids.fallback}` }).getByRole('list', { name: 'Attempts' });
    const items = await attempts.getByRole('listitem').allTextContents();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/^mock\/error-500: (failed|answered 500)/);
    expect(items[1]).toMatch(/^mock\/echo: answered 200 after \d+ ms$/);
    await browser.page.getByRole('button', { name: 'Close' }).click();
  });

  it('reads a time with a UTC offset as the same instant (the file trail compares ISO text)', async () => {
    const record = await recordOf(ids.priced!);
    const at = Date.parse(String(record.ts));
    // The same instants written two hours ahead of UTC: the call is inside [at, at + 1 s), outside [at + 1 ms, …).
    const plusTwo = (ms: number) => `${new Date(ms + 2 * 3_600_000).toISOString().slice(0, 23)}+02:00`;
    const search = async (since: string, until: string) => {
      const response = await fetch(`${rig.hub.url}/admin/api/requests?request_id=${ids.priced}&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(response.status).toBe(200);
      return ((await response.json()) as unknown[]).length;
    };
    expect(await search(plusTwo(at), plusTwo(at + 1000))).toBe(1);
    expect(await search(plusTwo(at + 1), plusTwo(at + 1000))).toBe(0);
  });

  it('a call gw has no price for says so, and how to set one', async () => {
    await rowOf(ids.unpriced!).getByRole('button').click();
    const detail = browser.page.getByRole('region', { name: `Request ${ids.unpriced}` });
    expect(await detail.textContent()).toContain('no price (gw prices set mock/no-price-set …)');
    await detail.getByRole('button', { name: 'Close' }).click();
  });

  it('a refusal\'s detail names the rule in full and has no cost', async () => {
    await rowOf(ids.policy!).getByRole('button').click();
    const policy = browser.page.getByRole('region', { name: `Request ${ids.policy}` });
    expect(await policy.textContent()).toContain('Refused by policy team:eng: model "mock/forbidden-1" matches deny_models (mock/forbidden*).');
    await policy.getByRole('button', { name: 'Close' }).click();
    await rowOf(ids.dlp!).getByRole('button').click();
    const detail = browser.page.getByRole('region', { name: `Request ${ids.dlp}` });
    const text = (await detail.textContent())!;
    expect(text).toContain('status 403 · DLP rule github_token');
    expect(text).toContain('github_token ×1 (in body)');
    expect(text).toContain('none: no usage');
    expect(text).not.toContain(SAMPLES.githubPat);
    await detail.getByRole('button', { name: 'Close' }).click();
  });

  it('fits an 800-pixel window: neither the page nor the table scrolls sideways', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 800, height: 900 });
    try {
      await rowOf(ids.priced ?? '').waitFor();
      const widths = await page.evaluate(() => {
        const table = document.querySelector('table.requests');
        return { pageScroll: document.documentElement.scrollWidth, pageClient: document.documentElement.clientWidth, tableScroll: table?.scrollWidth ?? Infinity, column: table?.parentElement?.clientWidth ?? 0 };
      });
      expect(widths.pageScroll).toBeLessThanOrEqual(widths.pageClient);
      expect(widths.tableScroll).toBeLessThanOrEqual(widths.column);
      await browser.shot('requests-800');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
