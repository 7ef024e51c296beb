// Lineage (issue 29, docs/sessions.md): a real `gw serve` in front of provider-shaped servers,
// called with requests shaped like each coding client's (headers as real-clients.md records
// them, bodies from the recorded fixtures), and an MCP server built with the official SDK called
// through /mcp with the agent's session header. The records share the session and name the
// agent; `gw audit show --session` lists the model and tool calls in trail order with tokens,
// cost and outcome; `gw usage --by session` sums them. A session header that is too long or
// carries a secret is dropped (a warning on the record), never written.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { SAMPLES } from '../../dlp/samples.js';
import { readAudit, sleep, waitForState, type AuditLine } from '../helpers.js';
import { auditRecord, auditRecordWhere, startRig, type Rig } from '../forwarding/support.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/formats');
const SERVER_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
const CLAUDE_SESSION = '3f1c2a9e-5b7d-4e21-9c8a-1d2e3f4a5b6c';
const CODEX_SESSION = '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const OPENCODE_SESSION = 'ses_6a1b2c3d4e5fXyZ0123456789';
let rig: Rig;

beforeAll(async () => {
  rig = await startRig({ eventDelayMs: 2 });
  const added = await runGw(['mcp', 'add', 'notes', '--command', `${process.execPath} ${SERVER_SCRIPT} stdio local`], { home: rig.gw.home });
  expect(added.code, added.stderr).toBe(0);
  await waitForState(rig.gw);
}, 60_000);

afterAll(async () => { await rig?.close(); });

async function fixture(file: string, model: string): Promise<Record<string, unknown>> {
  return { ...JSON.parse(await readFile(path.join(FIXTURES, file), 'utf8')) as Record<string, unknown>, model };
}

/** Sends one call, reads its whole answer (a stream to its end), and returns its audit record. */
async function call(url: string, body: unknown, headers: Record<string, string>, expectOk = true): Promise<AuditLine> {
  const response = await fetch(`${rig.gw.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  if (expectOk) expect(response.status, text).toBe(200);
  return auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
}

/** Claude Code 2.1.197's request as real-clients.md records it. */
async function claudeCodeCall(session: string, extra: Record<string, string> = {}, expectOk = true): Promise<AuditLine> {
  return call('/v1/messages?beta=true', await fixture('anthropic-messages/claude-code.request.json', 'anthropic/claude-sonnet-4-20250514'), {
    'x-api-key': rig.key, 'anthropic-version': '2023-06-01',
    'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,thinking-token-count-2026-05-13,context-management-2025-06-27,prompt-caching-scope-2026-01-05',
    'anthropic-dangerous-direct-browser-access': 'true', 'x-app': 'cli', 'x-claude-code-session-id': session,
    'user-agent': 'claude-cli/2.1.197 (external, sdk-cli)', ...extra,
  }, expectOk);
}

/** An MCP client (the official SDK) calling a tool through /mcp with the session header. */
async function toolCall(session: string): Promise<void> {
  const client = new Client({ name: 'claude-code', version: '2.1.197' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.gw.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${rig.key}`, 'x-gw-session': session, 'user-agent': 'claude-code/2.1.197 (cli)' } },
  }));
  const result = await client.callTool({ name: 'notes__echo', arguments: { text: 'from the session' } });
  expect(result.content).toEqual([{ type: 'text', text: 'local echo: from the session' }]);
  await client.close();
}

const isToolCall = (line: AuditLine) => (line.data as { mcp?: { method?: string } } | undefined)?.mcp?.method === 'tools/call';

