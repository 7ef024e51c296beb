// Issue 30, item 1: the Providers and MCP servers pages in real Chromium against a real hub.
// An admin adds a provider in the page pointing at a real OpenAI-shaped server, tests it, and a
// real call with its model reaches that server carrying the key typed in the form; the key never
// comes back (not in the DOM, not in any response the page loaded, not in the trail). A refused
// add shows the CLI's own message. An MCP server built with the official SDK is added in the page,
// its tools, resources and prompts are listed, and a tools/call through the hub's /mcp works.
// Each change is an admin.change record; both pages pass the 1280-px layout check.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmStep, layoutProblems, openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { startFakeProvider, type FakeProvider } from '../../support/fake-providers/index.js';
import { GatewayJar, readAudit, waitUntil } from '../helpers.js';
// @ts-expect-error: a plain ES module shared with the stdio child
import { createNotesServer } from '../../support/mcp-servers/notes-server.mjs';

const TYPED_KEY = 'sk-typed-in-the-console-7f3e9a1c5b';
const HEADER_SECRET = 'Bearer mcp-header-typed-in-console-4d2c';
/** A key the hub holds in its environment (its `openai` provider): no page may show its value either. */
const HUB_ENV_KEY = 'sk-hub-environment-key-2b8d6f0a4c';
const jar = new GatewayJar();
let hub: GatewayProcess;
let fake: FakeProvider;
let notes: { server: HttpServer; url: string; seenAuthorization: string[] };
let browser: ConsoleBrowser;
let adminToken: string;
/** Every body the page loaded from the hub, as text. */
const loaded: string[] = [];

async function startNotes(): Promise<typeof notes> {
  const seenAuthorization: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    seenAuthorization.push(String(request.headers.authorization ?? ''));
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void (async () => {
      const mcp = createNotesServer('remote');
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => { void transport.close(); void mcp.close(); });
      await mcp.connect(transport);
      const text = Buffer.concat(chunks).toString('utf8');
      await transport.handleRequest(request, response, text ? JSON.parse(text) : undefined);
    })());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seenAuthorization };
}

async function changes(action: string): Promise<Array<Record<string, unknown>>> {
  return (await readAudit(hub.home)).filter((record) => record.kind === 'admin.change' && (record.data as Record<string, unknown>)?.action === action).map((record) => record.data as Record<string, unknown>);
}

/** What the page shows and holds: its HTML and every field's current value. */
async function pageText(): Promise<string> {
  const { page } = browser;
  const fields = await page.evaluate(() => [...document.querySelectorAll('input, textarea, select')].map((field) => (field as HTMLInputElement).value).join('\n'));
  return `${await page.content()}\n${fields}`;
}

