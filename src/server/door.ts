// The door (fastify onRequest, before any body byte is read): who is calling, is
// the audit trail writable, is the body small enough. A refusal here answers at
// once with `connection: close`, so a 50 MB body from a stranger is never read.
// The local guard (src/sidecar/loopback-guard.ts) runs first, on every listener's
// requests and upgrades alike: guardRequest for fastify, guardUpgrade for WebSockets.
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Identity } from '../auth/authenticate.js';
import { authenticate, refuse, type AuthDecision } from '../auth/authenticate.js';
import { removeCredential, type PersonalIdentity } from '../auth/personal-identity.js';
import { buildKeyIndex, type KeyIndex } from '../auth/key-index.js';
import { VIRTUAL_KEY_PREFIX, readCredentials } from '../auth/read-credentials.js';
import { RefusedBurstTracker, originOf, type BurstKinds } from '../auth/refused-burst.js';
import { pathToRecord } from '../dlp/url-carries-secret.js';
import { GatewayError } from '../errors.js';
import { KEY_PROTOCOL_PREFIX, readSubprotocols } from '../pipeline/realtime-target.js';
import { checkLocalRequest, isGuarded, isLoopbackAddress, type LocalRefusal } from '../sidecar/loopback-guard.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { StateData } from '../state/schema.js';
import { newRequestState } from './request-state.js';
import { guessFamily, type Family } from '../pipeline/route-table.js';
import { sendError } from './send-error.js';
import { STREAMED_BODY_LIMIT_BYTES, UNAUTHENTICATED_BODY_LIMIT_BYTES, type BodySizeRule } from './limit-body-size.js';
import { BodyBudget } from './body-budget.js';
import { BUFFERED_BODY_BYTES, JSON_CONTENT_TYPE } from './body-parsers.js';

