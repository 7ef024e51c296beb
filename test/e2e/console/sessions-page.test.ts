// The console's Sessions page (issue 29, lineage) in real headless Chromium on a real gw serve:
// one coding-agent session of two model calls (Claude Code's request, Codex's request) and an
// MCP tool call through /mcp (an MCP server built with the official SDK), all naming the same
// session, and another session beside it. The list shows both with their totals; the session's
// timeline shows its calls in order with the tokens and costs `gw audit show --session --json`
// prints, a bar per call; #sessions/<id> opens it directly; the page keeps its layout at 1280 px.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { layoutProblems, openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { sleep } from '../helpers.js';
import { startRig, type Rig } from '../forwarding/support.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/formats');
const SERVER_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
const SESSION = '3f1c2a9e-5b7d-4e21-9c8a-1d2e3f4a5b6c';
const OTHER = 'ses_6a1b2c3d4e5fXyZ0123456789';

interface ShownCall { operation: string; target: string | null; input_tokens: number; output_tokens: number; cost_nano_usd: number | null; outcome: string[] }

let rig: Rig;
let browser: ConsoleBrowser;
let adminToken: string;
let shown: ShownCall[];

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<void> {
  const response = await fetch(`${rig.gw.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  expect(response.status, await response.text()).toBe(200);
}

async function fixture(file: string, model: string): Promise<Record<string, unknown>> {
  return { ...JSON.parse(await readFile(path.join(FIXTURES, file), 'utf8')) as Record<string, unknown>, model };
}

beforeAll(async () => {
  rig = await startRig({ eventDelayMs: 2 });
  const added = await runGw(['mcp', 'add', 'notes', '--command', `${process.execPath} ${SERVER_SCRIPT} stdio local`], { home: rig.gw.home });
  expect(added.code, added.stderr).toBe(0);
  adminToken = (await runGw(['admin', 'tokens', 'create', '--name', 'ops@example.com'], { home: rig.gw.home })).stdout.trim();
  expect(adminToken).toMatch(/^gwa-/);
  // The session: a Claude Code turn, a tool call through /mcp, a Codex turn (x-gw-session names the session for both).
  await post('/v1/messages?beta=true', await fixture('anthropic-messages/claude-code.request.json', 'anthropic/claude-sonnet-4-20250514'), {
    'x-api-key': rig.key, 'anthropic-version': '2023-06-01', 'x-claude-code-session-id': SESSION, 'user-agent': 'claude-cli/2.1.197 (external, sdk-cli)',
  });
  const client = new Client({ name: 'claude-code', version: '2.1.197' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.gw.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${rig.key}`, 'x-gw-session': SESSION, 'user-agent': 'claude-code/2.1.197 (cli)' } },
  }));
  expect((await client.callTool({ name: 'notes__echo', arguments: { text: 'from the session' } })).content).toEqual([{ type: 'text', text: 'local echo: from the session' }]);
  await client.close();
  await post('/v1/responses', await fixture('openai-responses/request-codex.json', 'openai/gpt-4o'), {
    authorization: `Bearer ${rig.key}`, accept: 'text/event-stream', 'x-gw-session': SESSION, 'user-agent': 'codex_exec/0.169.0 (Ubuntu 24.4.0; x86_64) xterm (codex_exec; 0.169.0)',
  });
  await post('/v1/chat/completions', { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'title this' }] }, {
    authorization: `Bearer ${rig.key}`, 'x-session-id': OTHER, 'user-agent': 'opencode/1.18.33 ai-sdk/provider-utils/4.0.0 runtime/bun/1.3.14',
  });
  await sleep(1200); // the records are written as each call ends
  const audit = await runGw(['audit', 'show', '--session', SESSION, '--json'], { home: rig.gw.home });
  expect(audit.code, audit.stderr).toBe(0);
  shown = (JSON.parse(audit.stdout) as { calls: ShownCall[] }).calls;
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

