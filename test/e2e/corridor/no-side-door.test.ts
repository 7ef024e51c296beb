// Governance has no side door: every route of the route table (and both realtime
// upgrade paths, in realtime-corridor.test.ts) goes through the same stages against a
// real `gw serve`. For every route, with local providers that record every byte:
//   - a planted secret is refused before anything reaches a provider;
//   - a denied provider, a denied operation and (where the call names one) a denied model are refused;
//   - with output scanning on, a secret the provider answers never reaches the client;
//   - serving credential-less (default_team), a foreign Host and a foreign Origin are refused;
//   - the audit record carries origin, team, key and outcome.
// A route added to the table without its row in ROWS fails the first test. /mcp, mounted
// apart from the table (src/server/mcp-route.ts), has its row at the end, against a real MCP
// server: the same checks, asked in JSON-RPC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLE, type RouteEntry } from '../../../src/pipeline/route-table.js';
import { MCP_ROUTE } from '../../../src/server/mcp-route.js';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { SAMPLES } from '../../dlp/samples.js';
import { readAudit, sleep, waitForState, type AuditLine } from '../helpers.js';
import { LEAK_TRIGGER, startCatchAllProvider, type CatchAllProvider } from './catch-all-provider.js';
import { startCatchAllMcpServer, type CatchAllMcpServer } from './catch-all-mcp-server.js';

const SECRET = SAMPLES.githubPat;

type Fake = 'openai' | 'anthropic' | 'gemini' | 'cohere' | 'mistral';

interface Row {
  /** The body the route takes: JSON (built around a text), a multipart upload, raw text, or none. */
  body: 'json' | 'multipart' | 'text' | 'none';
  json?: (text: string) => Record<string, unknown>;
  /** The provider the call reaches; 'none' for what gw refuses itself (not built, a transport it does not serve). */
  reaches: Fake | 'none';
  /** The call names a model (in its body, path, or a batch's lines), so deny_models applies. */
  named?: boolean;
  /** The answer is text gw relays (output DLP applies): JSON read whole (refused with 403), or a download (cut). */
  answers?: boolean | 'download';
  /** The rest of a wildcard path. */
  wildcard?: string;
}

const chat = (model: string) => (text: string) => ({ model, messages: [{ role: 'user', content: text }] });
const note = (text: string) => ({ metadata: { note: text } });
/** A batch as an OTLP/JSON exporter sends it, the text in a log body (DLP reads every string, whatever the signal). */
const otlpLogs = (text: string) => ({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: text } }] }] }] });
const GPT = 'openai/gpt-4o';
const CLAUDE = 'anthropic/claude-sonnet-4-5';

