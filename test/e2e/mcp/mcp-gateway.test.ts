// The MCP gateway (issue 17): the official SDK's client, through a real gw serve's /mcp, to
// two real MCP servers built with the SDK (one a stdio child gw starts, one streamable HTTP):
// namespaced listing, a call, a progress notification, a resource read, a prompt; a denied
// tool absent from tools/list and refused on tools/call; a secret in an argument blocked; an
// email in a result redacted; the calls in the audit trail (server, tool, person/team/key,
// DLP rule ids, never arguments or results) and the trail verifying; a killed stdio server
// restarted for the next call; the client's credential never forwarded upstream, and the
// server's own credential never in gw's output; a batch, a made-up tool and a refused caller
// answered in JSON-RPC; metrics labels bounded to the servers' own listings.
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { SAMPLES } from '../../dlp/samples.js';
import { GatewayJar, readAudit, sleep, waitForState } from '../helpers.js';
// @ts-expect-error: a plain ES module shared with the stdio child
import { createNotesServer } from '../../support/mcp-servers/notes-server.mjs';

const SERVER_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
const jar = new GatewayJar();
let gw: GatewayProcess;
let remote: { server: HttpServer; url: string; seenAuthorization: string[] };
let key: string;
let pidFile: string;
/** The pid of the notes child gw runs now (gw mcp test starts one of its own, which also writes the file). */
let servedPid = 0;

async function notesPid(): Promise<number> {
  return Number(await readFile(pidFile, 'utf8'));
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function notesHealth(): Promise<{ status: string; restarts: number } | undefined> {
  const health = await (await fetch(`${gw.url}/health`)).json() as { components: { mcp?: { servers: Record<string, { status: string; restarts: number }> } } };
  return health.components.mcp?.servers.notes;
}

async function startRemote(): Promise<typeof remote> {
  const seenAuthorization: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    seenAuthorization.push(String(request.headers.authorization ?? ''));
    const chunks: Buffer[] = [];
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

async function gwCli(args: string[]): Promise<string> {
  const result = await runGw(args, { home: gw.home });
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

async function connect(credential = key): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }));
  return client;
}

beforeAll(async () => {
  remote = await startRemote();
  gw = await jar.start({ args: ['--standalone'], env: { GW_LOG_LEVEL: 'debug', REMOTE_MCP_TOKEN: 'remote-server-token-123' } });
  key = gw.bootstrapKey!;
  pidFile = path.join(gw.home, 'notes.pid');
  await gwCli(['mcp', 'add', 'notes', '--command', `${process.execPath} ${SERVER_SCRIPT} stdio local`, '--env', `NOTES_PID_FILE=${pidFile}`]);
  await gwCli(['mcp', 'add', 'remote', '--url', remote.url, '--header-env', 'Authorization=REMOTE_MCP_TOKEN']);
  await gwCli(['dlp', 'set', 'email', 'redact']);
  await sleep(1000);
}, 60_000);

afterAll(async () => {
  await jar.stopAll();
  remote?.server.close();
});

