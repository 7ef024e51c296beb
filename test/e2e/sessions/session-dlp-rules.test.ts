// Lineage under the caller's own DLP rules (issue 36, docs/sessions.md): a real `gw serve` with a
// team's `gw dlp add corp_token` rule. A session id or agent that rule matches is not recorded on
// any surface that records one (a model call, the 403 record of the call DLP blocked for it, a
// tool call through /mcp to an MCP server built with the official SDK, a Responses WebSocket
// turn); the record names the rule, never the value, and neither the trail, `gw usage --by
// session`, the sessions API nor the log carries it. Another team's caller, whose scope has no
// such rule, keeps a session the same pattern would match. Session affinity reads the session the
// same way: a refused one keeps its calls to no account of a weighted route.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runGw } from '../../support/gateway-process.js';
import { readAudit, sleep, waitForState, type AuditLine } from '../helpers.js';
import { UPSTREAM_KEYS, auditRecord, auditRecordWhere, startRig, type Rig } from '../forwarding/support.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/formats');
const SERVER_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
/** What the team's rule matches: the refused value, which must appear nowhere. */
const TOKEN = 'corptok-a1b2c3d4e5f6g7h8i9j0';
/** The same shape, sent by another team (no such rule in its scope): recorded as sent. */
const OTHER_TOKEN = 'corptok-zzzzyyyyxxxxwwwwvvvv';
const REFUSED = 'session_id_refused: corp_token';
let rig: Rig;
let otherKey: string;
let adminToken: string;

beforeAll(async () => {
  // Debug: the log check below reads every line gw writes, not only warnings.
  rig = await startRig({ eventDelayMs: 2, azure: true, env: { GW_LOG_LEVEL: 'debug' } });
  const home = { home: rig.gw.home };
  const added = await runGw(['mcp', 'add', 'notes', '--command', `${process.execPath} ${SERVER_SCRIPT} stdio local`], home);
  expect(added.code, added.stderr).toBe(0);
  const rule = await runGw(['dlp', 'add', 'corp_token', '--pattern', 'corptok-[a-z0-9]{20}', '--action', 'block', '--scope', 'team:local'], home);
  expect(rule.code, rule.stderr).toBe(0);
  const team = await runGw(['teams', 'create', 'other'], home);
  expect(team.code, team.stderr).toBe(0);
  const made = await runGw(['keys', 'create', '--team', 'other', '--name', 'control'], home);
  expect(made.code, made.stderr).toBe(0);
  otherKey = /sk-gw-\w+/.exec(made.stdout)![0];
  adminToken = (await runGw(['admin', 'tokens', 'create', '--name', 'ops@example.com'], home)).stdout.trim();
  await waitForState(rig.gw);
}, 60_000);

afterAll(async () => { await rig?.close(); });

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; text: string; record: AuditLine }> {
  const response = await fetch(`${rig.gw.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text, record: await auditRecord(rig.gw.home, response.headers.get('x-request-id')!) };
}

const chat = { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }] };

describe('a session or agent the team\'s own rule matches is not recorded', () => {
  it('a model call: x-gw-session and the User-Agent\'s product refused by the rule, named in the warnings', async () => {
    const { record } = await post('/v1/chat/completions', chat, { authorization: `Bearer ${rig.key}`, 'x-gw-session': TOKEN, 'user-agent': `${TOKEN}/1.0` });
    expect(record).not.toHaveProperty('session');
    expect(record).not.toHaveProperty('agent');
    expect(record.warnings).toEqual(expect.arrayContaining(['session_id_ignored', REFUSED, 'agent_refused: corp_token']));
  });

  it('another team\'s caller keeps a session of the same shape (the rule is its team\'s, resolved per scope)', async () => {
    const { status, record } = await post('/v1/chat/completions', chat, { authorization: `Bearer ${otherKey}`, 'x-gw-session': OTHER_TOKEN });
    expect(status).toBe(200);
    expect(record).toMatchObject({ team: 'other', session: OTHER_TOKEN });
  });

  it('the 403 record of the call DLP blocked for Claude Code\'s metadata.user_id session_id carries no session', async () => {
    const body = JSON.parse(await readFile(path.join(FIXTURES, 'anthropic-messages/claude-code.request.json'), 'utf8')) as Record<string, unknown>;
    body.model = 'anthropic/claude-sonnet-4-20250514';
    body.metadata = { user_id: JSON.stringify({ device_id: 'dev-1', account_uuid: '', session_id: TOKEN }) };
    const { status, text, record } = await post('/v1/messages', body, { 'x-api-key': rig.key, 'anthropic-version': '2023-06-01', 'user-agent': 'claude-cli/2.1.197 (external, sdk-cli)' });
    expect(status).toBe(403);
    // The refusal in the caller's own format, naming the rule, never the value.
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(text).toContain('corp_token');
    expect(text).not.toContain(TOKEN);
    expect(record).toMatchObject({ status: 403, agent: 'claude-code/2.1.197' });
    expect(record).not.toHaveProperty('session');
    expect(record.warnings).toContain(REFUSED);
  });

  it('a tool call through /mcp with the session header records no session', async () => {
    const client = new Client({ name: 'claude-code', version: '2.1.197' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.gw.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${rig.key}`, 'x-gw-session': TOKEN } },
    }));
    const result = await client.callTool({ name: 'notes__echo', arguments: { text: 'still works' } });
    expect(result.content).toEqual([{ type: 'text', text: 'local echo: still works' }]);
    await client.close();
    const tool = await auditRecordWhere(rig.gw.home, (line) => line.route === '/mcp' && (line.data as { mcp?: { method?: string } } | undefined)?.mcp?.method === 'tools/call');
    expect(tool).not.toHaveProperty('session');
    expect(tool.warnings).toContain(REFUSED);
  });

  it('a Responses WebSocket turn records no session from the handshake', async () => {
    const socket = new WebSocket(`${rig.gw.url.replace('http', 'ws')}/v1/responses`, { headers: {
      authorization: `Bearer ${rig.key}`, 'openai-beta': 'responses_websockets=2026-02-06', 'session-id': TOKEN,
    } });
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    await new Promise<void>((resolve) => {
      socket.on('message', (data: WebSocket.RawData) => {
        if ((JSON.parse(String(data)) as { type: string }).type === 'response.completed') resolve();
      });
      socket.send(JSON.stringify({ type: 'response.create', model: 'openai/gpt-4o', input: 'a turn', store: false }));
    });
    socket.close();
    const turn = await auditRecordWhere(rig.gw.home, (line) => (line.data as { transport?: string } | undefined)?.transport === 'websocket');
    expect(turn).not.toHaveProperty('session');
    expect(turn.warnings).toContain(REFUSED);
  });
});

