// WebSocket routes, served on the Node server's 'upgrade' event (fastify routes never
// see an upgrade): `/v1/realtime` (and under /openai, /litellm) is proxied to the
// provider; the Responses WebSocket transport Codex tries first is served turn by turn
// through the HTTPS corridor (responses-websocket-turns.ts); any other upgrade gets a 404. A realtime
// handshake passes the same corridor as an HTTP call: the door, then decode, govern,
// plan and attempt (src/pipeline/realtime/realtime-session.ts); a refusal answers the handshake
// with its HTTP status. Each handshake past the door writes a `realtime.open` record
// (status 101, or the refusal's status and code), and each session a `realtime.close`
// with bytes and events each way, DLP counts and the tokens of its responses.
import { readLineage, type Lineage } from '../pipeline/decode/read-lineage.js';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Identity } from '../auth/authenticate.js';
import { GatewayError } from '../errors.js';
import { codecForDialect } from '../formats/codec-registry.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { AuditFields, AuditTokens } from '../audit/record.js';
import { statusClass } from '../metrics/gateway-metrics.js';
import { callerDlp, type Governed } from '../pipeline/govern/govern-request.js';
import { RequestTrace } from '../pipeline/request-trace.js';
import { openRealtimeSession, releaseRealtimeHold, type RealtimeSession } from '../pipeline/realtime/realtime-session.js';
import { RealtimeSpend, settleRealtimeSession } from '../pipeline/realtime/realtime-spend.js';
import { KEY_PROTOCOL_PREFIX, readSubprotocols } from '../pipeline/door/read-subprotocols.js';
import { newRealtimeDlpTally, scanClientEvent } from '../pipeline/realtime/scan-realtime-event.js';
import { createRealtimeOutputWatcher } from '../pipeline/realtime/watch-realtime-output.js';
import { ROUTE_TABLE, type RouteEntry } from '../pipeline/route-table.js';
import { ClientCancel } from '../upstream/cancel-signal.js';
import type { Door } from './door.js';
import { CLIENT_CLOSED_REQUEST } from '../pipeline/record/record-call.js';
import { serveResponsesTurns } from './responses-websocket-turns.js';
import { byteLength, toText } from './websocket-data.js';
import { toGatewayError } from './send-error.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** Realtime events carry base64 audio chunks; a single message above this is refused by ws. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** 1008: "policy violation" (RFC 6455 §7.4.1), sent when output DLP stops a session. */
const POLICY_VIOLATION = 1008;

interface Session {
  id: string;
  route: RouteEntry;
  identity: Identity;
  origin: string;
  started: number;
  /** What the corridor learned (model, provider, warnings, attempts), for both audit records. */
  trace: RequestTrace;
  /** The session and agent of the handshake (docs/sessions.md), on both records. */
  lineage: Lineage;
}

/** Serves WebSocket upgrades on the gateway's server; open sessions are closed when the server stops. */
export function attachRealtimeProxy(app: FastifyInstance, services: GatewayServices, door: Door): void {
  const open = new Set<WebSocket>();
  const sockets = new WebSocketServer({
    noServer: true, perMessageDeflate: false, maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (protocols) => [...protocols].find((protocol) => !protocol.startsWith(KEY_PROTOCOL_PREFIX)) ?? false,
  });
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(request, socket, head).catch((error: unknown) => refuse(socket, 'openai', toGatewayError(error)));
  });
  // 1001 "going away": clients reconnect elsewhere; the server's close would otherwise wait for them.
  app.addHook('preClose', (done) => { for (const client of open) client.close(1001, 'gateway stopping'); done(); });

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const [path = '/', queryText = ''] = (request.url ?? '/').split('?');
    const route = ROUTE_TABLE.find((entry) => entry.method === 'GET' && entry.url === path && (entry.operation === 'realtime' || entry.operation === 'responses.websocket'));
    if (!route) return refuse(socket, 'openai', new GatewayError('GW_ERR_ROUTE_NOT_FOUND', { message: `No WebSocket route ${path} on this gateway.` }));
    const guarded = door.guardUpgrade(request);
    if (guarded !== null) return refuse(socket, route.dialect, guarded);
    promoteKeyProtocol(request);
    const admission = await door.admitUpgrade(request);
    if (!admission.ok) return refuse(socket, route.dialect, admission.error);
    if (route.operation === 'responses.websocket') {
      const origin = request.socket.remoteAddress ?? 'unknown';
      return sockets.handleUpgrade(request, socket, head, (client) => {
        open.add(client);
        client.once('close', () => open.delete(client));
        serveResponsesTurns(client, { route, identity: admission.identity, headers: request.headers, origin }, services);
      });
    }
    const session: Session = {
      id: `req_${randomUUID().replace(/-/g, '')}`, route, identity: admission.identity,
      origin: request.socket.remoteAddress ?? 'unknown', started: Date.now(), trace: new RequestTrace(),
      lineage: readLineage(request.headers, undefined, callerDlp(services, admission.identity.team, admission.identity.keyId)),
    };
    // A session or agent the caller's DLP rules refused: named on realtime.open by its rule, never its value.
    for (const warning of session.lineage.warnings) session.trace.noteWarning(warning);
    // The corridor (src/pipeline/realtime/realtime-session.ts): govern, plan, attempt, before the client's handshake is answered.
    const cancel = new ClientCancel();
    const onGone = () => cancel.abort(new Error('client went away'));
    socket.once('close', onGone);
    let opened: RealtimeSession;
    try {
      opened = await openRealtimeSession({ id: session.id, route, query: new URLSearchParams(queryText), headers: request.headers, identity: admission.identity, signal: cancel }, services, session.trace, CONNECT_TIMEOUT_MS);
    } catch (error) {
      const refusal = toGatewayError(error);
      recordOpen(services, session, refusal.status, [refusal.code]);
      return refuse(socket, route.dialect, refusal);
    } finally {
      socket.off('close', onGone);
    }
    const { connection, governed } = opened;
    if (connection.socket === null) {
      recordOpen(services, session, connection.status, [`upstream_${connection.status}`]);
      return writeHttpResponse(socket, connection.status, { 'content-type': String(connection.headers['content-type'] ?? 'application/json') }, connection.body);
    }
    const upstream = connection.socket;
    if (cancel.aborted || !socket.writable) {
      upstream.terminate();
      return recordOpen(services, session, CLIENT_CLOSED_REQUEST, ['client_disconnected']);
    }
    // ws answers a malformed handshake itself and never calls back: the provider's socket must not outlive it.
    let bridged = false;
    socket.once('close', () => { if (!bridged) { upstream.terminate(); releaseRealtimeHold(session.trace); } });
    sockets.handleUpgrade(request, socket, head, (client) => {
      bridged = true;
      open.add(client);
      client.once('close', () => open.delete(client));
      recordOpen(services, session, 101, ['ok']);
      bridge(client, upstream, session, governed, services);
    });
  }
}

