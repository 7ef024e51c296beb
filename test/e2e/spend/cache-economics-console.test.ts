// The console's "Prompt cache" page in real Chromium against a real `gw serve`: calls of two
// sessions (one hitting the cache, one only writing: a miss streak) through a provider-shaped
// Anthropic server; the page's ratio, saving and breaks per team and per session are the admin
// API's figures, a negative saving is marked, and the page lays out at 1280 pixels.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { layoutProblems, openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { auditRecord } from '../forwarding/support.js';
import { waitForState } from '../helpers.js';
import { startCacheUsageProvider, type CacheUsageProvider } from './cache-usage-provider.js';

let gw: GatewayProcess;
let hit: CacheUsageProvider;
let miss: CacheUsageProvider;
let browser: ConsoleBrowser;
let adminToken = '';

const quiet = { responses: { input_tokens: 1, output_tokens: 1 }, genai: { promptTokenCount: 1, candidatesTokenCount: 1 }, bedrock: { inputTokens: 1, outputTokens: 1 }, chat: { prompt_tokens: 1, completion_tokens: 1 } };

async function call(provider: string, session: string): Promise<void> {
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': gw.bootstrapKey!, 'x-gw-session': session },
    body: JSON.stringify({ model: `${provider}/claude-sonnet-4-5`, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.status, await response.text()).toBe(200);
  await auditRecord(gw.home, response.headers.get('x-request-id')!);
}

beforeAll(async () => {
  [hit, miss] = await Promise.all([
    startCacheUsageProvider({ ...quiet, messages: { input_tokens: 100, cache_read_input_tokens: 9_000, cache_creation_input_tokens: 0, output_tokens: 10 } }),
    startCacheUsageProvider({ ...quiet, messages: { input_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 9_000, output_tokens: 10 } }),
  ]);
  gw = await startGatewayProcess({ env: { ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: hit.url, GW_LOG_LEVEL: 'warn' } });
  // A second Anthropic provider whose cache never hits.
  const added = await runGw(['providers', 'add', 'cold', '--kind', 'anthropic', '--base-url', miss.url, '--api-key', 'sk-ant-cold'], { home: gw.home });
  expect(added.code, added.stderr).toBe(0);
  adminToken = (await runGw(['admin', 'tokens', 'create', '--name', 'cache-page'], { home: gw.home })).stdout.trim();
  await waitForState(gw);
  for (let turn = 0; turn < 3; turn += 1) await call('anthropic', 'sess-warm');
  for (let turn = 0; turn < 2; turn += 1) await call('cold', 'sess-cold');
  browser = await openConsoleBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await gw?.stop();
  await Promise.all([hit?.close(), miss?.close()]);
});

it('shows each team\'s and session\'s hit ratio, saving and breaks as the admin API gives them', async () => {
  const { page } = browser;
  await signIn(page, gw.url, adminToken);
  await openPage(page, 'Prompt cache');
  await page.getByRole('table', { name: 'Prompt cache by session' }).waitFor();
  // sess-warm: 9,000 of 9,100 input tokens read from the cache, each 2,700 nano-USD under the input price.
  expect(await page.getByTestId('cache-ratio-session-sess-warm').textContent()).toBe('98.9%');
  expect(await page.getByTestId('cache-saved-session-sess-warm').textContent()).toBe((3 * 9_000 * 2_700 / 1e9).toFixed(6));
  // sess-cold: writes only, 750 nano-USD a token above input: a loss, marked as one.
  const cold = page.getByTestId('cache-saved-session-sess-cold');
  expect(await cold.textContent()).toBe((-2 * 9_000 * 750 / 1e9).toFixed(6));
  expect(await cold.getAttribute('class')).toBe('cache-loss');
  const api = await (await fetch(`${gw.url}/admin/api/usage/cache?by=team`, { headers: { authorization: `Bearer ${adminToken}` } })).json() as { rows: Array<{ group: string; cache_saved_nano_usd: number }> };
  const local = api.rows.find((row) => row.group === 'local')!;
  expect(await page.getByTestId('cache-saved-team-local').textContent()).toBe((local.cache_saved_nano_usd / 1e9).toFixed(6));
  expect(local.cache_saved_nano_usd).toBe(3 * 9_000 * 2_700 - 2 * 9_000 * 750);
  expect(await layoutProblems(page)).toEqual([]);
  await browser.shot('prompt-cache');
}, 60_000);
