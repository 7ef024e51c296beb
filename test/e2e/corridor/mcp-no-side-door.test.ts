// No side door on /mcp: every MCP method, both ways, against a real `gw serve` and two real
// MCP servers built with the official SDK (catch-all-mcp-server.ts): `clean`, and `planted`,
// whose every answer carries a secret where an agent reads it (a tool's description, a
// result's _meta, a resource's name, a template's title, a prompt's description, completion
// values, a progress message).
//
// The rows come from src/mcp/mcp-methods.ts, the list gw registers its relays from, and that
// list must place every method the SDKs carry, either way (1.x: up to 2025-11-25; 2.x: 2026-07-28):
// a method an SDK adds, or one gw starts relaying, without its row here fails the first tests.
// Each agent row runs in each wire revision: 2026-07-28 (the per-request _meta envelope and the
// Mcp-Method/Mcp-Name headers) and the 2025 one (2025-11-25 and 2025-06-18 share it: no envelope;
// the SDK serves them through one stateless path). For each method:
//   agent → server: a planted secret (as a value, and as an object key) is refused at the door,
//     naming the rule, and never reaches a server; a clean message is relayed, or answered by gw,
//     or refused, or dropped, as the list says, and only a relayed one reaches a server;
//   server → agent: a planted answer never reaches the agent (an MCP error naming the rule; a
//     listing goes without its planted items, each recorded by rule and place); a
//     message a server sends gw that gw does not relay never reaches the agent;
//   policy: a denied operation refuses every method at the door; the capability lists (tools,
//     resources, prompts) and the server lists (the default) refuse or hide every relayed one;
//   recorded: each message's audit record names its method, a block its rule and place, and
//     nothing gw wrote (audit, log) holds the secret.
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { ClientNotificationSchema, ClientRequestSchema, ServerNotificationSchema, ServerRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_METHODS, SERVER_METHODS } from '../../../src/mcp/mcp-methods.js';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { SAMPLES } from '../../dlp/samples.js';
import { readAudit, sleep, waitForState, type AuditLine } from '../helpers.js';
import { LISTED_URI, startCatchAllMcpServer, type CatchAllMcpServer } from './catch-all-mcp-server.js';

const SECRET = SAMPLES.githubPat;
type AgentMethod = keyof typeof AGENT_METHODS;
type ServerMethod = keyof typeof SERVER_METHODS;

const resource = (server: string, uri: string) => `gw-mcp://${server}/${encodeURIComponent(uri)}`;
const meta = (text: string) => ({ _meta: { note: text } });

interface AgentRow {
  /** A well-formed message of the method, `text` where the method carries the agent's text (else in _meta). */
  params(text: string): Record<string, unknown>;
  /** For a relayed method: what a caller whose policy denies the clean server's capabilities (or the server) gets. */
  denied?: 'hidden' | 'refused';
}

