// What gw tracks about one request while fastify carries it through its hooks.
import type { Identity } from '../auth/authenticate.js';
import type { AuditTokens, AuditValue } from '../audit/record.js';
import type { RouteEntry } from '../pipeline/route-table.js';

export interface RequestState {
  route: RouteEntry | null;
  family: RouteEntry['family'];
  operation: string;
  startedAt: bigint;
  identity: Identity | null;
  /** The caller's address, read at the door: undici detaches a streamed body's socket from the request once sent. */
  origin?: string;
  /** Refused at the door: counted into auth.refused_burst or guard.refused_burst instead of a per-request audit record. */
  refusedAtDoor: boolean;
  /** Raw JSON bytes as received, for byte-preserving forwarding. */
  rawBody: Buffer | null;
  model: string | null;
  provider: string | null;
  tokens: AuditTokens | null;
  outcome: string[];
  warnings: string[];
  dlp?: Record<string, number>;
  data: Record<string, AuditValue>;
  bytesOut: number | null;
  /** Nanoseconds spent waiting on the provider; subtracted to get gw's own overhead. */
  upstreamNanos: bigint;
  /** gw's own time up to the response headers (set when the pipeline answered). */
  overheadSeconds: number | null;
  /** The client got its stream's final event (Codex hangs up right after response.completed). */
  finished: boolean;
  /** Set by the pipeline for a relayed stream: the record waits for its bytes and usage. */
  settled: Promise<void> | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    gw: RequestState;
  }
  interface FastifyContextConfig {
    route?: RouteEntry;
  }
}

export function newRequestState(route: RouteEntry | null, family: RouteEntry['family']): RequestState {
  return {
    route, family, operation: route?.operation ?? 'unknown', startedAt: process.hrtime.bigint(), identity: null,
    refusedAtDoor: false, rawBody: null, model: null, provider: null, tokens: null, outcome: [], warnings: [], data: {}, bytesOut: null,
    upstreamNanos: 0n, overheadSeconds: null, settled: null, finished: false,
  };
}
