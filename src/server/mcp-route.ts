// POST /mcp (GET and DELETE answered 405: a stateless server has no stream or session): the MCP gateway
// (src/mcp) behind the same door as inference, in MCP 2026-07-28, 2025-11-25 or 2025-06-18, as the
// agent speaks (the 2.x SDK's createMcpHandler tells them apart per request). The door has
// authenticated the caller; before the body is read, a request whose Mcp-Method/Mcp-Name headers
// name what the caller's policy refuses is refused (src/mcp/mcp-headers.ts), and after it is read,
// one whose headers and body disagree. governOperation applies the caller's policies and rate limits
// and resolves their DLP rules; the request's audit record (written when the response
// closes) carries what src/mcp noted: the MCP method, server and tool, the call's status and
// duration, DLP rule ids, outcome, and the bytes each way. Refusals here answer in JSON-RPC
// (the caller's wire format), with the HTTP status and catalog code of the refusal.
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UpstreamServers } from '../mcp/upstream-servers.js';
import { headerMismatch, headerTarget, readMcpHeaders } from '../mcp/mcp-headers.js';
import { agentHandling, recordedMethod } from '../mcp/mcp-methods.js';
import { evaluateMcpAccess } from '../policy/evaluate-mcp-access.js';
import { policiesFor } from '../policy/policy-record.js';
import { RelayCall, type RecordDeps } from '../mcp/relay-call.js';
import { blockedText, scanMcpMessage, textMatches } from '../mcp/scan-mcp-message.js';
import { callerDlp, governOperation } from '../pipeline/govern/govern-request.js';
import { guardValueInPlace } from '../pipeline/govern/guard-texts.js';
import type { PipelineRequest } from '../pipeline/pipeline-types.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { RequestTrace } from '../pipeline/request-trace.js';
import type { RouteEntry } from '../pipeline/route-table.js';
import { GatewayError } from '../errors.js';
import { ClientCancel } from '../upstream/cancel-signal.js';

export const MCP_ROUTE: RouteEntry = { method: 'POST', url: '/mcp', dialect: 'operational', operation: 'mcp', authenticated: true, jsonBody: true };

export function registerMcpRoute(app: FastifyInstance, services: GatewayServices, upstream: UpstreamServers): void {
  app.route({
    method: ['POST', 'GET', 'DELETE'], url: '/mcp', config: { route: MCP_ROUTE },
    preParsing: async (request, reply, payload) => {
      const refused = refuseByHeaders(services, upstream, request);
      if (refused !== null) return sendJsonRpcError(reply, request.gw.trace, null, refused);
      return payload;
    },
    handler: (request, reply) => serveMcp(services, upstream, request, reply),
  });
}

/**
 * The caller's policy on what the Mcp-Method/Mcp-Name headers name, before a byte of the body
 * is read: a refusal here is the relay's own refusal, earlier (the relays decide again on the
 * body, which must agree with the headers). Only enforced refusals; shadow ones are noted by the relay.
 */