/** Keyed by `dialect method operation`. */
const ROWS: Record<string, Row> = {
  'openai POST chat.completions': { body: 'json', json: chat(GPT), reaches: 'openai', named: true, answers: true },
  'openai POST completions': { body: 'json', json: (text) => ({ model: GPT, prompt: text }), reaches: 'openai', named: true, answers: true },
  'openai POST embeddings': { body: 'json', json: (text) => ({ model: GPT, input: text }), reaches: 'openai', named: true, answers: true },
  'openai GET models.list': { body: 'none', reaches: 'openai' },
  'openai GET models.retrieve': { body: 'none', reaches: 'none' },
  'openai POST responses.create': { body: 'json', json: (text) => ({ model: GPT, input: text }), reaches: 'openai', named: true, answers: true },
  'openai GET responses.websocket': { body: 'none', reaches: 'none' },
  'openai POST responses.input_tokens': { body: 'json', json: (text) => ({ model: GPT, input: text }), reaches: 'openai', named: true, answers: true },
  'openai POST responses.compact': { body: 'json', json: (text) => ({ model: GPT, input: text }), reaches: 'openai', named: true, answers: true },
  'openai GET responses.retrieve': { body: 'none', reaches: 'openai', answers: true },
  'openai DELETE responses.delete': { body: 'none', reaches: 'openai', answers: true },
  'openai POST responses.cancel': { body: 'json', json: note, reaches: 'openai', answers: true },
  'openai GET responses.input_items': { body: 'none', reaches: 'openai', answers: true },
  'openai POST rerank': { body: 'json', json: (text) => ({ model: 'cohere/rerank-v3.5', query: text, documents: ['a'] }), reaches: 'cohere', named: true },
  'openai POST ocr': { body: 'json', json: (text) => ({ model: 'mistral/mistral-ocr-latest', document: { type: 'document_url', document_url: `https://example.com/${text}` } }), reaches: 'mistral', named: true, answers: true },
  'openai POST audio.speech': { body: 'json', json: (text) => ({ model: 'openai/tts-1', input: text, voice: 'alloy' }), reaches: 'openai', named: true, answers: 'download' },
  'openai POST audio.transcriptions': { body: 'multipart', reaches: 'openai', named: true, answers: true },
  'openai POST audio.translations': { body: 'multipart', reaches: 'openai', named: true, answers: true },
  'openai POST images.generations': { body: 'json', json: (text) => ({ model: 'openai/gpt-image-1', prompt: text }), reaches: 'openai', named: true, answers: true },
  'openai POST images.edits': { body: 'multipart', reaches: 'openai', named: true, answers: true },
  'openai POST images.variations': { body: 'multipart', reaches: 'openai', named: true, answers: true },
  'openai POST videos': { body: 'multipart', reaches: 'openai', named: true, answers: true },
  'openai GET videos': { body: 'none', reaches: 'openai', answers: true },
  'openai POST videos.item': { body: 'json', json: note, reaches: 'openai', answers: true },
  'openai GET videos.item': { body: 'none', reaches: 'openai', answers: true },
  'openai POST videos.content': { body: 'json', json: note, reaches: 'openai', answers: 'download' },
  'openai GET videos.content': { body: 'none', reaches: 'openai', answers: 'download' },
  'openai POST videos.remix': { body: 'json', json: (text) => ({ prompt: text }), reaches: 'openai', answers: true },
  'openai GET videos.remix': { body: 'none', reaches: 'openai', answers: true },
  // Its models are its input file's lines: a file gw never saw is refused under a model list (deny_models here).
  'openai POST batches': { body: 'json', json: (text) => ({ input_file_id: 'file-unknown', endpoint: '/v1/chat/completions', completion_window: '24h', ...note(text) }), reaches: 'openai', named: true, answers: true },
  'openai GET batches': { body: 'none', reaches: 'openai', answers: true },
  'openai POST batches.item': { body: 'json', json: note, reaches: 'openai', answers: true },
  'openai GET batches.item': { body: 'none', reaches: 'openai', answers: true },
  'openai POST batches.results': { body: 'json', json: note, reaches: 'openai', answers: 'download' },
  'openai GET batches.results': { body: 'none', reaches: 'openai', answers: 'download' },
  'openai POST batches.cancel': { body: 'json', json: note, reaches: 'openai', answers: true },
  'openai GET batches.cancel': { body: 'none', reaches: 'openai', answers: true },
  'openai POST files': { body: 'multipart', reaches: 'openai', answers: true },
  'openai GET files': { body: 'none', reaches: 'openai', answers: true },
  'openai DELETE files': { body: 'none', reaches: 'openai', answers: true },
  'openai POST files.item': { body: 'text', reaches: 'openai', answers: true },
  'openai GET files.item': { body: 'none', reaches: 'openai', answers: true },
  'openai DELETE files.item': { body: 'none', reaches: 'openai', answers: true },
  'openai POST files.content': { body: 'text', reaches: 'openai', answers: 'download' },
  'openai GET files.content': { body: 'none', reaches: 'openai', answers: 'download' },
  'openai DELETE files.content': { body: 'none', reaches: 'openai', answers: 'download' },
  'openai POST containers': { body: 'json', json: (text) => ({ name: text }), reaches: 'openai', answers: true },
  'openai GET containers': { body: 'none', reaches: 'openai', answers: true },
  'openai DELETE containers': { body: 'none', reaches: 'openai', answers: true },
  'openai POST containers.item': { body: 'multipart', reaches: 'openai', answers: true, wildcard: 'cntr_1/files' },
  'openai GET containers.item': { body: 'none', reaches: 'openai', answers: true, wildcard: 'cntr_1/files' },
  'openai DELETE containers.item': { body: 'none', reaches: 'openai', answers: true, wildcard: 'cntr_1/files/cfile_1' },
  'openai GET realtime': { body: 'none', reaches: 'none' },
  'anthropic POST messages': { body: 'json', json: (text) => ({ ...chat(CLAUDE)(text), max_tokens: 16 }), reaches: 'anthropic', named: true, answers: true },
  'anthropic POST messages.count_tokens': { body: 'json', json: chat(CLAUDE), reaches: 'anthropic', named: true, answers: true },
  'anthropic POST messages.batches': { body: 'json', json: (text) => ({ requests: [{ custom_id: '1', params: { ...chat(CLAUDE)(text), max_tokens: 16 } }] }), reaches: 'anthropic', named: true, answers: true },
  'anthropic GET messages.batches': { body: 'none', reaches: 'anthropic', answers: true },
  'anthropic GET messages.batches.item': { body: 'none', reaches: 'anthropic', answers: true },
  'anthropic DELETE messages.batches.item': { body: 'none', reaches: 'anthropic', answers: true },
  'anthropic GET messages.batches.results': { body: 'none', reaches: 'anthropic', answers: 'download' },
  'anthropic POST messages.batches.cancel': { body: 'json', json: note, reaches: 'anthropic', answers: true },
  // OTLP telemetry (src/server/telemetry-routes.ts): no provider; DLP reads the batch's strings, policy its operation.
  'anthropic POST telemetry.traces': { body: 'json', json: otlpLogs, reaches: 'none' },
  'anthropic POST telemetry.metrics': { body: 'json', json: otlpLogs, reaches: 'none' },
  'anthropic POST telemetry.logs': { body: 'json', json: otlpLogs, reaches: 'none' },
  'google GET genai.models.list': { body: 'none', reaches: 'gemini' },
  'google POST genai.models': {
    body: 'json', json: (text) => ({ contents: [{ role: 'user', parts: [{ text }] }] }), reaches: 'gemini', named: true, answers: true,
    wildcard: 'gemini-2.5-flash:generateContent',
  },
  'google GET genai.models': { body: 'none', reaches: 'none', wildcard: 'gemini-2.5-flash' },
  'bedrock POST bedrock.converse': { body: 'json', json: (text) => ({ messages: [{ role: 'user', content: [{ text }] }] }), reaches: 'openai', named: true, answers: true },
  'bedrock POST bedrock.converse_stream': { body: 'json', json: (text) => ({ messages: [{ role: 'user', content: [{ text }] }] }), reaches: 'openai', named: true },
  'bedrock POST bedrock.invoke': { body: 'json', json: (text) => ({ prompt: text }), reaches: 'none' },
  'bedrock POST bedrock.invoke_stream': { body: 'json', json: (text) => ({ prompt: text }), reaches: 'none' },
  // Vertex AI as a client format: Claude Code's rawPredict (model in the path, anthropic_version in the body), the GenAI SDK's Vertex mode.
  'anthropic POST vertex.anthropic': {
    body: 'json', json: (text) => ({ anthropic_version: 'vertex-2023-10-16', max_tokens: 16, messages: [{ role: 'user', content: text }] }),
    reaches: 'anthropic', named: true, answers: true, wildcard: 'claude-sonnet-4-5@20250929:rawPredict',
  },
  'google POST vertex.genai': {
    body: 'json', json: (text) => ({ contents: [{ role: 'user', parts: [{ text }] }] }), reaches: 'gemini', named: true, answers: true,
    wildcard: 'gemini-2.5-flash:generateContent',
  },
  'openai POST passthrough': { body: 'text', reaches: 'openai', named: true, answers: true, wildcard: 'v1/chat/completions' },
  'openai GET passthrough': { body: 'none', reaches: 'openai', answers: true, wildcard: 'v1/models' },
  'openai DELETE passthrough': { body: 'none', reaches: 'openai', answers: true, wildcard: 'v1/files/file-1' },
  'anthropic POST passthrough': { body: 'text', reaches: 'anthropic', named: true, answers: true, wildcard: 'v1/messages' },
  'anthropic GET passthrough': { body: 'none', reaches: 'anthropic', answers: true, wildcard: 'v1/models' },
  'anthropic DELETE passthrough': { body: 'none', reaches: 'anthropic', answers: true, wildcard: 'v1/files/file-1' },
  'google POST passthrough': { body: 'text', reaches: 'gemini', named: true, answers: true, wildcard: 'v1beta/models/gemini-2.5-flash:generateContent' },
  'google GET passthrough': { body: 'none', reaches: 'gemini', answers: true, wildcard: 'v1beta/models' },
  'google DELETE passthrough': { body: 'none', reaches: 'gemini', answers: true, wildcard: 'v1beta/files/file-1' },
};

