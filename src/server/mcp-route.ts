// POST /mcp (GET and DELETE answered 405: a stateless server has no stream or session): the MCP gateway
// (src/mcp) behind the same door as inference. The door has authenticated the caller and
// applied the body limits; governOperation applies the caller's policies and rate limits
// and resolves their DLP rules; the request's audit record (written when the response
// closes) carries what src/mcp noted: the MCP method, server and tool, the call's status and
// duration, DLP rule ids, outcome, and the bytes each way. Refusals here answer in JSON-RPC
// (the caller's wire format), with the HTTP status and catalog code of the refusal.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UpstreamServers } from '../mcp/upstream-servers.js';
import { recordedMethod } from '../mcp/mcp-methods.js';
import { RelayCall, type RecordDeps } from '../mcp/relay-call.js';
import { blockedText, scanMcpMessage } from '../mcp/scan-mcp-message.js';
import { governOperation } from '../pipeline/govern/govern-request.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { RequestTrace } from '../pipeline/request-trace.js';
import type { RouteEntry } from '../pipeline/route-table.js';
import { GatewayError } from '../errors.js';
import { ClientCancel } from '../upstream/cancel-signal.js';

export const MCP_ROUTE: RouteEntry = { method: 'POST', url: '/mcp', dialect: 'operational', operation: 'mcp', authenticated: true, jsonBody: true };

export function registerMcpRoute(app: FastifyInstance, services: GatewayServices, upstream: UpstreamServers): void {
  app.route({
    method: ['POST', 'GET', 'DELETE'], url: '/mcp', config: { route: MCP_ROUTE },
    handler: (request, reply) => serveMcp(services, upstream, request, reply),
  });
}

async function serveMcp(services: GatewayServices, upstream: UpstreamServers, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const state = request.gw;
  // Stateless: nothing to push on a standing GET stream and no session to DELETE. Left to the
  // transport, a GET would hold a connection (and a server) open for nothing.
  if (request.method !== 'POST') {
    return sendJsonRpcError(reply, state.trace, null, new GatewayError('GW_ERR_ROUTE_METHOD_NOT_ALLOWED', {
      message: "gw's /mcp is stateless: POST each message; there is no stream to GET and no session to DELETE.", headers: { allow: 'POST' },
    }));
  }
  // A batch would put several tool calls under one audit record; the current revision has none.
  if (Array.isArray(request.body)) return sendJsonRpcError(reply, state.trace, null, new GatewayError('GW_ERR_MCP_BATCH'));
  let governed;
  try {
    governed = await governOperation({
      id: request.id, method: request.method, route: MCP_ROUTE, dialect: 'operational', params: {}, query: new URLSearchParams(),
      rawPath: request.raw.url ?? request.url, headers: request.headers, body: request.body, rawBody: state.rawBody,
      identity: state.identity!, signal: new ClientCancel(),
    }, 'mcp', services, state.trace);
  } catch (error) {
    return sendJsonRpcError(reply, state.trace, messageId(request.body), error instanceof GatewayError ? error : new GatewayError('GW_ERR_SERVER_INTERNAL'));
  }
  // The agent's whole message, whatever its method, through the DLP HTTP bodies go through,
  // before the SDK reads it: redacted in place (what is relayed is the redacted message) or refused.
  const body = request.body as { method?: unknown; params?: Record<string, unknown> } | null;
  const block = scanMcpMessage(governed.dlp, state.trace, body, 'request');
  if (block === null) {
    // Every message is on the record by its method; a relayed one's handler adds its names and status.
    state.trace.noteData('mcp', { method: recordedMethod(body?.method) });
  } else {
    new RelayCall({ upstream, trace: state.trace, countCall: countCallOf(services) }, recordedMethod(body?.method), body?.params, block).settle('blocked');
    governed.settle(null);
    // An id that is itself the match is not echoed: the refusal goes without one.
    const id = block.place === 'request.id' ? null : messageId(request.body);
    return sendJsonRpcError(reply, state.trace, id, new GatewayError('GW_ERR_DLP_BLOCKED', { message: blockedText(block, 'the message') }), 200);
  }
  const { createMcpServer, StreamableHTTPServerTransport } = await loadServerSdk();
  const server = createMcpServer({
    upstream, policies: governed.policies, dlp: governed.dlp, trace: state.trace,
    countCall: countCallOf(services),
  });
  // Stateless: every HTTP request is a whole exchange, so any instance of a hub can answer it.
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  // The transport writes the response itself: the headers gw set (x-request-id) go on the raw response first.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
  reply.hijack();
  countBytesOut(reply.raw, state.trace);
  reply.raw.on('close', () => {
    governed.settle(null);
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
  return undefined;
}

function countCallOf(services: GatewayServices): RecordDeps['countCall'] {
  return (name, tool, outcome, seconds) => {
    services.metrics.mcpCalls.inc({ server: name, tool, outcome });
    services.metrics.mcpCallDuration.observe({ server: name, tool }, seconds);
  };
}

/**
 * gw's MCP server (mcp-gateway.ts, on the SDK's server side) and the SDK's streamable HTTP
 * transport, imported with the first call to /mcp, not at start (src/mcp/load-sdk.ts says why).
 */
interface ServerSdk {
  createMcpServer: typeof import('../mcp/mcp-gateway.js').createMcpServer;
  StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
}

let serverSdk: Promise<ServerSdk> | null = null;

function loadServerSdk(): Promise<ServerSdk> {
  serverSdk ??= Promise.all([import('../mcp/mcp-gateway.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')])
    .then(([gateway, transport]) => ({ createMcpServer: gateway.createMcpServer, StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport }))
    .catch((error: unknown) => { serverSdk = null; throw error; });
  return serverSdk;
}

// JSON-RPC 2.0's own codes (the SDK's ErrorCode has the same values), so a refusal needs no SDK loaded.
const JSON_RPC_INVALID_REQUEST = -32600;
const JSON_RPC_INTERNAL_ERROR = -32603;

/** The id of the JSON-RPC request refused, so the client can match the error to its call. */
function messageId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * A refusal in JSON-RPC. `status`: a refusal of one message's content (DLP) answers 200 with
 * the error, as an MCP server answers a request it refuses, so a client reads it as an MCP
 * error; a notification (no id) has no answer to carry it and gets the refusal's own status.
 */
function sendJsonRpcError(reply: FastifyReply, trace: RequestTrace, id: string | number | null, error: GatewayError, status = error.status): FastifyReply {
  if (!trace.outcome.includes(error.code)) trace.noteOutcome(error.code);
  const code = error.status >= 500 ? JSON_RPC_INTERNAL_ERROR : JSON_RPC_INVALID_REQUEST;
  return reply.code(id === null ? error.status : status).headers(error.headers).type('application/json')
    .send({ jsonrpc: '2.0', id, error: { code, message: error.message, data: { gw_code: error.code, retryable: error.retryable } } });
}

/** The transport writes the response itself (SSE or JSON): its bytes, counted as they go, are the record's bytes_out. */
function countBytesOut(raw: ServerResponse, trace: RequestTrace): void {
  let bytes = 0;
  const count = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? encoding as BufferEncoding : 'utf8');
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
    trace.noteBytesOut(bytes);
  };
  const write = raw.write.bind(raw) as (...args: unknown[]) => boolean;
  const end = raw.end.bind(raw) as (...args: unknown[]) => ServerResponse;
  raw.write = ((chunk: unknown, ...rest: unknown[]) => { count(chunk, rest[0]); return write(chunk, ...rest); }) as ServerResponse['write'];
  raw.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && typeof chunk !== 'function') count(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
}
