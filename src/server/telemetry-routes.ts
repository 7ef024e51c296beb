// POST /v1/traces, /v1/metrics and /v1/logs: OTLP/HTTP telemetry (Claude Code's, which the hub's
// managed settings point at gw; or any OpenTelemetry SDK's), JSON or protobuf, chunked or with a
// length, gzip or not. The door has authenticated the caller (TELEMETRY_ROUTES in the route table);
// here the caller's policy and DLP read every string of the batch (attribute values and keys, log
// bodies, span and metric names) as they read a model call's body; a block is refused in OTLP's own
// error shape, nothing relayed. An accepted batch is answered at once and queued for the collector
// gw exports its own spans to (src/telemetry/otlp-relay.ts), unchanged, or re-encoded when a DLP
// rule redacted part of it. Its record (kind `telemetry`, written when the response closes) has
// the counts, never a value; the session is the batch's `session.id` unless a header names one.
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { scanRequestBody } from '../dlp/scan-request.js';
import { GatewayError } from '../errors.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import { governOperation } from '../pipeline/govern/govern-request.js';
import { readSession } from '../pipeline/decode/read-session.js';
import { BUFFERED_BODY_BYTES } from '../pipeline/door/limit-body-size.js';
import { parseJsonBytes, readJsonLayout } from '../pipeline/door/parse-json-bytes.js';
import { TELEMETRY_ROUTES, type RouteEntry } from '../pipeline/route-table.js';
import type { RequestTrace } from '../pipeline/request-trace.js';
import { ClientCancel } from '../upstream/cancel-signal.js';
import { decodeOtlpRequest, encodeOtlpRequest, encodeRpcStatus, type OtlpSignal } from '../telemetry/otlp-schema.js';
import type { OtlpRelay } from '../telemetry/otlp-relay.js';
import { readOtlpBatch } from '../telemetry/read-otlp-batch.js';
import { toGatewayError } from './send-error.js';

const gunzipBounded = promisify(gunzip);

/** The most a batch may hold once decompressed (and its compressed body at most as much). */
const TELEMETRY_BODY_BYTES = BUFFERED_BODY_BYTES;

type Encoding = 'json' | 'protobuf';

const SIGNALS: Record<string, OtlpSignal> = { 'telemetry.traces': 'traces', 'telemetry.metrics': 'metrics', 'telemetry.logs': 'logs' };

export function registerTelemetryRoutes(app: FastifyInstance, services: GatewayServices, relay: OtlpRelay | null): void {
  // Its own scope: these routes read their bodies as bytes (protobuf, gzip) instead of the JSON parser.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: TELEMETRY_BODY_BYTES }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error, request, reply) => sendOtlpError(reply, request.gw.trace, encodingOf(request), toGatewayError(error)));
    for (const route of TELEMETRY_ROUTES) {
      scope.route({ method: route.method, url: route.url, bodyLimit: TELEMETRY_BODY_BYTES, config: { route }, handler: (request, reply) => serveTelemetry(services, relay, route, request, reply) });
    }
  });
}

async function serveTelemetry(services: GatewayServices, relay: OtlpRelay | null, route: RouteEntry, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const state = request.gw;
  const signal = SIGNALS[route.operation] ?? 'traces';
  const encoding = encodingOf(request);
  const count = (outcome: string) => services.metrics.telemetryBatches.inc({ signal, outcome });
  if (encoding === null) {
    count('invalid');
    throw new GatewayError('GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE', { message: 'OTLP/HTTP takes application/x-protobuf or application/json.' });
  }
  const bytes = await readBody(request).catch((error: unknown) => { count(error instanceof GatewayError && error.status === 413 ? 'too_large' : 'invalid'); throw error; });
  let batch: Record<string, unknown>;
  try {
    batch = encoding === 'json' ? parseJson(bytes) : decodeOtlpRequest(signal, bytes);
  } catch {
    count('invalid');
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: `The body is not an OTLP ${signal} export request in ${encoding === 'json' ? 'JSON' : 'protobuf'}.` });
  }
  // The door admitted this authenticated route, so an identity is set; none would be the door's bug.
  const identity = state.identity;
  if (!identity) throw new GatewayError('GW_ERR_AUTH_MISSING');
  const governed = await governOperation({
    id: request.id, method: request.method, route, dialect: route.dialect, params: {}, query: new URLSearchParams(),
    rawPath: request.raw.url ?? request.url, headers: request.headers, body: batch, rawBody: bytes,
    identity, signal: new ClientCancel(),
  }, route.operation, services, state.trace, { limits: false });
  const scan = scanRequestBody(batch, governed.dlp.rules, governed.dlp.cache);
  for (const [rule, matches] of Object.entries(scan.counts)) state.trace.noteDlp(rule, matches);
  const summary = readOtlpBatch(signal, batch);
  noteSession(request, summary.sessions);
  const noted = { signal, encoding, gzip: isGzip(request), resources: summary.resources, items: summary.items, sessions: summary.sessions.length };
  if (scan.blockedBy !== null) {
    count('blocked');
    state.trace.noteData('telemetry', { ...noted, relay: 'none' });
    throw new GatewayError('GW_ERR_DLP_BLOCKED', {
      message: `Blocked by DLP rule "${scan.blockedBy}": this ${signal} batch carries what looks like ${scan.blockedBy.replace(/_/g, ' ')}. The matched text is not shown; nothing was relayed.`,
    });
  }
  if (scan.redacted > 0) state.trace.noteWarning(`dlp_redacted_telemetry: ${scan.redacted}`);
  const relayed = scan.redacted > 0 ? reEncode(signal, encoding, batch) : bytes;
  const queued = relay === null ? 'none' : relay.enqueue({ signal, contentType: encoding === 'json' ? 'application/json' : 'application/x-protobuf', body: relayed }) ? 'queued' : 'queue_full';
  count('accepted');
  services.metrics.telemetryItems.inc({ signal }, summary.items);
  state.trace.noteData('telemetry', { ...noted, relay: queued });
  state.trace.noteOutcome('ok');
  // ExportServiceResponse without partial_success: everything was accepted.
  return encoding === 'json' ? reply.code(200).type('application/json').send('{}') : reply.code(200).type('application/x-protobuf').send(Buffer.alloc(0));
}