/** One row per method an agent can send (the SDK's client requests and notifications). */
const AGENT_ROWS: Record<AgentMethod, AgentRow> = {
  initialize: { params: (text) => ({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: text, version: '1.0.0' } }) },
  'server/discover': { params: meta },
  ping: { params: meta },
  'tools/list': { params: meta, denied: 'hidden' },
  'tools/call': { params: (text) => ({ name: 'clean__echo', arguments: { text } }), denied: 'refused' },
  'resources/list': { params: meta, denied: 'hidden' },
  'resources/templates/list': { params: meta, denied: 'hidden' },
  'resources/read': { params: (text) => ({ uri: resource('clean', LISTED_URI), ...meta(text) }), denied: 'refused' },
  'prompts/list': { params: meta, denied: 'hidden' },
  'prompts/get': { params: (text) => ({ name: 'clean__review', arguments: { topic: text } }), denied: 'refused' },
  'completion/complete': { params: (text) => ({ ref: { type: 'ref/prompt', name: 'clean__review' }, argument: { name: 'topic', value: text } }), denied: 'refused' },
  'resources/subscribe': { params: (text) => ({ uri: resource('clean', LISTED_URI), ...meta(text) }) },
  'resources/unsubscribe': { params: (text) => ({ uri: resource('clean', LISTED_URI), ...meta(text) }) },
  'subscriptions/listen': { params: (text) => ({ filter: { toolsListChanged: true }, ...meta(text) }) },
  'logging/setLevel': { params: (text) => ({ level: 'info', ...meta(text) }) },
  'tasks/get': { params: (text) => ({ taskId: text }) },
  'tasks/result': { params: (text) => ({ taskId: text }) },
  'tasks/list': { params: meta },
  'tasks/cancel': { params: (text) => ({ taskId: text }) },
  'notifications/initialized': { params: meta },
  'notifications/cancelled': { params: (text) => ({ requestId: 1, reason: text }) },
  'notifications/progress': { params: (text) => ({ progressToken: 1, progress: 1, message: text }) },
  'notifications/roots/list_changed': { params: meta },
  'notifications/tasks/status': { params: (text) => ({ taskId: text, status: 'working', ttl: null, createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:00Z' }) },
};

/** For a relayed request: where the planted server's answer carries the secret (the check names the place gw found). */
const PLANTED_PLACES: Partial<Record<AgentMethod, RegExp>> = {
  'tools/list': /^result\.tools\[\d+\]/,
  'tools/call': /^result\._meta/,
  'resources/list': /^result\.resources\[\d+\]/,
  'resources/templates/list': /^result\.resourceTemplates\[\d+\]/,
  'resources/read': /^result\._meta/,
  'prompts/list': /^result\.prompts\[\d+\]/,
  'prompts/get': /^result\.description/,
  'completion/complete': /^result\.completion/,
};

/**
 * One row per message a server can send gw's client of it: how the planted server makes it
 * happen (a tool call) and so what the agent's call carries back. The `chatter` tool tries every
 * one gw does not relay; `slow` reports progress.
 */
const SERVER_ROWS: Record<ServerMethod, { tool: 'slow' | 'chatter' }> = {
  'notifications/progress': { tool: 'slow' },
  ping: { tool: 'chatter' },
  'sampling/createMessage': { tool: 'chatter' },
  'elicitation/create': { tool: 'chatter' },
  'roots/list': { tool: 'chatter' },
  'tasks/get': { tool: 'chatter' },
  'tasks/result': { tool: 'chatter' },
  'tasks/list': { tool: 'chatter' },
  'tasks/cancel': { tool: 'chatter' },
  'notifications/message': { tool: 'chatter' },
  'notifications/cancelled': { tool: 'chatter' },
  'notifications/resources/updated': { tool: 'chatter' },
  'notifications/resources/list_changed': { tool: 'chatter' },
  'notifications/tools/list_changed': { tool: 'chatter' },
  'notifications/prompts/list_changed': { tool: 'chatter' },
  'notifications/tasks/status': { tool: 'chatter' },
  'notifications/elicitation/complete': { tool: 'chatter' },
  'notifications/subscriptions/acknowledged': { tool: 'chatter' },
};

const MODERN = '2026-07-28';
const REVISIONS = [MODERN, '2025'] as const;
type Revision = typeof REVISIONS[number];
/** Methods the revision does not have (the other's handshake; 2026-07-28, stateless, has no ping): the SDK answers "method not found" and nothing leaves gw. */
const NOT_IN_REVISION: Record<Revision, readonly AgentMethod[]> = { [MODERN]: ['initialize', 'ping'], 2025: ['server/discover'] };
const handlingIn = (method: AgentMethod, revision: Revision) => (NOT_IN_REVISION[revision].includes(method) ? 'refused' : AGENT_METHODS[method]);

const AGENT = Object.keys(AGENT_METHODS) as AgentMethod[];
/** Listings are scanned item by item (issue 36): a planted item is left out, the answer goes. */
const LISTINGS = new Set<string>(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']);
const RELAYED = AGENT.filter((method) => AGENT_METHODS[method] === 'relayed');
const isNotification = (method: string) => method.startsWith('notifications/');

/** The method names a union schema of the SDKs carries. */
function sdkMethods(schema: unknown): string[] {
  const options = (schema as { options: Array<{ shape: { method: { value: string } } }> }).options;
  return options.map((option) => option.shape.method.value);
}

let gw: GatewayProcess;
let clean: CatchAllMcpServer;
let planted: CatchAllMcpServer;
type KeyName = 'ok' | 'planted' | 'denyCapability' | 'denyServer' | 'denyOperation' | 'allowPattern' | 'redact';
const keys = {} as Record<KeyName, { key: string; id: string }>;
/** The `gw policy set` runs with the flags for resources and prompts, and what they printed (the first test reads them). */
const policyRuns: Array<{ code: number; output: string }> = [];

async function gw_(...args: string[]): Promise<{ code: number; output: string }> {
  const result = await runGw(args, { home: gw.home });
  return { code: result.code, output: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  clean = await startCatchAllMcpServer(SECRET);
  planted = await startCatchAllMcpServer(SECRET, { planted: true });
  gw = await startGatewayProcess({ env: { GW_LOG_LEVEL: 'debug' } });
  for (const name of ['ok', 'planted', 'denyCapability', 'denyServer', 'denyOperation', 'allowPattern', 'redact'] as const) {
    const made = await gw_('keys', 'create', '--team', 'local', '--name', name);
    keys[name] = { key: /sk-gw-\w+/.exec(made.output)![0], id: /vk_\w+/.exec(made.output)![0] };
  }
  for (const [name, server] of [['clean', clean], ['planted', planted]] as const) expect((await gw_('mcp', 'add', name, '--url', server.url)).code).toBe(0);
  const policy = (name: KeyName, ...flags: string[]) => gw_('policy', 'set', `key:${keys[name].id}`, ...flags);
  for (const name of ['ok', 'allowPattern', 'redact'] as const) expect((await policy(name, '--deny-mcp-servers', 'planted')).code).toBe(0);
  expect((await gw_('dlp', 'set', 'email', 'redact', '--scope', `key:${keys.redact.id}`)).code).toBe(0);
  expect((await policy('planted', '--allow-mcp-servers', 'planted')).code).toBe(0);
  expect((await policy('denyServer', '--deny-mcp-servers', '*')).code).toBe(0);
  expect((await policy('denyOperation', '--deny-operations', 'mcp')).code).toBe(0);
  // The server stays allowed; every capability of it is denied, each by its own list.
  expect((await policy('denyCapability', '--deny-mcp-servers', 'planted', '--deny-tools', 'clean__*')).code).toBe(0);
  policyRuns.push(await policy('denyCapability', '--deny-resources', 'clean__*', '--deny-prompts', 'clean__*'));
  policyRuns.push(await policy('allowPattern', '--allow-resources', 'clean__file:///notes/*'));
  await waitForState(gw);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await clean?.close();
  await planted?.close();
});

interface Answer {
  status: number;
  text: string;
  requestId: string | null;
  /** Every JSON-RPC message of the answer (one JSON body, or each SSE event). */
  messages: Array<{ id?: unknown; method?: string; result?: Record<string, unknown>; error?: { code: number; message: string }; params?: unknown }>;
}

let nextId = 1;

/** The body field a 2026-07-28 request's Mcp-Name header mirrors. */
const NAME_FIELDS: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/cancel': 'taskId' };

/** A 2026-07-28 message: the per-request envelope in _meta, and the standard headers naming it. */
function inRevision(revision: Revision, method: string, params: Record<string, unknown>): { params: Record<string, unknown>; headers: Record<string, string> } {
  if (revision !== MODERN) return { params, headers: { 'mcp-protocol-version': '2025-11-25' } };
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'matrix', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const name = Object.hasOwn(NAME_FIELDS, method) ? params[NAME_FIELDS[method]!] : undefined;
  const ownMeta = typeof params._meta === 'object' && params._meta !== null ? params._meta : {};
  return {
    params: { ...params, _meta: { ...ownMeta, ...envelope } },
    headers: { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': name } : {}) },
  };
}

/** One JSON-RPC message to gw's /mcp as an MCP client of `revision` sends it (a notification has no id). */
async function sendIn(key: KeyName, method: string, plain: Record<string, unknown>, revision: Revision = '2025'): Promise<Answer> {
  const { params, headers } = inRevision(revision, method, plain);
  const message = { jsonrpc: '2.0', ...(isNotification(method) ? {} : { id: nextId++ }), method, params };
  const response = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys[key].key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  const bodies = response.headers.get('content-type')?.includes('text/event-stream')
    ? text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6))
    : text ? [text] : [];
  const messages = bodies.flatMap((body) => { try { return [JSON.parse(body)]; } catch { return []; } });
  return { status: response.status, text, requestId: response.headers.get('x-request-id'), messages };
}

const send = (key: KeyName, method: string, params: Record<string, unknown>) => sendIn(key, method, params);
const answerOf = (answer: Answer) => answer.messages.find((message) => message.result !== undefined || message.error !== undefined);

async function recordOf(answer: Answer): Promise<AuditLine> {
  expect(answer.requestId).not.toBeNull();
  const deadline = Date.now() + 8_000;
  for (;;) {
    const line = (await readAudit(gw.home).catch(() => [] as AuditLine[])).find((candidate) => candidate.request_id === answer.requestId);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no audit record for ${answer.requestId}`);
    await sleep(50);
  }
}

/** A planted message is refused at the door: a request with an MCP error naming the rule, a notification with the refusal's status. */
function expectBlocked(method: string, answer: Answer): void {
  if (isNotification(method)) expect(answer.status, answer.text).toBe(403);
  else expect(answerOf(answer)?.error?.message, answer.text).toMatch(/Blocked by DLP rule "github_token"/);
  expect(answer.text).toContain('github_token');
  expect(answer.text).not.toContain(SECRET);
}

describe('the rows are what src/mcp relays and what the SDK carries', () => {
  it('every method the SDKs carry (1.x and 2.x, every revision), either way, is placed by src/mcp/mcp-methods.ts, and has its row here', () => {
    const carried = (...schemas: unknown[]) => [...new Set(schemas.flatMap(sdkMethods))].sort();
    expect(Object.keys(AGENT_METHODS).sort()).toEqual(carried(ClientRequestSchema, ClientNotificationSchema, specTypeSchemas.ClientRequest, specTypeSchemas.ClientNotification));
    expect(Object.keys(SERVER_METHODS).sort()).toEqual(carried(ServerRequestSchema, ServerNotificationSchema, specTypeSchemas.ServerRequest, specTypeSchemas.ServerNotification));
    expect(Object.keys(AGENT_ROWS).sort()).toEqual(Object.keys(AGENT_METHODS).sort());
    expect(Object.keys(SERVER_ROWS).sort()).toEqual(Object.keys(SERVER_METHODS).sort());
    for (const method of RELAYED) {
      expect(AGENT_ROWS[method].denied, method).toBeDefined();
      expect(PLANTED_PLACES[method], method).toBeDefined();
    }
  });

  it('gw policy set takes resource and prompt lists, and gw policy test says which refuses an MCP capability', async () => {
    for (const run of policyRuns) expect(run, run.output).toMatchObject({ code: 0 });
    expect(policyRuns.map((run) => run.output).join('\n')).toMatch(/deny_resources=clean__\*.*deny_prompts=clean__\*[\s\S]*allow_resources=clean__file:\/\/\/notes\/\*/);
    const asked = (...flags: string[]) => gw_('policy', 'test', '--team', 'local', '--key', keys.denyCapability.id, '--mcp-server', 'clean', ...flags);
    expect((await asked('--resource', LISTED_URI)).output).toContain(`refused: policy key:${keys.denyCapability.id}: resource "clean__${LISTED_URI}" matches deny_resources`);
    expect((await asked('--prompt', 'review')).output).toContain('prompt "clean__review" matches deny_prompts');
    expect((await asked()).output).toMatch(/allowed/);
  });
});

describe.each(AGENT.flatMap((method) => REVISIONS.map((revision) => [method, revision] as const)))('%s (%s)', (method, revision) => {
  const row = AGENT_ROWS[method];
  const handling = handlingIn(method, revision);
  const send = (key: KeyName, sent: string, params: Record<string, unknown>) => sendIn(key, sent, params, revision);

  it(`agent → server: a clean message is ${handling}, and only a relayed one reaches a server`, async () => {
    const before = clean.methods().length;
    const answer = await send('ok', method, row.params('hello'));
    const reached = clean.methods().slice(before);
    if (handling === 'relayed') {
      expect(answerOf(answer)?.result, answer.text).toBeDefined();
      expect(reached, answer.text).toContain(method);
    } else {
      expect(reached).not.toContain(method);
      if (handling === 'answered') expect(answerOf(answer)?.result, answer.text).toBeDefined();
      if (handling === 'refused') expect(answerOf(answer)?.error?.code, answer.text).toBe(-32601);
      if (handling === 'dropped') expect(answer.status, answer.text).toBe(202);
    }
    expect((await recordOf(answer)).data).toMatchObject({ mcp: { method } });
  });

  it('agent → server: a planted secret (a value) is refused at the door naming the rule, reaches no server, and is recorded without the value', async () => {
    const before = clean.everything().length;
    const answer = await send('ok', method, row.params(`my token is ${SECRET} ok`));
    expectBlocked(method, answer);
    expect(clean.everything().slice(before)).not.toContain(SECRET);
    const record = await recordOf(answer);
    expect(record).toMatchObject({ dlp: { github_token: 1 }, outcome: expect.arrayContaining(['GW_ERR_DLP_BLOCKED']), data: { mcp: { method, status: 'blocked', dlp_place: expect.stringMatching(/^request\.params/) } } });
    expect(JSON.stringify(record)).not.toContain(SECRET);
  });

  it('agent → server: a planted secret used as an object key is refused at the door and reaches no server', async () => {
    const params = row.params('hello');
    const keyed = method === 'tools/call' ? { ...params, arguments: { [SECRET]: 'x' } } : { ...params, _meta: { [SECRET]: 1 } };
    const before = clean.everything().length;
    const answer = await send('ok', method, keyed);
    expectBlocked(method, answer);
    expect(clean.everything().slice(before)).not.toContain(SECRET);
    const record = await recordOf(answer);
    expect(record).toMatchObject({ data: { mcp: { method, status: 'blocked' } } });
    expect(JSON.stringify(record)).not.toContain(SECRET);
  });

  it('policy: a caller whose policy denies the operation is refused at the door, before any server', async () => {
    const before = clean.requestCount();
    const answer = await send('denyOperation', method, row.params('hello'));
    expect(answer.status, answer.text).toBe(403);
    expect(answer.text).toContain('deny_operations');
    expect(clean.requestCount()).toBe(before);
  });

  if (handling !== 'relayed') return;

  if (LISTINGS.has(method)) {
    it('server → agent: a listing\'s planted items never reach the agent; the answer goes without them, the record names rule and place', async () => {
      const answer = await send('planted', method, row.params('hello'));
      expect(answer.text).not.toContain(SECRET);
      expect(answerOf(answer)?.result, answer.text).toBeDefined();
      const record = await recordOf(answer);
      expect(record, JSON.stringify(record)).toMatchObject({ dlp: { github_token: expect.any(Number) }, data: { mcp: { method, status: 'ok' } } });
      const withheld = (record.data as { mcp: { dlp_withheld: Array<{ rule: string; place: string }> } }).mcp.dlp_withheld;
      expect(withheld.length).toBeGreaterThan(0);
      for (const item of withheld) expect(item).toMatchObject({ rule: 'github_token', place: expect.stringMatching(PLANTED_PLACES[method]!) });
      expect(JSON.stringify(record)).not.toContain(SECRET);
    });
  }

  if (!LISTINGS.has(method)) it('server → agent: a planted answer never reaches the agent; the error names the rule and the record the place', async () => {
    const params = JSON.parse(JSON.stringify(row.params('hello')).replaceAll('clean', 'planted')) as Record<string, unknown>;
    const answer = await send('planted', method, params);
    expect(answer.text).not.toContain(SECRET);
    expect(answerOf(answer)?.error?.message, answer.text).toMatch(/Blocked by DLP rule "github_token"/);
    const record = await recordOf(answer);
    expect(record, JSON.stringify(record)).toMatchObject({ dlp: { github_token: expect.any(Number) }, outcome: expect.arrayContaining(['GW_ERR_DLP_BLOCKED']), data: { mcp: { method, status: 'blocked' } } });
    expect((record.data as { mcp: { dlp_place: string } }).mcp.dlp_place).toMatch(PLANTED_PLACES[method]!);
    expect(JSON.stringify(record)).not.toContain(SECRET);
  });

  for (const key of ['denyCapability', 'denyServer'] as const) {
    it(`policy: ${key === 'denyCapability' ? 'the capability lists (tools, resources, prompts)' : 'the server lists, the default for every capability,'} ${row.denied === 'hidden' ? 'hide' : 'refuse'} it`, async () => {
      const before = clean.methods().length;
      const answer = await send(key, method, row.params('hello'));
      const reply = answerOf(answer);
      if (row.denied === 'hidden') {
        const items = Object.values(reply?.result ?? {}).find(Array.isArray) as unknown[] | undefined;
        expect(items, answer.text).toEqual([]);
      } else {
        expect(reply?.error?.message, answer.text).toMatch(key === 'denyServer' ? /deny_mcp_servers/ : /deny_(tools|resources|prompts)/);
        expect(clean.methods().slice(before)).not.toContain(method);
        expect((await recordOf(answer)).data).toMatchObject({ mcp: { method, status: 'refused' } });
      }
    });
  }
});

describe.each(Object.keys(SERVER_METHODS) as ServerMethod[])('server → agent: %s', (method) => {
  const handling = SERVER_METHODS[method];
  const tool = SERVER_ROWS[method].tool;

  it(handling === 'relayed' ? 'is relayed from a clean server, and withheld from a planted one' : `is ${handling} by gw and never reaches the agent`, async () => {
    const call = (key: KeyName, server: string) => send(key, 'tools/call', { name: `${server}__${tool}`, arguments: {}, _meta: { progressToken: 7 } });
    const answer = await call('planted', 'planted');
    expect(answer.text).not.toContain(SECRET);
    expect(answerOf(answer)?.result, answer.text).toBeDefined();
    const sent = answer.messages.filter((message) => message.method !== undefined).map((message) => message.method);
    expect(sent, answer.text).not.toContain(method);
    if (handling === 'relayed') {
      expect((await recordOf(answer)).warnings ?? [], JSON.stringify(await recordOf(answer))).toEqual(expect.arrayContaining([expect.stringMatching(/^dlp_withheld_progress: github_token/)]));
      const relayed = await call('ok', 'clean');
      expect(relayed.messages.filter((message) => message.method === method), relayed.text).toHaveLength(1);
      // And to an agent on 2026-07-28, on its call's own response stream as well.
      const modern = await sendIn('ok', 'tools/call', { name: `clean__${tool}`, arguments: {}, _meta: { progressToken: 7 } }, MODERN);
      expect(modern.messages.filter((message) => message.method === method), modern.text).toHaveLength(1);
    } else {
      // The server tried it (the tool says what became of each): what its SDK let out reached gw's
      // client, which answers a ping itself (the stateless server cannot take the answer) and refuses
      // what it never offered; the agent's answer above carries none of it.
      const outcome = new RegExp(`^${method.replace(/\//g, '\\/')}: (.+)$`, 'm').exec(String((answerOf(answer)?.result?.content as Array<{ text: string }>)[0]!.text))?.[1];
      if (handling === 'answered') expect(outcome).toMatch(/^(answered|unanswered)$/);
      if (handling === 'refused') expect(outcome).toMatch(/^(refused|unanswered)$/);
      if (handling === 'dropped') expect(outcome).toMatch(/^(sent|not sent)$/);
    }
  });

  it('policy: a call the policy refuses never reaches the server, so nothing comes back', async () => {
    const before = planted.methods().length;
    const answer = await send('denyServer', 'tools/call', { name: `planted__${tool}`, arguments: {} });
    expect(answerOf(answer)?.error?.message, answer.text).toMatch(/deny_mcp_servers/);
    expect(planted.methods().slice(before)).not.toContain('tools/call');
  });
});

describe('resources/read of a URI the server did not list', () => {
  const unlisted = resource('clean', 'file:///notes/todo.txt');

  it('is refused, and the server is not asked for it', async () => {
    const listed = await send('ok', 'resources/read', { uri: resource('clean', LISTED_URI) });
    expect(answerOf(listed)?.result, listed.text).toMatchObject({ contents: [{ text: 'readme text' }] });
    const before = clean.everything().length;
    const answer = await send('ok', 'resources/read', { uri: unlisted });
    expect(answerOf(answer)?.error?.message, answer.text).toMatch(/does not list this resource/);
    expect(clean.everything().slice(before)).not.toContain('todo.txt');
    expect((await recordOf(answer)).data).toMatchObject({ mcp: { method: 'resources/read', server: 'clean', status: 'refused' } });
  });

  it('is read when an allow_resources pattern names it (a URI its template makes)', async () => {
    const templates = await send('allowPattern', 'resources/templates/list', {});
    expect(answerOf(templates)?.result, templates.text).toMatchObject({ resourceTemplates: [{ uriTemplate: 'gw-mcp://clean/file:///notes/{name}' }] });
    const answer = await send('allowPattern', 'resources/read', { uri: unlisted });
    expect(answerOf(answer)?.result, answer.text).toMatchObject({ contents: [{ uri: unlisted, text: 'note at /notes/todo.txt' }] });
  });
});

it('redact: an address in a value and in a key leaves redacted, and the echo of it comes back redacted', async () => {
  const before = clean.everything().length;
  const answer = await send('redact', 'tools/call', { name: 'clean__echo', arguments: { text: 'mail ada@example.com', 'grace@example.com': 1 } });
  const reached = clean.everything().slice(before);
  expect(reached).toContain('mail [REDACTED:email]');
  expect(reached).toContain('"[REDACTED:email]":1');
  expect(reached).not.toMatch(/ada@|grace@/);
  expect(answerOf(answer)?.result, answer.text).toEqual({ content: [{ type: 'text', text: 'echo: mail [REDACTED:email]' }] });
  expect(await recordOf(answer)).toMatchObject({ dlp: { email: 2 }, data: { mcp: { method: 'tools/call', server: 'clean', tool: 'echo', status: 'ok' } } });
});

it('a secret as the JSON-RPC id is refused and not echoed back', async () => {
  const response = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys.ok.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: SECRET, method: 'tools/list', params: {} }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(403);
  expect(text).toContain('github_token');
  expect(text).not.toContain(SECRET);
  expect(JSON.parse(text)).toMatchObject({ id: null, error: { data: { gw_code: 'GW_ERR_DLP_BLOCKED' } } });
});

it('nothing gw wrote holds a planted secret: not the audit trail, not its log', async () => {
  await sleep(500);
  const audit = JSON.stringify(await readAudit(gw.home));
  expect(audit).toContain('github_token');
  expect(audit).not.toContain(SECRET);
  expect(gw.stdout()).not.toContain(SECRET);
  expect(gw.stderr()).not.toContain(SECRET);
});
