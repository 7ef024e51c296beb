// The Responses API over WebSocket, served: after the handshake passed the local guard
// and the door (realtime-proxy.ts), each `response.create` message is one call through
// the same corridor as `POST /v1/responses` with stream: true (handleRequest: decode,
// govern, plan, attempt, relay), its SSE events sent back one WebSocket message each,
// and one `request` audit record per turn (data.transport = "websocket"), as for HTTPS.
// Turns run one at a time per connection, in order. A refusal or a provider error is an
// `error` event and the connection stays open for the next turn, as OpenAI's does.
// What is specific to the transport (events, previous_response_id) is in
// src/pipeline/realtime/responses-websocket.ts.
import type { IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import type { Identity } from '../auth/authenticate.js';
import { GatewayError } from '../errors.js';
import { codecForDialect } from '../formats/codec-registry.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import { handleRequest } from '../pipeline/handle-request.js';
import { ResponsesConversation, readCreateEvent } from '../pipeline/realtime/responses-websocket.js';
import { ROUTE_TABLE, type RouteEntry } from '../pipeline/route-table.js';
import { ClientCancel } from '../upstream/cancel-signal.js';
import { refuseUnrecordable } from '../pipeline/door/identify-caller.js';
import { recordCall } from '../pipeline/record/record-call.js';
import { newRequestState, type RequestState } from '../pipeline/request-state.js';
import { toGatewayError } from './send-error.js';
import { isAsyncIterable } from './send-pipeline-response.js';
import { toText } from './websocket-data.js';
import { startCallSpan } from './start-call-span.js';

export interface ResponsesSocket {
  /** The WebSocket route the client connected to (GET …/responses). */
  route: RouteEntry;
  identity: Identity;
  headers: IncomingHttpHeaders;
  origin: string;
}

/** Handshake headers that describe the WebSocket, not the call each turn makes. */
const TRANSPORT_HEADERS = /^(?:connection|upgrade|sec-websocket-.*|content-length|transfer-encoding)$/i;

export function serveResponsesTurns(client: WebSocket, socket: ResponsesSocket, services: GatewayServices): void {
  const createRoute = ROUTE_TABLE.find((entry) => entry.method === 'POST' && entry.url === socket.route.url && entry.operation === 'responses.create');
  if (createRoute === undefined) throw new Error(`no POST route beside ${socket.route.url}`);
  const headers = turnHeaders(socket.headers);
  // One socket, one session: every turn's record carries the handshake's session and agent.
  const lineageSource = { headers: socket.headers };
  const conversation = new ResponsesConversation();
  const cancel = new ClientCancel();
  client.once('close', () => cancel.abort(new Error('client went away')));
  let turns = Promise.resolve();
  client.on('message', (data: RawData, isBinary: boolean) => {
    const text = isBinary ? null : toText(data);
    turns = turns.then(() => runTurn(text)).catch((error: unknown) => {
      services.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'responses websocket turn failed');
    });
  });

  async function runTurn(text: string | null): Promise<void> {
    if (cancel.aborted) return;
    const state: RequestState = { ...newRequestState(createRoute!, createRoute!.dialect), identity: socket.identity, origin: socket.origin };
    state.trace.noteData('transport', 'websocket');
    const id = `req_${randomUUID().replace(/-/g, '')}`;
    startCallSpan(services, state.trace, { requestId: id, method: 'POST', route: createRoute!.url, operation: createRoute!.operation, headers });
    let status = 200;
    // The client had the whole turn (response.completed): closing the socket right after is not leaving mid-turn.
    let delivered = false;
    try {
      const body = admitTurn(text, services);
      const expanded = conversation.expand(body);
      const rawBody = Buffer.from(JSON.stringify(expanded));
      state.rawBody = rawBody;
      const response = await handleRequest({
        id, method: 'POST', route: createRoute!, dialect: createRoute!.dialect, params: {}, query: new URLSearchParams(),
        rawPath: createRoute!.url, headers, body: JSON.parse(rawBody.toString('utf8')) as unknown, rawBody, identity: socket.identity, signal: cancel,
      }, services, state.trace);
      status = response.status;
      state.overheadSeconds = Number(process.hrtime.bigint() - state.startedAt - state.trace.upstreamNanos) / 1e9;
      if (status >= 400 || !isAsyncIterable(response.body)) {
        sendEvent(client, errorEvent(status, response.body));
        return;
      }
      const completed = await relayEvents(response.body, client, cancel);
      delivered = completed !== null;
      if (completed !== null) conversation.remember(completed.id, expanded, completed.output);
    } catch (error) {
      const refusal = toGatewayError(error);
      if (!state.trace.outcome.includes(refusal.code)) state.trace.noteOutcome(refusal.code);
      const wire = codecForDialect(createRoute!.dialect).encodeError(refusal);
      status = wire.status;
      sendEvent(client, errorEvent(status, wire.body));
    } finally {
      await recordCall(services, {
        id, method: 'POST', url: createRoute!.url, state, clientLeft: cancel.aborted && !state.trace.finished && !delivered, status,
        origin: socket.origin, bytesIn: state.rawBody?.length ?? Buffer.byteLength(text ?? ''), contentLength: 0, lineageSource,
      });
    }
  }
}

