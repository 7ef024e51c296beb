// Stage 1's last check, the body budget (before any body byte is read): is the declared body
// small enough for this route, and can gw hold it in memory now (body-budget.ts, globally and
// per credential). Reads headers, the route and the caller, never a framework's request; the
// transport releases the hold when its response closes, and counts a chunked body's bytes as
// they arrive against the size rule (limit-body-size.ts).
import type { IncomingHttpHeaders } from 'node:http';
import type { Identity } from '../../auth/authenticate.js';
import { GatewayError } from '../../errors.js';
import type { StateData } from '../../state/schema.js';
import { BodyBudget, type BodyHold } from './body-budget.js';
import type { GatewayServices } from '../gateway-services.js';
import { BUFFERED_BODY_BYTES, JSON_CONTENT_TYPE, STREAMED_BODY_LIMIT_BYTES, UNAUTHENTICATED_BODY_LIMIT_BYTES, type BodySizeRule } from './limit-body-size.js';
import type { RouteEntry } from '../route-table.js';

/** What the body stage reads of a request. */
export interface BodyRequest {
  id: string;
  headers: IncomingHttpHeaders;
  route: RouteEntry | null;
}

/** A refusal (`hold` is what was opened: release it when the response closes), or the hold to keep (null: nothing held). */
export type BodyAdmission = { ok: true; hold: BodyHold | null } | { ok: false; error: GatewayError; hold: BodyHold | null };

export interface BodyStage {
  /** Before authentication: a stranger's body larger than UNAUTHENTICATED_BODY_LIMIT_BYTES (or one for no route) is refused unread. */
  refuseUnauthenticated(request: BodyRequest, method: string, url: string): GatewayError | null;
  /** After identify: the size limit in force, then the hold of the bytes gw keeps in memory. */
  admit(request: BodyRequest, identity: Identity, settings: StateData['settings']): BodyAdmission;
  /** How much body this request may send, and (chunked) which hold its bytes are counted into. */
  sizeRule(request: BodyRequest, hold: BodyHold | null): BodySizeRule;
  /** Request-body bytes held in memory now (inflight_body_bytes). */
  heldBytes(): number;
}

export function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function routeNotFound(method: string, url: string): GatewayError {
  return new GatewayError('GW_ERR_ROUTE_NOT_FOUND', { message: `No route ${method} ${url.split('?')[0]} on this gateway.` });
}

export function createBodyStage(services: GatewayServices): BodyStage {
  const budget = new BodyBudget(() => {
    const settings = services.state.snapshot().settings;
    return { total: settings.inflight_body_bytes, perKey: settings.inflight_body_bytes_per_key };
  });

  function refuseUnauthenticated(request: BodyRequest, method: string, url: string): GatewayError | null {
    // Read before any credential: a stranger's large body is refused unread (fastify parses bodies for unknown paths too).
    const length = Number(request.headers['content-length'] ?? 0);
    if (length <= UNAUTHENTICATED_BODY_LIMIT_BYTES) return null;
    if (request.route === null) return routeNotFound(method, url);
    return new GatewayError('GW_ERR_REQUEST_TOO_LARGE', { message: `The request body (${length} bytes) is larger than this route accepts before authentication (${UNAUTHENTICATED_BODY_LIMIT_BYTES} bytes).` });
  }

  function admit(request: BodyRequest, identity: Identity, settings: StateData['settings']): BodyAdmission {
    const length = Number(request.headers['content-length'] ?? 0);
    // Streamed uploads are never held in memory, so only the streaming ceiling bounds them.
    const streamed = isStreamed(request);
    const limit = streamed ? STREAMED_BODY_LIMIT_BYTES : settings.body_limit_bytes;
    if (length > limit) {
      const message = `The request body (${length} bytes) is larger than this gateway accepts (${limit} bytes${streamed ? '' : '; setting body_limit_bytes'}).`;
      return { ok: false, error: new GatewayError('GW_ERR_REQUEST_TOO_LARGE', { message }), hold: null };
    }
    if (!hasBody(request.headers) || heldPart(request, Number.POSITIVE_INFINITY) === 0) return { ok: true, hold: null };
    // The body's held bytes are taken from the budget (a chunked body's as they arrive), given back when the response closes.
    const hold = budget.openHold(holderOf(identity));
    const refusal = request.headers['content-length'] === undefined ? null : hold.take(heldPart(request, length));
    if (refusal === null) return { ok: true, hold };
    services.logger.warn({ request_id: request.id, code: refusal.code, held_bytes: budget.heldBytes }, 'request body refused: in-flight body bytes at their cap');
    return { ok: false, error: refusal, hold };
  }

  function sizeRule(request: BodyRequest, hold: BodyHold | null): BodySizeRule {
    const lengthDeclared = request.headers['content-length'] !== undefined;
    if (!request.route?.authenticated) return { limit: UNAUTHENTICATED_BODY_LIMIT_BYTES, source: 'before authentication', lengthDeclared, hold: null };
    const streamed = isStreamed(request);
    return {
      limit: streamed ? STREAMED_BODY_LIMIT_BYTES : services.state.snapshot().settings.body_limit_bytes,
      source: streamed ? 'the streamed-upload ceiling' : 'setting body_limit_bytes',
      lengthDeclared,
      hold: hold && { take: (bytes) => hold.take(bytes), heldUpTo: heldPart(request, Number.POSITIVE_INFINITY) },
    };
  }

  return { refuseUnauthenticated, admit, sizeRule, heldBytes: () => budget.heldBytes };
}

function isStreamed(request: BodyRequest): boolean {
  return request.route?.jsonBody === false && !/json/i.test(request.headers['content-type'] ?? '');
}

/** Of a body of `length` bytes (Infinity: chunked), how many gw holds in memory (server/body-parsers.ts). */
function heldPart(request: BodyRequest, length: number): number {
  const type = request.headers['content-type'] ?? '';
  if (JSON_CONTENT_TYPE.test(type)) return length;
  // Multipart streams on; other bodies on upload and passthrough routes are read whole up to BUFFERED_BODY_BYTES.
  if (/^multipart\//i.test(type) || request.route?.jsonBody !== false) return 0;
  return Math.min(length, BUFFERED_BODY_BYTES);
}

/** Whose share of inflight_body_bytes_per_key a request's body is. */
function holderOf(identity: Identity): string {
  if (identity.keyId !== null) return `key:${identity.keyId}`;
  return identity.person !== null ? `person:${identity.person}` : `team:${identity.team}`;
}
