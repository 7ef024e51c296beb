// The only code that knows fastify: builds the server, mounts the route table,
// wires the door, the body parsers, the error handler and the recording of each
// request. The data-plane work itself is src/pipeline/handle-request.ts.
import http from 'node:http';
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import { handleRequest } from '../pipeline/handle-request.js';
import { ROUTE_TABLE, TELEMETRY_ROUTES, guessDialect, type RouteEntry } from '../pipeline/route-table.js';
import { registerBodyParsers } from './body-parsers.js';
import { attachRealtimeProxy } from './realtime-proxy.js';
import { createDoor, routeNotFound, type Door } from './door.js';
import { checkHealth } from './health.js';
import { recordCall } from '../pipeline/record/record-call.js';
import { newRequestState } from '../pipeline/request-state.js';
import { readFinishedCall } from './finished-call.js';
import { sendError, toGatewayError } from './send-error.js';
import { sendPipelineResponse } from './send-pipeline-response.js';
import { startCallSpan } from './start-call-span.js';
import { MAX_BODY_LIMIT_BYTES, limitBodySize } from '../pipeline/door/limit-body-size.js';
import type { PersonalIdentity } from '../auth/personal-identity.js';
import type { HubContext } from '../hub/hub-context.js';
import { registerHubRoutes } from './hub-routes.js';
import { registerAdminRoutes, type AdminServerContext } from './admin-routes.js';
import { registerMcpRoute } from './mcp-route.js';
import { registerTelemetryRoutes } from './telemetry-routes.js';
import type { OtlpRelay } from '../telemetry/otlp-relay.js';
import type { UpstreamServers } from '../mcp/upstream-servers.js';
import { ClientCancel } from '../upstream/cancel-signal.js';
import { renderProtocol } from '../pipeline/govern/render-protocol.js';
import { GATEWAY_VERSION } from '../pipeline/govern/upstream-headers.js';

export interface ServerOptions {
  tls?: { cert: Buffer; key: Buffer };
  /** Bound on receiving a whole request (fastify's default 0 would turn Node's protection off). */
  requestTimeoutMs?: number;
  /** A hub: serve the device-login routes (src/hub). */
  hub?: HubContext;
  /** How atu- tokens, person proofs and a sidecar's default identity resolve at the door. */
  people?: PersonalIdentity;
  /** The MCP servers /mcp fronts (src/mcp); every gw serves /mcp. */
  mcp?: UpstreamServers;
  /** A hub: serve the admin API (/admin/api) and console (/ui). */
  admin?: AdminServerContext;
  /** Sidecar: every request and upgrade must pass the local guard (src/sidecar/loopback-guard.ts); otherwise only calls served on default_team. */
  loopbackOnly?: boolean;
  /** Sidecar with --allow-remote-sidecar: the non-loopback peers it serves (--allow-remote-peer). */
  remotePeer?: (address: string) => boolean;
  /** Where accepted OTLP telemetry goes (the collector gw exports its spans to), or none. */
  otlpRelay?: OtlpRelay | null;
}

export interface GatewayServer {
  app: FastifyInstance;
  door: Door;
}

function createNodeServer(options: ServerOptions) {
  // Node checks header/request time-outs only every connectionsCheckingInterval (30 s by
  // default), which lets a slowloris connection live that long; check every second.
  const serverOptions = {
    connectionsCheckingInterval: 1000, headersTimeout: 15_000, requestTimeout: options.requestTimeoutMs ?? 120_000, maxHeaderSize: 16 * 1024,
    // fastify applies its own keepAliveTimeout only to servers it creates; stay above common load balancers' 60 s.
    keepAliveTimeout: 72_000,
  };
  return (handler: http.RequestListener) => options.tls
    ? https.createServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, handler)
    : http.createServer(serverOptions, handler);
}