/** A gw key in the `openai-insecure-api-key.` subprotocol is read like one in x-gw-vk (unless a header already has one). */
function promoteKeyProtocol(request: IncomingMessage): void {
  const key = readSubprotocols(request.headers).find((protocol) => protocol.startsWith(KEY_PROTOCOL_PREFIX))?.slice(KEY_PROTOCOL_PREFIX.length);
  if (key === undefined || !key.startsWith('sk-gw-') || request.headers['x-gw-vk'] !== undefined) return;
  request.headers['x-gw-vk'] = key;
  request.rawHeaders.push('x-gw-vk', key);
}

/**
 * Relays events both ways. Client text events pass DLP first (a block answers the client with an
 * `error` event and drops that one event); provider events are watched for usage and, with output
 * scanning on, for generated text (a block ends the session with 1008). Binary frames pass unscanned.
 */
function bridge(client: WebSocket, upstream: WebSocket, session: Session, governed: Governed, services: GatewayServices): void {
  const counts = { client_bytes: 0, client_events: 0, provider_bytes: 0, provider_events: 0 };
  const tally = newRealtimeDlpTally();
  const output = createRealtimeOutputWatcher(governed.dlp, tally, newEventId);
  // While a budget holds the session: what passes, for the share of a response cut before its usage.
  const spend = session.trace.budget ? new RealtimeSpend() : null;
  let closedBy: 'client' | 'provider' | 'gateway' | null = null;
  let closeCode = 1000;
  let pending = 2;
  client.on('message', (data: RawData, isBinary: boolean) => {
    counts.client_bytes += byteLength(data);
    counts.client_events += 1;
    if (closedBy === 'gateway') return;
    if (isBinary) { tally.unscanned += 1; return sendIfOpen(upstream, data, true); }
    const text = toText(data);
    const verdict = scanClientEvent(text, governed.dlp, tally, newEventId);
    if (verdict.action === 'refuse') return sendIfOpen(client, verdict.reply, false);
    spend?.clientEvent(verdict.data ?? text);
    sendIfOpen(upstream, verdict.data ?? data, false);
  });
  upstream.on('message', (data: RawData, isBinary: boolean) => {
    counts.provider_bytes += byteLength(data);
    counts.provider_events += 1;
    if (closedBy === 'gateway') return;
    if (isBinary) return sendIfOpen(client, data, true);
    const text = toText(data);
    const verdict = output.inspect(text);
    const finished = spend?.providerEvent(text);
    if (spend && finished) void chargeResponse(spend, finished);
    if (verdict.action === 'forward') return sendIfOpen(client, data, false);
    closedBy = 'gateway';
    closeCode = POLICY_VIOLATION;
    session.trace.noteOutcome('GW_ERR_DLP_BLOCKED');
    sendIfOpen(client, verdict.reply, false);
    client.close(POLICY_VIOLATION, 'dlp_blocked');
    upstream.close(POLICY_VIOLATION, 'dlp_blocked');
  });
  // A finished response is charged at once; a hard budget it spent ends the session (1008) before the next.
  const chargeResponse = async (watch: RealtimeSpend, tokens: AuditTokens) => {
    const refusal = await watch.chargeResponse(services, session.trace, session.identity, tokens).catch(() => null);
    if (refusal === null || closedBy !== null) return;
    closedBy = 'gateway';
    closeCode = POLICY_VIOLATION;
    session.trace.noteOutcome(refusal.code);
    sendIfOpen(client, JSON.stringify({ type: 'error', event_id: newEventId(), error: { type: 'invalid_request_error', code: 'budget_exceeded', message: refusal.message } }), false);
    client.close(POLICY_VIOLATION, 'budget_exceeded');
    upstream.close(POLICY_VIOLATION, 'budget_exceeded');
  };
  const onClose = (from: WebSocket, to: WebSocket, side: 'client' | 'provider') => {
    from.once('close', (code: number, reason: Buffer) => {
      if (closedBy === null) { closedBy = side; closeCode = code; }
      if (to.readyState === to.OPEN || to.readyState === to.CONNECTING) to.close(sendableCode(code), reason.subarray(0, 123));
      pending -= 1;
      if (pending === 0) void finish();
    });
    from.on('error', () => to.terminate());
  };
  const finish = async () => {
    governed.settle(output.tokens());
    const { trace } = session;
    const cost = await settleRealtimeSession(services, trace, output.tokens(), spend).catch((error: unknown) => {
      services.logger.error({ request_id: session.id, err: error instanceof Error ? error.message : String(error) }, 'realtime session not settled');
      return null;
    });
    appendAudit(services, session, {
      kind: 'realtime.close', tokens: trace.tokens ?? undefined, cost: cost ?? undefined, outcome: trace.outcome.length > 0 ? trace.outcome : ['ok'],
      dlp: Object.keys(tally.counts).length > 0 ? tally.counts : undefined,
      data: {
        ...counts, closed_by: closedBy ?? 'client', close_code: closeCode, duration_ms: Date.now() - session.started,
        dlp_blocked_events: tally.blockedEvents, dlp_redacted_events: tally.redactedEvents, dlp_unscanned: tally.unscanned,
      },
    });
    services.metrics.requests.inc({ family: session.route.dialect, operation: 'realtime', status_class: '1xx' });
  };
  onClose(client, upstream, 'client');
  onClose(upstream, client, 'provider');
  upstream.resume();
}