const ROUTES = ROUTE_TABLE.filter((route) => route.authenticated);
const rowKey = (route: RouteEntry) => `${route.dialect} ${route.method} ${route.operation}`;
const rowOf = (route: RouteEntry) => ROWS[rowKey(route)]!;
const named = (route: RouteEntry) => `${route.method} ${route.url}`;

/** The concrete path of a route: parameters filled, the model in Bedrock and Azure paths. */
function pathOf(route: RouteEntry): string {
  const row = ROWS[rowKey(route)] ?? { body: 'none', reaches: 'none' };
  return route.url
    .replace(':model_id', encodeURIComponent(GPT)).replace(':deployment', 'gpt-4o').replace(':model', 'gpt-4o')
    .replace(/:(\w+)/g, (_match, name: string) => `${name.replace(/_id$/, '')}-1`)
    .replace('*', row.wildcard ?? 'item-1');
}

let gw: GatewayProcess;
const fakes = {} as Record<Fake, CatchAllProvider>;
const keys = {} as Record<'ok' | 'denyProvider' | 'denyOperation' | 'denyModel' | 'output' | 'denyMcp', { key: string; id: string }>;
let mcpServer: CatchAllMcpServer;

async function gwCommand(...args: string[]): Promise<string> {
  const result = await runGw(args, { home: gw.home });
  expect(result.code, result.stderr).toBe(0);
  return `${result.stdout}${result.stderr}`;
}

