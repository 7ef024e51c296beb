// MCP revisions through one real `gw serve`, each side negotiated on its own (issue 38): a
// 2026-07-28 agent (the official 2.x client) and an old-revision agent (the 1.x client, 2025-11-25;
// a 2025-06-18 initialize by hand) against a tool server that speaks only 2026-07-28 (the 2.x
// server, refusing the initialize handshake), and the 2026-07-28 agent against a 1.x stdio server.
// For both agents: DLP both ways (a secret in an argument refused at gw and never at the server; an
// email in a result redacted; a secret in a result withheld) and policy (a denied tool hidden and
// refused). On the 2026-07-28 wire: a refusal decided on the Mcp-Method/Mcp-Name headers before
// the body is read, and a request whose headers and body disagree refused (-32020), both recorded.
import path from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as OldClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OldTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { startModernMcpServer, type ModernMcpServer } from '../../support/mcp-servers/modern-server.js';
import { SAMPLES } from '../../dlp/samples.js';
import { readAudit, waitForState, waitUntil, type AuditLine } from '../helpers.js';

const SECRET = SAMPLES.githubPat;
const NOTES_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
const MODERN = '2026-07-28';
let gw: GatewayProcess;
let modern: ModernMcpServer;
const keys: Record<'ok' | 'denied', string> = { ok: '', denied: '' };

async function gwCli(...args: string[]): Promise<string> {
  const result = await runGwSetup(args, { home: gw.home });
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')}: ${result.stderr}`);
  return `${result.stdout}${result.stderr}`;
}

beforeAll(async () => {
  modern = await startModernMcpServer(SECRET);
  gw = await startGatewayProcess({});
  let deniedId = '';
  for (const name of ['ok', 'denied'] as const) {
    const made = await gwCli('keys', 'create', '--team', 'local', '--name', name);
    keys[name] = /sk-gw-\w+/.exec(made)![0];
    deniedId = /vk_\w+/.exec(made)![0];
  }
  await gwCli('mcp', 'add', 'modern', '--url', modern.url);
  await gwCli('mcp', 'add', 'notes', '--command', `${process.execPath} ${NOTES_SCRIPT} stdio local`);
  await gwCli('dlp', 'set', 'email', 'redact');
  await gwCli('policy', 'set', `key:${deniedId}`, '--deny-tools', 'modern__leak', '--deny-mcp-servers', 'elsewhere');
  await waitForState(gw);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await modern?.close();
});

/** An agent connected to gw's /mcp, and the revision it and gw agreed on. */
type Agent = { client: ModernClient | OldClient; revision: string | undefined };

