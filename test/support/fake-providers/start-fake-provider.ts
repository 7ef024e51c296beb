// Real local HTTP servers standing in for OpenAI, Anthropic and Gemini, for
// end-to-end tests: they record every request (and when its connection closed)
// and can be told to fail the way the real providers do.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeAnthropic } from './fake-anthropic.js';
import { fakeGemini } from './fake-gemini.js';
import { fakeOpenAi } from './fake-openai.js';
import { fakeVertex, refuseToken } from './fake-vertex.js';
import type { FakeBehaviour, FakeDialect, FakeProviderKind, FakeProviderOptions, FakeReply, RecordedRequest } from './fake-provider-types.js';
import { writeJsonReply, writeStreamReply } from './write-fake-reply.js';

export type * from './fake-provider-types.js';

export const DEFAULT_EVENT_DELAY_MS = 30;

/** The header a test may set to fault one request: JSON of a FakeBehaviour. */
export const FAKE_BEHAVIOUR_HEADER = 'x-fake-behaviour';

const DIALECTS: Record<FakeProviderKind, FakeDialect> = { openai: fakeOpenAi, anthropic: fakeAnthropic, gemini: fakeGemini, vertex: fakeVertex };

export interface FakeProvider {
  kind: FakeProviderKind;
  /** http://127.0.0.1:<port>, without a path. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Faults for the next `times` requests (all following requests when omitted); undefined clears. */
  setBehaviour(behaviour?: FakeBehaviour, options?: { times?: number }): void;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Resolves with closedAt once the request's connection has closed. */
  waitForClose(request: RecordedRequest, timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

async function waitUntil<T>(read: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`fake provider: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(body: string): unknown {
  try {
    return body === '' ? undefined : (JSON.parse(body) as unknown);
  } catch {
    return undefined;
  }
}

function readBehaviourHeader(request: IncomingMessage): FakeBehaviour | undefined {
  const header = request.headers[FAKE_BEHAVIOUR_HEADER];
  return typeof header === 'string' ? (JSON.parse(header) as FakeBehaviour) : undefined;
}

function chooseReply(dialect: FakeDialect, record: RecordedRequest, options: FakeProviderOptions): FakeReply {
  const { behaviour } = record;
  if (options.apiKey !== undefined) {
    const refused = dialect.authorize(record, options.apiKey);
    if (refused) return refused;
  }
  if (options.acceptsToken !== undefined) {
    const token = /^Bearer (\S+)$/.exec(String(record.headers.authorization ?? ''))?.[1];
    if (token === undefined || !options.acceptsToken(token)) return refuseToken();
  }
  if (behaviour.status !== undefined) {
    const reply = dialect.createError(behaviour.status, behaviour.errorMessage ?? `fake ${record.path} failed with HTTP ${behaviour.status}`);
    if (behaviour.status === 429) reply.headers = { ...reply.headers, 'retry-after': String(behaviour.retryAfterSeconds ?? 1) };
    return reply;
  }
  const routed = underRoot(record, options.root);
  return (routed && dialect.route(routed)) ?? dialect.createError(404, `fake provider: no route for ${record.method} ${record.path}`);
}

/** The request as the dialect routes it: its path without the API's root, or null when it is outside it. */
function underRoot(record: RecordedRequest, root: string | undefined): RecordedRequest | null {
  if (root === undefined) return record;
  return record.path.startsWith(`${root}/`) ? { ...record, path: record.path.slice(root.length) } : null;
}

interface HandlerContext {
  dialect: FakeDialect;
  options: FakeProviderOptions;
  requests: RecordedRequest[];
  takeBehaviour: () => FakeBehaviour;
}

async function handleFakeRequest(request: IncomingMessage, response: ServerResponse, context: HandlerContext): Promise<void> {
  const receivedAt = Date.now();
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const behaviour = readBehaviourHeader(request) ?? context.takeBehaviour();
  const record: RecordedRequest = {
    method: request.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: request.headers,
    body: '', json: undefined, receivedAt, aborted: false, behaviour,
  };
  // Listen before reading the body, so a client that gives up early is still seen.
  response.on('close', () => {
    record.closedAt = Date.now();
    record.aborted = !response.writableFinished;
  });
  record.body = await readBody(request);
  record.json = parseJson(record.body);
  context.requests.push(record);
  if (behaviour.hangBeforeHeaders === true) return;
  if (record.method === 'HEAD') {
    response.writeHead(200).end(); // Claude Code probes its base URL with HEAD first
    return;
  }
  const reply = chooseReply(context.dialect, record, context.options);
  if (reply.type === 'json') writeJsonReply(response, reply, behaviour);
  else await writeStreamReply(response, reply, behaviour, behaviour.eventDelayMs ?? context.options.eventDelayMs ?? DEFAULT_EVENT_DELAY_MS);
}

export async function startFakeProvider(kind: FakeProviderKind, options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  let planned: { behaviour: FakeBehaviour; remaining: number } | undefined;
  const takeBehaviour = (): FakeBehaviour => {
    if (!planned) return {};
    const { behaviour } = planned;
    planned.remaining -= 1;
    if (planned.remaining <= 0) planned = undefined;
    return behaviour;
  };
  const context: HandlerContext = { dialect: DIALECTS[kind], options, requests, takeBehaviour };

  const server = createServer((request, response) => {
    handleFakeRequest(request, response, context).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`fake provider failed: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    kind, port, url: `http://127.0.0.1:${port}`, requests,
    setBehaviour(behaviour, setOptions) {
      planned = behaviour === undefined ? undefined : { behaviour, remaining: setOptions?.times ?? Number.POSITIVE_INFINITY };
    },
    waitForRequests: (count, timeoutMs = 5000) => waitUntil(() => (requests.length >= count ? requests : undefined), timeoutMs, `${count} requests`),
    waitForClose: (request, timeoutMs = 5000) => waitUntil(() => request.closedAt, timeoutMs, `${request.path} to close`),
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    }),
  };
}