function refuseByHeaders(services: GatewayServices, upstream: UpstreamServers, request: FastifyRequest): GatewayError | null {
  const identity = request.gw.identity;
  if (request.method !== 'POST' || !identity) return null;
  const headers = readMcpHeaders(request.headers);
  const target = headerTarget(headers);
  // A name a DLP rule matches is left to the body's path, which blocks it without echoing or recording it.
  if (target === null || textMatches(callerDlp(services, identity.team, identity.keyId), headers.name ?? '')) return null;
  const policies = policiesFor(services.state.snapshot().policies ?? [], identity.team, identity.keyId);
  const refusal = evaluateMcpAccess(policies, target.server, target.capability).find((candidate) => !candidate.shadow);
  if (refusal === undefined) return null;
  const method = recordedMethod(headers.method);
  const params = method === 'resources/read' ? { uri: headers.name } : { name: headers.name };
  new RelayCall({ upstream, trace: request.gw.trace, countCall: countCallOf(services) }, method, params).settle('refused');
  return new GatewayError('GW_ERR_POLICY_DENIED', { message: `Refused by ${refusal.reason}.` });
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
  const mismatch = headerMismatch(readMcpHeaders(request.headers), request.body);
  if (mismatch !== null) {
    state.trace.noteData('mcp', { method: recordedMethod(messageMethod(request.body)), status: 'refused', header_mismatch: mismatch });
    return sendJsonRpcError(reply, state.trace, messageId(request.body), new GatewayError('GW_ERR_MCP_HEADER_MISMATCH', {
      message: `The ${mismatch} header and the JSON-RPC body disagree (or a 2026-07-28 request left it out): gw decides on the header before it reads the body, so it must name the body's ${mismatch === 'Mcp-Method' ? 'method' : 'params.name (params.uri for resources/read)'}.`,
    }), undefined, JSON_RPC_HEADER_MISMATCH);
  }
  let governed;
  const pipelineRequest: PipelineRequest = {
    id: request.id, method: request.method, route: MCP_ROUTE, dialect: 'operational', params: {}, query: new URLSearchParams(),
    rawPath: request.raw.url ?? request.url, headers: request.headers, body: request.body, rawBody: state.rawBody,
    identity: state.identity!, signal: new ClientCancel(),
  };
  try {
    governed = await governOperation(pipelineRequest, 'mcp', services, state.trace);
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
  // A method gw refuses never reaches the SDK (which would hold a subscriptions/listen stream open itself).
  if (agentHandling(body?.method) === 'refused') {
    governed.settle(null);
    return reply.code(200).type('application/json').send({ jsonrpc: '2.0', id: messageId(body), error: { code: JSON_RPC_METHOD_NOT_FOUND, message: 'Method not found' } });
  }
  const { createMcpServer, createMcpHandler } = await loadServerSdk();
  const guardContext = { request: pipelineRequest, services, trace: state.trace, model: null, operation: 'mcp.tools/call' };
  const context = {
    upstream, policies: governed.policies, dlp: governed.dlp, trace: state.trace, countCall: countCallOf(services),
    guard: (phase: 'pre' | 'post', value: unknown) => guardValueInPlace(guardContext, phase, value),
  };
  // One handler per request, over a server made for this caller: the SDK serves 2026-07-28 itself
  // and an older revision's stateless exchange through its fallback, each from the same relays.
  const handler = createMcpHandler(() => createMcpServer(context), { legacy: 'stateless' });
  const aborted = new AbortController();
  reply.raw.on('close', () => {
    aborted.abort();
    governed.settle(null);
    void handler.close().catch(() => undefined);
  });
  const response = await handler.fetch(webRequestOf(request, aborted.signal), { parsedBody: body });
  // The SDK answers with a web Response: the headers gw set (x-request-id) go first, then its own, then its body.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
  reply.hijack();
  countBytesOut(reply.raw, state.trace);
  reply.raw.statusCode = response.status;
  response.headers.forEach((value, name) => reply.raw.setHeader(name, value));
  if (response.body === null) {
    reply.raw.end();
    return undefined;
  }
  Readable.fromWeb(response.body).on('error', () => reply.raw.destroy()).pipe(reply.raw);
  return undefined;
}

/** The request as the SDK's web-standard handler reads it; its body is handed over parsed (and as DLP left it). */
function webRequestOf(request: FastifyRequest, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // A fixed origin: the caller's Host header is not a URL gw parses (the SDK's entry reads only the path).
  return new Request(new URL(request.raw.url ?? '/mcp', 'http://gw.invalid'), { method: 'POST', headers, signal });
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
  createMcpHandler: typeof import('@modelcontextprotocol/server').createMcpHandler;
}

let serverSdk: Promise<ServerSdk> | null = null;

function loadServerSdk(): Promise<ServerSdk> {
  serverSdk ??= Promise.all([import('../mcp/mcp-gateway.js'), import('@modelcontextprotocol/server')])
    .then(([gateway, sdk]) => ({ createMcpServer: gateway.createMcpServer, createMcpHandler: sdk.createMcpHandler }))
    .catch((error: unknown) => { serverSdk = null; throw error; });
  return serverSdk;
}

// JSON-RPC 2.0's own codes (the SDK's ErrorCode has the same values), so a refusal needs no SDK loaded.
const JSON_RPC_INVALID_REQUEST = -32600;
const JSON_RPC_INTERNAL_ERROR = -32603;
const JSON_RPC_METHOD_NOT_FOUND = -32601;
/** MCP 2026-07-28's HeaderMismatch. */
const JSON_RPC_HEADER_MISMATCH = -32020;

/** The id of the JSON-RPC request refused, so the client can match the error to its call. */
function messageMethod(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'method' in body ? body.method : undefined;
}

function messageId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * A refusal in JSON-RPC. `status`: a refusal of one message's content (DLP) answers 200 with
 * the error, as an MCP server answers a request it refuses, so a client reads it as an MCP
 * error; a notification (no id) has no answer to carry it and gets the refusal's own status.
 */
function sendJsonRpcError(reply: FastifyReply, trace: RequestTrace, id: string | number | null, error: GatewayError, status = error.status, jsonRpcCode?: number): FastifyReply {
  if (!trace.outcome.includes(error.code)) trace.noteOutcome(error.code);
  const code = jsonRpcCode ?? (error.status >= 500 ? JSON_RPC_INTERNAL_ERROR : JSON_RPC_INVALID_REQUEST);
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
