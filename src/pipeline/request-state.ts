// What gw tracks about one request from the door to the record, whichever transport carries it
// (fastify's hooks hang it on the request: server/fastify-request.ts; a WebSocket turn builds its own).
import type { Identity } from '../auth/authenticate.js';
import { RequestTrace } from './request-trace.js';
import type { RouteEntry } from './route-table.js';
import type { BodyHold } from './door/body-budget.js';

export interface RequestState {
  route: RouteEntry | null;
  dialect: RouteEntry['dialect'];
  operation: string;
  startedAt: bigint;
  identity: Identity | null;
  /** The caller's address, read at the door: undici detaches a streamed body's socket from the request once sent. */
  origin?: string;
  /** Refused at the door: counted into auth.refused_burst or guard.refused_burst instead of a per-request audit record. */
  refusedAtDoor: boolean;
  /** This request's share of inflight_body_bytes, released when the response closes (admit-body.ts). */
  bodyHold?: BodyHold;
  /** Raw JSON bytes as received, for byte-preserving forwarding. */
  rawBody: Buffer | null;
  /** What the corridor learned (provider, usage, outcome, DLP counts…), for the record stage. */
  trace: RequestTrace;
  /** gw's own time up to the response headers (set when the pipeline answered). */
  overheadSeconds: number | null;
}

export function newRequestState(route: RouteEntry | null, dialect: RouteEntry['dialect']): RequestState {
  return {
    route, dialect, operation: route?.operation ?? 'unknown', startedAt: process.hrtime.bigint(), identity: null,
    refusedAtDoor: false, rawBody: null, trace: new RequestTrace(), overheadSeconds: null,
  };
}