export async function buildServer(services: GatewayServices, options: ServerOptions = {}): Promise<GatewayServer> {
  const settings = services.state.snapshot().settings;
  const app = Fastify({
    logger: false,
    serverFactory: createNodeServer(options),
    // The live limit (setting body_limit_bytes) is enforced at the door and while reading; this is only the ceiling.
    bodyLimit: MAX_BODY_LIMIT_BYTES,
    requestTimeout: options.requestTimeoutMs ?? 120_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    trustProxy: settings.trusted_proxies.length > 0 ? settings.trusted_proxies : false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    genReqId: () => `req_${randomUUID().replace(/-/g, '')}`,
  });
  const door = createDoor(services, options.people ?? null, { loopbackOnly: options.loopbackOnly === true, ...(options.remotePeer ? { remotePeer: options.remotePeer } : {}) });
  app.decorateRequest('gw');
  registerBodyParsers(app);
  attachRealtimeProxy(app, services, door);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // `on`, not `once`: the response closes once, and a once-wrapper's removal is a cost on every request.
    reply.raw.on('close', () => {
      const call = readFinishedCall(request, reply);
      if (call !== null) void recordCall(services, call);
    });
    const refused = door.guardRequest(request);
    if (refused !== null) {
      request.gw = newRequestState(null, guessDialect(request.url));
      // Counted into guard.refused_burst instead of a per-request record.
      request.gw.refusedAtDoor = true;
      return sendError(reply, request.gw.dialect, refused, { closeConnection: true });
    }
    return door.onRequest(request, reply);
  });
  app.addHook('preParsing', async (request, _reply, payload) => limitBodySize(payload, door.bodySizeRule(request)));
  app.setErrorHandler((error, request, reply) => {
    const dialect = request.gw?.dialect ?? guessDialect(request.url);
    const gatewayError = toGatewayError(error);
    if (gatewayError.code === 'GW_ERR_SERVER_INTERNAL') services.logger.error({ request_id: request.id, err: error }, 'unexpected error');
    // Refused while the body was still arriving: the rest is not read, so the connection cannot be reused.
    const midBody = gatewayError.status === 413 || gatewayError.code === 'GW_ERR_KEY_MEMORY_BUSY' || gatewayError.code === 'GW_ERR_SERVER_MEMORY_BUSY';
    return sendError(reply, dialect, gatewayError, { closeConnection: midBody });
  });
  app.setNotFoundHandler((request, reply) => {
    request.gw ??= newRequestState(null, guessDialect(request.url));
    return sendError(reply, request.gw.dialect, routeNotFound(request.method, request.url));
  });

  app.get('/health', { config: { route: operational('GET', '/health', 'health') } }, async (_request, reply) => {
    const report = checkHealth(services);
    return reply.code(report.status === 'down' ? 503 : 200).send(report);
  });
  app.get('/metrics', { config: { route: operational('GET', '/metrics', 'metrics') } }, async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(await services.metrics.render()));
  app.head('/', { config: { route: operational('HEAD', '/', 'probe') } }, async (_request, reply) => reply.code(200).send());
  app.get('/protocol', { config: { route: operational('GET', '/protocol', 'protocol') } }, async (_request, reply) =>
    reply.type('text/markdown; charset=utf-8').send(renderProtocol(GATEWAY_VERSION)));
  if (options.hub) registerHubRoutes(app, options.hub);
  if (options.admin) registerAdminRoutes(app, options.admin);
  if (options.mcp) registerMcpRoute(app, services, options.mcp);

  registerTelemetryRoutes(app, services, options.otlpRelay ?? null);

  // The model corridor's routes (telemetry is served above, from the same table).
  for (const route of ROUTE_TABLE.filter((entry) => entry.authenticated && !TELEMETRY_ROUTES.includes(entry))) {
    app.route({ method: route.method, url: route.url, config: { route }, handler: (request, reply) => serve(services, request, reply) });
  }
  return { app, door };
}

function operational(method: RouteEntry['method'], url: string, operation: string): RouteEntry {
  return ROUTE_TABLE.find((entry) => entry.url === url && entry.method === method)
    ?? { method, url, dialect: 'operational', operation, authenticated: false, jsonBody: false };
}

async function serve(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const state = request.gw;
  // A plain cancel object, not an AbortController: see src/upstream/cancel-signal.ts.
  const cancel = new ClientCancel();
  // The response's close before it finished is the reliable "client went away" signal
  // (the request's close fires as soon as the body has been read).
  reply.raw.on('close', () => { if (!reply.raw.writableEnded) cancel.abort(new Error('client disconnected')); });
  const queryStart = request.url.indexOf('?');
  startCallSpan(services, state.trace, { requestId: request.id, method: request.method, route: state.route!.url, operation: state.operation, headers: request.headers });
  const response = await handleRequest({
    id: request.id,
    method: request.method,
    route: state.route!,
    dialect: state.dialect,
    params: request.params as Record<string, string>,
    query: new URLSearchParams(queryStart >= 0 ? request.url.slice(queryStart + 1) : ''),
    rawPath: request.raw.url ?? request.url,
    headers: request.headers,
    body: request.body,
    rawBody: state.rawBody,
    identity: state.identity!,
    signal: cancel,
  }, services, state.trace);
  return sendPipelineResponse(request, reply, response);
}