async function modernAgent(key: string): Promise<Agent> {
  const client = new ModernClient({ name: 'modern-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new ModernTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return { client, revision: client.getNegotiatedProtocolVersion() };
}

async function oldAgent(key: string): Promise<Agent> {
  const client = new OldClient({ name: 'old-agent', version: '1.0.0' });
  const transport = new OldTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  return { client, revision: transport.protocolVersion };
}

const textOf = (result: { content?: unknown }) => JSON.stringify(result.content);

async function recordOf(requestId: string | null): Promise<AuditLine> {
  let line: AuditLine | undefined;
  await waitUntil(async () => {
    line = (await readAudit(gw.home).catch(() => [])).find((candidate) => candidate.request_id === requestId);
    return line !== undefined;
  }, { timeoutMs: 8_000, what: `the audit record of ${requestId}` });
  return line!;
}

/** The records of the calls to one tool, newest last. */
async function callsOf(tool: string): Promise<AuditLine[]> {
  return (await readAudit(gw.home)).filter((line) => (line.data as { mcp?: { tool?: string } } | undefined)?.mcp?.tool === tool);
}

describe.each([
  { agent: 'a 2026-07-28 agent (2.x client)', connect: modernAgent, revision: MODERN },
  { agent: 'a 2025-11-25 agent (1.x client)', connect: oldAgent, revision: '2025-11-25' },
])('$agent against a 2026-07-28-only tool server', ({ connect, revision }) => {
  it('speaks its own revision to gw while gw speaks 2026-07-28 to the server, and the call is recorded', async () => {
    const agent = await connect(keys.ok);
    const client = agent.client;
    expect(agent.revision).toBe(revision);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['modern__echo', 'modern__contact', 'modern__leak', 'notes__echo']));
    const before = modern.seen.length;
    expect(textOf(await client.callTool({ name: 'modern__echo', arguments: { text: `hi from ${revision}` } }))).toContain(`modern echo: hi from ${revision}`);
    const reached = modern.seen.slice(before).find((seen) => seen.method === 'tools/call');
    expect(reached).toMatchObject({ version: MODERN });
    expect(reached?.text).toContain(`"${MODERN}"`);
    await client.close();
    await waitUntil(async () => (await callsOf('echo')).some((line) => line.data?.mcp !== undefined), { what: 'the echo record' });
    expect((await callsOf('echo')).at(-1)).toMatchObject({ route: '/mcp', data: { mcp: { method: 'tools/call', server: 'modern', tool: 'echo', status: 'ok' } } });
  });

  it('DLP both ways: a secret argument never reaches the server, an email in a result is redacted, a secret result is withheld', async () => {
    const { client } = await connect(keys.ok);
    const before = modern.seen.length;
    await expect(client.callTool({ name: 'modern__echo', arguments: { text: `token ${SECRET}` } })).rejects.toThrow(/Blocked by DLP rule "github_token"/);
    expect(modern.seen.slice(before).map((seen) => seen.text).join('\n')).not.toContain(SECRET);
    expect(textOf(await client.callTool({ name: 'modern__contact', arguments: {} }))).toContain('ask [REDACTED:email] about it');
    const leaksBefore = (await callsOf('leak')).length;
    const leak = client.callTool({ name: 'modern__leak', arguments: {} });
    await expect(leak).rejects.toThrow(/Blocked by DLP rule "github_token"/);
    await expect(leak).rejects.not.toThrow(SECRET);
    await client.close();
    // The record is written when gw's answer closes, a moment after the client has read it.
    await waitUntil(async () => (await callsOf('leak')).length > leaksBefore, { what: 'the leak call\'s record' });
    expect((await callsOf('leak')).at(-1)).toMatchObject({ data: { mcp: { server: 'modern', tool: 'leak', status: 'blocked' } } });
  });

  it('policy: a denied tool is not listed and its call is refused, never reaching the server', async () => {
    const { client } = await connect(keys.denied);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('modern__leak');
    const before = modern.seen.length;
    const leaksBefore = (await callsOf('leak')).length;
    await expect(client.callTool({ name: 'modern__leak', arguments: {} })).rejects.toThrow(/deny_tools/);
    expect(modern.seen.slice(before).filter((seen) => seen.method === 'tools/call')).toEqual([]);
    await client.close();
    await waitUntil(async () => (await callsOf('leak')).length > leaksBefore, { what: 'the refused call\'s record' });
    expect((await callsOf('leak')).at(-1)).toMatchObject({ data: { mcp: { tool: 'leak', status: 'refused' } } });
  });
});

it('a 2026-07-28 agent reaches a 1.x server (stdio) through gw, which speaks the server\'s own revision', async () => {
  const { client, revision } = await modernAgent(keys.ok);
  expect(revision).toBe(MODERN);
  expect(textOf(await client.callTool({ name: 'notes__echo', arguments: { text: 'hi old server' } }))).toContain('local echo: hi old server');
  await client.close();
});

it('a 2025-06-18 initialize is answered in 2025-06-18', async () => {
  const response = await post(keys.ok, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'by-hand', version: '1' } } });
  expect(response.text).toContain('"protocolVersion":"2025-06-18"');
});