describe('through the SDK client', () => {
  it('lists both servers\' tools, namespaced', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['notes__echo', 'notes__slow', 'remote__echo', 'remote__contact']));
    await client.close();
  });

  it('calls a tool on each server, and the upstream gets gw\'s header, never the client\'s key', async () => {
    const client = await connect();
    const local = await client.callTool({ name: 'notes__echo', arguments: { text: 'hi local' } });
    expect(local.content).toEqual([{ type: 'text', text: 'local echo: hi local' }]);
    const far = await client.callTool({ name: 'remote__echo', arguments: { text: 'hi remote' } });
    expect(far.content).toEqual([{ type: 'text', text: 'remote echo: hi remote' }]);
    expect(remote.seenAuthorization).toContain('remote-server-token-123');
    expect(remote.seenAuthorization.join('\n')).not.toContain(key);
    await client.close();
  });

  it('passes progress notifications through to the agent, their text through DLP', async () => {
    const client = await connect();
    const progress: number[] = [];
    const messages: string[] = [];
    const result = await client.callTool({ name: 'notes__slow', arguments: { steps: 3 } }, undefined, {
      onprogress: (update) => { progress.push(update.progress); messages.push(update.message ?? ''); },
    });
    expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
    expect(progress).toEqual([1, 2, 3]);
    // A progress message is the server's text too: DLP redacts the email in it (the test sets email to redact).
    expect(messages).toEqual([1, 2, 3].map((step) => `step ${step}, ask [REDACTED:email]`));
    await client.close();
  });

  it('reads a resource and gets a prompt, namespaced', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    const readme = resources.find((resource) => resource.uri.startsWith('gw-mcp://remote/'))!;
    const read = await client.readResource({ uri: readme.uri });
    expect(read.contents[0]).toMatchObject({ text: 'remote readme text' });
    const prompt = await client.getPrompt({ name: 'notes__review', arguments: { topic: 'the diff' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Review the diff' });
    await client.close();
  });
});