beforeAll(async () => {
  [fake, notes] = await Promise.all([startFakeProvider('openai', { apiKey: TYPED_KEY, eventDelayMs: 5 }), startNotes()]);
  hub = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn', OPENAI_API_KEY: HUB_ENV_KEY, OPENAI_BASE_URL: `${fake.url}/v1` } });
  adminToken = (await runGw(['admin', 'tokens', 'create', '--name', 'ops@example.com'], { home: hub.home })).stdout.trim();
  expect(adminToken).toMatch(/^gwa-/);
  // The running hub reads the CLI's change from state.json on its next poll.
  await waitUntil(async () => (await fetch(`${hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status === 200, { timeoutMs: 10_000, what: 'the admin token' });
  browser = await openConsoleBrowser();
  browser.page.on('response', (response) => {
    if (!response.url().startsWith(hub.url)) return;
    loaded.push(response.url());
    response.text().then((body) => loaded.push(body), () => undefined);
  });
  await signIn(browser.page, hub.url, adminToken);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await jar.stopAll();
  await fake?.close();
  await new Promise((resolve) => notes?.server.close(resolve));
});

describe('the Providers page', () => {
  it('adds a provider with a key typed in the form, tests it, and a real call carries that key; the key never comes back', async () => {
    const { page } = browser;
    await openPage(page, 'Providers');
    await page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: /^mock / }).waitFor();
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Name', { exact: true }).fill('lab');
    // The kinds are the CLI's own choices, read from `gw providers add --help` on the hub.
    await expect.poll(() => form.getByLabel('Kind', { exact: true }).locator('option').allTextContents()).toContain('openai');
    await form.getByLabel('Kind', { exact: true }).selectOption('openai');
    await form.getByLabel('Base URL', { exact: true }).fill(`${fake.url}/v1`);
    await form.getByLabel('API key', { exact: true }).fill(TYPED_KEY);
    await form.getByRole('button', { name: 'Add provider' }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Add a provider' }).textContent()).toMatch(/added provider lab \(openai, http:\/\/127\.0\.0\.1:\d+\/v1, key set\)/);
    const row = page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: /^lab / });
    await expect.poll(() => row.getByRole('cell').allTextContents()).toEqual(['lab', 'openai', `${fake.url}/v1`, 'state', 'set', 'in use (no calls in the last hour)', expect.stringMatching(/^Test\s*Remove$/)]);
    // The form let go of the key once the hub had it.
    await expect.poll(() => form.getByLabel('API key', { exact: true }).inputValue()).toBe('');

    await row.getByRole('button', { name: 'Test lab' }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Provider command' }).textContent()).toMatch(/lab: HTTP 200 in \d+ ms \(GET http:\/\/127\.0\.0\.1:\d+\/v1\/models\)/);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${TYPED_KEY}`);
    // The hub's own provider: its key is named by its variable, its value never shown, even when refused.
    const hubRow = page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: /^openai / });
    await expect.poll(() => hubRow.getByRole('cell').allTextContents()).toEqual(['openai', 'openai', `${fake.url}/v1`, 'environment', 'env:OPENAI_API_KEY', 'in use (no calls in the last hour)', 'Test']);
    await hubRow.getByRole('button', { name: 'Test openai' }).click();
    await expect.poll(() => page.getByRole('alert', { name: 'Provider command' }).textContent()).toMatch(/^gw: openai: HTTP 401 in \d+ ms \(GET http:\/\/127\.0\.0\.1:\d+\/v1\/models\): the key was refused$/);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${HUB_ENV_KEY}`);

    // A real call with the new provider's model reaches the fake provider with the key typed in the form.
    const before = fake.requests.length;
    await expect.poll(async () => (await fetch(`${hub.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${hub.bootstrapKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'lab/gpt-4o-mini', messages: [{ role: 'user', content: 'hello lab' }] }),
    })).status, { timeout: 10_000 }).toBe(200);
    const call = fake.requests.slice(before).find((request) => request.path === '/v1/chat/completions')!;
    expect(call.headers.authorization).toBe(`Bearer ${TYPED_KEY}`);

    const [added] = await changes('providers.add');
    expect(added).toMatchObject({ admin_name: 'ops@example.com', via: 'console', target: 'lab' });
    expect(String(added!.command)).toContain('--api-key=***');
    for (const key of [TYPED_KEY, HUB_ENV_KEY]) {
      expect(await pageText()).not.toContain(key);
      expect(loaded.join('\n')).not.toContain(key);
      expect(JSON.stringify(await readAudit(hub.home))).not.toContain(key);
    }
    // What `gw providers list --json` answers remotely (the page's source) says `set`, never the key.
    const listed = await runGw(['providers', 'list', '--json', '--hub', hub.url], { env: { GW_ADMIN_TOKEN: adminToken } });
    expect(listed.stdout).toContain('"key": "set"');
    expect(listed.stdout + listed.stderr).not.toContain(TYPED_KEY);
  }, 60_000);

  it('a refused add says so in the form\'s words, and a key naming the hub\'s environment is not sent', async () => {
    const { page } = browser;
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Name', { exact: true }).fill('broken');
    await form.getByLabel('Kind', { exact: true }).selectOption('openai');
    await form.getByLabel('Base URL', { exact: true }).fill('ftp://example.com/v1');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const cli = await runGw(['providers', 'add', 'broken', '--kind', 'openai', '--base-url', 'ftp://example.com/v1'], { home: hub.home });
    expect(cli.code).toBe(2);
    // The CLI names its flag; the form names its field.
    expect(cli.stderr).toMatch(/invalid --base-url "ftp:\/\/example\.com\/v1": use an http\(s\) URL/);
    await expect.poll(() => page.getByRole('alert', { name: 'Add a provider' }).textContent()).toBe('Base URL must be an http(s) URL (not "ftp://example.com/v1")');
    // The form takes the key itself: a reference to the hub's environment (which the hub refuses remotely) is not offered, and not sent.
    expect(await form.getByLabel('API key', { exact: true }).getAttribute('placeholder')).not.toContain('env:');
    await form.getByLabel('Base URL', { exact: true }).fill(`${fake.url}/v1`);
    await form.getByLabel('API key', { exact: true }).fill('env:OPENAI_API_KEY');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await expect.poll(() => page.getByRole('alert', { name: 'Add a provider' }).textContent()).toMatch(/^The API key field takes the key itself\. A key held in the hub's environment is named in the hub's shell/);
    expect(await changes('providers.add')).toHaveLength(1);
    await expect(page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: /^broken / }).count()).resolves.toBe(0);
  }, 30_000);

  it('says a provider refusing connections is failing, not green "in use", and one 5xx in 18 calls is "some errors", not failing', async () => {
    const { page } = browser;
    expect((await runGw(['providers', 'add', 'dead', '--kind', 'openai', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'sk-dead'], { home: hub.home })).code).toBe(0);
    const chat = (model: string) => fetch(`${hub.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${hub.bootstrapKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'health' }] }),
    });
    // Refused connections: 502s once the hub has read the new provider (a 404 before).
    await waitUntil(async () => (await chat('dead/gpt-4o')).status === 502, { what: 'the hub to use the provider that refuses connections' });
    // lab answered 1 call above; one 5xx among 17 more.
    fake.setBehaviour({ status: 500 }, { times: 1 });
    const statuses: number[] = [];
    for (let call = 0; call < 17; call += 1) statuses.push((await chat('lab/gpt-4o-mini')).status);
    expect(statuses.filter((status) => status >= 500)).toHaveLength(1);
    // The health table reads the trail when the page opens: open it again to see the calls above.
    await openPage(page, 'Keys');
    await openPage(page, 'Providers');
    const health = page.getByRole('table', { name: 'Provider health' });
    await expect.poll(() => health.getByTestId('health-lab').textContent()).toBe('some errors: 1 of 18 calls failed');
    expect(await health.getByTestId('health-lab').getAttribute('class')).toBe('warn');
    expect(await health.getByTestId('health-dead').textContent()).toMatch(/^failing: every call failed \(\d+ of \d+\)$/);
    const listed = page.getByRole('table', { name: 'Providers' }).getByTestId('status-dead');
    await expect.poll(() => listed.textContent()).toMatch(/^in use, failing: every call failed/);
    expect(await listed.getAttribute('class')).toBe('error');
    expect(await page.getByRole('table', { name: 'Providers' }).getByTestId('status-lab').getAttribute('class')).toBe('warn');
    expect((await runGw(['providers', 'remove', 'dead'], { home: hub.home })).code).toBe(0);
  }, 60_000);

  it('keeps the health table, passes the layout check, and removes a provider', async () => {
    const { page } = browser;
    await page.getByRole('table', { name: 'Provider health' }).getByRole('row', { name: /^lab / }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await browser.shot('providers');
    await page.getByRole('button', { name: 'Remove lab' }).click();
    await confirmStep(page, 'Remove provider lab');
    await expect.poll(() => page.getByRole('status', { name: 'Provider command' }).textContent()).toContain('removed provider lab');
    await expect.poll(() => page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: /^lab / }).count()).toBe(0);
    await expect.poll(async () => (await changes('providers.remove')).map((change) => change.target)).toEqual(['lab']);
  }, 30_000);
});

describe('the MCP servers page', () => {
  it('adds a server with a write-only header, lists its tools, resources and prompts, and a tools/call through /mcp works', async () => {
    const { page } = browser;
    await openPage(page, 'MCP servers');
    await page.getByText('No MCP servers yet').waitFor();
    const form = page.getByRole('form', { name: 'Add an MCP server' });
    await form.getByLabel('Name', { exact: true }).fill('notes');
    await form.getByLabel('URL', { exact: true }).fill(notes.url);
    await form.getByLabel('Header name', { exact: true }).fill('Authorization');
    await form.getByLabel('Header value', { exact: true }).fill(HEADER_SECRET);
    await form.getByRole('button', { name: 'Add MCP server' }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Add an MCP server' }).textContent()).toContain('added MCP server notes (http)');
    const row = page.getByRole('table', { name: 'MCP servers' }).getByRole('row', { name: /^notes / });
    await expect.poll(() => row.getByRole('cell').allTextContents()).toEqual(['notes', 'http', notes.url, 'Authorization: (literal, hidden)', expect.stringMatching(/^Test\s*Remove$/)]);

    const offers = page.getByRole('region', { name: 'What notes offers' });
    await expect.poll(() => offers.getByRole('listitem').allTextContents(), { timeout: 15_000 }).toEqual(expect.arrayContaining([
      'notes__echo Echoes its text', 'notes__contact Who to ask', 'notes__slow Reports progress, then answers', 'notes__crash Ends the server process',
      'notes://readme The notes', 'notes__review(topic) A review prompt',
    ]));
    // The catalog came from the server itself, reached with the header typed in the form.
    expect(notes.seenAuthorization).toContain(HEADER_SECRET);

    await row.getByRole('button', { name: 'Test notes' }).click();
    await expect.poll(() => page.getByRole('status', { name: 'MCP command' }).textContent()).toMatch(/notes: connected in \d+ ms; 4 tools listed in \d+ ms: notes__echo.*notes: 1 resources, 0 resource templates, 1 prompts: notes__review/s);

    const agent = new Client({ name: 'console-test-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${hub.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${hub.bootstrapKey}` } } }));
    try {
      const result = await agent.callTool({ name: 'notes__echo', arguments: { text: 'from the console test' } });
      expect(result.content).toEqual([{ type: 'text', text: 'remote echo: from the console test' }]);
    } finally {
      await agent.close();
    }

    const [added] = await changes('mcp.add');
    expect(added).toMatchObject({ admin_name: 'ops@example.com', via: 'console', target: 'notes' });
    expect(await pageText()).not.toContain(HEADER_SECRET);
    expect(loaded.join('\n')).not.toContain(HEADER_SECRET);
    expect(JSON.stringify(await readAudit(hub.home))).not.toContain(HEADER_SECRET);
    expect(await layoutProblems(page)).toEqual([]);
    await browser.shot('mcp');
  }, 60_000);

  it('a refused add shows the CLI\'s own message, and a server is removed', async () => {
    const { page } = browser;
    const form = page.getByRole('form', { name: 'Add an MCP server' });
    await form.getByLabel('Name', { exact: true }).fill('Bad_Name');
    await form.getByLabel('URL', { exact: true }).fill(notes.url);
    await form.getByRole('button', { name: 'Add MCP server' }).click();
    await expect.poll(() => page.getByRole('alert', { name: 'Add an MCP server' }).textContent()).toBe('gw: invalid MCP server name "Bad_Name": lower-case letters, digits and single hyphens');
    await page.getByRole('button', { name: 'Remove notes' }).click();
    await confirmStep(page, 'Remove MCP server notes');
    await expect.poll(() => page.getByRole('status', { name: 'MCP command' }).textContent()).toContain('removed MCP server notes');
    await page.getByText('No MCP servers yet').waitFor();
    expect((await changes('mcp.add')).length).toBe(1);
    await expect.poll(async () => (await changes('mcp.remove')).map((change) => change.target)).toEqual(['notes']);
  }, 30_000);
});