/** The checks the door makes on an HTTP body, for one message: size, and a trail that can take the record (the same stage, identify-caller.ts). */
function admitTurn(text: string | null, services: GatewayServices): Record<string, unknown> {
  if (text === null) throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'Binary WebSocket messages are not events: send response.create as JSON text.' });
  const settings = services.state.snapshot().settings;
  if (Buffer.byteLength(text) > settings.body_limit_bytes) throw new GatewayError('GW_ERR_REQUEST_TOO_LARGE');
  const unrecordable = refuseUnrecordable(services, settings);
  if (unrecordable !== null) throw unrecordable;
  const event = readCreateEvent(text);
  if (!event.ok) throw event.error;
  return event.body;
}

/** Sends each SSE event's data as one message; returns the completed response's id and output, if it completed. */
async function relayEvents(body: AsyncIterable<Uint8Array | string>, client: WebSocket, cancel: ClientCancel): Promise<{ id: string; output: unknown[] } | null> {
  const decoder = new TextDecoder();
  let pending = '';
  let completed: { id: string; output: unknown[] } | null = null;
  const flush = (frame: string) => {
    const data = frame.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(line.startsWith('data: ') ? 6 : 5)).join('\n');
    if (data === '' || data === '[DONE]') return;
    if (data.includes('"response.completed"')) completed = readCompleted(data) ?? completed;
    sendEvent(client, data);
  };
  try {
    for await (const chunk of body) {
      if (cancel.aborted) break;
      pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      const frames = pending.split(/\r?\n\r?\n/);
      pending = frames.pop() ?? '';
      for (const frame of frames) flush(frame);
    }
    if (pending.trim() !== '') flush(pending);
  } catch {
    // A stream cut on purpose (output DLP) or by the provider: the relay already sent its terminal event, the trace holds why.
  }
  return completed;
}

function readCompleted(data: string): { id: string; output: unknown[] } | null {
  try {
    const event = JSON.parse(data) as { type?: unknown; response?: { id?: unknown; output?: unknown } };
    if (event.type !== 'response.completed' || typeof event.response?.id !== 'string') return null;
    return { id: event.response.id, output: Array.isArray(event.response.output) ? event.response.output : [] };
  } catch {
    return null;
  }
}

/** OpenAI's WebSocket error event: {type: "error", status, error: {type, code, message, param}}. */
function errorEvent(status: number, body: unknown): string {
  const error = typeof body === 'object' && body !== null && 'error' in body ? body.error : parseError(body);
  return JSON.stringify({ type: 'error', status, error });
}

function parseError(body: unknown): unknown {
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : '';
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    return parsed.error ?? parsed;
  } catch {
    return { type: 'api_error', code: null, message: text.slice(0, 500) || 'The provider answered with an error.', param: null };
  }
}

function turnHeaders(headers: IncomingHttpHeaders): Record<string, string | string[] | undefined> {
  const kept: Record<string, string | string[] | undefined> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  for (const [name, value] of Object.entries(headers)) {
    if (TRANSPORT_HEADERS.test(name) || name === 'accept' || name === 'content-type') continue;
    // The WebSocket beta flag describes this connection; the provider is called over HTTPS.
    if (name === 'openai-beta' && typeof value === 'string' && value.includes('responses_websockets')) continue;
    kept[name] = value;
  }
  return kept;
}

function sendEvent(client: WebSocket, data: string): void {
  if (client.readyState === client.OPEN) client.send(data);
}