it('lists the sessions and shows one session\'s model and tool calls in order, as gw audit show does', async () => {
  // What gw audit show says the session was: the Claude Code turn, the MCP listing and tool call, the Codex turn.
  expect(shown.map((call) => call.operation)).toEqual(['messages', 'mcp tools/call', 'responses.create']);
  expect(shown[0]!.input_tokens).toBeGreaterThan(0);
  expect(shown[0]!.cost_nano_usd).toBeGreaterThan(0);
  const { page } = browser;
  await signIn(page, rig.gw.url, adminToken);
  await openPage(page, 'Sessions');
  const list = page.locator('table.sessions');
  await list.getByRole('button', { name: SESSION }).waitFor();
  const rows = await list.locator('tbody tr').allInnerTexts();
  expect(rows).toHaveLength(2);
  // The session's row: its agents, 3 calls of which 1 tool call, and its totals.
  const row = rows.find((text) => text.includes(SESSION))!;
  const cells = row.split('\t').map((cell) => cell.trim());
  expect(cells[2]).toBe('claude-code/2.1.197, codex/0.169.0');
  expect(cells.slice(4, 6)).toEqual(['3', '1']);
  expect(cells[6]).toBe(`${shown.reduce((sum, call) => sum + call.input_tokens, 0)} / ${shown.reduce((sum, call) => sum + call.output_tokens, 0)}`);
  expect(cells[7]).toBe((shown.reduce((sum, call) => sum + (call.cost_nano_usd ?? 0), 0) / 1e9).toFixed(6));
  expect(rows.find((text) => text.includes(OTHER))).toContain('opencode/1.18.33');

  await list.getByRole('button', { name: SESSION }).click();
  await expectTimeline();
  expect(page.url()).toContain(`#sessions/${SESSION}`);
  expect(await layoutProblems(page)).toEqual([]);
  // The timeline stays inside its card (the layout check sees only the viewport's edge).
  const timeline = page.getByRole('region', { name: `Session ${SESSION}` });
  const [card, table] = [await timeline.boundingBox(), await timeline.locator('table').boundingBox()];
  expect(table!.x + table!.width).toBeLessThanOrEqual(card!.x + card!.width);
  await browser.shot('sessions');
}, 60_000);

it('opens a session from its address, #sessions/<id>, as a link from another page would', async () => {
  const { page } = browser;
  await page.goto(`${rig.gw.url}/ui#requests`);
  await page.getByRole('heading', { name: 'Requests' }).waitFor();
  // A request's detail links to its session: the console follows the address to the timeline.
  const modelCall = shown.find((call) => call.operation !== 'mcp tools/call' && call.request_id)!;
  await page.getByRole('button', { name: `Open request ${modelCall.request_id}`, exact: true }).click();
  await page.getByRole('region', { name: `Request ${modelCall.request_id}` }).getByRole('link', { name: SESSION }).click();
  await expectTimeline();
  await page.reload();
  await expectTimeline();
}, 60_000);

/** The timeline's rows say what gw audit show says: the calls in order, their tokens, costs and outcomes, a bar each. */
async function expectTimeline(): Promise<void> {
  const timeline = browser.page.getByRole('region', { name: `Session ${SESSION}` });
  await timeline.locator('tr.session-call').first().waitFor();
  const rows = await timeline.locator('tr.session-call').allInnerTexts();
  expect(rows.map((text) => text.split('\t').map((cell) => cell.trim()))).toEqual(shown.map((call, index) => [
    String(index + 1), expect.stringMatching(/^\+\d+\.\d s$/), call.operation, call.target ?? '', '200', String(call.input_tokens), String(call.output_tokens),
    call.cost_nano_usd === null ? '' : (call.cost_nano_usd / 1e9).toFixed(6), call.outcome.join(' '), '',
  ]));
  expect(rows[0]!.split('\t')[1]!.trim()).toBe('+0.0 s');
  expect(await timeline.locator('tr.session-call-tool').count()).toBe(1);
  expect(await timeline.locator('svg.session-bar rect.session-model').count()).toBe(2);
  const widths = await timeline.locator('svg.session-bar rect.session-tool').evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('width'))));
  expect(widths).toHaveLength(1);
  expect(widths[0]).toBeGreaterThanOrEqual(2);
}

it('the admin API answers a bad session id or time with 400, an unknown session with 404', async () => {
  const get = async (url: string) => {
    const response = await fetch(`${rig.gw.url}${url}`, { headers: { authorization: `Bearer ${adminToken}` } });
    return { status: response.status, body: await response.json() as { error?: { message: string }; sessions?: Array<{ session: string }> } };
  };
  const bad = await get(`/admin/api/sessions/${encodeURIComponent('not a session!')}`);
  expect(bad.status).toBe(400);
  expect(bad.body.error?.message).toMatch(/^invalid session "not a session!"/);
  expect((await get('/admin/api/sessions?since=yesterday')).status).toBe(400);
  const unknown = await get('/admin/api/sessions/run-nobody-made');
  expect(unknown.status).toBe(404);
  expect(unknown.body.error?.message).toBe('no calls of session run-nobody-made in the trail');
  // The bootstrap key's calls are the team "local"'s; no session is another team's.
  expect((await get('/admin/api/sessions?team=local')).body.sessions?.map((row) => row.session).sort()).toEqual([SESSION, OTHER].sort());
  expect((await get('/admin/api/sessions?team=web')).body.sessions).toEqual([]);
  // A time with an offset means the same instant as in UTC: an hour ago (as +02:00 wall time) includes both, an hour ahead neither.
  const withOffset = (ms: number) => `${new Date(ms + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
  expect((await get(`/admin/api/sessions?since=${encodeURIComponent(withOffset(Date.now() - 3_600_000))}`)).body.sessions).toHaveLength(2);
  expect((await get(`/admin/api/sessions?since=${encodeURIComponent(withOffset(Date.now() + 3_600_000))}`)).body.sessions).toEqual([]);
}, 30_000);