describe('records carry the session and the agent', () => {
  let first: AuditLine;
  let tool: AuditLine;
  let second: AuditLine;

  beforeAll(async () => {
    first = await claudeCodeCall(CLAUDE_SESSION);
    await toolCall(CLAUDE_SESSION);
    tool = await auditRecordWhere(rig.gw.home, (line) => isToolCall(line) && line.session === CLAUDE_SESSION);
    second = await claudeCodeCall(CLAUDE_SESSION);
  }, 60_000);

  it('Claude Code: x-claude-code-session-id, agent claude-code/<version>; its MCP tool call shares the session', () => {
    expect(first).toMatchObject({ session: CLAUDE_SESSION, agent: 'claude-code/2.1.197', provider: 'anthropic', status: 200 });
    expect(second).toMatchObject({ session: CLAUDE_SESSION, agent: 'claude-code/2.1.197' });
    expect(tool).toMatchObject({ session: CLAUDE_SESSION, agent: 'claude-code/2.1.197', route: '/mcp', data: { mcp: { server: 'notes', tool: 'echo', status: 'ok' } } });
    expect(first.seq).toBeLessThan(tool.seq);
    expect(tool.seq).toBeLessThan(second.seq);
  });

  it('Codex: its session-id header, agent codex/<version> from codex_exec', async () => {
    const record = await call('/v1/responses', await fixture('openai-responses/request-codex.json', 'openai/gpt-4o'), {
      authorization: `Bearer ${rig.key}`, accept: 'text/event-stream', originator: 'codex_exec', 'session-id': CODEX_SESSION,
      'thread-id': CODEX_SESSION, 'x-client-request-id': CODEX_SESSION, 'user-agent': 'codex_exec/0.169.0 (Ubuntu 24.4.0; x86_64) xterm (codex_exec; 0.169.0)',
    });
    expect(record).toMatchObject({ session: CODEX_SESSION, agent: 'codex/0.169.0', provider: 'openai' });
  });

  it('Codex over WebSocket (GET /v1/responses): every turn\'s record carries the handshake\'s session and agent', async () => {
    const session = '0199ffff-aaaa-7bbb-8ccc-0123456789ab';
    const socket = new WebSocket(`${rig.gw.url.replace('http', 'ws')}/v1/responses`, { headers: {
      authorization: `Bearer ${rig.key}`, 'openai-beta': 'responses_websockets=2026-02-06', originator: 'codex_exec', 'session-id': session,
      'user-agent': 'codex_exec/0.169.0 (Ubuntu 24.4.0; x86_64) xterm (codex_exec; 0.169.0)',
    } });
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    const turn = () => new Promise<void>((resolve) => {
      const onMessage = (data: WebSocket.RawData) => {
        if ((JSON.parse(String(data)) as { type: string }).type === 'response.completed') { socket.off('message', onMessage); resolve(); }
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ type: 'response.create', model: 'openai/gpt-4o', input: 'a turn', store: false }));
    });
    await turn();
    await turn();
    socket.close();
    await sleep(300);
    const turns = (await readAudit(rig.gw.home)).filter((line) => line.kind === 'request' && (line.data as { transport?: string } | undefined)?.transport === 'websocket');
    expect(turns.length).toBe(2);
    for (const record of turns) expect(record).toMatchObject({ session, agent: 'codex/0.169.0', operation: 'responses.create' });
  });

  it('opencode: x-session-id, agent opencode/<version>', async () => {
    const record = await call('/v1/chat/completions', {
      model: 'openai/gpt-4o', max_tokens: 32000, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'title this' }],
    }, {
      authorization: `Bearer ${rig.key}`, 'x-session-id': OPENCODE_SESSION, 'x-session-affinity': OPENCODE_SESSION,
      'user-agent': 'opencode/1.18.33 ai-sdk/provider-utils/4.0.0 runtime/bun/1.3.14',
    });
    expect(record).toMatchObject({ session: OPENCODE_SESSION, agent: 'opencode/1.18.33' });
  });

  it('Gemini CLI sends no session id: the agent is recorded, the session comes from x-gw-session when set', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hello' }] }], generationConfig: { thinkingConfig: { includeThoughts: true } } };
    const headers = {
      'x-goog-api-key': rig.key, 'user-agent': 'GeminiCLI-tui/0.61.0/gemini-2.5-flash (linux; x64; terminal)', 'x-goog-api-client': 'google-genai-sdk/1.30.0 gl-node/v22.12.0',
    };
    const bare = await call('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', body, headers);
    expect(bare.agent).toBe('gemini-cli/0.61.0');
    expect(bare).not.toHaveProperty('session');
    const named = await call('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', body, { ...headers, 'x-gw-session': 'gemini-run-1' });
    expect(named).toMatchObject({ session: 'gemini-run-1', agent: 'gemini-cli/0.61.0' });
  });

  it('an SDK names itself: the Google GenAI SDK by x-goog-api-client, the OpenAI SDK by its User-Agent', async () => {
    const genai = await call('/v1beta/models/gemini-2.5-flash:generateContent', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, {
      'x-goog-api-key': rig.key, 'user-agent': 'node', 'x-goog-api-client': 'google-genai-sdk/2.32.0 gl-node/v22.12.0',
    });
    expect(genai.agent).toBe('google-genai/2.32.0');
    const openai = await call('/v1/chat/completions', { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, {
      authorization: `Bearer ${rig.key}`, 'user-agent': 'OpenAI/JS 6.49.0',
    });
    expect(openai.agent).toBe('openai-js/6.49.0');
    expect(openai).not.toHaveProperty('session');
  });

  it('x-gw-session wins over the client\'s own header', async () => {
    const record = await claudeCodeCall(CLAUDE_SESSION, { 'x-gw-session': 'team-task-42' });
    expect(record.session).toBe('team-task-42');
  });

  it('a session header too long, with odd characters or carrying a secret is dropped with a warning, never written', async () => {
    // A secret in a header may also be refused by DLP's header scan: either way it is not the record's session.
    const secret = SAMPLES.githubPat;
    for (const bad of ['x'.repeat(129), 'a b;c', secret]) {
      const record = await claudeCodeCall(bad, {}, false);
      // The header is dropped; the next source is Claude Code's body (metadata.user_id's session_id, "s-1" in the fixture).
      expect(record.session).toBe('s-1');
      expect(record.warnings).toContain('session_id_ignored');
    }
    const trail = await readFile(path.join(rig.gw.home, 'audit', 'audit.jsonl'), 'utf8');
    expect(trail).not.toContain(secret);
  });
});