beforeAll(async () => {
  for (const name of ['openai', 'anthropic', 'gemini', 'cohere', 'mistral'] as const) fakes[name] = await startCatchAllProvider(SECRET);
  gw = await startGatewayProcess({
    env: {
      OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${fakes.openai.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: fakes.anthropic.url,
      GEMINI_API_KEY: 'upstream-gemini', GOOGLE_GEMINI_BASE_URL: fakes.gemini.url,
      COHERE_API_KEY: 'upstream-cohere', COHERE_BASE_URL: fakes.cohere.url,
      MISTRAL_API_KEY: 'upstream-mistral', MISTRAL_BASE_URL: `${fakes.mistral.url}/v1`,
      GW_LOG_LEVEL: 'warn',
    },
  });
  for (const name of Object.keys({ ok: 0, denyProvider: 0, denyOperation: 0, denyModel: 0, output: 0, denyMcp: 0 }) as Array<keyof typeof keys>) {
    const out = await gwCommand('keys', 'create', '--team', 'local', '--name', name);
    keys[name] = { key: /sk-gw-\w+/.exec(out)![0], id: /vk_\w+/.exec(out)![0] };
  }
  await gwCommand('policy', 'set', `key:${keys.denyProvider.id}`, '--deny-providers', '*');
  await gwCommand('policy', 'set', `key:${keys.denyOperation.id}`, '--deny-operations', '*');
  await gwCommand('policy', 'set', `key:${keys.denyModel.id}`, '--deny-models', '*');
  await gwCommand('dlp', 'output', 'on', '--scope', `key:${keys.output.id}`);
  mcpServer = await startCatchAllMcpServer(SECRET);
  await gwCommand('mcp', 'add', 'catchall', '--url', mcpServer.url);
  await gwCommand('policy', 'set', `key:${keys.denyMcp.id}`, '--deny-mcp-servers', '*');
  await gwCommand('settings', 'set', 'default_team', 'local');
  await waitForState(gw);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
  await mcpServer?.close();
});

interface Sent { status: number; text: string; requestId: string | null }

async function send(route: RouteEntry, text: string | null, headers: Record<string, string>): Promise<Sent> {
  const row = rowOf(route);
  const init: RequestInit = { method: route.method, headers: { ...headers } };
  if (text !== null && route.method !== 'GET' && route.method !== 'HEAD' && route.method !== 'DELETE') {
    if (row.body === 'json') {
      init.body = JSON.stringify(row.json!(text));
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    } else if (row.body === 'multipart') {
      const form = new FormData();
      form.append('model', route.operation.startsWith('audio.') ? 'openai/whisper-1' : 'openai/gpt-image-1');
      form.append('purpose', 'batch');
      form.append('file', new Blob([`{"custom_id":"1","body":{"messages":[{"role":"user","content":"${text}"}]}}\n`], { type: 'application/jsonl' }), 'batch.jsonl');
      init.body = form;
    } else if (row.body === 'text') {
      // A JSON body declared as text/plain: DLP reads it whatever the declared type.
      init.body = JSON.stringify({ model: GPT, messages: [{ role: 'user', content: text }] });
      (init.headers as Record<string, string>)['content-type'] = 'text/plain';
    }
  }
  const response = await fetch(`${gw.url}${pathOf(route)}`, init);
  // A download cut by output DLP ends as a broken transfer: what arrived before the cut is what counts.
  const answer = await response.text().catch((error: unknown) => `(transfer cut: ${String(error)})`);
  return { status: response.status, text: answer, requestId: response.headers.get('x-request-id') };
}

const auth = (which: keyof typeof keys) => ({ authorization: `Bearer ${keys[which].key}`, 'x-api-key': keys[which].key });
const seenByAll = () => Object.values(fakes).map((fake) => fake.everything()).join('\n');
const requestCount = () => Object.values(fakes).reduce((sum, fake) => sum + fake.requests.length, 0);

it('every route of the table has its row in the matrix', () => {
  const missing = [...new Set(ROUTES.map(rowKey))].filter((key) => !Object.hasOwn(ROWS, key));
  expect(missing).toEqual([]);
});

describe('a planted secret never reaches a provider', () => {
  it.each(ROUTES.filter((route) => route.method !== 'GET' && route.method !== 'DELETE' && rowOf(route).body !== 'none').map((route) => [named(route), route] as const))('%s', async (_name, route) => {
    const sent = await send(route, `my token is ${SECRET} ok`, auth('ok'));
    if (rowOf(route).reaches === 'none') {
      expect([403, 426, 501], sent.text).toContain(sent.status);
    } else {
      expect(sent.status, sent.text).toBe(403);
      expect(sent.text).toContain('github_token');
    }
    expect(seenByAll()).not.toContain(SECRET);
  });
});

describe('policy: a denied provider, operation and model are refused before any provider', () => {
  it.each(ROUTES.map((route) => [named(route), route] as const))('%s', async (_name, route) => {
    const row = rowOf(route);
    const before = requestCount();
    const provider = await send(route, 'hello', auth('denyProvider'));
    if (route.operation === 'models.list' || route.operation === 'genai.models.list') {
      // The merged list asks no denied provider: it comes back empty.
      expect(provider.status).toBe(200);
      expect(provider.text).not.toContain('catch-all-model');
    } else if (row.reaches !== 'none') {
      expect(provider.status, provider.text).toBe(403);
      expect(provider.text).toContain('deny_providers');
    }
    const operation = await send(route, 'hello', auth('denyOperation'));
    expect([403, 426, 501], operation.text).toContain(operation.status);
    if (row.reaches !== 'none') expect(operation.text).toContain('deny_operations');
    if (row.named) {
      const model = await send(route, 'hello', auth('denyModel'));
      expect(model.status, model.text).toBe(403);
      expect(model.text).toContain('deny_models');
    }
    expect(requestCount()).toBe(before);
  });
});

describe('output DLP: a secret the provider answers never reaches the client', () => {
  it.each(ROUTES.filter((route) => rowOf(route).answers && route.method === 'POST').map((route) => [named(route), route] as const))('%s', async (_name, route) => {
    const sent = await send(route, LEAK_TRIGGER, auth('output'));
    expect(sent.text).not.toContain(SECRET);
    // A download's status is sent before its bytes: a block cuts it instead.
    if (rowOf(route).answers === true) expect(sent.status, sent.text).toBe(403);
  });
});

describe('serving without a credential (default_team): foreign Host and Origin are refused', () => {
  it.each(ROUTES.map((route) => [named(route), route] as const))('%s', async (_name, route) => {
    const before = requestCount();
    const port = new URL(gw.url).port;
    const host = await rawRequest(route, { host: `rebound.example:${port}` });
    expect(host.status, host.text).toBe(403);
    // No body: the guard answers before one is read (and closes, which would cut an upload mid-send).
    const origin = await send(route, null, { origin: 'https://evil.example' });
    expect(origin.status, origin.text).toBe(403);
    const site = await send(route, null, { 'sec-fetch-site': 'cross-site' });
    expect(site.status, site.text).toBe(403);
    expect(requestCount()).toBe(before);
  });

  it('the refusals are in the audit trail, as bursts per origin', async () => {
    const lines = await waitForAudit((all) => all.some((line) => String(line.kind).startsWith('guard.')));
    const guard = lines.filter((line) => String(line.kind).startsWith('guard.'));
    expect(guard.length).toBeGreaterThan(0);
    expect(guard[0]).toHaveProperty('origin');
  });
});

it('the audit record of every call names origin, team, key and outcome', async () => {
  const sent: Array<[RouteEntry, Sent]> = [];
  for (const route of ROUTES) sent.push([route, await send(route, 'hello', auth('ok'))]);
  const ids = new Set(sent.map(([, result]) => result.requestId));
  const lines = await waitForAudit((all) => all.filter((line) => ids.has(String(line.request_id))).length >= ids.size);
  const byId = new Map(lines.map((line) => [line.request_id, line]));
  const problems = sent.flatMap(([route, result]) => {
    const record = byId.get(result.requestId ?? '');
    if (!record) return [`${named(route)}: no record`];
    const wrong = record.origin !== '127.0.0.1' || record.team !== 'local' || record.key_id !== keys.ok.id || record.status !== result.status
      || !Array.isArray(record.outcome) || record.outcome.length === 0;
    return wrong ? [`${named(route)}: ${JSON.stringify(record)}`] : [];
  });
  expect(problems).toEqual([]);
}, 120_000);

/** fetch will not send another Host header: a raw request, as a DNS-rebinding page's browser would. */
async function rawRequest(route: RouteEntry, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const { request } = await import('node:http');
  const url = new URL(`${gw.url}${pathOf(route)}`);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: route.method, headers: { ...headers, connection: 'close' } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function waitForAudit(done: (lines: AuditLine[]) => boolean): Promise<AuditLine[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = await readAudit(gw.home).catch(() => [] as AuditLine[]);
    if (done(lines) || Date.now() > deadline) return lines;
    await sleep(50);
  }
}

// ---- /mcp: its own route (src/server/mcp-route.ts), the same checks in JSON-RPC ----

interface McpAnswer extends Sent { message: { result?: Record<string, unknown>; error?: { message: string } } | null }

/** One JSON-RPC request to gw's /mcp, as an MCP client sends it; the answer read from JSON or the SSE stream. */
async function mcpSend(headers: Record<string, string>, method: string, params: Record<string, unknown> = {}): Promise<McpAnswer> {
  const response = await fetch(`${gw.url}${MCP_ROUTE.url}`, {
    method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream')
    ? text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).at(-1)
    : text;
  let message: McpAnswer['message'];
  try { message = json ? JSON.parse(json) : null; } catch { message = null; }
  return { status: response.status, text, requestId: response.headers.get('x-request-id'), message };
}

const echo = (text: string) => ({ name: 'catchall__echo', arguments: { text } });

describe(`${MCP_ROUTE.method} ${MCP_ROUTE.url}`, () => {
  it('a planted secret in a tool argument never reaches the MCP server; the error names the rule', async () => {
    const sent = await mcpSend(auth('ok'), 'tools/call', echo(`my token is ${SECRET} ok`));
    expect(sent.message?.error?.message, sent.text).toContain('github_token');
    expect(mcpServer.everything()).not.toContain(SECRET);
  });

  it('policy: a denied operation and a denied MCP server are refused before the MCP server', async () => {
    const before = mcpServer.requestCount();
    const operation = await mcpSend(auth('denyOperation'), 'tools/call', echo('hello'));
    expect(operation.status, operation.text).toBe(403);
    expect(operation.text).toContain('deny_operations');
    const listed = await mcpSend(auth('denyMcp'), 'tools/list');
    expect(listed.message?.result, listed.text).toEqual({ tools: [] });
    const called = await mcpSend(auth('denyMcp'), 'tools/call', echo('hello'));
    expect(called.message?.error?.message, called.text).toContain('deny_mcp_servers');
    expect(mcpServer.requestCount()).toBe(before);
  });

  it('a secret the MCP server answers never reaches the client', async () => {
    for (const which of ['ok', 'output'] as const) {
      const sent = await mcpSend(auth(which), 'tools/call', { name: 'catchall__leak', arguments: {} });
      expect(sent.text).not.toContain(SECRET);
      expect(sent.message?.error?.message, sent.text).toContain('github_token');
    }
  });

  it('serving without a credential (default_team): a foreign Host, Origin and cross-site fetch are refused', async () => {
    const before = mcpServer.requestCount();
    const port = new URL(gw.url).port;
    expect((await rawRequest(MCP_ROUTE, { host: `rebound.example:${port}` })).status).toBe(403);
    expect((await mcpSend({ origin: 'https://evil.example' }, 'tools/list')).status).toBe(403);
    expect((await mcpSend({ 'sec-fetch-site': 'cross-site' }, 'tools/list')).status).toBe(403);
    expect(mcpServer.requestCount()).toBe(before);
  });

  it('the audit record names origin, team, key, status and outcome, and the server and tool', async () => {
    const sent = await mcpSend(auth('ok'), 'tools/call', echo('hello'));
    expect(sent.message?.result, sent.text).toEqual({ content: [{ type: 'text', text: 'echo: hello' }] });
    expect(sent.requestId).not.toBeNull();
    const lines = await waitForAudit((all) => all.some((line) => line.request_id === sent.requestId));
    expect(lines.find((line) => line.request_id === sent.requestId)).toMatchObject({
      origin: '127.0.0.1', team: 'local', key_id: keys.ok.id, status: 200, route: '/mcp', outcome: ['ok'],
      data: { mcp: { method: 'tools/call', server: 'catchall', tool: 'echo', status: 'ok' } },
    });
  });
});