describe('governance', () => {
  it('a denied tool is absent from tools/list and refused on tools/call', async () => {
    await gwCli(['policy', 'set', 'team:local', '--deny-tools', 'remote__contact']);
    await waitForState(gw);
    const client = await connect();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('remote__contact');
    expect(names).toContain('remote__echo');
    await expect(client.callTool({ name: 'remote__contact', arguments: {} })).rejects.toThrow(/Refused by policy team:local: tool "remote__contact" matches deny_tools/);
    await client.close();
    await gwCli(['policy', 'remove', 'team:local']);
    await waitForState(gw);
  });

  it('a secret in a tool argument is blocked before it reaches the server, naming the rule', async () => {
    const client = await connect();
    const before = remote.seenAuthorization.length;
    await expect(client.callTool({ name: 'remote__echo', arguments: { text: `token ${SAMPLES.githubPat}` } })).rejects.toThrow(/Blocked by DLP rule "github_token"/);
    // The list call of a new session reaches it; the blocked call does not add a tools/call.
    expect(remote.seenAuthorization.length - before).toBeLessThanOrEqual(2);
    await client.close();
  });

  it('an email in a tool result is redacted before it reaches the agent', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'remote__contact', arguments: {} });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(text).not.toContain('ada.lovelace@example.com');
    expect(text).toContain('ask ');
    await client.close();
  });

  it('every tool call is in the audit trail with server, tool and DLP rule ids, never its arguments or results; the trail verifies', async () => {
    await sleep(1200);
    const records = (await readAudit(gw.home)).filter((record) => record.route === '/mcp');
    const calls = records.filter((record) => (record.data?.mcp as { method?: string } | undefined)?.method === 'tools/call');
    expect(calls.length).toBeGreaterThanOrEqual(5);
    for (const record of calls) expect(record).toMatchObject({ team: 'local', key_id: expect.stringMatching(/^vk_/) });
    expect(calls.map((record) => record.data?.mcp)).toEqual(expect.arrayContaining([
      { method: 'tools/call', server: 'notes', tool: 'echo', status: 'ok', duration_ms: expect.any(Number) },
      { method: 'tools/call', server: 'remote', tool: 'contact', status: 'refused', duration_ms: expect.any(Number) },
      // Blocked at the door: the record says where in the message, never what.
      { method: 'tools/call', server: 'remote', tool: 'echo', status: 'blocked', duration_ms: expect.any(Number), dlp_place: 'request.params.arguments.text' },
    ]));
    // Bytes each way: the call's JSON-RPC message in, the transport's answer (SSE) out.
    const echo = calls.find((record) => (record.data?.mcp as { tool?: string }).tool === 'echo' && (record.data?.mcp as { status?: string }).status === 'ok')!;
    expect(echo.bytes_in).toBeGreaterThan(20);
    expect(echo.bytes_out).toBeGreaterThan(20);
    expect(calls.some((record) => record.dlp?.github_token === 1 && record.outcome?.includes('GW_ERR_DLP_BLOCKED'))).toBe(true);
    expect(calls.some((record) => record.dlp?.email === 1)).toBe(true);
    const trail = JSON.stringify(records);
    expect(trail).not.toContain('hi local');
    expect(trail).not.toContain('ada.lovelace');
    expect(trail).not.toContain(SAMPLES.githubPat);
    const verified = await runGw(['audit', 'verify'], { home: gw.home });
    expect(verified.code, verified.stdout).toBe(0);
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toMatch(/gw_mcp_calls_total\{server="notes",tool="echo",outcome="ok"\} \d+/);
    expect(metrics).toMatch(/gw_mcp_call_duration_seconds_count\{server="notes",tool="echo"\} \d+/);
  });

  it('a made-up tool or server is an MCP error, never sent upstream, and mints no metrics label', async () => {
    const client = await connect();
    await expect(client.callTool({ name: 'remote__no-such-tool-4711', arguments: {} })).rejects.toThrow(/MCP server "remote" has no tool "no-such-tool-4711"/);
    await expect(client.callTool({ name: 'nowhere-4711__echo', arguments: {} })).rejects.toThrow(/no MCP server "nowhere-4711"/);
    await client.close();
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).not.toContain('4711');
    expect(metrics).toMatch(/gw_mcp_calls_total\{server="remote",tool="\(unlisted\)",outcome="not_found"\} 1/);
    expect(metrics).toMatch(/gw_mcp_calls_total\{server="\(unknown\)",tool="\(unlisted\)",outcome="not_found"\} 1/);
  });

  it('a secret in a prompt argument is blocked before it reaches the server', async () => {
    const client = await connect();
    await expect(client.getPrompt({ name: 'notes__review', arguments: { topic: SAMPLES.githubPat } })).rejects.toThrow(/Blocked by DLP rule "github_token"/);
    await client.close();
  });

  it('a denied MCP server is gone from every list and refused for its tools, prompts and resources', async () => {
    await gwCli(['policy', 'set', 'team:local', '--deny-mcp-servers', 'rem*']);
    await waitForState(gw);
    const client = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name).filter((name) => name.startsWith('remote__'))).toEqual([]);
    expect((await client.listResources()).resources.filter((resource) => resource.uri.startsWith('gw-mcp://remote/'))).toEqual([]);
    await expect(client.callTool({ name: 'remote__echo', arguments: { text: 'x' } })).rejects.toThrow(/MCP server "remote" matches deny_mcp_servers/);
    await expect(client.getPrompt({ name: 'remote__review', arguments: { topic: 'x' } })).rejects.toThrow(/Refused by policy/);
    expect((await client.callTool({ name: 'notes__echo', arguments: { text: 'still here' } })).content).toEqual([{ type: 'text', text: 'local echo: still here' }]);
    await client.close();
    await gwCli(['policy', 'remove', 'team:local']);
    await waitForState(gw);
  });

  it('a caller refused before any MCP message (operation denied) gets a JSON-RPC error with the status and code', async () => {
    const made = await runGw(['keys', 'create', '--team', 'local', '--name', 'no-mcp'], { home: gw.home });
    const created = `${made.stdout}${made.stderr}`;
    const denied = /sk-gw-\w+/.exec(created)![0];
    await gwCli(['policy', 'set', `key:${/vk_\w+/.exec(created)![0]}`, '--deny-operations', 'mcp']);
    await waitForState(gw);
    const response = await fetch(`${gw.url}/mcp`, {
      method: 'POST', headers: { authorization: `Bearer ${denied}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('deny_operations'), data: { gw_code: 'GW_ERR_POLICY_DENIED' } } });
  });

  it('a JSON-RPC batch is refused (one message a request, so each tool call is its own record)', async () => {
    const response = await fetch(`${gw.url}/mcp`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify([1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'notes__echo', arguments: { text: 'batched' } } }))),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, data: { gw_code: 'GW_ERR_MCP_BATCH' } } });
  });

  it("the upstream server's credential never shows in gw's output", () => {
    expect(`${gw.stdout()}${gw.stderr()}`).not.toContain('remote-server-token-123');
  });

  it('GET and DELETE are 405 at once (stateless: no standing stream is held open)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${gw.url}/mcp`, { method, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' }, signal: AbortSignal.timeout(5_000) });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { gw_code: 'GW_ERR_ROUTE_METHOD_NOT_ALLOWED' } } });
    }
  });

  it('/mcp needs a credential like any call', async () => {
    const response = await fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(response.status).toBe(401);
  });
});

it('a stdio server killed mid-session is started again by gw (no call needed), /health says it restarted, and the next call succeeds', async () => {
  const client = await connect();
  const before = await notesPid();
  await client.callTool({ name: 'notes__crash', arguments: {} });
  let health = await notesHealth();
  for (let waited = 0; waited < 10_000 && !(health?.status === 'up' && health.restarts === 1); waited += 100) {
    await sleep(100);
    health = await notesHealth();
  }
  expect(health).toMatchObject({ status: 'up', restarts: 1 });
  expect(running(before)).toBe(false);
  servedPid = await notesPid();
  expect(servedPid).not.toBe(before);
  const result = await client.callTool({ name: 'notes__echo', arguments: { text: 'after crash' } });
  expect(result.content).toEqual([{ type: 'text', text: 'local echo: after crash' }]);
  await client.close();
}, 30_000);

it('gw mcp list shows env references and hides literal values; gw mcp test connects and lists tools', async () => {
  const listed = await gwCli(['mcp', 'list', '--json']);
  expect(listed).toContain('env:REMOTE_MCP_TOKEN');
  expect(listed).not.toContain('remote-server-token-123');
  const tested = await runGw(['mcp', 'test', 'notes'], { home: gw.home });
  expect(tested.code, tested.stderr).toBe(0);
  expect(tested.stdout).toMatch(/notes: connected in \d+ ms; 4 tools listed in \d+ ms: notes__echo/);
});

it('a server that cannot be reached is down in /health (no password from its URL), left out of tools/list, and its tool is unavailable', async () => {
  await gwCli(['mcp', 'add', 'broken', '--url', 'http://someone:hunter2-4711@127.0.0.1:1/mcp']);
  expect(await gwCli(['mcp', 'list'])).toContain('http://someone:***@127.0.0.1:1/mcp');
  await sleep(800);
  const client = await connect();
  expect((await client.listTools()).tools.some((tool) => tool.name.startsWith('broken__'))).toBe(false);
  await expect(client.callTool({ name: 'broken__echo', arguments: { text: 'x' } })).rejects.toThrow(/MCP server "broken" is not reachable now/);
  await client.close();
  const health = await (await fetch(`${gw.url}/health`)).json() as { components: { mcp: { status: string; servers: Record<string, { status: string }> } } };
  expect(health.components.mcp.status).toBe('degraded');
  expect(health.components.mcp.servers.broken).toMatchObject({ status: 'down', last_error: expect.any(String) });
  expect(JSON.stringify(health)).not.toContain('hunter2');
  await gwCli(['mcp', 'remove', 'broken']);
});

it('gw mcp remove ends a local server\'s child and takes its tools off /mcp', async () => {
  const pid = servedPid;
  expect(running(pid)).toBe(true);
  await gwCli(['mcp', 'remove', 'notes']);
  await sleep(800);
  expect(await notesHealth()).toBeUndefined();
  for (let waited = 0; waited < 5_000 && running(pid); waited += 100) await sleep(100);
  expect(running(pid)).toBe(false);
  const client = await connect();
  expect((await client.listTools()).tools.map((tool) => tool.name).filter((name) => name.startsWith('notes__'))).toEqual([]);
  await client.close();
});