describe('the CLI reads a session back', () => {
  it('gw audit show --session: the model and tool calls in trail order, with tokens, cost and outcome', async () => {
    const records = (await readAudit(rig.gw.home)).filter((line) => line.kind === 'request' && line.session === CLAUDE_SESSION);
    // The SDK's handshake (initialize, notifications/initialized) is on the trail too
    // (and its GET probing for a stream, answered 405): show leaves them out.
    const mcpMethods = records.map((line) => (line.route === '/mcp' ? `${String(line.status)} ${(line.data as { mcp?: { method?: string } } | undefined)?.mcp?.method ?? '(none)'}` : 'model'));
    expect(mcpMethods).toEqual(['model', '200 initialize', '202 notifications/initialized', '405 (none)', '200 tools/call', 'model']);
    const shown = await runGw(['audit', 'show', '--session', CLAUDE_SESSION, '--json'], { home: rig.gw.home });
    expect(shown.code, shown.stderr).toBe(0);
    const { calls } = JSON.parse(shown.stdout) as { calls: Array<Record<string, unknown>> };
    expect(calls.map((entry) => [entry.operation, entry.target])).toEqual([
      ['messages', 'anthropic/claude-sonnet-4-20250514'], ['mcp tools/call', 'notes/echo'], ['messages', 'anthropic/claude-sonnet-4-20250514'],
    ]);
    const model = records[0]!;
    expect(calls[0]!.request_id).toBe(model.request_id);
    expect(calls[2]!.request_id).toBe(records[5]!.request_id);
    const tokens = model.tokens as { input: number; output: number };
    const cost = (model.cost as { nano_usd: number }).nano_usd;
    expect(tokens.input).toBeGreaterThan(0);
    expect(cost).toBeGreaterThan(0);
    expect(calls[0]).toMatchObject({ input_tokens: tokens.input, output_tokens: tokens.output, cost_nano_usd: cost, outcome: ['ok'], agent: 'claude-code/2.1.197', status: 200 });
    expect(calls[1]).toMatchObject({ input_tokens: 0, cost_nano_usd: null, outcome: ['ok'] });

    const table = await runGw(['audit', 'show', '--session', CLAUDE_SESSION], { home: rig.gw.home });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^time\s+operation\s+model or tool/);
    expect(lines[2]).toContain('notes/echo');
    expect(lines.at(-1)).toMatch(/^total\s+3 calls\s+claude-code\/2\.1\.197/);

    const none = await runGw(['audit', 'show', '--session', 'no-such-session'], { home: rig.gw.home });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no calls of session no-such-session');
    const bad = await runGw(['audit', 'show', '--session', 'a b'], { home: rig.gw.home });
    expect(bad.code).toBe(2);
  }, 30_000);

  it('gw usage --by session: each session\'s calls, tokens and cost summed (JSON and CSV)', async () => {
    const records = (await readAudit(rig.gw.home)).filter((line) => line.kind === 'request' && line.session === CLAUDE_SESSION);
    const input = records.reduce((sum, line) => sum + ((line.tokens as { input?: number } | undefined)?.input ?? 0), 0);
    const cost = records.reduce((sum, line) => sum + ((line.cost as { nano_usd?: number } | undefined)?.nano_usd ?? 0), 0);
    const json = await runGw(['usage', '--by', 'session', '--json'], { home: rig.gw.home });
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { by: string; rows: Array<{ group: string; calls: number; input_tokens: number; cost_nano_usd: number }> };
    expect(report.by).toBe('session');
    expect(report.rows.find((row) => row.group === CLAUDE_SESSION)).toMatchObject({ calls: records.length, input_tokens: input, cost_nano_usd: cost });
    expect(input).toBeGreaterThan(0);
    expect(report.rows.find((row) => row.group === CODEX_SESSION)?.calls).toBe(1);
    expect(report.rows.find((row) => row.group === '(no session)')?.calls).toBeGreaterThan(0);
    const csv = await runGw(['usage', '--by', 'session', '--csv'], { home: rig.gw.home });
    expect(csv.stdout.split('\n')[0]).toMatch(/^session,calls,input,/);
    expect(csv.stdout).toContain(`${CLAUDE_SESSION},${records.length},${input},`);
  }, 30_000);

  it('the trail still verifies with the new fields', async () => {
    const verified = await runGw(['audit', 'verify'], { home: rig.gw.home });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  }, 30_000);
});