describe('session affinity reads the session as the record does', () => {
  beforeAll(async () => {
    // Two accounts behind a 50/50 route: the rig's OpenAI fake and its second one (standing in for Azure).
    for (const args of [
      ['providers', 'add', 'account-a', '--kind', 'openai', '--base-url', `${rig.openai.url}/v1`, '--api-key', UPSTREAM_KEYS.openai],
      ['providers', 'add', 'account-b', '--kind', 'openai', '--base-url', `${rig.azure!.url}/v1`, '--api-key', UPSTREAM_KEYS.azure],
      ['routes', 'add', 'split', '--target', 'account-a/gpt-4o,weight=1', '--target', 'account-b/gpt-4o,weight=1'],
    ]) {
      const result = await runGw(args, { home: rig.gw.home });
      expect(result.code, result.stderr).toBe(0);
    }
    await waitForState(rig.gw);
  }, 30_000);

  /** Sends 16 calls of one session through the route: how many each account served, fewer first. */
  async function spread(key: string, session: string): Promise<number[]> {
    const before = [rig.openai.requests.length, rig.azure!.requests.length];
    for (let call = 0; call < 16; call += 1) {
      const response = await fetch(`${rig.gw.url}/v1/chat/completions`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-gw-session': session },
        body: JSON.stringify({ ...chat, model: 'split' }),
      });
      expect(response.status, await response.text()).toBe(200);
    }
    return [rig.openai.requests.length - before[0]!, rig.azure!.requests.length - before[1]!].sort((a, b) => a - b);
  }

  it('a session the caller\'s rule refuses keeps to no account (its calls spread); another team\'s session keeps to one', async () => {
    expect(await spread(otherKey, OTHER_TOKEN)).toEqual([0, 16]);
    // All 16 on one account at random: 2 in 65,536.
    expect((await spread(rig.key, TOKEN))[0]).toBeGreaterThan(0);
  }, 60_000);
});

describe('nothing of the refused value anywhere', () => {
  it('not in the trail, gw usage --by session, the sessions API or the log; the control session is', async () => {
    await sleep(500);
    const trail = await readFile(path.join(rig.gw.home, 'audit', 'audit.jsonl'), 'utf8');
    expect(trail).not.toContain(TOKEN);
    expect(trail).toContain(OTHER_TOKEN);
    expect((await readAudit(rig.gw.home)).filter((line) => Array.isArray(line.warnings) && line.warnings.includes(REFUSED)).length).toBeGreaterThanOrEqual(4);

    const usage = await runGw(['usage', '--by', 'session', '--json'], { home: rig.gw.home });
    expect(usage.code, usage.stderr).toBe(0);
    expect(usage.stdout).not.toContain(TOKEN);
    expect(usage.stdout).toContain(OTHER_TOKEN);

    const listed = await fetch(`${rig.gw.url}/admin/api/sessions`, { headers: { authorization: `Bearer ${adminToken}` } });
    const sessions = await listed.text();
    expect(listed.status, sessions).toBe(200);
    expect(sessions).not.toContain(TOKEN);
    expect(sessions).toContain(OTHER_TOKEN);

    const log = rig.gw.stdout() + rig.gw.stderr();
    // The log has a line per request (the calls above among them), none with the value.
    expect(log).toContain('/v1/chat/completions');
    expect(log).not.toContain(TOKEN);
  }, 30_000);
});