function sendIfOpen(socket: WebSocket, data: RawData | string, binary: boolean): void {
  if (socket.readyState === socket.OPEN) socket.send(data, { binary });
}

function newEventId(): string {
  return `event_gw_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
}

/** How the handshake ended: 101 (bridged), a refusal by gw or the provider, or a client gone meanwhile. */
function recordOpen(services: GatewayServices, session: Session, status: number, outcome: string[]): void {
  const { trace } = session;
  if (status !== 101) releaseRealtimeHold(trace);
  services.metrics.requests.inc({ family: session.route.dialect, operation: 'realtime', status_class: statusClass(status) });
  appendAudit(services, session, {
    kind: 'realtime.open', status, outcome, latency_ms: Date.now() - session.started,
    warnings: trace.warnings.length > 0 ? trace.warnings : undefined,
    data: Object.keys(trace.data).length > 0 ? trace.data : undefined,
  });
}

function appendAudit(services: GatewayServices, session: Session, fields: Pick<AuditFields, 'kind'> & Partial<AuditFields>): void {
  const { identity, trace } = session;
  services.audit.append({
    request_id: session.id, origin: session.origin, team: identity.team, key_id: identity.keyId ?? undefined,
    person: identity.person ?? undefined, route: session.route.url, family: session.route.dialect, operation: 'realtime',
    model: trace.usageModel ?? undefined, provider: trace.provider ?? undefined, rule: trace.rule ?? undefined,
    session: session.lineage.session ?? undefined, agent: session.lineage.agent ?? undefined, ...fields,
  }).then(
    () => services.metrics.auditRecords.inc({ kind: fields.kind }),
    () => services.metrics.auditWriteErrors.inc(),
  );
}

/** 1005, 1006 and 1015 describe a close and may not be sent (RFC 6455 §7.4.1). */
function sendableCode(code: number): number {
  if (code === 1005) return 1000;
  if (code === 1006 || code === 1015 || code < 1000 || code >= 5000) return 1011;
  return code;
}

function refuse(socket: Duplex, dialect: RouteEntry['dialect'], error: GatewayError): void {
  const wire = codecForDialect(dialect).encodeError(error);
  writeHttpResponse(socket, wire.status, { 'content-type': 'application/json', ...wire.headers }, Buffer.from(JSON.stringify(wire.body)));
}

function writeHttpResponse(socket: Duplex, status: number, headers: Record<string, string>, body: Buffer): void {
  if (!socket.writable) return void socket.destroy();
  const lines = Object.entries({ ...headers, 'content-length': String(body.length), connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines}\r\n`), body]));
}