async function post(key: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string; requestId: string | null }> {
  const response = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), requestId: response.headers.get('x-request-id') };
}

const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'by-hand', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const modernHeaders = (method: string, name?: string) => ({ 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) });

describe('the 2026-07-28 headers', () => {
  it('policy decides on Mcp-Method/Mcp-Name before the body is read: a refused tool is refused even with a body that is not JSON', async () => {
    const before = modern.seen.length;
    const refused = await post(keys.denied, '{ not json', modernHeaders('tools/call', 'modern__leak'));
    expect(refused.status, refused.text).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { message: expect.stringMatching(/deny_tools/), data: { gw_code: 'GW_ERR_POLICY_DENIED' } } });
    expect(modern.seen.length).toBe(before);
    expect(await recordOf(refused.requestId)).toMatchObject({ outcome: expect.arrayContaining(['GW_ERR_POLICY_DENIED']), data: { mcp: { method: 'tools/call', server: 'modern', tool: 'leak', status: 'refused' } } });
    // The same body to an allowed tool is read, and refused as what it is.
    expect((await post(keys.ok, '{ not json', modernHeaders('tools/call', 'modern__echo'))).status).toBe(400);
  });

  it('headers and body that disagree are refused with -32020 and recorded, and reach no server', async () => {
    const before = modern.seen.length;
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'modern__leak', arguments: {}, _meta: envelope } };
    const lied = await post(keys.denied, call, modernHeaders('tools/call', 'modern__echo'));
    expect(lied.status, lied.text).toBe(400);
    expect(JSON.parse(lied.text)).toMatchObject({ id: 7, error: { code: -32020, data: { gw_code: 'GW_ERR_MCP_HEADER_MISMATCH' } } });
    expect(lied.text).not.toContain('modern__');
    expect(await recordOf(lied.requestId)).toMatchObject({ outcome: expect.arrayContaining(['GW_ERR_MCP_HEADER_MISMATCH']), data: { mcp: { method: 'tools/call', header_mismatch: 'Mcp-Name' } } });
    const wrongMethod = await post(keys.ok, { ...call, params: { ...call.params, name: 'modern__echo' } }, modernHeaders('tools/list'));
    expect(JSON.parse(wrongMethod.text)).toMatchObject({ error: { code: -32020 } });
    // A 2026-07-28 request must carry them: left out, it is refused too.
    const bare = await post(keys.ok, { ...call, params: { ...call.params, name: 'modern__echo', arguments: { text: 'x' } } });
    expect(JSON.parse(bare.text)).toMatchObject({ error: { code: -32020, data: { gw_code: 'GW_ERR_MCP_HEADER_MISMATCH' } } });
    expect(modern.seen.length).toBe(before);
  });

  it('a header name a DLP rule matches is not decided (nor echoed, nor recorded) on the header: the body\'s path blocks it', async () => {
    const name = `elsewhere__${SECRET}`;
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: {}, _meta: envelope } };
    const answer = await post(keys.denied, call, modernHeaders('tools/call', name));
    expect(JSON.parse(answer.text)).toMatchObject({ id: 9, error: { message: expect.stringMatching(/Blocked by DLP rule "github_token"/) } });
    expect(answer.text).not.toContain(SECRET);
    const record = await recordOf(answer.requestId);
    expect(record).toMatchObject({ outcome: expect.arrayContaining(['GW_ERR_DLP_BLOCKED']), data: { mcp: { method: 'tools/call', status: 'blocked' } } });
    expect(JSON.stringify(record)).not.toContain(SECRET);
  });

  it('a 2026-07-28 request whose headers agree is relayed', async () => {
    const call = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'modern__echo', arguments: { text: 'by hand' }, _meta: envelope } };
    const answer = await post(keys.ok, call, modernHeaders('tools/call', 'modern__echo'));
    expect(answer.text).toContain('modern echo: by hand');
  });
});
