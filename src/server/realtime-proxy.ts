// WebSocket routes, served on the Node server's 'upgrade' event (fastify routes never
// see an upgrade): `/v1/realtime` (and under /openai, /litellm) is proxied to the
// provider; the Responses WebSocket transport Codex tries first is refused with 426
// (src/pipeline/responses-websocket.ts); any other upgrade gets a 404. The door's
// checks run on the handshake, and each session writes a `realtime.open` and a
// `realtime.close` audit record with the bytes and events that crossed each way.
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Identity } from '../auth/authenticate.js';
import { GatewayError } from '../errors.js';
import { encodeErrorForFamily } from '../formats/encode-error-for-family.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import { KEY_PROTOCOL_PREFIX, chooseRealtimeTarget, readSubprotocols, type RealtimeTarget } from '../pipeline/realtime-target.js';
import { refuseResponsesWebSocket } from '../pipeline/responses-websocket.js';
import { ROUTE_TABLE, type RouteEntry } from '../pipeline/route-table.js';
import { openUpstreamWebSocket } from '../upstream/upstream-websocket.js';
import type { Door } from './door.js';
import { toGatewayError } from './send-error.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** Realtime events carry base64 audio chunks; a single message above this is refused by ws. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

interface Session {
  id: string;
  route: RouteEntry;
  identity: Identity;
  target: RealtimeTarget;
  origin: string;
  started: number;
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
    if (guarded !== null) return refuse(socket, route.family, guarded);
    // Refused before any credential check: nothing is served, and Codex must fall back at once.
    if (route.operation === 'responses.websocket') return refuse(socket, route.family, refuseResponsesWebSocket());
    promoteKeyProtocol(request);
    const admission = await door.admitUpgrade(request);
    if (!admission.ok) return refuse(socket, route.family, admission.error);
    const target = chooseRealtimeTarget(new URLSearchParams(queryText), request.headers, services);
    const opening = await openUpstreamWebSocket(target.url, target.headers, target.protocols, CONNECT_TIMEOUT_MS);
    if (!opening.ok) {
      if (opening.status === null) return refuse(socket, route.family, new GatewayError('GW_ERR_UPSTREAM_UNREACHABLE', { message: `The provider could not be reached (${opening.failure}).` }));
      return writeHttpResponse(socket, opening.status, { 'content-type': String(opening.headers['content-type'] ?? 'application/json') }, opening.body);
    }
    const session: Session = {
      id: `req_${randomUUID().replace(/-/g, '')}`, route, identity: admission.identity, target,
      origin: request.socket.remoteAddress ?? 'unknown', started: Date.now(),
    };
    sockets.handleUpgrade(request, socket, head, (client) => {
      open.add(client);
      client.once('close', () => open.delete(client));
      bridge(client, opening.socket, session, services);
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

function bridge(client: WebSocket, upstream: WebSocket, session: Session, services: GatewayServices): void {
  const counts = { client_bytes: 0, client_events: 0, provider_bytes: 0, provider_events: 0 };
  let closedBy: 'client' | 'provider' | null = null;
  let closeCode = 1000;
  let pending = 2;
  appendAudit(services, session, 'realtime.open', {});
  const relay = (from: WebSocket, to: WebSocket, side: 'client' | 'provider') => {
    from.on('message', (data: RawData, isBinary: boolean) => {
      counts[`${side}_bytes`] += byteLength(data);
      counts[`${side}_events`] += 1;
      if (to.readyState === to.OPEN) to.send(data, { binary: isBinary });
    });
    from.once('close', (code: number, reason: Buffer) => {
      if (closedBy === null) { closedBy = side; closeCode = code; }
      if (to.readyState === to.OPEN || to.readyState === to.CONNECTING) to.close(sendableCode(code), reason.subarray(0, 123));
      pending -= 1;
      if (pending === 0) finish();
    });
    from.on('error', () => to.terminate());
  };
  const finish = () => {
    appendAudit(services, session, 'realtime.close', { ...counts, closed_by: closedBy ?? 'client', close_code: closeCode, duration_ms: Date.now() - session.started });
    services.metrics.requests.inc({ family: session.route.family, operation: 'realtime', status_class: '1xx' });
  };
  relay(client, upstream, 'client');
  relay(upstream, client, 'provider');
  upstream.resume();
}

function appendAudit(services: GatewayServices, session: Session, kind: 'realtime.open' | 'realtime.close', data: Record<string, string | number>): void {
  const { identity } = session;
  services.audit.append({
    kind, request_id: session.id, origin: session.origin, team: identity.team, key_id: identity.keyId ?? undefined,
    person: identity.person ?? undefined, route: session.route.url, family: session.route.family, operation: 'realtime',
    model: session.target.model, provider: session.target.provider, data,
  }).then(
    () => services.metrics.auditRecords.inc({ kind }),
    () => services.metrics.auditWriteErrors.inc(),
  );
}

/** 1005, 1006 and 1015 describe a close and may not be sent (RFC 6455 §7.4.1). */
function sendableCode(code: number): number {
  if (code === 1005) return 1000;
  if (code === 1006 || code === 1015 || code < 1000 || code >= 5000) return 1011;
  return code;
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function refuse(socket: Duplex, family: RouteEntry['family'], error: GatewayError): void {
  const wire = encodeErrorForFamily(family, error);
  writeHttpResponse(socket, wire.status, { 'content-type': 'application/json', ...wire.headers }, Buffer.from(JSON.stringify(wire.body)));
}

function writeHttpResponse(socket: Duplex, status: number, headers: Record<string, string>, body: Buffer): void {
  if (!socket.writable) return void socket.destroy();
  const lines = Object.entries({ ...headers, 'content-length': String(body.length), connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines}\r\n`), body]));
}
