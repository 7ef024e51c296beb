// The door (fastify onRequest, before any body byte is read): the fastify side of stages 1 and 2.
// The stages themselves are framework-free in pipeline/: the local guard (local-guard.ts),
// identify (identify-caller.ts) and the body budget (admit-body.ts); this file reads a fastify
// request into what they take and answers a refusal at once with `connection: close`, so a
// 50 MB body from a stranger is never read. A WebSocket upgrade (realtime-proxy.ts), which
// never reaches fastify, goes through the same stages with guardUpgrade and admitUpgrade.
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PersonalIdentity } from '../auth/personal-identity.js';
import type { GatewayError } from '../errors.js';
import { createBodyStage, hasBody, type BodyRequest } from '../pipeline/door/admit-body.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import { createCallerIdentifier, type Admission } from '../pipeline/door/identify-caller.js';
import type { BodySizeRule } from '../pipeline/door/limit-body-size.js';
import { createLocalGuard, type GuardOptions } from '../pipeline/door/local-guard.js';
import { newRequestState } from '../pipeline/request-state.js';
import type { RouteDialect } from '../canonical/dialect.js';
import { guessDialect, isAnthropicCaller } from '../pipeline/route-table.js';
import { sendError } from './send-error.js';
import './fastify-request.js';

export { routeNotFound } from '../pipeline/door/admit-body.js';

export interface Door {
  onRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Closes old refusal windows; call about once a second, and with `all` at shutdown. */
  flushRefusals(all?: boolean): void;
  /** Identify for a WebSocket upgrade (src/server/realtime-proxy.ts), which never reaches fastify. */
  admitUpgrade(raw: IncomingMessage): Promise<UpgradeAdmission>;
  /** The local guard for an HTTP request (every route, before the credential check): the refusal to send, or null. */
  guardRequest(request: FastifyRequest): GatewayError | null;
  /** The same guard for a WebSocket upgrade; call before anything else answers the handshake. */
  guardUpgrade(raw: IncomingMessage): GatewayError | null;
  /** How much body this request may send, and (chunked) which hold its bytes are counted into; after onRequest. */
  bodySizeRule(request: FastifyRequest): BodySizeRule;
  /** Request-body bytes held in memory now (inflight_body_bytes). */
  heldBodyBytes(): number;
  close(): void;
}

export type DoorOptions = GuardOptions;

export type UpgradeAdmission = Admission;

/**
 * `/v1/models` serves Anthropic clients too, and a path gw does not serve answers in the
 * caller's shape: an Anthropic SDK announces itself with anthropic-version, Claude Code with
 * its user-agent (its telemetry exporter sends no anthropic-version).
 */
function dialectFor(request: FastifyRequest, dialect: RouteDialect, known: boolean): RouteDialect {
  if (dialect !== 'openai' || !isAnthropicCaller(request.headers)) return dialect;
  return !known || /\/models(\/|$|\?)/.test(request.url) ? 'anthropic' : dialect;
}

function bodyRequest(request: FastifyRequest): BodyRequest {
  return { id: request.id, headers: request.headers, route: request.gw.route };
}

/** `people`: how atu- tokens, gws- session credentials and a sidecar's default identity are resolved (hub or sidecar). */
export function createDoor(services: GatewayServices, people: PersonalIdentity | null = null, options: DoorOptions = {}): Door {
  const identifier = createCallerIdentifier(services, people);
  const guard = createLocalGuard(services, people, options);
  const body = createBodyStage(services);

  async function onRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const route = request.routeOptions.config.route ?? null;
    const dialect = dialectFor(request, route?.dialect ?? guessDialect(request.url), route !== null);
    request.gw = newRequestState(route, dialect);
    request.gw.origin = request.ip;
    if (!route?.authenticated) {
      const refusal = body.refuseUnauthenticated(bodyRequest(request), request.method, request.url);
      return refusal === null ? undefined : sendError(reply, dialect, refusal, { closeConnection: true });
    }
    const settings = services.state.snapshot().settings;
    const admission = await identifier.admit({ headers: request.headers, rawHeaders: request.raw.rawHeaders, url: request.url, origin: request.ip }, settings);
    if (!admission.ok) {
      if (admission.refused === 'credential') request.gw.refusedAtDoor = true;
      return sendError(reply, dialect, admission.error, { closeConnection: hasBody(request.headers) });
    }
    request.gw.identity = admission.identity;
    const held = body.admit(bodyRequest(request), admission.identity, settings);
    if (held.hold !== null) {
      const hold = held.hold;
      request.gw.bodyHold = hold;
      reply.raw.on('close', () => hold.release());
    }
    return held.ok ? undefined : sendError(reply, dialect, held.error, { closeConnection: true });
  }

  return {
    onRequest,
    admitUpgrade: (raw) => identifier.admit({ headers: raw.headers, rawHeaders: raw.rawHeaders, url: raw.url ?? '/', origin: raw.socket.remoteAddress ?? 'unknown' }, services.state.snapshot().settings),
    guardRequest: (request) => guard.check({ headers: request.raw.headers, rawHeaders: request.raw.rawHeaders, url: request.raw.url ?? '/', peer: request.raw.socket.remoteAddress ?? '' }, request.routeOptions.config.route?.authenticated === true, request.ip),
    guardUpgrade: (raw) => guard.check({ headers: raw.headers, rawHeaders: raw.rawHeaders, url: raw.url ?? '/', peer: raw.socket.remoteAddress ?? '' }, true, raw.socket.remoteAddress ?? 'unknown'),
    bodySizeRule: (request) => body.sizeRule(bodyRequest(request), request.gw.bodyHold ?? null),
    heldBodyBytes: () => body.heldBytes(),
    flushRefusals: (all = false) => {
      identifier.flush(all);
      guard.flush(all);
    },
    close: () => identifier.close(),
  };
}