function encodingOf(request: FastifyRequest): Encoding | null {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return null;
}

function isGzip(request: FastifyRequest): boolean {
  return (request.headers['content-encoding'] ?? '').trim().toLowerCase() === 'gzip';
}

/** The body as bytes, gunzipped when the exporter compressed it (bounded: a small bomb is refused, not expanded). */
async function readBody(request: FastifyRequest): Promise<Buffer> {
  const body = request.body;
  const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity') return bytes;
  if (encoding !== 'gzip') throw new GatewayError('GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE', { message: `Content-Encoding ${encoding} is not supported: send gzip or none.` });
  try {
    return await gunzipBounded(bytes, { maxOutputLength: TELEMETRY_BODY_BYTES });
  } catch (error) {
    if (error instanceof RangeError) throw new GatewayError('GW_ERR_REQUEST_TOO_LARGE', { message: `The batch is larger than ${TELEMETRY_BODY_BYTES} bytes once decompressed.` });
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The body is not valid gzip.' });
  }
}

function parseJson(bytes: Buffer): Record<string, unknown> {
  const parsed: unknown = parseJsonBytes(bytes, readJsonLayout(bytes));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
  return { ...parsed };
}

function reEncode(signal: OtlpSignal, encoding: Encoding, batch: Record<string, unknown>): Uint8Array {
  return encoding === 'json' ? Buffer.from(JSON.stringify(batch)) : encodeOtlpRequest(signal, batch);
}

/** A batch's session for its record: a session header wins; else Claude Code's `session.id`, read like a header (read-session.ts checks it). */
function noteSession(request: FastifyRequest, sessions: string[]): void {
  const first = sessions[0];
  if (first === undefined || readSession(request.headers).session !== null) return;
  request.headers['x-claude-code-session-id'] = first;
}

/** gRPC's codes, as google.rpc.Status carries them (OTLP/HTTP refusals). */
function grpcCodeOf(status: number): number {
  if (status === 401) return 16; // UNAUTHENTICATED
  if (status === 403) return 7; // PERMISSION_DENIED
  if (status === 413 || status === 429) return 8; // RESOURCE_EXHAUSTED
  if (status === 503) return 14; // UNAVAILABLE
  return status >= 500 ? 13 : 3; // INTERNAL, INVALID_ARGUMENT
}

/**
 * OTLP/HTTP's refusal: a google.rpc.Status in the request's encoding (JSON `{code, message, details}`
 * with gw's catalog code as an ErrorInfo, or protobuf), with the refusal's HTTP status.
 * https://opentelemetry.io/docs/specs/otlp/#failures-1
 */
function sendOtlpError(reply: FastifyReply, trace: RequestTrace | undefined, encoding: Encoding | null, error: GatewayError): FastifyReply {
  if (trace && !trace.outcome.includes(error.code)) trace.noteOutcome(error.code);
  if (trace && error.code === 'GW_ERR_DLP_BLOCKED') trace.noteData('refusal', error.message);
  const code = grpcCodeOf(error.status);
  reply.code(error.status).headers(error.headers);
  if (error.status === 413) reply.header('connection', 'close');
  if (encoding === 'protobuf') return reply.type('application/x-protobuf').send(Buffer.from(encodeRpcStatus(code, error.message)));
  return reply.type('application/json').send({
    code, message: error.message,
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: error.code, domain: 'gw', metadata: { retryable: String(error.retryable) } }],
  });
}