export interface Door {
  onRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Closes old refusal windows; call about once a second, and with `all` at shutdown. */
  flushRefusals(all?: boolean): void;
  /** The same checks for a WebSocket upgrade (src/server/realtime-proxy.ts), which never reaches fastify. */
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

export interface DoorOptions {
  /** A sidecar: every request and upgrade must pass the local guard, whatever it carries. */
  loopbackOnly?: boolean;
  /** A sidecar started with --allow-remote-sidecar: the non-loopback socket addresses it serves (--allow-remote-peer); none without. */
  remotePeer?: (address: string) => boolean;
}

type GuardRefusal = Exclude<LocalRefusal, null> | 'remote-peer';

export type UpgradeAdmission = { ok: true; identity: Identity } | { ok: false; error: GatewayError };

// A shared store confirms every second that the cached state is current; past this, it may not be.
const STALE_STATE_MS = 3_000;
const REFRESH_GAP_MS = 100;

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `/v1/models` serves Anthropic clients too: they announce themselves with anthropic-version. */
function familyFor(request: FastifyRequest, family: Family): Family {
  if (family === 'openai' && request.headers['anthropic-version'] && /\/models(\/|$|\?)/.test(request.url)) return 'anthropic';
  return family;
}

/** Of a body of `length` bytes (Infinity: chunked), how many gw holds in memory (body-parsers.ts). */
function heldPart(request: FastifyRequest, length: number): number {
  const type = request.headers['content-type'] ?? '';
  if (JSON_CONTENT_TYPE.test(type)) return length;
  // Multipart streams on; other bodies on upload and passthrough routes are read whole up to BUFFERED_BODY_BYTES.
  if (/^multipart\//i.test(type) || request.gw.route?.jsonBody !== false) return 0;
  return Math.min(length, BUFFERED_BODY_BYTES);
}

/** Whose share of inflight_body_bytes_per_key a request's body is. */
function holderOf(identity: Identity): string {
  if (identity.keyId !== null) return `key:${identity.keyId}`;
  return identity.person !== null ? `person:${identity.person}` : `team:${identity.team}`;
}

export function routeNotFound(method: string, url: string): GatewayError {
  return new GatewayError('GW_ERR_ROUTE_NOT_FOUND', { message: `No route ${method} ${url.split('?')[0]} on this gateway.` });
}

/** `people`: how atu- tokens, gws- session credentials and a sidecar's default identity are resolved (hub or sidecar). */
export function createDoor(services: GatewayServices, people: PersonalIdentity | null = null, options: DoorOptions = {}): Door {
  let keyIndex: KeyIndex = buildKeyIndex(services.state.snapshot());
  const stopWatching = services.state.onChange((state: StateData) => { keyIndex = buildKeyIndex(state); });
  const refusals = newBurstTracker(services, { first: 'auth.refused', burst: 'auth.refused_burst' });
  const guardRefusals = newBurstTracker<GuardRefusal>(services, { first: 'guard.refused', burst: 'guard.refused_burst' });
  const loopbackOnly = options.loopbackOnly === true;
  const remotePeer = options.remotePeer ?? (() => false);
  const budget = new BodyBudget(() => {
    const settings = services.state.snapshot().settings;
    return { total: settings.inflight_body_bytes, perKey: settings.inflight_body_bytes_per_key };
  });

  /** Read live: `gw settings set default_team …` or enforce_auth changes whom the guard covers. */
  const servesDefaultIdentity = (): boolean => {
    const settings = services.state.snapshot().settings;
    return !settings.enforce_auth && (settings.default_team !== null || (people?.defaultIdentity?.() ?? null) !== null);
  };

  function guard(raw: IncomingMessage, servesCalls: boolean, origin: string): GatewayError | null {
    if (!isGuarded({ loopbackOnly, servesCalls, servesDefaultIdentity, ownCredential: () => presentsCredential(raw) })) return null;
    // A sidecar serves its person by the connection's own address first: a Host header is whatever a non-browser client writes.
    const peer = raw.socket.remoteAddress ?? '';
    const refusal: GuardRefusal | null = loopbackOnly && !isLoopbackAddress(peer) && !remotePeer(peer) ? 'remote-peer' : checkLocalRequest(raw.headers);
    if (refusal === null) return null;
    services.metrics.authRefusals.inc({ reason: refusal });
    guardRefusals.record(originOf(origin), pathToRecord(raw.url ?? '/'), refusal);
    return guardError(refusal, loopbackOnly);
  }

  async function onRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const route = request.routeOptions.config.route ?? null;
    const family = familyFor(request, route?.family ?? guessFamily(request.url));
    request.gw = newRequestState(route, family);
    request.gw.origin = request.ip;
    const length = Number(request.headers['content-length'] ?? 0);
    if (!route?.authenticated) {
      // Read before any credential: a stranger's large body is refused unread (fastify parses bodies for unknown paths too).
      if (length <= UNAUTHENTICATED_BODY_LIMIT_BYTES) return undefined;
      const error = route === null
        ? routeNotFound(request.method, request.url)
        : new GatewayError('GW_ERR_REQUEST_TOO_LARGE', { message: `The request body (${length} bytes) is larger than this route accepts before authentication (${UNAUTHENTICATED_BODY_LIMIT_BYTES} bytes).` });
      return sendError(reply, family, error, { closeConnection: true });
    }
    const settings = services.state.snapshot().settings;
    const decision = await identify(request, settings);
    if (!decision.ok) {
      request.gw.refusedAtDoor = true;
      services.metrics.authRefusals.inc({ reason: decision.reason });
      refusals.record(originOf(request.ip), pathToRecord(request.url), decision.reason);
      services.metrics.refusedOriginsTracked.set(refusals.trackedOrigins);
      return sendError(reply, family, decision.error, { closeConnection: hasBody(request) });
    }
    request.gw.identity = decision.identity;
    const unavailable = refuseUnrecordable(settings);
    if (unavailable) return sendError(reply, family, unavailable, { closeConnection: hasBody(request) });
    // Streamed uploads are never held in memory, so only the streaming ceiling bounds them.
    const streamed = !route.jsonBody && !/json/i.test(request.headers['content-type'] ?? '');
    const limit = streamed ? STREAMED_BODY_LIMIT_BYTES : settings.body_limit_bytes;
    if (length > limit) {
      const message = `The request body (${length} bytes) is larger than this gateway accepts (${limit} bytes${streamed ? '' : '; setting body_limit_bytes'}).`;
      return sendError(reply, family, new GatewayError('GW_ERR_REQUEST_TOO_LARGE', { message }), { closeConnection: true });
    }
    return holdBody(request, reply, length);
  }

  /** Takes the body's held bytes from the budget (a chunked body's as they arrive), given back when the response closes. */
  function holdBody(request: FastifyRequest, reply: FastifyReply, length: number): FastifyReply | undefined {
    if (!hasBody(request) || heldPart(request, Number.POSITIVE_INFINITY) === 0) return undefined;
    const hold = budget.openHold(holderOf(request.gw.identity!));
    request.gw.bodyHold = hold;
    reply.raw.on('close', () => hold.release());
    const refusal = request.headers['content-length'] === undefined ? null : hold.take(heldPart(request, length));
    if (refusal === null) return undefined;
    services.logger.warn({ request_id: request.id, code: refusal.code, held_bytes: budget.heldBytes }, 'request body refused: in-flight body bytes at their cap');
    return sendError(reply, request.gw.family, refusal, { closeConnection: true });
  }

  function bodySizeRule(request: FastifyRequest): BodySizeRule {
    const lengthDeclared = request.headers['content-length'] !== undefined;
    const route = request.gw.route;
    if (!route?.authenticated) return { limit: UNAUTHENTICATED_BODY_LIMIT_BYTES, source: 'before authentication', lengthDeclared, hold: null };
    const streamed = !route.jsonBody && !/json/i.test(request.headers['content-type'] ?? '');
    const hold = request.gw.bodyHold ?? null;
    return {
      limit: streamed ? STREAMED_BODY_LIMIT_BYTES : services.state.snapshot().settings.body_limit_bytes,
      source: streamed ? 'the streamed-upload ceiling' : 'setting body_limit_bytes',
      lengthDeclared,
      hold: hold && { take: (bytes) => hold.take(bytes), heldUpTo: heldPart(request, Number.POSITIVE_INFINITY) },
    };
  }

  /** A person's credential (atu- token, or a hub's gws- session credential) is resolved and removed from the request; then keys. */
  /**
   * A credential made a moment ago (by the CLI, or through another instance of a hub) may not be in
   * this copy of the state yet: before refusing an unknown one, look for a change once. At most
   * one such look every REFRESH_GAP_MS, so a flood of made-up keys costs no more than the poll.
   */
  let lastRefresh = 0;
  async function identify(request: FastifyRequest, settings: StateData['settings']): Promise<AuthDecision> {
    const decision = await identifyOnce(request, settings);
    if (decision.ok || decision.reason !== 'unknown' || !services.state.refresh) return decision;
    const now = Date.now();
    if (now - lastRefresh < REFRESH_GAP_MS) return decision;
    lastRefresh = now;
    await services.state.refresh();
    return identifyOnce(request, settings);
  }

  async function identifyOnce(request: FastifyRequest, settings: StateData['settings']): Promise<AuthDecision> {
    const reading = readCredentials(request.raw.rawHeaders);
    if (reading.outcome === 'found' && people && reading.credential.kind !== 'virtual-key') {
      const { kind, value } = reading.credential;
      const resolved = kind === 'personal-token' ? await people.resolveToken(value) : await people.resolveSession?.(value);
      if (!resolved?.ok) return refuse(resolved?.reason ?? 'unknown');
      removeCredential(request.headers, request.raw.rawHeaders, value);
      return { ok: true, identity: resolved.identity };
    }
    return authenticate(reading, keyIndex, settings, services.now(), people?.defaultIdentity?.() ?? null);
  }

  async function admitUpgrade(raw: IncomingMessage): Promise<UpgradeAdmission> {
    const settings = services.state.snapshot().settings;
    // identify() reads only the raw and parsed headers, which an upgrade request has too.
    const decision = await identify({ raw, headers: raw.headers } as unknown as FastifyRequest, settings);
    if (!decision.ok) {
      services.metrics.authRefusals.inc({ reason: decision.reason });
      refusals.record(originOf(raw.socket.remoteAddress ?? 'unknown'), pathToRecord(raw.url ?? '/'), decision.reason);
      return { ok: false, error: decision.error };
    }
    const unavailable = refuseUnrecordable(settings);
    if (unavailable) return { ok: false, error: unavailable };
    return { ok: true, identity: decision.identity };
  }

  /**
   * With audit_failure=block, a call is refused when it could not be recorded, or when a shared
   * store has not confirmed for STALE_STATE_MS that this instance's copy is current (a revocation
   * made through another instance might not be in it).
   */
  function refuseUnrecordable(settings: StateData['settings']): GatewayError | null {
    if (settings.audit_failure !== 'block') return null;
    if (!services.audit.status().ok) return new GatewayError('GW_ERR_AUDIT_UNAVAILABLE');
    const store = services.state.health?.();
    if (store?.synced_ms_ago !== undefined && store.synced_ms_ago > STALE_STATE_MS) return new GatewayError('GW_ERR_STATE_UNAVAILABLE');
    return null;
  }

  return {
    onRequest,
    admitUpgrade,
    guardRequest: (request) => guard(request.raw, request.routeOptions.config.route?.authenticated === true, request.ip),
    guardUpgrade: (raw) => guard(raw, true, raw.socket.remoteAddress ?? 'unknown'),
    bodySizeRule,
    heldBodyBytes: () => budget.heldBytes,
    flushRefusals: (all = false) => {
      refusals.flush(all);
      guardRefusals.flush(all);
      services.metrics.refusedOriginsTracked.set(refusals.trackedOrigins);
    },
    close: stopWatching,
  };
}

function newBurstTracker<Reason extends string>(services: GatewayServices, kinds: BurstKinds): RefusedBurstTracker<Reason> {
  return new RefusedBurstTracker<Reason>({
    windowMs: services.state.snapshot().settings.refused_burst_window_seconds * 1000,
    now: () => services.now().getTime(),
    kinds,
    emit: (kind, summary) => {
      const { origin, reasons, ...data } = summary;
      // Only reasons that occurred are keys, so no value is undefined.
      services.audit.append({ kind, origin, data: { ...data, reasons: reasons as Record<string, number> } }).then(
        () => services.metrics.auditRecords.inc({ kind }),
        () => services.metrics.auditWriteErrors.inc(),
      );
    },
  });
}

/** A gw credential of the call's own: in a header, or (browser WebSockets can send no header) a subprotocol. */
function presentsCredential(raw: IncomingMessage): boolean {
  if (readCredentials(raw.rawHeaders).outcome !== 'none') return true;
  return readSubprotocols(raw.headers).some((protocol) => protocol.startsWith(`${KEY_PROTOCOL_PREFIX}${VIRTUAL_KEY_PREFIX}`));
}

function guardError(refusal: GuardRefusal, sidecar: boolean): GatewayError {
  if (refusal === 'remote-peer') return new GatewayError('GW_ERR_AUTH_REMOTE_PEER');
  const code = refusal === 'foreign-host' ? 'GW_ERR_AUTH_FOREIGN_HOST' : 'GW_ERR_AUTH_CROSS_ORIGIN';
  if (sidecar) return new GatewayError(code);
  // The catalog's message speaks of a sidecar; here the call would have been served on default_team.
  const message = refusal === 'foreign-host'
    ? 'This gateway serves calls without a credential (setting default_team) only when addressed to a loopback name (Host: localhost, 127.0.0.1 or [::1]), to stop DNS rebinding; send your own gw key.'
    : 'This gateway serves calls without a credential (setting default_team) only to same-origin callers, not to web pages of other origins; send your own gw key.';
  return new GatewayError(code, { message });
}
