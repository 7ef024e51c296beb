// A remote MCP server (the official SDK's, streamable HTTP) for the no-side-door matrices
// (no-side-door.test.ts's /mcp row, mcp-no-side-door.test.ts): it records every request's
// bytes and JSON-RPC method, echoes its text, and its `leak` tool answers with the secret it
// was given (the output check). It offers every capability gw relays: tools (one reporting
// progress, one sending the server's other messages), a listed resource, a resource template,
// a prompt, completions. Started `planted`, every answer of every method carries the secret
// somewhere an agent reads but a content-only scan misses: a tool's description, a result's
// `_meta`, a resource's name, a template's title, a prompt's description, completion values,
// a progress message. Like the catch-all provider, it only needs to say what reached it and to
// make it say something.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface CatchAllMcpServer {
  url: string;
  /** Every request's headers and body, as text. */
  everything(): string;
  requestCount(): number;
  /** The JSON-RPC method of every message that reached the server, in order. */
  methods(): string[];
  close(): Promise<void>;
}

export const LISTED_URI = 'file:///notes/readme.txt';
const TEMPLATE = 'file:///notes/{name}';

/** What the server's `chatter` tool tries to send the client, besides its answer (the server → client methods gw must not relay). */
const CHATTER_NOTIFICATIONS = [
  'notifications/message', 'notifications/cancelled', 'notifications/resources/updated', 'notifications/resources/list_changed',
  'notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/tasks/status', 'notifications/elicitation/complete',
  'notifications/subscriptions/acknowledged',
];
const CHATTER_REQUESTS = ['ping', 'sampling/createMessage', 'elicitation/create', 'roots/list', 'tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'];

function notificationParams(method: string, leak: string): Record<string, unknown> {
  if (method === 'notifications/message') return { level: 'info', data: `log ${leak}`, logger: leak };
  if (method === 'notifications/cancelled') return { requestId: 1, reason: leak };
  if (method === 'notifications/resources/updated') return { uri: `file:///${leak}` };
  if (method === 'notifications/tasks/status') return { taskId: leak, status: 'working', ttl: null, createdAt: new Date().toISOString(), lastUpdatedAt: new Date().toISOString() };
  if (method === 'notifications/elicitation/complete') return { elicitationId: leak };
  return { _meta: { note: leak } };
}

function build(leak: string, planted: boolean): McpServer {
  const said = (text: string) => (planted ? `${text} ${leak}` : text);
  const meta = planted ? { _meta: { note: leak } } : {};
  const mcp = new McpServer({ name: 'catch-all', version: '1.0.0' }, { capabilities: { logging: {} } });
  mcp.registerTool('echo', { description: said('Echoes its text'), inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }], ...meta }));
  mcp.registerTool('leak', { inputSchema: {} }, async () => ({ content: [{ type: 'text', text: `here it is: ${leak}` }] }));
  mcp.registerTool('slow', { inputSchema: {} }, async (_args, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 1, message: said('halfway') } });
    return { content: [{ type: 'text', text: 'done' }] };
  });
  mcp.registerTool('chatter', { inputSchema: {} }, async (_args, extra) => {
    const outcomes: string[] = [];
    for (const method of CHATTER_NOTIFICATIONS) {
      // Cast: the notifications are sent as the wire has them, whatever the SDK's types allow a tool to send.
      await extra.sendNotification({ method, params: notificationParams(method, leak) } as never).then(() => outcomes.push(`${method}: sent`), () => outcomes.push(`${method}: not sent`));
    }
    // Stateless, this server cannot take its client's answer (it comes on a new HTTP request, to a
    // new server): a request the SDK let out ends in its timeout, one the client never offered is refused at once.
    await Promise.all(CHATTER_REQUESTS.map((method) => extra.sendRequest({ method, params: { _meta: { note: leak } } } as never, z.object({}).passthrough() as never, { timeout: 1_500 })
      .then(() => outcomes.push(`${method}: answered`), (error: Error) => outcomes.push(`${method}: ${/timed out/i.test(error.message) ? 'unanswered' : 'refused'}`))));
    return { content: [{ type: 'text', text: outcomes.join('\n') }] };
  });
  mcp.registerResource('readme', LISTED_URI, { title: said('Readme') },
    async (uri) => ({ contents: [{ uri: uri.href, text: 'readme text' }], ...meta }));
  // A resource's name is what registerResource is given: planted, the name itself carries the secret.
  if (planted) mcp.registerResource(`named ${leak}`, 'file:///notes/named.txt', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'named' }] }));
  mcp.registerResource('note', new ResourceTemplate(TEMPLATE, { list: undefined, complete: { name: () => (planted ? [leak] : ['todo.txt']) } }),
    { title: said('A note by name') }, async (uri) => ({ contents: [{ uri: uri.href, text: `note at ${uri.pathname}` }], ...meta }));
  mcp.registerPrompt('review', {
    description: said('Review a topic'),
    argsSchema: { topic: completable(z.string(), () => (planted ? [leak] : ['the diff'])) },
  }, async ({ topic }) => ({ description: said('A review'), messages: [{ role: 'user', content: { type: 'text', text: `Review ${topic}` } }] }));
  return mcp;
}

export async function startCatchAllMcpServer(leak: string, options: { planted?: boolean } = {}): Promise<CatchAllMcpServer> {
  const seen: string[] = [];
  const methods: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void (async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      seen.push(`${JSON.stringify(request.headers)}\n${text}`);
      const body = text ? JSON.parse(text) as { method?: string } | Array<{ method?: string }> : undefined;
      for (const message of Array.isArray(body) ? body : body ? [body] : []) if (message.method) methods.push(message.method);
      const mcp = build(leak, options.planted ?? false);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => { void transport.close(); void mcp.close(); });
      await mcp.connect(transport);
      await transport.handleRequest(request, response, body);
    })());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    everything: () => seen.join('\n'),
    requestCount: () => seen.length,
    methods: () => [...methods],
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
