// Issue 41: the Guardrails page in real Chromium against a real hub. An admin adds an HTTP
// guardrail in the page (a local one speaking the generic contract, test/e2e/guardrails/
// guardrail-server.ts) with a credential typed in the form; a real call it blocks is refused, and
// the guardrail got the typed credential; the credential never comes back (not in the page, not in
// any response it loaded, not in the trail). The guardrail is removed in the page; each change is an
// admin.change record.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar, readAudit, waitUntil } from '../helpers.js';
import { startGuardrailServer, type GuardrailServer } from '../guardrails/guardrail-server.js';

const TYPED_CREDENTIAL = 'guard-credential-typed-in-console-91ab';
const jar = new GatewayJar();
let hub: GatewayProcess;
let guard: GuardrailServer;
let browser: ConsoleBrowser;
const loaded: string[] = [];

beforeAll(async () => {
  guard = await startGuardrailServer();
  hub = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  const adminToken = (await runGw(['admin', 'tokens', 'create', '--name', 'ops@example.com'], { home: hub.home })).stdout.trim();
  await waitUntil(async () => (await fetch(`${hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status === 200, { timeoutMs: 10_000, what: 'the admin token' });
  browser = await openConsoleBrowser();
  browser.page.on('response', (response) => {
    if (!response.url().startsWith(hub.url)) return;
    response.text().then((body) => loaded.push(body), () => undefined);
  });
  await signIn(browser.page, hub.url, adminToken);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await jar.stopAll();
  await guard?.close();
});

it('adds a guardrail with a write-only credential, a real call it blocks is refused, and it is removed', async () => {
  const { page } = browser;
  await openPage(page, 'Guardrails');
  const form = page.getByRole('form', { name: 'Add a guardrail' });
  await form.getByLabel('Name', { exact: true }).fill('console-judge');
  await form.getByLabel('Kind', { exact: true }).selectOption('http');
  await form.getByLabel('URL', { exact: true }).fill(guard.url);
  await form.getByLabel('Credential', { exact: true }).fill(TYPED_CREDENTIAL);
  await form.getByRole('button', { name: 'Add guardrail' }).click();
  await expect.poll(() => page.getByRole('status', { name: 'Add a guardrail' }).textContent()).toContain('added guardrail console-judge (http, pre, *, fails open)');
  const row = page.getByRole('table', { name: 'Guardrails' }).getByRole('row', { name: /^console-judge / });
  await expect.poll(() => row.getByRole('cell').allTextContents()).toEqual(['console-judge', 'http', guard.url, '*', 'pre', '2000 ms', 'open', '(set, hidden)', 'Remove']);

  await expect.poll(async () => (await fetch(`${hub.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${hub.bootstrapKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'about the forbidden-topic' }] }),
  })).status, { timeout: 10_000 }).toBe(403);
  expect(guard.received.at(-1)!.authorization).toBe(`Bearer ${TYPED_CREDENTIAL}`);

  await row.getByRole('button', { name: 'Remove console-judge' }).click();
  await expect.poll(() => page.getByRole('table', { name: 'Guardrails' }).count()).toBe(0);
  const changes = (await readAudit(hub.home)).filter((record) => record.kind === 'admin.change').map((record) => (record.data as Record<string, unknown>).action);
  expect(changes).toEqual(expect.arrayContaining(['guardrails.add', 'guardrails.remove']));
  const html = await page.content();
  for (const text of [html, ...loaded, JSON.stringify(await readAudit(hub.home))]) expect(text).not.toContain(TYPED_CREDENTIAL);
}, 60_000);
